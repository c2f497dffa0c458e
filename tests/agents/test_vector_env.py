"""Training on the batched engine: the SB3 VecEnv with batched opponents
(agents.vector_env), act_batch, ``cardgym train --vector`` and ``cardgym bench
--vector``, on the example game (Kuhn poker, the cheapest) and on the issue's games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.policy import RandomPolicy, act_batch
from agents.sb3 import read_card
from agents.vector_env import BatchedSelfPlayEnv
from cardgym.registration import find_game
from cardgym_cli import main


def _first_legal(masks: np.ndarray) -> np.ndarray:
    return np.argmax(masks, axis=1)


@pytest.mark.parametrize(("game", "players"), [("kuhn_poker", 2), ("power_hungry_pets", 3),
                                               ("karel_kakelaar", 2)])
def test_the_learner_is_to_act_in_every_game_after_reset_and_step(game: str,
                                                                  players: int) -> None:
    env = BatchedSelfPlayEnv(game, 12, players, ["random"], seed=5)
    obs = env.reset()
    assert obs.shape == (12, env.engine.obs_dim)
    for _ in range(40):
        assert np.array_equal(env.engine.to_act, env.learner)
        masks = env.action_masks()
        assert masks.any(axis=1).all()
        obs, rewards, dones, infos = env.step(_first_legal(masks))
        assert rewards.shape == (12,) and dones.shape == (12,) and len(infos) == 12
        assert all(("episode" in info) == done for info, done in zip(infos, dones, strict=True))


def test_the_learner_gets_every_reward_of_its_game_at_its_seat() -> None:
    """Kuhn poker gives nothing before a seat's first decision, so the rewards the
    learner receives over a game add up to its seat's final return."""
    env = BatchedSelfPlayEnv("kuhn_poker", 32, 2, ["random"], seed=1)
    env.reset()
    running = np.zeros(32)
    finished = 0
    for _ in range(200):
        _, rewards, dones, infos = env.step(_first_legal(env.action_masks()))
        running += rewards
        for i in np.flatnonzero(dones):
            assert running[i] == infos[i]["episode"]["r"]
            assert infos[i]["episode"]["r"] in (-2.0, -1.0, 1.0, 2.0)
            running[i] = 0.0
            finished += 1
    assert finished > 100


def test_a_fixed_learner_seat_and_the_seed_are_kept() -> None:
    one = BatchedSelfPlayEnv("kuhn_poker", 8, 2, ["random"], seed=3, learner_seat=1)
    two = BatchedSelfPlayEnv("kuhn_poker", 8, 2, ["random"], seed=3, learner_seat=1)
    assert np.array_equal(one.reset(), two.reset())
    assert (one.learner == 1).all()
    for _ in range(20):
        a, ra, da, _ = one.step(_first_legal(one.action_masks()))
        b, rb, db, _ = two.step(_first_legal(two.action_masks()))
        assert np.array_equal(a, b) and np.array_equal(ra, rb) and np.array_equal(da, db)
        assert (one.learner == 1).all()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "exploding_kittens"}, "has no batched engine"),
    ({"game": "kuhn_poker", "num_players": 3}, "kuhn_poker takes 2 players, not 3"),
    ({"game": "kuhn_poker", "learner_seat": 2}, "learner_seat must be 0..1"),
    ({"game": "kuhn_poker", "opponents": ["ismcts:iterations=5"]}, "searches game states"),
])
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    arguments = {"num_envs": 4, **kwargs}
    with pytest.raises(ValueError, match=message):
        BatchedSelfPlayEnv(**arguments)


def test_an_illegal_learner_action_is_refused() -> None:
    env = BatchedSelfPlayEnv("kuhn_poker", 4, 2, ["random"], seed=0)
    env.reset()
    masks = env.action_masks()
    actions = _first_legal(masks)
    actions[1] = int(np.flatnonzero(masks[1] == 0)[0])
    with pytest.raises(ValueError, match=r"illegal learner actions in 1 games: game 1, seat "
                                         r"\d: action \d+ \(\w+\); legal: "):
        env.step(actions)
    actions[1] = 99
    with pytest.raises(ValueError, match=r"game 1, seat \d: action 99 \(out of bounds\)"):
        env.step(actions)


def test_random_act_batch_is_uniform_over_the_legal_actions() -> None:
    rng = np.random.default_rng(0)
    masks = np.zeros((20_000, 5), np.int8)
    masks[:, [1, 3, 4]] = 1
    actions = RandomPolicy().act_batch(np.zeros((20_000, 2), np.float32), masks, rng)
    counts = np.bincount(actions, minlength=5)
    assert counts[0] == counts[2] == 0
    assert all(abs(count / 20_000 - 1 / 3) < 0.02 for count in counts[[1, 3, 4]])
    with pytest.raises(ValueError, match="no legal action"):
        RandomPolicy().act_batch(np.zeros((1, 2), np.float32), np.zeros((1, 5), np.int8), rng)


def test_act_batch_asks_a_policy_without_one_row_by_row() -> None:
    class Lowest:
        def act(self, observation: np.ndarray, mask: np.ndarray, rng: object) -> int:
            return int(np.flatnonzero(mask)[0])

    masks = np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1]], np.int8)
    chosen = act_batch(Lowest(), np.zeros((3, 4), np.float32), masks, np.random.default_rng(0))
    assert chosen.tolist() == [1, 0, 2]


def test_a_model_policy_acts_the_same_in_a_batch_as_one_by_one(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    from agents.sb3 import ModelPolicy

    env = BatchedSelfPlayEnv("kuhn_poker", 16, 2, ["random"], seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0, device="cpu")
    policy = ModelPolicy(model.policy)
    obs = env.reset()
    masks = env.action_masks().astype(np.int8)
    rng = np.random.default_rng(0)
    batch = policy.act_batch(obs, masks, rng)
    assert batch.tolist() == [policy.act(o, m, rng) for o, m in zip(obs, masks, strict=True)]
    sampled = ModelPolicy(model.policy, deterministic=False).act_batch(obs, masks, rng)
    assert (masks[np.arange(16), sampled] == 1).all()


@pytest.mark.slow
def test_train_vector_writes_a_model_card_that_says_so(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["train", "kuhn_poker", "--vector", "16", "--timesteps", "512",
                   "--n-steps", "16", "--batch-size", "64", "--checkpoint-every", "256",
                   "--eval-every", "512", "--eval-games", "4", "--opponents", "random", "self",
                   "--no-progress", "--output", str(tmp_path)])
    assert status == 0
    model = tmp_path / "kuhn_poker-2p-seed0" / "model.zip"
    card = read_card(model)
    assert card is not None and card["settings"]["vector"] == 16
    assert card["timesteps"] >= 512
    assert list((model.parent / "checkpoints").glob("step_*.safetensors"))


@pytest.mark.parametrize(("args", "message"), [
    (["train", "exploding_kittens", "--vector", "8"], "has no batched engine yet"),
    (["train", "kuhn_poker", "--vector", "8", "--subprocess"], "exclude each other"),
    (["train", "kuhn_poker", "--vector", "0"], "--vector: must be a positive integer"),
])
def test_bad_vector_train_arguments_exit_2(args: list[str], message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "--output", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_bench_vector_prints_the_table_beside_leduc(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    assert main(["bench", "--vector", "--env", "kuhn_poker", "--batch-sizes", "1", "64",
                 "--seconds", "0.05", "--rounds", "1", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith("| kuhn_poker")]
    assert [(row[2], row[3]) for row in rows] == [
        ("AEC env()", "1"), ("engine", "1"), ("vector env", "1"), ("engine", "64"),
        ("vector env", "64")]
    assert "| leduc_holdem_v4 | 2 | leduc_holdem_v4 env() | 1 |" in out
    assert (tmp_path / "vector_throughput.md").read_text().startswith("# Batched engines")


def test_bench_options_of_the_vector_table_need_vector(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--memory", "1000"]) == 2
    assert "go with --vector" in capsys.readouterr().err
    assert find_game("kuhn_poker").batched is not None
