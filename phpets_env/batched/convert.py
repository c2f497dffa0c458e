"""The record in a row of the batched engine, to and from the reference engine's
:class:`~phpets_env.engine.state.State`.

Every other field goes across as the row format declares it
(:data:`~phpets_env.batched.layout.ROW_FORMAT`); the record is short: :func:`export_log`
writes the events the row keeps (:mod:`~phpets_env.batched.record`) as the state's
log, and :func:`load_log` keeps those of a state's log.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.record import NONE, Event
from phpets_env.batched.layout import (
    DRAW_AT,
    DRAW_SEAT,
    DRAW_VALUE,
    EVENT_FIELDS,
    EVENTS,
    RECENT,
    RING,
)
from phpets_env.engine.events import TURN_DRAW, make_event
from phpets_env.engine.state import State

__all__ = ["export_log", "load_log"]


def export_log(small: NDArray[np.int8], wide: NDArray[np.int32], state: State) -> None:
    """The events the row keeps, as ``state``'s log."""
    state.log = _log(small.tolist(), wide.tolist())


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


def load_log(s: NDArray[np.int8], w: NDArray[np.int32], state: State) -> None:
    """Keep the newest public events of ``state``'s log and its newest turn-start draw
    (the row's other columns are in place)."""
    log = state.log
    kept: list[Event] = []
    draw: Event | None = None
    draw_at = 0  # events after the draw, made a count before it below
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event.what == TURN_DRAW:
            if draw is None:
                draw, draw_at = event, len(kept)
        elif len(kept) < RECENT:
            kept.append(event)
        if len(kept) == RECENT and draw is not None:
            break
    kept.reverse()
    if kept:
        s[RING:RING + len(kept) * EVENT_FIELDS] = [
            value for event in kept for value in (event.actor, event.what, event.target,
                                                  event.card, event.result, event.secret,
                                                  event.seen_by)]
    w[EVENTS] = len(kept)
    if draw is None:
        s[DRAW_SEAT] = NONE
    else:
        s[DRAW_SEAT] = draw.target
        s[DRAW_VALUE] = draw.secret
        w[DRAW_AT] = len(kept) - draw_at
