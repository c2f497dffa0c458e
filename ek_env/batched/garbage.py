"""Garbage Collection on one row of the batched engine, as
:mod:`ek_env.engine.garbage` plays it: every seat with cards puts one into the draw
pile, clockwise from the turn holder; then the pile is shuffled.

A blind seat puts in a random card; a Streaking Kitten put in while its owner holds
a kitten lets that kitten explode once the pile is shuffled.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from cardgym.vector.random import shuffle
from ek_env.batched.explosions import carry_on
from ek_env.batched.hands import MARKED_COPY, UNMARKED_COPY, remove_card, remove_random
from ek_env.batched.knowledge import deck_shuffled, left_unseen
from ek_env.batched.layout import (
    ALIVE,
    BLIND,
    DECK,
    DECK_LEN,
    DECK_ROOM,
    EV_GARBAGE,
    GARBAGE_FROM,
    GARBAGE_FROM_LEN,
    GARBAGE_IN,
    GARBAGE_IN_LEN,
    GARBAGE_LOST,
    GARBAGE_LOST_LEN,
    GARBAGE_PHASE,
    GARBAGE_QUEUE,
    GARBAGE_QUEUE_LEN,
    HANDS,
    KIND_ROOM,
    KITTEN_KIND,
    NO,
    OPT_PLAYERS,
    PHASE,
    PLAY_PHASE,
    QUEUE,
    QUEUE_LEN,
    R_DONE,
    R_MARKED_COPY,
    RESUME,
    RESUME_PLAY,
    SIZES,
    STREAKING_KIND,
    TO_ACT,
    UNSEEN,
)
from ek_env.batched.record import log_event

__all__ = ["garbage", "start_garbage"]


@njit
def start_garbage(s: Any, w: Any, opts: Any, seat: Any, rng: Any, chance: Any,
                  row: Any) -> None:
    """Garbage Collection played by ``seat`` goes ahead: the seats with cards, from
    ``seat`` clockwise, put one in."""
    n = opts[OPT_PLAYERS]
    queued = 0
    for k in range(n):
        other = (seat + k) % n
        if s[ALIVE + other] and s[SIZES + other]:
            s[GARBAGE_QUEUE + queued] = other
            queued += 1
    s[GARBAGE_QUEUE_LEN] = queued
    s[GARBAGE_IN_LEN] = 0
    s[GARBAGE_FROM_LEN] = 0
    s[GARBAGE_LOST_LEN] = 0
    _next_garbage(s, w, opts, rng, chance, row)


@njit
def garbage(s: Any, w: Any, opts: Any, card: Any, marked: Any, rng: Any, chance: Any,
            row: Any) -> None:
    """The seat to act puts ``card`` (a marked copy if ``marked``) from its hand into
    the draw pile."""
    seat = np.int64(s[TO_ACT])
    remove_card(s, seat, card, np.bool_(False), MARKED_COPY if marked else UNMARKED_COPY, rng,
                chance, row)
    _put_garbage(s, w, opts, seat, card, marked)
    _next_garbage(s, w, opts, rng, chance, row)


@njit
def _next_garbage(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> None:
    """The next seat puts a card in (a blind one at random, seen only by itself); when
    all have, the draw pile is shuffled and the kittens whose Streaking Kitten went
    in explode, clockwise from the turn holder."""
    while s[GARBAGE_QUEUE_LEN]:
        seat = np.int64(s[GARBAGE_QUEUE])
        if not s[BLIND + seat]:
            s[PHASE] = GARBAGE_PHASE
            s[TO_ACT] = seat
            return
        card, marked = remove_random(s, opts, seat, rng, chance, row)
        _put_garbage(s, w, opts, seat, card, marked)
    size = np.int64(s[DECK_LEN])
    for k in range(s[GARBAGE_IN_LEN]):
        s[DECK + size + k] = s[GARBAGE_IN + k]
    size += s[GARBAGE_IN_LEN]
    s[DECK_LEN] = size
    s[GARBAGE_IN_LEN] = 0
    s[GARBAGE_FROM_LEN] = 0
    chance[row] += 1
    shuffle(s[DECK:DECK + DECK_ROOM], size, rng, row)
    deck_shuffled(s, opts)
    for k in range(s[GARBAGE_LOST_LEN]):
        s[QUEUE + k] = s[GARBAGE_LOST + k]
    s[QUEUE_LEN] = s[GARBAGE_LOST_LEN]
    s[GARBAGE_LOST_LEN] = 0
    s[RESUME] = RESUME_PLAY
    s[PHASE] = PLAY_PHASE
    carry_on(s, w, opts, rng, chance, row)  # under RESUME_PLAY no Nope window closes


@njit
def _put_garbage(s: Any, w: Any, opts: Any, seat: Any, card: Any, marked: Any) -> None:
    """``seat``'s ``card`` goes in (the table sees which only for a marked copy)."""
    left_unseen(s, opts, seat, card)
    if marked:  # its mark leaves: the table sees which card went in
        log_event(w, seat, EV_GARBAGE, NO, card, R_MARKED_COPY, NO, UNSEEN)
    else:
        log_event(w, seat, EV_GARBAGE, NO, NO, R_DONE, card, np.int64(1) << seat)
    s[GARBAGE_IN + s[GARBAGE_IN_LEN]] = card
    s[GARBAGE_IN_LEN] += 1
    s[GARBAGE_FROM + s[GARBAGE_FROM_LEN]] = seat
    s[GARBAGE_FROM_LEN] += 1
    if card == STREAKING_KIND and s[HANDS + KIND_ROOM * seat + KITTEN_KIND]:
        s[GARBAGE_LOST + s[GARBAGE_LOST_LEN]] = seat
        s[GARBAGE_LOST_LEN] += 1
    length = s[GARBAGE_QUEUE_LEN]
    for k in range(length - 1):
        s[GARBAGE_QUEUE + k] = s[GARBAGE_QUEUE + k + 1]
    s[GARBAGE_QUEUE_LEN] = length - 1
