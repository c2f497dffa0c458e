"""Training runs that survive faults: a second run, a run started again over a stopped
one, a kill or a full disk while a checkpoint is written, and sizes that cannot run.

Each test stages the fault for real (a process killed with SIGKILL, an ``OSError`` of
a full disk from the file system call, a second process holding the folder) and
checks what is left on disk and what ``--resume`` makes of it.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from agents.policy_file import MAX_PARAMETERS
from agents.resume import checkpoints_in, incomplete_checkpoints
from agents.runs import LOCK_FILE, RunInUseError, hold_run_folder
from agents.sb3 import read_card
from agents.train import TrainArgs, check_budget, train
from cardgym.files import OutputError
from cardgym_cli import main

ROOT = Path(__file__).resolve().parents[2]

#: A tiny Kuhn poker run: 512 steps, a checkpoint every 128.
TINY = ["kuhn_poker", "--timesteps", "512", "--n-envs", "2", "--n-steps", "64",
        "--batch-size", "64", "--checkpoint-every", "128", "--eval-every", "256",
        "--eval-games", "3", "--net-arch", "16", "--no-progress", "--no-tensorboard",
        "--run-name", "r"]


def tiny_args(output: Path, **changes: Any) -> TrainArgs:
    settings: dict[str, Any] = dict(
        game="kuhn_poker", timesteps=512, n_envs=2, n_steps=64, batch_size=64,
        checkpoint_every=128, eval_every=256, eval_games=3, net_arch=(16,), progress=False,
        tensorboard=False, output=output, run_name="r")
    return TrainArgs(**{**settings, **changes})


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file() and path.name != LOCK_FILE}


def stopped_run(output: Path) -> Path:
    """A run stopped after its checkpoints (the model files of its end never written)."""
    assert main(["train", *TINY, "--output", str(output)]) == 0
    run = output / "r"
    for name in ("model.zip", "model.safetensors", "model.json"):
        (run / name).unlink()
    return run


# ------------------------------------------------------------- a second run


def test_starting_a_stopped_run_again_without_resume_is_refused_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = stopped_run(tmp_path)
    before = snapshot(run)
    assert [steps for steps, _ in checkpoints_in(run)] == [128, 256, 384, 512]
    capsys.readouterr()
    assert main(["train", *TINY, "--output", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert "already holds a run" in error and "checkpoints" in error
    assert "pass --resume (resume=True) to continue it, or --overwrite" in error
    assert snapshot(run) == before

    with pytest.raises(FileExistsError, match="--resume"):
        train(tiny_args(tmp_path))
    assert snapshot(run) == before


def test_overwrite_replaces_the_earlier_run_whole(tmp_path: Path) -> None:
    run = stopped_run(tmp_path)
    (run / "checkpoints" / "step_9999.zip").write_bytes(b"an earlier run's cut-off checkpoint")
    assert main(["train", *TINY, "--timesteps", "256", "--overwrite",
                 "--output", str(tmp_path)]) == 0
    assert [steps for steps, _ in checkpoints_in(run)] == [128, 256]
    assert incomplete_checkpoints(run) == []
    rows = (run / "eval.csv").read_text().splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["256"]


def test_a_second_run_into_a_held_folder_is_refused_naming_the_holder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from pathlib import Path
            from agents.runs import hold_run_folder
            with hold_run_folder(Path({str(tmp_path / 'r')!r})):
                print("held", flush=True)
                time.sleep(60)
            """)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert main(["train", *TINY, "--output", str(tmp_path)]) == 2
        error = capsys.readouterr().err
        assert f"in use by another run (process {holder.pid} on" in error
        assert not (tmp_path / "r" / "checkpoints").exists()
        with pytest.raises(RunInUseError, match=str(holder.pid)):
            train(tiny_args(tmp_path))
    finally:
        holder.kill()
        holder.wait()
    # The holder died without a word: its lock file stays, and blocks nothing.
    assert json.loads((tmp_path / "r" / LOCK_FILE).read_text())["pid"] == holder.pid
    assert main(["train", *TINY, "--timesteps", "128", "--output", str(tmp_path)]) == 0


def test_the_folder_is_held_for_the_whole_run_and_free_after_it(tmp_path: Path) -> None:
    seen: list[str] = []

    def second_run_refused() -> None:
        with pytest.raises(RunInUseError) as refused:
            with hold_run_folder(tmp_path / "r"):
                pass
        seen.append(str(refused.value))

    import agents.train as train_module

    original = train_module.save_optimizer

    def save_and_try_a_second_run(optimizer: Any, checkpoint: str | Path) -> Path:
        second_run_refused()
        return original(optimizer, checkpoint)

    try:
        train_module.save_optimizer = save_and_try_a_second_run
        train(tiny_args(tmp_path, timesteps=128))
    finally:
        train_module.save_optimizer = original
    assert seen and f"process {os.getpid()}" in seen[0]
    with hold_run_folder(tmp_path / "r"):
        pass  # free once the run has ended


# ---------------------------------------------- a fault while a checkpoint is written


KILLED_WHILE_WRITING = """
import os, signal, sys
from pathlib import Path
import agents.train as train_module
from agents.train import TrainArgs, train

calls = []
original = train_module.{target}

def killed_on_the_third(*args):
    calls.append(1)
    if len(calls) == 3:
        {fault}
    return original(*args)

train_module.{target} = killed_on_the_third
train(TrainArgs(game="kuhn_poker", timesteps=512, n_envs=2, n_steps=64, batch_size=64,
                checkpoint_every=128, eval_every=256, eval_games=3, net_arch=(16,),
                progress=False, tensorboard=False, output=Path(sys.argv[1]), run_name="r"))
"""


def kill_while_writing(output: Path, target: str, fault: str) -> int:
    script = KILLED_WHILE_WRITING.format(target=target, fault=fault)
    return subprocess.run([sys.executable, "-c", script, str(output)], cwd=ROOT,
                          capture_output=True, timeout=300).returncode


@pytest.mark.parametrize("target", ["save_optimizer", "save_policy_file"])
def test_a_run_killed_while_writing_a_checkpoint_resumes_from_the_last_complete_one(
        tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = kill_while_writing(tmp_path, target, "os.kill(os.getpid(), signal.SIGKILL)")
    assert status == -signal.SIGKILL
    run = tmp_path / "r"
    assert [steps for steps, _ in checkpoints_in(run)] == [128, 256]
    [(steps, checkpoint, missing)] = incomplete_checkpoints(run)
    assert steps == 384 and checkpoint.is_file() and f"{checkpoint.stem}.json" in missing

    assert main(["train", *TINY, "--output", str(tmp_path)]) == 2, "no new run over it"
    assert main(["train", *TINY, "--resume", "--output", str(tmp_path)]) == 0
    error = capsys.readouterr().err
    assert "resuming from step_256; step_384 is incomplete (no step_384" in error
    assert [steps for steps, _ in checkpoints_in(run)] == [128, 256, 384, 512]
    assert incomplete_checkpoints(run) == [] and not list(run.rglob(".*.partial*"))
    card = read_card(run / "model.zip")
    assert card is not None and card["timesteps"] == 512 and card["resumed_from"] == 256


def test_resuming_against_an_opponent_whose_model_file_changed_is_refused(
        tmp_path: Path) -> None:
    # A run trained against model:a for 256 steps; a's file is then replaced by
    # another network (b's): the resumed run would train against another opponent,
    # so it is refused and changes nothing. With a's own file back it resumes.
    for name, seed in (("a", 0), ("b", 1)):
        train(tiny_args(tmp_path, run_name=name, timesteps=128, seed=seed))
    opponent = tmp_path / "a" / "model.safetensors"
    original = opponent.read_bytes()
    args = tiny_args(tmp_path, opponents=(f"model:{opponent}",), timesteps=256)
    train(args)
    card = read_card(tmp_path / "r" / "model.zip")
    assert card is not None and list(card["opponent_models"]) == [f"model:{opponent}"]
    opponent.write_bytes((tmp_path / "b" / "model.safetensors").read_bytes())
    before = snapshot(tmp_path / "r")
    with pytest.raises(ValueError, match=re.escape(f"opponent model:{opponent} changed")):
        train(dataclasses.replace(args, timesteps=512, resume=True))
    assert snapshot(tmp_path / "r") == before
    opponent.write_bytes(original)
    train(dataclasses.replace(args, timesteps=512, resume=True))
    card = read_card(tmp_path / "r" / "model.zip")
    assert card is not None and card["timesteps"] == 512 and card["resumed_from"] == 256


def test_a_full_disk_while_writing_a_checkpoint_leaves_no_half_file(tmp_path: Path) -> None:
    import agents.resume as resume_module

    calls: list[int] = []
    original = resume_module.atomic_save

    def disk_full_on_the_third(save: Any, path: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            def half_then_full(where: Path) -> None:
                Path(where).write_bytes(b"half")
                raise OSError(errno.ENOSPC, "No space left on device")
            return original(half_then_full, path)
        return original(save, path)

    resume_module.atomic_save = disk_full_on_the_third
    try:
        with pytest.raises(OutputError, match="No space left on device") as failed:
            train(tiny_args(tmp_path))
    finally:
        resume_module.atomic_save = original
    assert "step_384.optimizer.safetensors" in str(failed.value)
    assert "\n" not in str(failed.value)
    run = tmp_path / "r"
    assert not list(run.rglob(".*.partial*")), "the half-written file is removed"
    assert not (run / "checkpoints" / "step_384.optimizer.safetensors").exists()
    assert [steps for steps, _ in checkpoints_in(run)] == [128, 256]
    args = tiny_args(tmp_path, resume=True)
    assert read_card(train(args)) is not None


def test_leftover_temporary_files_of_a_killed_writer_are_cleared_on_resume(
        tmp_path: Path) -> None:
    run = stopped_run(tmp_path)
    leftover = run / "checkpoints" / ".step_640.12345.partial.zip"
    leftover.write_bytes(b"cut off")
    assert main(["train", *TINY, "--timesteps", "640", "--resume",
                 "--output", str(tmp_path)]) == 0
    assert not leftover.exists()


# ------------------------------------------------------------ sizes and budgets


def test_a_vector_run_trains_exactly_its_budget(tmp_path: Path) -> None:
    # 16 games, rollouts of 16 x 64 = 1024 steps: 1152 is one rollout and an eighth.
    assert main(["train", "kuhn_poker", "--vector", "16", "--timesteps", "1152",
                 "--n-steps", "64", "--batch-size", "64", "--checkpoint-every", "1024",
                 "--eval-every", "1152", "--eval-games", "3", "--net-arch", "16",
                 "--opponents", "random", "--no-progress", "--no-tensorboard",
                 "--output", str(tmp_path), "--run-name", "v"]) == 0
    card = read_card(tmp_path / "v" / "model.zip")
    assert card is not None and card["timesteps"] == 1152


def test_torch_threads_stay_pinned_through_a_vector_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    threads: list[int] = []
    update = MaskablePPO.train

    def counting_update(self: Any) -> None:
        threads.append(torch.get_num_threads())
        update(self)

    monkeypatch.setattr(MaskablePPO, "train", counting_update)
    previous = torch.get_num_threads()
    try:
        path = train(tiny_args(tmp_path, vector=16, n_envs=8, timesteps=2048, n_steps=32,
                               checkpoint_every=1024, eval_every=2048,
                               opponents=("random",)))
    finally:
        torch.set_num_threads(previous)
    assert threads and set(threads) == {1}, threads
    card = read_card(path)
    assert card is not None and card["torch_threads"] == 1


@pytest.mark.parametrize(("extra", "message"), [
    (["--vector", str(10**9)], "--vector must be 1 to 65536 games"),
    (["--n-envs", "100000"], "--n-envs must be 1 to 1024"),
    (["--batch-size", "1000000"], "--batch-size 1000000 is larger than one rollout "
                                  "(n_steps 64 x 2 games = 128 steps)"),
    (["--timesteps", "513"], "--timesteps must be a whole number of steps of the 2 games "
                             "played side by side (each step moves every game on): 513 is "
                             "not; use 512 or 514"),
    (["--n-steps", str(10**8)], "--n-steps 100000000 x 2 games = 200000000 steps per rollout"),
    (["--run-name", "bad\nname"], "no control characters"),
    (["--run-name", "x" * 300], "at most 255 bytes"),
    (["--net-arch", "1000000000"], "--net-arch 1000000000 makes a network of 45,000,000,005 "
                                   "parameters for kuhn_poker at 2 players (19 observation "
                                   "values, 4 actions); at most 50,000,000, the most a policy "
                                   "file loads"),
    (["--net-arch", "64", str(10**30)], f"--net-arch 64 {10**30} makes a network of"),
])
def test_sizes_and_names_that_cannot_run_are_refused_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
        message: str) -> None:
    assert main(["train", *TINY, "--output", str(tmp_path / "out"), *extra]) == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error
    assert not (tmp_path / "out").exists()


def test_a_run_trains_networks_up_to_the_size_a_policy_file_loads_and_no_larger(
        tmp_path: Path) -> None:
    # Kuhn poker: 19 observation values, 4 actions. One hidden layer of u units holds
    # 2 x 20u (the policy's and the value's) + 5u + 5 (the heads) = 45u + 5 parameters.
    largest = (MAX_PARAMETERS - 5) // 45
    check_budget(tiny_args(tmp_path, net_arch=(largest,)))
    with pytest.raises(ValueError, match=rf"^net_arch {largest + 1} makes a network of "
                       rf"{45 * (largest + 1) + 5:,} parameters .* at most "
                       rf"{MAX_PARAMETERS:,}"):
        check_budget(tiny_args(tmp_path, net_arch=(largest + 1,)))
    with pytest.raises(ValueError, match="^net_arch 1000000000 makes a network of"):
        train(tiny_args(tmp_path, net_arch=(10**9,)))
    assert not list(tmp_path.iterdir()), "nothing is made for a refused run"


# ------------------------------------------------------------------- the RLlib backend


def test_an_rllib_run_refuses_a_network_larger_than_a_policy_file_loads(
        tmp_path: Path) -> None:
    from agents.rllib.train import RllibTrainArgs
    from agents.rllib.train import train as rllib_train

    args = RllibTrainArgs(game="kuhn_poker", net_arch=(10**9,), output=tmp_path,
                          run_name="r")
    with pytest.raises(ValueError, match=rf"^net_arch 1000000000 makes a network of "
                       rf"45,000,000,005 parameters .* at most {MAX_PARAMETERS:,}"):
        rllib_train(args)
    assert not list(tmp_path.iterdir()), "nothing is made for a refused run"


def test_an_rllib_run_refuses_a_held_folder_and_an_earlier_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agents.rllib.train import RllibTrainArgs
    from agents.rllib.train import train as rllib_train

    args = RllibTrainArgs(game="kuhn_poker", output=tmp_path, run_name="r")
    with hold_run_folder(tmp_path / "r"):
        with pytest.raises(RunInUseError, match=f"process {os.getpid()}"):
            rllib_train(args)
    (tmp_path / "r" / "progress.csv").write_text("iteration\n1\n")
    with pytest.raises(FileExistsError, match="progress.csv"):
        rllib_train(args)


def test_a_ray_start_up_that_times_out_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")

    def timed_out(*_: Any, **__: Any) -> None:
        raise Exception("The current node timed out during startup. This could happen "
                        "because some of the raylet failed to startup or the GCS has become "
                        "overloaded.\n(and forty lines more)")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", timed_out)
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    status = main(["train", "kuhn_poker", "--backend", "rllib", "--iterations", "1",
                   "--no-progress", "--output", str(tmp_path), "--run-name", "r"])
    error = capsys.readouterr().err
    assert status == 2, error
    assert ("Ray could not start on this machine: The current node timed out during "
            "startup.") in error
    assert "Traceback" not in error and "forty lines" not in error
