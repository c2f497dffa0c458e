"""The events the Karel Kakelaar engine logs (:mod:`cardgym.record`), by code.

What each event's fields hold, and the order of a round's events, is documented in
:mod:`kakelaar_env.display.record`. Events are values: the engine appends shared instances
from the tables below, indexed by their integer fields (building a frozen dataclass
on every step would slow the engine measurably).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from cardgym.record import NONE, TABLE, Event
from kakelaar_env.engine.cards import MAX_PLAYERS, MAX_SCORE, NUM_BIDDABLE, NUM_TYPES, ROUNDS

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

#: Participant numbers 0..5 (the robot is 2 at two players).
PARTICIPANTS: Final = MAX_PLAYERS + 1
#: Row positions 1..5, as indices 0..4.
POSITIONS: Final = MAX_PLAYERS

ROUND_EVENTS: Final = tuple(tuple(Event(TABLE, ROUND, target=holder, result=r)
                                  for holder in range(PARTICIPANTS))
                            for r in range(ROUNDS + 1))
BID_FACE_DOWN_EVENTS: Final = tuple(tuple(Event(seat, BID_FACE_DOWN, secret=card,
                                                seen_by=1 << seat)
                                          for card in range(NUM_BIDDABLE))
                                    for seat in range(MAX_PLAYERS))
#: ``BID_EVENTS[participant][card + 1]``: index 0 is "bid nothing".
BID_EVENTS: Final = tuple(tuple(Event(TABLE, BID, target=p, card=card)
                                for card in range(NONE, NUM_BIDDABLE))
                          for p in range(PARTICIPANTS))
TOOK_EVENTS: Final = tuple(tuple(tuple(Event(TABLE, TOOK, target=p, card=card, result=position + 1)
                                       for card in range(NUM_TYPES))
                                 for position in range(POSITIONS))
                           for p in range(PARTICIPANTS))
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
