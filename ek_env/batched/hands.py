"""Cards leaving hands on one row of the batched engine, as :mod:`ek_env.engine.hands`
takes them: which copy goes, at random or by choice (a hand is a count per kind at
``HANDS + KIND_ROOM * seat``; with the expansion, some copies are marked)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from cardgym.vector.random import below
from ek_env.batched.knowledge import left_publicly
from ek_env.batched.layout import (
    DISCARD,
    HANDS,
    KIND_ROOM,
    MARKED,
    MARKS_TOTAL,
    OPT_KINDS,
    SIZES,
)

#: ``remove_card``'s choice of copy: the player's (marked or not), or none made.
ANY_COPY = np.int64(-1)
UNMARKED_COPY = np.int64(0)
MARKED_COPY = np.int64(1)


@njit
def nth_card(s: Any, opts: Any, seat: Any, index: Any) -> Any:
    """The kind of the ``index``-th card of ``seat``'s hand (kinds in order)."""
    hand = HANDS + KIND_ROOM * seat
    for card in range(opts[OPT_KINDS]):
        count = s[hand + card]
        if index < count:
            return np.int64(card)
        index -= count
    return np.int64(-1)


@njit
def random_kind(s: Any, opts: Any, seat: Any, rng: Any, chance: Any, row: Any) -> Any:
    """The kind of a uniformly random card of ``seat``'s hand (the hand is unchanged):
    one draw of ``integers(cards in hand)``."""
    hand = HANDS + KIND_ROOM * seat
    total = np.int64(0)
    for card in range(opts[OPT_KINDS]):
        total += s[hand + card]
    chance[row] += 1
    return nth_card(s, opts, seat, np.int64(below(rng, row, total)))  # type: ignore[arg-type]


@njit
def remove_card(s: Any, seat: Any, card: Any, random_copy: Any, choice: Any, rng: Any,
                chance: Any, row: Any) -> Any:
    """One ``card`` leaves ``seat``'s hand. ``choice``: the player chose a marked
    (:data:`MARKED_COPY`) or an unmarked copy; with :data:`ANY_COPY`, a marked copy
    first where the copy is public anyway (not ``random_copy``), or a random copy
    among the kind's cards (``random_copy``: a draw, where the kind has marked
    copies). Returns whether the copy that left was marked."""
    hand = HANDS + KIND_ROOM * seat
    s[hand + card] -= 1
    s[SIZES + seat] -= 1
    marks = MARKED + KIND_ROOM * seat + card
    if not s[marks]:
        return False
    marked = choice == MARKED_COPY
    if choice == ANY_COPY:
        marked = True
        if random_copy:
            chance[row] += 1
            copies = np.int64(s[hand + card] + 1)
            marked = below(rng, row, copies) < s[marks]  # type: ignore[arg-type]
    if marked:
        s[marks] -= 1
        s[MARKS_TOTAL] -= 1
    return marked


@njit
def discard_from_hand(s: Any, opts: Any, seat: Any, card: Any, count: Any) -> None:
    """``count`` cards of ``card`` are played face up from ``seat``'s hand onto the
    discard pile (marked copies first: all are seen)."""
    s[HANDS + KIND_ROOM * seat + card] -= count
    s[SIZES + seat] -= count
    marks = MARKED + KIND_ROOM * seat + card
    if s[marks]:
        unmarked = min(count, np.int64(s[marks]))
        s[marks] -= unmarked
        s[MARKS_TOTAL] -= unmarked
    s[DISCARD + card] += count
    left_publicly(s, opts, seat, card, count)


@njit
def remove_random(s: Any, opts: Any, seat: Any, rng: Any, chance: Any, row: Any) -> Any:
    """A uniformly random card leaves ``seat``'s (non-empty) hand: one draw of
    ``integers(cards in hand)``, and one more for the copy where the kind has marked
    copies. Returns its kind and whether the copy was marked."""
    chance[row] += 1
    size = np.int64(s[SIZES + seat])
    card = nth_card(s, opts, seat, np.int64(below(rng, row, size)))  # type: ignore[arg-type]
    marked = remove_card(s, seat, card, np.bool_(True), ANY_COPY, rng, chance, row)
    return card, marked
