"""Scenarios through reset(options=...): what they set up, and malformed ones rejected
with a clear ScenarioError that changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from cardgym.errors import ScenarioError
from kakelaar_env import env
from kakelaar_env.engine.cards import parse_card
from tests.kakelaar_env.helpers import hand, make_env, names, pile


def test_deck_top_robot_deck_hands_and_tractor_are_placed() -> None:
    game = make_env(2, {"tractor": 1, "deck_top": ["w8", "hen", "w1", "w7"],
                        "robot_deck": ["c5", "c5"], "hands": [["c3", "w4"], ["c7", "hen"]],
                        "discards": [["c4"], []]})
    state = game.game_state
    assert state.row == [parse_card("w8"), parse_card("hen"), parse_card("w1")]
    assert state.deck[-1] == parse_card("w7")  # next round's position 1
    assert state.robot_deck[-2:] == [parse_card("c5")] * 2
    assert state.circle == (1, 0, 2) and state.tractor == 0
    assert hand(state, 0) == names("w4", "c3") and pile(state, 0) == names("c4")
    assert game.agent_selection == "player_1"


def test_whole_deck_and_later_round() -> None:
    deck = ["w1", "w2", "w3", "w4", "w5", "w6"]  # rounds 8 and 9, three per round
    game = make_env(3, {"round": 8, "tractor": 1, "deck": deck})
    state = game.game_state
    assert state.round == 8 and state.circle[state.tractor] == 1  # the holder in round 8
    assert state.row == [parse_card(c) for c in deck[:3]]
    assert state.deck == [parse_card(c) for c in reversed(deck[3:])]
    assert len(state.removed) == 45 - 6


def test_unnamed_cards_are_dealt_at_random() -> None:
    rows = {tuple(make_env(4, {"deck_top": ["w8"]}, seed=s).game_state.row) for s in range(6)}
    assert len(rows) > 1 and all(row[0] == parse_card("w8") for row in rows)


BAD = [
    ({"colour": "red"}, "unknown scenario keys"),
    ("hands", "must be a mapping"),
    ({"deck": ["w1"], "deck_top": ["w1"]}, "either 'deck'"),
    ({"deck_top": ["w9"]}, "unknown card 'w9'"),
    ({"deck_top": ["c3"]}, "worms and hens only"),
    ({"deck_top": ["w8"] * 5}, "names worm_8 5 times; the game has 4"),
    ({"deck": ["w1"] * 3}, "holds 27 cards"),
    ({"deck_top": ["w1"] * 28}, "holds 27 cards"),
    ({"robot_deck": ["c3"]}, "two-player game only"),
    ({"tractor": 3}, "tractor must be an integer 0..2"),
    ({"round": 0}, "round must be an integer 1..9"),
    ({"round": 10}, "round must be an integer 1..9"),
    ({"hands": [["c3"], ["c3"]]}, "one list of cards for each of the 3 seats"),
    ({"hands": [["c3", "c3"], [], []]}, "chicken_3 2 times"),
    ({"discards": [["hen"], [], []]}, "holds a hen"),
    ({"hands": [["c3"], [], []], "discards": [["c3"], [], []]}, "chicken_3 2 times"),
    ({"hands": [["hen"] * 10, [], []]}, "names hen 10 times"),
]


@pytest.mark.parametrize(("scenario", "message"), BAD)
def test_malformed_scenarios_raise_and_change_nothing(scenario: object, message: str) -> None:
    game = env(num_players=3)
    game.reset(seed=1)
    before = game.game_state.clone()
    with pytest.raises(ScenarioError, match=message):
        game.reset(options={"scenario": scenario})
    assert game.game_state == before


def test_robot_deck_errors() -> None:
    game = env(num_players=2)
    with pytest.raises(ScenarioError, match="the robot has 3 of each value"):
        game.reset(options={"scenario": {"robot_deck": ["c3"] * 4}})
    with pytest.raises(ScenarioError, match="chickens 3..7 only"):
        game.reset(options={"scenario": {"robot_deck": ["w3"]}})
    with pytest.raises(ScenarioError, match="holds 7 cards from round 9"):
        game.reset(options={"scenario": {"round": 9, "robot_deck": ["c3"] * 3 + ["c4"] * 3
                                         + ["c5"] * 2}})


def test_too_few_cards_left_for_the_draw_pile() -> None:
    game = env(num_players=5)
    with pytest.raises(ScenarioError, match="draw pile needs"):
        game.reset(options={"scenario": {"hands": [["w1"], [], [], [], []]}})


def test_numpy_seat_and_round_values_are_accepted() -> None:
    game = make_env(3, {"tractor": np.int64(2), "round": np.int64(2)})
    assert game.game_state.round == 2


def test_with_a_row_the_deck_is_the_pile_beneath_it() -> None:
    deck = ["w1", "w2", "w3"]  # round 9's row comes from it: round 8's is given
    game = make_env(3, {"round": 8, "tractor": 0, "row": ["w8", "w7", "w6"], "deck": deck})
    state = game.game_state
    assert state.row == [parse_card(c) for c in ("w8", "w7", "w6")]
    assert state.deck == [parse_card(c) for c in reversed(deck)]
    with pytest.raises(ScenarioError, match="beneath the row of round 8 holds 3 cards"):
        make_env(3, {"round": 8, "row": ["w8", "w7", "w6"], "deck": deck * 2})


def test_after_the_bids_the_deck_holds_the_rows_to_come() -> None:
    deck = ["w1", "w2", "w3"]
    game = make_env(3, {"round": 8, "phase": "hen", "tractor": 0, "deck": deck,
                        "hands": [["hen", "c3"], ["c4"], ["c5"]]})
    state = game.game_state
    assert state.row == [] and state.deck == [parse_card(c) for c in reversed(deck)]
    with pytest.raises(ScenarioError, match="after round 8's row holds 3 cards"):
        make_env(3, {"round": 8, "phase": "hen", "deck": deck * 2,
                     "hands": [["hen", "c3"], ["c4"], ["c5"]]})


def test_a_scenario_naming_every_card_draws_nothing() -> None:
    """With ``deck`` and ``removed`` every worm and hen is placed: nothing is dealt."""
    deck = ["w1", "w2", "w3", "w4", "w5"]  # round 9 at five players: the row only
    removed = [c for c, count in zip(["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"],
                                     (5, 5, 5, 5, 4, 4, 4, 4), strict=True)
               for _ in range(count)] + ["hen"] * 9
    for card in deck:
        removed.remove(card)
    scenario = {"round": 9, "tractor": 3, "deck": deck, "removed": removed}
    game = env(num_players=5)
    game.reset(seed=0, options={"scenario": scenario})
    first = game.game_state
    game.reset(seed=1, options={"scenario": scenario})
    assert game.game_state == first and first.removed == [parse_card(c) for c in removed]


def test_a_round_one_scenario_keeps_its_meaning() -> None:
    """``tractor`` names the holder in the scenario's round: for round 1, the first
    holder, as before."""
    for num_players in (2, 3):
        state = make_env(num_players, {"tractor": 1}).game_state
        assert state.circle[state.tractor] == 1 and state.current == 1
