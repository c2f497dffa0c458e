"""Seeded round-robin arena: win rates with 95% intervals and OpenSkill ratings.

Usage::

    python benchmarks/arena.py --games 400 --output benchmarks/results
    cardgym arena --env karel_kakelaar --players 2 --agents random heuristic baseline
    cardgym arena --match-length 5 --games 100     # best-of-5 matches where games stand alone
    make tables                                    # every table, the model cards and the README

For every game at its benchmark table sizes (2 and 4 players, 2 and 5 for Karel
Kakelaar; ``--players`` for others) the agents meet in *pairings*, each a seeded run
of :func:`agents.evaluate.evaluate_many` with seats rotated game by game:

- two players: every pair of agents once (members in label order);
- more players: every ordered pair ``(A, B)``: A in one seat, B in all the others.

So the head-to-head win rate of A against B is always A's share of games won holding
one seat against B in every other seat; an even share is ``1 / players``. A pairing's
seed depends on the arena seed, the game, the player count and the two labels, so its
games do not change when other agents join. Power Hungry Pets plays matches of rounds
by itself; ``--match-length N`` makes each game of the other games a best-of-N match.

Ratings. Every game of a setting updates OpenSkill Plackett-Luce ratings (one rating
per agent, games taken in order: game 0 of every pairing, then game 1, ...). Each
seat is a player of the game with its agent's rating; winners rank first, the others
share second place (a game without a winner is skipped). An agent holding several
seats takes the sum of its seats' mu updates and the product of their sigma factors,
as if it had played each seat's game on its own: updates stay zero-sum, so the mean
rating stays at the prior's 25 and equal agents stay level. The model runs with ``tau = 0``: the agents do not change during the arena,
so sigma measures only how much the games pinned the rating down. ``ordinal`` is
``mu - 3 sigma``.

Ranking. The standings are ranked by win rate, the column a reader compares (ties
by ordinal); the ordinal's own rank stands beside it, since on a short arena the
ratings, which follow the order the games were played in, can order two agents
otherwise. Each agent's row names the agents whose 95% interval overlaps its own:
the games do not separate them (:mod:`benchmarks.arena_results`).

Output (``--output DIR``, written by :mod:`benchmarks.arena_report`): ``arena.md``
(standings and head-to-head tables per setting), ``arena.csv`` (one row per agent and
opponent) and ``arena_ratings.csv`` (one row per agent and setting). ``--update-cards`` writes each baseline model's
results into its card ``models/GAME-Np/model.json``; ``--write-readme`` rewrites the
README's tables (this arena and ``throughput.csv``) between their markers.

Every finished game is kept in a journal (``--journal DIR``, ``runs/arena-journal`` by
default; :mod:`agents.evaluate.journal`) as its batch comes back: the same command after
a stop, a crash or a full disk plays only the games still missing. Once the results
are printed and written, the arena's journal files are removed.
"""

from __future__ import annotations

import argparse
import re
import sys
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from agents.arguments import add_trust_argument, trusted_specs
from agents.evaluate import (
    AgentSpec,
    EvalRequest,
    EvalResult,
    agent_label,
    discard_journals,
    evaluate_many,
)
from agents.evaluate.batched import can_batch
from agents.outcomes import has_rounds
from benchmarks.arena_report import (
    RESULTS,
    format_markdown,
    readme_tables,
    update_cards,
    write_readme,
    write_results,
)
from benchmarks.arena_results import Rating, SettingResult, Standing
from cardgym.arguments import (
    HelpFormatter,
    UsageError,
    add_progress_argument,
    field_help,
    game_count,
    game_name,
    non_negative_int,
    positive_int,
    select_settings,
    worker_count,
)
from cardgym.progress import Progress
from cardgym.registration import Game, find_game, short_name

__all__ = [
    "DEFAULT_AGENTS",
    "ArenaArgs",
    "Rating",
    "SettingResult",
    "Standing",
    "arena",
    "format_markdown",
    "pairing_seed",
    "pairings",
    "rate_games",
    "readme_tables",
    "run_arena",
]

DEFAULT_AGENTS = ("random", "heuristic", "baseline")
#: Where the command line keeps its journal of finished games by default.
DEFAULT_JOURNAL = "runs/arena-journal"


# ------------------------------------------------------------------ pairings


def pairings(labels: Sequence[str], num_players: int) -> list[tuple[int, int]]:
    """The pairings of agents (indices into ``labels``) at a table of ``num_players``.

    Two players: each unordered pair once, members in label order. More: each
    ordered pair, the first in one seat against the second in every other seat.
    """
    count = len(labels)
    if num_players == 2:
        pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
        return [(i, j) if labels[i] <= labels[j] else (j, i) for i, j in pairs]
    return [(i, j) for i in range(count) for j in range(count) if i != j]


def pairing_seed(seed: int, game: Game, num_players: int, first: str, second: str) -> int:
    """The evaluation seed of one pairing: a function of the arena seed, the table and
    the two labels only."""
    key = [seed, zlib.crc32(game.env_id.encode()), num_players,
           zlib.crc32(first.encode()), zlib.crc32(second.encode())]
    return int(np.random.SeedSequence(key).generate_state(1)[0] >> 1)


# ------------------------------------------------------------------- ratings


def rate_games(num_agents: int, games: Sequence[tuple[Sequence[int], Sequence[int]]],
               ) -> list[Rating]:
    """OpenSkill Plackett-Luce ratings (``tau = 0``) of agents from finished games.

    Args:
        num_agents: agents rated, numbered from 0.
        games: in the order played, each ``(agent at each seat, winning seats)``.

    Returns:
        One rating per agent; an agent that played no game keeps the prior (25, 25/3).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    prior = model.rating()
    ratings = [Rating(prior.mu, prior.sigma) for _ in range(num_agents)]
    for seats, won in games:
        if not won:
            continue
        winners = set(won)
        teams = [[model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma)] for a in seats]
        ranks = [1.0 if seat in winners else 2.0 for seat in range(len(seats))]
        updated = model.rate(teams, ranks=ranks)
        moves: dict[int, list[tuple[float, float]]] = {}
        for seat, agent in enumerate(seats):
            moves.setdefault(agent, []).append((updated[seat][0].mu, updated[seat][0].sigma))
        for agent, seat_moves in moves.items():
            old = ratings[agent]
            mu = old.mu + sum(m - old.mu for m, _ in seat_moves)
            sigma = old.sigma * float(np.prod([s / old.sigma for _, s in seat_moves]))
            ratings[agent] = Rating(mu, sigma)
    return ratings


def _setting_result(game: Game, num_players: int, labels: list[str],
                    pairs: list[tuple[int, int]], results: list[EvalResult], games: int,
                    match_length: int, seed: int) -> SettingResult:
    seat_games = [0] * len(labels)
    wins = [0] * len(labels)
    for (first, second), result in zip(pairs, results, strict=True):
        for member, outcome in zip((first, second), result.agents, strict=True):
            seat_games[member] += outcome.seat_games
            wins[member] += outcome.wins
    played: list[tuple[Sequence[int], Sequence[int]]] = []
    for g in range(games):
        for (first, second), result in zip(pairs, results, strict=True):
            record = result.records[g]
            members = (first, second)
            entries = [0] + [1] * (num_players - 1)  # evaluate's seat entries for two specs
            played.append(([members[entries[a]] for a in record.agents], record.winners))
    ratings = rate_games(len(labels), played)
    standings = [Standing(label, seat_games[i], wins[i], ratings[i])
                 for i, label in enumerate(labels)]
    runs = [(first, second, result) for (first, second), result in zip(pairs, results,
                                                                       strict=True)]
    return SettingResult(game, num_players, labels, runs, standings, games, match_length, seed)


def run_arena(settings: Sequence[tuple[Game | str, int]], agents: Sequence[AgentSpec],
              games: int, seed: int = 0, workers: int = 2, match_length: int = 1,
              options: Mapping[str, Any] | None = None,
              show_progress: bool = False,
              record_dir: str | None = None, vector: bool = False,
              journal: str | Path | None = None) -> list[SettingResult]:
    """Play the arena at every (game, player count) of ``settings`` on one process pool.

    Args:
        settings: games (entries, ids or short names) with a player count each.
        agents: two or more specs (``random``, ``heuristic``, ``baseline``,
            ``model:PATH``, ``ismcts:...``) or picklable policies, distinct labels.
        games: games per pairing (matches, with ``match_length`` above 1).
        seed: the arena seed.
        workers: processes; the results do not depend on it.
        match_length: best-of-N matches for the games whose games stand alone
            (Power Hungry Pets plays its matches of rounds whatever this is).
        options: rule options, applied to every game (usually left empty).
        show_progress: draw a progress bar with the time left on stderr (only when
            it is a terminal).
        record_dir: a folder to write every game's record into, one subfolder per
            pairing (:func:`pairing_folder`).
        vector: play each pairing whose agents all act from observations on the
            game's batched engine (:mod:`agents.evaluate.batched`; other deals than
            the AEC env's for the same seed); the others on the AEC env.
        journal: a folder that keeps every finished game of each pairing, so that the
            same call after a stop plays only the games still missing
            (:mod:`agents.evaluate.journal`).

    Raises:
        ValueError: fewer than two agents, repeated labels, a bad size or match
            length, an unknown game, agent or model (``AgentSpecError``).
    """
    labels = [agent_label(agent) for agent in agents]
    if len(labels) < 2:
        raise ValueError(f"an arena needs at least two agents, got {len(labels)}: {labels}")
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ValueError(f"agents must have distinct labels; repeated: {', '.join(repeated)}")
    if games <= 0:
        raise ValueError(f"games per pairing must be positive, got {games}")
    if match_length <= 0:
        raise ValueError(f"match length must be a positive number of games (best of N), "
                         f"got {match_length}")
    plan, requests = arena_requests(settings, agents, games, seed, match_length, options,
                                    record_dir, vector)
    with Progress(games * len(requests), "arena", "game", enabled=show_progress) as bar:
        results = evaluate_many(requests, workers, bar.update, journal)
    out = []
    position = 0
    for entry, count, pairs, length in plan:
        chunk = results[position:position + len(pairs)]
        position += len(pairs)
        out.append(_setting_result(entry, count, labels, pairs, chunk, games, length, seed))
    return out


def arena_requests(settings: Sequence[tuple[Game | str, int]], agents: Sequence[AgentSpec],
                   games: int, seed: int = 0, match_length: int = 1,
                   options: Mapping[str, Any] | None = None, record_dir: str | None = None,
                   vector: bool = False,
                   ) -> tuple[list[tuple[Game, int, list[tuple[int, int]], int]],
                              list[EvalRequest]]:
    """What :func:`run_arena` plays: per setting its game, table size, pairings (agent
    numbers) and match length, and one evaluation request per pairing, in order."""
    labels = [agent_label(agent) for agent in agents]
    plan = []
    requests = []
    for game, count in settings:
        entry = game if isinstance(game, Game) else find_game(game)
        length = 1 if has_rounds(entry) else match_length
        pairs = pairings(labels, count)
        plan.append((entry, count, pairs, length))
        for first, second in pairs:
            folder = None if record_dir is None else str(
                pairing_folder(record_dir, entry, count, labels[first], labels[second]))
            pair = [agents[first], agents[second]]
            requests.append(EvalRequest(
                entry, count, pair, games,
                pairing_seed(seed, entry, count, labels[first], labels[second]),
                options, length, folder,
                vector=vector and can_batch(entry, pair, length, folder)))
    return plan, requests


def pairing_folder(record_dir: str, game: Game, num_players: int, first: str,
                   second: str) -> Path:
    """The folder of one pairing's records: ``GAME-Np/FIRST-vs-SECOND`` under
    ``record_dir``, the labels made safe as file names."""
    def safe(label: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.=+-]+", "_", label).strip("_") or "agent"

    return Path(record_dir) / f"{game.name}-{num_players}p" / f"{safe(first)}-vs-{safe(second)}"


def arena(game: Game | str, num_players: int, agents: Sequence[AgentSpec], games: int,
          seed: int = 0, workers: int = 2, match_length: int = 1,
          options: Mapping[str, Any] | None = None) -> SettingResult:
    """The arena at one game and table size (see :func:`run_arena`)."""
    return run_arena([(game, num_players)], agents, games, seed, workers, match_length,
                     options)[0]


# ------------------------------------------------------------- command line


@dataclass
class ArenaArgs:
    """Options of the arena (the command line mirrors these fields)."""

    envs: tuple[str, ...] = field(default=(), metadata={
        "help": "only these games (id or short name); default every game"})
    players: tuple[int, ...] = field(default=(), metadata={
        "help": "player counts; default each game's benchmark sizes (2 and 4; 2 and 5 for "
                "karel_kakelaar)"})
    agents: tuple[str, ...] = field(default=DEFAULT_AGENTS, metadata={
        "help": "two or more agents: random, heuristic, baseline (the shipped model), "
                "model:PATH, rllib+pickle:PATH, ismcts[:KEY=VALUE,...]"})
    games: int = field(default=400, metadata={"help": "games (or matches) per pairing"})
    match_length: int = field(default=1, metadata={
        "help": "best-of-N matches for the games without matches of rounds "
                "(power_hungry_pets always plays its matches)"})
    seed: int = field(default=0, metadata={"help": "seed of the arena"})
    workers: int = field(default=2, metadata={
        "help": "processes (the results do not depend on it)"})
    output: str | None = field(default=None, metadata={
        "help": "directory to write arena.md, arena.csv and arena_ratings.csv to"})
    update_cards: bool = field(default=False, metadata={
        "help": "write the baseline's results into each shipped model card"})
    record: str | None = field(default=None, metadata={
        "help": "directory to write a game record of every game into (one folder per "
                "setting and pairing); cardgym replay plays one back"})
    vector: bool = field(default=False, metadata={
        "help": "play the pairings whose agents all act from observations (random, "
                "baseline, model:PATH) on the game's batched engine, in this process"})
    write_readme: bool = field(default=False, metadata={
        "help": "rewrite README.md's tables from the results in --output (default "
                "benchmarks/results)"})
    journal: str = field(default=DEFAULT_JOURNAL, metadata={
        "help": "folder that keeps every finished game, so that the same command after a "
                "stop or crash plays only the games still missing; this arena's files "
                "there are removed once its results are printed and written"})


def settings_of(args: ArenaArgs) -> list[tuple[Game, int]]:
    """The (game, player count) pairs to play.

    Raises:
        UsageError: an unknown game or a player count no selected game supports.
    """
    chosen = select_settings(args.envs, args.players)
    if args.players:
        return chosen
    return [(game, count) for game, count in chosen
            if count in game.baseline_players]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arena's options (the fields of :class:`ArenaArgs`) to ``parser``."""
    defaults = ArenaArgs()

    def help_of(name: str) -> str:
        return field_help(ArenaArgs, name)

    parser.add_argument("--env", dest="envs", nargs="+", type=game_name, default=[],
                        metavar="GAME", help=help_of("envs"))
    parser.add_argument("--players", nargs="+", type=positive_int, default=[], metavar="N",
                        help=help_of("players"))
    parser.add_argument("--agents", nargs="+", default=list(defaults.agents), metavar="SPEC",
                        help=help_of("agents"))
    parser.add_argument("--games", type=game_count, default=defaults.games, metavar="G",
                        help=help_of("games"))
    parser.add_argument("--match-length", type=positive_int, default=defaults.match_length,
                        metavar="N", help=help_of("match_length"))
    parser.add_argument("--seed", type=non_negative_int, default=defaults.seed,
                        help=help_of("seed"))
    parser.add_argument("--workers", type=worker_count, default=defaults.workers, metavar="W",
                        help=help_of("workers"))
    parser.add_argument("--output", default=None, metavar="DIR", help=help_of("output"))
    parser.add_argument("--update-cards", action="store_true", help=help_of("update_cards"))
    parser.add_argument("--record", default=None, metavar="DIR", help=help_of("record"))
    parser.add_argument("--vector", action="store_true", help=help_of("vector"))
    add_progress_argument(parser)
    parser.add_argument("--write-readme", action="store_true", help=help_of("write_readme"))
    parser.add_argument("--journal", default=defaults.journal, metavar="DIR",
                        help=help_of("journal"))
    add_trust_argument(parser)


def args_from_namespace(namespace: argparse.Namespace) -> ArenaArgs:
    agents = trusted_specs(namespace.agents, getattr(namespace, "trust_pickle", False))
    return ArenaArgs(envs=tuple(namespace.envs), players=tuple(namespace.players),
                     agents=tuple(agents), games=namespace.games,
                     match_length=namespace.match_length, seed=namespace.seed,
                     workers=namespace.workers, output=namespace.output,
                     update_cards=namespace.update_cards, write_readme=namespace.write_readme,
                     record=namespace.record, vector=namespace.vector,
                     journal=getattr(namespace, "journal", ArenaArgs.journal))


def command_line(args: ArenaArgs) -> str:
    """The ``cardgym arena`` command that plays the same arena (for the model cards)."""
    words = ["cardgym arena"]
    if args.envs:
        words.append("--env " + " ".join(short_name(name) for name in args.envs))
    if args.players:
        words.append("--players " + " ".join(map(str, args.players)))
    words += ["--agents " + " ".join(args.agents), f"--games {args.games}",
              f"--match-length {args.match_length}", f"--seed {args.seed}"]
    if args.vector:
        words.append("--vector")
    return " ".join(words)


def run(namespace: argparse.Namespace, out: TextIO) -> int:
    """``cardgym arena``: play, print the tables, write what was asked for."""
    args = args_from_namespace(namespace)
    settings = settings_of(args)
    if not settings:
        raise UsageError("no game has a benchmark size among the selected games; "
                         "give --players")
    print(f"arena: {len(settings)} settings, agents {' '.join(args.agents)}, {args.games} "
          f"per pairing, {args.workers} worker(s) ...", file=sys.stderr, flush=True)
    try:
        results = run_arena(settings, args.agents, args.games, args.seed, args.workers,
                            args.match_length,
                            show_progress=not getattr(namespace, "no_progress", False),
                            record_dir=args.record, vector=args.vector, journal=args.journal)
    except ImportError as error:
        raise UsageError(f"an agent is not available: {error}") from None
    except ValueError as error:  # AgentSpecError, ModelError, a bad size
        raise UsageError(str(error)) from None
    print(format_markdown(results), file=out)
    command = command_line(args)
    if args.record is not None:
        print(f"wrote the game records under {args.record}", file=out)
    if args.output is not None:
        for path in write_results(results, args.output):
            print(f"wrote {path}", file=out)
    if args.update_cards:
        for path in update_cards(results, command):
            print(f"wrote {path}", file=out)
    if args.write_readme:
        print(f"wrote {write_readme(results=args.output or RESULTS)}", file=out)
    discard_journals(result for setting in results for _, _, result in setting.runs)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv``, run the arena and return the exit status."""
    parser = argparse.ArgumentParser(prog="arena.py", description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=HelpFormatter)
    configure(parser)
    namespace = parser.parse_args(argv)
    try:
        return run(namespace, sys.stdout)
    except UsageError as error:
        parser.error(str(error))
    return 2


if __name__ == "__main__":
    sys.exit(main())
