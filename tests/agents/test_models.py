"""The shipped baseline models: policy files, cards, size, loading, and legal play in every seat."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import numpy as np
import pytest

from agents.baselines import (
    baseline_path,
    baseline_policy_path,
    baseline_settings,
)
from agents.evaluate import seat_rng
from agents.options import make_env
from agents.policy import RandomPolicy, decide
from agents.sb3 import ModelError, ModelPolicy, read_card
from agents.specs import AgentSpecError, make_policy
from cardgym.registration import Game, find_game, short_name

SETTINGS = baseline_settings()
IDS = [f"{short_name(game.env_id)}-{count}p" for game, count in SETTINGS]
#: Shipped files stay small: networks the sweep may choose (up to 256x256x256) without
#: optimizer state.
MAX_BYTES = 4_000_000


def test_every_game_has_baselines_at_its_two_benchmark_sizes() -> None:
    sizes = {game.name: game.baseline_players for game, _ in SETTINGS}
    assert sizes == {"power_hungry_pets": (2, 4), "exploding_kittens": (2, 4),
                     "karel_kakelaar": (2, 5)}
    assert len(SETTINGS) == 6


@pytest.mark.parametrize(("game", "count"), SETTINGS, ids=IDS)
def test_model_file_and_card_are_shipped(game: Game, count: int) -> None:
    path = baseline_path(game, count)
    weights = baseline_policy_path(game, count)
    for shipped in (path, weights):
        assert shipped.is_file(), f"{shipped} is missing: run python benchmarks/train_baselines.py"
        assert shipped.stat().st_size < MAX_BYTES
    card = read_card(weights)
    assert card is not None
    # Trained in an env version whose actions and observations are the newest's.
    assert card["game"] in game.env_ids and card["players"] == count
    assert card["options"] == {}
    assert card["timesteps"] >= card["settings"]["timesteps"] > 0
    assert card["baseline"]["command"].startswith("python benchmarks/train_baselines.py")
    evaluated = {f"win_rate_vs_{opponent}" for opponent in card["settings"]["eval_opponents"]}
    assert "win_rate_vs_heuristic" in evaluated and set(card["final_evaluation"]) >= evaluated
    assert card["arena"]["agents"] == ["random", "heuristic", "baseline"]
    assert 0 <= card["arena"]["win_rate"] <= 1


@pytest.mark.parametrize(("game", "count"), SETTINGS, ids=IDS)
def test_policy_files_hold_the_networks_their_cards_describe(game: Game, count: int) -> None:
    from gymnasium import spaces

    from agents.policy_file import FORMAT, _build, _fill, _read_tensors

    weights = baseline_policy_path(game, count)
    card = read_card(weights)
    assert card is not None
    section = card["policy"]
    assert section["format"] == FORMAT and section["weights"] == weights.name
    assert section["net_arch"] == card["settings"]["net_arch"]
    assert section["net_arch"] in ([64, 64], [128, 128], [256, 256], [256, 256, 256])
    # The network rebuilt from the card alone takes every tensor of the file, by name
    # and shape, and nothing else (the game's own spaces are checked when it plays).
    shape = tuple(section["observation_shape"])
    network = _build(section, spaces.Box(0.0, 1.0, shape), spaces.Discrete(section["actions"]))
    tensors = _read_tensors(weights)
    _fill(network, tensors, weights)
    assert set(tensors) == set(network.state_dict())


@pytest.mark.parametrize(("game", "count"), SETTINGS, ids=IDS)
def test_baseline_plays_only_legal_moves_in_every_seat(game: Game, count: int) -> None:
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
    with pytest.raises(ModelError, match="was trained on cardgym/karel_kakelaar-v1, not "
                                         "cardgym/power_hungry_pets-v2"):
        ModelPolicy.load(path, game=find_game("power_hungry_pets"), num_players=2)


def test_a_table_size_without_a_baseline_says_which_exist() -> None:
    with pytest.raises(AgentSpecError, match="no baseline model for exploding_kittens with 3 "
                                             "players .*exploding_kittens 2p, exploding_kittens "
                                             "4p"):
        make_policy("baseline", find_game("exploding_kittens"), 3)


def test_models_folder_can_be_moved(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDGYM_MODELS", str(tmp_path))
    assert baseline_path("karel_kakelaar", 5) == tmp_path / "karel_kakelaar-5p" / "model.zip"
    assert baseline_policy_path("karel_kakelaar", 5) == (
        tmp_path / "karel_kakelaar-5p" / "model.safetensors")
    with pytest.raises(AgentSpecError, match="baselines shipped: none"):
        make_policy("baseline", find_game("karel_kakelaar"), 5)


@pytest.mark.slow
def test_train_baselines_ships_a_copy_that_plays_like_the_trained_model(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO

    from benchmarks import train_baselines

    monkeypatch.setenv("CARDGYM_MODELS", str(tmp_path / "models"))
    # The first stage only (the fine-tune stage has a test of its own).
    args = train_baselines.Args(games=("karel_kakelaar",), players=(2,), timesteps=2048,
                                eval_games=10, scratch=str(tmp_path / "runs"), vector=8,
                                net_arch=(64, 64), stage="first")
    assert train_baselines.run(args, command="python benchmarks/train_baselines.py --test") == [
        tmp_path / "models" / "karel_kakelaar-2p" / "model.zip"]
    trained_path = tmp_path / "runs" / "karel_kakelaar-2p-seed0" / "model.zip"
    shipped_path = baseline_path("karel_kakelaar", 2)
    assert shipped_path.stat().st_size < trained_path.stat().st_size
    game = find_game("karel_kakelaar")
    shipped_weights = baseline_policy_path("karel_kakelaar", 2)
    assert shipped_weights.read_bytes() == trained_path.with_suffix(".safetensors").read_bytes()
    baseline = make_policy("baseline", game, 2)
    assert isinstance(baseline, ModelPolicy)
    # This test's own zips, so unpickling them is safe: the slimmed copy and the policy
    # file play exactly as the trained model.
    trained = MaskablePPO.load(trained_path, device="cpu").policy
    slim = MaskablePPO.load(shipped_path, device="cpu").policy
    shape = trained.observation_space.shape
    observations = torch.as_tensor(np.random.default_rng(0).random((32, *shape),
                                                                   dtype=np.float32))
    with torch.no_grad():
        trained.set_training_mode(False)
        slim.set_training_mode(False)
        expected = trained.get_distribution(observations).distribution.probs
        for network in (slim, baseline.network):
            assert torch.equal(network.get_distribution(observations).distribution.probs,
                               expected)
    card = read_card(shipped_path)
    assert card is not None and card["baseline"]["shipped_without_optimizer_state"]
    assert card["policy"]["weights"] == "model.safetensors"
    assert card["settings"]["net_arch"] == [64, 64]
    assert card["baseline"]["command"] == "python benchmarks/train_baselines.py --test"
    assert card["baseline"]["budget_timesteps"] == 2048 and card["settings"]["league"] is True
    assert card["settings"]["vector"] == 8 and card["league"]["members"][0]["label"] == "random"
    assert card["settings"]["pfsp_self"] == "group" and card["league"]["group_self"] is True
    # Resuming a run that has reached its budget ships it again as it is, and the card
    # keeps the run's own training time.
    again = dataclasses.replace(args, resume=True)
    train_baselines.run(again, command="python benchmarks/train_baselines.py --again")
    shipped = read_card(shipped_path)
    assert shipped is not None and shipped["timesteps"] == card["timesteps"]
    assert shipped["baseline"]["command"].endswith("--again")
    assert shipped["baseline"]["wall_seconds"] >= shipped["train_seconds"] > 0


@pytest.mark.slow
def test_fine_tune_stages_train_on_in_order_and_keep_each_record(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.policy_file import load_network
    from benchmarks import train_baselines

    monkeypatch.setenv("CARDGYM_MODELS", str(tmp_path / "models"))
    league = train_baselines.FineTune(1024, 1e-3, 0.01, checkpoint_every=512, eval_every=1024)
    weighted = dataclasses.replace(train_baselines.heuristic_weighted(0.005), timesteps=1024,
                                   checkpoint_every=512, eval_every=1024)
    monkeypatch.setattr(train_baselines, "FINE_TUNES",
                        {("karel_kakelaar", 2): (league, weighted)})
    args = train_baselines.Args(games=("karel_kakelaar",), players=(2,), timesteps=1024,
                                eval_games=4, scratch=str(tmp_path / "runs"), vector=8,
                                net_arch=(32, 32))
    shipped = baseline_path("karel_kakelaar", 2)
    assert train_baselines.run(dataclasses.replace(args, stage="first"), command="first") == [
        shipped]
    first = read_card(shipped)
    first_weights = load_network(shipped.with_suffix(".safetensors")).state_dict()
    assert first is not None and first["settings"]["start_from"] is None
    assert first["baseline"]["stage"] == 0
    # Stage 2 trains on from stage 1 only: the network shipped now carries none.
    with pytest.raises(ValueError, match="carries 0 fine-tune stage"):
        train_baselines.train_one("karel_kakelaar", 2, args, tmp_path / "runs", "x", stage=2)
    assert read_card(shipped) == first
    assert train_baselines.run(dataclasses.replace(args, stage="fine-tune"),
                               command="second") == [shipped]
    card = read_card(shipped)
    assert card is not None and card["settings"]["start_from"] == "baseline"
    assert card["baseline"]["stage"] == 2 and card["baseline"]["command"] == "second"
    assert card["settings"]["seed"] == 3 and card["settings"]["league"] is False
    assert card["settings"]["opponents"] == ["heuristic"] * 3 + ["baseline", "self"]
    assert card["settings"]["eval_opponents"] == ["heuristic"]
    middle = card["baseline"]["started_from"]
    assert middle["stage"] == 1 and middle["timesteps"] == 1024
    assert middle["started_from"]["stage"] == 0
    assert middle["started_from"]["timesteps"] == first["timesteps"]
    assert middle["started_from"]["command"] == "first"
    for seed in (1, 3):
        assert (tmp_path / "runs" / f"karel_kakelaar-2p-seed{seed}" / "model.zip").is_file()
    tuned = load_network(shipped.with_suffix(".safetensors")).state_dict()
    assert any(not (tuned[key] == first_weights[key]).all() for key in first_weights)
    # A network that carries every stage is not fine-tuned again on top of itself.
    said = io.StringIO()
    assert train_baselines.run(dataclasses.replace(args, stage="fine-tune"), command="third",
                               out=said) == []
    assert "carries every fine-tune stage already" in said.getvalue()
    assert read_card(shipped) == card
    # A finished run is shipped again as it is only if it trained with the stage's settings.
    monkeypatch.setattr(train_baselines, "FINE_TUNES", {("karel_kakelaar", 2): (
        league, dataclasses.replace(weighted, learning_rate=5e-4))})
    with pytest.raises(ValueError, match="learning_rate: the run has 0.0001, this call 0.0005"):
        train_baselines.train_one("karel_kakelaar", 2, dataclasses.replace(args, resume=True),
                                  tmp_path / "runs", "again", stage=2)
    assert read_card(shipped) == card


@pytest.mark.slow
def test_a_soup_stage_ships_the_mean_of_the_shipped_network_and_its_parts(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from safetensors.numpy import load_file
    from sb3_contrib import MaskablePPO

    from benchmarks import train_baselines

    monkeypatch.setenv("CARDGYM_MODELS", str(tmp_path / "models"))
    weighted = dataclasses.replace(train_baselines.heuristic_weighted(0.005), timesteps=1024,
                                   checkpoint_every=512, eval_every=1024)
    alone = dataclasses.replace(weighted, opponents=("heuristic",))
    soup = train_baselines.Soup((weighted, alone), eval_games=6)
    monkeypatch.setattr(train_baselines, "FINE_TUNES", {("karel_kakelaar", 2): (soup,)})
    args = train_baselines.Args(games=("karel_kakelaar",), players=(2,), timesteps=1024,
                                eval_games=4, scratch=str(tmp_path / "runs"), vector=8,
                                net_arch=(32, 32))
    shipped = baseline_path("karel_kakelaar", 2)
    train_baselines.run(dataclasses.replace(args, stage="first"), command="first")
    parent = load_file(str(shipped.with_suffix(".safetensors")))
    assert train_baselines.run(dataclasses.replace(args, stage="fine-tune"),
                               command="soup") == [shipped]
    runs = tmp_path / "runs"
    parts = [load_file(str(runs / f"karel_kakelaar-2p-stage1-part{k}" / "model.safetensors"))
             for k in (1, 2)]
    mean = load_file(str(shipped.with_suffix(".safetensors")))
    for name, tensor in parent.items():
        np.testing.assert_allclose(mean[name], (tensor + parts[0][name] + parts[1][name]) / 3,
                                   rtol=1e-5, atol=1e-6)
    # The zip plays the same network as the policy file beside it.
    zipped = MaskablePPO.load(shipped, device="cpu").policy.state_dict()
    assert all(np.allclose(zipped[name].numpy(), tensor) for name, tensor in mean.items())
    card = read_card(shipped)
    assert card is not None and card["baseline"]["stage"] == 1
    assert card["baseline"]["started_from"]["stage"] == 0
    assert card["timesteps"] == 2048 and card["baseline"]["budget_timesteps"] == 2048
    ingredients = card["soup"]["ingredients"]
    assert [entry["path"] for entry in ingredients] == [
        "the network shipped before (stage 0)", "karel_kakelaar-2p-stage1-part1",
        "karel_kakelaar-2p-stage1-part2"]
    assert [entry["weight"] for entry in ingredients] == pytest.approx([1 / 3] * 3)
    assert ingredients[2]["settings"]["opponents"] == ["heuristic"]
    assert 0 <= card["final_evaluation"]["win_rate_vs_heuristic"] <= 1
    # A soup is made from the network of the stage before it, and no other.
    with pytest.raises(ValueError, match="carries 1 fine-tune stage"):
        train_baselines.train_one("karel_kakelaar", 2, dataclasses.replace(args, resume=True),
                                  runs, "again", stage=1)
    assert read_card(shipped) == card


def test_each_stage_of_a_table_trains_in_a_run_folder_of_its_own() -> None:
    from benchmarks import train_baselines

    for (game, players), stages in train_baselines.FINE_TUNES.items():
        folders = [train_baselines.train_args(game, players, train_baselines.Args(),
                                              Path("scratch"))[0].run_dir]
        for stage in range(1, len(stages) + 1):
            runs = train_baselines.stage_runs(game, players, train_baselines.Args(),
                                              Path("scratch"), stage)
            assert runs is not None and all(run.start_from == "baseline" for run, _ in runs)
            folders += [run.run_dir for run, _ in runs]
        assert len(set(folders)) == len(folders), f"{game} {players}p: {folders}"
        assert train_baselines.stage_runs(game, players, train_baselines.Args(),
                                          Path("scratch"), len(stages) + 1) is None
