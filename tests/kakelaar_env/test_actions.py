"""The action table: readable names that parse back, the layout, the docs page, and the
readable moves derived from the masks."""

from __future__ import annotations

import importlib
import re

import pytest

from cardgym.errors import IllegalMoveError
from kakelaar_env import env, rules
from kakelaar_env.encoding.encoding import (
    ACTION_TABLE,
    NUM_ACTIONS,
    OBSERVATION_SPEC,
    action_to_move,
    legal_action_mask,
    move_to_action,
)
from kakelaar_env.engine.state import (
    BID,
    GAME_OVER,
    HEN_STAGE,
    PHASE_NAMES,
    TAKE_FIRST,
    TAKE_SECOND,
    Bid,
    HenChoice,
    Phase,
    TakeBack,
)


def test_every_name_parses_back_to_its_index() -> None:
    game = env(num_players=3)
    for index in range(NUM_ACTIONS):
        assert game.action_index(game.action_name(index)) == index


def test_layout() -> None:
    assert NUM_ACTIONS == 29
    assert ACTION_TABLE.names[0] == "bid:worm_1" and ACTION_TABLE.names[7] == "bid:worm_8"
    assert ACTION_TABLE.names[8] == "bid:chicken_3" and ACTION_TABLE.names[12] == "bid:chicken_7"
    assert ACTION_TABLE.names[13:15] == ("hen:none", "hen:play")
    assert ACTION_TABLE.names[15] == "take:worm_1" and ACTION_TABLE.names[27] == "take:chicken_7"
    assert ACTION_TABLE.names[28] == "pass"
    assert "bid:hen" not in ACTION_TABLE.names  # a mother hen can never be bid


def test_moves_and_actions_convert_both_ways() -> None:
    for move in [Bid(0), Bid(12), HenChoice(False), HenChoice(True), TakeBack(3), TakeBack(12)]:
        action = move_to_action(None, move)  # type: ignore[arg-type]
        assert action_to_move(None, action) == move  # type: ignore[arg-type]
    assert action_to_move(None, 28) is None  # type: ignore[arg-type]


def test_unknown_names_raise() -> None:
    with pytest.raises(IllegalMoveError, match="unknown action name"):
        env(num_players=2).action_index("bid:hen")


def test_docs_page_documents_options_rewards_and_every_field() -> None:
    module = importlib.import_module("kakelaar_env.env")
    doc = module.__doc__
    for word in ("`worm_counts`", "`reward`", "`final_tie`", "Rewards:", "Scenarios:",
                 "Version history", "Settled points"):
        assert word in doc
    for field in OBSERVATION_SPEC.fields:
        assert f"`{field.name}`" in doc
    assert "`bid:worm_1` .. `bid:chicken_7`" in doc and "`pass`" in doc


def test_legal_moves_are_the_mask_read_through_the_table() -> None:
    game = env(num_players=3)
    game.reset(seed=4)
    state = game.game_state
    while not rules.is_over(state):
        mask = legal_action_mask(state)
        moves = rules.legal_moves(state)
        assert [move_to_action(state, move) for move in moves] == [
            i for i in range(NUM_ACTIONS) if mask >> i & 1]
        assert all(action_to_move(state, move_to_action(state, m)) == m for m in moves)
        rules.apply(state, moves[-1])


def test_apply_refuses_an_illegal_move_naming_it_and_the_stage() -> None:
    game = env(num_players=2)
    game.reset(seed=0, options={"scenario": {"tractor": 0}})
    state = game.game_state
    before = state.clone()
    with pytest.raises(IllegalMoveError, match=re.escape(
            "Bid(card=0) is not legal for seat 0 in stage 'bid' (round 1)")):
        rules.apply(state, Bid(0))  # seat 0 holds chickens only
    with pytest.raises(IllegalMoveError, match="HenChoice\\(play=True\\) is not legal"):
        rules.apply(state, HenChoice(True))
    assert state == before


def test_the_seat_to_act_is_the_one_asked_now() -> None:
    game = env(num_players=4)
    game.reset(seed=2)
    while not rules.is_over(state := game.game_state):
        assert state.to_act == state.asked[state.cursor] == rules.to_act(state)
        assert game.agent_selection == f"player_{state.to_act}"
        game.step(game.legal_actions()[0])


def test_phases_are_an_int_enum_and_the_old_names_alias_it() -> None:
    assert (BID, HEN_STAGE, TAKE_FIRST, TAKE_SECOND, GAME_OVER) == tuple(Phase)
    assert [int(phase) for phase in Phase] == [0, 1, 2, 3, 4]
    assert PHASE_NAMES == ("bid", "hen", "take_first", "take_second", "game_over")
