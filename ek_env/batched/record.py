"""The batched engine's record of a game: the newest public events in a ring
(:mod:`ek_env.engine.record` codes).

The reference engine logs every event of the game; the observation reads only the
public part of the newest :data:`~ek_env.encoding.observation.RECENT_MOVES` events. So
a row keeps those, in the ring of ``wide[RING:]``: an event's seven fields, secret
and who saw it included, so that an exported log tells the same (a secret of See the
Future packs five cards of five bits each: the ring is ``int32``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.layout import EVENT_FIELDS, EVENTS, RECENT, RING


@njit
def log_event(w: Any, actor: Any, what: Any, target: Any, card: Any, result: Any, secret: Any,
              seen_by: Any) -> None:
    """Log the next event (every field an ``int64``; -1 where it has none)."""
    k = np.int64(w[EVENTS])
    base = RING + (k % RECENT) * EVENT_FIELDS
    w[base] = actor
    w[base + 1] = what
    w[base + 2] = target
    w[base + 3] = card
    w[base + 4] = result
    w[base + 5] = secret
    w[base + 6] = seen_by
    w[EVENTS] = k + 1
