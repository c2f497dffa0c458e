"""The public record of a Karel Kakelaar game (:mod:`cardgym.record`), in words too.

The engine appends an :class:`~cardgym.record.Event` to ``state.log`` for each
thing that happens at the table. Commits are face down: the event says who
committed and carries the choice as a secret that only the committing seat saw.
Reveals are public and come from the table (``actor`` is :data:`TABLE`, ``target``
the participant concerned), so that a seat's own last event is its own last move.
Participants are the seats ``0..n-1`` and, with two players, the robot chicken as
participant ``2`` (:data:`kakelaar_env.state.State.robot`).

==============  =======  ===========  ==============  ===================  ==========
``what``        actor    target       card            result               secret
==============  =======  ===========  ==============  ===================  ==========
ROUND           TABLE    tractor      -               round 1..9           -
BID_FACE_DOWN   seat     -            -               -                    card bid
BID             TABLE    participant  card bid (or    -                    -
                                      NONE: nothing)
TOOK            TABLE    participant  row card        position 1..5        -
HEN_FACE_DOWN   seat     -            -               -                    1 hen, 0 no
HEN             TABLE    seat         -               0 no, 1 yes, 2 had   -
                                                      to (only hens)
PICK_FACE_DOWN  seat     -            -               pick 1 or 2          card
TAKE            TABLE    seat         card taken      0 whole pile, 1      -
                                      back            chosen
SCORE           TABLE    seat         -               worms in hand        -
WINNER          TABLE    seat         -               -                    -
==============  =======  ===========  ==============  ===================  ==========

A round's events: ROUND (the round begins; the row is turned up, and shown in the
observation until the reveal), the BID_FACE_DOWN commits in turn order, then at the
reveal a BID and a TOOK per participant, in rank order (every row card is taken, so
the TOOK events name the whole row); then
HEN_FACE_DOWN commits, a HEN per seat asked, TAKE for each card taken back at once
(a discard pile of two cards or fewer), PICK_FACE_DOWN commits and TAKE for each card
picked. After round 9: a SCORE per seat and a WINNER per winner.

Events are values: the engine appends shared instances from the tables below
(building a frozen dataclass on every step would slow the engine measurably).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from cardgym.record import NONE, TABLE, Event
from kakelaar_env.cards import (
    MAX_PLAYERS,
    MAX_SCORE,
    NUM_BIDDABLE,
    NUM_ROW_TYPES,
    NUM_TYPES,
    ROUNDS,
    ROW_SLOT,
    TYPE_NAMES,
)

if TYPE_CHECKING:
    from kakelaar_env.state import State

ROUND: Final = 0
BID_FACE_DOWN: Final = 1
BID: Final = 2
TOOK: Final = 3
HEN_FACE_DOWN: Final = 4
HEN: Final = 5
PICK_FACE_DOWN: Final = 6
TAKE: Final = 7
SCORE: Final = 8
WINNER: Final = 9
EVENT_NAMES: Final = ("round", "bid_face_down", "bid", "took", "hen_face_down", "hen",
                      "pick_face_down", "take", "score", "winner")

#: ``result`` of a HEN event.
NO_HEN: Final = 0
HEN_PLAYED: Final = 1
HEN_FORCED: Final = 2
#: ``result`` of a TAKE event.
WHOLE_PILE: Final = 0
CHOSEN: Final = 1

_PARTICIPANTS: Final = MAX_PLAYERS + 1  # participant numbers 0..5 (the robot is 2 at 2 players)
_POSITIONS: Final = MAX_PLAYERS

# Shared event instances, indexed by their integer fields.
ROUND_EVENTS: Final = tuple(tuple(Event(TABLE, ROUND, target=holder, result=r)
                                  for holder in range(_PARTICIPANTS))
                            for r in range(ROUNDS + 1))
BID_FACE_DOWN_EVENTS: Final = tuple(tuple(Event(seat, BID_FACE_DOWN, secret=card,
                                                seen_by=1 << seat)
                                          for card in range(NUM_BIDDABLE))
                                    for seat in range(MAX_PLAYERS))
#: ``BID_EVENTS[participant][card + 1]``: index 0 is "bid nothing".
BID_EVENTS: Final = tuple(tuple(Event(TABLE, BID, target=p, card=card)
                                for card in range(NONE, NUM_BIDDABLE))
                          for p in range(_PARTICIPANTS))
TOOK_EVENTS: Final = tuple(tuple(tuple(Event(TABLE, TOOK, target=p, card=card, result=position + 1)
                                       for card in range(NUM_TYPES))
                                 for position in range(_POSITIONS))
                           for p in range(_PARTICIPANTS))
HEN_FACE_DOWN_EVENTS: Final = tuple(tuple(Event(seat, HEN_FACE_DOWN, secret=play, seen_by=1 << seat)
                                          for play in (0, 1))
                                    for seat in range(MAX_PLAYERS))
HEN_EVENTS: Final = tuple(tuple(Event(TABLE, HEN, target=seat, result=result)
                                for result in (NO_HEN, HEN_PLAYED, HEN_FORCED))
                          for seat in range(MAX_PLAYERS))
#: ``PICK_FACE_DOWN_EVENTS[seat][pick - 1][card]``.
PICK_FACE_DOWN_EVENTS: Final = tuple(tuple(tuple(Event(seat, PICK_FACE_DOWN, result=pick,
                                                       secret=card, seen_by=1 << seat)
                                                 for card in range(NUM_BIDDABLE))
                                           for pick in (1, 2))
                                     for seat in range(MAX_PLAYERS))
#: ``TAKE_EVENTS[seat][mode][card]``, mode WHOLE_PILE or CHOSEN.
TAKE_EVENTS: Final = tuple(tuple(tuple(Event(TABLE, TAKE, target=seat, card=card, result=mode)
                                       for card in range(NUM_BIDDABLE))
                                 for mode in (WHOLE_PILE, CHOSEN))
                           for seat in range(MAX_PLAYERS))
SCORE_EVENTS: Final = tuple(tuple(Event(TABLE, SCORE, target=seat, result=total)
                                  for total in range(MAX_SCORE + 1))
                            for seat in range(MAX_PLAYERS))
WINNER_EVENTS: Final = tuple(Event(TABLE, WINNER, target=seat) for seat in range(MAX_PLAYERS))

# The face-down events with their secret blanked, by the id of the shared instance (the
# shared instances live as long as the module, so their ids are never reused).
_BLANKED: Final = {
    id(event): replace(event, secret=NONE, seen_by=0)
    for table in (BID_FACE_DOWN_EVENTS, HEN_FACE_DOWN_EVENTS)
    for row in table for event in row
} | {id(event): replace(event, secret=NONE, seen_by=0)
     for row in PICK_FACE_DOWN_EVENTS for picks in row for event in picks}


def blank_secret(event: Event) -> Event:
    """``event`` with its secret blanked (the shared instance for the engine's own
    face-down events): for :func:`cardgym.record.blank_unseen`."""
    return _BLANKED.get(id(event)) or replace(event, secret=NONE, seen_by=0)


# ------------------------------------------------------------- round digest
# What each participant did in the newest revealed round, one row of DIGEST_WIDTH
# bytes per participant (the seats, then the robot), as the observation lays it out.
DIGEST_POSITION: Final = 0  # one-hot row position taken, 1..5
DIGEST_TOOK: Final = DIGEST_POSITION + _POSITIONS  # one-hot row card taken: worm_1..8, hen
DIGEST_NO_BID: Final = DIGEST_TOOK + NUM_ROW_TYPES  # 1: had no card to bid
DIGEST_HEN: Final = DIGEST_NO_BID + 1  # 1: played a mother hen
DIGEST_FORCED: Final = DIGEST_HEN + 1  # 1: had to (only hens in hand)
DIGEST_TAKEN: Final = DIGEST_FORCED + 1  # count of each biddable type taken back
DIGEST_WIDTH: Final = DIGEST_TAKEN + NUM_BIDDABLE


def _took_row(position: int, card: int, no_bid: int) -> bytes:
    row = bytearray(DIGEST_WIDTH)
    row[DIGEST_POSITION + position] = 1
    row[DIGEST_TOOK + ROW_SLOT[card]] = 1
    row[DIGEST_NO_BID] = no_bid
    return bytes(row)


#: ``DIGEST_TOOK_ROWS[position][card][no_bid]``: a participant's digest row right after
#: the reveal (the engine joins them instead of writing byte by byte: it is faster).
DIGEST_TOOK_ROWS: Final = tuple(tuple(tuple(_took_row(position, card, no_bid) if ROW_SLOT[card] >= 0
                                            else b"" for no_bid in (0, 1))
                                      for card in range(NUM_TYPES))
                                for position in range(_POSITIONS))
DIGEST_EMPTY_ROW: Final = bytes(DIGEST_WIDTH)


def digest_event(rows: bytearray, event: Event, num_players: int) -> None:
    """Write what ``event`` shows into the digest ``rows`` (events of other kinds,
    face-down ones included, change nothing)."""
    what = event.what
    if what == TOOK:
        row = min(event.target, num_players) * DIGEST_WIDTH
        rows[row + DIGEST_POSITION + event.result - 1] = 1
        rows[row + DIGEST_TOOK + ROW_SLOT[event.card]] = 1
    elif what == TAKE:
        rows[event.target * DIGEST_WIDTH + DIGEST_TAKEN + event.card] += 1
    elif what == HEN:
        if event.result != NO_HEN:
            row = event.target * DIGEST_WIDTH
            rows[row + DIGEST_HEN] = 1
            rows[row + DIGEST_FORCED] = event.result == HEN_FORCED
    elif what == BID and event.card == NONE:
        rows[min(event.target, num_players) * DIGEST_WIDTH + DIGEST_NO_BID] = 1


def round_digest(events: list[Event], num_players: int) -> bytes:
    """The digest of a round's events from its bid reveal on (the engine keeps it as
    it goes, in ``state.round_digest``; the invariants check the two agree)."""
    rows = bytearray((num_players + 1) * DIGEST_WIDTH)
    for event in events:
        if event.what == ROUND:
            break  # the next round begins
        digest_event(rows, event, num_players)
    return bytes(rows)


# ------------------------------------------------------------- what is seen


def choice_visibility(state: State, action: int) -> tuple[Hashable, int]:
    """What the table sees of the seat to act choosing ``action`` now (RULES.md §1, §5).

    Every choice of a stage is committed face down: a bid, playing a mother hen or
    not, a card to take back. The other seats see that the seat committed, not what,
    until the stage's last commit, which turns every choice up at once; so the last
    commit's alternatives are public (each shows a different card, or a hen played or
    not). The two cards a hen player takes back are one stage in two picks: the last
    first pick reveals nothing (the second picks follow face down), the last second
    pick reveals both cards of every taker. Only the actor sees the secret.

    Returns:
        ``(public, parties)``: what every seat sees, and the bit mask of the seats
        that see the secret (the actor alone).
    """
    from kakelaar_env.encoding import ACTION_SPECS
    from kakelaar_env.state import TAKE_FIRST

    actor = state.current
    kind, card = ACTION_SPECS[action]
    last = state.cursor == len(state.asked) - 1
    if state.phase == TAKE_FIRST or not last:
        return ("face down", state.phase, actor), 1 << actor
    return ("revealed", kind, card), 1 << actor


# ------------------------------------------------------------------- words


def _name(participant: int, seat: int, num_players: int) -> str:
    if participant == seat:
        return "you"
    if num_players == 2 and participant == 2:
        return "the robot"
    return f"player_{participant}"


def describe_event(event: Event, seat: int, num_players: int) -> str:
    """One line of English for ``event`` as ``seat`` saw it (already passed through
    ``event.as_seen_by(seat)``; ``seat`` = :data:`TABLE` for the full view, where
    secrets show and nobody is "you")."""
    what = event.what
    target = _name(event.target, seat, num_players)
    secret = event.secret
    if what == ROUND:
        holds = "hold" if event.target == seat else "holds"
        return f"round {event.result} begins; {target} {holds} the tractor"
    if what in (BID_FACE_DOWN, HEN_FACE_DOWN, PICK_FACE_DOWN):
        actor = _name(event.actor, seat, num_players)
        if what == BID_FACE_DOWN:
            choice = "a card" if secret == NONE else TYPE_NAMES[secret]
            return f"{actor} bid {choice} face down"
        if what == HEN_FACE_DOWN:
            choice = ("whether to play a mother hen" if secret == NONE
                      else "to play a mother hen" if secret else "to play no mother hen")
            return f"{actor} chose {choice}, face down"
        which = "first" if event.result == 1 else "second"
        choice = "a card" if secret == NONE else TYPE_NAMES[secret]
        return f"{actor} picked {choice} to take back ({which} pick), face down"
    if what == BID:
        if event.card == NONE:
            return f"{target} had no card to bid and bid nothing"
        return f"{target} bid {TYPE_NAMES[event.card]} (revealed)"
    if what == TOOK:
        gone = " (out of the game)" if target == "the robot" else ""
        return f"{target} took position {event.result}: {TYPE_NAMES[event.card]}{gone}"
    if what == HEN:
        if event.result == NO_HEN:
            return f"{target} played no mother hen"
        forced = " (only hens in hand: had to)" if event.result == HEN_FORCED else ""
        return f"{target} played a mother hen{forced}"
    if what == TAKE:
        how = "the whole discard pile" if event.result == WHOLE_PILE else "the discard pile"
        return f"{target} took {TYPE_NAMES[event.card]} back from {how}"
    if what == SCORE:
        has = "have" if event.target == seat else "has"
        return f"{target} {has} {event.result} worms in hand"
    if what == WINNER:
        verb = "win" if event.target == seat else "wins"
        return f"{target} {verb}"
    return f"event {what} (unknown)"


__all__ = [
    "BID", "BID_FACE_DOWN", "CHOSEN", "EVENT_NAMES", "HEN", "HEN_FACE_DOWN", "HEN_FORCED",
    "HEN_PLAYED", "NO_HEN", "PICK_FACE_DOWN", "ROUND", "SCORE", "TAKE",
    "TOOK", "WHOLE_PILE", "WINNER", "choice_visibility", "describe_event", "digest_event",
    "blank_secret", "round_digest",
]
