"""``cardgym train`` and ``cardgym demo`` end to end at tiny sizes, and their bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.sb3 import read_card
from cardgym.cli import main

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
    (["train", "power_hungry_pets", "--gamma", "1.5"], "--gamma: must be in (0, 1]"),
    (["train", "power_hungry_pets", "--timesteps", "0"], "--timesteps: must be a positive"),
    (["demo", "--games", "none"], "--games: must be a positive integer"),
])
def test_bad_train_and_demo_arguments_exit_2_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([*args, "--output", str(tmp_path)] if args[0] == "train" else args) == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir()), "a refused run must not write anything"


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
