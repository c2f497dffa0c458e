"""Exploding Kittens's narration speaks of the viewer as "you", with verbs that agree
(describe_event, event by event)."""

from __future__ import annotations

from cardgym.record import NONE, Event
from cardgym.registration import find_game


def test_exploding_kittens_events_about_you() -> None:
    from ek_env.engine import record as R
    from ek_env.engine.cards import CARD_NAMES

    describe = find_game("exploding_kittens").describe_event
    skip = list(CARD_NAMES).index("skip")
    kitten = list(CARD_NAMES).index("exploding_kitten")
    assert describe(Event(1, R.STEAL, 0, NONE, R.NOTHING), 0, 3) == (
        "player_1 found your hand empty")
    assert describe(Event(1, R.STEAL, 2, NONE, R.NOTHING), 0, 3) == (
        "player_1 found player_2's hand empty")
    assert describe(Event(1, R.MARK, 0, skip, R.DONE), 0, 3) == "player_1 marked your skip"
    assert describe(Event(1, R.MARK, 0, NONE, R.NOTHING), 0, 3) == (
        "player_1 marked nothing: you hold no card")
    assert describe(Event(1, R.MARK, 2, NONE, R.NOTHING), 0, 3) == (
        "player_1 marked nothing: player_2 holds no card")
    assert describe(Event(0, R.EXPLODE, NONE, kitten), 0, 3) == (
        "your held exploding_kitten goes off")
    assert describe(Event(0, R.EXPLODE, NONE, kitten), 1, 3) == (
        "player_0's held exploding_kitten goes off")
    own_play = Event(0, R.NOPE, 0, list(CARD_NAMES).index("nope"), 1)
    assert describe(own_play, 0, 3) == "you noped your own play"
    assert describe(own_play, 1, 3) == "player_0 noped their own play"
    assert describe(Event(2, R.NOPE, 0, NONE, 2), 0, 3) == "player_2 noped your nope"
    assert describe(Event(0, R.OUT), 0, 3) == "you exploded and are out"
    assert describe(Event(0, R.OUT), 1, 3) == "player_0 exploded and is out"
