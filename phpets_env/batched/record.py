"""The batched engine's record of a match: the newest public events in a ring, and
the newest turn-start draw (:mod:`phpets_env.engine.events` codes).

The reference engine logs every event of the match; the observation reads only the
public part of the newest :data:`~phpets_env.encoding.encoding.RECENT_EVENTS` events less the
turn-start draws, and the invariants only the newest turn-start draw. So a row keeps
those: the ring of ``small[RING:]`` (an event's seven fields, secret included, so
that an exported log tells the same), and the turn-start draw apart, with the count
of events logged before it (``wide[DRAW_AT]``), which says where it goes between them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from phpets_env.batched.layout import (
    DRAW_AT,
    DRAW_SEAT,
    DRAW_VALUE,
    EVENT_FIELDS,
    EVENTS,
    RECENT,
    RING,
)


@njit
def write_event(s: Any, k: Any, actor: Any, what: Any, target: Any, card: Any, result: Any, secret: Any, seen_by: Any) -> Any:
    """Write the fields of event number ``k`` into its ring slot."""
    base = RING + (k % RECENT) * EVENT_FIELDS
    s[base] = actor
    s[base + 1] = what
    s[base + 2] = target
    s[base + 3] = card
    s[base + 4] = result
    s[base + 5] = secret
    s[base + 6] = seen_by


@njit
def log_event(s: Any, w: Any, actor: Any, what: Any, target: Any, card: Any, result: Any, secret: Any, seen_by: Any) -> Any:
    """Log the next event; returns its number (to fill in later: a play is logged
    before the events its effect causes)."""
    k = np.int64(w[EVENTS])
    write_event(s, k, actor, what, target, card, result, secret, seen_by)
    w[EVENTS] = k + 1
    return k


@njit
def log_turn_draw(s: Any, w: Any, seat: Any, value: Any) -> Any:
    """Log the draw that starts ``seat``'s turn (kept apart from the ring)."""
    s[DRAW_SEAT] = seat
    s[DRAW_VALUE] = value
    w[DRAW_AT] = w[EVENTS]
