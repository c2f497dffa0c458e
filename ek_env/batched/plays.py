"""The turn holder's plays on one row of the batched engine, as
:mod:`ek_env.engine.plays` makes them: single cards, pairs, three of a kind with its
named card, and five different with its kinds, each announced before its Nope
window opens."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.hands import discard_from_hand
from ek_env.batched.layout import (
    CHOOSE_FIVE_PHASE,
    EV_FIVE,
    EV_NAME,
    EV_PAIR,
    EV_PLAY,
    EV_THREE,
    FIVE,
    FIVE_LEN,
    FIVE_PLAY,
    NAME_CARD_PHASE,
    NO,
    ONE,
    PAIR,
    PENDING_NAMED,
    PENDING_TARGET,
    PHASE,
    SINGLE,
    THREE,
    TURN_HOLDER,
    UNSEEN,
)
from ek_env.batched.record import log_event
from ek_env.batched.turns import announce, open_window

__all__ = ["choose_five", "name_card", "play_card", "play_combo", "play_five"]


@njit
def play_card(s: Any, w: Any, opts: Any, card: Any, target: Any) -> None:
    """Play one action card (Favor, Mark, Curse at ``target``; else -1) and open the
    Nope window."""
    seat = np.int64(s[TURN_HOLDER])
    discard_from_hand(s, opts, seat, card, ONE)
    announce(s, SINGLE, card, target)
    log_event(w, seat, EV_PLAY, target, card, NO, NO, UNSEEN)
    open_window(s, opts, seat)


@njit
def play_combo(s: Any, w: Any, opts: Any, kind: Any, card: Any, target: Any) -> None:
    """Two of a kind (``kind`` PAIR: a random card of the target's hand if the play
    stands; the window opens), or three (THREE: the card asked for is named next)."""
    seat = np.int64(s[TURN_HOLDER])
    discard_from_hand(s, opts, seat, card, np.int64(2) if kind == PAIR else np.int64(3))
    announce(s, kind, card, target)
    log_event(w, seat, EV_PAIR if kind == PAIR else EV_THREE, target, card, NO, NO, UNSEEN)
    if kind == THREE:
        s[PHASE] = NAME_CARD_PHASE
    else:
        open_window(s, opts, seat)


@njit
def name_card(s: Any, w: Any, opts: Any, card: Any) -> None:
    """Three of a kind: the card asked for is named; the Nope window opens."""
    seat = np.int64(s[TURN_HOLDER])
    s[PENDING_NAMED] = card
    log_event(w, seat, EV_NAME, np.int64(s[PENDING_TARGET]), card, NO, NO, UNSEEN)
    open_window(s, opts, seat)


@njit
def play_five(s: Any) -> None:
    """Five different: the kinds are chosen next, one at a time in ascending order."""
    announce(s, FIVE_PLAY, NO, NO)
    s[FIVE_LEN] = 0
    s[PHASE] = CHOOSE_FIVE_PHASE


@njit
def choose_five(s: Any, w: Any, opts: Any, card: Any) -> None:
    """Five different: one more kind goes down; after the fifth the window opens."""
    seat = np.int64(s[TURN_HOLDER])
    s[FIVE + s[FIVE_LEN]] = card
    s[FIVE_LEN] += 1
    discard_from_hand(s, opts, seat, card, ONE)
    log_event(w, seat, EV_FIVE, NO, card, NO, NO, UNSEEN)
    if s[FIVE_LEN] == 5:
        open_window(s, opts, seat)
