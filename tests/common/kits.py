"""The conformance kit of every game; the common tests run over all of them."""

from __future__ import annotations

import dataclasses
import functools
import math
import os

from cardgym.testing import GameKit
from ek_env import encoding as ek_encoding
from ek_env import env as ek_env_factory
from ek_env import rules as ek_rules
from ek_env.invariants import check_invariants as ek_invariants
from ek_env.record import choice_visibility as ek_choice_visibility
from kakelaar_env import encoding as kakelaar_encoding
from kakelaar_env import env as kakelaar_env_factory
from kakelaar_env import rules as kakelaar_rules
from kakelaar_env.invariants import check_invariants as kakelaar_invariants
from kakelaar_env.record import choice_visibility as kakelaar_choice_visibility
from phpets_env import encoding as phpets_encoding
from phpets_env import env as phpets_env_factory
from phpets_env import rules as phpets_rules
from phpets_env.invariants import check_invariants as phpets_invariants
from phpets_env.record import choice_visibility as phpets_choice_visibility

PHPETS = GameKit(
    name="power_hungry_pets",
    make_env=phpets_env_factory,
    player_counts=(2, 3, 4, 5, 6),
    legal_moves=phpets_rules.legal_moves,
    move_to_action=phpets_encoding.move_to_action,
    resample_hidden=phpets_rules.resample_hidden,
    invariants=phpets_invariants,
    choice_visibility=phpets_choice_visibility,
    option_sets=(
        {},
        {"robovac": "duel_only", "final_tie": "nobody", "start_player": "rotate"},
        {"start_player": "random", "reward": "round"},
    ),
    max_steps=20_000,
)

EK = GameKit(
    name="exploding_kittens",
    make_env=ek_env_factory,
    player_counts=tuple(range(2, 10)),
    legal_moves=ek_rules.legal_moves,
    move_to_action=ek_encoding.move_to_action,
    resample_hidden=ek_rules.resample_hidden,
    invariants=ek_invariants,
    choice_visibility=ek_choice_visibility,
    option_sets=(
        {},
        {"hand_size": 4, "deck_defuses": "2024", "attack_stacking": "stack",
         "empty_hand_target": "forbidden", "eliminated_cards": "out_of_play"},
        {"combos": False, "attack_stacking": "stack"},
    ),
    max_steps=50_000,
)

STREAKING = ("streaking",)

EK_STREAKING = dataclasses.replace(
    EK,
    name="exploding_kittens_streaking",
    make_env=functools.partial(ek_env_factory, expansions=STREAKING),
    option_sets=(
        {},
        {"fast": True, "hand_size": 4, "attack_stacking": "stack",
         "empty_hand_target": "forbidden", "eliminated_cards": "out_of_play"},
        {"combos": False, "fast": True},
    ),
)

KAKELAAR = GameKit(
    name="karel_kakelaar",
    make_env=kakelaar_env_factory,
    player_counts=(2, 3, 4, 5),
    legal_moves=kakelaar_rules.legal_moves,
    move_to_action=kakelaar_encoding.move_to_action,
    resample_hidden=kakelaar_rules.resample_hidden,
    invariants=kakelaar_invariants,
    choice_visibility=kakelaar_choice_visibility,
    option_sets=(
        {},
        {"worm_counts": (8, 6, 5, 4, 4, 3, 3, 3), "reward": "score_difference"},
        {"worm_counts": (0, 0, 0, 0, 0, 0, 0, 36), "final_tie": "draw"},
    ),
    max_steps=2_000,
)

KITS = (PHPETS, EK, EK_STREAKING, KAKELAAR)

#: Relative share of the fuzz games by player count (default 1).
FUZZ_WEIGHTS: dict[str, dict[int, float]] = {
    "exploding_kittens": {2: 4.0, 3: 4.0, 4: 4.0, 5: 4.0},
    "exploding_kittens_streaking": {2: 4.0, 3: 4.0, 4: 4.0, 5: 4.0},
}

#: Random games per game in the fuzz test (CI runs the default: 10,000).
FUZZ_GAMES = int(os.environ.get("CARDGYM_FUZZ_GAMES", "10000"))


def fuzz_games_per_player_count(kit: GameKit, total: int) -> dict[int, int]:
    """Random games per player count, ``total`` or a little more in all, shared by
    ``FUZZ_WEIGHTS`` (games at large tables are long, so they get a smaller share)."""
    weights = FUZZ_WEIGHTS.get(kit.name, {})
    shares = {n: weights.get(n, 1.0) for n in kit.player_counts}
    scale = sum(shares.values())
    return {n: math.ceil(total * share / scale) for n, share in shares.items()}


def configurations() -> list[tuple[GameKit, int]]:
    """Every (game, player count) pair."""
    return [(kit, n) for kit in KITS for n in kit.player_counts]
