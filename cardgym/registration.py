"""The registry of games, and their registration in PettingZoo's registry.

Games register through the ``cardgym.games`` entry-point group: each entry names a
:class:`~cardgym.game.Game` object (``"package.game:GAME"``), so a game from
another distribution joins by declaring one entry point and being installed. A
game can also be added at run time with :func:`register_game`.

After ``import cardgym``::

    pettingzoo.make("aec", "cardgym/power_hungry_pets-v1", num_players=4)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pettingzoo

from cardgym.game import BoundGame, Game, check_game

__all__ = ["ENTRY_POINT_GROUP", "GAMES", "LIBRARY", "BoundGame", "Game", "bind", "find_game", "games",
           "library_games", "register_all", "register_game", "short_name"]

#: The entry-point group games register in.
ENTRY_POINT_GROUP = "cardgym.games"
#: The distribution whose entry points register the library's own games.
LIBRARY = "cardgym"

LOGGER = logging.getLogger("cardgym")

#: Every registered game, in registration order (a live list: see :func:`games`).
GAMES: list[Game] = []
_REGISTERED = GAMES
#: The distribution that registered each game of an entry point, by game name.
_DISTRIBUTIONS: dict[str, str] = {}


def _discover() -> list[Game]:
    """The games of the entry points. A plugin's entry point that fails to load, is
    not a :class:`Game`, or reuses a registered name is logged (a warning on the
    ``cardgym`` logger naming the entry point) and skipped, so that one broken
    plugin costs only its own game; cardgym's own entry points must load."""
    found: dict[str, Game] = {}
    points = list(entry_points(group=ENTRY_POINT_GROUP))
    for point in sorted(points, key=lambda p: _distribution_order(p, points)):
        distribution = point.dist.name if point.dist is not None else ""
        try:
            game = point.load()
            if not isinstance(game, Game):
                raise TypeError(f"it is a {type(game).__name__}, not a cardgym.game.Game")
            if game.name in found and found[game.name] is not game:
                raise ValueError(f"another game named {game.name!r} is registered")
        except Exception as error:
            if distribution == LIBRARY:
                raise
            cause = str(error).strip().splitlines()[0] if str(error).strip() else ""
            LOGGER.warning("cardgym: skipped the game plugin %s = %s (from %s): %s%s",
                           point.name, point.value, distribution or "an unknown distribution",
                           type(error).__name__, f": {cause}" if cause else "")
            continue
        found[game.name] = game
        _DISTRIBUTIONS[game.name] = distribution
    return list(found.values())


def _distribution_order(point: EntryPoint, points: list[EntryPoint]) -> tuple[bool, str, int]:
    # cardgym's own games first, in the order its metadata lists them; then other
    # distributions' by distribution name: the same order on every machine.
    name = point.dist.name if point.dist is not None else ""
    return name != "cardgym", name, points.index(point)


def games() -> tuple[Game, ...]:
    """Every registered game: cardgym's own, then other distributions' (by
    distribution name), then those added with :func:`register_game`."""
    return tuple(_REGISTERED)


def library_games() -> tuple[Game, ...]:
    """The games cardgym itself ships (the entry points of the ``cardgym``
    distribution), in registry order: what its benchmark tables measure. Games of
    other distributions (such as the example, Kuhn poker) and games added with
    :func:`register_game` are registered beside them, not among them."""
    return tuple(game for game in _REGISTERED if _DISTRIBUTIONS.get(game.name) == LIBRARY)


def register_game(game: Game) -> Game:
    """Add ``game`` to the registry and to PettingZoo's (idempotent).

    Raises:
        ValueError: the game fails :func:`~cardgym.game.check_game`, or another
            game of the same name is registered.
    """
    for known in _REGISTERED:
        if known.name == game.name:
            if known is game:
                return game
            raise ValueError(f"another game named {game.name!r} is registered "
                             f"({known.env_entry_point})")
    problems = check_game(game)
    if problems:
        raise ValueError(f"{game.name}: not a complete game: " + "; ".join(problems))
    _REGISTERED.append(game)
    _register_with_pettingzoo(game)
    return game


def _register_with_pettingzoo(game: Game) -> None:
    # Every version the game keeps, each as its factory with ``version`` set (the
    # newest with none, so that its factory's own default stands).
    for version in game.versions:
        env_id = game.env_id_of(version)
        kwargs = {} if version == game.version else {"version": version}
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, game.env_entry_point, kwargs=kwargs)
        if game.parallel_entry_point and env_id not in pettingzoo.parallel_registry:
            pettingzoo.register("parallel", env_id, game.parallel_entry_point, kwargs=kwargs)


def register_all() -> None:
    """Register every game of the entry points (idempotent)."""
    for game in _discover():
        if game not in _REGISTERED:
            _REGISTERED.append(game)
        _register_with_pettingzoo(game)


def short_name(env_id: str) -> str:
    """``cardgym/power_hungry_pets-v1`` -> ``power_hungry_pets``."""
    return env_id.split("/")[-1].rsplit("-v", 1)[0]


def find_game(name: str | Game) -> Game:
    """A registered game by id (of any version it keeps), short name or package name."""
    if isinstance(name, Game):
        return name
    for game in _REGISTERED:
        if name in (game.name, game.module) or name in map(game.env_id_of, game.versions):
            return game
    known = ", ".join(game.name for game in _REGISTERED) or "none (is cardgym installed?)"
    raise ValueError(f"unknown game {name!r}; known games: {known}")


def bind(game: str | Game | BoundGame, num_players: int | None = None,
         options: Mapping[str, Any] | None = None) -> BoundGame:
    """A bound game: ``game`` as it is when it is one already (then give no options,
    and no ``num_players`` or its own), else the registered game (by entry, id or short
    name) bound to ``num_players`` seats and ``options``, checked
    (:meth:`Game.bind <cardgym.game.Game.bind>`).

    Raises:
        ValueError: an unknown game; ``TypeError`` for a bound game given options or
            another table size, or a game given none; ``OptionError`` for bad options.
    """
    if isinstance(game, BoundGame):
        if num_players not in (None, game.num_players) or options:
            raise TypeError(f"{game!r} is bound already: give no options, and no "
                            f"num_players or its own ({game.num_players})")
        return game
    if num_players is None:
        name = game if isinstance(game, str) else game.name
        raise TypeError(f"num_players is needed to bind {name}")
    return find_game(game).bind(num_players, options)
