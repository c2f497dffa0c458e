"""The Streaking Kittens expansion's single cards on one row of the batched engine,
as :mod:`ek_env.engine.streaking` resolves them once their Nope window lets them
happen (Alter the Future 5x and Swap Top and Bottom are
:mod:`~ek_env.batched.future`'s, Garbage Collection :mod:`~ek_env.batched.garbage`'s)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from cardgym.vector.random import below, shuffle
from ek_env.batched.future import saw, start_alter, swap_ends
from ek_env.batched.garbage import start_garbage
from ek_env.batched.hands import random_kind
from ek_env.batched.knowledge import everyone_sees_top, forget_hand
from ek_env.batched.layout import (
    ALIVE,
    ALTER_THE_FUTURE_5X_KIND,
    BLIND,
    CATOMIC_BOMB_KIND,
    CURSE_KIND,
    DECK,
    DECK_LEN,
    DECK_ROOM,
    EV_BOMB,
    EV_MARK,
    EV_SAW,
    FUTURE_5X_CARDS,
    GARBAGE_COLLECTION_KIND,
    HANDS,
    KIND_ROOM,
    KITTEN_KIND,
    MARK_KIND,
    MARKED,
    MARKS_TOTAL,
    NO,
    OWED,
    R_ALREADY_MARKED,
    R_DONE,
    R_NOTHING,
    SEE_THE_FUTURE_5X_KIND,
    SIZES,
    SUPER_SKIP_KIND,
    SWAP_KIND,
    UNSEEN,
)
from ek_env.batched.record import log_event
from ek_env.batched.turns import settle_one

__all__ = ["resolve_streaking"]


@njit
def resolve_streaking(s: Any, w: Any, opts: Any, seat: Any, card: Any, target: Any, rng: Any,
                      chance: Any, row: Any) -> None:
    """The expansion's single ``card`` of the turn holder ``seat`` happens (its
    target, or -1)."""
    if card == CATOMIC_BOMB_KIND:
        _catomic_bomb(s, w, opts, seat, rng, chance, row)
    elif card == SUPER_SKIP_KIND:
        w[OWED] = 1
        settle_one(s, w, opts)
    elif card == SEE_THE_FUTURE_5X_KIND:
        saw(s, w, seat, FUTURE_5X_CARDS, EV_SAW)
    elif card == ALTER_THE_FUTURE_5X_KIND:
        start_alter(s, w, opts, seat)
    elif card == SWAP_KIND:
        swap_ends(s, opts)
    elif card == GARBAGE_COLLECTION_KIND:
        start_garbage(s, w, opts, seat, rng, chance, row)
    elif card == MARK_KIND:
        _mark(s, w, opts, seat, target, rng, chance, row)
    elif card == CURSE_KIND:
        if s[ALIVE + target] and not s[BLIND + target]:  # the target goes blind
            s[BLIND + target] = 1
            forget_hand(s, opts, target, target)


@njit
def _catomic_bomb(s: Any, w: Any, opts: Any, seat: Any, rng: Any, chance: Any,
                  row: Any) -> None:
    """The draw pile is shuffled with every kitten on top, for all to see."""
    size = s[DECK_LEN]
    rest = np.int64(0)
    for k in range(size):  # the others, in their order
        card = s[DECK + k]
        if card != KITTEN_KIND:
            s[DECK + rest] = card
            rest += 1
    chance[row] += 1
    shuffle(s[DECK:DECK + DECK_ROOM], rest, rng, row)  # type: ignore[arg-type]
    kittens = np.int64(size - rest)
    for k in range(rest, size):
        s[DECK + k] = KITTEN_KIND
    everyone_sees_top(s, opts, KITTEN_KIND, kittens)
    log_event(w, seat, EV_BOMB, NO, NO, kittens, NO, UNSEEN)
    settle_one(s, w, opts)


@njit
def _mark(s: Any, w: Any, opts: Any, seat: Any, target: Any, rng: Any, chance: Any,
          row: Any) -> None:
    """A random card of the target's hand becomes marked (public): a draw of the
    card, then one of the copy of its kind."""
    if not s[SIZES + target]:
        log_event(w, seat, EV_MARK, target, NO, R_NOTHING, NO, UNSEEN)
        return
    kind = random_kind(s, opts, target, rng, chance, row)
    marks = MARKED + KIND_ROOM * target + kind
    result = R_ALREADY_MARKED
    chance[row] += 1
    copies = np.int64(s[HANDS + KIND_ROOM * target + kind])
    if below(rng, row, copies) >= s[marks]:  # type: ignore[arg-type]
        s[marks] += 1
        s[MARKS_TOTAL] += 1
        result = R_DONE
    log_event(w, seat, EV_MARK, target, kind, result, NO, UNSEEN)
