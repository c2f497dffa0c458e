"""Expert iteration (agents.expert, cardgym expert): the samples the search leaves,
the network learning them, and a run folder that resumes and refuses another run."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from agents.expert import (
    Batch,
    ExpertSettings,
    FitSettings,
    RunError,
    SampleError,
    Samples,
    fit,
    losses,
    play_batch,
    run_expert,
)
from agents.ismcts import IsmctsPolicy, parse_settings
from agents.sb3 import ModelPolicy
from cardgym.registration import find_game
from cardgym_cli import main

pytest.importorskip("sb3_contrib")

KAKELAAR = find_game("karel_kakelaar")
#: A quick search: the shipped network guides a few iterations per move.
QUICK_SEARCH = "iterations=12,prior=policy,value=policy,w=2"


def quick_settings(**changes: object) -> ExpertSettings:
    values: dict[str, object] = dict(game="karel_kakelaar", num_players=2, search=QUICK_SEARCH,
                                     iterations=2, games=3, window=2, epochs=2, batch_size=16,
                                     eval_games=4, seed=5)
    values.update(changes)
    return ExpertSettings(**values)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the search


def test_root_visits_count_the_searched_actions_and_are_none_when_forced() -> None:
    bound = KAKELAAR.bind(2)
    policy = IsmctsPolicy(bound, settings=parse_settings("iterations=30,prior=none"))
    env = bound.make_env()
    env.reset(seed=2)
    seat = env.possible_agents.index(env.agent_selection)
    rng = np.random.default_rng(0)
    legal = env.legal_actions()
    assert len(legal) > 1
    policy.act_in(env.game.resample_hidden(env.game_state, seat, rng), seat, rng)
    visits = policy.root_visits()
    assert visits is not None and visits.shape == (len(env.action_table),)
    assert visits.sum() == 30  # every iteration passes through one root child
    assert set(np.flatnonzero(visits)) <= set(legal)


def test_a_forced_move_is_played_without_a_search_and_leaves_no_visits() -> None:
    bound = find_game("exploding_kittens").bind(2)  # draws with nothing else to do
    policy = IsmctsPolicy(bound, settings=parse_settings("iterations=10,prior=none"))
    env = bound.make_env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    forced = 0
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        legal = env.legal_actions()
        action = policy.act_in(env.game.resample_hidden(env.game_state, seat, rng), seat, rng)
        visits = policy.root_visits()
        if len(legal) == 1:
            forced += 1
            assert visits is None and action == legal[0]
        else:
            assert visits is not None and visits.sum() == 10
        env.step(action)
    assert forced > 0


# ---------------------------------------------------------------- samples


def test_a_batch_keeps_the_search_decisions_with_shares_and_the_seat_return() -> None:
    result = play_batch(Batch("cardgym/karel_kakelaar-v2", 2, {}, f"ismcts:{QUICK_SEARCH}",
                              ("heuristic", "random"), range(4), seed=9))
    samples = result.samples
    assert len(samples) > 0
    assert result.games == [2, 2]  # opponent g // players % 2: games 0, 1 then 2, 3
    samples.check()
    assert np.allclose(samples.visits.sum(axis=1), 1.0)
    assert not (samples.visits[samples.masks == 0]).any()
    # Every decision had a choice: at least two legal actions.
    assert (samples.masks.sum(axis=1) >= 2).all()
    # Returns are the seat's result in the game: a win or a loss (+1 / -1) in Kakelaar.
    assert set(np.unique(samples.returns)) <= {-1.0, 0.0, 1.0}
    assert 0 <= sum(result.wins) <= 4
    again = play_batch(Batch("cardgym/karel_kakelaar-v2", 2, {}, f"ismcts:{QUICK_SEARCH}",
                             ("heuristic", "random"), range(4), seed=9))
    assert np.array_equal(again.samples.visits, samples.visits)  # seeded: the same games


def test_samples_round_trip_and_bad_files_are_refused(tmp_path: Path) -> None:
    samples = Samples(np.ones((2, 3), np.float32), np.array([[1, 1, 0], [0, 1, 1]], np.int8),
                      np.array([[0.25, 0.75, 0], [0, 0.5, 0.5]], np.float32),
                      np.array([1, -1], np.float32))
    path = samples.save(tmp_path / "s.npz")
    loaded = Samples.load(path, 3, 3)
    assert np.array_equal(loaded.visits, samples.visits)
    with pytest.raises(SampleError, match="observations must be float32 of shape N x 4"):
        Samples.load(path, 4, 3)
    with pytest.raises(SampleError, match="no samples file"):
        Samples.load(tmp_path / "missing.npz", 3, 3)
    (tmp_path / "junk.npz").write_bytes(b"not an archive")
    with pytest.raises(SampleError, match="cannot read samples"):
        Samples.load(tmp_path / "junk.npz", 3, 3)
    outside = Samples(samples.observations, samples.masks,
                      np.array([[0.25, 0.25, 0.5], [0, 0.5, 0.5]], np.float32), samples.returns)
    with pytest.raises(SampleError, match="0 outside the mask"):
        outside.check()
    with pytest.raises(SampleError, match="disagree"):
        Samples(samples.observations, samples.masks, samples.visits, np.zeros(3, np.float32))


# ---------------------------------------------------------------- learning


def test_targets_sharpen_the_shares_down_to_the_search_move() -> None:
    from agents.expert.fit import targets

    visits = np.array([[0.2, 0.5, 0.3, 0.0], [0.4, 0.4, 0.2, 0.0]], np.float32)
    assert np.array_equal(targets(visits, 0), [[0, 1, 0, 0], [1, 0, 0, 0]])  # ties: lower
    assert np.allclose(targets(visits, 1), visits)
    half = targets(visits, 0.5)
    assert np.allclose(half[0], np.array([0.04, 0.25, 0.09, 0]) / 0.38, atol=1e-6)
    assert np.allclose(half.sum(axis=1), 1) and not half[:, 3].any()
    with pytest.raises(ValueError, match="temperature must be 0 or more"):
        FitSettings(temperature=-0.5)


def test_learning_moves_the_network_towards_the_search() -> None:
    bound = KAKELAAR.bind(2)
    result = play_batch(Batch(bound.game.env_id, 2, {}, f"ismcts:{QUICK_SEARCH}",
                              ("heuristic",), range(4), seed=3))
    network = ModelPolicy.load(_baseline(), game=bound).network
    before = losses(network, result.samples)
    epochs = fit(network, result.samples, FitSettings(epochs=6, batch_size=16,
                                                      learning_rate=1e-3),
                 np.random.default_rng(0))
    after = losses(network, result.samples)
    assert len(epochs) == 6
    assert after.policy_loss < before.policy_loss
    assert after.value_loss < before.value_loss
    with pytest.raises(ValueError, match="no samples"):
        fit(network, Samples.empty(result.samples.observations.shape[1],
                                   result.samples.masks.shape[1]),
            FitSettings(), np.random.default_rng(0))


def _baseline() -> Path:
    from agents.baselines import baseline_policy_path

    return baseline_policy_path(KAKELAAR, 2)


@pytest.mark.parametrize(("changes", "message"), [
    ({"games": 0}, "games must be 1 or more"), ({"epochs": 0}, "epochs must be 1 or more"),
    ({"search": "iterations=5,model=baseline"}, "leave model= out"),
    ({"opponents": ()}, "at least one opponent"), ({"learning_rate": -1.0}, "learning_rate")])
def test_bad_settings_say_what_is_wrong(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RunError, match=message):
        quick_settings(**changes)


# ---------------------------------------------------------------- the run


def test_a_run_writes_each_iteration_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    curve = run_expert(quick_settings(iterations=1), folder, workers=1)
    assert [row["iteration"] for row in curve] == [0, 1]  # 0: the start network measured
    first = (folder / "iteration-001" / "model.safetensors").read_bytes()
    assert (folder / "model.safetensors").read_bytes() == first
    card = json.loads((folder / "model.json").read_text())
    assert card["expert_iteration"]["iteration"] == 1
    assert card["expert_iteration"]["settings"]["search"] == QUICK_SEARCH
    # The network written plays as a model spec.
    policy = ModelPolicy.load(folder / "model.safetensors", game=KAKELAAR.bind(2))
    assert policy.network is not None
    # A second iteration: the first is not played again.
    samples_before = (folder / "iteration-001" / "samples.npz").stat().st_mtime_ns
    curve = run_expert(quick_settings(iterations=2), folder, workers=1)
    assert [row["iteration"] for row in curve] == [0, 1, 2]
    assert (folder / "iteration-001" / "samples.npz").stat().st_mtime_ns == samples_before
    assert (folder / "iteration-001" / "model.safetensors").read_bytes() == first
    with (folder / "curve.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(row["iteration"]) for row in rows] == [0, 1, 2]
    for row in rows:
        assert int(row["eval_games"]) == 4 and 0 <= float(row["eval_win_rate"]) <= 1
    for row in rows[1:]:
        assert float(row["policy_loss_after"]) < float(row["policy_loss_before"])
    assert rows[0]["samples"] == ""  # the start network learnt nothing here
    record = json.loads((folder / "run.json").read_text())
    assert record["done"] == {"0": ["measure"], "1": ["play", "learn", "measure"],
                              "2": ["play", "learn", "measure"]}


def test_a_stopped_step_is_done_again_and_finished_steps_are_kept(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run_expert(quick_settings(iterations=1), folder, workers=1)
    record = json.loads((folder / "run.json").read_text())
    record["done"]["1"] = ["play"]  # as if stopped while learning
    (folder / "run.json").write_text(json.dumps(record))
    samples = (folder / "iteration-001" / "samples.npz").read_bytes()
    run_expert(quick_settings(iterations=1), folder, workers=1)
    assert (folder / "iteration-001" / "samples.npz").read_bytes() == samples
    assert json.loads((folder / "run.json").read_text())["done"]["1"] == [
        "play", "learn", "measure"]


def test_another_run_in_the_folder_is_refused_with_the_differences(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run_expert(quick_settings(iterations=1), folder, workers=1)
    before = sorted(path.name for path in folder.rglob("*"))
    with pytest.raises(RunError, match=r"games: 3 in the folder, 5 now"):
        run_expert(quick_settings(iterations=1, games=5), folder, workers=1)
    assert sorted(path.name for path in folder.rglob("*")) == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not empty and holds no run.json"):
        run_expert(quick_settings(iterations=1), other, workers=1)


def test_the_command_line_runs_and_reports_bad_settings(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    status = main(["expert", "karel_kakelaar", "--games", "2", "--iterations", "1",
                   "--search", QUICK_SEARCH, "--eval-games", "2", "--epochs", "1",
                   "--workers", "1", "--output", str(tmp_path)])
    assert status == 0
    out = capsys.readouterr().out
    folder = tmp_path / "expert-karel_kakelaar-2p-seed0"
    assert f"wrote {folder}/model.safetensors" in out
    assert (folder / "curve.csv").is_file()
    status = main(["expert", "karel_kakelaar", "--search", "iterations=5,model=baseline",
                   "--output", str(tmp_path / "bad")])
    assert status == 2
    assert "leave model= out" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize(("extra", "message"), [
    (["--search", "iterations=abc"],
     "search settings 'iterations=abc': ismcts iterations must be an integer >= 1, got 'abc'"),
    (["--search", "iterations=5,bogus=1"],
     "search settings 'iterations=5,bogus=1': unknown ismcts setting 'bogus'"),
    (["--search", "iterations=5,prior=policy,select=puct,w=2"],
     "ismcts w=... goes with select=ucb"),
    (["--opponents", "heuristic", "wizard"], "opponent 'wizard': unknown agent 'wizard'"),
    (["--players", "3"], "was trained for 2 players"),
])
def test_settings_the_run_would_refuse_are_refused_before_its_folder_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
        message: str) -> None:
    from tests.agents.test_soup import ingredient

    start = ingredient(tmp_path / "start", 1)  # a Power Hungry Pets network, 2 players
    status = main(["expert", "power_hungry_pets", "--start", str(start), "--games", "2",
                   "--iterations", "1", "--eval-games", "2", "--workers", "1",
                   "--output", str(tmp_path / "out"), *extra])
    error = capsys.readouterr().err
    assert status == 2 and "Traceback" not in error, error
    assert not (tmp_path / "out").exists(), "a refused run leaves no folder behind"
    assert message in error, error


def test_a_run_folder_in_use_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    from agents.runs import RunInUseError, hold_run_folder

    folder = tmp_path / "run"
    run_expert(quick_settings(iterations=1), folder, workers=1)
    before = (folder / "run.json").read_bytes()
    with hold_run_folder(folder), pytest.raises(RunInUseError):
        run_expert(quick_settings(iterations=2), folder, workers=1)
    assert (folder / "run.json").read_bytes() == before
