"""The public record of an Exploding Kittens game (RULES.md §1): event codes, what
the table sees of each choice, and events in words.

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

from collections.abc import Hashable
from typing import Final

from cardgym.record import NONE, Event
from ek_env.cards import CARD_NAMES, KITTEN, STREAKING
from ek_env.state import State

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


_INTERNED: dict[tuple[int, int, int, int, int, int, int], Event] = {}


def event(actor: int, what: int, target: int = NONE, card: int = NONE, result: int = NONE,
          secret: int = NONE, seen_by: int = 0) -> Event:
    """The :class:`~cardgym.record.Event` with these fields. Events are immutable
    values, so equal ones are shared: the engine's appends stay cheap."""
    key = (actor, what, target, card, result, secret, seen_by)
    found = _INTERNED.get(key)
    if found is None:
        if len(_INTERNED) >= 1 << 16:
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


# ------------------------------------------------------------ choices


def choice_visibility(state: State, action: int) -> tuple[Hashable, int]:
    """What the table sees of the seat to act choosing ``action`` now (RULES.md §1).

    Returns ``(public, parties)``: alternatives with equal ``public`` differ only in a
    secret seen by the seats in the bit mask ``parties``. Secret choices:

    - the depth a defused kitten goes back to (``insert``): the actor only;
    - the order of Alter the Future (``alter``): the actor only;
    - the card given to a Favor (``give``): giver and receiver; public are a marked
      copy (its mark leaves), an Exploding Kitten (it explodes for the receiver) and
      a Streaking Kitten that leaves a held kitten behind (that kitten explodes);
    - the card put in by Garbage Collection (``garbage``): its owner; public are a
      marked copy, and a Streaking Kitten leaving a held kitten when the round of
      put-ins ends with this one (the kitten explodes then; until then nothing shows).

    Every other choice is announced: plays, targets, named cards, the five kinds, the
    card taken from the discard pile, Nope or pass, drawing, blind plays and the
    target of a turned-up card.
    """
    from ek_env import encoding  # the action table is built on the engine

    kind, card, _, _ = encoding.layout(state.config).specs[action]
    seat = state.to_act
    actor = 1 << seat
    if kind == encoding.INSERT_ACTION:
        return "insert", actor
    if kind == encoding.ALTER_ACTION:
        return "alter", actor
    holds_kitten = state.kinds > STREAKING and state.hands[seat][KITTEN] > 0
    if kind in (encoding.GIVE_ACTION, encoding.GIVE_MARKED):
        parties = actor | 1 << state.current
        marked = kind == encoding.GIVE_MARKED
        if marked or card == KITTEN or (card == STREAKING and holds_kitten):
            return ("give", card, marked), parties
        return "give", parties
    if kind in (encoding.GARBAGE_ACTION, encoding.GARBAGE_MARKED):
        marked = kind == encoding.GARBAGE_MARKED
        last = all(state.blind[other] for other in state.garbage_queue[1:])
        if marked or (card == STREAKING and holds_kitten and last):
            return ("garbage", card, marked), actor
        return "garbage", actor
    return action, actor


# ------------------------------------------------------------- in words


def _seat(seat: int, me: int) -> str:
    return "you" if seat == me else f"player_{seat}"


def _whose(seat: int, me: int) -> str:
    return "your" if seat == me else f"player_{seat}'s"


def _card(card: int) -> str:
    return CARD_NAMES[card] if card != NONE else "a card"


def describe_event(event: Event, seat: int, num_players: int) -> str:
    """One line in English: ``event`` as ``seat`` saw it (already passed through
    ``event.as_seen_by(seat)``: a secret it did not see is blank)."""
    what, result = event.what, event.result
    who = _seat(event.actor, seat)
    whom = _seat(event.target, seat) if 0 <= event.target < num_players else ""
    card = event.card
    secret = event.secret
    known = card if card != NONE else secret  # what this seat knows of the card
    if what == PLAY:
        return f"{who} played {CARD_NAMES[card]}" + (f" at {whom}" if whom else "")
    if what in (PAIR, THREE):
        label = "a pair" if what == PAIR else "three"
        return f"{who} played {label} of {CARD_NAMES[card]} against {whom}"
    if what == NAME:
        return f"{who} asked {whom} for {CARD_NAMES[card]}"
    if what == FIVE:
        return f"{who} put {CARD_NAMES[card]} into five different"
    if what == NOPE:
        answered = "play" if result == 1 else "nope"
        return f"{who} noped {_whose(event.target, seat)} {answered}"
    if what == WINDOW:
        play = CARD_NAMES[card] if card != NONE else "five different"
        return f"{_whose(event.actor, seat)} {play} " + (
            "goes ahead" if result == ALLOWED else "was stopped by the Nopes")
    if what in (GIVE, STEAL):
        if result == NOTHING:
            return (f"{who} had nothing to give to {whom}" if what == GIVE
                    else f"{who} found {whom}'s hand empty")
        copy = " (the marked copy)" if result == MARKED_COPY else ""
        text = (f"{who} gave {_card(known)}{copy} to {whom}" if what == GIVE
                else f"{who} took {_card(known)}{copy} from {whom}")
        return text
    if what == ASK:
        return f"{whom} " + ("handed over" if result == HIT else "had no") + (
            f" {CARD_NAMES[card]}" + (f" to {who}" if result == HIT else ""))
    if what == TAKE:
        return (f"{who} took {CARD_NAMES[card]} from the discard pile" if result != NOTHING
                else f"{who} found nothing to take from the discard pile")
    if what == DRAW:
        return f"{who} drew {_card(known)}"
    if what == DEFUSE:
        return f"{who} played defuse"
    if what == INSERT:
        return f"{who} put the kitten back" + (f" at depth {secret}" if secret != NONE else "")
    if what == OUT:
        return f"{who} exploded and is out"
    if what in (SAW, ALTERED):
        seen = ", ".join(CARD_NAMES[c] for c in unpack(secret)) if secret != NONE else ""
        verb = "saw" if what == SAW else "reordered"
        return f"{who} {verb} the top {result} card(s)" + (f": {seen}" if seen else "")
    if what == DRY:
        return f"{who} had to draw from an empty pile: the game ends in a draw"
    if what == MARK:
        if result == NOTHING:
            return f"{who} marked nothing: {whom} holds no card"
        return f"{who} marked {whom}'s {CARD_NAMES[card]}" + (
            " (already marked)" if result == ALREADY_MARKED else "")
    if what == BOMB:
        return f"{who} put {result} kitten(s) on top of the shuffled pile"
    if what == GARBAGE:
        copy = " (the marked copy)" if result == MARKED_COPY else ""
        return f"{who} put {_card(known)}{copy} into the draw pile"
    if what in (BLIND_PLAY, BLIND_NOPE):
        outcome = {LOST: "lost", PLAYED: "played", EXPLODED: "it explodes"}[result]
        tried = "played blind" if what == BLIND_PLAY else "tried to Nope blind"
        if what == BLIND_NOPE and result == NOPED:
            outcome = "a Nope"
        return f"{who} {tried}: {CARD_NAMES[card]}, {outcome}"
    if what == TARGET:
        return f"{who} aimed the turned-up {CARD_NAMES[card]} at {whom}"
    if what == TURNED:
        return f"{who} turned up {CARD_NAMES[card]} looking for a defuse (lost)"
    if what == EXPLODE:
        return f"{who}'s held exploding_kitten goes off"
    return f"{who}: event {what}"  # pragma: no cover - every code is named above


__all__ = [
    "ALLOWED", "ALREADY_MARKED", "ALTERED", "ASK", "BASE_EVENTS", "BLIND_NOPE", "BLIND_PLAY",
    "BOMB", "DEFUSE", "DONE", "DRAW", "DRY", "EVENT_NAMES", "EXPLODE", "EXPLODED", "FIVE",
    "GARBAGE", "GIVE", "HIT", "INSERT", "LOST", "MARK", "MARKED_COPY", "MISS", "NAME", "NOPE",
    "NOPED", "NOTHING", "OUT", "PAIR", "PLAY", "PLAYED", "RESULTS", "SAW", "STEAL", "STOPPED",
    "TAKE", "TARGET", "THREE", "TURNED", "WINDOW", "choice_visibility", "describe_event",
    "event", "pack", "unpack",
]
