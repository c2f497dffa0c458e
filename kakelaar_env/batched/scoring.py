"""The end of a Karel Kakelaar game on one row of the batched engine (compiled
helpers; :mod:`kakelaar_env.engine.scoring`): worms in hand, winners and rewards."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.vector._numba import njit
from kakelaar_env.batched.layout import (
    HANDS,
    WINNERS,
    WORM_VALUES,
)
from kakelaar_env.engine.cards import NUM_TYPES


@njit
def score(b: NDArray[np.int8], seat: int) -> int:
    """Worm total in ``seat``'s hand."""
    total = 0
    hand = HANDS + seat * NUM_TYPES
    for t in range(NUM_TYPES):
        total += b[hand + t] * WORM_VALUES[t]
    return total


@njit
def hand_size(b: NDArray[np.int8], seat: int) -> int:
    """Cards in ``seat``'s hand."""
    total = 0
    hand = HANDS + seat * NUM_TYPES
    for t in range(NUM_TYPES):
        total += b[hand + t]
    return total


@njit
def winners(b: NDArray[np.int8], n: int) -> int:
    """The winners as a bit mask: most worms, then fewest hand cards; still tied, all."""
    best_score = -1
    best_size = 0
    mask = 0
    for seat in range(n):
        total = score(b, seat)
        size = hand_size(b, seat)
        if total > best_score or (total == best_score and size < best_size):
            best_score, best_size, mask = total, size, 1 << seat
        elif total == best_score and size == best_size:
            mask |= 1 << seat
    return mask


@njit
def returns(b: NDArray[np.int8], n: int, reward: int, final_tie: int,
            out: NDArray[np.float32]) -> None:
    """The final rewards of a finished game into ``out`` (:func:`kakelaar_env.engine.scoring.returns`):
    ``reward`` 0 win/loss, 1 score difference; ``final_tie`` 0 shared, 1 draw."""
    if reward == 1:
        whole = 0
        for seat in range(n):
            whole += score(b, seat)
        for seat in range(n):
            total = score(b, seat)
            out[seat] = total - (whole - total) / (n - 1)
        return
    mask = b[WINNERS]
    several = (mask & (mask - 1)) != 0
    best = 0.0 if several and final_tie == 1 else 1.0
    for seat in range(n):
        out[seat] = best if mask >> seat & 1 else -1.0
