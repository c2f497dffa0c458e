"""The ``cardgym`` command line.

Usage::

    cardgym demo                         # seeded tournament of random agents, every game
    cardgym demo --games 50 --env power_hungry_pets --players 3 4 --seed 7
    cardgym bench --seconds 2 --rounds 3 --output benchmarks/results
    python -m cardgym --help

Each subcommand is one :class:`Command` in :data:`COMMANDS`: a name, a one-line help,
a function that adds its options to its parser and a function that runs it from the
parsed options and returns the exit status. A new subcommand (``train``, ``eval``,
``play``, ``arena``) is one more entry; its heavy imports stay inside its functions so
that ``cardgym --help`` stays fast.

Bad arguments (an unknown game, a player count no selected game supports, a size that
is not positive) end with exit status 2 and an argparse-style message on stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from cardgym.registration import GAMES, GameEntry, find_game, short_name

__all__ = [
    "COMMANDS",
    "Command",
    "DemoResult",
    "HelpFormatter",
    "UsageError",
    "build_parser",
    "format_demo",
    "game_name",
    "main",
    "non_negative_int",
    "player_range",
    "play_demo",
    "positive_float",
    "positive_int",
    "select_settings",
    "setting_seed",
]

DEFAULT_DEMO_GAMES = 300


class UsageError(ValueError):
    """A bad combination of command-line arguments, reported like argparse's own errors."""


# ------------------------------------------------------------ argument types


def positive_int(text: str) -> int:
    """An argparse type: an integer above zero."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: an integer of zero or more (seeds)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def game_name(text: str) -> str:
    """An argparse type: a registered game by id or short name; returns its env id."""
    try:
        return find_game(text).env_id
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def player_range(game: GameEntry) -> str:
    """The player counts of ``game`` as text: ``2..6``, or ``2, 4`` when not contiguous."""
    counts = sorted(game.player_counts)
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}..{counts[-1]}" if len(counts) > 1 else str(counts[0])
    return ", ".join(map(str, counts))


def select_settings(
    games: Sequence[str] = (), players: Sequence[int] = ()
) -> list[tuple[GameEntry, int]]:
    """The (game, player count) pairs to run, in registry order.

    Args:
        games: game ids or short names; empty for every registered game.
        players: player counts; empty for every count each game supports.

    Raises:
        UsageError: a game is unknown, or a requested player count is supported by
            none of the selected games.
    """
    try:
        wanted = {find_game(name).env_id for name in games}
    except ValueError as error:
        raise UsageError(str(error)) from None
    selected = [game for game in GAMES if not wanted or game.env_id in wanted]
    for count in dict.fromkeys(players):
        if not any(count in game.player_counts for game in selected):
            ranges = "; ".join(f"{short_name(g.env_id)}: {player_range(g)}" for g in selected)
            raise UsageError(
                f"{count} players is outside the supported player counts ({ranges})"
            )
    return [
        (game, count)
        for game in selected
        for count in game.player_counts
        if not players or count in players
    ]


def setting_seed(seed: int, game: GameEntry, num_players: int) -> int:
    """A seed for one (game, player count) pair, independent of which others run."""
    key = [seed, zlib.crc32(game.env_id.encode()), num_players]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


# ---------------------------------------------------------------------- demo


@dataclass
class DemoResult:
    """Outcome of a run of random-agent games at one table.

    Attributes:
        game: the registered game.
        num_players: seats at the table.
        games: games played.
        steps: ``env.step`` calls over all games.
        wins: games won per seat (a seat wins when its return is positive).
        seconds: wall time of the games, resets and choices included.
    """

    game: GameEntry
    num_players: int
    games: int
    steps: int
    wins: list[int]
    seconds: float

    @property
    def steps_per_game(self) -> float:
        """Mean ``env.step`` calls per game."""
        return self.steps / self.games

    @property
    def steps_per_second(self) -> float:
        """Steps per second of wall time."""
        return self.steps / self.seconds if self.seconds > 0 else math.inf


def play_demo(game: GameEntry, num_players: int, num_games: int, seed: int) -> DemoResult:
    """Play ``num_games`` games of uniformly random legal play through ``env()``.

    The environment and the agents' generator are seeded from ``seed`` once; later
    games continue both generators, so the whole run is reproducible from ``seed``.
    """
    import pettingzoo

    from benchmarks.throughput import RandomLegalChooser

    env = pettingzoo.make("aec", game.env_id, num_players=num_players)
    env_seed, agent_seed = np.random.SeedSequence(seed).generate_state(2)
    choose = RandomLegalChooser(np.random.default_rng(int(agent_seed)))
    seat_of = {agent: seat for seat, agent in enumerate(env.possible_agents)}
    wins = [0] * num_players
    steps = 0
    start = time.perf_counter()
    env.reset(seed=int(env_seed))
    for played in range(num_games):
        if played:
            env.reset()
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            env.step(None if terminated or truncated else choose(obs["action_mask"]))
            steps += 1
        for agent, total in returns.items():
            if total > 0:
                wins[seat_of[agent]] += 1
    seconds = time.perf_counter() - start
    return DemoResult(game, num_players, num_games, steps, wins, seconds)


def format_demo(results: Sequence[DemoResult]) -> str:
    """The demo table in Markdown: one row per table, win share per seat, speed last."""
    seats = max((r.num_players for r in results), default=0)
    header = ["game", "players", "games", "steps/game"]
    header += [f"seat {seat}" for seat in range(seats)] + ["steps/s"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in results:
        shares = [f"{w / r.games:.3f}" for w in r.wins] + ["-"] * (seats - r.num_players)
        row = [short_name(r.game.env_id), str(r.num_players), str(r.games),
               f"{r.steps_per_game:.1f}", *shares, f"{r.steps_per_second:,.0f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def _configure_demo(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=positive_int, default=DEFAULT_DEMO_GAMES, metavar="N",
                        help="games per table (game and player count)")
    parser.add_argument("--env", nargs="+", type=game_name, default=[], metavar="GAME",
                        help="only these games (id or short name); default every registered game")
    parser.add_argument("--players", nargs="+", type=positive_int, default=[], metavar="N",
                        help="only these player counts; default every count each game supports")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the whole run")


def _run_demo(args: argparse.Namespace, out: TextIO) -> int:
    settings = select_settings(args.env, args.players)
    print(f"Random agents: {args.games} games per table, seed {args.seed}. A seat wins a game "
          "when its return is positive; a game may have several winners.\n", file=out)
    results = []
    for game, count in settings:
        print(f"demo: {short_name(game.env_id)}, {count} players ...", file=sys.stderr)
        results.append(play_demo(game, count, args.games, setting_seed(args.seed, game, count)))
    print(format_demo(results), file=out)
    return 0


# --------------------------------------------------------------------- bench


def _configure_bench(parser: argparse.ArgumentParser) -> None:
    from benchmarks import throughput

    throughput.add_arguments(parser)


def _run_bench(args: argparse.Namespace, out: TextIO) -> int:
    from benchmarks import throughput

    return throughput.run_namespace(args, out)


# ------------------------------------------------------------------- parsing


@dataclass(frozen=True)
class Command:
    """One subcommand.

    Attributes:
        name: the word after ``cardgym``.
        help: one line for ``cardgym --help``.
        description: the paragraph at the top of ``cardgym NAME --help``.
        configure: adds the subcommand's options to its parser.
        run: runs it from the parsed options, writing results to the stream; returns
            the exit status. Raises :class:`UsageError` for bad argument combinations.
    """

    name: str
    help: str
    description: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]


COMMANDS: tuple[Command, ...] = (
    Command(
        "demo",
        "seeded tournament of random agents on every game and player count",
        "Play a short seeded tournament of uniformly random legal agents on each registered "
        "game at each of its player counts, and print games played, mean steps per game, "
        "win share per seat and steps per second.",
        _configure_demo,
        _run_demo,
    ),
    Command(
        "bench",
        "throughput benchmark (benchmarks/throughput.py) beside PettingZoo's leduc_holdem_v4",
        "Measure steps per second of every registered environment under uniformly random "
        "legal play: env(), raw_env() and raw_env() in PettingZoo's standard wrapper chain, "
        "beside pettingzoo.classic.leduc_holdem_v4 when it is installed.",
        _configure_bench,
        _run_bench,
    ),
)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows an option's default in its help, unless the default is empty or ``None``."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default == []:
            return action.help
        return super()._get_help_string(action)


def build_parser() -> argparse.ArgumentParser:
    """The ``cardgym`` parser with one subparser per entry of :data:`COMMANDS`."""
    from cardgym import __version__

    parser = argparse.ArgumentParser(
        prog="cardgym",
        description="Card-game environments for reinforcement learning (PettingZoo AEC).",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                       title="commands")
    for command in COMMANDS:
        sub = subparsers.add_parser(command.name, help=command.help,
                                    description=command.description, formatter_class=HelpFormatter)
        command.configure(sub)
        sub.set_defaults(run=command.run, command_parser=sub)
    return parser


def _exit_status(stop: SystemExit) -> int:
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: the arguments after the program name; ``None`` for ``sys.argv[1:]``.

    Returns:
        The exit status: 0 on success, 2 for bad arguments (the message is on stderr).
    """
    parser = build_parser()
    args: Any = None
    try:
        args = parser.parse_args(argv)
        return int(args.run(args, sys.stdout))
    except UsageError as error:
        try:
            args.command_parser.error(str(error))
        except SystemExit as stop:
            return _exit_status(stop)
    except SystemExit as stop:
        return _exit_status(stop)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 2
