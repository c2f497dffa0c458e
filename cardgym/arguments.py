"""Command-line argument types and helpers shared by the ``cardgym`` command line,
the agents' commands and the benchmark scripts.

Each number type converts one argument and raises ``argparse.ArgumentTypeError``
with what is allowed; :class:`UsageError` is a bad combination of arguments, which
the command line reports with exit status 2.
"""

from __future__ import annotations

import argparse
import math
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardgym.game import player_count_problem, player_range
from cardgym.registration import GAMES, Game, find_game, short_name

__all__ = [
    "HelpFormatter",
    "UsageError",
    "add_progress_argument",
    "discount",
    "field_help",
    "game_name",
    "non_negative_float",
    "non_negative_int",
    "player_count_problem",
    "player_range",
    "positive_float",
    "positive_int",
    "select_settings",
    "setting_seed",
]


class UsageError(ValueError):
    """A bad combination of command-line arguments, reported like argparse's own errors."""


# ------------------------------------------------------------ argument types


def _number(text: str, convert: Callable[[str], Any], accept: Callable[[Any], bool],
            rule: str) -> Any:
    """``convert(text)`` if it converts and ``accept`` holds, else argparse's error
    saying ``rule``."""
    try:
        value = convert(text)
    except ValueError:
        value = None
    if value is None or not accept(value):
        raise argparse.ArgumentTypeError(f"must be {rule}, got {text!r}") from None
    return value


def positive_int(text: str) -> int:
    """An argparse type: an integer above zero."""
    return int(_number(text, int, lambda v: v > 0, "a positive integer"))


def non_negative_int(text: str) -> int:
    """An argparse type: an integer of zero or more (seeds)."""
    return int(_number(text, int, lambda v: v >= 0, "an integer >= 0"))


#: The most games one command plays (a long benchmark plays 10^5; beyond 10^7 a run
#: would take days on one machine).
MAX_GAMES = 10_000_000

#: The most worker processes a command starts.
MAX_WORKERS = 256


def game_count(text: str) -> int:
    """An argparse type: a number of games, 1 to :data:`MAX_GAMES`."""
    return int(_number(text, int, lambda v: 0 < v <= MAX_GAMES,
                       f"a number of games from 1 to {MAX_GAMES}"))


def worker_count(text: str) -> int:
    """An argparse type: a number of worker processes, 1 to :data:`MAX_WORKERS`."""
    return int(_number(text, int, lambda v: 0 < v <= MAX_WORKERS,
                       f"a number of processes from 1 to {MAX_WORKERS}"))


def positive_float(text: str) -> float:
    """An argparse type: a finite number above zero."""
    return float(_number(text, float, lambda v: math.isfinite(v) and v > 0,
                         "a positive number"))


def non_negative_float(text: str) -> float:
    """An argparse type: a finite number of zero or more (coefficients)."""
    return float(_number(text, float, lambda v: math.isfinite(v) and v >= 0,
                         "a finite number >= 0"))


def discount(text: str) -> float:
    """An argparse type: a discount factor, a number in (0, 1]."""
    return float(_number(text, float, lambda v: math.isfinite(v) and 0 < v <= 1,
                         "a number in (0, 1]"))


def unit_interval(text: str) -> float:
    """An argparse type: a share, a number in [0, 1]."""
    return float(_number(text, float, lambda v: math.isfinite(v) and 0 <= v <= 1,
                         "a number in [0, 1]"))


def game_name(text: str) -> str:
    """An argparse type: a registered game by id or short name; returns its env id."""
    try:
        return find_game(text).env_id
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def select_settings(
    games: Sequence[str] = (), players: Sequence[int] = ()
) -> list[tuple[Game, int]]:
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


def setting_seed(seed: int, game: Game, num_players: int) -> int:
    """A seed for one (game, player count) pair, independent of which others run."""
    key = [seed, zlib.crc32(game.env_id.encode()), num_players]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


# --------------------------------------------------------------------- bench


def field_help(options: type, name: str) -> str:
    """The ``help`` text in the metadata of field ``name`` of the dataclass ``options``
    (a command's options, each field with its help beside its default)."""
    return str(options.__dataclass_fields__[name].metadata["help"])  # type: ignore[attr-defined]


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (there is none anyway when stderr is not a "
                             "terminal)")


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows an option's default in its help, unless the default is empty or ``None``."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default == []:
            return action.help
        return super()._get_help_string(action)
