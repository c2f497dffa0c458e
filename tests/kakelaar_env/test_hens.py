"""The mother-hen step: a choice of two cards, a short discard pile, a player with only
hens, one hen per round, hens never bid, and what others see before the reveal."""

from __future__ import annotations

import numpy as np

from kakelaar_env.engine.cards import HEN, parse_card
from kakelaar_env.engine.state import BID, HEN_STAGE, TAKE_FIRST, TAKE_SECOND
from tests.kakelaar_env.helpers import fields, hand, legal_names, make_env, names, pile, run_stage

# Round 2: seat 0 holds the tractor and bids first.
HEN_GAME = {"round": 2, "tractor": 0, "deck_top": ["w3", "w2", "w1"],
            "hands": [["hen", "c3", "c5", "c6", "c7"], ["c3", "c4", "c5", "c6", "c7"],
                      ["c3", "c4", "c5", "c6", "c7"]],
            "discards": [["c4", "w6", "w2"], [], []]}


def test_mother_hen_takes_two_cards_of_choice_from_the_own_discard_pile() -> None:
    game = make_env(3, HEN_GAME)
    assert run_stage(game, {0: "c3", 1: "c7", 2: "c6"}) == [0, 1, 2]
    state = game.game_state
    assert state.phase == HEN_STAGE and state.asked == [0]  # only seat 0 holds a hen
    assert legal_names(game) == ["hen:none", "hen:play"]
    run_stage(game, {0: "hen:play"})
    assert state.phase == TAKE_FIRST and state.hens_out == 1
    assert legal_names(game) == ["take:worm_2", "take:worm_6", "take:chicken_3", "take:chicken_4"]
    run_stage(game, {0: "w6"})
    assert state.phase == TAKE_SECOND
    assert legal_names(game) == ["take:worm_2", "take:chicken_3", "take:chicken_4"]
    run_stage(game, {0: "c4"})
    assert hand(state, 0) == names("w1", "w6", "c4", "c5", "c6", "c7")
    assert pile(state, 0) == names("w2", "c3")
    assert state.phase == BID and state.round == 3 and state.circle[state.tractor] == 1


def test_cards_taken_back_are_hidden_until_the_reveal_then_public() -> None:
    game = make_env(3, HEN_GAME)
    run_stage(game, {0: "c3", 1: "c7", 2: "c6"})
    run_stage(game, {0: "hen:play"})
    before = fields(game, 1)
    game.step(game.action_index("take:worm_6"))  # seat 0's first pick
    during = fields(game, 1)
    changed = [name for name in before if not np.array_equal(before[name], during[name])]
    assert changed == ["phase"]  # take_first -> take_second: public, seat 0 takes two
    assert fields(game, 0)["my_picks"][parse_card("w6")] == 1
    game.step(game.action_index("take:chicken_4"))
    after = fields(game, 1)
    # Seat 0 is +2 clockwise from seat 1: opponent row 1; the picks are now in its hand.
    assert after["opponent_hands"][1][parse_card("w6")] == 1
    assert after["discards"][2][parse_card("w6")] == 0


def test_a_short_discard_pile_is_taken_back_whole_without_choosing() -> None:
    # One card in the pile (this round's bid): seat 0 takes it back, no take stage.
    game = make_env(3, {"tractor": 0, "deck_top": ["w3", "w2", "w1"],
                        "hands": [["hen", "c3", "c4", "c5", "c6", "c7"],
                                  ["c3", "c4", "c5", "c6", "c7"], ["c3", "c4", "c5", "c6", "c7"]]})
    run_stage(game, {0: "c3", 1: "c4", 2: "c5"})
    run_stage(game, {0: "hen:play"})
    state = game.game_state
    assert state.phase == BID and state.round == 2
    assert hand(state, 0) == names("w1", "c3", "c4", "c5", "c6", "c7")
    assert pile(state, 0) == []


def test_a_two_card_discard_pile_is_taken_back_whole() -> None:
    scenario = dict(HEN_GAME, discards=[["c4"], [], []],
                    hands=[["hen", "c3", "c5", "c6", "c7"], ["c3", "c4", "c5", "c6", "c7"],
                           ["c3", "c4", "c5", "c6", "c7"]])
    game = make_env(3, scenario)
    run_stage(game, {0: "c3", 1: "c7", 2: "c6"})
    run_stage(game, {0: "hen:play"})
    state = game.game_state
    assert state.phase == BID and pile(state, 0) == []
    assert hand(state, 0) == names("w1", "c3", "c4", "c5", "c6", "c7")


def test_a_player_with_only_hens_must_play_one() -> None:
    game = make_env(3, {"round": 2, "tractor": 0, "deck_top": ["hen", "w2", "w1"],
                        "hands": [["hen", "c7"], ["c3", "c4"], ["c4", "c5"]],
                        "discards": [["w3", "w4", "c3"], [], []]})
    assert legal_names(game) == ["bid:chicken_7"]  # a mother hen can never be bid
    run_stage(game, {0: "c7", 1: "c3", 2: "c4"})
    state = game.game_state
    assert hand(state, 0) == names("hen", "hen")
    assert state.phase == HEN_STAGE and state.current == 0
    assert legal_names(game) == ["hen:play"]
    run_stage(game, {0: "hen:play"})
    assert state.hands[0][HEN] == 1  # one hen per round
    run_stage(game, {0: "w4"})
    run_stage(game, {0: "c7"})
    assert hand(state, 0) == names("hen", "w4", "c7")


def test_only_hens_after_round_nine_need_not_be_played() -> None:
    game = make_env(3, {"round": 9, "tractor": 0, "deck_top": ["hen", "w2", "w1"],
                        "hands": [["hen", "c7"], ["c3"], ["c4"]],
                        "discards": [["w3"], [], []]})
    run_stage(game, {0: "c7", 1: "c3", 2: "c4"})
    assert legal_names(game) == ["hen:none", "hen:play"]


def test_hen_choices_are_hidden_until_all_are_in() -> None:
    game = make_env(3, {"tractor": 0, "deck_top": ["w3", "w2", "w1"],
                        "hands": [["hen", "c3", "c4"], ["hen", "c3", "c4"], ["c3", "c4"]]})
    run_stage(game, {0: "c3", 1: "c3", 2: "c3"})
    assert game.game_state.asked == [0, 1]
    before = fields(game, 1)
    game.step(game.action_index("hen:play"))  # seat 0, face down
    after = fields(game, 1)
    changed = [name for name in before if not np.array_equal(before[name], after[name])]
    assert changed == ["to_act"]
    assert fields(game, 0)["my_hen"][0] == 1
    game.step(game.action_index("hen:none"))
    assert game.game_state.hens_out == 1 and game.game_state.hands[0][HEN] == 0
