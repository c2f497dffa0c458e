"""Blind play on one row of the batched engine, as :mod:`ek_env.engine.blind` plays it
(Streaking Kittens, Curse of the Cat Butt): a blind seat cannot see its hand, so it
plays and Nopes with random cards of it."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.explosions import carry_on, explode
from ek_env.batched.hands import remove_random
from ek_env.batched.knowledge import left_publicly
from ek_env.batched.layout import (
    AIMED,
    BLIND_PLAYS,
    CURSE_KIND,
    DISCARD,
    EV_BLIND_NOPE,
    EV_BLIND_PLAY,
    EV_TARGET,
    HANDS,
    KIND_ROOM,
    KITTEN_KIND,
    NO,
    NOPE_KIND,
    NOPES,
    ONE,
    OPT_FORBIDDEN,
    OPT_PLAYERS,
    PENDING_CARD,
    PENDING_TARGET,
    PHASE,
    QUEUE,
    QUEUE_LEN,
    R_EXPLODED,
    R_LOST,
    R_NOPED,
    R_PLAYED,
    RESUME,
    RESUME_PLAY,
    RESUME_SEAT,
    RESUME_WINDOW,
    SINGLE,
    STREAKING_KIND,
    TARGET_PHASE,
    TO_ACT,
    TURN_HOLDER,
    UNSEEN,
    WINDOW_LAST,
)
from ek_env.batched.record import log_event
from ek_env.batched.seats import target_offsets
from ek_env.batched.turns import announce, open_window
from ek_env.batched.window import passed, resolve

__all__ = ["blind_nope", "blind_play", "choose_target"]


@njit
def blind_play(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> None:
    """A blind turn holder turns a random card of their hand face up: a card playable
    now is played (a targeted one after its target is chosen); a kitten explodes;
    anything else is lost."""
    seat = np.int64(s[TURN_HOLDER])
    card, _ = remove_random(s, opts, seat, rng, chance, row)
    left_publicly(s, opts, seat, card, ONE)
    if card == KITTEN_KIND:
        log_event(w, seat, EV_BLIND_PLAY, NO, KITTEN_KIND, R_EXPLODED, NO, UNSEEN)
        s[RESUME] = RESUME_PLAY
        explode(s, w, opts, seat, ONE, rng, chance, row)  # under RESUME_PLAY no window closes
        return
    s[DISCARD + card] += 1
    if AIMED[card]:
        need = card != CURSE_KIND and opts[OPT_FORBIDDEN] != 0
        if target_offsets(s, opts[OPT_PLAYERS], seat, need):
            log_event(w, seat, EV_BLIND_PLAY, NO, card, R_PLAYED, NO, UNSEEN)
            announce(s, SINGLE, card, NO)
            s[PHASE] = TARGET_PHASE
            return
    elif BLIND_PLAYS[card]:
        log_event(w, seat, EV_BLIND_PLAY, NO, card, R_PLAYED, NO, UNSEEN)
        announce(s, SINGLE, card, NO)
        open_window(s, opts, seat)
        return
    log_event(w, seat, EV_BLIND_PLAY, NO, card, R_LOST, NO, UNSEEN)
    if _streaking_left(s, seat, card):
        s[RESUME] = RESUME_PLAY
        carry_on(s, w, opts, rng, chance, row)


@njit
def _streaking_left(s: Any, seat: Any, card: Any) -> Any:
    """``card`` left ``seat``'s hand: a Streaking Kitten leaving a kitten behind makes
    it explode (queued). Returns whether it did."""
    if card == STREAKING_KIND and s[HANDS + KIND_ROOM * seat + KITTEN_KIND]:
        s[QUEUE + s[QUEUE_LEN]] = seat
        s[QUEUE_LEN] += 1
        return True
    return False


@njit
def choose_target(s: Any, w: Any, opts: Any, target: Any) -> None:
    """The target of a blind player's turned-up Favor, Mark or Curse; the Nope window
    opens."""
    seat = np.int64(s[TURN_HOLDER])
    s[PENDING_TARGET] = target
    log_event(w, seat, EV_TARGET, target, np.int64(s[PENDING_CARD]), NO, NO, UNSEEN)
    open_window(s, opts, seat)


@njit
def blind_nope(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> None:
    """A blind seat in a Nope window turns a random card: a Nope Nopes; a kitten
    explodes them (then the window goes on); anything else is lost."""
    seat = np.int64(s[TO_ACT])
    card, _ = remove_random(s, opts, seat, rng, chance, row)
    left_publicly(s, opts, seat, card, ONE)
    result = R_NOPED if card == NOPE_KIND else R_EXPLODED if card == KITTEN_KIND else R_LOST
    log_event(w, seat, EV_BLIND_NOPE, np.int64(s[WINDOW_LAST]), card, result, NO, UNSEEN)
    if card == NOPE_KIND:
        s[DISCARD + NOPE_KIND] += 1
        s[NOPES] += 1
        open_window(s, opts, seat)
        return
    if card == KITTEN_KIND:
        s[RESUME] = RESUME_WINDOW
        s[RESUME_SEAT] = seat
        if explode(s, w, opts, seat, ONE, rng, chance, row):
            resolve(s, w, opts, rng, chance, row)
        return
    s[DISCARD + card] += 1
    if _streaking_left(s, seat, card):
        s[RESUME] = RESUME_WINDOW
        s[RESUME_SEAT] = seat
        if carry_on(s, w, opts, rng, chance, row):
            resolve(s, w, opts, rng, chance, row)
        return
    passed(s, w, opts, seat, rng, chance, row)
