"""The parallel env: PettingZoo's parallel tests, every agent acting in every step,
and the same game as the AEC env."""

from __future__ import annotations

import warnings

import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import parallel_api_test, parallel_seed_test

import cardgym  # noqa: F401 (registers the envs)
from cardgym.errors import IllegalMoveError
from kakelaar_env import env, parallel_env
from kakelaar_env.encoding.encoding import OBSERVATION_SPEC
from kakelaar_env.engine.state import HEN_STAGE
from kakelaar_env.env import ENV_ID

PLAYERS = [2, 3, 4, 5]


def random_actions(observations: dict, rng: np.random.Generator) -> dict[str, int]:
    return {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
            for agent, obs in observations.items()}


@pytest.mark.parametrize("num_players", PLAYERS)
def test_parallel_api(num_players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # reset(options={"options": 1})
        parallel_api_test(parallel_env(num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_parallel_seed(num_players: int) -> None:
    # parallel_seed_test samples actions without the mask: an illegal one ends the game.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        parallel_seed_test(lambda: parallel_env(num_players=num_players, illegal_action="lose"))


@pytest.mark.parametrize("num_players", PLAYERS)
def test_same_seed_same_games_over_several_episodes(num_players: int) -> None:
    def trace(seed: int) -> list:
        game = parallel_env(num_players=num_players)
        rng = np.random.default_rng(3)
        out = []
        for episode in range(5):
            observations, _ = game.reset(seed=seed if episode == 0 else None)
            while game.agents:
                result = game.step(random_actions(observations, rng))
                observations = result[0]
                out.append(result)
        return out

    first, second, other = trace(7), trace(7), trace(8)
    assert len(first) == len(second)
    assert all(data_equivalence(a, b) for a, b in zip(first, second, strict=True))
    assert len(first) != len(other) or not all(
        data_equivalence(a, b) for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize("num_players", PLAYERS)
def test_every_agent_acts_and_idle_agents_have_one_move(num_players: int) -> None:
    game = parallel_env(num_players=num_players)
    rng = np.random.default_rng(num_players)
    for episode in range(20):
        observations, _ = game.reset(seed=episode)
        steps = 0
        while game.agents:
            state = game.game_state
            assert set(observations) == set(game.agents) == set(game.possible_agents)
            for seat, agent in enumerate(game.possible_agents):
                legal = [game.action_name(i)
                         for i in np.flatnonzero(observations[agent]["action_mask"])]
                if seat not in state.asked:
                    assert legal == ["hen:none" if state.phase == HEN_STAGE else "pass"]
                else:
                    assert legal and "pass" not in legal
            observations, rewards, terminations, truncations, _ = game.step(
                random_actions(observations, rng))
            steps += 1
            if any(terminations.values()):
                assert all(terminations.values()) and not game.agents
                assert sorted(set(rewards.values())) in ([-1.0, 1.0], [1.0])
            else:
                assert set(rewards.values()) == {0.0}
        assert 9 <= steps <= 9 * 4


@pytest.mark.parametrize("num_players", PLAYERS)
def test_parallel_and_aec_play_the_same_game(num_players: int) -> None:
    for seed in range(10):
        par = parallel_env(num_players=num_players)
        observations, _ = par.reset(seed=seed)
        aec = env(num_players=num_players)
        aec.reset(seed=seed)
        assert par.game_state == aec.game_state
        rng = np.random.default_rng(seed)
        while par.agents:
            actions = random_actions(observations, rng)
            for agent in aec.agents:  # the AEC env's obs equal the parallel env's at a stage start
                assert np.array_equal(aec.observe(agent)["observation"],
                                      observations[agent]["observation"])
            state = aec.game_state
            stage = (state.phase, state.version)
            while (state.phase, state.version) == stage and aec.agents and not any(
                    aec.terminations.values()):
                aec.step(actions[aec.agent_selection])
            observations, rewards, *_ = par.step(actions)
            assert par.game_state == aec.game_state
        assert rewards == aec.rewards


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = parallel_env(num_players=3)
    observations, _ = game.reset(seed=0)
    state = game.game_state.clone()
    actions = random_actions(observations, np.random.default_rng(0))
    bad = dict(actions, player_1=game.action_index("pass"))
    with pytest.raises(IllegalMoveError, match="player_1: action 28 \\(pass\\) is not legal"):
        game.step(bad)
    assert game.game_state == state
    with pytest.raises(IllegalMoveError, match="no action for"):
        game.step({"player_0": actions["player_0"]})
    with pytest.raises(IllegalMoveError, match="must be an integer"):
        game.step(dict(actions, player_2="bid:chicken_3"))
    assert game.game_state == state
    game.step(actions)


def test_illegal_action_lose_mode() -> None:
    game = parallel_env(num_players=3, illegal_action="lose")
    observations, _ = game.reset(seed=0)
    actions = random_actions(observations, np.random.default_rng(0))
    with pytest.warns(UserWarning, match="not legal"):
        _, rewards, terminations, _, _ = game.step(dict(actions, player_2=28))
    assert rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}
    assert all(terminations.values()) and game.agents == []


def test_registered_as_a_parallel_env() -> None:
    game = pettingzoo.make("parallel", ENV_ID, num_players=4)
    observations, _ = game.reset(seed=0)
    assert set(observations) == {f"player_{i}" for i in range(4)}
    assert isinstance(pettingzoo.make("aec", ENV_ID, num_players=2), pettingzoo.AECEnv)


def test_render() -> None:
    game = parallel_env(num_players=3, render_mode="ansi", render_seat=1)
    game.reset(seed=0)
    text = game.render()
    assert text is not None and "seen by player_1" in text
    full = parallel_env(num_players=3, render_mode="ansi", render_seat="full")
    full.reset(seed=0)
    assert "full view" in (full.render() or "")


def test_render_narrates_the_last_step_as_the_seat_saw_it() -> None:
    game = parallel_env(num_players=3, render_mode="ansi", render_seat=1)
    game.reset(seed=0, options={"scenario": {"tractor": 0, "deck_top": ["w8", "w1", "w4"]}})
    bids = {"player_0": "bid:chicken_7", "player_1": "bid:chicken_3", "player_2": "bid:chicken_5"}
    game.step({agent: game.action_index(name) for agent, name in bids.items()})
    text = game.render() or ""
    assert "In the last step:" in text
    assert "you bid chicken_3 face down" in text and "player_0 bid a card face down" in text
    assert "player_0 took position 1: worm_8" in text and "you took position 3: worm_4" in text
    full = parallel_env(num_players=3, render_mode="ansi", render_seat="full")
    full.reset(seed=0, options={"scenario": {"tractor": 0}})
    full.step({agent: full.action_index(name) for agent, name in bids.items()})
    assert "player_0 bid chicken_7 face down" in (full.render() or "")


def test_the_record_reaches_every_agent_of_the_parallel_env() -> None:
    """Each step returns every agent's observation with the stage's public record, the
    same as the AEC env's (the log itself is part of the state both envs compare)."""
    game = parallel_env(num_players=3)
    game.reset(seed=0, options={"scenario": {"tractor": 0, "deck_top": ["w8", "w1", "w4"]}})
    names = {"player_0": "bid:chicken_7", "player_1": "bid:chicken_3", "player_2": "bid:chicken_5"}
    observations, *_ = game.step({a: game.action_index(n) for a, n in names.items()})
    spec = game.observation_space("player_0")["observation"]
    assert spec.shape == (OBSERVATION_SPEC.size,)
    for seat, agent in enumerate(game.possible_agents):
        record = OBSERVATION_SPEC.unpack(observations[agent]["observation"])["recent_moves"]
        position_of_seat_0 = int(np.argmax(record[(0 - seat) % 3][:5])) + 1
        assert position_of_seat_0 == 1
