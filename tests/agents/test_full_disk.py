"""A full disk on the commands that hold a folder or write tensors: one line naming the
file and the cause, exit status 1, no traceback and no half-written file.

The disk is full where the bytes meet the file system (:mod:`tests.full_disk`): the
lock file's writes fail with ``ENOSPC``, or safetensors' save fails as it does on a
full disk.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("safetensors")

import agents.runs  # noqa: E402
from cardgym_cli import main  # noqa: E402
from tests.agents.test_soup import ingredient  # noqa: E402
from tests.full_disk import (  # noqa: E402
    NO_SPACE,
    open_on_a_full_disk,
    safetensors_on_a_full_disk,
)

#: A tiny Kuhn poker run: 128 steps, one checkpoint.
TRAIN = ["train", "kuhn_poker", "--timesteps", "128", "--n-envs", "2", "--n-steps", "64",
         "--batch-size", "64", "--checkpoint-every", "128", "--eval-every", "128",
         "--eval-games", "2", "--net-arch", "8", "--no-progress", "--no-tensorboard",
         "--run-name", "r"]


def soup_of_two(tmp_path: Path) -> list[str]:
    pair = ingredient(tmp_path / "a", 1), ingredient(tmp_path / "b", 2)
    return ["soup", str(tmp_path / "out"), str(pair[0]), str(pair[1])]


#: Each command that holds a folder while it writes, and the lock file it holds.
HOLDERS: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "train": (lambda tmp: [*TRAIN, "--output", str(tmp / "runs")], r"runs/r/\.lock"),
    "eval --journal": (lambda tmp: [
        "eval", "karel_kakelaar", "--agents", "random", "random", "--games", "2",
        "--workers", "1", "--no-progress", "--journal", str(tmp / "journal")],
        r"journal/\.[^/ ]+\.lock"),
    "arena --journal": (lambda tmp: [
        "arena", "--env", "karel_kakelaar", "--players", "2", "--agents", "random",
        "heuristic", "--games", "2", "--workers", "1", "--output", str(tmp / "out"),
        "--journal", str(tmp / "journal")], r"journal/\.[^/ ]+\.lock"),
    "soup": (soup_of_two, r"out/\.lock"),
}


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    error = capsys.readouterr().err
    assert "Traceback" not in error and "During handling" not in error, error
    return error.strip().splitlines()[-1]


def files_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*")
                  if path.is_file())


@pytest.mark.parametrize("command", list(HOLDERS))
def test_a_full_disk_when_the_lock_is_taken_is_one_line_and_exit_1(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    argv, lock = HOLDERS[command]
    arguments = argv(tmp_path)
    before = files_under(tmp_path)
    monkeypatch.setattr(agents.runs, "open", open_on_a_full_disk, raising=False)
    assert main(arguments) == 1
    last = one_line_error(capsys)
    assert re.fullmatch(f"cardgym: error: cannot write {re.escape(str(tmp_path))}/{lock}: "
                        f"{NO_SPACE}", last), last
    # Nothing was played or written: only the (empty) lock file is new.
    new = [name for name in files_under(tmp_path) if name not in before]
    assert len(new) == 1 and new[0].endswith(".lock"), new


def test_a_full_disk_while_a_checkpoint_s_tensors_are_written_is_one_line_and_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import safetensors.torch

    monkeypatch.setattr(safetensors.torch, "save_file", safetensors_on_a_full_disk())
    assert main([*TRAIN, "--output", str(tmp_path)]) == 1
    checkpoints = tmp_path / "r" / "checkpoints"
    assert one_line_error(capsys) == (f"cardgym: error: cannot write {checkpoints}/"
                                      f"step_128.optimizer.safetensors: {NO_SPACE}")
    assert not list(tmp_path.rglob("*.safetensors")) and not list(tmp_path.rglob(".*partial*"))
    assert not (checkpoints / "step_128.json").exists(), "no card: the checkpoint is not whole"


def test_a_full_disk_while_the_soup_is_written_is_one_line_and_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import safetensors.torch

    arguments = soup_of_two(tmp_path)
    monkeypatch.setattr(safetensors.torch, "save_file", safetensors_on_a_full_disk())
    assert main(arguments) == 1
    out = tmp_path / "out"
    assert one_line_error(capsys) == (f"cardgym: error: cannot write {out}/model.safetensors: "
                                      f"{NO_SPACE}")
    assert files_under(out) == [".lock"]
