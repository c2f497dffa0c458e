"""The conformance kit of every game; the common tests run over all of them."""

from __future__ import annotations

import os

from cardgym.testing import GameKit
from phpets_env import encoding as phpets_encoding
from phpets_env import env as phpets_env_factory
from phpets_env import rules as phpets_rules
from phpets_env.invariants import check_invariants as phpets_invariants

PHPETS = GameKit(
    name="power_hungry_pets",
    make_env=phpets_env_factory,
    player_counts=(2, 3, 4, 5, 6),
    legal_moves=phpets_rules.legal_moves,
    move_to_action=phpets_encoding.move_to_action,
    resample_hidden=phpets_rules.resample_hidden,
    invariants=phpets_invariants,
    option_sets=(
        {},
        {"robovac": "duel_only", "final_tie": "nobody", "start_player": "rotate"},
        {"start_player": "random", "reward": "round"},
    ),
    max_steps=20_000,
)

KITS = (PHPETS,)

#: Random games per game in the fuzz test (CI runs the default: 10,000).
FUZZ_GAMES = int(os.environ.get("CARDGYM_FUZZ_GAMES", "10000"))


def configurations() -> list[tuple[GameKit, int]]:
    """Every (game, player count) pair."""
    return [(kit, n) for kit in KITS for n in kit.player_counts]
