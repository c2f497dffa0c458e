"""One seat's observation of one row, exactly as :func:`phpets_env.encoding.encoding.encode`
writes it from :class:`phpets_env.info.view.PlayerView`.
"""

from __future__ import annotations

from typing import Any

from cardgym.vector._numba import njit
from phpets_env.batched.layout import (
    ASIDE,
    DECK,
    DECK_LEN,
    E_ACTOR,
    E_CARD,
    E_RESULT,
    E_TARGET,
    E_WHAT,
    EVENT_COLUMNS,
    EVENT_FIELDS,
    EVENTS,
    FACE_UP,
    FACE_UP_LEN,
    HAND_LEN,
    HANDS,
    IN_ROUND,
    KNOWN,
    NO,
    O_ASIDE_PRESENT,
    O_DECK_SIZE,
    O_FACE_UP,
    O_IN_ROUND,
    O_KNOWN_ASIDE,
    O_KNOWN_DECK,
    O_KNOWN_HANDS,
    O_MY_HAND,
    O_PENDING,
    O_PHASE,
    O_PRESENT,
    O_PROTECTED,
    O_RECENT,
    O_ROWS,
    O_RULED_OUT,
    O_START,
    O_TO_ACT,
    O_TO_WIN,
    O_TOKENS,
    OBS_WIDTH,
    OPT_PLAYERS,
    OPT_TO_WIN,
    PENDING,
    PHASE,
    PROTECTED,
    RECENT,
    RING,
    ROUND_START,
    ROW_LEN,
    ROWS,
    RULED_OUT,
    TO_ACT,
    TOKENS,
    VALUES,
    WATCHERS,
)
from phpets_env.engine.cards import NUM_CARDS, NUM_VALUES


@njit
def encode(s: Any, w: Any, opts: Any, seat: Any, out: Any) -> Any:
    """``seat``'s observation of the row into ``out`` (float32, OBS_WIDTH)."""
    n = opts[OPT_PLAYERS]
    for k in range(OBS_WIDTH):
        out[k] = 0.0
    out[O_PHASE + s[PHASE]] = 1.0
    out[O_TO_ACT + (s[TO_ACT] - seat + n) % n] = 1.0
    out[O_START + (s[ROUND_START] - seat + n) % n] = 1.0
    known = w[KNOWN + seat]
    for rel in range(n):
        other = (seat + rel) % n
        out[O_PRESENT + rel] = 1.0
        out[O_IN_ROUND + rel] = s[IN_ROUND + other]
        out[O_PROTECTED + rel] = s[PROTECTED + other]
        out[O_TOKENS + rel] = s[TOKENS + other]
        base = O_ROWS + rel * NUM_VALUES
        for k in range(s[ROW_LEN + other]):
            out[base + VALUES[s[ROWS + NUM_CARDS * other + k]]] += 1.0
        if rel:
            base = O_KNOWN_HANDS + (rel - 1) * NUM_VALUES
            for k in range(s[HAND_LEN + other]):
                card = s[HANDS + 2 * other + k]
                if known >> card & 1:
                    out[base + VALUES[card]] += 1.0
            ruled = w[RULED_OUT + other]
            base = O_RULED_OUT + (rel - 1) * NUM_VALUES
            for value in range(NUM_VALUES):
                out[base + value] = ruled >> value & 1
    for k in range(s[HAND_LEN + seat]):
        out[O_MY_HAND + VALUES[s[HANDS + 2 * seat + k]]] += 1.0
    for k in range(s[FACE_UP_LEN]):
        out[O_FACE_UP + VALUES[s[FACE_UP + k]]] += 1.0
    _hidden_places(s, seat, known, out)
    out[O_DECK_SIZE] = s[DECK_LEN]
    out[O_TO_WIN] = opts[OPT_TO_WIN]
    _recent(s, w, n, seat, out)


@njit
def _hidden_places(s: Any, seat: Any, known: Any, out: Any) -> Any:
    """The set-aside card, pile depths and held-out card, where ``seat`` knows them."""
    aside = s[ASIDE]
    if aside != NO:
        out[O_ASIDE_PRESENT] = 1.0
        if known >> aside & 1:
            out[O_KNOWN_ASIDE + VALUES[aside]] = 1.0
    if s[WATCHERS] >> seat & 1:
        top = s[DECK_LEN] - 1
        for k in range(s[DECK_LEN]):
            card = s[DECK + k]
            if known >> card & 1:
                out[O_KNOWN_DECK + (top - k) * NUM_VALUES + VALUES[card]] = 1.0
        pending = s[PENDING]
        if pending != NO and s[TO_ACT] == seat:
            out[O_PENDING + VALUES[pending]] = 1.0


@njit
def _recent(s: Any, w: Any, n: Any, seat: Any, out: Any) -> Any:
    """The public part of the newest events, newest first, relative to ``seat``."""
    total = w[EVENTS]
    for i in range(min(total, RECENT)):
        slot = RING + ((total - 1 - i) % RECENT) * EVENT_FIELDS
        base = O_RECENT + i * EVENT_COLUMNS
        actor, what, target = s[slot], s[slot + 1], s[slot + 2]
        card, result = s[slot + 3], s[slot + 4]
        if actor >= 0:
            out[base + E_ACTOR + (actor - seat + n) % n] = 1.0
        if what >= 0:
            out[base + E_WHAT + what] = 1.0
        if target >= 0:
            out[base + E_TARGET + (target - seat + n) % n] = 1.0
        if card >= 0:
            out[base + E_CARD + card] = 1.0
        if result >= 0:
            out[base + E_RESULT + result] = 1.0
