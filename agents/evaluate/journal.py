"""A journal of an evaluation's finished games: a stopped run goes on where it stopped.

``evaluate_many(requests, journal=DIR)`` keeps one file per run in ``DIR``: the run's
key and the outcome of every game it has finished, rewritten whole
(:func:`cardgym.files.atomic_write`) as each batch of games comes back (at most
:data:`~agents.evaluate.run.JOURNAL_BATCH` games a batch). The same
requests again, with the same journal, play only the games that are not in it, and
give the result one uninterrupted run would give (for agents whose moves depend on
the seed alone; a search with a time per move plays as the machine lets it).

A run's **key** is everything its games depend on: the game and its rule options, the
table size, the agent specs, the sha256 of every model file those specs read
(:func:`agents.specs.spec_files`), the seed, the match length and the engine
(AEC or batched). The file's name is a digest of the key, so a run with another key
(a model retrained, another seed) gets a file of its own and nothing is mixed; the
number of games is not in the key (game ``g`` of a run is the same game however many
are asked for), so a longer run reuses a shorter one's games. Runs with agents given
as policy objects, which no spec names, are not journaled. Each result names its file
(:attr:`~agents.evaluate.results.EvalResult.journal`), and
:func:`~agents.evaluate.run.discard_journals` removes the files of results that are
kept elsewhere. A process playing a run holds its lock file (``.run-DIGEST.lock``,
:meth:`RunJournal.hold`): the same run started a second time into the same folder while
the first plays is refused; other runs share the folder freely.

A file is JSON: ``{"journal": ..., "version": 1, "key": {...}, "games": [...]}``, one
object per finished game (:class:`~agents.evaluate.results.GameOutcome`'s fields).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agents.evaluate.results import GameOutcome
from cardgym.errors import CardgymError
from cardgym.files import atomic_write, file_digests, os_problem

__all__ = ["JOURNAL_KIND", "JournalError", "RunJournal", "lock_path", "plain_options",
           "run_key"]

#: What a journal file says it is.
JOURNAL_KIND = "cardgym evaluation journal"
VERSION = 1


class JournalError(CardgymError, ValueError):
    """A journal file that cannot be read, or one that belongs to another run."""


def plain_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Rule options as JSON holds them (tuples as lists, the rest as text)."""
    return json.loads(json.dumps(dict(options), sort_keys=True, default=str))  # type: ignore[no-any-return]


def lock_path(journal: Path) -> Path:
    """The lock file of the journal file ``journal``: ``.run-DIGEST.lock`` beside it."""
    return journal.with_name(f".{journal.stem}.lock")


def run_key(game: str, num_players: int, options: Mapping[str, Any], specs: Sequence[str],
            files: Iterable[Path], seed: int, match_length: int, vector: bool,
            ) -> dict[str, Any]:
    """The key of a run: what its games depend on (``files``: the model files the specs
    read, by content)."""
    return {"game": game, "players": num_players, "options": plain_options(options),
            "agents": list(specs), "models": file_digests(files), "seed": seed,
            "match_length": match_length, "engine": "batched" if vector else "aec"}


def _outcome(entry: Mapping[str, Any]) -> GameOutcome:
    first = entry["first"]
    return GameOutcome(index=int(entry["index"]), agents=tuple(entry["agents"]),
                       winners=tuple(entry["winners"]), steps=int(entry["steps"]),
                       moves=tuple(entry["moves"]), rounds=int(entry["rounds"]),
                       round_wins=tuple(entry["round_wins"]),
                       first=None if first is None else int(first))


@dataclass
class RunJournal:
    """The journal file of one run: the games it holds, by number, and the means to
    add more.

    Attributes:
        path: the file, ``DIR/run-DIGEST.json``.
        key: the run's key (:func:`run_key`).
        games: the finished games, by their number in the run.
    """

    path: Path
    key: dict[str, Any]
    games: dict[int, GameOutcome] = field(default_factory=dict)

    @classmethod
    def open(cls, directory: str | Path, key: Mapping[str, Any]) -> RunJournal:
        """The journal of the run with ``key`` in ``directory``, with the games an
        earlier run wrote there (none when there is no file yet).

        Raises:
            JournalError: the file is not a journal, or a journal of another run.
        """
        text = json.dumps(key, sort_keys=True)
        name = "run-" + hashlib.sha256(text.encode()).hexdigest()[:20] + ".json"
        path = Path(directory) / name
        journal = cls(path, json.loads(text))
        if not path.exists():
            return journal
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise JournalError(str(os_problem(path, error, "read"))) from None
        except ValueError as error:
            raise JournalError(f"{path} is not a journal of finished games ({error}); "
                               "remove it to play its games again") from None
        if not isinstance(data, dict) or data.get("journal") != JOURNAL_KIND:
            raise JournalError(f"{path} is not a journal of finished games; remove it to "
                               "play its games again")
        if data.get("version") != VERSION:
            raise JournalError(f"{path} is a journal of version {data.get('version')!r}; "
                               f"this cardgym reads version {VERSION}")
        if data.get("key") != journal.key:
            raise JournalError(f"{path} belongs to another run than its name says; remove "
                               "it to play its games again")
        try:
            for entry in data["games"]:
                outcome = _outcome(entry)
                journal.games[outcome.index] = outcome
        except (KeyError, TypeError, ValueError) as error:
            raise JournalError(f"{path} holds a game that cannot be read ({error!r}); remove "
                               "it to play its games again") from None
        return journal

    @property
    def lock(self) -> Path:
        """The file a process playing the run holds locked (:meth:`hold`)."""
        return lock_path(self.path)

    def hold(self) -> AbstractContextManager[None]:
        """Hold the run for this process while the ``with`` block runs, so that a
        second process playing the same run into the same folder at the same time is
        refused rather than playing the same games and overwriting the file.

        Raises:
            JournalError: another process holds the run; the message names it.
            OutputError: the folder cannot be made.
        """
        from agents.runs import hold_lock

        def in_use(holder: str) -> Exception:
            return JournalError(f"{self.path} is being played by another process ({holder}); "
                                "wait for it to end, or give another journal folder")

        return hold_lock(self.lock, in_use, "make the journal folder")

    def missing(self, games: int) -> list[int]:
        """The numbers of the first ``games`` games that the journal does not hold."""
        return [g for g in range(games) if g not in self.games]

    def found(self, games: int) -> list[GameOutcome]:
        """The games among the first ``games`` that the journal holds."""
        return [self.games[g] for g in range(games) if g in self.games]

    def add(self, outcomes: Iterable[GameOutcome]) -> None:
        """Keep ``outcomes`` and write the file again, whole.

        Raises:
            OutputError: the file cannot be written (no room, no permission); the
                journal on disk is then the one before.
        """
        for outcome in outcomes:
            self.games[outcome.index] = outcome
        payload = {"journal": JOURNAL_KIND, "version": VERSION, "key": self.key,
                   "games": [asdict(self.games[g]) for g in sorted(self.games)]}
        atomic_write(self.path, json.dumps(payload, separators=(",", ":")) + "\n")
