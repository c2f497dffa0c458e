"""The public record of Power Hungry Pets: what each event holds, what the table sees
of a choice, and events in words (docs/rules/README.md applied to §2).

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

The codes and the shared events are made in :mod:`phpets_env.engine.events`; this module
names them too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final

from cardgym.record import NONE, TABLE, Event
from phpets_env.engine.actions import ACTION_SPECS
from phpets_env.engine.cards import DISPLAY_NAMES, NUM_VALUES, Card
from phpets_env.engine.events import (
    ACTOR_LOST,
    DRAW,
    ELIMINATED,
    EVENT_NAMES,
    FROM_ASIDE,
    GRAVE_CHOICE,
    HIT,
    KEPT,
    MATCH_WON,
    MISS,
    NEW_ROUND,
    NO_EFFECT,
    NUM_EVENT_KINDS,
    NUM_RECENT_KINDS,
    NUM_RESULTS,
    PLACE,
    PLAY,
    PUBLIC_BY_ID,
    RESULT_NAMES,
    REVEAL,
    ROUND_WON,
    SWAPPED,
    TARGET_LOST,
    TIE,
    TURN_DRAW,
    PublicPart,
    make_event,
    public_part,
)
from phpets_env.engine.state import MOUSE_TRAPPER, State

#: The one public label of every Mouse Trapper placement: the depth is secret.
_PLACEMENT: Final = ("mouse_trapper", "some depth")


def choice_visibility(state: State, action: int) -> tuple[Hashable, int]:
    """What the table sees of the seat to act choosing ``action`` now (docs/rules/power_hungry_pets.md).

    A play (card, target, named value) and the Grave Digger keep-or-swap are announced:
    the action itself is the public label, seen by all. A Mouse Trapper depth is
    private to its player: every depth has the same public label. The seat that draws
    next also receives what depth 0 puts on top (the card put back), though it cannot
    tell that card from another, so it is a party to depth 0; every other depth leaves
    it the same card (the one below).

    Returns:
        ``(public label, bit mask of the seats that see the secret)``.
    """
    actor = state.to_act
    if state.phase != MOUSE_TRAPPER:
        return action, 1 << actor
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


def _agree(subject: str, you: str, others: str) -> str:
    """The verb form that agrees with ``subject``: ``you`` for the viewer ("you are"),
    ``others`` for a seat named in the third person ("player_1 is")."""
    return you if subject == "you" else others


def _card(value: int) -> str:
    return f"{DISPLAY_NAMES[Card(value)]} ({value})"


def describe_event(event: Event, seat: int, num_players: int) -> str:
    """One line in English: ``event`` as ``seat`` saw it (pass it through
    ``event.as_seen_by(seat)`` first; ``seat`` = :data:`TABLE` for the full view)."""
    del num_players  # seats are named absolutely; kept for the shared signature
    if event.what < NUM_VALUES:
        return _describe_play(event, seat)
    describe = _DESCRIBE.get(event.what)
    if describe is None:  # pragma: no cover - every code is named below
        return f"event {event.what}"
    return describe(event, _seat(event.actor, seat), _target(event, seat))


def _target(event: Event, viewer: int) -> str:
    return _seat(event.target, viewer) if event.target != NONE else ""


def _describe_play(event: Event, seat: int) -> str:
    """A play in words: the card, whom it named and what came of it."""
    what, result = event.what, event.result
    actor, target = _seat(event.actor, seat), _target(event, seat)
    itself = event.target == event.actor  # Snake Sorcerer may choose its own player
    if itself:
        target = _agree(actor, "yourself", "themselves")
    text = f"{actor} played {_card(what)}"
    if what == Card.SNAKE_SORCERER and itself:
        text += f" at {target} and showed {_card(event.card)}"
    elif what == Card.CRYSTAL_BOWL and event.target != NONE:
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
    return text + _looked_at(event)


def _looked_at(event: Event) -> str:
    """The card a Grave Digger or Mouse Trapper play showed, if this view saw it."""
    if event.secret == NONE:
        return ""
    if event.what == Card.GRAVE_DIGGER:
        return f"; the set-aside card is {_card(event.secret)}"
    if event.what == Card.MOUSE_TRAPPER:
        return f"; the top card is {_card(event.secret)}"
    return ""


def _secret(event: Event) -> str:
    return f": {_card(event.secret)}" if event.secret != NONE else ""


def _grave_choice(event: Event, actor: str, target: str) -> str:
    text = f"{actor} " + ("swapped with" if event.result == SWAPPED else "kept the hand card, not")
    text += " the set-aside card"
    return text + (f" (now set aside: {_card(event.secret)})" if event.secret != NONE else "")


def _place(event: Event, actor: str, target: str) -> str:
    count = event.secret
    if count == 0:
        return f"{actor} put the card back on top of the pile"
    where = f" with {count} card{'s' * (count > 1)} above it" if count != NONE else ""
    return f"{actor} put the card back into the pile{where}"


def _draw(event: Event, actor: str, target: str) -> str:
    source = "the set-aside card" if event.result == FROM_ASIDE else "a card"
    return f"{target} drew {source}" + _secret(event)


def _eliminated(event: Event, actor: str, target: str) -> str:
    shown = f", showing {_card(event.card)}" if event.card != NONE else ""
    return f"{target} {_agree(target, 'are', 'is')} out of the round{shown}"


def _reveal(event: Event, actor: str, target: str) -> str:
    return f"{target} showed {_card(event.card)} at the showdown"


def _round_won(event: Event, actor: str, target: str) -> str:
    return f"{target} won the round" if event.target != NONE else "nobody won the round"


def _match_won(event: Event, actor: str, target: str) -> str:
    return f"{target} won the match"


def _new_round(event: Event, actor: str, target: str) -> str:
    return f"a new round begins; {target} {_agree(target, 'start', 'starts')}"


def _turn_draw(event: Event, actor: str, target: str) -> str:
    return f"{target} drew a card" + _secret(event)


#: Every code but a play, in words: (event, actor, target) -> text.
_DESCRIBE: Final[dict[int, Callable[[Event, str, str], str]]] = {
    GRAVE_CHOICE: _grave_choice,
    PLACE: _place,
    DRAW: _draw,
    ELIMINATED: _eliminated,
    REVEAL: _reveal,
    ROUND_WON: _round_won,
    MATCH_WON: _match_won,
    NEW_ROUND: _new_round,
    TURN_DRAW: _turn_draw,
}


__all__ = [
    "ACTOR_LOST", "DRAW", "ELIMINATED", "EVENT_NAMES", "FROM_ASIDE", "GRAVE_CHOICE", "HIT",
    "KEPT", "MATCH_WON", "MISS", "NEW_ROUND", "NO_EFFECT", "NUM_EVENT_KINDS", "NUM_RECENT_KINDS",
    "NUM_RESULTS", "PLACE", "PLAY", "PUBLIC_BY_ID", "PublicPart", "RESULT_NAMES", "REVEAL",
    "ROUND_WON", "SWAPPED", "TABLE", "TARGET_LOST", "TIE", "TURN_DRAW", "choice_visibility",
    "describe_event", "make_event", "public_part",
]
