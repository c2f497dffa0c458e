"""The Exploding Kittens AEC env: rewards, agents leaving, scenarios, names, rendering."""

from __future__ import annotations

from typing import Any

import numpy as np
import pettingzoo
import pytest

import cardgym  # noqa: F401  (registers the environments)
from cardgym.errors import IllegalMoveError, OptionError, ScenarioError
from ek_env import env as make_env
from ek_env.encoding.encoding import (
    ACTION_TABLE,
    NUM_ACTIONS,
    OBSERVATION_SPEC,
    legal_action_indices,
)


def scenario_env(hands: list[list[str]], deck: list[str], first: int = 0,
                 **options: Any) -> Any:
    game = make_env(num_players=len(hands), **options)
    game.reset(seed=0, options={"scenario": {"hands": hands, "deck": deck,
                                             "first_player": first}})
    return game


def act(game: Any, name: str) -> None:
    game.step(game.action_index(name))


def test_registered_id_builds_the_env_with_options() -> None:
    game = pettingzoo.make("aec", "cardgym/exploding_kittens-v2", num_players=5, hand_size=4)
    game.reset(seed=1)
    assert game.possible_agents == [f"player_{i}" for i in range(5)]
    sizes = OBSERVATION_SPEC.unpack(game.observe("player_0")["observation"])["hand_sizes"]
    assert sizes[:5].tolist() == [5] * 5


def test_two_player_explosion_ends_the_game_with_plus_and_minus_one() -> None:
    game = scenario_env([["skip"], ["taco_cat"]], ["exploding_kitten", "attack"])
    act(game, "draw")  # player_0 has no Defuse
    assert game.terminations == {"player_0": True, "player_1": True}
    assert game._cumulative_rewards == {"player_0": -1.0, "player_1": 1.0}


def test_an_exploded_player_leaves_with_minus_one_and_the_others_play_on() -> None:
    game = scenario_env([["skip"], ["defuse"], ["nope"]],
                        ["exploding_kitten", "taco_cat", "exploding_kitten"])
    act(game, "draw")
    assert game.agent_selection == "player_0"  # the dead agent steps None first
    _, reward, terminated, _, _ = game.last()
    assert terminated and reward == -1.0
    game.step(None)
    assert game.agents == ["player_1", "player_2"]
    assert game.agent_selection == "player_1"
    assert game._cumulative_rewards["player_1"] == 0.0


def test_the_last_player_standing_gets_plus_one() -> None:
    game = scenario_env([["skip"], ["taco_cat"], ["nope"]],
                        ["exploding_kitten", "exploding_kitten", "attack"])
    act(game, "draw")  # player_0 out
    game.step(None)
    act(game, "draw")  # player_1 out: player_2 wins
    rewards = {}
    for agent in game.agent_iter():
        _, reward, terminated, _, _ = game.last()
        assert terminated
        rewards[agent] = reward
        game.step(None)
    assert rewards == {"player_1": -1.0, "player_2": 1.0}


def test_a_defused_kitten_goes_back_at_the_chosen_depth() -> None:
    game = scenario_env([["defuse"], ["nope"]], ["exploding_kitten", "skip", "favor"])
    act(game, "draw")
    legal = [game.action_name(i) for i in game.legal_actions()]
    assert legal == ["insert:depth=0", "insert:depth=1", "insert:depth=2"]
    act(game, "insert:depth=1")
    assert game.game_state.deck[::-1] == [3, 0, 4]  # skip, kitten, favor (top first)
    assert game.agent_selection == "player_1"


def test_action_names_parse_back_and_describe_every_action() -> None:
    assert len(ACTION_TABLE) == NUM_ACTIONS
    for index, name in enumerate(ACTION_TABLE.names):
        assert ACTION_TABLE.index(name) == index
        assert ACTION_TABLE.descriptions[index]
    assert ACTION_TABLE.index("pair:taco_cat:+2") == ACTION_TABLE.index("pair:taco_cat:+1") + 1


def test_illegal_action_raises_naming_legal_ones_and_changes_nothing() -> None:
    game = scenario_env([["skip"], ["nope"]], ["taco_cat", "exploding_kitten"])
    before = game.game_state.clone()
    with pytest.raises(IllegalMoveError, match=r"legal: draw, play:skip"):
        act(game, "play:attack")
    assert game.game_state == before
    assert legal_action_indices(game.game_state) == game.legal_actions()


def test_a_bad_scenario_raises_and_leaves_the_env_unchanged() -> None:
    game = scenario_env([["skip"], ["nope"]], ["taco_cat", "exploding_kitten"])
    before = game.game_state.clone()
    generator = game.np_random.bit_generator.state
    with pytest.raises(ScenarioError, match="players - 1 = 1 exploding_kitten"):
        game.reset(options={"scenario": {"hands": [[], []], "deck": ["taco_cat"]}})
    assert game.game_state == before
    assert game.np_random.bit_generator.state == generator


def test_bad_options_name_what_is_allowed() -> None:
    with pytest.raises(OptionError, match="2 to 9 players"):
        make_env(num_players=10)
    with pytest.raises(OptionError, match="'reset', 'stack'"):
        make_env(attack_stacking="double")


def test_rendering_shows_my_hand_but_not_theirs() -> None:
    game = scenario_env([["skip"], ["beard_cat"]], ["taco_cat", "exploding_kitten"],
                        render_mode="ansi", render_seat=0)
    text = game.render()
    assert "skip" in text and "beard_cat" not in text
    assert "beard_cat" in game.render_text("full")
    assert "beard_cat" in game.render_text(1)


def test_masks_of_agents_not_to_act_are_zero_and_nopes_are_asked_of_all() -> None:
    game = scenario_env([["attack"], ["skip"], ["nope"]],
                        ["taco_cat", "exploding_kitten", "exploding_kitten"])
    act(game, "play:attack")
    assert game.agent_selection == "player_1"
    assert [game.action_name(i) for i in game.legal_actions()] == ["pass"]
    assert not np.any(game.observe("player_2")["action_mask"])
    act(game, "pass")
    assert [game.action_name(i) for i in game.legal_actions()] == ["nope", "pass"]


def test_numpy_integer_options_are_accepted_as_ints() -> None:
    game = make_env(num_players=np.int64(3), hand_size=np.int64(4))
    assert game.config.num_players == 3 and type(game.config.num_players) is int
    game.reset(seed=0)
    assert [sum(hand) for hand in game.game_state.hands] == [5, 5, 5]
