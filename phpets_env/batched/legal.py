"""The legal actions of the seat to act on one row, as
:func:`phpets_env.engine.legality.legal_action_mask` gives them, written into an ``int8`` mask.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from phpets_env.batched.layout import (
    ACTIONS,
    DECK_LEN,
    DEPTH_ACTION,
    GRAVE_PHASE,
    GUESSES,
    HANDS,
    IN_ROUND,
    KEEP_ACTION,
    PHASE,
    PLAY_ACTION,
    PLAY_PHASE,
    PROTECTED,
    TARGET_ACTION,
    TARGET_KINDS,
    TO_ACT,
    TRAPPER_PHASE,
    VALUES,
)

_OTHER_PLAYER = 1  # cards.OTHER_PLAYER
_ANY_PLAYER = 2  # cards.ANY_PLAYER
_CRYSTAL_BOWL = 1


@njit
def fill_mask(s: Any, n: Any, mask: Any) -> Any:
    """The legal actions of the seat to act into ``mask`` (all zero once the match
    is over)."""
    for a in range(ACTIONS):
        mask[a] = 0
    phase = s[PHASE]
    if phase == PLAY_PHASE:
        actor = s[TO_ACT]
        offsets = np.int64(0)
        for offset in range(1, n):
            seat = (actor + offset) % n
            if s[IN_ROUND + seat] and not s[PROTECTED + seat]:
                offsets |= 1 << offset
        _card_plays(VALUES[s[HANDS + 2 * actor]], offsets, mask)
        _card_plays(VALUES[s[HANDS + 2 * actor + 1]], offsets, mask)
    elif phase == GRAVE_PHASE:
        mask[KEEP_ACTION] = 1
        mask[KEEP_ACTION + 1] = 1
    elif phase == TRAPPER_PHASE:
        for depth in range(s[DECK_LEN] + 1):
            mask[DEPTH_ACTION + depth] = 1


@njit
def _card_plays(card: Any, offsets: Any, mask: Any) -> Any:
    """The plays of a card of value ``card``, given the bit mask of seat offsets
    another player may choose."""
    kind = TARGET_KINDS[card]
    if kind == _ANY_PLAYER:
        offsets |= 1
    elif kind != _OTHER_PLAYER or offsets == 0:
        mask[PLAY_ACTION[card]] = 1
        return
    base = TARGET_ACTION[card]
    first = 0 if kind == _ANY_PLAYER else 1
    offset = first
    while offsets >> offset:
        if offsets >> offset & 1:
            if card == _CRYSTAL_BOWL:
                start = base + (offset - 1) * GUESSES
                for a in range(start, start + GUESSES):
                    mask[a] = 1
            else:
                mask[base + offset - first] = 1
        offset += 1
