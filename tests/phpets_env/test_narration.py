"""Power Hungry Pets's narration speaks of the viewer as "you", with verbs that agree
(describe_event, event by event)."""

from __future__ import annotations

from cardgym.record import NONE, TABLE, Event
from cardgym.registration import find_game


def test_power_hungry_pets_events_about_you() -> None:
    from phpets_env.display.record import ELIMINATED, MATCH_WON, NEW_ROUND, PLACE

    describe = find_game("power_hungry_pets").describe_event
    out = Event(TABLE, ELIMINATED, 1, 10)
    assert describe(out, 1, 3) == "you are out of the round, showing King Cat (10)"
    assert describe(out, 0, 3) == "player_1 is out of the round, showing King Cat (10)"
    assert describe(Event(TABLE, ELIMINATED, 2), 2, 3) == "you are out of the round"
    assert describe(Event(TABLE, NEW_ROUND, 2), 2, 3) == "a new round begins; you start"
    assert describe(Event(TABLE, MATCH_WON, 0), 0, 3) == "you won the match"
    place = Event(1, PLACE, NONE, NONE, NONE, 1, 0b10)
    assert describe(place, 1, 3) == "you put the card back into the pile with 1 card above it"
    top = Event(1, PLACE, NONE, NONE, NONE, 0, 0b10)
    assert describe(top, 1, 3) == "you put the card back on top of the pile"
