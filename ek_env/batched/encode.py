"""One seat's observation of one row, exactly as
:meth:`ek_env.encoding.encoder.Encoder.encode` writes it from
:class:`ek_env.info.view.PlayerView` (the fields of
:mod:`ek_env.encoding.observation`, at the setup's offsets ``OBS[setup]``).

Seats are relative to the observer: index 0 of every per-seat field is the
observer, then the other seats clockwise.
"""

from __future__ import annotations

from typing import Any

from cardgym.vector._numba import njit
from ek_env.batched.layout import (
    ALIVE,
    ALTER_LEFT,
    ALTER_LEFT_LEN,
    ALTER_PLACED,
    ALTER_PLACED_LEN,
    ATTACKED,
    BLIND,
    BOX,
    DECK_LEN,
    DECK_ROOM,
    DISCARD,
    EVENT_FIELDS,
    EVENTS,
    FIVE,
    FIVE_LEN,
    GARBAGE_QUEUE,
    GARBAGE_QUEUE_LEN,
    HANDS,
    HELD_KITTEN,
    KIND_ROOM,
    KITTEN_KIND,
    KNOWN_DECK,
    KNOWN_DECK_LEN,
    KNOWN_HANDS,
    MARKED,
    MARKS_TOTAL,
    NOPES,
    O_ALIVE,
    O_ALTER_CARDS,
    O_ALTER_PLACED,
    O_ATTACKED,
    O_BLIND,
    O_CODES,
    O_DECK_SIZE,
    O_DISCARD,
    O_EVENT_WIDTH,
    O_EXPLODING,
    O_HOLDER,
    O_KITTENS,
    O_KNOWN_DECK,
    O_KNOWN_HANDS,
    O_MARKED,
    O_MY_HAND,
    O_NOPES,
    O_OPENER,
    O_OUT_OF_PLAY,
    O_OWED,
    O_PENDING,
    O_PENDING_CARD,
    O_PENDING_FIVE,
    O_PENDING_NAMED,
    O_PENDING_TARGET,
    O_PHASE,
    O_PRESENT,
    O_RECENT,
    O_RULED_OUT,
    O_SIZES,
    O_TO_ACT,
    O_TO_INSERT,
    O_WAITING,
    OBS,
    OPT_COUNTS,
    OPT_KINDS,
    OPT_PLAYERS,
    OPT_STREAKING,
    OUT_OF_PLAY,
    OWED,
    PENDING_CARD,
    PENDING_KIND,
    PENDING_NAMED,
    PENDING_TARGET,
    PHASE,
    QUEUE,
    QUEUE_LEN,
    RECENT,
    RING,
    RULED_OUT,
    SHOWN_OWED,
    SIZES,
    TO_ACT,
    TURN_HOLDER,
    WINDOW_LAST,
)
from ek_env.engine.cards import MAX_PLAYERS

__all__ = ["encode"]


@njit
def encode(s: Any, w: Any, opts: Any, seat: Any, out: Any) -> None:
    """``seat``'s observation of the row into ``out`` (float32, the setup's size)."""
    n, kinds, setup = opts[OPT_PLAYERS], opts[OPT_KINDS], opts[OPT_STREAKING]
    o = OBS[setup]
    out[:] = 0.0
    _table(s, w, opts, o, seat, out)
    if s[PENDING_KIND]:
        _pending(s, n, o, seat, out)
    _knowledge(s, n, kinds, o, seat, out)
    _recent(w, n, kinds, o, seat, out)
    if setup:
        _streaking(s, opts, o, seat, out)


@njit
def _table(s: Any, w: Any, opts: Any, o: Any, seat: Any, out: Any) -> None:
    """My hand and the public facts of the table: phase, seats, hand sizes, owed
    turns, the draw pile's size and kittens, the discard pile and the cards out of
    play."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    hand = HANDS + KIND_ROOM * seat
    if s[BLIND + seat]:  # only what I know of my hand: marked, or seen arriving
        known = KNOWN_HANDS + (seat * n + seat) * kinds
        marks = MARKED + KIND_ROOM * seat
        for card in range(kinds):
            out[o[O_MY_HAND] + card] = max(s[known + card], s[marks + card])
    else:
        for card in range(kinds):
            out[o[O_MY_HAND] + card] = s[hand + card]
    out[o[O_PHASE] + s[PHASE]] = 1.0
    out[o[O_TO_ACT] + (s[TO_ACT] - seat + n) % n] = 1.0
    out[o[O_HOLDER] + (s[TURN_HOLDER] - seat + n) % n] = 1.0
    alive = 0
    for rel in range(n):
        other = (seat + rel) % n
        out[o[O_PRESENT] + rel] = 1.0
        out[o[O_ALIVE] + rel] = s[ALIVE + other]
        out[o[O_SIZES] + rel] = s[SIZES + other]
        alive += s[ALIVE + other]
    out[o[O_OWED]] = min(w[OWED], SHOWN_OWED)
    out[o[O_ATTACKED]] = s[ATTACKED]
    out[o[O_DECK_SIZE]] = s[DECK_LEN]
    if opts[OPT_STREAKING]:
        gone = s[BOX + KITTEN_KIND] + s[DISCARD + KITTEN_KIND] + s[OUT_OF_PLAY + KITTEN_KIND]
        out[o[O_KITTENS]] = opts[OPT_COUNTS + KITTEN_KIND] - gone - s[HELD_KITTEN]
    else:
        out[o[O_KITTENS]] = alive - 1 - s[HELD_KITTEN]
    for card in range(kinds):
        out[o[O_DISCARD] + card] = s[DISCARD + card]
        out[o[O_OUT_OF_PLAY] + card] = s[OUT_OF_PLAY + card]


@njit
def _pending(s: Any, n: Any, o: Any, seat: Any, out: Any) -> None:
    """The announced play awaiting its Nope window."""
    out[o[O_PENDING] + s[PENDING_KIND] - 1] = 1.0
    if s[PENDING_CARD] >= 0:
        out[o[O_PENDING_CARD] + s[PENDING_CARD]] = 1.0
    for k in range(s[FIVE_LEN]):
        out[o[O_PENDING_FIVE] + s[FIVE + k]] = 1.0
    if s[PENDING_NAMED] >= 0:
        out[o[O_PENDING_NAMED] + s[PENDING_NAMED]] = 1.0
    out[o[O_NOPES]] = s[NOPES]
    if s[PENDING_TARGET] >= 0:
        out[o[O_PENDING_TARGET] + (s[PENDING_TARGET] - seat + n) % n] = 1.0
    if s[WINDOW_LAST] >= 0:
        out[o[O_OPENER] + (s[WINDOW_LAST] - seat + n) % n] = 1.0


@njit
def _knowledge(s: Any, n: Any, kinds: Any, o: Any, seat: Any, out: Any) -> None:
    """What I know of the draw pile and of the other hands, and what the table knows
    each seat does not hold."""
    base = KNOWN_DECK + DECK_ROOM * seat
    for depth in range(s[KNOWN_DECK_LEN + seat]):
        card = s[base + depth]
        if card >= 0:
            out[o[O_KNOWN_DECK] + depth * kinds + card] = 1.0
    for rel in range(1, n):
        other = (seat + rel) % n
        known = KNOWN_HANDS + (seat * n + other) * kinds
        at = o[O_KNOWN_HANDS] + (rel - 1) * kinds
        for card in range(kinds):
            out[at + card] = s[known + card]
    for rel in range(n):
        ruled = RULED_OUT + ((seat + rel) % n) * kinds
        at = o[O_RULED_OUT] + rel * kinds
        for card in range(kinds):
            out[at + card] = s[ruled + card]


@njit
def _recent(w: Any, n: Any, kinds: Any, o: Any, seat: Any, out: Any) -> None:
    """The public part of the newest events, newest first, seats relative to me:
    event code, actor, target, card, result."""
    total = w[EVENTS]
    codes, width = o[O_CODES], o[O_EVENT_WIDTH]
    for i in range(min(total, RECENT)):
        slot = RING + ((total - 1 - i) % RECENT) * EVENT_FIELDS
        at = o[O_RECENT] + i * width
        actor, what, target = w[slot], w[slot + 1], w[slot + 2]
        card, result = w[slot + 3], w[slot + 4]
        out[at + what] = 1.0
        out[at + codes + (actor - seat + n) % n] = 1.0
        if target >= 0:
            out[at + codes + MAX_PLAYERS + (target - seat + n) % n] = 1.0
        if card >= 0:
            out[at + codes + 2 * MAX_PLAYERS + card] = 1.0
        if result >= 0:
            out[at + codes + 2 * MAX_PLAYERS + kinds + result] = 1.0


@njit
def _streaking(s: Any, opts: Any, o: Any, seat: Any, out: Any) -> None:
    """The expansion's fields: blindness, marks, kittens to put back and exploding,
    Garbage Collection's seats still to put in, and my Alter the Future."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    for rel in range(n):
        other = (seat + rel) % n
        out[o[O_BLIND] + rel] = s[BLIND + other]
        if s[MARKS_TOTAL]:
            for card in range(kinds):
                out[o[O_MARKED] + rel * kinds + card] = s[MARKED + KIND_ROOM * other + card]
    if s[HELD_KITTEN]:
        out[o[O_TO_INSERT]] = s[HELD_KITTEN]
        for k in range(s[QUEUE_LEN]):
            out[o[O_EXPLODING] + (s[QUEUE + k] - seat + n) % n] = 1.0
    for k in range(s[GARBAGE_QUEUE_LEN]):
        out[o[O_WAITING] + (s[GARBAGE_QUEUE + k] - seat + n) % n] = 1.0
    if s[ALTER_LEFT_LEN] and s[TURN_HOLDER] == seat:
        for k in range(s[ALTER_LEFT_LEN]):
            out[o[O_ALTER_CARDS] + s[ALTER_LEFT + k]] += 1.0
        for k in range(s[ALTER_PLACED_LEN]):
            out[o[O_ALTER_PLACED] + k * kinds + s[ALTER_PLACED + k]] = 1.0
