"""Rule options from the command line: ``--option key=value``, parsed and checked.

``parse_options(["attack_stacking=stack", "combos=false"])`` gives
``{"attack_stacking": "stack", "combos": False}``: a value is read with
:func:`ast.literal_eval` when that works (numbers, tuples, ``None``), ``true`` and
``false`` in any case are booleans, and anything else stays a string.

:func:`check_options` then checks them against a game: an unknown key names the
game's options with their defaults; a bad value gets the environment's own
:class:`~cardgym.errors.OptionError` message (the environment is built to check).
Both raise :class:`OptionsError`, which the command line reports with exit status 2.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Any

from cardgym.arguments import player_count_problem
from cardgym.errors import OptionError
from cardgym.registration import BoundGame, Game, bind

__all__ = [
    "OptionsError",
    "as_bound",
    "bind_options",
    "check_options",
    "check_players",
    "game_options",
    "make_env",
    "parse_option",
    "parse_options",
]

class OptionsError(ValueError):
    """A ``key=value`` option that does not parse, or that the game does not accept."""


def parse_option(text: str) -> tuple[str, Any]:
    """One ``key=value`` string as ``(key, value)``."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise OptionsError(f"option {text!r} is not of the form key=value")
    if not key.isidentifier():
        raise OptionsError(f"option name {key!r} (in {text!r}) is not a valid name")
    raw = raw.strip()
    if raw.lower() in ("true", "false"):
        return key, raw.lower() == "true"
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = raw
    return key, value


def parse_options(texts: Iterable[str]) -> dict[str, Any]:
    """Several ``key=value`` strings as a dict; a key given twice is an error."""
    options: dict[str, Any] = {}
    for text in texts:
        key, value = parse_option(text)
        if key in options:
            raise OptionsError(f"option {key!r} is given more than once")
        options[key] = value
    return options


def game_options(game: Game) -> dict[str, Any]:
    """The rule options of ``game`` and their defaults (its ``Config`` fields)."""
    return game.option_defaults()


def check_players(game: Game, num_players: int) -> None:
    """Raise :class:`OptionsError` unless ``game`` supports ``num_players`` seats, in
    the words of :func:`cardgym.arguments.player_count_problem`."""
    problem = player_count_problem(game, num_players)
    if problem is not None:
        raise OptionsError(problem)


def make_env(game: Game, num_players: int, options: Mapping[str, Any] | None = None,
             **env_kwargs: Any) -> Any:
    """A ``raw_env`` of ``game`` with rule ``options`` (checked first) and other arguments."""
    options = check_options(game, num_players, options, build=False)
    return game.raw_env(num_players=num_players, **options, **env_kwargs)


def check_options(game: Game, num_players: int,
                  options: Mapping[str, Any] | None = None, build: bool = True) -> dict[str, Any]:
    """``options`` as a dict once ``game`` accepts them at ``num_players`` seats.

    Args:
        build: also check the values and the player count (the game's ``Config``
            judges them), not only the names.

    Raises:
        OptionsError: an unknown option (the message lists the game's options with
            their defaults) or a value the game refuses (its own message).
    """
    options = dict(options or {})
    if not build:
        try:
            game.check_option_names(options)
        except OptionError as error:
            raise OptionsError(str(error)) from None
        return options
    bind_options(game, num_players, options)
    return options


def bind_options(game: Game, num_players: int,
                 options: Mapping[str, Any] | None = None) -> BoundGame:
    """``game`` bound to ``num_players`` seats and ``options``
    (:meth:`cardgym.game.Game.bind`), its errors as :class:`OptionsError`: the one
    check of a command's options; what it gives is trusted from then on."""
    try:
        return game.bind(num_players, options)
    except OptionError as error:
        raise OptionsError(str(error)) from None


def as_bound(game: str | Game | BoundGame, num_players: int | None = None,
             options: Mapping[str, Any] | None = None) -> BoundGame:
    """:func:`cardgym.registration.bind` (a bound game as it is, or a game bound to
    ``num_players`` and ``options``), its option errors as :class:`OptionsError`."""
    try:
        return bind(game, num_players, options)
    except OptionError as error:
        raise OptionsError(str(error)) from None
