"""Evaluation runs: requests checked, cut into batches, played and counted.

Many runs. :func:`evaluate_many` plays several runs (an arena's pairings) on one
process pool; each run's result equals what :func:`evaluate` gives for it alone.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from agents.evaluate.games import (
    Batch,
    build_policies,
    forget_agents,
    keep_agents,
    play_games,
)
from agents.evaluate.journal import JournalError, RunJournal, lock_path, run_key
from agents.evaluate.pool import chunks, run_in_processes
from agents.evaluate.results import EvalResult, GameOutcome, summarise
from agents.evaluate.seating import AgentSpec, agent_label, spec_indices
from agents.options import as_bound
from agents.outcomes import has_rounds
from agents.policy import Policy
from agents.specs import spec_files
from cardgym.registration import BoundGame, Game

__all__ = ["EvalRequest", "discard_journals", "evaluate", "evaluate_many"]


#: The most games in one batch of a journaled run: the most a stop can lose per
#: worker process (a batch's games reach the journal when the batch comes back).
JOURNAL_BATCH = 10


@dataclass(frozen=True)
class EvalRequest:
    """One run of :func:`evaluate_many`: the arguments of :func:`evaluate` but ``workers``."""

    game: Game | BoundGame | str
    num_players: int
    agent_specs: Sequence[AgentSpec]
    games: int
    seed: int = 0
    options: Mapping[str, Any] | None = None
    match_length: int = 1
    record_dir: str | None = None
    vector: bool = False
    built: Sequence[Policy] | None = None


class _Checked(NamedTuple):
    """A request once checked: the bound game, the options to report, the specs, the
    spec of each agent entry, the agents built from them and the run's token."""

    bound: BoundGame
    options: dict[str, Any]
    specs: list[AgentSpec]
    spec_of_agent: list[int]
    policies: list[Policy]
    run: str


def evaluate(game: Game | BoundGame | str, num_players: int, agent_specs: Sequence[AgentSpec],
             games: int, seed: int = 0, workers: int = 2,
             options: Mapping[str, Any] | None = None, match_length: int = 1,
             progress: Callable[[int], None] | None = None,
             record_dir: str | None = None, vector: bool = False,
             built: Sequence[Policy] | None = None,
             journal: str | Path | None = None) -> EvalResult:
    """Play ``games`` seeded games and count who won.

    Args:
        game: a registered game, or its id or short name; or a bound game
            (:meth:`cardgym.game.Game.bind`), whose options are trusted (give no
            ``options`` then, and its ``num_players``).
        num_players: seats at the table.
        agent_specs: ``num_players`` agents, one per seat, or 2: the first against the
            second in every other seat. Each is a spec for
            :func:`agents.specs.make_policy` (built in each worker process) or a
            picklable :class:`~agents.policy.Policy` object.
        games: games to play (positive); matches when ``match_length`` is above 1.
        seed: the run's seed (non-negative).
        workers: processes; 1 plays in this process. The result does not depend on it.
        options: rule options of the game.
        match_length: games per best-of-N match (games without rounds only).
        progress: called with the number of games just finished, as batches finish
            (a progress bar's ``update``).
        record_dir: a folder to write a game record (:mod:`cardgym.records`) of
            every game into, ``game-NNNNN.json`` by game number (with ``-K`` for game
            K of a best-of-N match); ``cardgym replay`` plays one back.
        vector: play the games on the game's batched engine, all in this process
            (:mod:`agents.evaluate.batched`): every agent must act from observations;
            the deals differ from the AEC env's for the same seed.
        built: the agents of ``agent_specs``, one per spec, built already in this
            process (for ``game`` bound: the command line builds them to check them);
            this process plays with them instead of building them again.
        journal: a folder that keeps every finished game; the same call after a stop
            plays only the games still missing (see :func:`evaluate_many`).

    Raises:
        ValueError: a bad size, seat count, agent count or match length;
            ``OptionsError`` for bad options and ``AgentSpecError`` for unknown agents
            (both ``ValueError``); ``TypeError`` for a bound game given options or
            another ``num_players``.
    """
    request = EvalRequest(game, num_players, agent_specs, games, seed, options, match_length,
                          record_dir, vector, built)
    return evaluate_many([request], workers, progress, journal)[0]


def evaluate_many(requests: Sequence[EvalRequest], workers: int = 2,
                  progress: Callable[[int], None] | None = None,
                  journal: str | Path | None = None) -> list[EvalResult]:
    """Play several runs on one process pool; one result per request, in order.

    Each result is the one :func:`evaluate` gives for its request alone;
    ``seconds`` is the wall time of the whole call, shared by all. ``progress``
    is called with the number of games of each batch as it finishes (and first
    with the games a journal already holds).

    With ``journal`` (a folder), every finished game of a run whose agents are all
    specs is kept there as its batch comes back (:mod:`agents.evaluate.journal`), and
    the games a journal there already holds for a run with the same key are not played
    again: a run that was stopped goes on where it stopped.

    A run's journal is held for the whole call (:meth:`RunJournal.hold`): the same
    run started again into the same folder while this call plays it is refused.

    Raises:
        ValueError: see :func:`evaluate`; ``JournalError`` for a journal file that
            cannot be read or a run another process is playing into the same folder.
            ``OutputError`` when the journal cannot be written.
    """
    if workers <= 0:
        raise ValueError(f"workers must be positive, got {workers}")
    if not requests:
        return []
    if journal is not None and Path(journal).exists() and not Path(journal).is_dir():
        raise JournalError(f"the journal {journal} is not a folder; give a folder (it is "
                           "made when missing) for the finished games to be kept in")
    checked = [_check(request) for request in requests]
    journals = [_journal(request, table.bound, table.specs, journal) for request, table
                in zip(requests, checked, strict=True)]
    with ExitStack() as held:
        # Once per file: the same run asked twice in one call is not another process.
        for run in {run.path: run for run in journals if run is not None}.values():
            held.enter_context(run.hold())
        for table in checked:
            keep_agents(table.run, table.policies)
        try:
            return _play(requests, checked, journals, workers, progress)
        finally:
            for table in checked:
                forget_agents(table.run)


def discard_journals(results: Iterable[EvalResult]) -> int:
    """Remove the journal file of each of ``results`` (:attr:`EvalResult.journal`),
    once the results are kept elsewhere; other runs' files in the same folder stay.
    Returns how many files were removed."""
    removed = 0
    for result in results:
        if result.journal is not None:
            removed += result.journal.exists()
            result.journal.unlink(missing_ok=True)
            lock_path(result.journal).unlink(missing_ok=True)
    return removed


def _journal(request: EvalRequest, bound: BoundGame, specs: Sequence[AgentSpec],
             journal: str | Path | None) -> RunJournal | None:
    """The journal of a run in folder ``journal``, or ``None`` (no folder, or an agent
    given as a policy object, which no key can name)."""
    if journal is None or not all(isinstance(spec, str) for spec in specs):
        return None
    names = [str(spec) for spec in specs]
    files = [path for spec in names for path in spec_files(spec, bound)]
    key = run_key(bound.game.env_id, request.num_players, bound.options, names, files,
                  request.seed, request.match_length, request.vector)
    return RunJournal.open(journal, key)


def _play(requests: Sequence[EvalRequest], checked: Sequence[_Checked],
          journals: Sequence[RunJournal | None], workers: int,
          progress: Callable[[int], None] | None) -> list[EvalResult]:
    """Play the checked runs; their agents are built already in this process."""
    start = time.perf_counter()
    records: list[list[GameOutcome]] = [[] for _ in requests]
    todo: list[list[int]] = []
    for number, (request, run) in enumerate(zip(requests, journals, strict=True)):
        if run is None:
            todo.append(list(range(request.games)))
            continue
        missing = run.missing(request.games)
        # The batched engine plays a run's games together: all of them, or none.
        todo.append(list(range(request.games)) if request.vector and missing else missing)
        if len(todo[-1]) < request.games:
            records[number] = run.found(request.games)
            if progress is not None:
                progress(len(records[number]))
    aec = [number for number, request in enumerate(requests)
           if not request.vector and todo[number]]
    batches, owner = _batches([requests[n] for n in aec], [checked[n] for n in aec],
                              [todo[n] for n in aec], workers,
                              [journals[n] is not None for n in aec])
    owner = [aec[number] for number in owner]
    for number, (request, table) in enumerate(zip(requests, checked, strict=True)):
        if request.vector and todo[number]:
            from agents.evaluate.batched import play_batched

            records[number] = play_batched(table.bound, table.policies, table.spec_of_agent,
                                           request.seed, request.games)
            _keep(journals[number], records[number])
            if progress is not None:
                progress(request.games)
    played = run_in_processes(play_games, batches, workers) if batches else []
    for number, batch, found in zip(owner, batches, played, strict=True):
        records[number].extend(found)
        _keep(journals[number], found)
        if progress is not None:
            progress(len(batch.indices))
    seconds = time.perf_counter() - start
    results = []
    for request, table, run_records, run in zip(requests, checked, records, journals,
                                                strict=True):
        run_records.sort(key=lambda record: record.index)
        results.append(summarise(table.bound.game, request.num_players,
                                 [agent_label(spec) for spec in table.specs],
                                 table.spec_of_agent, request.seed, table.options, run_records,
                                 seconds, request.match_length,
                                 None if run is None else run.path))
    return results


def _keep(journal: RunJournal | None, outcomes: Sequence[GameOutcome]) -> None:
    if journal is not None:
        journal.add(outcomes)


def _batches(requests: Sequence[EvalRequest], checked: Sequence[_Checked],
             todo: Sequence[Sequence[int]], workers: int,
             journaled: Sequence[bool]) -> tuple[list[Batch], list[int]]:
    """The batches of every run (of the games ``todo`` lists for it), and the request
    each belongs to."""
    # About four batches per worker in all (a worker builds a run's agents once, for
    # its first batch of the run); a journaled run's batches hold at most
    # JOURNAL_BATCH games, so that a stop loses little.
    if not requests:
        return [], []
    pieces = max(1, -(-workers * 4 // len(requests)))
    batches: list[Batch] = []
    owner: list[int] = []
    for number, (request, table, games, kept) in enumerate(zip(requests, checked, todo,
                                                                journaled, strict=True)):
        parts = max(pieces, -(-len(games) // JOURNAL_BATCH)) if kept else pieces
        for piece in chunks(len(games), parts):
            chunk = games[piece.start:piece.stop]
            batches.append(Batch(table.bound, table.specs, request.seed, chunk,
                                 request.match_length, request.record_dir,
                                 [agent_label(s) for s in table.specs], table.run))
            owner.append(number)
    return batches, owner


def _check(request: EvalRequest) -> _Checked:
    """The request's bound game and agents, once they are known to be fine (the
    agents built here are the ones this process plays with).

    Raises:
        ValueError: see :func:`evaluate`.
    """
    if request.games <= 0:
        raise ValueError(f"games must be positive, got {request.games}")
    if request.seed < 0:
        raise ValueError(f"seed must be >= 0, got {request.seed}")
    if request.match_length <= 0:
        raise ValueError(f"match_length must be a positive number of games (best of N), "
                         f"got {request.match_length}")
    bound = as_bound(request.game, request.num_players, request.options)
    # What the report names: the options as given, or a bound game's changed ones.
    options = (bound.changed_options if isinstance(request.game, BoundGame)
               else dict(request.options or {}))
    entry = bound.game
    if request.match_length > 1 and has_rounds(entry):
        raise ValueError(f"{entry.name} already plays a match of rounds per "
                         f"game; match_length must be 1, got {request.match_length}")
    specs = list(request.agent_specs)
    spec_of_agent = spec_indices(specs, request.num_players)
    # Fail here, not in a worker, on a spec that names no agent.
    if request.built is None:
        policies = build_policies(specs, bound)
    elif len(request.built) != len(specs):
        raise ValueError(f"built holds {len(request.built)} agents for {len(specs)} specs")
    else:
        policies = list(request.built)
    if request.vector:
        from agents.evaluate.batched import batched_refusal

        reason = batched_refusal(entry, policies, request.match_length, request.record_dir)
        if reason is not None:
            raise ValueError(f"cannot evaluate on the batched engine: {reason}")
    return _Checked(bound, options, specs, spec_of_agent, policies, secrets.token_hex(8))
