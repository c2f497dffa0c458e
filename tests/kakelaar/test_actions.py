"""The action table: readable names that parse back, the layout, and the docs page."""

from __future__ import annotations

import importlib

import pytest

from cardgym.errors import IllegalMoveError
from kakelaar_env import env
from kakelaar_env.encoding import (
    ACTION_TABLE,
    NUM_ACTIONS,
    OBSERVATION_SPEC,
    action_to_move,
    move_to_action,
)
from kakelaar_env.state import Bid, HenChoice, TakeBack


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
