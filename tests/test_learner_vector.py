"""The Gymnasium vector env with a learner seat (cardgym.vector.make_single_agent), on
every game with a batched engine: the Gymnasium API, both autoreset modes, Gymnasium's
vector wrappers on it, seeds, rendering and bad input."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import NormalizeReward, RecordEpisodeStatistics
from numpy.typing import NDArray

import cardgym.vector as vector
from cardgym.errors import IllegalMoveError, OptionError
from cardgym.registration import games

TABLES = [(game.name, n) for game in games() if game.batched is not None
          for n in (game.player_counts[0], game.player_counts[-1])]


class FirstLegal:
    """Always the lowest legal action; draws nothing from the generator."""

    name = "first_legal"

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        return int(np.flatnonzero(action_mask)[0])


def random_actions(masks: NDArray[np.int8], rng: np.random.Generator) -> NDArray[np.int64]:
    keys = np.where(masks != 0, rng.random(masks.shape), -1.0)
    return keys.argmax(axis=1)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("name", "players"), TABLES)
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_the_learner_plays_whole_games_and_gets_their_returns(name: str, players: int,
                                                               mode: AutoresetMode) -> None:
    envs = vector.make_single_agent(name, 16, players, opponents=["random", "heuristic"],
                                    seed=3, autoreset_mode=mode)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] is mode
    obs, info = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    returns, pending, games_ended = np.zeros(16), np.zeros(16, bool), 0
    for _ in range(120):
        masks = info["action_mask"]
        assert masks.any(axis=1).all()
        assert (envs.engine.to_act == envs.learner)[~pending].all()
        obs, rewards, terminations, truncations, info = envs.step(random_actions(masks, rng))
        assert obs.shape == (16, envs.single_observation_space.shape[0])
        assert not truncations.any()
        assert (rewards[pending] == 0).all()  # NEXT_STEP: the dealing step pays nothing
        returns += rewards
        if terminations.any():
            ended = info["_final_return"]
            assert np.array_equal(ended, terminations)
            np.testing.assert_allclose(info["final_return"][ended], returns[ended], atol=1e-5)
            assert (info["final_length"][ended] > 0).all()
            for i in np.flatnonzero(ended):
                labels = info["final_opponents"][i]
                assert labels[info["final_seat"][i]] == ""
                assert set(labels) - {""} <= {"heuristic", "random"}
            if mode is AutoresetMode.SAME_STEP:
                assert np.array_equal(info["_final_obs"], ended)
                assert all(final.shape == obs[0].shape for final in info["final_obs"][ended])
            games_ended += int(ended.sum())
            returns[terminations] = 0.0
        else:
            assert "final_return" not in info
        pending = terminations if mode is AutoresetMode.NEXT_STEP else np.zeros(16, bool)
    assert games_ended >= 16


def test_next_step_returns_the_last_observation_then_deals_ignoring_the_action() -> None:
    envs = vector.make_single_agent("power_hungry_pets", 8, 2, opponents=["random"], seed=1)
    phase = envs.engine.layout.observation_spec.unpack
    obs, info = envs.reset()
    rng = np.random.default_rng(1)
    for _ in range(400):
        obs, rewards, terminations, _, info = envs.step(random_actions(info["action_mask"], rng))
        if terminations.any():
            break
    row = int(np.flatnonzero(terminations)[0])
    assert phase(obs[row])["phase"].argmax() == 3  # match over, as the learner sees it
    assert info["action_mask"][row].all()  # any action; it is ignored
    actions = random_actions(info["action_mask"], rng)
    actions[row] = 0  # not legal in the new game's first position
    obs, rewards, terminations, _, info = envs.step(actions)
    assert not terminations[row] and rewards[row] == 0.0
    assert phase(obs[row])["phase"].argmax() == 0
    assert envs.engine.lengths[row] <= envs.num_players  # a new game, before the learner acts


def test_same_step_keeps_the_last_observation_in_the_info() -> None:
    envs = vector.make_single_agent("power_hungry_pets", 8, 3, opponents=["heuristic"], seed=2,
                                    autoreset_mode="same_step")
    spec = envs.engine.layout.observation_spec
    _, info = envs.reset()
    rng = np.random.default_rng(2)
    for _ in range(400):
        obs, _, terminations, _, info = envs.step(random_actions(info["action_mask"], rng))
        if terminations.any():
            break
    row = int(np.flatnonzero(terminations)[0])
    assert spec.unpack(info["final_obs"][row])["phase"].argmax() == 3
    assert spec.unpack(obs[row])["phase"].argmax() != 3  # the next game, already dealt
    assert info["action_mask"][row].sum() >= 1


@pytest.mark.parametrize("name", ["power_hungry_pets", "karel_kakelaar"])
def test_record_episode_statistics_counts_the_learner_games(name: str) -> None:
    envs = RecordEpisodeStatistics(vector.make_single_agent(name, 12, 2, seed=4))
    _, info = envs.reset(seed=4)
    rng = np.random.default_rng(4)
    steps, returns, seen = np.zeros(12, int), np.zeros(12), 0
    pending = np.zeros(12, bool)
    for _ in range(200):
        _, rewards, terminations, _, info = envs.step(random_actions(info["action_mask"], rng))
        steps[~pending] += 1
        returns += rewards
        if terminations.any():
            ended = info["_episode"]
            assert np.array_equal(ended, terminations)
            np.testing.assert_allclose(info["episode"]["r"][ended], returns[ended], atol=1e-5)
            np.testing.assert_allclose(info["episode"]["r"][ended], info["final_return"][ended],
                                       atol=1e-5)
            assert np.array_equal(info["episode"]["l"][ended], steps[ended])
            seen += int(ended.sum())
        steps[terminations] = 0
        returns[terminations] = 0.0
        pending = terminations
    assert seen >= 12


def test_normalize_reward_scales_the_learner_rewards() -> None:
    raw = vector.make_single_agent("karel_kakelaar", 8, 3, seed=5)
    wrapped = NormalizeReward(vector.make_single_agent("karel_kakelaar", 8, 3, seed=5),
                              gamma=0.9)
    _, info = raw.reset(seed=5)
    _, info_w = wrapped.reset(seed=5)
    rng = np.random.default_rng(5)
    nonzero = 0
    for _ in range(150):
        actions = random_actions(info["action_mask"], rng)
        _, rewards, _, _, info = raw.step(actions)
        _, scaled, _, _, info_w = wrapped.step(actions)
        np.testing.assert_allclose(scaled, rewards / np.sqrt(wrapped.return_rms.var + 1e-8),
                                   rtol=1e-5)
        nonzero += int((rewards != 0).sum())
    assert nonzero > 0 and wrapped.return_rms.var > 0


def test_seeds_give_the_same_games_and_a_list_seeds_each_row() -> None:
    def first(seed: Any) -> NDArray[np.float32]:
        envs = vector.make_single_agent("kuhn_poker", 4, 2, opponents=[FirstLegal()],
                                        learner_seat=0)
        return envs.reset(seed=seed)[0]

    assert np.array_equal(first(11), first(11))
    same = first([7, 7, 7, 7])
    assert all(np.array_equal(same[0], row) for row in same)
    pairs = [first([7, 9, 7, 9]) for _ in range(2)]
    assert np.array_equal(pairs[0], pairs[1])
    assert np.array_equal(pairs[0][0], pairs[0][2]) and np.array_equal(pairs[0][1], pairs[0][3])
    # The rows of different seeds are dealt differently somewhere in 40 seeds.
    rows = first(list(range(40, 44)))
    many = np.concatenate([first(list(range(s, s + 4))) for s in range(40, 80, 4)])
    assert len({row.tobytes() for row in many}) > 1 and rows.shape == (4, many.shape[1])


def test_render_draws_every_game_from_the_learner_seat() -> None:
    envs = vector.make_single_agent("karel_kakelaar", 2, 3, render_mode="rgb_array", seed=0)
    envs.reset()
    frames = envs.render()
    assert frames is not None and len(frames) == 2
    assert all(frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
               for frame in frames)
    plain = vector.make_single_agent("karel_kakelaar", 2, 3, seed=0)
    plain.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert plain.render() is None
    assert "render_mode" in str(caught[0].message)


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"env_id": "exploding_kittens"}, ValueError, "Exploding Kittens has no batched engine"),
    ({"opponents": ["model"]}, ValueError, "unknown opponent 'model'.*OpponentPool"),
    ({"opponents": []}, ValueError, "at least one policy"),
    ({"opponents": [3]}, ValueError, "an opponent is 'random', 'heuristic' or a policy"),
    ({"learner_seat": 2}, ValueError, r"learner_seat must be 0..1"),
    ({"autoreset_mode": "partial"}, ValueError, "autoreset_mode must be NEXT_STEP or SAME_STEP"),
    ({"render_mode": "human"}, ValueError, "render_mode must be None or 'rgb_array'"),
    ({"num_envs": 0}, ValueError, "num_games must be an integer"),
    ({"robovac": "sometimes"}, OptionError, "robovac"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type, message: str) -> None:
    arguments: dict[str, Any] = {"env_id": "power_hungry_pets", "num_envs": 4, "num_players": 2}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        vector.make_single_agent(**arguments)


def test_bad_steps_and_seeds_are_refused_and_change_nothing() -> None:
    envs = vector.make_single_agent("power_hungry_pets", 4, 2, seed=0)
    with pytest.raises(RuntimeError, match="before reset"):
        envs.step(np.zeros(4, np.int64))
    obs, info = envs.reset()
    before = {name: array.copy() for name, array in envs.engine.row_arrays.items()}
    actions = random_actions(info["action_mask"], np.random.default_rng(0))
    illegal = actions.copy()
    illegal[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalMoveError, match=r"illegal learner actions in 1 games: game 2"):
        envs.step(illegal)
    with pytest.raises(IllegalMoveError, match=r"actions must be 4 integers .* shape \(3,\)"):
        envs.step(actions[:3])
    with pytest.raises(IllegalMoveError, match="dtype float"):
        envs.step(actions.astype(np.float64))
    with pytest.raises(ValueError, match="one per game \\(4\\), got 3"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="seed 1 of the list must be a non-negative integer"):
        envs.reset(seed=[1, -2, 3, 4])
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        envs.reset(seed=-1)
    with pytest.raises(ValueError, match="reset options are not supported"):
        envs.reset(options={"scenario": {}})
    after = envs.engine.row_arrays
    assert all(np.array_equal(before[name], after[name]) for name in before)
    obs2, *_ = envs.step(actions)  # still usable
    assert obs2.shape == obs.shape
