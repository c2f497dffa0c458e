"""Card effects on one row of the batched engine, as :mod:`phpets_env.engine.effects` and
:mod:`phpets_env.engine.plays` resolve them, knowledge and record included.

Every function takes the row's ``small`` and ``wide`` arrays (``s``, ``w``: views of
one row, see :mod:`~phpets_env.batched.layout`) and the number of players ``n``.
Each ``play_*`` function resolves a card already moved to its player's row and
returns the play's event fields ``(target, card, result, secret, seen_by)`` (or
those it sets); the caller logs the play before what the effect logs (it reserved
the event's number).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from cardgym.vector.random import shuffle
from phpets_env.batched.layout import (
    ASIDE,
    DECK,
    DECK_LEN,
    EV_DRAW,
    EV_ELIMINATED,
    FACE_UP,
    FACE_UP_LEN,
    GRAVE_PHASE,
    HAND_LEN,
    HANDS,
    IN_ROUND,
    KING,
    KING_ID,
    KNOWN,
    NO,
    PENDING,
    PHASE,
    PROTECTED,
    R_ACTOR_LOST,
    R_FROM_ASIDE,
    R_HIT,
    R_MISS,
    R_NO_EFFECT,
    R_SWAPPED,
    R_TARGET_LOST,
    R_TIE,
    ROW_LEN,
    ROWS,
    RULED_OUT,
    SINGLE_COPIES,
    TRAPPED,
    TRAPPER_PHASE,
    UNSEEN,
    VALUE_COPIES,
    VALUES,
    WATCHERS,
)
from phpets_env.batched.record import log_event
from phpets_env.engine.cards import NUM_CARDS, NUM_VALUES

# ------------------------------------------------------------------ knowledge


@njit
def learn(w: Any, seat: Any, mask: Any) -> Any:
    """``seat`` knows where the cards of ``mask`` are, by means the table saw."""
    w[KNOWN + seat] |= mask
    w[TRAPPED + seat] &= ~mask


@njit
def forget(w: Any, n: Any, mask: Any) -> Any:
    """No seat knows the cards of ``mask`` any more."""
    for observer in range(n):
        w[KNOWN + observer] &= ~mask
        w[TRAPPED + observer] &= ~mask


@njit
def hand_bits(s: Any, seat: Any) -> Any:
    """Bit mask of the card ids in ``seat``'s hand."""
    mask = np.int64(0)
    for k in range(s[HAND_LEN + seat]):
        mask |= 1 << s[HANDS + 2 * seat + k]
    return mask


# ------------------------------------------------------------------ cards moving


@njit
def draw_into(s: Any, w: Any, seat: Any, card: Any, result: Any) -> Any:
    """``seat`` gets ``card`` after a play (effects.draw_into), logged as a draw
    (``result``: FROM_ASIDE for the set-aside card, else none)."""
    size = s[HAND_LEN + seat]
    s[HANDS + 2 * seat + size] = card
    s[HAND_LEN + seat] = size + 1
    learn(w, seat, 1 << card)
    w[RULED_OUT + seat] = 0
    log_event(s, w, NO, EV_DRAW, seat, NO, result, VALUES[card], 1 << seat)


@njit
def pop_deck(s: Any) -> Any:
    """Take the top card of the pile."""
    size = s[DECK_LEN] - 1
    s[DECK_LEN] = size
    return np.int64(s[DECK + size])


@njit
def to_row(s: Any, w: Any, n: Any, seat: Any, card: Any) -> Any:
    """Put ``card`` face up at the end of ``seat``'s row: public, so nobody's knowledge."""
    size = s[ROW_LEN + seat]
    s[ROWS + NUM_CARDS * seat + size] = card
    s[ROW_LEN + seat] = size + 1
    forget(w, n, 1 << card)


@njit
def eliminate(s: Any, w: Any, n: Any, seat: Any) -> Any:
    """Out of the round: the hand goes face up into the row, without effect."""
    size = s[HAND_LEN + seat]
    shown = VALUES[s[HANDS + 2 * seat]] if size else NO
    s[IN_ROUND + seat] = 0
    s[PROTECTED + seat] = 0
    for k in range(size):
        to_row(s, w, n, seat, np.int64(s[HANDS + 2 * seat + k]))
    s[HAND_LEN + seat] = 0
    w[RULED_OUT + seat] = 0
    log_event(s, w, NO, EV_ELIMINATED, seat, shown, NO, NO, UNSEEN)


@njit
def swap_hands(s: Any, w: Any, a: Any, b: Any) -> Any:
    """Exchange two hands; both players know both; what was ruled out moves along."""
    for k in range(2):
        card = s[HANDS + 2 * a + k]
        s[HANDS + 2 * a + k] = s[HANDS + 2 * b + k]
        s[HANDS + 2 * b + k] = card
    size = s[HAND_LEN + a]
    s[HAND_LEN + a] = s[HAND_LEN + b]
    s[HAND_LEN + b] = size
    both = hand_bits(s, a) | hand_bits(s, b)
    learn(w, a, both)
    learn(w, b, both)
    ruled = w[RULED_OUT + a]
    w[RULED_OUT + a] = w[RULED_OUT + b]
    w[RULED_OUT + b] = ruled


# ------------------------------------------------------------------ the cards


@njit
def play_crystal_bowl(s: Any, w: Any, n: Any, target: Any, guess: Any) -> Any:
    """A right guess of the target's card eliminates them."""
    if VALUES[s[HANDS + 2 * target]] == guess:
        eliminate(s, w, n, target)
        return target, guess, R_HIT, NO, UNSEEN
    w[RULED_OUT + target] |= 1 << guess
    return target, guess, R_MISS, NO, UNSEEN


@njit
def play_mouse_trapper(s: Any, w: Any, n: Any, actor: Any) -> Any:
    """Take the top card to look at it; where it goes back is a phase of its own."""
    if s[DECK_LEN] == 0:
        return NO, NO, R_NO_EFFECT, NO, UNSEEN
    card = pop_deck(s)
    s[PENDING] = card
    learn(w, actor, 1 << card)
    s[WATCHERS] |= 1 << actor
    if s[DECK_LEN]:
        stale = np.int64(1) << card
        for k in range(s[DECK_LEN]):
            stale |= 1 << s[DECK + k]
        for observer in range(n):
            if observer != actor:
                w[KNOWN + observer] &= ~stale
                w[TRAPPED + observer] &= ~stale
    s[PHASE] = TRAPPER_PHASE
    return NO, NO, NO, VALUES[card], 1 << actor


@njit
def tie_ruled_out(s: Any, n: Any) -> Any:
    """Values two equal hands cannot hold: fewer than two copies not yet face up."""
    seen = np.zeros(NUM_VALUES, np.int8)
    for seat in range(n):
        for k in range(s[ROW_LEN + seat]):
            seen[VALUES[s[ROWS + NUM_CARDS * seat + k]]] += 1
    for k in range(s[FACE_UP_LEN]):
        seen[VALUES[s[FACE_UP + k]]] += 1
    mask = SINGLE_COPIES
    for value in range(NUM_VALUES):
        if VALUE_COPIES[value] - seen[value] < 2:
            mask |= 1 << value
    return mask


@njit
def play_battle_bunny(s: Any, w: Any, n: Any, actor: Any, target: Any) -> Any:
    """Compare hands in secret; the lower card is shown and its holder is out."""
    mine, theirs = np.int64(s[HANDS + 2 * actor]), np.int64(s[HANDS + 2 * target])
    learn(w, actor, 1 << theirs)
    learn(w, target, 1 << mine)
    low_mine, low_theirs = VALUES[mine], VALUES[theirs]
    if low_mine < low_theirs:
        eliminate(s, w, n, actor)
        w[RULED_OUT + target] |= (2 << low_mine) - 1
        return target, NO, R_ACTOR_LOST, NO, UNSEEN
    if low_theirs < low_mine:
        eliminate(s, w, n, target)
        w[RULED_OUT + actor] |= (2 << low_theirs) - 1
        return target, NO, R_TARGET_LOST, NO, UNSEEN
    equal = tie_ruled_out(s, n)
    w[RULED_OUT + actor] |= equal
    w[RULED_OUT + target] |= equal
    return target, NO, R_TIE, NO, UNSEEN


@njit
def play_snake_sorcerer(s: Any, w: Any, n: Any, target: Any) -> Any:
    """The target shows their card without effect and draws a new one."""
    card = np.int64(s[HANDS + 2 * target])
    shown = VALUES[card]
    to_row(s, w, n, target, card)
    s[HAND_LEN + target] = 0
    if shown == KING:
        eliminate(s, w, n, target)
    elif s[DECK_LEN]:
        draw_into(s, w, target, pop_deck(s), NO)
    else:
        card = np.int64(s[ASIDE])
        s[ASIDE] = NO
        draw_into(s, w, target, card, R_FROM_ASIDE)
    return target, shown, NO, NO, UNSEEN


@njit
def play_grave_digger(s: Any, w: Any, actor: Any) -> Any:
    """Look at the set-aside card; keep or swap is a phase of its own."""
    aside = np.int64(s[ASIDE])
    if aside == NO:
        return NO, NO, R_NO_EFFECT, NO, UNSEEN
    learn(w, actor, 1 << aside)
    s[PHASE] = GRAVE_PHASE
    return NO, NO, NO, VALUES[aside], 1 << actor


@njit
def play_jittery_juggler(s: Any, w: Any, n: Any, actor: Any, rng: Any, row: Any) -> Any:
    """Every unprotected player in the round returns their card; shuffle; deal anew."""
    size = np.int64(s[DECK_LEN])
    affected = np.int64(0)
    for k in range(n):
        seat = (actor + k) % n
        if s[IN_ROUND + seat] and (seat == actor or not s[PROTECTED + seat]):
            affected |= 1 << seat
            for j in range(s[HAND_LEN + seat]):
                s[DECK + size] = s[HANDS + 2 * seat + j]
                size += 1
            s[HAND_LEN + seat] = 0
    s[DECK_LEN] = size
    shuffle(s[DECK:DECK + size], s[DECK_LEN], rng, row)
    stale = np.int64(0)
    for k in range(size):
        stale |= 1 << s[DECK + k]
    forget(w, n, stale)
    s[WATCHERS] = 0
    for k in range(n):
        seat = (actor + k) % n
        if affected >> seat & 1:
            draw_into(s, w, seat, pop_deck(s), NO)


@njit
def play_not_a_pet(s: Any, w: Any, n: Any, actor: Any) -> Any:
    """The King Cat holder (another player, unprotected) swaps hands with the actor;
    else the table rules King Cat out of every other unprotected player in the round.
    Returns the event's target (the holder) and result."""
    for seat in range(n):
        if seat != actor and s[IN_ROUND + seat] and hand_bits(s, seat) >> KING_ID & 1:
            if not s[PROTECTED + seat]:
                for observer in range(n):
                    learn(w, observer, 1 << KING_ID)
                swap_hands(s, w, actor, seat)
                return seat, R_SWAPPED
            break
    for seat in range(n):
        if seat != actor and s[IN_ROUND + seat] and not s[PROTECTED + seat]:
            w[RULED_OUT + seat] |= 1 << KING
    return NO, R_NO_EFFECT


@njit
def grave_swap(s: Any, w: Any, actor: Any) -> Any:
    """Exchange the actor's hand card with the set-aside card."""
    card = s[HANDS + 2 * actor]
    s[HANDS + 2 * actor] = s[ASIDE]
    s[ASIDE] = card
    w[RULED_OUT + actor] = 0


@njit
def place_card(s: Any, w: Any, actor: Any, depth: Any) -> Any:
    """Put the held-out card back ``depth`` cards below the top of the pile."""
    size = np.int64(s[DECK_LEN])
    at = size - depth
    for k in range(size, at, -1):
        s[DECK + k] = s[DECK + k - 1]
    card = s[PENDING]
    s[DECK + at] = card
    s[DECK_LEN] = size + 1
    w[TRAPPED + actor] |= 1 << card
    s[PENDING] = NO

