"""The recorded hyperparameter sweep (benchmarks/sweep.py) and the baselines taking its best
trial (benchmarks/train_baselines.py), at tiny sizes on the example game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import sweep, train_baselines


def test_a_sweep_records_every_trial_and_its_best_and_continues_from_its_storage(
        tmp_path: Path) -> None:
    pytest.importorskip("optuna")
    storage = f"sqlite:///{tmp_path / 'sweep.db'}"
    runs, output = tmp_path / "runs", tmp_path / "results"
    first = sweep.sweep("kuhn_poker", 2, trials=2, timesteps=512, games=20, vector=16,
                        seed=0, runs=runs, output=output, storage=storage)
    assert [trial["number"] for trial in first["trials"]] == [0, 1]
    for trial in first["trials"]:
        assert set(trial["params"]) == set(sweep.SPACE)
        assert trial["value"] == trial["evaluation"]["win_rate_vs_heuristic"]
        assert 0.0 <= trial["evaluation"]["win_rate_vs_random"] <= 1.0
        assert trial["timesteps"] >= 512 and trial["wall_seconds"] > 0
    assert first["best"]["value"] == max(t["value"] for t in first["trials"])
    saved = json.loads((output / "sweep" / "kuhn_poker-2p.json").read_text())
    assert saved == json.loads(json.dumps(first))
    table = (output / "sweep.md").read_text()
    assert "## kuhn_poker, 2 players" in table and table.count("\n| 0 |") + table.count(
        "\n| 1 |") == 2
    # Asking for three trials in all runs one more, not three.
    again = sweep.sweep("kuhn_poker", 2, trials=3, timesteps=512, games=20, vector=16,
                        seed=0, runs=runs, output=output, storage=storage)
    assert [trial["number"] for trial in again["trials"]] == [0, 1, 2]
    assert again["trials"][:2] == first["trials"]


def test_settings_of_a_trial_map_onto_the_training_arguments() -> None:
    params = {"net_arch": "128x128", "gamma": 0.995, "learning_rate": 2e-4, "ent_coef": 0.01,
              "ent_schedule": "to_zero", "batch_size": 1024, "n_epochs": 8, "n_steps": 64}
    assert sweep.settings_of(params) == {
        "net_arch": (128, 128), "gamma": 0.995, "learning_rate": 2e-4, "ent_coef": 0.01,
        "ent_coef_end": 0.0, "batch_size": 1024, "n_epochs": 8, "n_steps": 64}
    assert sweep.settings_of({**params, "ent_schedule": "constant"})["ent_coef_end"] is None
    assert sweep.settings_of(params, envs=8)["n_steps"] == 64 * 256 // 8, \
        "the same rollout size with 8 single-game envs"


def test_the_baselines_train_with_the_best_trial_of_the_nearest_swept_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "sweep"
    folder.mkdir()
    best = {"number": 4, "value": 0.61,
            "params": {"net_arch": "256x256x256", "gamma": 1.0, "learning_rate": 5e-4,
                       "ent_coef": 0.02, "ent_schedule": "constant", "batch_size": 4096,
                       "n_epochs": 4, "n_steps": 128}}
    (folder / "karel_kakelaar-2p.json").write_text(json.dumps({"best": best}))
    monkeypatch.setattr(train_baselines, "RESULTS", tmp_path)
    args = train_baselines.Args()
    settings, source = train_baselines.train_args("karel_kakelaar", 5, args, tmp_path)
    assert settings.net_arch == (256, 256, 256) and settings.batch_size == 4096
    assert settings.league and settings.vector == 256
    assert settings.timesteps == train_baselines.BUDGETS[("karel_kakelaar", 5)]
    assert source == "karel_kakelaar-2p.json trial 4 (win rate 0.61 against heuristic)"
    settings, source = train_baselines.train_args(
        "power_hungry_pets", 2, train_baselines.Args(timesteps=1000), tmp_path)
    assert source == "train's defaults" and settings.timesteps == 1000
    settings, _ = train_baselines.train_args(
        "karel_kakelaar", 2, train_baselines.Args(sweep=False, net_arch=(8,)), tmp_path)
    assert settings.net_arch == (8,) and settings.batch_size == 256


def test_the_baseline_table_rows_name_each_opponent_and_its_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import baseline_table

    assert baseline_table.main(["--env", "karel_kakelaar", "--games", "4", "--workers", "1",
                                "--output", str(tmp_path)]) == 0
    rows = [line.split(" | ") for line in (tmp_path / "baselines.md").read_text().splitlines()
            if line.startswith("| karel_kakelaar")]
    assert [row[2] for row in rows] == ["heuristic", "random"]
    assert [row[-1].split(":")[0] for row in rows] == ["0.60, low > 0.55", "0.95"]
    assert all(row[3] == "4" for row in rows)
    assert capsys.readouterr().out.startswith("# Baselines at two players")


@pytest.mark.parametrize(("game", "win_rate", "low", "expected"), [
    ("karel_kakelaar", 0.61, 0.58, "0.60, low > 0.55: met"),
    ("karel_kakelaar", 0.58, 0.55, "0.60, low > 0.55: missed by 0.020; low end 0.550"),
    ("power_hungry_pets", 0.60, 0.54, "0.60, low > 0.55: low end 0.540"),
    ("exploding_kittens", 0.84, 0.81, "0.85, low > 0.55: missed by 0.010"),
])
def test_a_baseline_meets_its_target_only_with_the_interval_above_the_lower_end(
        game: str, win_rate: float, low: float, expected: str) -> None:
    from benchmarks.baseline_table import target, verdict

    assert verdict(win_rate, low, target(game, "heuristic")) == expected
    assert verdict(0.96, 0.90, target(game, "random")) == "0.95: met"


def test_the_baseline_table_counts_a_fine_tune_with_its_first_stage() -> None:
    from benchmarks.baseline_table import trained_steps

    assert trained_steps({"timesteps": 2_000_000}) == "2000000"
    assert trained_steps({"timesteps": 3_000_064, "baseline": {
        "started_from": {"timesteps": 2_015_232}}}) == "5015296"
    assert trained_steps({"timesteps": 2_000_128, "baseline": {"started_from": {
        "timesteps": 3_000_064, "started_from": {"timesteps": 2_015_232}}}}) == "7015424"
    assert trained_steps({}) == "?"
