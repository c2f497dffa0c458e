"""Rounds and turns on one row of the batched engine, as :mod:`phpets_env.engine.flow` and
:mod:`phpets_env.engine.showdown` play them: matches and rounds dealt, turns begun, the
showdown, tokens awarded.

Functions take the row's ``small`` and ``wide`` arrays (``s``, ``w``), the option
vector ``opts`` (:func:`~phpets_env.batched.layout.options_of`), and, where they draw
randomness, the generator states ``rng``, the ``chance`` counters and the ``row``.
Ending a turn is two calls, so that no compiled function holds the whole engine
(numba optimizes each function together with everything it calls):
:func:`end_turn` begins the next turn or returns the round's winners, and then
:func:`end_round` awards the tokens and deals the next round.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from cardgym.vector.random import below, shuffle
from phpets_env.batched.effects import learn, pop_deck
from phpets_env.batched.layout import (
    ALL_TOKENS,
    ASIDE,
    DECK,
    DECK_LEN,
    DRAW_SEAT,
    DUEL_ONLY,
    EV_MATCH_WON,
    EV_NEW_ROUND,
    EV_REVEAL,
    EV_ROUND_WON,
    FACE_UP,
    FACE_UP_LEN,
    HAND_LEN,
    HANDS,
    IN_ROUND,
    KING,
    KNOWN,
    MATCH_WINNERS,
    NO,
    NOBODY,
    NUM_MATCH_WINNERS,
    NUM_ROUND_WINNERS,
    OPT_FINAL_TIE,
    OPT_PLAYERS,
    OPT_ROBOVAC,
    OPT_START,
    OPT_TO_WIN,
    OVER_PHASE,
    PENDING,
    PHASE,
    PLAY_PHASE,
    PROTECTED,
    ROBOVAC,
    ROUND_NUMBER,
    ROUND_START,
    ROUND_WINNERS,
    ROW_LEN,
    ROWS,
    RULED_OUT,
    START_RANDOM,
    START_WINNER,
    SUPPLY,
    TO_ACT,
    TOKENS,
    TRAPPED,
    UNSEEN,
    VALUES,
    WATCHERS,
)
from phpets_env.batched.record import log_event, log_turn_draw
from phpets_env.engine.cards import NUM_CARDS, NUM_VALUES

__all__ = ["end_round", "end_turn", "new_match"]

# ------------------------------------------------------------------ deals


@njit
def new_match(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> Any:
    """A new match: tokens at zero, a random first player, round 1 dealt and begun."""
    s[:] = 0
    w[:] = 0
    s[SUPPLY] = ALL_TOKENS
    s[DRAW_SEAT] = NO
    start_round(s, w, opts, np.int64(below(rng, row, opts[OPT_PLAYERS])), rng, chance, row)


@njit
def start_round(s: Any, w: Any, opts: Any, start: Any, rng: Any, chance: Any,
                row: Any) -> Any:
    """Deal a new round from a shuffled deck and begin the turn of ``start``."""
    n = opts[OPT_PLAYERS]
    chance[row] += 1
    for card in range(NUM_CARDS):
        s[DECK + card] = card
    s[DECK_LEN] = NUM_CARDS
    shuffle(s[DECK:DECK + NUM_CARDS], s[DECK_LEN], rng, row)
    s[ASIDE] = pop_deck(s)
    faces = 2 if n == 2 else 0
    for k in range(faces):
        s[FACE_UP + k] = pop_deck(s)
    s[FACE_UP_LEN] = faces
    for seat in range(n):
        card = pop_deck(s)
        s[HANDS + 2 * seat] = card
        s[HAND_LEN + seat] = 1
        s[ROW_LEN + seat] = 0
        s[IN_ROUND + seat] = 1
        s[PROTECTED + seat] = 0
        w[KNOWN + seat] = 1 << card
        w[TRAPPED + seat] = 0
        w[RULED_OUT + seat] = 0
    s[PENDING] = NO
    s[WATCHERS] = 0
    s[ROUND_START] = start
    w[ROUND_NUMBER] += 1
    log_event(s, w, NO, EV_NEW_ROUND, start, NO, NO, NO, UNSEEN)
    draw_turn(s, w, start)


# ------------------------------------------------------------------ turns


@njit
def draw_turn(s: Any, w: Any, seat: Any) -> Any:
    """Begin ``seat``'s turn: protection ends, and it draws (the pile is not empty)."""
    s[TO_ACT] = seat
    s[PROTECTED + seat] = 0
    s[PHASE] = PLAY_PHASE
    card = pop_deck(s)
    s[HANDS + 2 * seat + s[HAND_LEN + seat]] = card
    s[HAND_LEN + seat] += 1
    learn(w, seat, np.int64(1) << card)
    w[RULED_OUT + seat] = 0
    log_turn_draw(s, w, seat, VALUES[card])


@njit
def end_turn(s: Any, w: Any, opts: Any) -> Any:
    """End the turn of the seat to act: the next player in the round clockwise
    begins a turn, and -1 is returned; or the round ends, and its winners are
    returned (a bit mask of seats, maybe none) for :func:`end_round`: the last
    player in the round, or the showdown's when the next player finds the pile empty."""
    n = opts[OPT_PLAYERS]
    alive = np.int64(0)
    count = 0
    for seat in range(n):
        if s[IN_ROUND + seat]:
            alive |= 1 << seat
            count += 1
    if count == 1:
        return alive
    following = np.int64(s[TO_ACT])
    for _ in range(n):
        following = (following + 1) % n
        if s[IN_ROUND + following]:
            break
    if s[DECK_LEN]:
        draw_turn(s, w, following)
        return np.int64(-1)
    s[TO_ACT] = following
    s[PROTECTED + following] = 0
    s[PHASE] = PLAY_PHASE
    return showdown(s, w, opts)


@njit
def end_round(s: Any, w: Any, opts: Any, winners: Any, rng: Any, chance: Any,
              row: Any) -> Any:
    """Award tokens to the seats of the bit mask ``winners``, clockwise from the
    start player while the supply lasts; end the match or deal the next round."""
    n = opts[OPT_PLAYERS]
    start = np.int64(s[ROUND_START])
    count = 0
    short = np.int64(0)
    for k in range(n):
        seat = (start + k) % n
        if winners >> seat & 1:
            s[ROUND_WINNERS + count] = seat
            count += 1
            if s[SUPPLY] > 0:
                s[TOKENS + seat] += 1
                s[SUPPLY] -= 1
            else:
                short |= 1 << seat
    s[NUM_ROUND_WINNERS] = count
    for k in range(count):
        log_event(s, w, NO, EV_ROUND_WON, np.int64(s[ROUND_WINNERS + k]), NO, NO, NO, UNSEEN)
    if count == 0:
        log_event(s, w, NO, EV_ROUND_WON, NO, NO, NO, NO, UNSEEN)
    champions = 0
    for seat in range(n):
        if s[TOKENS + seat] + (short >> seat & 1) >= opts[OPT_TO_WIN]:
            s[MATCH_WINNERS + champions] = seat
            champions += 1
    if champions:
        s[NUM_MATCH_WINNERS] = champions
        s[PHASE] = OVER_PHASE
        for k in range(champions):
            log_event(s, w, NO, EV_MATCH_WON, np.int64(s[MATCH_WINNERS + k]), NO, NO, NO,
                      UNSEEN)
        return
    rule = opts[OPT_START]
    if rule == START_WINNER and count:
        following = np.int64(s[ROUND_WINNERS])
    elif rule == START_RANDOM:
        following = np.int64(below(rng, row, n))
    else:
        following = (start + 1) % n
    start_round(s, w, opts, following, rng, chance, row)


# ------------------------------------------------------------------ the showdown


@njit
def showdown(s: Any, w: Any, opts: Any) -> Any:
    """The round's winners (a bit mask of seats) when the pile is empty; the reveals
    are logged."""
    n = opts[OPT_PLAYERS]
    contenders = np.int64(0)
    held = np.int64(0)
    for seat in range(n):
        if s[IN_ROUND + seat]:
            value = VALUES[s[HANDS + 2 * seat]]
            contenders |= 1 << seat
            held |= 1 << value
            log_event(s, w, NO, EV_REVEAL, seat, value, NO, NO, UNSEEN)
    if held >> KING & 1 and held >> ROBOVAC & 1:
        duel = _popcount(contenders) == 2
        if opts[OPT_ROBOVAC] != DUEL_ONLY or duel:
            for seat in range(n):
                if contenders >> seat & 1 and VALUES[s[HANDS + 2 * seat]] == KING:
                    contenders &= ~(1 << seat)
    best = np.int64(-1)
    for seat in range(n):
        if contenders >> seat & 1:
            best = max(best, VALUES[s[HANDS + 2 * seat]])
    tied = np.int64(0)
    for seat in range(n):
        if contenders >> seat & 1 and VALUES[s[HANDS + 2 * seat]] == best:
            tied |= 1 << seat
    if _popcount(tied) > 1:
        tied = _best_rows(s, n, tied)
        if _popcount(tied) > 1 and opts[OPT_FINAL_TIE] == NOBODY:
            tied = np.int64(0)
    return tied


@njit
def _popcount(mask: Any) -> Any:
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@njit
def _best_rows(s: Any, n: Any, tied: Any) -> Any:
    """Of the seats of ``tied``, those whose rows sorted highest first are best: the
    first difference of two sorted rows is where one holds more copies of the
    highest value the two do not hold equally often."""
    counts = np.zeros((n, NUM_VALUES), np.int8)
    for seat in range(n):
        for k in range(s[ROW_LEN + seat]):
            counts[seat, VALUES[s[ROWS + NUM_CARDS * seat + k]]] += 1
    for value in range(NUM_VALUES - 1, -1, -1):
        most = -1
        for seat in range(n):
            if tied >> seat & 1:
                most = max(most, counts[seat, value])
        for seat in range(n):
            if tied >> seat & 1 and counts[seat, value] < most:
                tied &= ~(1 << seat)
    return tied
