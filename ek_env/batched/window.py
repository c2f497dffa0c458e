"""Nope windows on one row of the batched engine, as :mod:`ek_env.engine.window` runs
them: answering a pending play, and what the play does once its window closes.

Every living seat is asked in turn after the play (or the last Nope) and its maker
last; when a whole window passes, the play happens if the number of Nopes is even.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.hands import ANY_COPY, discard_from_hand
from ek_env.batched.knowledge import ruled_out
from ek_env.batched.layout import (
    DISCARD,
    EV_ASK,
    EV_NOPE,
    EV_TAKE,
    EV_WINDOW,
    FIVE_PLAY,
    HANDS,
    KIND_ROOM,
    MOST_NOPES,
    NO,
    NOPE_KIND,
    NOPES,
    ONE,
    OPT_KINDS,
    OPT_PLAYERS,
    PAIR,
    PENDING_CARD,
    PENDING_KIND,
    PENDING_NAMED,
    PENDING_TARGET,
    PHASE,
    PLAY_PHASE,
    R_ALLOWED,
    R_MISS,
    R_NOTHING,
    R_STOPPED,
    SINGLE,
    TAKE_PHASE,
    TAKEABLE,
    THREE,
    TO_ACT,
    TURN_HOLDER,
    UNSEEN,
    WINDOW_LAST,
)
from ek_env.batched.record import log_event
from ek_env.batched.seats import next_alive
from ek_env.batched.singles import resolve_single
from ek_env.batched.transfers import steal_random, transfer
from ek_env.batched.turns import clear_pending, open_window

__all__ = ["nope", "passed", "resolve"]


@njit
def nope(s: Any, w: Any, opts: Any) -> None:
    """The seat asked Nopes the pending play (or the last Nope): a new window opens
    after it."""
    seat = np.int64(s[TO_ACT])
    discard_from_hand(s, opts, seat, NOPE_KIND, ONE)
    s[NOPES] += 1
    log_event(w, seat, EV_NOPE, np.int64(s[WINDOW_LAST]), NOPE_KIND,
              np.int64(min(s[NOPES], MOST_NOPES)), NO, UNSEEN)
    open_window(s, opts, seat)


@njit
def passed(s: Any, w: Any, opts: Any, seat: Any, rng: Any, chance: Any, row: Any) -> None:
    """``seat`` let the pending play (or the last Nope) stand: the next seat is asked,
    or the window closes after its last seat."""
    if seat != s[WINDOW_LAST]:
        s[TO_ACT] = next_alive(s, opts[OPT_PLAYERS], seat)
        return
    resolve(s, w, opts, rng, chance, row)


@njit
def resolve(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> None:
    """The Nope window closed: the turn holder plays on, and the pending play happens
    if the number of Nopes is even."""
    kind, card = np.int64(s[PENDING_KIND]), np.int64(s[PENDING_CARD])
    target, named = np.int64(s[PENDING_TARGET]), np.int64(s[PENDING_NAMED])
    succeeded = s[NOPES] % 2 == 0
    clear_pending(s)
    s[PHASE] = PLAY_PHASE
    seat = np.int64(s[TURN_HOLDER])
    s[TO_ACT] = seat
    log_event(w, seat, EV_WINDOW, target, card, R_ALLOWED if succeeded else R_STOPPED, NO,
              UNSEEN)
    if not succeeded:
        return
    if kind == SINGLE:
        resolve_single(s, w, opts, card, target, rng, chance, row)
    elif kind == PAIR:
        steal_random(s, w, opts, target, seat, rng, chance, row)
    elif kind == THREE:
        _ask(s, w, opts, seat, target, named, rng, chance, row)
    elif kind == FIVE_PLAY:
        _take_phase(s, w, opts, seat)


@njit
def _ask(s: Any, w: Any, opts: Any, seat: Any, target: Any, named: Any, rng: Any, chance: Any,
         row: Any) -> None:
    """Three of a kind: the target hands over the named card if it has one, in plain
    sight; a miss tells the table it has none."""
    if s[HANDS + KIND_ROOM * target + named]:
        transfer(s, w, opts, target, seat, named, np.bool_(False), np.bool_(True), ANY_COPY,
                 EV_ASK, rng, chance, row)
    else:
        log_event(w, seat, EV_ASK, target, named, R_MISS, NO, UNSEEN)
        ruled_out(s, opts, target, named)


@njit
def _take_phase(s: Any, w: Any, opts: Any, seat: Any) -> None:
    """Five different: the turn holder takes a card from the discard pile, if any
    there may be taken."""
    for card in range(opts[OPT_KINDS]):
        if TAKEABLE[card] and s[DISCARD + card]:
            s[PHASE] = TAKE_PHASE
            return
    log_event(w, seat, EV_TAKE, NO, NO, R_NOTHING, NO, UNSEEN)
