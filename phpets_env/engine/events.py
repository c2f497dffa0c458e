"""The events the Power Hungry Pets engine logs (:mod:`cardgym.record`), by code.

What each event's fields hold is documented in :mod:`phpets_env.display.record`, which
also tells events in words. Events are values: the engine shares one object per
distinct event (:func:`make_event`), so that appending one is cheap and a reader
can find an event's public part by the object's identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardgym.record import NONE, TABLE, Event
from phpets_env.engine.cards import MAX_PLAYERS, NUM_VALUES, Card

# ``what`` codes ----------------------------------------------------------------
PLAY: Final = 0  # PLAY + value: a card of that value played
GRAVE_CHOICE: Final = NUM_VALUES
PLACE: Final = NUM_VALUES + 1
DRAW: Final = NUM_VALUES + 2
ELIMINATED: Final = NUM_VALUES + 3
REVEAL: Final = NUM_VALUES + 4
ROUND_WON: Final = NUM_VALUES + 5
MATCH_WON: Final = NUM_VALUES + 6
NEW_ROUND: Final = NUM_VALUES + 7
#: The draw that starts every turn; the last code, and the one ``recent_moves`` omits.
TURN_DRAW: Final = NUM_VALUES + 8
EVENT_NAMES: Final[tuple[str, ...]] = (
    *(f"play:{card.name.lower()}" for card in Card),
    "grave_digger", "mouse_trapper", "draw", "eliminated", "reveal", "round_won",
    "match_won", "new_round", "turn_draw",
)
NUM_EVENT_KINDS: Final = len(EVENT_NAMES)
#: The codes that appear in the ``recent_moves`` observation field: all but
#: ``TURN_DRAW``, the last (codes ``0 .. NUM_RECENT_KINDS - 1``).
NUM_RECENT_KINDS: Final = TURN_DRAW

# ``result`` codes ----------------------------------------------------------------
NO_EFFECT: Final = 0
HIT: Final = 1
MISS: Final = 2
TIE: Final = 3
ACTOR_LOST: Final = 4
TARGET_LOST: Final = 5
SWAPPED: Final = 6
KEPT: Final = 7
FROM_ASIDE: Final = 8
RESULT_NAMES: Final[tuple[str, ...]] = (
    "no_effect", "hit", "miss", "tie", "actor_lost", "target_lost", "swapped", "kept",
    "from_aside",
)
NUM_RESULTS: Final = len(RESULT_NAMES)


@dataclass(frozen=True, slots=True, eq=False)
class PublicPart:
    """What every seat saw of an event: all of it but the secret.

    One object per distinct public part (see :func:`make_event`), never freed: a
    reader may key what it derives from a part by the part itself (identity).
    """

    actor: int
    what: int
    target: int
    card: int
    result: int


#: Every event the engine makes, by its fields: events are values, so the engine
#: shares one object per distinct event (cheap to append, and a reader can find an
#: event's public part by the object's identity: interned events are never freed, so
#: no other live object can share the id of one).
_INTERNED: dict[tuple[int, ...], Event] = {}
#: id of an interned event -> its public part.
PUBLIC_BY_ID: dict[int, PublicPart] = {}
#: Every public part, by its fields.
_PUBLIC_PARTS: dict[tuple[int, ...], PublicPart] = {}


def make_event(actor: int, what: int, target: int = NONE, card: int = NONE,
               result: int = NONE, secret: int = NONE, seen_by: int = 0) -> Event:
    """The event with these fields (one shared object per distinct event)."""
    key = (actor, what, target, card, result, secret, seen_by)
    event = _INTERNED.get(key)
    if event is None:
        event = _INTERNED[key] = Event(*key)
        PUBLIC_BY_ID[id(event)] = _part(key[:5])
    return event


def public_part(event: Event) -> PublicPart:
    """The public part of an event (the shared object, for any event)."""
    part = PUBLIC_BY_ID.get(id(event))
    if part is None:  # an event not made by the engine (a test's, say)
        return _part((event.actor, event.what, event.target, event.card, event.result))
    return part


def _part(fields: tuple[int, ...]) -> PublicPart:
    part = _PUBLIC_PARTS.get(fields)
    if part is None:
        part = _PUBLIC_PARTS[fields] = PublicPart(*fields)
    return part


def blank_secret(event: Event) -> Event:
    """``event`` with its secret blanked: the engine's shared object."""
    return make_event(event.actor, event.what, event.target, event.card, event.result)


#: The draw event of each (seat, value), made once (index ``seat * NUM_VALUES + value``).
DRAW_EVENTS: Final[list[Event]] = [
    make_event(TABLE, DRAW, seat, NONE, NONE, value, 1 << seat)
    for seat in range(MAX_PLAYERS) for value in range(NUM_VALUES)
]
#: The same for the draw that starts a turn (its own code: see :data:`TURN_DRAW`).
TURN_DRAW_EVENTS: Final[list[Event]] = [
    make_event(TABLE, TURN_DRAW, seat, NONE, NONE, value, 1 << seat)
    for seat in range(MAX_PLAYERS) for value in range(NUM_VALUES)
]
