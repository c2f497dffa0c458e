"""Karel Kakelaar's narration speaks of the viewer as "you", with verbs that agree
(describe_event, event by event)."""

from __future__ import annotations

from cardgym.record import NONE, TABLE, Event
from cardgym.registration import find_game


def test_karel_kakelaar_events_about_you() -> None:
    from kakelaar_env.display.record import ROUND, SCORE, WINNER

    describe = find_game("karel_kakelaar").describe_event
    assert describe(Event(TABLE, ROUND, 0, NONE, 1), 0, 3) == (
        "round 1 begins; you hold the tractor")
    assert describe(Event(TABLE, ROUND, 0, NONE, 1), 1, 3) == (
        "round 1 begins; player_0 holds the tractor")
    assert describe(Event(TABLE, SCORE, 1, NONE, 1), 1, 3) == "you have 1 worm in hand"
    assert describe(Event(TABLE, SCORE, 1, NONE, 5), 0, 3) == "player_1 has 5 worms in hand"
    assert describe(Event(TABLE, WINNER, 2), 2, 3) == "you win"
    assert describe(Event(TABLE, WINNER, 2), 0, 3) == "player_2 wins"
