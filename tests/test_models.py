"""The shipped baseline models: cards, size, loading, and legal play in every seat."""

from __future__ import annotations

import pytest

from agents.baselines import BASELINE_PLAYERS, baseline_path, baseline_settings
from agents.evaluate import seat_rng
from agents.options import make_env
from agents.policy import RandomPolicy, decide
from agents.sb3 import ModelError, ModelPolicy, read_card
from agents.specs import AgentSpecError, make_policy
from cardgym.registration import GameEntry, find_game, short_name

SETTINGS = baseline_settings()
IDS = [f"{short_name(game.env_id)}-{count}p" for game, count in SETTINGS]
#: Shipped files stay small: the 64x64 networks without optimizer state.
MAX_BYTES = 1_500_000


def test_every_game_has_baselines_at_its_two_benchmark_sizes() -> None:
    assert BASELINE_PLAYERS == {"power_hungry_pets": (2, 4), "exploding_kittens": (2, 4),
                                "karel_kakelaar": (2, 5)}
    assert len(SETTINGS) == 6


@pytest.mark.parametrize(("game", "count"), SETTINGS, ids=IDS)
def test_model_file_and_card_are_shipped(game: GameEntry, count: int) -> None:
    path = baseline_path(game, count)
    assert path.is_file(), f"{path} is missing: run python benchmarks/train_baselines.py"
    assert path.stat().st_size < MAX_BYTES
    card = read_card(path)
    assert card is not None
    assert card["game"] == game.env_id and card["players"] == count
    assert card["options"] == {}
    assert card["timesteps"] >= card["settings"]["timesteps"] > 0
    assert card["baseline"]["command"].startswith("python benchmarks/train_baselines.py")
    assert set(card["final_evaluation"]) >= {"win_rate_vs_random", "win_rate_vs_heuristic"}
    assert card["arena"]["agents"] == ["random", "heuristic", "baseline"]
    assert 0 <= card["arena"]["win_rate"] <= 1


@pytest.mark.parametrize(("game", "count"), SETTINGS, ids=IDS)
def test_baseline_plays_only_legal_moves_in_every_seat(game: GameEntry, count: int) -> None:
    policy = make_policy("baseline", game, count)
    assert isinstance(policy, ModelPolicy)
    random_policy = RandomPolicy()
    env = make_env(game, count, {})
    for seat in range(count):
        env.reset(seed=100 + seat)
        rngs = [seat_rng(0, seat, s) for s in range(count)]
        decisions = 0
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            acting = env.agent_name_mapping[agent]
            chooser = policy if acting == seat else random_policy
            action = decide(chooser, env, agent, observation, rngs[acting])
            assert observation["action_mask"][action] == 1, (seat, env.action_name(action))
            decisions += acting == seat
            env.step(action)
        assert decisions > 0, f"the model never acted in seat {seat}"


def test_a_model_for_another_game_is_refused() -> None:
    path = baseline_path("karel_kakelaar", 2)
    with pytest.raises(ModelError, match="was trained on cardgym/karel_kakelaar-v0, not "
                                         "cardgym/power_hungry_pets-v0"):
        ModelPolicy.load(path, game=find_game("power_hungry_pets"), num_players=2)


def test_a_table_size_without_a_baseline_says_which_exist() -> None:
    with pytest.raises(AgentSpecError, match="no baseline model for exploding_kittens with 3 "
                                             "players .*exploding_kittens 2p, exploding_kittens "
                                             "4p"):
        make_policy("baseline", find_game("exploding_kittens"), 3)


def test_models_folder_can_be_moved(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDGYM_MODELS", str(tmp_path))
    assert baseline_path("karel_kakelaar", 5) == tmp_path / "karel_kakelaar-5p" / "model.zip"
    with pytest.raises(AgentSpecError, match="baselines shipped: none"):
        make_policy("baseline", find_game("karel_kakelaar"), 5)



@pytest.mark.slow
def test_train_baselines_ships_a_copy_that_plays_like_the_trained_model(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np
    import torch

    from benchmarks import train_baselines

    monkeypatch.setenv("CARDGYM_MODELS", str(tmp_path / "models"))
    args = train_baselines.Args(games=("karel_kakelaar",), players=(2,), timesteps=2048,
                                eval_games=10, scratch=str(tmp_path / "runs"))
    assert train_baselines.run(args, command="python benchmarks/train_baselines.py --test") == [
        tmp_path / "models" / "karel_kakelaar-2p" / "model.zip"]
    trained_path = tmp_path / "runs" / "karel_kakelaar-2p-seed0" / "model.zip"
    shipped_path = baseline_path("karel_kakelaar", 2)
    assert shipped_path.stat().st_size < trained_path.stat().st_size
    game = find_game("karel_kakelaar")
    trained = ModelPolicy.load(trained_path, game=game, num_players=2)
    shipped = ModelPolicy.load(shipped_path, game=game, num_players=2)
    observations = np.random.default_rng(0).random((32, 348), dtype=np.float32)
    with torch.no_grad():
        for model in (trained, shipped):
            model.model.policy.set_training_mode(False)
        first = trained.model.policy.get_distribution(torch.as_tensor(observations))
        second = shipped.model.policy.get_distribution(torch.as_tensor(observations))
        assert torch.equal(first.distribution.probs, second.distribution.probs)
    card = read_card(shipped_path)
    assert card is not None and card["baseline"]["shipped_without_optimizer_state"]
    assert card["settings"]["net_arch"] == [64, 64]
    assert card["baseline"]["command"] == "python benchmarks/train_baselines.py --test"
