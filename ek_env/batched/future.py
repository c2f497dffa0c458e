"""The top of the draw pile on one row of the batched engine, as
:mod:`ek_env.engine.future` handles it: See the Future, Alter the Future 5x and Swap
Top and Bottom.

Looking at cards is recorded with how many were seen, the cards themselves (top
first, five bits each) only for the seat that saw them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.knowledge import altered, lifted_top, saw_top, swapped_ends
from ek_env.batched.layout import (
    ALTER_LEFT,
    ALTER_LEFT_LEN,
    ALTER_PHASE,
    ALTER_PLACED,
    ALTER_PLACED_LEN,
    DECK,
    DECK_LEN,
    EV_ALTERED,
    EV_SAW,
    FUTURE_5X_CARDS,
    NO,
    PHASE,
    PLAY_PHASE,
    TO_ACT,
    TURN_HOLDER,
)
from ek_env.batched.record import log_event

__all__ = ["alter", "saw", "start_alter", "swap_ends"]


@njit
def saw(s: Any, w: Any, seat: Any, count: Any, what: Any) -> None:
    """``seat`` looks at the top ``count`` cards (See the Future, Alter the Future);
    a SAW event tells how many, the cards (top first) only to ``seat``."""
    size = np.int64(s[DECK_LEN])
    count = min(count, size)
    saw_top(s, seat, count)
    if what == EV_SAW:
        secret = np.int64(0)
        for i in range(count):
            secret |= (np.int64(s[DECK + size - 1 - i]) + 1) << (5 * i)
        log_event(w, seat, EV_SAW, NO, NO, count, secret, np.int64(1) << seat)


@njit
def start_alter(s: Any, w: Any, opts: Any, seat: Any) -> None:
    """Alter the Future 5x: ``seat`` sees the top cards; two or more come off the
    pile (sorted) to be put back one at a time (phase ALTER)."""
    size = np.int64(s[DECK_LEN])
    count = min(FUTURE_5X_CARDS, size)
    saw(s, w, seat, count, EV_ALTERED)
    if count <= 1:  # nothing to reorder: the record tells the card, if any, to the seat
        secret = np.int64(0)
        if count:
            secret = np.int64(s[DECK + size - 1]) + 1
        log_event(w, seat, EV_ALTERED, NO, NO, count, secret, np.int64(1) << seat)
        return
    for k in range(count):  # off the pile, sorted (insertion)
        card = s[DECK + size - count + k]
        at = k
        while at and s[ALTER_LEFT + at - 1] > card:
            s[ALTER_LEFT + at] = s[ALTER_LEFT + at - 1]
            at -= 1
        s[ALTER_LEFT + at] = card
    s[ALTER_LEFT_LEN] = count
    s[ALTER_PLACED_LEN] = 0
    s[DECK_LEN] = size - count
    lifted_top(s, opts, count)
    s[PHASE] = ALTER_PHASE


@njit
def alter(s: Any, w: Any, opts: Any, card: Any) -> None:
    """Alter the Future 5x: put a card of kind ``card`` at the next depth, top first;
    the last card goes where it must and the draw pile takes the new order."""
    left = s[ALTER_LEFT_LEN]
    for k in range(left):
        if s[ALTER_LEFT + k] == card:
            for j in range(k, left - 1):
                s[ALTER_LEFT + j] = s[ALTER_LEFT + j + 1]
            break
    left -= 1
    s[ALTER_LEFT_LEN] = left
    s[ALTER_PLACED + s[ALTER_PLACED_LEN]] = card
    s[ALTER_PLACED_LEN] += 1
    if left > 1:
        return
    placed = s[ALTER_PLACED:ALTER_PLACED + 5]  # the placed cards, then the one left
    count = np.int64(s[ALTER_PLACED_LEN] + left)
    if left:
        placed[count - 1] = s[ALTER_LEFT]
    size = np.int64(s[DECK_LEN])
    secret = np.int64(0)
    for k in range(count):  # top first: the last placed card goes on the pile first
        s[DECK + size + k] = placed[count - 1 - k]
        secret |= (np.int64(placed[k]) + 1) << (5 * k)
    s[DECK_LEN] = size + count
    seat = np.int64(s[TURN_HOLDER])
    altered(s, opts, seat, placed, count)
    log_event(w, seat, EV_ALTERED, NO, NO, count, secret, np.int64(1) << seat)
    s[ALTER_LEFT_LEN] = 0
    s[ALTER_PLACED_LEN] = 0
    s[PHASE] = PLAY_PHASE
    s[TO_ACT] = seat


@njit
def swap_ends(s: Any, opts: Any) -> None:
    """Swap Top and Bottom: the top and bottom cards change places unseen."""
    size = s[DECK_LEN]
    if size > 1:
        top = s[DECK + size - 1]
        s[DECK + size - 1] = s[DECK]
        s[DECK] = top
        swapped_ends(s, opts)
