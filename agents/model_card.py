"""The model card beside a saved model, and what a model must agree with to play a game.

Every model that ``cardgym train`` writes has a JSON card beside it: ``x.zip`` and
``x.safetensors`` share ``x.json`` (an RLlib run keeps its card in the run folder,
:mod:`agents.rllib.policy`). The card names the game, the player count and the rule
options the model was trained on; the loaders (:mod:`agents.policy_file`,
:mod:`agents.sb3`, :mod:`agents.rllib.policy`) check it, and the model's spaces,
against the game they are asked to play.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardgym.documents import check_depth, parse_json
from cardgym.errors import DocumentError, shorten
from cardgym.files import atomic_write
from cardgym.registration import BoundGame, Game

__all__ = ["MAX_CARD_BYTES", "ModelError", "card_path", "game_spaces", "load_target",
           "players_problem", "read_card", "read_card_file", "write_card"]


class ModelError(ValueError):
    """A model file that is missing, unreadable, or made for another game."""


def card_path(model_path: str | Path) -> Path:
    """The JSON card saved beside a model: ``x.zip`` -> ``x.json``."""
    return Path(model_path).with_suffix(".json")


#: The largest card read, in bytes (the shipped cards are a few kilobytes).
MAX_CARD_BYTES = 1 << 20

#: The types of the card fields every loader reads.
_FIELDS: dict[str, tuple[type, ...]] = {"game": (str,), "players": (int,), "options": (dict,),
                                       "policy": (dict,), "settings": (dict,)}


def read_card(model_path: str | Path) -> dict[str, Any] | None:
    """The model card of a saved model, or None when there is none.

    Raises:
        ModelError: the card is not a JSON object (not JSON, a list, NaN or Infinity,
            nested deeper than :data:`cardgym.documents.MAX_DEPTH`, larger than
            :data:`MAX_CARD_BYTES`), or a field the loaders read has the wrong type
            (``game`` a string, ``players`` an integer, ``options``, ``policy`` and
            ``settings`` objects).
    """
    path = card_path(model_path)
    return read_card_file(path) if path.is_file() else None


def read_card_file(path: Path) -> dict[str, Any]:
    """The model card in the JSON file ``path``, checked as :func:`read_card` says.

    Raises:
        ModelError: as :func:`read_card`.
    """
    what = f"the model card {path}"
    try:
        if path.stat().st_size > MAX_CARD_BYTES:
            raise ModelError(f"{what} is larger than {MAX_CARD_BYTES} bytes; a card is a "
                             "few kilobytes of JSON")
        card = parse_json(path.read_text(encoding="utf-8"), what, kind="object")
        check_depth(card, what)
    except (OSError, UnicodeDecodeError) as error:
        raise ModelError(f"cannot read {what}: {error}") from None
    except DocumentError as error:
        raise ModelError(str(error)) from None
    if not isinstance(card, dict):
        raise ModelError(f"{what} must be a JSON object, got {type(card).__name__} "
                         f"{shorten(card)}")
    for name, types in _FIELDS.items():
        value = card.get(name)
        if value is not None and (not isinstance(value, types) or isinstance(value, bool)):
            raise ModelError(f"{what}: {name} must be {_TYPE_NAMES[types[0]]}, got "
                             f"{shorten(value)}")
    return card


_TYPE_NAMES = {str: "a string", int: "an integer", dict: "a JSON object"}


def write_card(model_path: str | Path, card: Mapping[str, Any]) -> Path:
    """Write ``card`` beside ``model_path`` (whole, or not at all); returns the card's path."""
    return atomic_write(card_path(model_path),
                        json.dumps(dict(card), indent=2, sort_keys=True, default=str) + "\n")


def players_problem(card: Mapping[str, Any], model_path: str | Path,
                    num_players: int | None) -> str | None:
    """Why a model whose card is ``card`` cannot play at a table of ``num_players``,
    or None when it can (or when either side does not say).

    The observation and action layouts do not depend on the player count (absent
    seats are masked), so a model would run at any table; but it learned one table
    size, and playing it at another is almost always a mistake.
    """
    trained = card.get("players")
    if num_players is None or not isinstance(trained, int) or trained == num_players:
        return None
    game = str(card.get("game", "its game"))
    return (f"{model_path} was trained for {trained} players, not {num_players}: use it at a "
            f"{trained}-player table, or train one for {num_players} players (cardgym train "
            f"{game.split('/')[-1].rsplit('-v', 1)[0]} --players {num_players})")


def load_target(game: Game | BoundGame | None, num_players: int | None
                ) -> tuple[BoundGame | None, Game | None, int | None]:
    """What a model is loaded for: the bound game (``None`` when not given one), the
    game (``None``: the one the card names) and the table size."""
    if isinstance(game, BoundGame):
        return game, game.game, game.num_players
    return None, game, num_players


def game_spaces(game: Game | BoundGame, num_players: int | None = None,
                options: Mapping[str, Any] | None = None) -> tuple[Any, Any]:
    """The observation space (the flat vector, without the mask) and the action space
    of one seat of ``game``, which a model must fit: a bound game's (read from its
    layout, the options taken as checked), or ``game``'s with ``options``.

    ``num_players`` may be ``None`` (the smallest table): the spaces do not depend on it.
    """
    if isinstance(game, BoundGame):
        from gymnasium import spaces

        layout = game.layout
        return layout.observation_spec.box(), spaces.Discrete(layout.num_actions)
    env = game.make_env(num_players=num_players or min(game.player_counts),
                        **dict(options or {}))
    agent = env.possible_agents[0]
    return env.observation_space(agent)["observation"], env.action_space(agent)
