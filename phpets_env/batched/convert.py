"""One row of the batched engine to and from the reference engine's
:class:`~phpets_env.state.State`.

The row keeps the reference's card ids and the order of every list, so a state
goes across as it is; only the record is short: :func:`export_row` writes the
events the row keeps (:mod:`~phpets_env.batched.record`) as the state's log, and
:func:`load_row` keeps those of a state's log.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from cardgym.record import NONE, Event
from phpets_env.batched.layout import (
    ASIDE,
    DECK,
    DECK_LEN,
    DRAW_AT,
    DRAW_SEAT,
    DRAW_VALUE,
    EVENT_FIELDS,
    EVENTS,
    FACE_UP,
    FACE_UP_LEN,
    HAND_LEN,
    HANDS,
    IN_ROUND,
    KNOWN,
    MATCH_WINNERS,
    NUM_MATCH_WINNERS,
    NUM_ROUND_WINNERS,
    PENDING,
    PHASE,
    PROTECTED,
    RECENT,
    RING,
    ROUND_NUMBER,
    ROUND_START,
    ROUND_WINNERS,
    ROW_LEN,
    ROWS,
    RULED_OUT,
    SUPPLY,
    TO_ACT,
    TOKENS,
    TRAPPED,
    WATCHERS,
)
from phpets_env.cards import NUM_CARDS
from phpets_env.events import TURN_DRAW, make_event
from phpets_env.state import Config, Phase, State

__all__ = ["export_row", "load_row"]


def export_row(small: NDArray[np.int8], wide: NDArray[np.int32], config: Config) -> State:
    """The row's match as a reference state (its log: the events the row keeps)."""
    n = config.num_players
    s: list[int] = small.tolist()
    w: list[int] = wide.tolist()
    state = State(config)
    state.deck = s[DECK:DECK + s[DECK_LEN]]
    state.aside = s[ASIDE]
    state.face_up = s[FACE_UP:FACE_UP + s[FACE_UP_LEN]]
    state.hands = [s[HANDS + 2 * seat:HANDS + 2 * seat + s[HAND_LEN + seat]]
                   for seat in range(n)]
    state.rows = [s[ROWS + NUM_CARDS * seat:ROWS + NUM_CARDS * seat + s[ROW_LEN + seat]]
                  for seat in range(n)]
    state.in_round = [bool(flag) for flag in s[IN_ROUND:IN_ROUND + n]]
    state.protected = [bool(flag) for flag in s[PROTECTED:PROTECTED + n]]
    state.tokens = s[TOKENS:TOKENS + n]
    state.token_supply = s[SUPPLY]
    state.to_act = s[TO_ACT]
    state.phase = Phase(s[PHASE])
    state.pending = s[PENDING]
    state.known = w[KNOWN:KNOWN + n]
    state.trapped = w[TRAPPED:TRAPPED + n]
    state.ruled_out = w[RULED_OUT:RULED_OUT + n]
    state.deck_watchers = s[WATCHERS]
    state.round_start = s[ROUND_START]
    state.round_number = w[ROUND_NUMBER]
    state.round_winners = tuple(s[ROUND_WINNERS:ROUND_WINNERS + s[NUM_ROUND_WINNERS]])
    state.match_winners = tuple(s[MATCH_WINNERS:MATCH_WINNERS + s[NUM_MATCH_WINNERS]])
    state.log = _log(s, w)
    return state


def _log(s: list[int], w: list[int]) -> list[Event]:
    """The ring's events, oldest first, with the newest turn-start draw in its place."""
    total = w[EVENTS]
    first = max(0, total - RECENT)
    log = []
    for k in range(first, total):
        base = RING + (k % RECENT) * EVENT_FIELDS
        log.append(make_event(*s[base:base + EVENT_FIELDS]))
    if s[DRAW_SEAT] != NONE:
        seat, value = s[DRAW_SEAT], s[DRAW_VALUE]
        draw = make_event(NONE, TURN_DRAW, seat, NONE, NONE, value,
                          1 << seat if value != NONE else 0)
        log.insert(min(max(w[DRAW_AT], first), total) - first, draw)
    return log


def load_row(s: NDArray[np.int8], w: NDArray[np.int32], state: State) -> None:
    """Put a reference state into the row (its log: the events the row keeps)."""
    n = state.num_players
    s[:] = 0
    w[:] = 0
    s[DECK:DECK + len(state.deck)] = state.deck
    s[DECK_LEN] = len(state.deck)
    s[ASIDE] = state.aside
    s[FACE_UP:FACE_UP + len(state.face_up)] = state.face_up
    s[FACE_UP_LEN] = len(state.face_up)
    for seat in range(n):
        hand, row = state.hands[seat], state.rows[seat]
        s[HANDS + 2 * seat:HANDS + 2 * seat + len(hand)] = hand
        s[HAND_LEN + seat] = len(hand)
        s[ROWS + NUM_CARDS * seat:ROWS + NUM_CARDS * seat + len(row)] = row
        s[ROW_LEN + seat] = len(row)
    s[IN_ROUND:IN_ROUND + n] = state.in_round
    s[PROTECTED:PROTECTED + n] = state.protected
    s[TOKENS:TOKENS + n] = state.tokens
    s[SUPPLY] = state.token_supply
    s[TO_ACT] = state.to_act
    s[PHASE] = int(state.phase)
    s[PENDING] = state.pending
    w[KNOWN:KNOWN + n] = state.known
    w[TRAPPED:TRAPPED + n] = state.trapped
    w[RULED_OUT:RULED_OUT + n] = state.ruled_out
    s[WATCHERS] = state.deck_watchers
    s[ROUND_START] = state.round_start
    w[ROUND_NUMBER] = state.round_number
    s[ROUND_WINNERS:ROUND_WINNERS + len(state.round_winners)] = state.round_winners
    s[NUM_ROUND_WINNERS] = len(state.round_winners)
    s[MATCH_WINNERS:MATCH_WINNERS + len(state.match_winners)] = state.match_winners
    s[NUM_MATCH_WINNERS] = len(state.match_winners)
    _load_log(s, w, state.log)


def _load_log(s: NDArray[np.int8], w: NDArray[np.int32], log: Sequence[Event]) -> None:
    """Keep the newest public events of ``log`` and its newest turn-start draw."""
    kept: list[Event] = []
    s[DRAW_SEAT] = NONE
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event.what == TURN_DRAW:
            if s[DRAW_SEAT] == NONE:
                s[DRAW_SEAT] = event.target
                s[DRAW_VALUE] = event.secret
                w[DRAW_AT] = -len(kept)  # events after it, made a count before it below
        elif len(kept) < RECENT:
            kept.append(event)
        if len(kept) == RECENT and s[DRAW_SEAT] != NONE:
            break
    kept.reverse()
    for k, event in enumerate(kept):
        base = RING + k * EVENT_FIELDS
        s[base:base + EVENT_FIELDS] = (event.actor, event.what, event.target, event.card,
                                       event.result, event.secret, event.seen_by)
    w[EVENTS] = len(kept)
    if s[DRAW_SEAT] != NONE:
        w[DRAW_AT] += len(kept)
