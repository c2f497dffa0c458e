"""The public record of an Exploding Kittens game (docs/rules/README.md): event codes and
events in words (what the table sees of each choice, :func:`choice_visibility`, is
:mod:`ek_env.engine.choices`', named here too).

The engine appends a :class:`~cardgym.record.Event` to ``state.log`` whenever
something happens at the table. Its fields, by code (``what``):

============  =========  ==========  ===========================  ==========================
what          actor      target      card (public)                result / secret
============  =========  ==========  ===========================  ==========================
PLAY          player     Favor,      the card played              -
                         Mark, Curse
PAIR, THREE   player     target      the kind of the pair/three   -
NAME          player     target      the card asked for           -
FIVE          player     -           one of the five kinds        -
NOPE          Noper      answered    nope                         Nopes so far (1: it
                                                                  answers the play; more:
                                                                  a Nope), at most 9
WINDOW        turn       play's      the play's card (none for    ALLOWED or STOPPED
              holder     target      five different)
GIVE          giver      receiver    the card, if public (a       DONE, MARKED_COPY or
                                     kitten, a marked copy)       NOTHING; secret: the card,
                                                                  seen by both
STEAL         thief      victim      as GIVE                      as GIVE (a random card)
ASK           asker      target      the card asked for           HIT or MISS
TAKE          player     -           the card taken               DONE or NOTHING
DRAW          drawer     -           exploding_kitten if shown    secret: the card, seen by
                                                                  the drawer
DEFUSE        player     -           defuse                       -
INSERT        player     -           -                            secret: the depth, seen by
                                                                  the player
OUT           player     -           -                            -
SAW           player     -           -                            how many; secret: the cards
                                                                  top first (:func:`unpack`)
DRY           turn       -           -                            -
              holder
MARK          player     target      the card marked              DONE, ALREADY_MARKED or
                                                                  NOTHING (empty hand)
BOMB          player     -           -                            kittens put on top
ALTERED       player     -           -                            how many; secret: the new
                                                                  order (:func:`unpack`)
GARBAGE       player     -           the card, if a marked copy   DONE or MARKED_COPY;
                                                                  secret: the card, seen by
                                                                  the player
BLIND_PLAY    player     -           the card turned up           PLAYED, LOST or EXPLODED
BLIND_NOPE    player     -           the card turned up           NOPED, LOST or EXPLODED
TARGET        player     target      the turned-up card           -
TURNED        player     -           a card a blind player        -
                                     turned up looking for a
                                     Defuse (lost)
EXPLODE       player     -           exploding_kitten (a held     -
                                     kitten goes off)
============  =========  ==========  ===========================  ==========================

Passes in a Nope window are not recorded one by one: everyone is asked in a fixed
order, so the NOPE events and the WINDOW outcome say who passed. Codes up to
:data:`DRY` are the base game's; the rest are the expansion's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from cardgym.record import NONE, Event
from ek_env.engine.cards import CARD_NAMES
from ek_env.engine.choices import choice_visibility

PLAY: Final = 0
PAIR: Final = 1
THREE: Final = 2
NAME: Final = 3
FIVE: Final = 4
NOPE: Final = 5
WINDOW: Final = 6
GIVE: Final = 7
STEAL: Final = 8
ASK: Final = 9
TAKE: Final = 10
DRAW: Final = 11
DEFUSE: Final = 12
INSERT: Final = 13
OUT: Final = 14
SAW: Final = 15
DRY: Final = 16
# Streaking Kittens
MARK: Final = 17
BOMB: Final = 18
ALTERED: Final = 19
GARBAGE: Final = 20
BLIND_PLAY: Final = 21
BLIND_NOPE: Final = 22
TARGET: Final = 23
TURNED: Final = 24
EXPLODE: Final = 25

EVENT_NAMES: Final = (
    "play", "pair", "three", "name", "five", "nope", "window", "give", "steal", "ask", "take",
    "draw", "defuse", "insert", "out", "saw", "dry", "mark", "bomb", "altered", "garbage",
    "blind_play", "blind_nope", "target", "turned", "explode",
)
#: Event codes of the base game (the base observation's one-hot).
BASE_EVENTS: Final = DRY + 1

# Result codes (a small number each; counts for SAW, ALTERED and BOMB).
NOTHING: Final = 0  # an empty hand: nothing given, stolen, taken or marked
MISS: Final = 0  # three of a kind: the target had no such card
STOPPED: Final = 0  # the Nope window stopped the play (odd Nopes)
LOST: Final = 0  # a blind player's turned-up card could not be played
DONE: Final = 1
HIT: Final = 1
ALLOWED: Final = 1
PLAYED: Final = 1
NOPED: Final = 1
MARKED_COPY: Final = 2  # the card that left was a marked (public) copy
ALREADY_MARKED: Final = 2  # Mark picked a card already marked
EXPLODED: Final = 3  # a blind player turned up a kitten
#: Result values an observation can show: 0..RESULTS - 1 (counts up to 9 kittens).
RESULTS: Final = 10


#: The most distinct events kept for sharing (cleared when full; a few MiB).
INTERNED_EVENTS = 1 << 14

_INTERNED: dict[tuple[int, int, int, int, int, int, int], Event] = {}


def event(actor: int, what: int, target: int = NONE, card: int = NONE, result: int = NONE,
          secret: int = NONE, seen_by: int = 0) -> Event:
    """The :class:`~cardgym.record.Event` with these fields. Events are immutable
    values, so equal ones are shared: the engine's appends stay cheap."""
    key = (actor, what, target, card, result, secret, seen_by)
    found = _INTERNED.get(key)
    if found is None:
        if len(_INTERNED) >= INTERNED_EVENTS:
            _INTERNED.clear()
        found = _INTERNED[key] = Event(*key)
    return found


def pack(cards: list[int]) -> int:
    """Cards (top first, at most 5) as one secret integer: 5 bits per card."""
    value = 0
    for i, card in enumerate(cards):
        value |= (card + 1) << (5 * i)
    return value


def unpack(value: int) -> list[int]:
    """The cards :func:`pack` packed, top first."""
    cards = []
    while value > 0:
        cards.append((value & 31) - 1)
        value >>= 5
    return cards


# ------------------------------------------------------------- in words


def _seat(seat: int, me: int) -> str:
    return "you" if seat == me else f"player_{seat}"


def _whose(seat: int, me: int, actor: int | None = None) -> str:
    """``seat``'s, as a possessive: "your" for the viewer, and "your own" or "their
    own" when it is the ``actor``'s own."""
    if seat == actor:
        return "your own" if seat == me else "their own"
    return "your" if seat == me else f"player_{seat}'s"


def _agree(subject: str, you: str, others: str) -> str:
    """The verb form that agrees with ``subject``: ``you`` for the viewer ("you are"),
    ``others`` for a seat named in the third person ("player_1 is")."""
    return you if subject == "you" else others


def _card(card: int) -> str:
    return CARD_NAMES[card] if card != NONE else "a card"


def _known(event: Event) -> int:
    """What the seat knows of the event's card: the public card, else the secret."""
    return event.card if event.card != NONE else event.secret


def _play(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} played {CARD_NAMES[event.card]}" + (f" at {whom}" if whom else "")


def _combo(event: Event, me: int, who: str, whom: str) -> str:
    label = "a pair" if event.what == PAIR else "three"
    return f"{who} played {label} of {CARD_NAMES[event.card]} against {whom}"


def _name(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} asked {whom} for {CARD_NAMES[event.card]}"


def _five(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} put {CARD_NAMES[event.card]} into five different"


def _nope(event: Event, me: int, who: str, whom: str) -> str:
    answered = "play" if event.result == 1 else "nope"
    return f"{who} noped {_whose(event.target, me, event.actor)} {answered}"


def _window(event: Event, me: int, who: str, whom: str) -> str:
    play = CARD_NAMES[event.card] if event.card != NONE else "five different"
    return f"{_whose(event.actor, me)} {play} " + (
        "goes ahead" if event.result == ALLOWED else "was stopped by the Nopes")


def _hand_to_hand(event: Event, me: int, who: str, whom: str) -> str:
    giving = event.what == GIVE
    if event.result == NOTHING:
        return (f"{who} had nothing to give to {whom}" if giving
                else f"{who} found {_whose(event.target, me)} hand empty")
    copy = " (the marked copy)" if event.result == MARKED_COPY else ""
    card = _card(_known(event))
    return (f"{who} gave {card}{copy} to {whom}" if giving
            else f"{who} took {card}{copy} from {whom}")


def _ask(event: Event, me: int, who: str, whom: str) -> str:
    hit = event.result == HIT
    return f"{whom} " + ("handed over" if hit else "had no") + (
        f" {CARD_NAMES[event.card]}" + (f" to {who}" if hit else ""))


def _take(event: Event, me: int, who: str, whom: str) -> str:
    if event.result == NOTHING:
        return f"{who} found nothing to take from the discard pile"
    return f"{who} took {CARD_NAMES[event.card]} from the discard pile"


def _draw(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} drew {_card(_known(event))}"


def _defuse(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} played defuse"


def _insert(event: Event, me: int, who: str, whom: str) -> str:
    depth = event.secret
    return f"{who} put the kitten back" + (f" at depth {depth}" if depth != NONE else "")


def _out(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} exploded and {_agree(who, 'are', 'is')} out"


def _saw(event: Event, me: int, who: str, whom: str) -> str:
    secret = event.secret
    seen = ", ".join(CARD_NAMES[c] for c in unpack(secret)) if secret != NONE else ""
    verb = "saw" if event.what == SAW else "reordered"
    return f"{who} {verb} the top {event.result} card(s)" + (f": {seen}" if seen else "")


def _dry(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} had to draw from an empty pile: the game ends in a draw"


def _mark(event: Event, me: int, who: str, whom: str) -> str:
    if event.result == NOTHING:
        return f"{who} marked nothing: {whom} {_agree(whom, 'hold', 'holds')} no card"
    return f"{who} marked {_whose(event.target, me)} {CARD_NAMES[event.card]}" + (
        " (already marked)" if event.result == ALREADY_MARKED else "")


def _bomb(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} put {event.result} kitten(s) on top of the shuffled pile"


def _garbage(event: Event, me: int, who: str, whom: str) -> str:
    copy = " (the marked copy)" if event.result == MARKED_COPY else ""
    return f"{who} put {_card(_known(event))}{copy} into the draw pile"


def _blind(event: Event, me: int, who: str, whom: str) -> str:
    outcome = {LOST: "lost", PLAYED: "played", EXPLODED: "it explodes"}[event.result]
    tried = "played blind" if event.what == BLIND_PLAY else "tried to Nope blind"
    if event.what == BLIND_NOPE and event.result == NOPED:
        outcome = "a Nope"
    return f"{who} {tried}: {CARD_NAMES[event.card]}, {outcome}"


def _target(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} aimed the turned-up {CARD_NAMES[event.card]} at {whom}"


def _turned(event: Event, me: int, who: str, whom: str) -> str:
    return f"{who} turned up {CARD_NAMES[event.card]} looking for a defuse (lost)"


def _explode(event: Event, me: int, who: str, whom: str) -> str:
    return f"{_whose(event.actor, me)} held exploding_kitten goes off"


#: Each event code in words: (event, the seat it is told to, actor, target) -> line.
_DESCRIBE: Final[dict[int, Callable[[Event, int, str, str], str]]] = {
    PLAY: _play, PAIR: _combo, THREE: _combo, NAME: _name, FIVE: _five, NOPE: _nope,
    WINDOW: _window, GIVE: _hand_to_hand, STEAL: _hand_to_hand, ASK: _ask, TAKE: _take,
    DRAW: _draw, DEFUSE: _defuse, INSERT: _insert, OUT: _out, SAW: _saw, DRY: _dry,
    MARK: _mark, BOMB: _bomb, ALTERED: _saw, GARBAGE: _garbage, BLIND_PLAY: _blind,
    BLIND_NOPE: _blind, TARGET: _target, TURNED: _turned, EXPLODE: _explode,
}


def describe_event(event: Event, seat: int, num_players: int) -> str:
    """One line in English: ``event`` as ``seat`` saw it (already passed through
    ``event.as_seen_by(seat)``: a secret it did not see is blank)."""
    who = _seat(event.actor, seat)
    whom = _seat(event.target, seat) if 0 <= event.target < num_players else ""
    describe = _DESCRIBE.get(event.what)
    if describe is None:  # pragma: no cover - every code is named above
        return f"{who}: event {event.what}"
    return describe(event, seat, who, whom)


__all__ = [
    "ALLOWED", "ALREADY_MARKED", "ALTERED", "ASK", "BASE_EVENTS", "BLIND_NOPE", "BLIND_PLAY",
    "BOMB", "DEFUSE", "DONE", "DRAW", "DRY", "EVENT_NAMES", "EXPLODE", "EXPLODED", "FIVE",
    "GARBAGE", "GIVE", "HIT", "INSERT", "LOST", "MARK", "MARKED_COPY", "MISS", "NAME", "NOPE",
    "NOPED", "NOTHING", "OUT", "PAIR", "PLAY", "PLAYED", "RESULTS", "SAW", "STEAL", "STOPPED",
    "TAKE", "TARGET", "THREE", "TURNED", "WINDOW", "choice_visibility", "describe_event",
    "event", "pack", "unpack",
]
