"""benchmarks/train_speed.py: each training path runs in a process of its own, with
PyTorch on the threads asked for, and the table splits the time as it says."""

from __future__ import annotations

from benchmarks import train_speed


def test_a_batched_path_trains_in_its_own_process_on_one_pytorch_thread() -> None:
    result = train_speed.measure("karel_kakelaar", 2, 2048, vector=64, batch_size=256)
    assert result["steps"] == 2048
    assert result["torch_threads_start"] == result["torch_threads_end"] == 1
    assert result["steps_per_second"] > 0 and result["rollout"] > 0 and result["update"] > 0
    # The engine and the opponents are parts of collecting the rollout.
    assert 0 < result["env_engine"] + result["env_opponents"] <= result["rollout"]


def test_the_table_gives_each_path_against_the_games_first() -> None:
    base = {"steps_per_second": 1000.0, "rollout": 10.0, "update": 10.0,
            "torch_threads_start": 1.0, "torch_threads_end": 1.0}
    fast = {"steps_per_second": 2500.0, "rollout": 1.0, "update": 3.0, "env_engine": 0.25,
            "env_opponents": 0.25, "torch_threads_start": 1.0, "torch_threads_end": 1.0}
    text = train_speed.format_table([("g", "in-process, 8 envs, batch 256", base),
                                     ("g", "--vector 256, batch 256", fast)], 2048, 2)
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| g ")]
    assert rows[0][2:6] == ["1,000", "1.0", "10.0", "1.0"]
    assert rows[1][2:10] == ["2,500", "2.5", "1.0", "10.0", "3.0", "0.2", "0.2", "0.5"]
    assert rows[1][10].strip(" |") == "1 / 1"
