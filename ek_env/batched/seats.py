"""Which seats come next and which may be chosen, on one row of the batched engine,
as :mod:`ek_env.engine.seats` gives them (targets as bit masks over seat offsets
clockwise from the turn holder, the form the action table uses)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.layout import ALIVE, SIZES


@njit
def next_alive(s: Any, n: Any, seat: Any) -> Any:
    """The next living seat clockwise after ``seat``."""
    other = (seat + 1) % n
    while not s[ALIVE + other]:
        other = (other + 1) % n
    return np.int64(other)


@njit
def target_offsets(s: Any, n: Any, seat: Any, need_cards: Any) -> Any:
    """Seats ``seat`` may choose, as a bit mask over offsets 1..n-1 clockwise: living
    others, with cards in hand if ``need_cards``."""
    mask = np.int64(0)
    for offset in range(1, n):
        other = (seat + offset) % n
        if s[ALIVE + other] and (not need_cards or s[SIZES + other]):
            mask |= np.int64(1) << offset
    return mask
