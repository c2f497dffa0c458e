"""The single-agent training env: rewards reach the learner, masks reach MaskablePPO."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents import outcomes
from agents.policy import RandomPolicy
from agents.single_agent import SingleAgentEnv
from cardgym.registration import GAMES, find_game, short_name

GAME_NAMES = [short_name(game.env_id) for game in GAMES]


def play_random(env: SingleAgentEnv, seed: int) -> tuple[float, bool]:
    """One episode with a random learner: (total reward, did an opponent's move end it?)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        legal = np.flatnonzero(mask)
        _, reward, done, truncated, _ = env.step(int(legal[rng.integers(legal.size)]))
        assert not truncated
        total += reward
    learner_moved_last = env.aec.agent_selection == env.learner and not env.aec.agents
    return total, not learner_moved_last


@pytest.mark.parametrize("game", GAME_NAMES)
def test_learner_gets_its_final_reward_even_when_an_opponent_ends_the_game(game: str) -> None:
    env = SingleAgentEnv(game, 2, opponents=["random"])
    ended_by_opponent = 0
    for seed in range(60):
        total, _ = play_random(env, seed)
        seat = env.aec.agent_name_mapping[env.learner]
        expected = env.game.returns(env.aec.game_state)[seat]
        assert total == expected, f"seed {seed}: learner got {total}, outcome {expected}"
        assert (expected > 0) == (seat in _winners(env)), f"seed {seed}"
        ended_by_opponent += _last_mover(env) != seat
    assert ended_by_opponent > 0, "no game ended on an opponent's move: the test proves nothing"


def _winners(env: SingleAgentEnv) -> set[int]:
    return set(outcomes.winners(env.game, env.aec))


def _last_mover(env: SingleAgentEnv) -> int:
    return env.last_actor  # type: ignore[no-any-return]


def test_learner_seat_is_drawn_per_episode_and_can_be_fixed() -> None:
    env = SingleAgentEnv("exploding_kittens", 3, opponents=["random"])
    seats = {env.reset(seed=seed)[1]["learner_seat"] for seed in range(40)}
    assert seats == {0, 1, 2}
    fixed = SingleAgentEnv("exploding_kittens", 3, opponents=["random"], learner_seat=2)
    assert {fixed.reset(seed=seed)[1]["learner_seat"] for seed in range(10)} == {2}


def test_action_masks_are_the_learners_mask() -> None:
    env = SingleAgentEnv("power_hungry_pets", 3, opponents=["random"])
    observation, _ = env.reset(seed=3)
    aec = env.aec
    assert aec.agent_selection == env.learner
    assert np.array_equal(env.action_masks(), aec.observe(env.learner)["action_mask"].astype(bool))
    assert np.array_equal(observation, aec.observe(env.learner)["observation"])
    assert env.observation_space.contains(observation)


def test_same_seed_same_episode() -> None:
    first = SingleAgentEnv("karel_kakelaar", 2, opponents=["random"])
    second = SingleAgentEnv("karel_kakelaar", 2, opponents=["random"])
    for seed in range(5):
        a, _ = first.reset(seed=seed)
        b, _ = second.reset(seed=seed)
        assert np.array_equal(a, b)
        assert play_random(first, seed) == play_random(second, seed)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        SingleAgentEnv("power_hungry_pets", 7)
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv("power_hungry_pets", 2, learner_seat=2)
    with pytest.raises(ValueError, match="unknown game"):
        SingleAgentEnv("chess", 2)


def test_runs_under_subprocvecenv_with_masks() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from agents.train import _make_env

    bound = find_game("exploding_kittens").bind(2)
    vec_env = SubprocVecEnv([_make_env(bound, ["random"], seed) for seed in range(2)])
    try:
        vec_env.reset()
        rng = np.random.default_rng(0)
        for _ in range(200):
            masks = get_action_masks(vec_env)
            assert masks.shape == (2, vec_env.action_space.n) and masks.any(axis=1).all()
            actions = [int(rng.choice(np.flatnonzero(row))) for row in masks]
            vec_env.step(np.array(actions))
    finally:
        vec_env.close()


@pytest.mark.slow
def test_short_training_run_saves_a_model_that_reloads_and_plays_legally(tmp_path: Path) -> None:
    from agents.sb3 import ModelPolicy, read_card
    from agents.train import TrainArgs, train

    path = train(TrainArgs(game="power_hungry_pets", players=2, timesteps=1024,
                           opponents=("random", "self"), eval_opponents=("random",),
                           eval_games=10, checkpoint_every=512, eval_every=1024, n_envs=2,
                           n_steps=256, batch_size=128, output=tmp_path, progress=False))
    assert path.is_file() and (tmp_path / "power_hungry_pets-2p-seed0" / "tb").is_dir()
    card = read_card(path)
    assert card is not None and card["game"] == "cardgym/power_hungry_pets-v2"
    assert card["timesteps"] >= 1024 and 0 <= card["final_evaluation"]["win_rate_vs_random"] <= 1
    assert sorted(p.name for p in (path.parent / "checkpoints").glob("*.zip"))
    policy = ModelPolicy.load(path, game=find_game("power_hungry_pets"), num_players=2)
    env = SingleAgentEnv("power_hungry_pets", 2, opponents=["random"])
    rng = np.random.default_rng(0)
    for seed in range(5):
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            action = policy.act(observation, mask.astype(np.int8), rng)
            assert mask[action], "the model chose an illegal action"
            observation, _, done, _, _ = env.step(action)


def test_random_policy_refuses_an_empty_mask() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        RandomPolicy().act(np.zeros(3, np.float32), np.zeros(3, np.int8), np.random.default_rng())


# ----------------------------------------------- illegal_action and checkers

GAME_NAMES = [short_name(game.env_id) for game in GAMES]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_passes_stable_baselines3_and_gymnasium_check_env_with_illegal_action_lose(
    game: str,
) -> None:
    import warnings

    from gymnasium.utils.env_checker import check_env as gymnasium_check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        # Each unmasked illegal action the checkers sample warns as it ends the game.
        warnings.filterwarnings("ignore", message=".*the game ends with -1")
        sb3_check_env(SingleAgentEnv(game, 2, illegal_action="lose"))
        gymnasium_check_env(SingleAgentEnv(game, 2, illegal_action="lose"))


def test_checkers_fail_with_the_default_illegal_action_raise() -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    from cardgym.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError, match="not legal now"):
        for _ in range(20):  # the checker samples; some sample is illegal
            sb3_check_env(SingleAgentEnv("exploding_kittens", 2))


def test_illegal_action_lose_ends_the_episode_with_minus_one_for_the_learner() -> None:
    env = SingleAgentEnv("exploding_kittens", 2, illegal_action="lose")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.warns(UserWarning, match="the game ends with -1"):
        _, reward, terminated, truncated, _ = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert not env.action_masks().any()


def test_illegal_action_raise_changes_nothing() -> None:
    from cardgym.errors import IllegalMoveError

    env = SingleAgentEnv("exploding_kittens", 2)
    env.reset(seed=0)
    state = env.aec.game_state
    masks = env.action_masks()
    with pytest.raises(IllegalMoveError, match="not legal now"):
        env.step(int(np.flatnonzero(~masks)[0]))
    assert env.aec.game_state is state and np.array_equal(env.action_masks(), masks)


def test_bad_illegal_action_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match=r"illegal_action='ignore' is not allowed; allowed: "
                                         r"'raise', 'lose'"):
        SingleAgentEnv("power_hungry_pets", 2, illegal_action="ignore")
    with pytest.raises(ValueError, match="argument of SingleAgentEnv, not a rule option"):
        SingleAgentEnv("power_hungry_pets", 2, options={"illegal_action": "lose"})


@pytest.mark.parametrize("action", [2.9, 2.0, "2", True, np.float32(1), np.array(1.0),
                                    np.array([1]), None])
def test_step_refuses_actions_that_are_not_integers(action: object) -> None:
    from cardgym.errors import IllegalMoveError

    env = SingleAgentEnv("power_hungry_pets", 2, learner_seat=0, illegal_action="lose")
    env.reset(seed=0)
    state = env.aec.game_state
    with pytest.raises(IllegalMoveError, match="action must be an integer in 0..") as raised:
        env.step(action)
    assert type(action).__name__ in str(raised.value)
    assert env.aec.game_state is state


@pytest.mark.parametrize("kind", [int, np.int64, np.int32, lambda a: np.array(a)])
def test_step_takes_python_and_numpy_integers(kind) -> None:
    env = SingleAgentEnv("power_hungry_pets", 2, learner_seat=0)
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(kind(legal))
    assert env.last_actor >= 0


def test_envs_sharing_an_opponent_pool_play_as_envs_with_their_own() -> None:
    # Two envs stepped in turn over one pool (as the training envs of one process)
    # play exactly the games two envs with pools of their own play: each draws from
    # the pool with its own generator.
    from agents.single_agent import OpponentPool

    bound = find_game("karel_kakelaar").bind(3)
    specs = ["random", "heuristic"]
    pool = OpponentPool(bound, specs)
    shared = [SingleAgentEnv(bound, pool=pool) for _ in range(2)]
    own = [SingleAgentEnv(bound, opponents=specs) for _ in range(2)]
    assert shared[0].pool is shared[1].pool and own[0].pool is not own[1].pool
    rng = np.random.default_rng(0)
    for episode in range(6):
        starts = [(env.reset(seed=episode * 2 + i), other.reset(seed=episode * 2 + i))
                  for i, (env, other) in enumerate(zip(shared, own, strict=True))]
        for (obs, info), (obs_own, info_own) in starts:
            assert np.array_equal(obs, obs_own) and info == info_own
        done = [False, False]
        while not all(done):
            for i in range(2):
                if done[i]:
                    continue
                legal = np.flatnonzero(shared[i].action_masks())
                action = int(rng.choice(legal))
                a, b = shared[i].step(action), own[i].step(action)
                assert np.array_equal(a[0], b[0]) and a[1:] == b[1:]
                done[i] = a[2]
    with pytest.raises(ValueError, match="the opponent pool is for"):
        SingleAgentEnv(find_game("karel_kakelaar").bind(2), pool=pool)


def test_a_pool_adds_a_checkpoint_once_and_reuses_built_policies() -> None:
    from agents.single_agent import OpponentPool

    bound = find_game("power_hungry_pets").bind(2)
    pool = OpponentPool(bound, ["heuristic", "self"], keep=2)
    for name in ("a.zip", "a.zip", "b.zip", "c.zip", "c.zip"):
        pool.add_checkpoint(name)
    assert [path.name for path in pool.checkpoints] == ["b.zip", "c.zip"]
    other = OpponentPool(bound, ["heuristic", "random"], built=pool.fixed)
    assert other.fixed["heuristic"] is pool.fixed["heuristic"]
    assert set(other.fixed) == {"heuristic", "random"}
