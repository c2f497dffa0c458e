"""``cardgym train`` and ``cardgym demo`` end to end at tiny sizes, and their bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.sb3 import read_card
from cardgym_cli import main

TINY = ["--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
        "--checkpoint-every", "128", "--eval-every", "256", "--eval-games", "3", "--no-progress"]


@pytest.mark.slow
def test_train_writes_a_model_that_eval_and_play_accept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status = main(["train", "exploding_kittens", "--players", "3", "--opponents", "heuristic",
                   "self", "--option", "hand_size=4", "--output", str(tmp_path), *TINY])
    assert status == 0
    model = tmp_path / "exploding_kittens-3p-seed0" / "model.zip"
    assert model.is_file() and f"model: {model}" in capsys.readouterr().out
    assert model.with_suffix(".safetensors").is_file(), "the policy file beside the zip"
    card = read_card(model)
    assert card is not None
    assert card["options"] == {"hand_size": 4} and card["players"] == 3
    assert card["policy"]["net_arch"] == [256, 256] and card["policy"]["activation"] == "Tanh"
    checkpoints = list((model.parent / "checkpoints").glob("step_*.zip"))
    assert checkpoints and all(path.with_suffix(".safetensors").is_file() for path in checkpoints)
    assert (model.parent / "eval.csv").read_text().startswith("timesteps,win_rate_vs_random")
    assert main(["eval", "exploding_kittens", "--players", "3", "--agents", f"model:{model}",
                 "random", "--games", "3", "--workers", "1", "--option", "hand_size=4"]) == 0
    assert "model:" in capsys.readouterr().out


@pytest.mark.slow
def test_demo_trains_and_prints_the_evaluation_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--timesteps", "256", "--games", "4", "--workers", "1",
                 "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[:2] for row in rows[1:]] == [
        ["| MaskablePPO (demo)", "random"], ["| MaskablePPO (demo)", "heuristic"],
        ["| heuristic", "random"]]
    assert (tmp_path / "demo" / "model.zip").is_file()


@pytest.mark.parametrize(("args", "message"), [
    (["train", "chess"], "unknown game 'chess'"),
    (["train", "power_hungry_pets", "--players", "7"], "takes 2..6 players, not 7"),
    (["train", "power_hungry_pets", "--opponents", "wizard"], "unknown agent 'wizard'"),
    (["train", "power_hungry_pets", "--opponents", "model:missing.zip"], "does not exist"),
    (["train", "power_hungry_pets", "--option", "robovac=fly"], "robovac='fly'"),
    (["train", "power_hungry_pets", "--gamma", "1.5"], "--gamma: must be a number in (0, 1]"),
    (["train", "power_hungry_pets", "--timesteps", "0"], "--timesteps: must be a positive"),
    (["train", "karel_kakelaar", "--start-from", "nowhere.safetensors"],
     "--start-from: start model 'nowhere.safetensors': no policy file nowhere.safetensors"),
    (["train", "karel_kakelaar", "--players", "3", "--start-from", "baseline"],
     "--start-from: no baseline network for karel_kakelaar at 3 players"),
    (["train", "karel_kakelaar", "--start-from", "baseline", "--net-arch", "64"],
     "has hidden layers 256 256, the run 64: train with --net-arch 256 256"),
    (["train", "karel_kakelaar", "--start-from", "nowhere.txt"], "give a .safetensors policy"),
    (["demo", "--games", "none"], "--games: must be a number of games from 1 to 10000000"),
])
def test_bad_train_and_demo_arguments_exit_2_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([*args, "--output", str(tmp_path)] if args[0] == "train" else args) == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir()), "a refused run must not write anything"


@pytest.mark.slow
def test_start_from_baseline_trains_on_from_the_shipped_weights(tmp_path: Path) -> None:
    """A run started from the shipped network begins with its weights: with a learning
    rate too small to move them, the trained model still holds them, and the card
    says where the run started."""
    import torch

    from agents.baselines import baseline_policy_path
    from agents.policy_file import load_network

    assert main(["train", "karel_kakelaar", "--start-from", "baseline", "--output",
                 str(tmp_path), "--learning-rate", "1e-12", *TINY]) == 0
    model = tmp_path / "karel_kakelaar-2p-seed0" / "model.zip"
    trained = load_network(model.with_suffix(".safetensors")).state_dict()
    shipped = load_network(baseline_policy_path("karel_kakelaar", 2)).state_dict()
    assert trained.keys() == shipped.keys()
    assert all(torch.allclose(trained[key], shipped[key], atol=1e-6) for key in shipped)
    card = read_card(model)
    assert card is not None and card["settings"]["start_from"] == "baseline"


def test_a_model_for_another_game_is_refused(tmp_path: Path) -> None:
    from agents.sb3 import ModelError, ModelPolicy, write_card
    from cardgym.registration import find_game

    fake = tmp_path / "model.zip"
    fake.write_bytes(b"not a zip")
    write_card(fake, {"game": "cardgym/exploding_kittens-v1"})
    with pytest.raises(ModelError, match="trained on cardgym/exploding_kittens-v1"):
        ModelPolicy.load(fake, game=find_game("power_hungry_pets"), num_players=2)
    (tmp_path / "model.json").unlink()
    with pytest.raises(ModelError, match="loads only by unpickling"):
        ModelPolicy.load(fake, game=find_game("power_hungry_pets"), num_players=2)
    with pytest.raises(ModelError, match="cannot load"):
        ModelPolicy.load(fake, game=find_game("power_hungry_pets"), num_players=2,
                         trust_pickle=True)


# ------------------------------------------- numbers, run names, overwriting


@pytest.mark.parametrize(("flag", "value", "message"), [
    ("--ent-coef", "nan", "--ent-coef: must be a finite number >= 0, got 'nan'"),
    ("--ent-coef", "inf", "--ent-coef: must be a finite number >= 0, got 'inf'"),
    ("--ent-coef", "-0.1", "--ent-coef: must be a finite number >= 0, got '-0.1'"),
    ("--ent-coef", "-inf", "--ent-coef: must be a finite number >= 0, got '-inf'"),
    ("--learning-rate", "nan", "--learning-rate: must be a positive number, got 'nan'"),
    ("--learning-rate", "-1e-3", "--learning-rate: must be a positive number, got '-1e-3'"),
    ("--learning-rate", "0", "--learning-rate: must be a positive number, got '0'"),
    ("--gamma", "nan", "--gamma: must be a number in (0, 1], got 'nan'"),
    ("--gamma", "0", "--gamma: must be a number in (0, 1], got '0'"),
    ("--gamma", "1.01", "--gamma: must be a number in (0, 1], got '1.01'"),
])
@pytest.mark.parametrize("backend", ["sb3", "rllib"])
def test_non_finite_or_out_of_range_numbers_are_argparse_errors(
    flag: str, value: str, message: str, backend: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["train", "power_hungry_pets", "--backend", backend, f"{flag}={value}",
                   "--output", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["../../x", "..", ".", "a/b", "ABSOLUTE", "a\\b", ""])
@pytest.mark.parametrize("backend", ["sb3", "rllib"])
def test_a_run_name_that_leaves_output_is_refused(
    name: str, backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "deep" / "out"
    if name == "ABSOLUTE":
        name = str(tmp_path / "elsewhere")
    status = main(["train", "power_hungry_pets", "--backend", backend, "--run-name", name,
                   "--output", str(output)])
    assert status == 2
    assert "--run-name: must be one folder name" in capsys.readouterr().err
    assert not any(tmp_path.iterdir()), "nothing written anywhere"


def test_the_python_api_keeps_runs_inside_output_too() -> None:
    from agents.rllib.train import RllibTrainArgs
    from agents.train import TrainArgs

    for name in ("../x", "/abs", "a/b", ".."):
        with pytest.raises(ValueError, match="one folder name"):
            _ = TrainArgs(game="power_hungry_pets", run_name=name).run_dir
        with pytest.raises(ValueError, match="one folder name"):
            _ = RllibTrainArgs(game="power_hungry_pets", run_name=name).run_dir
    assert TrainArgs(game="power_hungry_pets", output=Path("o"), run_name="r").run_dir == \
        Path("o/r")


def _earlier_run(folder: Path, names: tuple[str, ...]) -> dict[Path, str]:
    folder.mkdir(parents=True)
    files = {}
    for name in names:
        path = folder / name
        if "." in name:
            path.write_text(f"earlier {name}")
            files[path] = path.read_text()
        else:
            path.mkdir()
    return files


@pytest.mark.parametrize(("args", "folder", "names"), [
    (["train", "power_hungry_pets"], "power_hungry_pets-2p-seed0", ("model.json",)),
    (["train", "power_hungry_pets", "--players", "3", "--seed", "5"],
     "power_hungry_pets-3p-seed5", ("model.zip", "model.safetensors")),
    (["train", "power_hungry_pets", "--run-name", "mine"], "mine", ("model.safetensors",)),
    (["train", "power_hungry_pets", "--backend", "rllib"], "power_hungry_pets-2p-seed0-rllib",
     ("checkpoint",)),
    (["demo"], "demo", ("model.zip", "model.json")),
])
def test_a_run_folder_holding_a_model_is_refused_without_overwrite(
    args: list[str], folder: str, names: tuple[str, ...], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = _earlier_run(tmp_path / folder, names)
    status = main([*args, "--output", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and "already holds a run" in err and "--overwrite" in err
    assert {path: path.read_text() for path in files} == files
    assert sorted(p.name for p in (tmp_path / folder).iterdir()) == sorted(names)


@pytest.mark.slow
def test_overwrite_replaces_an_earlier_train_run(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _earlier_run(tmp_path / "power_hungry_pets-2p-seed0", ("model.json",))
    assert main(["train", "power_hungry_pets", "--output", str(tmp_path), "--overwrite",
                 *[arg for arg in TINY if arg != "--no-progress"]]) == 0
    card = read_card(tmp_path / "power_hungry_pets-2p-seed0" / "model.zip")
    assert card is not None and card["players"] == 2 and "overwrite" not in card["settings"]
    err = capsys.readouterr().err
    assert "\r" not in err and "step/s" not in err, "no progress bar off a terminal"


@pytest.mark.slow
def test_demo_pins_torch_threads_says_what_its_figures_depend_on_and_overwrites_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    demo = ["demo", "--timesteps", "256", "--games", "2", "--workers", "1",
            "--output", str(tmp_path)]
    monkeypatch.setattr(torch, "get_num_threads", torch.get_num_threads)  # restored after
    previous = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        assert main(demo) == 0
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(previous)
    captured = capsys.readouterr()
    assert "The figures depend on the seed and on the float arithmetic of torch" in captured.out
    assert "1 thread, pinned" in captured.out
    assert "\r" not in captured.err and "match/s" not in captured.err
    assert main(demo) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert main([*demo, "--overwrite"]) == 0
    assert "replacing the earlier demo model" in capsys.readouterr().err
