"""examples/ppo_vector.py, the one-file masked PPO on the learner vector env, trains
for a few updates: it plays whole games, its losses are finite and its network moves."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest
import torch

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ppo_vector.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ppo_vector", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("game", "players"), [("power_hungry_pets", 2), ("karel_kakelaar", 3)])
def test_the_example_trains_for_a_few_updates(game: str, players: int,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    args = example.arguments(["--env", game, "--players", str(players), "--num-envs", "32",
                              "--num-steps", "16", "--updates", "3", "--opponents", "heuristic",
                              "random", "--seed", "1"])
    result = example.train(args)
    history = result["history"]
    assert [record["steps"] for record in history] == [512, 1024, 1536]
    assert sum(record["games"] for record in history) > 0
    assert all(math.isfinite(record[key]) for record in history
               for key in ("policy_loss", "value_loss", "entropy"))
    torch.manual_seed(args.seed)  # the network as the run initialised it
    fresh = example.Agent(result["agent"].actor[0].in_features,
                          result["agent"].actor[-1].out_features, args.hidden)
    moved = [not torch.equal(a, b) for a, b in zip(fresh.parameters(),
                                                      result["agent"].parameters(), strict=True)]
    assert any(moved), "the updates left the network as it was initialised"
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 3 and printed[-1].startswith("update    3")


def test_the_example_runs_from_the_command_line_arguments() -> None:
    example = load_example()
    assert example.main(["--env", "kuhn_poker", "--num-envs", "8", "--num-steps", "4",
                         "--updates", "1", "--opponents", "random"]) == 0
