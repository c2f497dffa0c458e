"""Registration of cardgym environments in PettingZoo's registry.

After ``import cardgym``::

    pettingzoo.make("aec", "cardgym/power_hungry_pets-v1", num_players=4)
"""

from __future__ import annotations

from dataclasses import dataclass

import pettingzoo


@dataclass(frozen=True)
class GameEntry:
    """A registered environment and the player counts it supports."""

    env_id: str
    entry_point: str
    player_counts: tuple[int, ...]
    module: str
    parallel_entry_point: str | None = None


GAMES: tuple[GameEntry, ...] = (
    GameEntry("cardgym/power_hungry_pets-v1", "phpets_env.env:env", tuple(range(2, 7)), "phpets_env"),
    GameEntry("cardgym/exploding_kittens-v1", "ek_env.env:env", tuple(range(2, 10)), "ek_env"),
    GameEntry("cardgym/karel_kakelaar-v1", "kakelaar_env.env:env", (2, 3, 4, 5), "kakelaar_env",
              parallel_entry_point="kakelaar_env.parallel:parallel_env"),
)


def register_all() -> None:
    """Register every game in PettingZoo's AEC registry, and in its parallel registry
    when the game has a parallel env (idempotent)."""
    for game in GAMES:
        if game.env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", game.env_id, game.entry_point)
        if game.parallel_entry_point and game.env_id not in pettingzoo.parallel_registry:
            pettingzoo.register("parallel", game.env_id, game.parallel_entry_point)


def short_name(env_id: str) -> str:
    """``cardgym/power_hungry_pets-v1`` -> ``power_hungry_pets``."""
    return env_id.split("/")[-1].rsplit("-v", 1)[0]


def find_game(name: str) -> GameEntry:
    """A registered game by id or short name (e.g. ``power_hungry_pets``)."""
    for game in GAMES:
        if name in (game.env_id, short_name(game.env_id), game.module):
            return game
    known = ", ".join(short_name(g.env_id) for g in GAMES)
    raise ValueError(f"unknown game {name!r}; known games: {known}")
