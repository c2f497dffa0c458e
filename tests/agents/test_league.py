"""League self-play (PFSP opponent draws), the entropy schedule, and ``--resume``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.league import League, outcome_score
from agents.model_card import ModelError, read_card
from agents.resume import latest_checkpoint, load_optimizer, save_optimizer
from agents.single_agent import OpponentPool, SingleAgentEnv
from agents.train import TrainArgs, resume_point, train
from cardgym.registration import find_game
from cardgym_cli import main

TINY = dict(n_envs=2, n_steps=64, batch_size=64, net_arch=(16,), eval_games=4,
            progress=False, tensorboard=False)


# ---------------------------------------------------------------- the league


def test_a_game_scores_one_for_a_win_half_for_a_draw_and_zero_for_a_loss() -> None:
    assert [outcome_score(r) for r in (1.0, 0.25, 0.0, -0.5, -1.0)] == [1, 1, 0.5, 0, 0]


def test_harder_opponents_are_drawn_more_and_the_floor_keeps_every_member() -> None:
    league = League(power=2.0, floor=0.1, window=1000)
    for label in ("random", "heuristic", "self:step_1.zip"):
        league.add(label)
    for game in range(200):
        league.record(["random"], 1.0 if game % 10 else -1.0)      # learner wins 90%
        league.record(["heuristic"], 1.0 if game % 10 < 3 else -1.0)  # learner wins 30%
    rates = league.win_rates()
    assert rates["random"] == pytest.approx(0.9, abs=3e-3)  # a slow decay: near the plain rate
    assert rates["heuristic"] == pytest.approx(0.3, abs=3e-3)
    assert rates["self:step_1.zip"] == 0.5, "a member without games starts at an even share"
    weights = league.weights()
    assert sum(weights.values()) == pytest.approx(1.0)
    assert weights["heuristic"] > weights["self:step_1.zip"] > weights["random"]
    hard = {label: (1 - rate) ** 2 for label, rate in rates.items()}
    expected = 0.9 * hard["heuristic"] / sum(hard.values()) + 0.1 / 3
    assert weights["heuristic"] == pytest.approx(expected)
    assert weights["random"] >= 0.1 / 3


def test_power_zero_draws_every_member_evenly() -> None:
    league = League(power=0.0, floor=0.0)
    for label in ("a", "b", "c", "d"):
        league.add(label)
    league.record(["a", "a", "b"], 1.0)
    assert league.weights() == pytest.approx({"a": 0.25, "b": 0.25, "c": 0.25, "d": 0.25})


def test_each_distinct_member_at_a_table_is_credited_once_and_unknown_labels_are_skipped() -> None:
    league = League()
    league.add("heuristic")
    league.record(["heuristic", "heuristic", "self:gone.zip"], -1.0)
    assert league.members["heuristic"].games == 1
    assert "self:gone.zip" not in league.members


def test_the_record_decays_so_the_win_rate_follows_the_learner() -> None:
    league = League(window=50)
    league.add("heuristic")
    for _ in range(300):
        league.record(["heuristic"], -1.0)
    for _ in range(300):
        league.record(["heuristic"], 1.0)
    member = league.members["heuristic"]
    assert member.games == 600 and member.score == 300
    assert member.win_rate() > 0.95, "the recent wins outweigh the early losses"


def test_a_league_round_trips_through_json_and_bad_settings_are_refused() -> None:
    league = League(power=1.5, floor=0.2, window=100)
    league.add("random")
    league.add("self:step_64.zip")
    league.record(["random"], 1.0)
    league.record(["self:step_64.zip"], 0.0)
    data = json.loads(json.dumps(league.to_json()))
    again = League.from_json(data)
    assert again.to_json() == data
    assert data["members"][0]["label"] == "random" and data["members"][0]["games"] == 1
    with pytest.raises(ValueError, match="power"):
        League(power=-1.0)
    with pytest.raises(ValueError, match="floor"):
        League(floor=1.5)
    with pytest.raises(ValueError, match="window"):
        League(window=0)
    with pytest.raises(ValueError, match="not a saved league"):
        League.from_json({"power": 2.0, "floor": 0.1})


def _league_of_selves(group_self: bool, selves: int = 20) -> League:
    """The heuristic and ``selves`` checkpoints, each beaten half the time."""
    league = League(power=2.0, floor=0.1, window=1000, group_self=group_self)
    labels = ["heuristic"] + [f"self:step_{k}.zip" for k in range(selves)]
    for label in labels:
        league.add(label)
    for game in range(40):
        for label in labels:
            league.record([label], 1.0 if game % 2 else -1.0)
    return league


def test_grouped_checkpoints_share_one_members_weight_so_the_heuristic_keeps_its_share() -> None:
    each = _league_of_selves(group_self=False).weights()
    assert each["heuristic"] == pytest.approx(1 / 21, abs=1e-3), \
        "twenty checkpoints as members of their own take 20 of every 21 draws"
    grouped = _league_of_selves(group_self=True).weights()
    assert sum(grouped.values()) == pytest.approx(1.0)
    assert grouped["heuristic"] == pytest.approx(0.5, abs=1e-3), "two groups at an even record"
    assert grouped["self:step_0.zip"] == pytest.approx(0.5 / 20, abs=1e-4)


def test_within_the_group_the_checkpoints_the_learner_beats_least_are_drawn_most() -> None:
    league = League(power=2.0, floor=0.2, window=1000, group_self=True)
    for label in ("random", "self:old.zip", "self:new.zip"):
        league.add(label)
    for game in range(100):
        league.record(["random"], 1.0)
        league.record(["self:old.zip"], 1.0 if game % 10 < 8 else -1.0)  # learner wins 80%
        league.record(["self:new.zip"], 1.0 if game % 10 < 4 else -1.0)  # learner wins 40%
    rates = league.win_rates()
    selves = [league.members["self:old.zip"], league.members["self:new.zip"]]
    pooled = (sum(m.recent_score for m in selves) + 0.5) / (sum(m.recent_games for m in selves) + 1)
    assert pooled == pytest.approx(0.6, abs=0.01), "all the group's games together"
    hard = {"random": (1 - rates["random"]) ** 2, "self": (1 - pooled) ** 2}
    self_share = 0.8 * hard["self"] / sum(hard.values()) + 0.2 / 2
    old, new = (1 - rates["self:old.zip"]) ** 2, (1 - rates["self:new.zip"]) ** 2
    weights = league.weights()
    assert weights["self:new.zip"] == pytest.approx(self_share * new / (old + new))
    assert weights["self:old.zip"] == pytest.approx(self_share * old / (old + new))
    assert weights["random"] == pytest.approx(1 - self_share)
    assert league.group_of("self:new.zip") == "self" and league.group_of("random") == "random"
    again = League.from_json(json.loads(json.dumps(league.to_json())))
    assert again.group_self and again.weights() == pytest.approx(weights)


def test_a_run_with_grouped_checkpoints_saves_the_grouping_and_bad_values_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = TrainArgs(game="kuhn_poker", timesteps=2048, opponents=("heuristic", "self"),
                     output=tmp_path, run_name="grouped", checkpoint_every=512,
                     eval_every=2048, league=True, league_size=3, pfsp_self="group", **TINY)
    model = train(args)
    league = json.loads((model.parent / "league.json").read_text())
    assert league["group_self"] is True
    weights = {m["label"]: m["weight"] for m in league["members"]}
    selves = sum(w for label, w in weights.items() if label.startswith("self:"))
    assert weights["heuristic"] >= 0.1 / 2 and selves >= 0.1 / 2, "two members, floor 0.1"
    assert len(weights) == 4
    bad = TrainArgs(game="kuhn_poker", output=tmp_path, run_name="bad", league=True,
                    pfsp_self="pairs", **TINY)
    with pytest.raises(ValueError, match="pfsp_self must be one of each, group"):
        train(bad)
    assert not bad.run_dir.exists(), "nothing is written"
    assert main(["train", "kuhn_poker", "--league", "--pfsp-self", "pairs"]) == 2
    assert "invalid choice: 'pairs'" in capsys.readouterr().err


# ---------------------------------------------------------- weighted draws


def test_a_weighted_pool_draws_members_in_proportion_to_their_weights() -> None:
    pool = OpponentPool(find_game("kuhn_poker").bind(2), ["random", "heuristic", "random"])
    assert pool.members() == ["random", "heuristic"], "each fixed spec is one member"
    pool.set_weights({"random": 1.0, "heuristic": 3.0})
    rng = np.random.default_rng(0)
    draws = [pool.sample(rng)[0] for _ in range(4000)]
    assert draws.count("heuristic") / len(draws) == pytest.approx(0.75, abs=0.03)
    pool.set_weights({"random": 0.0, "heuristic": 1.0})
    assert {pool.sample(rng)[0] for _ in range(200)} == {"heuristic"}
    pool.set_weights(None)
    draws = [pool.sample(rng)[0] for _ in range(3000)]
    assert draws.count("random") / len(draws) == pytest.approx(2 / 3, abs=0.04), \
        "back to the uniform draw over the specs, repeats weighting"


def test_the_single_agent_env_reports_the_opponents_and_its_return_when_a_game_ends() -> None:
    env = SingleAgentEnv("kuhn_poker", 2, ["random", "heuristic"])
    env.reset(seed=3)
    total, done, info = 0.0, False, {}
    rng = np.random.default_rng(0)
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, done, _, info = env.step(action)
        total += reward
        assert ("league" in info) == done
    assert info["league"]["return"] == pytest.approx(total)
    assert info["league"]["opponents"] == list(info["opponents"].values())


def test_the_batched_env_reports_the_opponents_and_the_final_return() -> None:
    pytest.importorskip("numba")
    from agents.vector_env import BatchedSelfPlayEnv

    env = BatchedSelfPlayEnv("kuhn_poker", 32, 2, ["random", "heuristic"], seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(20):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        _, _, dones, infos = env.step(actions)
        for done, info in zip(dones, infos, strict=True):
            assert ("league" in info) == bool(done)
            if done:
                seen += 1
                assert info["league"]["return"] == info["episode"]["r"]
                assert len(info["league"]["opponents"]) == 1
                assert info["league"]["opponents"][0] in ("random", "heuristic")
    assert seen > 0


# ------------------------------------------------------- training and resuming


@pytest.mark.parametrize("vector", [0, 16])
def test_a_league_run_writes_its_members_and_their_records(tmp_path: Path, vector: int) -> None:
    if vector:
        pytest.importorskip("numba")
    args = TrainArgs(game="kuhn_poker", timesteps=4096, opponents=("random", "heuristic", "self"),
                     output=tmp_path, run_name="league", checkpoint_every=1024,
                     eval_every=4096, league=True, league_size=2, vector=vector, **TINY)
    model = train(args)
    league = json.loads((model.parent / "league.json").read_text())
    labels = [member["label"] for member in league["members"]]
    assert labels[:2] == ["random", "heuristic"]
    assert labels[2:] == ["self:step_3072.zip", "self:step_4096.zip"], \
        "the latest league_size checkpoints, oldest dropped"
    games = {member["label"]: member["games"] for member in league["members"]}
    assert games["random"] > 0 and games["heuristic"] > 0
    assert sum(member["weight"] for member in league["members"]) == pytest.approx(1.0, abs=1e-3)
    card = read_card(model)
    assert card is not None and card["league"]["members"] == league["members"]
    assert card["settings"]["league"] is True and card["settings"]["pfsp_power"] == 2.0


def test_resume_continues_from_the_latest_checkpoint_with_its_weights_and_optimizer(
        tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    args = TrainArgs(game="kuhn_poker", timesteps=2048, output=tmp_path, run_name="r",
                     checkpoint_every=1024, eval_every=1024, league=True, **TINY)
    train(args)
    steps, checkpoint = latest_checkpoint(args.run_dir) or (0, Path())
    assert steps == 2048 and checkpoint.with_suffix(".safetensors").is_file()
    before = json.loads((args.run_dir / "league.json").read_text())

    args.timesteps, args.resume = 4096, True
    assert resume_point(args) == (2048, checkpoint)
    model_path = train(args)
    card = read_card(model_path)
    assert card is not None and card["timesteps"] == 4096 and card["resumed_from"] == 2048
    rows = (args.run_dir / "eval.csv").read_text().splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["1024", "2048", "3072", "4096"]
    after = json.loads((args.run_dir / "league.json").read_text())
    games_before = {m["label"]: m["games"] for m in before["members"]}
    games_after = {m["label"]: m["games"] for m in after["members"]}
    assert games_after["random"] > games_before["random"], "the league's record carried on"

    args.resume = False
    with pytest.raises(FileExistsError):
        train(args)
    args.resume = True
    with pytest.raises(ValueError, match="already trained 4096 steps"):
        resume_point(args)
    # The optimizer state written beside a checkpoint is the optimizer's own.
    model = MaskablePPO("MlpPolicy", SingleAgentEnv("kuhn_poker"), policy_kwargs={
        "net_arch": [16]}, device="cpu")
    load_optimizer(model.policy.optimizer, checkpoint)
    state = model.policy.optimizer.state_dict()["state"]
    assert state and all(float(values["step"]) > 0 for values in state.values())


def test_an_optimizer_state_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    import torch

    small = torch.nn.Linear(4, 2)
    optimizer = torch.optim.Adam(small.parameters())
    small(torch.ones(1, 4)).sum().backward()
    optimizer.step()
    save_optimizer(optimizer, tmp_path / "step_1.zip")
    again = torch.optim.Adam(torch.nn.Linear(4, 2).parameters())
    load_optimizer(again, tmp_path / "step_1.zip")
    saved = optimizer.state_dict()["state"][0]["exp_avg"]
    assert torch.equal(again.state_dict()["state"][0]["exp_avg"], saved)
    other = torch.optim.Adam(torch.nn.Linear(5, 3).parameters())
    with pytest.raises(ModelError, match="does not fit"):
        load_optimizer(other, tmp_path / "step_1.zip")
    with pytest.raises(ModelError, match="does not exist"):
        load_optimizer(other, tmp_path / "step_2.zip")


def test_the_command_line_refuses_a_resume_it_cannot_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tiny = ["--timesteps", "1024", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
            "--checkpoint-every", "512", "--eval-every", "1024", "--eval-games", "2",
            "--net-arch", "16", "--no-progress", "--no-tensorboard", "--output", str(tmp_path)]
    assert main(["train", "kuhn_poker", "--resume", *tiny]) == 2
    assert "no checkpoint to resume from" in capsys.readouterr().err
    assert main(["train", "kuhn_poker", "--resume", "--overwrite", *tiny]) == 2
    assert "exclude each other" in capsys.readouterr().err
    assert main(["train", "kuhn_poker", "--league", "--ent-coef-end", "0", *tiny]) == 0
    capsys.readouterr()
    more = [*tiny, "--timesteps", "2048"]
    assert main(["train", "kuhn_poker", "--resume", *more]) == 2
    err = capsys.readouterr().err
    assert "settings differ" in err and "league: the run has True, this call False" in err
    assert main(["train", "kuhn_poker", "--resume", "--league", "--ent-coef-end", "0",
                 *more]) == 0
    card = read_card(tmp_path / "kuhn_poker-2p-seed0" / "model.zip")
    assert card is not None and card["timesteps"] == 2048 and card["resumed_from"] == 1024
    assert main(["train", "kuhn_poker", "--league", "--pfsp-floor", "1.5", *tiny]) == 2
    assert "must be a number in [0, 1]" in capsys.readouterr().err


def test_a_new_run_over_an_earlier_one_leaves_no_checkpoint_of_it_to_resume(
        tmp_path: Path) -> None:
    longer = TrainArgs(game="kuhn_poker", timesteps=2048, output=tmp_path, run_name="r",
                       checkpoint_every=512, eval_every=2048, league=True, **TINY)
    train(longer)
    assert latest_checkpoint(longer.run_dir) == (2048, longer.run_dir / "checkpoints" /
                                                 "step_2048.zip")
    shorter = TrainArgs(game="kuhn_poker", timesteps=1024, output=tmp_path, run_name="r",
                        checkpoint_every=512, eval_every=1024, overwrite=True, **TINY)
    train(shorter)
    names = sorted(path.name for path in (shorter.run_dir / "checkpoints").iterdir())
    assert names == [f"step_{n}{suffix}" for n in (1024, 512)
                     for suffix in (".json", ".optimizer.safetensors", ".safetensors", ".zip")]
    assert not (shorter.run_dir / "league.json").exists(), "the earlier run's league is gone"
    assert latest_checkpoint(shorter.run_dir) == (1024, shorter.run_dir / "checkpoints" /
                                                  "step_1024.zip")
