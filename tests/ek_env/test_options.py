"""Option validation (docs/rules/exploding_kittens.md: every option validated with a clear error) and
malformed scenarios."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import ek_env
from cardgym.errors import OptionError, ScenarioError
from ek_env import rules
from ek_env.engine.state import Config
from tests.ek_env.helpers import DEFUSE, KITTEN, SKIP, TACO, cards, deck_top_first

# (option, bad value, words the message must contain: the allowed values)
BAD_OPTIONS = [
    ("num_players", 1, ["2", "9"]),
    ("num_players", 10, ["2", "9"]),
    ("num_players", "3", ["2", "9"]),
    ("num_players", True, ["2", "9"]),
    ("hand_size", 5, ["7", "4"]),
    ("hand_size", "7", ["7", "4"]),
    ("deck_defuses", "x", ["'seed'", "'2024'"]),
    ("deck_defuses", 2024, ["'seed'", "'2024'"]),
    ("attack_stacking", "stacked", ["'reset'", "'stack'"]),
    ("combos", "yes", ["True", "False"]),
    ("combos", 1, ["True", "False"]),
    ("empty_hand_target", "never", ["'allowed'", "'forbidden'"]),
    ("eliminated_cards", "box", ["'discard'", "'out_of_play'"]),
]


@pytest.mark.parametrize(("name", "value", "allowed"), BAD_OPTIONS)
def test_config_rejects_bad_option(name: str, value: Any, allowed: list[str]) -> None:
    with pytest.raises(OptionError) as info:
        Config(**{name: value})
    message = str(info.value)
    assert name in message
    for word in allowed:
        assert word in message


@pytest.mark.parametrize(("name", "value", "allowed"), BAD_OPTIONS)
def test_env_rejects_bad_option(name: str, value: Any, allowed: list[str]) -> None:
    with pytest.raises(OptionError) as info:
        ek_env.env(**{name: value})
    for word in allowed:
        assert word in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [("num_players", 2), ("num_players", 9), ("hand_size", 4), ("deck_defuses", "2024"),
     ("attack_stacking", "stack"), ("combos", False), ("empty_hand_target", "forbidden"),
     ("eliminated_cards", "out_of_play")],
)
def test_good_options_are_accepted(name: str, value: Any) -> None:
    config = Config(**{name: value})
    assert getattr(config, name) == value
    game = ek_env.env(**{name: value})
    assert game.config == config


def test_defaults_follow_the_seed() -> None:
    assert Config() == Config(num_players=2, hand_size=7, deck_defuses="seed",
                              attack_stacking="reset", combos=True,
                              empty_hand_target="allowed", eliminated_cards="discard")


# ------------------------------------------------------------------ scenarios

GOOD = {"hands": [["defuse", "taco_cat"], ["skip"]], "deck": ["exploding_kitten", "beard_cat"]}

# (name, players, scenario changes, words in the message)
BAD_SCENARIOS: list[tuple[str, int, dict[str, Any], str]] = [
    ("unknown card name", 2, {"hands": [["dragon"], []]}, "dragon"),
    ("unknown card in deck", 2, {"deck": ["exploding_kitten", "joker"]}, "joker"),
    ("kind number out of range", 2, {"hands": [[13], []]}, "13"),
    ("no kitten", 2, {"deck": ["beard_cat"]}, "exploding_kitten"),
    ("too many kittens", 2, {"deck": ["exploding_kitten", "exploding_kitten"]}, "1"),
    ("wrong kitten count, 3 players", 3,
     {"hands": [[], [], []], "deck": ["exploding_kitten"]}, "2"),
    ("kitten in a hand", 2, {"hands": [["exploding_kitten"], []]}, "kitten"),
    ("too many copies", 2, {"hands": [["defuse"] * 4, ["defuse"] * 3]}, "defuse"),
    ("too many copies with discard", 2, {"discard": ["taco_cat"] * 4}, "taco_cat"),
    ("five kittens", 2, {"discard": ["exploding_kitten"] * 4}, "exploding_kitten"),
    ("first_player too big", 2, {"first_player": 2}, "first_player"),
    ("first_player negative", 2, {"first_player": -1}, "first_player"),
    ("first_player a string", 2, {"first_player": "0"}, "first_player"),
    ("owed_turns zero", 2, {"owed_turns": 0}, "owed_turns"),
    ("attacked not a bool", 2, {"attacked": "yes"}, "attacked"),
    ("unknown key", 2, {"deck_top": ["skip"]}, "deck_top"),
    ("hands for the wrong table", 2, {"hands": [["skip"]]}, "hands"),
    ("hand not a list", 2, {"hands": ["skip", []]}, "hands[0]"),
]


@pytest.mark.parametrize(("players", "changes", "words"), [c[1:] for c in BAD_SCENARIOS],
                         ids=[c[0] for c in BAD_SCENARIOS])
def test_malformed_scenario(players: int, changes: dict[str, Any], words: str) -> None:
    scenario = {**GOOD, **changes}
    with pytest.raises(ScenarioError, match=re.escape(words)):
        rules.new_game(Config(num_players=players), np.random.default_rng(0), scenario)


def test_missing_deck_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match="deck"):
        rules.new_game(Config(), np.random.default_rng(0), {"hands": [[], []]})


def test_env_reset_rejects_a_malformed_scenario() -> None:
    game = ek_env.env()
    with pytest.raises(ScenarioError):
        game.reset(seed=0, options={"scenario": {**GOOD, "hands": [["dragon"], []]}})


def test_a_scenario_places_every_card() -> None:
    scenario = {**GOOD, "discard": ["skip"], "first_player": 1, "owed_turns": 2}
    state = rules.new_game(Config(), np.random.default_rng(0), scenario)
    assert cards(state, 0) == [DEFUSE, TACO] and cards(state, 1) == [SKIP]
    assert deck_top_first(state) == [KITTEN, 12]
    assert state.discard[SKIP] == 1
    assert (state.turn_holder, state.to_act, state.owed, state.attacked) == (1, 1, 2, True)
    assert state.box[KITTEN] == 3 and state.box[DEFUSE] == 5


def test_two_decks_allow_more_copies() -> None:
    scenario = {"hands": [["defuse"] * 7] + [[]] * 5,
                "deck": ["exploding_kitten"] * 5}
    state = rules.new_game(Config(num_players=6), np.random.default_rng(0), scenario)
    assert state.hands[0][DEFUSE] == 7
    with pytest.raises(ScenarioError):
        rules.new_game(Config(num_players=6), np.random.default_rng(0),
                       {**scenario, "hands": [["defuse"] * 13] + [[]] * 5})
