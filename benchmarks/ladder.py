"""The agent ladder of each game and table size: rungs from random play up to
network-guided search, every pair of rungs head to head.

Usage::

    python -m benchmarks.ladder --games 200 --output benchmarks/results --write-readme
    python -m benchmarks.ladder --env karel_kakelaar --players 2 --games 50 --times 0.032 0.064
    make tables                      # every table, this one included

The rungs (:func:`rungs`), bottom to top:

1. ``random``: a uniformly random legal action;
2. ``heuristic``: the game's hand-written heuristic;
3. ``ISMCTS T ms`` for each time ``T`` of ``--times`` (64 and 128 ms by default):
   information-set MCTS with a fixed wall-clock time per move and the ``ismcts``
   agent's defaults (random rollouts, the heuristic's move as prior);
4. ``network``: the shipped baseline network of the game and table size;
5. ``guided ISMCTS T ms`` at the longest time: the same search guided by that network
   (its policy as the prior, AlphaZero's PUCT selection, its value head at the
   leaves: ``prior=policy,value=policy,select=puct,c=1.5``).

The rungs meet as the arena's agents do (:func:`benchmarks.arena.run_arena`): seeded
games or matches, seats rotated game by game; at two players each pair of rungs once,
with more players each rung holding one seat against each other rung in all the other
seats. What the ladder reads from them:

- the **matrix** of head-to-head win rates with 95% Wilson intervals;
- each rung **against the rung below**: *told apart* when that interval leaves out the
  even share (one over the number of players);
- the **standings** over all pairings, with OpenSkill ratings (the arena's);
- the **first-seat win rate** of each game: the share of games won by the seat that
  acts first (the env's first agent after its reset), when every seat plays random and
  when every seat plays the heuristic (``--first-seat-games`` games each).

A time per move is a wall-clock budget, so the search rungs' strength depends on the
machine and on how many processes share it: the report names the machine and the
number of worker processes (one game at a time each). Output (``--output DIR``):
``ladder.md``, ``ladder.csv`` (one row per setting, rung and opponent) and
``ladder_first_seat.csv``; ``--write-readme`` puts the rung-by-rung table into the
README between its markers. A setting played again replaces its earlier result in
DIR and the other settings' results there are kept (:func:`write_results`), so each
game and table size can be played by a command of its own; each setting's section of
``ladder.md`` names the machine, the command and its wall time.

A ladder takes hours at four and five players. Every finished game is kept in a journal
(``--journal DIR``, ``runs/ladder-journal`` by default; :mod:`agents.evaluate.journal`)
as its batch comes back, so the same command after a stop, a crash or a full disk
plays only the games still missing; once the results are printed and written, the
ladder's journal files are removed.
"""

from __future__ import annotations

import argparse
import csv
import io
import platform
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.evaluate import (
    AgentResult,
    EvalRequest,
    EvalResult,
    discard_journals,
    evaluate_many,
)
from agents.evaluate.journal import JournalError
from agents.outcomes import wilson_interval
from benchmarks.arena import pairing_seed, run_arena
from benchmarks.arena_report import RANKING_NOTE, pairing_rows, separation
from benchmarks.arena_results import SettingResult, not_separated
from benchmarks.publish import read_csv
from cardgym.arguments import (
    HelpFormatter,
    UsageError,
    add_progress_argument,
    field_help,
    game_count,
    game_name,
    non_negative_int,
    positive_float,
    positive_int,
    select_settings,
    worker_count,
)
from cardgym.files import OutputError, atomic_write
from cardgym.registration import Game, short_name

__all__ = ["DEFAULT_TIMES", "FirstSeat", "LadderArgs", "LadderSetting", "Rung",
           "first_seat", "format_markdown", "format_section", "ladder_rows", "main",
           "read_sections", "readme_table", "run_ladder", "rungs", "setting_key",
           "write_readme", "write_results"]

#: Seconds per move of the search rungs by default.
DEFAULT_TIMES: tuple[float, ...] = (0.064, 0.128)
#: The guided search's settings beside its time (the policy-guided search of the
#: ISMCTS table, benchmarks/results/ismcts.md).
GUIDED = "prior=policy,value=policy,select=puct,c=1.5"
#: The agents whose self-play gives the first-seat win rates.
FIRST_SEAT_AGENTS: tuple[str, ...] = ("random", "heuristic")
RESULTS = Path(__file__).resolve().parent / "results"
README = Path(__file__).resolve().parent.parent / "README.md"
#: Where the command line keeps its journal of finished games by default.
DEFAULT_JOURNAL = "runs/ladder-journal"
MARKER = "ladder"


@dataclass(frozen=True)
class Rung:
    """One rung: its name in the tables and the agent spec that plays it."""

    name: str
    spec: str


def _milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:g} ms"


def rungs(times: Sequence[float] = DEFAULT_TIMES) -> list[Rung]:
    """The rungs, bottom to top, with a plain search at each time per move and the
    guided search at the longest.

    Raises:
        ValueError: no time, a time not above zero, or a time given twice.
    """
    if not times:
        raise ValueError("the ladder needs at least one time per move for its search rungs")
    bad = [t for t in times if not t > 0]
    if bad:
        raise ValueError(f"times per move must be above 0 seconds, got {bad}")
    if len(set(times)) != len(times):
        raise ValueError(f"times per move must differ, got {list(times)}")
    ordered = sorted(times)
    out = [Rung("random", "random"), Rung("heuristic", "heuristic")]
    out += [Rung(f"ISMCTS {_milliseconds(t)}", f"ismcts:time={t:g}") for t in ordered]
    out.append(Rung("network", "baseline"))
    out.append(Rung(f"guided ISMCTS {_milliseconds(ordered[-1])}",
                    f"ismcts:time={ordered[-1]:g},{GUIDED}"))
    return out


# ------------------------------------------------------------------- results


@dataclass(frozen=True)
class FirstSeat:
    """Games won by the seat that acted first, when ``agent`` played every seat."""

    agent: str
    games: int
    wins: int
    #: The self-play run counted (its games, its journal file).
    result: EvalResult | None = field(default=None, compare=False, repr=False)

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`rate`."""
        return wilson_interval(self.wins, self.games)


def first_seat(agent: str, result: EvalResult) -> FirstSeat:
    """The first-seat wins of a self-play run (every game's ``first`` in its winners).

    Raises:
        ValueError: a game of the run does not know its first seat (a batched run).
    """
    if any(record.first is None for record in result.records):
        raise ValueError("the first seat is only known for games played on the AEC env, "
                         "not on a batched engine")
    wins = sum(record.first in record.winners for record in result.records)
    return FirstSeat(agent, result.games, wins, result)


@dataclass
class LadderSetting:
    """The ladder of one game and table size."""

    setting: SettingResult
    rungs: list[Rung]
    first_seat: list[FirstSeat]

    @property
    def game(self) -> Game:
        return self.setting.game

    @property
    def num_players(self) -> int:
        return self.setting.num_players

    @property
    def key(self) -> str:
        """The setting's name in the result files (:func:`setting_key`)."""
        return setting_key(short_name(self.game.env_id), self.num_players)

    @property
    def even(self) -> float:
        """The even share of one seat."""
        return 1 / self.num_players

    def head_to_head(self, rung: int, opponent: int) -> AgentResult | None:
        """Rung ``rung`` in one seat against rung ``opponent`` in the others."""
        return self.setting.head_to_head(rung, opponent)

    def told_apart(self, rung: int, opponent: int) -> bool | None:
        """Whether the head-to-head interval leaves out the even share (``None``
        without games)."""
        result = self.head_to_head(rung, opponent)
        if result is None or not result.seat_games:
            return None
        low, high = result.interval
        return low > self.even or high < self.even


def run_ladder(settings: Sequence[tuple[Game | str, int]], ladder: Sequence[Rung],
               games: int, first_seat_games: int, seed: int = 0, workers: int = 2,
               show_progress: bool = False,
               journal: str | Path | None = None) -> list[LadderSetting]:
    """Play the ladder at every (game, player count) of ``settings``.

    Args:
        settings: games with a player count each; each needs a shipped baseline
            network at that count (the ``network`` and guided rungs read it).
        ladder: the rungs (:func:`rungs`), bottom to top.
        games: games (matches of rounds in Power Hungry Pets) per pairing.
        first_seat_games: self-play games per agent of :data:`FIRST_SEAT_AGENTS`
            for the first-seat win rates (0: none).
        seed: the ladder's seed; a pairing's games depend on it, the table and the
            two specs only (as in the arena).
        workers: processes; the search rungs' strength depends on how many share
            the machine, nothing else does.
        show_progress: draw progress bars on stderr.
        journal: a folder that keeps every finished game (:mod:`agents.evaluate.journal`):
            the same call after a stop plays only the games still missing
            (:func:`discard_journal` removes them once the results are kept).

    Raises:
        ValueError: a bad size, rung or setting (an unknown game, a table size
            without a baseline network).
    """
    if games <= 0:
        raise ValueError(f"games per pairing must be positive, got {games}")
    if first_seat_games < 0:
        raise ValueError(f"first-seat games must be 0 or more, got {first_seat_games}")
    chosen = _chosen(settings)
    specs = [rung.spec for rung in ladder]
    results = run_arena(chosen, specs, games, seed, workers, show_progress=show_progress,
                        journal=journal)
    seats: list[list[FirstSeat]] = [[] for _ in chosen]
    if first_seat_games:
        requests = _first_seat_requests(chosen, first_seat_games, seed)
        played = evaluate_many(requests, workers, journal=journal)
        for k, result in enumerate(played):
            seats[k // len(FIRST_SEAT_AGENTS)].append(
                first_seat(FIRST_SEAT_AGENTS[k % len(FIRST_SEAT_AGENTS)], result))
    return [LadderSetting(result, list(ladder), seat)
            for result, seat in zip(results, seats, strict=True)]


def _chosen(settings: Sequence[tuple[Game | str, int]]) -> list[tuple[Game, int]]:
    """The settings' games looked up, each checked to have a baseline network."""
    chosen = [(game if isinstance(game, Game) else _game(game), count)
              for game, count in settings]
    for game, count in chosen:
        if count not in game.baseline_players:
            sizes = ", ".join(map(str, game.baseline_players)) or "none"
            raise ValueError(f"{short_name(game.env_id)} has no baseline network at {count} "
                             f"players (the network rungs need one); sizes with one: {sizes}")
    return chosen


def _first_seat_requests(chosen: Sequence[tuple[Game, int]], games: int,
                         seed: int) -> list[EvalRequest]:
    return [EvalRequest(game, count, [agent, agent], games,
                        pairing_seed(seed, game, count, agent, agent))
            for game, count in chosen for agent in FIRST_SEAT_AGENTS]


def discard_journal(ladders: Sequence[LadderSetting]) -> int:
    """Remove the journal files of the runs behind ``ladders`` (their results are
    kept now); those of other ladders stay. Returns how many files were removed."""
    runs = [result for ladder in ladders for _, _, result in ladder.setting.runs]
    runs += [seat.result for ladder in ladders for seat in ladder.first_seat
             if seat.result is not None]
    return discard_journals(runs)


def _game(name: str) -> Game:
    from cardgym.registration import find_game

    return find_game(name)


# ------------------------------------------------------------------- tables


def _rate(result: AgentResult | None) -> str:
    if result is None or not result.seat_games:
        return "-"
    low, high = result.interval
    return f"{result.win_rate:.3f} ({low:.2f}-{high:.2f})"


def _apart(value: bool | None) -> str:
    return "-" if value is None else ("yes" if value else "no")


def describe_machine(workers: int) -> str:
    """The machine line of the report: processor, cores, Python, worker processes."""
    import os

    return (f"{platform.machine()} with {os.cpu_count()} CPUs, Python "
            f"{platform.python_version()}, {workers} worker process"
            f"{'es' if workers != 1 else ''} (one game at a time each)")


def format_setting(ladder: LadderSetting) -> str:
    """One setting: the rungs with their step up, the standings and the matrix."""
    setting = ladder.setting
    n = ladder.num_players
    names = [rung.name for rung in ladder.rungs]
    seats = "the other seat" if n == 2 else "every other seat"
    lines = [f"### {short_name(ladder.game.env_id)}, {n} players", "",
             f"{setting.games} x {setting.unit} per pairing, seed {setting.seed}; an even "
             f"share is {ladder.even:.3f}.", "",
             "| rung | agent | vs the rung below (95% CI) | told apart | win rate over all "
             "pairings | rating mu +- sigma |",
             "|---:|---|---|---|---|---|"]
    standings = {standing.label: standing for standing in setting.standings}
    for k, rung in enumerate(ladder.rungs):
        standing = standings[rung.spec]
        low, high = standing.interval
        below = _rate(ladder.head_to_head(k, k - 1)) if k else "-"
        apart = _apart(ladder.told_apart(k, k - 1)) if k else "-"
        lines.append(f"| {k + 1} | {rung.name} (`{rung.spec}`) | {below} | {apart} | "
                     f"{standing.win_rate:.3f} ({low:.2f}-{high:.2f}) | "
                     f"{standing.rating.mu:.2f} +- {standing.rating.sigma:.2f} |")
    apart_from = not_separated(setting.standings)
    by_name = {rung.spec: rung.name for rung in ladder.rungs}
    lines += ["", "Not told apart over all pairings (overlapping intervals): "
              + "; ".join(f"{by_name[s.label]}: "
                          f"{separation([by_name[o] for o in apart_from[s.label]])}"
                          for s in setting.ranked()) + ".", "",
              f"Head to head: win rate (95% CI) of the row rung in one seat against the "
              f"column rung in {seats}.", "",
              "| rung | " + " | ".join(f"vs {name}" for name in names) + " |",
              "|---|" + "---:|" * len(names)]
    for i, name in enumerate(names):
        cells = [_rate(ladder.head_to_head(i, j)) if i != j else "-"
                 for j in range(len(names))]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


FIRST_SEAT_NOTE = ("*The first seat*: the share of games won by the seat that acts first (the "
                   "env's first agent after its reset; in Power Hungry Pets the first player "
                   "of the match's first round, in Karel Kakelaar, whose bids are "
                   "simultaneous, the first seat to commit), with every seat played by the "
                   "same agent.")


def format_first_seat(ladders: Sequence[LadderSetting]) -> str:
    """The first-seat win rates of ``ladders`` as a table, or ``""`` when none were played."""
    rows = [(ladder, seat) for ladder in ladders for seat in ladder.first_seat]
    if not rows:
        return ""
    lines = ["| game | players | even share | agent | games | first seat wins (95% CI) |",
             "|---|---:|---:|---|---:|---|"]
    for ladder, seat in rows:
        low, high = seat.interval
        lines.append(f"| {short_name(ladder.game.env_id)} | {ladder.num_players} | "
                     f"{ladder.even:.3f} | {seat.agent} | {seat.games} | "
                     f"{seat.rate:.3f} ({low:.2f}-{high:.2f}) |")
    return "\n".join(lines)


def setting_key(game: str, players: int | str) -> str:
    """The name of a setting in the result files: ``"karel_kakelaar 2p"``."""
    return f"{game} {players}p"


def _order(key: str) -> tuple[str, int]:
    game, _, players = key.rpartition(" ")
    return game, int(players.removesuffix("p"))


SECTION_BEGIN = "<!-- ladder setting: {key} -->"
SECTION_END = "<!-- ladder setting end -->"


def format_section(ladder: LadderSetting, workers: int, command: str = "",
                   seconds: float | None = None) -> str:
    """One setting's part of ``ladder.md`` between its markers: the run that played
    it (machine, command, wall time), its ladder (:func:`format_setting`) and its first
    seat."""
    body = format_setting(ladder)
    head, _, rest = body.partition("\n\n")
    run = f"Played on {describe_machine(workers)}."
    if command:
        run += f" Command: `{command}`."
    if seconds is not None:
        run += f" Wall time of that command: {seconds / 60:.0f} min."
    parts = [SECTION_BEGIN.format(key=ladder.key), head, "", run, "", rest]
    seats = format_first_seat([ladder])
    if seats:
        parts += ["", "The first seat:", "", seats]
    return "\n".join(parts + [SECTION_END])


def read_sections(text: str) -> dict[str, str]:
    """The setting sections of a ``ladder.md`` by setting key (:func:`setting_key`),
    each with its markers; text outside the markers is not a section."""
    begin = re.escape(SECTION_BEGIN).replace(re.escape("{key}"), "(.+?)")
    pattern = re.compile(begin + r"\n.*?\n" + re.escape(SECTION_END), re.DOTALL)
    return {match.group(1): match.group(0) for match in pattern.finditer(text)}


def _header() -> str:
    return "\n".join([
        "## Agent ladder", "",
        "Rungs bottom to top: random, the heuristic, ISMCTS at fixed times per move, the "
        "shipped baseline network, and ISMCTS guided by that network (benchmarks/ladder.py). "
        "Seats rotate game by game; *told apart* means the rung's interval against the rung "
        "below leaves out the even share. " + RANKING_NOTE, "",
        "Times per move are wall-clock budgets: the search rungs are as strong as the machine "
        "lets them be, so each setting names the machine and the command that played it. "
        + FIRST_SEAT_NOTE])


def _markdown(sections: Mapping[str, str]) -> str:
    ordered = [sections[key] for key in sorted(sections, key=_order)]
    return "\n\n".join([_header(), *ordered]) + "\n"


def _sections(ladders: Sequence[LadderSetting], workers: int, command: str,
              seconds: float | None) -> dict[str, str]:
    return {ladder.key: format_section(ladder, workers, command, seconds)
            for ladder in ladders}


def format_markdown(ladders: Sequence[LadderSetting], workers: int,
                    command: str = "", seconds: float | None = None) -> str:
    """The report of ``ladders`` as Markdown (``seconds``: the run's wall time, if known)."""
    return _markdown(_sections(ladders, workers, command, seconds))


def ladder_rows(ladders: Sequence[LadderSetting]) -> list[dict[str, Any]]:
    """One row per setting, rung and opponent rung: the arena's row of the pairing
    (:func:`benchmarks.arena_report.pairing_rows`) with the rungs' numbers and names."""
    rows = []
    for ladder in ladders:
        index = {rung.spec: k for k, rung in enumerate(ladder.rungs)}
        for row in pairing_rows([ladder.setting]):
            mine, theirs = index[row["agent"]], index[row["opponent"]]
            rows.append({"game": row["game"], "players": row["players"], "rung": mine + 1,
                         "agent": ladder.rungs[mine].name, "spec": row["agent"],
                         "opponent": ladder.rungs[theirs].name, "opponent_rung": theirs + 1,
                         **{key: row[key] for key in ("seat_games", "wins", "win_rate",
                                                      "ci_low", "ci_high", "even_share")}})
    return rows


def first_seat_rows(ladders: Sequence[LadderSetting]) -> list[dict[str, Any]]:
    """One row per setting and self-play agent: the first seat's wins."""
    rows = []
    for ladder in ladders:
        for seat in ladder.first_seat:
            low, high = seat.interval
            rows.append({"game": short_name(ladder.game.env_id),
                         "players": ladder.num_players, "agent": seat.agent,
                         "games": seat.games, "first_seat_wins": seat.wins,
                         "rate": f"{seat.rate:.4f}", "ci_low": f"{low:.4f}",
                         "ci_high": f"{high:.4f}", "even_share": f"{ladder.even:.4f}"})
    return rows


def _csv(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def _merged_rows(path: Path, new: Sequence[Mapping[str, Any]],
                 kept: set[str]) -> list[Mapping[str, Any]]:
    """The rows of ``new`` and those of the file at ``path`` whose setting is in
    ``kept`` (and whose columns are ``new``'s, when ``new`` has rows), by setting."""
    old = read_csv(path) if path.is_file() else []
    columns = list(new[0]) if new else None
    rows: list[Mapping[str, Any]] = [
        row for row in old if setting_key(row["game"], row["players"]) in kept
        and (columns is None or list(row) == columns)]
    rows += new
    return sorted(rows, key=lambda row: _order(setting_key(row["game"], row["players"])))


def write_results(ladders: Sequence[LadderSetting], directory: str | Path, workers: int,
                  command: str = "", seconds: float | None = None) -> list[Path]:
    """Write ``ladder.md``, ``ladder.csv`` and ``ladder_first_seat.csv`` into
    ``directory`` (made if missing); each file is replaced whole or not at all.

    The settings of ``ladders`` replace their earlier results in the folder; the
    results of other settings found there (a section of ``ladder.md`` with its rows in
    the CSV files) are kept, so that each game or table size can be played by its own
    command.
    """
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    report = folder / "ladder.md"
    sections = read_sections(report.read_text(encoding="utf-8")) if report.is_file() else {}
    played = _sections(ladders, workers, command, seconds)
    kept = set(sections) - set(played)
    sections = {key: sections[key] for key in kept} | played
    files = {"ladder.md": _markdown(sections),
             "ladder.csv": _csv(_merged_rows(folder / "ladder.csv",
                                             ladder_rows(ladders), kept)),
             "ladder_first_seat.csv": _csv(_merged_rows(folder / "ladder_first_seat.csv",
                                                        first_seat_rows(ladders), kept))}
    written = []
    for name, text in files.items():
        path = folder / name
        atomic_write(path, text)
        written.append(path)
    return written


# ------------------------------------------------------------------- README


def readme_table(results: str | Path = RESULTS) -> str:
    """The README's ladder table from ``ladder.csv``: each rung against the rung below,
    per setting; a line naming the command when there are no results."""
    path = Path(results) / "ladder.csv"
    if not path.is_file():
        return "No ladder results yet: run `make tables`."
    lines = ["| game | players | rung | agent | vs the rung below (95% CI) | told apart |",
             "|---|---:|---:|---|---|---|"]
    for row in read_csv(path):
        if int(row["opponent_rung"]) != int(row["rung"]) - 1:
            continue
        low, high = float(row["ci_low"]), float(row["ci_high"])
        even = float(row["even_share"])
        apart = "yes" if low > even or high < even else "no"
        lines.append(f"| {row['game']} | {row['players']} | {row['rung']} | {row['agent']} | "
                     f"{float(row['win_rate']):.3f} ({low:.2f}-{high:.2f}) vs "
                     f"{row['opponent']} | {apart} |")
    return "\n".join(lines)


def write_readme(readme: str | Path = README, results: str | Path = RESULTS) -> Path:
    """Rewrite the README's ladder table between its markers.

    Raises:
        ValueError: the README lacks the ladder markers.
    """
    from benchmarks.arena_report import readme_with_tables

    path = Path(readme)
    text = path.read_text(encoding="utf-8")
    atomic_write(path, readme_with_tables(text, {MARKER: readme_table(results)}))
    return path


# ------------------------------------------------------------- command line


@dataclass
class LadderArgs:
    """Options of the ladder (the command line mirrors these fields)."""

    envs: tuple[str, ...] = field(default=(), metadata={
        "help": "only these games (id or short name); default every game with a baseline"})
    players: tuple[int, ...] = field(default=(), metadata={
        "help": "player counts; default each game's baseline sizes (2 and 4; 2 and 5 "
                "for karel_kakelaar)"})
    games: int = field(default=200, metadata={
        "help": "games (matches of rounds in power_hungry_pets) per pairing"})
    times: tuple[float, ...] = field(default=DEFAULT_TIMES, metadata={
        "help": "seconds per move of the search rungs; the guided search takes the longest"})
    first_seat_games: int = field(default=1000, metadata={
        "help": "self-play games of random and of the heuristic for the first-seat win "
                "rates (0: none)"})
    seed: int = field(default=0, metadata={"help": "seed of the ladder"})
    workers: int = field(default=2, metadata={
        "help": "processes, one game at a time each; the search rungs' strength "
                "depends on it (the report states it)"})
    output: str | None = field(default=None, metadata={
        "help": "directory to write ladder.md, ladder.csv and ladder_first_seat.csv to; "
                "the results of other settings already there are kept"})
    write_readme: bool = field(default=False, metadata={
        "help": "rewrite README.md's ladder table from ladder.csv in --output "
                "(default benchmarks/results)"})
    journal: str = field(default=DEFAULT_JOURNAL, metadata={
        "help": "folder that keeps every finished game, so that the same command after a "
                "stop or crash plays only the games still missing; this ladder's files "
                "there are removed once its results are printed and written"})


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ladder's options (the fields of :class:`LadderArgs`) to ``parser``."""
    defaults = LadderArgs()

    def help_of(name: str) -> str:
        return field_help(LadderArgs, name)

    parser.add_argument("--env", dest="envs", nargs="+", type=game_name, default=[],
                        metavar="GAME", help=help_of("envs"))
    parser.add_argument("--players", nargs="+", type=positive_int, default=[], metavar="N",
                        help=help_of("players"))
    parser.add_argument("--games", type=game_count, default=defaults.games,
                        help=help_of("games"))
    parser.add_argument("--times", nargs="+", type=positive_float,
                        default=list(defaults.times), metavar="SECONDS",
                        help=help_of("times"))
    parser.add_argument("--first-seat-games", type=non_negative_int,
                        default=defaults.first_seat_games, help=help_of("first_seat_games"))
    parser.add_argument("--seed", type=non_negative_int, default=defaults.seed,
                        help=help_of("seed"))
    parser.add_argument("--workers", type=worker_count, default=defaults.workers,
                        help=help_of("workers"))
    parser.add_argument("--output", default=None, metavar="DIR", help=help_of("output"))
    parser.add_argument("--write-readme", action="store_true", help=help_of("write_readme"))
    parser.add_argument("--journal", default=defaults.journal, metavar="DIR",
                        help=help_of("journal"))
    add_progress_argument(parser)


def args_from_namespace(namespace: argparse.Namespace) -> LadderArgs:
    """The :class:`LadderArgs` of parsed command-line options."""
    return LadderArgs(envs=tuple(namespace.envs), players=tuple(namespace.players),
                      games=namespace.games, times=tuple(namespace.times),
                      first_seat_games=namespace.first_seat_games, seed=namespace.seed,
                      workers=namespace.workers, output=namespace.output,
                      write_readme=namespace.write_readme, journal=namespace.journal)


def settings_of(args: LadderArgs) -> list[tuple[Game, int]]:
    """The (game, player count) pairs to play: those chosen that have a baseline network.

    Raises:
        UsageError: an unknown game, a player count no chosen game supports, or a
            choice without any baseline network.
    """
    chosen = select_settings(args.envs, args.players)
    kept = [(game, count) for game, count in chosen if count in game.baseline_players]
    if not kept:
        asked = ", ".join(f"{short_name(g.env_id)} at {n}" for g, n in chosen)
        raise UsageError(f"no baseline network for any setting chosen ({asked}); the ladder's "
                         "network rungs need one")
    return kept


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ladder",
                                     description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=HelpFormatter)
    configure(parser)
    namespace = parser.parse_args(argv)
    args = args_from_namespace(namespace)
    try:
        ladder = rungs(args.times)
        settings = settings_of(args)
    except (ValueError, UsageError) as error:
        parser.error(str(error))
    start = time.perf_counter()
    try:
        ladders = run_ladder(settings, ladder, args.games, args.first_seat_games, args.seed,
                             args.workers, show_progress=not namespace.no_progress,
                             journal=args.journal)
    except JournalError as error:
        parser.error(f"--journal: {error}")
    except OutputError as error:  # the journal could not be written: no room, no permission
        print(f"error: {error}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - start
    command = "python -m benchmarks.ladder " + " ".join(sys.argv[1:] if argv is None else argv)
    print(format_markdown(ladders, args.workers, command.strip(), seconds))
    if args.output is not None or args.write_readme:
        folder = Path(args.output) if args.output is not None else RESULTS
        if args.output is not None:
            for path in write_results(ladders, folder, args.workers, command.strip(),
                                      seconds):
                print(f"wrote {path}", file=sys.stderr)
        if args.write_readme:
            print(f"wrote {write_readme(README, folder)}", file=sys.stderr)
    discard_journal(ladders)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
