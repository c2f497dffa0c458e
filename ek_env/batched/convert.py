"""The record in a row of the batched engine, to and from the reference engine's
:class:`~ek_env.engine.state.State`.

Every other field goes across as the row format declares it
(:data:`~ek_env.batched.layout.ROW_FORMAT`); the record is short: :func:`export_log`
writes the events the row keeps (:mod:`~ek_env.batched.record`) as the state's log,
and :func:`load_log` keeps the newest of a state's log.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ek_env.batched.layout import EVENT_FIELDS, EVENTS, RECENT, RING
from ek_env.engine.record import event
from ek_env.engine.state import State

__all__ = ["export_log", "load_log"]


def export_log(wide: NDArray[np.int32], state: State) -> None:
    """The events the row keeps, oldest first, as ``state``'s log."""
    w = wide.tolist()
    total = w[EVENTS]
    log = []
    for k in range(max(0, total - RECENT), total):
        base = RING + (k % RECENT) * EVENT_FIELDS
        log.append(event(*w[base:base + EVENT_FIELDS]))
    state.log = log


def load_log(wide: NDArray[np.int32], state: State) -> None:
    """Keep the newest :data:`~ek_env.batched.layout.RECENT` events of ``state``'s log
    (the row's other columns are in place)."""
    kept = state.log[-RECENT:]
    if kept:
        wide[RING:RING + len(kept) * EVENT_FIELDS] = [
            value for e in kept for value in (e.actor, e.what, e.target, e.card, e.result,
                                              e.secret, e.seen_by)]
    wide[EVENTS] = len(kept)
