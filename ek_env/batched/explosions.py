"""Drawing and Exploding Kittens on one row of the batched engine, as
:mod:`ek_env.engine.explosions` plays them: the draw that ends a turn, Defuses,
putting kittens back, eliminations, and what goes on once an explosion is settled.

The reference's ``explode`` and ``carry_on`` call each other (a queued explosion
after another, with the expansion's Garbage Collection); here :func:`carry_on` is a
loop over the queue and both settle one explosion with :func:`_defused`, so that no
compiled function calls itself. An explosion can interrupt a Nope window (a blind
seat turning up a kitten while trying to Nope): :func:`carry_on` then reports that
the window closes, and the caller resolves the pending play
(:func:`ek_env.batched.window.resolve`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.hands import ANY_COPY, discard_from_hand, remove_card, remove_random
from ek_env.batched.knowledge import (
    forget_hand,
    gained_unseen,
    hand_emptied,
    inserted,
    left_publicly,
    top_drawn,
)
from ek_env.batched.layout import (
    ALIVE,
    BLIND,
    DECK,
    DECK_LEN,
    DEFUSE_KIND,
    DISCARD,
    ELIMINATED,
    ELIMINATED_LEN,
    EV_DEFUSE,
    EV_DRAW,
    EV_DRY,
    EV_EXPLODE,
    EV_INSERT,
    EV_OUT,
    EV_TURNED,
    GAME_OVER_PHASE,
    HANDS,
    HELD_KITTEN,
    INSERT_PHASE,
    KIND_ROOM,
    KITTEN_KIND,
    MARKED,
    MARKS_TOTAL,
    NO,
    NOPE_WINDOW_PHASE,
    ONE,
    OPT_KINDS,
    OPT_OUT_OF_PLAY,
    OPT_PLAYERS,
    OPT_STREAKING,
    OUT_OF_PLAY,
    PHASE,
    PLAY_PHASE,
    QUEUE,
    QUEUE_LEN,
    RESUME,
    RESUME_DRAW,
    RESUME_PLAY,
    RESUME_SEAT,
    RESUME_WINDOW,
    SIZES,
    STREAKING_KIND,
    TO_ACT,
    TURN_HOLDER,
    UNSEEN,
    WINDOW_LAST,
    WINNER,
)
from ek_env.batched.record import log_event
from ek_env.batched.seats import next_alive
from ek_env.batched.turns import clear_pending, settle_one, start_turns

__all__ = ["carry_on", "draw", "explode", "insert"]


@njit
def draw(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> None:
    """The turn holder draws the top card: a kitten is kept (Streaking Kitten),
    defused (then placed) or explodes; an empty draw pile ends the game in a shared
    draw."""
    seat = np.int64(s[TURN_HOLDER])
    size = s[DECK_LEN]
    if not size:
        _end_dry(s, w, seat)
        return
    card = np.int64(s[DECK + size - 1])
    s[DECK_LEN] = size - 1
    hand = HANDS + KIND_ROOM * seat
    kept = (opts[OPT_STREAKING] != 0 and s[hand + STREAKING_KIND] != 0
            and s[hand + KITTEN_KIND] == 0)
    if card != KITTEN_KIND or kept:
        # a kitten kept thanks to the Streaking Kitten stays unrevealed
        log_event(w, seat, EV_DRAW, NO, NO, NO, card, np.int64(1) << seat)
        top_drawn(s, opts, seat, card, card == KITTEN_KIND)
        gained_unseen(s, opts, seat)
        s[hand + card] += 1
        s[SIZES + seat] += 1
        _draw_done(s, w, opts, seat)
        return
    log_event(w, seat, EV_DRAW, NO, KITTEN_KIND, NO, NO, UNSEEN)
    top_drawn(s, opts, seat, card, np.bool_(False))
    s[RESUME] = RESUME_DRAW
    s[RESUME_SEAT] = seat
    explode(s, w, opts, seat, ONE, rng, chance, row)  # under RESUME_DRAW no window closes


@njit
def _draw_done(s: Any, w: Any, opts: Any, seat: Any) -> None:
    """A draw ended without elimination: a blind drawer sees again; one turn settles."""
    if s[BLIND + seat]:
        s[BLIND + seat] = 0
        forget_hand(s, opts, seat, seat)
    settle_one(s, w, opts)


@njit
def _end_dry(s: Any, w: Any, seat: Any) -> None:
    """The turn holder had to draw from an empty draw pile: the game ends, and the
    players still alive share a draw."""
    log_event(w, seat, EV_DRY, NO, NO, NO, NO, UNSEEN)
    s[PHASE] = GAME_OVER_PHASE
    s[WINNER] = -1
    s[TO_ACT] = seat


@njit
def explode(s: Any, w: Any, opts: Any, seat: Any, kittens: Any, rng: Any, chance: Any,
            row: Any) -> Any:
    """``kittens`` Exploding Kittens, shown to all, explode for ``seat``: each needs a
    Defuse; then the seat puts them back one by one (INSERT), or without enough
    Defuses it is out, and the game carries on (:func:`carry_on`, whose result this
    is: whether an interrupted Nope window closes now)."""
    if _defused(s, w, opts, seat, kittens, rng, chance, row):
        return False
    return carry_on(s, w, opts, rng, chance, row)


@njit
def _defused(s: Any, w: Any, opts: Any, seat: Any, kittens: Any, rng: Any, chance: Any,
             row: Any) -> Any:
    """``seat`` plays a Defuse for each of ``kittens`` (a blind seat turns random cards
    until it finds them): all defused, it puts them back next (INSERT) and True is
    returned; else it is out."""
    if s[BLIND + seat]:
        kittens, defused = _defuse_blind(s, w, opts, seat, kittens, rng, chance, row)
    else:
        kittens, defused = _defuse_seeing(s, w, opts, seat, kittens)
    if kittens:
        _eliminate(s, w, opts, seat, kittens + defused)
        return False
    s[HELD_KITTEN] = defused
    s[PHASE] = INSERT_PHASE
    s[TO_ACT] = seat
    return True


@njit
def _defuse_seeing(s: Any, w: Any, opts: Any, seat: Any, kittens: Any) -> Any:
    """A seeing seat plays a Defuse for each kitten while it has one. Returns the
    kittens left undefused and the kittens defused."""
    hand = HANDS + KIND_ROOM * seat
    defused = np.int64(0)
    while kittens and s[hand + DEFUSE_KIND]:
        discard_from_hand(s, opts, seat, DEFUSE_KIND, ONE)
        log_event(w, seat, EV_DEFUSE, NO, DEFUSE_KIND, NO, NO, UNSEEN)
        kittens -= 1
        defused += 1
    return kittens, defused


@njit
def _defuse_blind(s: Any, w: Any, opts: Any, seat: Any, kittens: Any, rng: Any, chance: Any,
                  row: Any) -> Any:
    """A blind seat turns up random cards of its hand looking for Defuses: a kitten
    turned up explodes too, and a Streaking Kitten turned up lets a held kitten go
    off. Returns the kittens left undefused and the kittens defused."""
    hand = HANDS + KIND_ROOM * seat
    defused = np.int64(0)
    while kittens and s[SIZES + seat]:
        card, _ = remove_random(s, opts, seat, rng, chance, row)
        left_publicly(s, opts, seat, card, ONE)
        if card == KITTEN_KIND:
            log_event(w, seat, EV_TURNED, NO, KITTEN_KIND, NO, NO, UNSEEN)
            kittens += 1
            continue
        s[DISCARD + card] += 1
        if card == DEFUSE_KIND:
            log_event(w, seat, EV_DEFUSE, NO, DEFUSE_KIND, NO, NO, UNSEEN)
            kittens -= 1
            defused += 1
            continue
        log_event(w, seat, EV_TURNED, NO, card, NO, NO, UNSEEN)
        if card == STREAKING_KIND and s[hand + KITTEN_KIND]:
            _held_kitten_off(s, w, opts, seat, rng, chance, row)
            kittens += 1
    return kittens, defused


@njit
def _held_kitten_off(s: Any, w: Any, opts: Any, seat: Any, rng: Any, chance: Any,
                     row: Any) -> None:
    """The kitten ``seat`` holds goes off: out of its hand, for all to see."""
    remove_card(s, seat, KITTEN_KIND, np.bool_(False), ANY_COPY, rng, chance, row)
    left_publicly(s, opts, seat, KITTEN_KIND, ONE)
    log_event(w, seat, EV_EXPLODE, NO, KITTEN_KIND, NO, NO, UNSEEN)


@njit
def _eliminate(s: Any, w: Any, opts: Any, seat: Any, kittens: Any) -> None:
    """``seat`` is out: its hand and the ``kittens`` that exploded go to the discard
    pile (or out of play); turns it owed vanish; one survivor wins."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    pile = OUT_OF_PLAY if opts[OPT_OUT_OF_PLAY] else DISCARD
    hand = HANDS + KIND_ROOM * seat
    marks = MARKED + KIND_ROOM * seat
    for card in range(kinds):
        s[pile + card] += s[hand + card]
        s[hand + card] = 0
    s[SIZES + seat] = 0
    s[pile + KITTEN_KIND] += kittens
    hand_emptied(s, opts, seat)
    log_event(w, seat, EV_OUT, NO, NO, NO, NO, UNSEEN)
    for card in range(kinds):
        s[MARKS_TOTAL] -= s[marks + card]
        s[marks + card] = 0
    s[BLIND + seat] = 0
    s[ALIVE + seat] = 0
    s[ELIMINATED + s[ELIMINATED_LEN]] = seat
    s[ELIMINATED_LEN] += 1
    _unqueue(s, seat)
    survivors = 0
    last = np.int64(-1)
    for other in range(n):
        if s[ALIVE + other]:
            survivors += 1
            last = np.int64(other)
    if survivors == 1:
        s[WINNER] = last
        s[PHASE] = GAME_OVER_PHASE
        s[TO_ACT] = last
        s[QUEUE_LEN] = 0
        s[HELD_KITTEN] = 0


@njit
def _unqueue(s: Any, seat: Any) -> None:
    """``seat`` leaves the queue of explosions, if it is in it."""
    length = s[QUEUE_LEN]
    for k in range(length):
        if s[QUEUE + k] == seat:
            for j in range(k, length - 1):
                s[QUEUE + j] = s[QUEUE + j + 1]
            s[QUEUE_LEN] = length - 1
            return


@njit
def insert(s: Any, w: Any, opts: Any, depth: Any, rng: Any, chance: Any, row: Any) -> Any:
    """Put a defused kitten back ``depth`` cards from the top; when the last is back,
    the game goes on (:func:`carry_on`, whose result this is)."""
    size = np.int64(s[DECK_LEN])
    at = size - depth
    for k in range(size, at, -1):
        s[DECK + k] = s[DECK + k - 1]
    s[DECK + at] = KITTEN_KIND
    s[DECK_LEN] = size + 1
    s[HELD_KITTEN] -= 1
    seat = np.int64(s[TO_ACT])
    log_event(w, seat, EV_INSERT, NO, NO, NO, depth, np.int64(1) << seat)
    inserted(s, opts, seat, KITTEN_KIND, depth)
    if not s[HELD_KITTEN]:
        return carry_on(s, w, opts, rng, chance, row)
    return False


@njit
def carry_on(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> Any:
    """After an explosion is settled: the next queued ones, then whatever it
    interrupted (``RESUME``).

    Returns:
        True when a Nope window interrupted by the explosion closes now (the seat
        that tried to Nope was the last to be asked): the caller resolves the
        pending play. This happens only under ``RESUME_WINDOW``.
    """
    while s[PHASE] != GAME_OVER_PHASE:
        if not s[QUEUE_LEN]:
            return _resume(s, w, opts)
        seat = np.int64(s[QUEUE])
        length = s[QUEUE_LEN]
        for k in range(length - 1):
            s[QUEUE + k] = s[QUEUE + k + 1]
        s[QUEUE_LEN] = length - 1
        _held_kitten_off(s, w, opts, seat, rng, chance, row)
        if _defused(s, w, opts, seat, ONE, rng, chance, row):
            return False
    return False


@njit
def _resume(s: Any, w: Any, opts: Any) -> Any:
    """Every explosion is settled: the next player's turns if the turn holder is out,
    else what the explosion interrupted. Returns whether a Nope window closes."""
    n = opts[OPT_PLAYERS]
    resume, seat = s[RESUME], np.int64(s[RESUME_SEAT])
    s[RESUME] = RESUME_PLAY
    s[RESUME_SEAT] = -1
    holder = np.int64(s[TURN_HOLDER])
    if not s[ALIVE + holder]:
        clear_pending(s)
        start_turns(s, w, next_alive(s, n, holder), ONE, np.bool_(False))
    elif resume == RESUME_DRAW:
        _draw_done(s, w, opts, seat)
    elif resume == RESUME_WINDOW:
        s[PHASE] = NOPE_WINDOW_PHASE
        if seat == s[WINDOW_LAST]:
            return True
        s[TO_ACT] = next_alive(s, n, seat)
    else:
        s[PHASE] = PLAY_PHASE
        s[TO_ACT] = holder
    return False
