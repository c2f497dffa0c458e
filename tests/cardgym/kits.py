"""The conformance kits of every registered game; the common tests run over all of them."""

from __future__ import annotations

import math
import os

from cardgym.registration import find_game, games
from cardgym.testing import GameKit, kits_of

#: Every registered game's kits (its own, then one per test variant).
KITS = tuple(kit for game in games() for kit in kits_of(game))


def kit_named(name: str) -> GameKit:
    """The kit of that name (a game's short name, or ``NAME_VARIANT``)."""
    for kit in KITS:
        if kit.name == name:
            return kit
    raise KeyError(f"no kit {name!r}; kits: {', '.join(kit.name for kit in KITS)}")


#: The kits the games' own tests use.
PHPETS = GameKit.of(find_game("power_hungry_pets"))
EK = GameKit.of(find_game("exploding_kittens"))
EK_STREAKING = GameKit.of(find_game("exploding_kittens"), "streaking")
KAKELAAR = GameKit.of(find_game("karel_kakelaar"))

#: Random games per game in the fuzz test: ``make test`` (and CI) plays 3,000, ``make fuzz``
#: the full size, 20,000 (the Makefile's FUZZ_GAMES and FULL_FUZZ_GAMES).
FUZZ_GAMES = int(os.environ.get("CARDGYM_FUZZ_GAMES", "3000"))


def fuzz_games_per_player_count(kit: GameKit, total: int) -> dict[int, int]:
    """Random games per player count, ``total`` or a little more in all, shared by
    the game's ``test_weights`` (games at large tables are long, so they may get a
    smaller share)."""
    weights = kit.weights
    shares = {n: weights.get(n, 1.0) for n in kit.player_counts}
    scale = sum(shares.values())
    return {n: math.ceil(total * share / scale) for n, share in shares.items()}


def configurations() -> list[tuple[GameKit, int]]:
    """Every (game, player count) pair."""
    return [(kit, n) for kit in KITS for n in kit.player_counts]
