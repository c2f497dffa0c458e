"""The legal actions of the seat to act on one row, as
:meth:`ek_env.engine.legality.Legality.legal_mask` gives them, written into an ``int8``
mask over the setup's action table (``INDEX[setup]`` says where each kind of action
sits in it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.layout import (
    ALTER_LEFT,
    ALTER_LEFT_LEN,
    ALTER_PHASE,
    BLIND,
    CAT,
    CHOOSE_FIVE_PHASE,
    COMBO,
    CURSE_KIND,
    DECK_LEN,
    DISCARD,
    FIVE,
    FIVE_LEN,
    GARBAGE_PHASE,
    GIVE_PHASE,
    HANDS,
    INDEX,
    INSERT_PHASE,
    KIND_ROOM,
    M_BLIND_NOPE,
    M_BLIND_PLAY,
    M_DRAW,
    M_FIVE,
    M_INSERT,
    M_NOPE,
    M_PASS,
    M_TARGET,
    MARKED,
    NAME_CARD_PHASE,
    NOPE_KIND,
    NOPE_WINDOW_PHASE,
    OPT_COMBOS,
    OPT_FORBIDDEN,
    OPT_KINDS,
    OPT_PLAYERS,
    OPT_STREAKING,
    PENDING_CARD,
    PHASE,
    PLAY_PHASE,
    SIZES,
    TAKE_PHASE,
    TAKEABLE,
    TARGET_PHASE,
    TO_ACT,
    TURN_HOLDER,
    X_AIMED,
    X_ALTER,
    X_CHOOSE,
    X_GARBAGE,
    X_GARBAGE_MARKED,
    X_GIVE,
    X_GIVE_MARKED,
    X_MISC,
    X_NAME,
    X_PAIR,
    X_SINGLE,
    X_TAKE,
    X_THREE,
)
from ek_env.batched.seats import target_offsets

__all__ = ["fill_mask"]


@njit
def fill_mask(s: Any, opts: Any, mask: Any) -> None:
    """The legal actions of the seat to act into ``mask`` (all zero once the game is
    over)."""
    mask[:] = 0
    setup = opts[OPT_STREAKING]
    misc = INDEX[setup, X_MISC]
    phase = s[PHASE]
    seat = np.int64(s[TO_ACT])
    if phase == NOPE_WINDOW_PHASE:
        mask[misc[M_PASS]] = 1
        if s[BLIND + seat]:
            if s[SIZES + seat]:
                mask[misc[M_BLIND_NOPE]] = 1
        elif s[HANDS + KIND_ROOM * seat + NOPE_KIND]:
            mask[misc[M_NOPE]] = 1
    elif phase == PLAY_PHASE:
        mask[misc[M_DRAW]] = 1
        if s[BLIND + seat]:
            if s[SIZES + seat]:
                mask[misc[M_BLIND_PLAY]] = 1
        else:
            _play_mask(s, opts, setup, mask)
    elif phase == INSERT_PHASE:
        for depth in range(s[DECK_LEN] + 1):
            mask[misc[M_INSERT] + depth] = 1
    else:
        _other_phases(s, opts, setup, phase, seat, mask)


@njit
def _other_phases(s: Any, opts: Any, setup: Any, phase: Any, seat: Any, mask: Any) -> None:
    """The masks of the phases but PLAY, NOPE_WINDOW and INSERT."""
    kinds = opts[OPT_KINDS]
    if phase == GIVE_PHASE:
        _give_mask(s, opts, setup, seat, mask)
    elif phase == CHOOSE_FIVE_PHASE:
        _five_mask(s, opts, setup, mask)
    elif phase == NAME_CARD_PHASE:
        for card in range(kinds):
            mask[INDEX[setup, X_NAME, card]] = 1
    elif phase == TAKE_PHASE:
        for card in range(kinds):
            if TAKEABLE[card] and s[DISCARD + card]:
                mask[INDEX[setup, X_TAKE, card]] = 1
    elif phase == ALTER_PHASE:
        for k in range(s[ALTER_LEFT_LEN]):
            mask[INDEX[setup, X_ALTER, s[ALTER_LEFT + k]]] = 1
    elif phase == GARBAGE_PHASE:
        _copies(s, opts, setup, seat, np.int64(X_GARBAGE), np.int64(X_GARBAGE_MARKED), mask)
    elif phase == TARGET_PHASE:
        card = s[PENDING_CARD]
        need = card != CURSE_KIND and opts[OPT_FORBIDDEN] != 0
        bits = target_offsets(s, opts[OPT_PLAYERS], np.int64(s[TURN_HOLDER]), need)
        _offsets(bits, INDEX[setup, X_MISC, M_TARGET], opts[OPT_PLAYERS], mask)


@njit
def _give_mask(s: Any, opts: Any, setup: Any, seat: Any, mask: Any) -> None:
    """Favor: a card of each kind held (but a kitten); with the expansion, an
    unmarked and a marked copy are different choices."""
    if setup:
        _copies(s, opts, setup, seat, np.int64(X_GIVE), np.int64(X_GIVE_MARKED), mask)
        return
    for card in range(opts[OPT_KINDS]):
        index = INDEX[setup, X_GIVE, card]
        if index >= 0 and s[HANDS + KIND_ROOM * seat + card]:
            mask[index] = 1


@njit
def _offsets(bits: Any, first: Any, n: Any, mask: Any) -> None:
    """The actions of the seat offsets of ``bits`` (bit k for offset k), offset 1
    at ``first`` and the others after it."""
    for offset in range(1, n):
        if bits >> offset & 1:
            mask[first + offset - 1] = 1


@njit
def _play_mask(s: Any, opts: Any, setup: Any, mask: Any) -> None:
    """The seeing turn holder's plays: the single cards held (Favor and Mark at the
    seats it may choose, Curse at any other living seat), pairs at the seats it may
    choose, and with combos three of a kind at any and five different."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    combos = opts[OPT_COMBOS] != 0
    holder = np.int64(s[TURN_HOLDER])
    targets = target_offsets(s, n, holder, opts[OPT_FORBIDDEN] != 0)
    anyone = target_offsets(s, n, holder, np.bool_(False))
    hand = HANDS + KIND_ROOM * holder
    distinct = 0
    for card in range(kinds):
        count = s[hand + card]
        if not count:
            continue
        if INDEX[setup, X_SINGLE, card] >= 0:
            mask[INDEX[setup, X_SINGLE, card]] = 1
        if INDEX[setup, X_AIMED, card] >= 0:
            _offsets(anyone if card == CURSE_KIND else targets, INDEX[setup, X_AIMED, card], n,
                     mask)
        if count >= 2 and (COMBO[card] if combos else CAT[card]):
            _offsets(targets, INDEX[setup, X_PAIR, card], n, mask)
        if combos and COMBO[card]:
            distinct += 1
            if count >= 3:
                _offsets(anyone, INDEX[setup, X_THREE, card], n, mask)
    if combos and distinct >= 5:
        mask[INDEX[setup, X_MISC, M_FIVE]] = 1


@njit
def _five_mask(s: Any, opts: Any, setup: Any, mask: Any) -> None:
    """Five different: the kinds that may come next: held, above the last chosen,
    and leaving enough held kinds to complete the five."""
    kinds = opts[OPT_KINDS]
    hand = HANDS + KIND_ROOM * np.int64(s[TURN_HOLDER])
    chosen = s[FIVE_LEN]
    last = s[FIVE + chosen - 1] if chosen else -1
    left = 0
    for card in range(last + 1, kinds):
        if COMBO[card] and s[hand + card]:
            left += 1
    needed = 5 - chosen
    i = 0
    for card in range(last + 1, kinds):
        if COMBO[card] and s[hand + card]:
            if left - i >= needed:
                mask[INDEX[setup, X_CHOOSE, card]] = 1
            i += 1


@njit
def _copies(s: Any, opts: Any, setup: Any, seat: Any, plain: Any, marked: Any,
            mask: Any) -> None:
    """Favor and Garbage Collection with the expansion: an unmarked copy of each kind
    held, and a marked copy of each kind with one."""
    hand = HANDS + KIND_ROOM * seat
    marks = MARKED + KIND_ROOM * seat
    for card in range(opts[OPT_KINDS]):
        count = s[hand + card]
        if count:
            if count > s[marks + card]:
                mask[INDEX[setup, plain, card]] = 1
            if s[marks + card]:
                mask[INDEX[setup, marked, card]] = 1
