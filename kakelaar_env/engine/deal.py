"""A new Karel Kakelaar game: chickens dealt, pile shuffled and trimmed, a tractor
holder, round 1's row turned up (``rules.new_game`` also sets up any position a scenario
describes).

Randomness comes only from the ``Chance`` passed in.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

from cardgym.chance import Chance
from kakelaar_env.engine.cards import (
    CHICKEN_TYPES,
    HEN,
    NUM_BIDDABLE,
    NUM_COLOURS,
    NUM_HENS,
    NUM_TYPES,
    count_types,
    removed_unseen,
)
from kakelaar_env.engine.flow import start_round
from kakelaar_env.engine.state import Config, State

_PILES: dict[tuple[int, ...], NDArray[np.int64]] = {}
_ROBOT_DECK: Final = np.array([t for t in CHICKEN_TYPES for _ in range(NUM_COLOURS - 2)])
_CHICKENS: Final = bytes(1 if t in CHICKEN_TYPES else 0 for t in range(NUM_TYPES))


def shuffled_pile(config: Config, rng: Chance) -> list[int]:
    """The 36 worms and 9 mother hens, shuffled (top last)."""
    pile = _PILES.get(config.worm_counts)
    if pile is None:
        pile = np.array([t for t, count in enumerate(config.worm_counts) for _ in range(count)]
                        + [HEN] * NUM_HENS)
        _PILES[config.worm_counts] = pile
    return rng.permutation(pile).tolist()  # type: ignore[no-any-return]


def new_game(config: Config, rng: Chance) -> State:
    """A new game: chickens dealt, pile shuffled and trimmed, a random tractor holder,
    round 1's row turned up.

    Args:
        config: rule options.
        rng: the only source of randomness.
    """
    state = State(config)
    _deal(state, rng)
    start_round(state)
    return state


def _deal(state: State, rng: Chance) -> None:
    """Chickens to every seat, the pile shuffled and trimmed, a random tractor holder."""
    config = state.config
    n = config.num_players
    state.hands = [bytearray(_CHICKENS) for _ in range(n)]
    state.discards = [bytearray(NUM_BIDDABLE) for _ in range(n)]
    pile = shuffled_pile(config, rng)
    cut = len(pile) - removed_unseen(n)
    state.removed = pile[cut:]
    state.deck = pile[:cut]
    state.unseen = count_types(pile)
    first = int(rng.random() * n)  # uniform seat; cheaper than rng.integers
    if config.robot:
        state.robot_deck = rng.permutation(_ROBOT_DECK).tolist()
        state.circle = (first, 1 - first, 2)
        state.tractor = 0
    else:
        state.tractor = first
