"""Who decides in a Karel Kakelaar stage, and what they may choose, on one row of
the batched engine (compiled helpers; :mod:`kakelaar_env.engine.turns`,
:mod:`kakelaar_env.engine.legality`). Each function takes the row ``b``."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.vector._numba import njit
from kakelaar_env.batched.layout import (
    ASKED,
    BID_STAGE,
    CIRCLE,
    CURRENT,
    CURSOR,
    DISCARDS,
    GAME_OVER,
    HANDS,
    HEN_STAGE,
    HEN_TYPE,
    NUM_ASKED,
    NUM_CIRCLE,
    NUM_PICKS,
    PHASE,
    PICKS,
    ROUND,
    TRACTOR,
    Int,
)
from kakelaar_env.engine.actions import HEN_NONE_INDEX, HEN_PLAY_INDEX, TAKE_BASE
from kakelaar_env.engine.cards import NUM_BIDDABLE, NUM_TYPES, ROUNDS


@njit
def can_bid(b: NDArray[np.int8], seat: Int) -> bool:
    """Whether ``seat``'s hand holds a worm or a chicken."""
    hand = HANDS + seat * NUM_TYPES
    for t in range(NUM_BIDDABLE):
        if b[hand + t] > 0:
            return True
    return False


@njit
def must_play_hen(b: NDArray[np.int8], seat: Int) -> bool:
    """Whether ``seat`` must play a mother hen: only hens in hand, a round to come."""
    return (b[ROUND] < ROUNDS and b[HANDS + seat * NUM_TYPES + HEN_TYPE] > 0
            and not can_bid(b, seat))


@njit
def participant(b: NDArray[np.int8], k: int) -> Int:
    """The participant ``k`` places clockwise from the tractor holder."""
    return np.int64(b[CIRCLE + (b[TRACTOR] + k) % b[NUM_CIRCLE]])


@njit
def ask(b: NDArray[np.int8], count: int) -> bool:
    """Ask the ``count`` seats in ``ASKED`` in order (the caller has set the stage);
    False if nobody is asked."""
    if count == 0:
        return False
    b[NUM_ASKED] = count
    b[CURSOR] = 0
    b[CURRENT] = b[ASKED]
    return True


@njit
def legal(b: NDArray[np.int8], seat: int, mask: NDArray[np.int8]) -> None:
    """``seat``'s choices in the current stage into ``mask`` (zeroed first), whether or
    not it has committed (:func:`kakelaar_env.engine.legality.stage_choices`)."""
    mask[:] = 0
    phase = b[PHASE]
    if phase == BID_STAGE:
        hand = HANDS + seat * NUM_TYPES
        for t in range(NUM_BIDDABLE):
            mask[t] = 1 if b[hand + t] > 0 else 0
    elif phase == HEN_STAGE:
        mask[HEN_PLAY_INDEX] = 1
        mask[HEN_NONE_INDEX] = 0 if must_play_hen(b, seat) else 1
    elif phase != GAME_OVER:
        pile = DISCARDS + seat * NUM_BIDDABLE
        picked = b[NUM_PICKS + seat]
        for t in range(NUM_BIDDABLE):
            left = b[pile + t]
            for k in range(picked):
                if b[PICKS + 2 * seat + k] == t:
                    left -= 1
            mask[TAKE_BASE + t] = 1 if left > 0 else 0
