"""The public record of Power Hungry Pets: event codes, what the table sees of a
choice, and events in words (RULES.md §1 applied to §2).

The engine appends a :class:`~cardgym.record.Event` to ``state.log`` for every
public happening. ``actor`` is the seat whose *choice* it was (a play, the Grave
Digger decision, the Mouse Trapper placement); what merely happens to a seat (a
draw, an elimination, a showdown reveal, a round won) has ``actor`` =
:data:`~cardgym.record.TABLE` and the seat as ``target``. Cards are *values* 0..10.

| ``what`` | actor | target | card | result | secret (seen by) |
|---|---|---|---|---|---|
| ``PLAY + v`` (v = value played) | player | chosen seat, or none | Crystal Bowl: the named value; Snake Sorcerer: the revealed value | see below | Grave Digger: the set-aside value; Mouse Trapper: the top card's value (the player) |
| ``GRAVE_CHOICE`` | player | - | - | ``SWAPPED`` or ``KEPT`` | the value now set aside (the player) |
| ``PLACE`` | player | - | - | - | the depth (the player) |
| ``TURN_DRAW`` | table | drawer | - | - | the value drawn (the drawer) |
| ``DRAW`` | table | drawer | - | ``FROM_ASIDE`` if the set-aside card was taken | the value drawn (the drawer) |
| ``ELIMINATED`` | table | seat | the hand card put face up, if any | - | - |
| ``REVEAL`` | table | seat | the value shown at the showdown | - | - |
| ``ROUND_WON`` / ``MATCH_WON`` | table | winner (none: nobody won) | - | - | - |
| ``NEW_ROUND`` | table | start player | - | - | - |

Play results: Crystal Bowl ``HIT``/``MISS``; Battle Bunny ``TIE``, ``ACTOR_LOST``
or ``TARGET_LOST``; Hermit Swap ``SWAPPED``; Not A Pet! ``SWAPPED`` (target: the
King Cat holder) or ``NO_EFFECT``; any card played without effect (nobody could
be chosen, no set-aside card for Grave Digger, an empty pile for Mouse Trapper)
``NO_EFFECT``. Jittery Juggler is followed by a ``DRAW`` of every affected seat.

Every turn starts with a ``TURN_DRAW`` of the seat to act: a code of its own because
its public part says nothing the next event does not (the seat that starts a turn
always draws first, and the pile is never empty then: an empty pile means the
showdown). It is in ``state.log`` like every event (narration and resampling follow
it), but the ``recent_moves`` observation field leaves it out: see
:data:`NUM_RECENT_KINDS`. Every other draw (Snake Sorcerer's target, from the pile or
the set-aside card, and Jittery Juggler's seats) is a ``DRAW``, which says who was
affected.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Final

from cardgym.record import NONE, TABLE, Event
from phpets_env.cards import DISPLAY_NAMES, NUM_VALUES, Card
from phpets_env.state import MOUSE_TRAPPER, State

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

class PublicPart:
    """What every seat saw of an event: all of it but the secret.

    ``memo`` is free for a reader to keep something derived from these fields (the
    encoder keeps the encoded event there); the record never reads it.
    """

    __slots__ = ("actor", "what", "target", "card", "result", "memo")

    def __init__(self, actor: int, what: int, target: int, card: int, result: int) -> None:
        self.actor, self.what, self.target, self.card, self.result = actor, what, target, card, result
        self.memo: Any = None

    def __repr__(self) -> str:
        return (f"PublicPart(actor={self.actor}, what={self.what}, target={self.target}, "
                f"card={self.card}, result={self.result})")


#: Every event the engine makes, by its fields: events are values, so the engine
#: shares one object per distinct event (cheap to append, and a reader can find an
#: event's public part by the object's identity: interned events are never freed, so
#: no other live object can share the id of one).
_INTERNED: dict[tuple[int, ...], Event] = {}
#: id of an interned event -> its public part (one object per distinct public part).
PUBLIC_BY_ID: dict[int, PublicPart] = {}
_PUBLIC_PARTS: dict[tuple[int, ...], PublicPart] = {}


def make_event(actor: int, what: int, target: int = NONE, card: int = NONE,
               result: int = NONE, secret: int = NONE, seen_by: int = 0) -> Event:
    """The event with these fields (one shared object per distinct event)."""
    key = (actor, what, target, card, result, secret, seen_by)
    event = _INTERNED.get(key)
    if event is None:
        event = _INTERNED[key] = Event(*key)
        public = key[:5]
        part = _PUBLIC_PARTS.get(public)
        if part is None:
            part = _PUBLIC_PARTS[public] = PublicPart(*public)
        PUBLIC_BY_ID[id(event)] = part
    return event


def public_part(event: Event) -> PublicPart:
    """The public part of an event (shared for interned events, else a fresh one)."""
    part = PUBLIC_BY_ID.get(id(event))
    if part is None:
        return PublicPart(event.actor, event.what, event.target, event.card, event.result)
    return part


#: The one public label of every Mouse Trapper placement: the depth is secret.
_PLACEMENT: Final = ("mouse_trapper", "some depth")


def choice_visibility(state: State, action: int) -> tuple[Hashable, int]:
    """What the table sees of the seat to act choosing ``action`` now (RULES.md §1-§2).

    A play (card, target, named value) and the Grave Digger keep-or-swap are announced:
    the action itself is the public label, seen by all. A Mouse Trapper depth is
    private to its player: every depth has the same public label. The seat that draws
    next also receives what depth 0 puts on top (the card put back), though it cannot
    tell that card from another, so it is a party to depth 0; every other depth leaves
    it the same card (the one below).

    Returns:
        ``(public label, bit mask of the seats that see the secret)``.
    """
    actor = state.current
    if state.phase != MOUSE_TRAPPER:
        return action, 1 << actor
    from phpets_env.encoding import ACTION_SPECS  # the encoding imports this module

    if ACTION_SPECS[action][3] != 0:
        return _PLACEMENT, 1 << actor
    n = state.num_players
    for offset in range(1, n):
        seat = (actor + offset) % n
        if state.in_round[seat]:
            return _PLACEMENT, 1 << actor | 1 << seat
    return _PLACEMENT, 1 << actor  # pragma: no cover - a placement needs two players in


def _seat(seat: int, viewer: int) -> str:
    if seat == viewer:
        return "you"
    return f"player_{seat}"


def _card(value: int) -> str:
    return f"{DISPLAY_NAMES[Card(value)]} ({value})"


def describe_event(event: Event, seat: int, num_players: int) -> str:
    """One line in English: ``event`` as ``seat`` saw it (pass it through
    ``event.as_seen_by(seat)`` first; ``seat`` = :data:`TABLE` for the full view)."""
    del num_players  # seats are named absolutely; kept for the shared signature
    what, result = event.what, event.result
    actor = _seat(event.actor, seat)
    target = _seat(event.target, seat) if event.target != NONE else ""
    secret = event.secret
    if what < NUM_VALUES:
        text = f"{actor} played {_card(what)}"
        if what == Card.CRYSTAL_BOWL and event.target != NONE:
            text += f" at {target} naming {_card(event.card)}: "
            text += "hit, out of the round" if result == HIT else "missed"
        elif what == Card.BATTLE_BUNNY and event.target != NONE:
            loser = {ACTOR_LOST: actor, TARGET_LOST: target}.get(result)
            text += f" at {target}: " + (f"{loser} had the lower card" if loser else "a tie")
        elif what == Card.SNAKE_SORCERER and event.target != NONE:
            text += f" at {target}, who showed {_card(event.card)}"
        elif what == Card.NOT_A_PET and result == SWAPPED:
            text += f": {target} held King Cat and swapped hands"
        elif event.target != NONE:
            text += f" at {target}" + (": hands swapped" if result == SWAPPED else "")
        elif result == NO_EFFECT:
            text += " without effect"
        if secret != NONE:
            if what == Card.GRAVE_DIGGER:
                text += f"; the set-aside card is {_card(secret)}"
            elif what == Card.MOUSE_TRAPPER:
                text += f"; the top card is {_card(secret)}"
        return text
    if what == GRAVE_CHOICE:
        text = f"{actor} " + ("swapped with" if result == SWAPPED else "kept the hand card, not")
        text += " the set-aside card"
        return text + (f" (now set aside: {_card(secret)})" if secret != NONE else "")
    if what == PLACE:
        where = f" with {secret} cards above it" if secret != NONE else ""
        return f"{actor} put the card back into the pile{where}"
    if what == TURN_DRAW:
        return f"{target} drew a card" + (f": {_card(secret)}" if secret != NONE else "")
    if what == DRAW:
        source = "the set-aside card" if result == FROM_ASIDE else "a card"
        return f"{target} drew {source}" + (f": {_card(secret)}" if secret != NONE else "")
    if what == ELIMINATED:
        shown = f", showing {_card(event.card)}" if event.card != NONE else ""
        return f"{target} is out of the round{shown}"
    if what == REVEAL:
        return f"{target} showed {_card(event.card)} at the showdown"
    if what == ROUND_WON:
        return f"{target} won the round" if event.target != NONE else "nobody won the round"
    if what == MATCH_WON:
        return f"{target} won the match"
    if what == NEW_ROUND:
        return f"a new round begins; {target} starts"
    return f"event {what}"  # pragma: no cover - every code is named above


__all__ = [
    "ACTOR_LOST", "DRAW", "ELIMINATED", "EVENT_NAMES", "FROM_ASIDE", "GRAVE_CHOICE", "HIT",
    "KEPT", "MATCH_WON", "MISS", "NEW_ROUND", "NO_EFFECT", "NUM_EVENT_KINDS", "NUM_RECENT_KINDS",
    "NUM_RESULTS", "PLACE", "PLAY", "PUBLIC_BY_ID", "PublicPart", "RESULT_NAMES", "REVEAL",
    "ROUND_WON", "SWAPPED", "TABLE", "TARGET_LOST", "TIE", "TURN_DRAW", "choice_visibility",
    "describe_event", "make_event", "public_part",
]
