"""Resuming a ``cardgym train`` run from its latest checkpoint, without unpickling.

Every checkpoint ``checkpoints/step_N.zip`` of a run has its policy file
``step_N.safetensors`` (the network, :mod:`agents.policy_file`) and, written here,
``step_N.optimizer.safetensors``: the optimizer's state (Adam's step counts and
moment estimates) as tensors, and its parameter groups (learning rate, betas, ...)
as JSON in the file's metadata. ``cardgym train ... --resume`` builds the model from
the run's settings, copies both in, and trains on from step N: nothing of the run is
unpickled, so a resumed run trusts its folder no more than ``model:PATH`` does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agents.model_card import ModelError

__all__ = ["OPTIMIZER_SUFFIX", "checkpoints_in", "latest_checkpoint", "load_optimizer",
           "optimizer_path", "save_optimizer"]

#: ``step_N.zip`` -> ``step_N.optimizer.safetensors``.
OPTIMIZER_SUFFIX = ".optimizer.safetensors"

_STEP = re.compile(r"^step_(\d+)\.safetensors$")


def optimizer_path(checkpoint: str | Path) -> Path:
    """The optimizer file beside a checkpoint (``step_N.zip`` or its policy file)."""
    checkpoint = Path(checkpoint)
    stem = checkpoint.name.split(".", 1)[0]
    return checkpoint.with_name(stem + OPTIMIZER_SUFFIX)


def save_optimizer(optimizer: Any, checkpoint: str | Path) -> Path:
    """Write a PyTorch optimizer's state beside ``checkpoint``; returns the file."""
    from safetensors.torch import save_file

    state = optimizer.state_dict()
    tensors = {}
    for index, values in state["state"].items():
        for name, value in values.items():
            tensors[f"state.{index}.{name}"] = value.detach().cpu().contiguous()
    target = optimizer_path(checkpoint)
    save_file(tensors, str(target),
              metadata={"param_groups": json.dumps(state["param_groups"])})
    return target


def load_optimizer(optimizer: Any, checkpoint: str | Path) -> None:
    """Copy the state saved beside ``checkpoint`` into ``optimizer``.

    Raises:
        ModelError: the file is missing or unreadable, or its state does not fit the
            optimizer's parameters (another network).
    """
    from safetensors import safe_open

    source = optimizer_path(checkpoint)
    if not source.is_file():
        raise ModelError(f"{source} does not exist: the checkpoint has no optimizer state "
                         "to resume from")
    try:
        with safe_open(str(source), framework="pt") as handle:
            metadata = handle.metadata() or {}
            tensors = {key: handle.get_tensor(key) for key in handle.keys()}
        groups = json.loads(metadata["param_groups"])
    except (OSError, KeyError, ValueError) as error:
        raise ModelError(f"cannot read the optimizer state {source}: {error}") from None
    state: dict[int, dict[str, Any]] = {}
    for key, tensor in tensors.items():
        _, index, name = key.split(".", 2)
        state.setdefault(int(index), {})[name] = tensor
    params = [p for group in optimizer.param_groups for p in group["params"]]
    for index, values in state.items():
        moment = values.get("exp_avg")
        if (index >= len(params)
                or (moment is not None and tuple(moment.shape) != tuple(params[index].shape))):
            raise ModelError(f"{source} does not fit this network's parameters (another "
                             "--net-arch or game?)")
    try:
        optimizer.load_state_dict({"state": state, "param_groups": groups})
    except (ValueError, KeyError) as error:
        raise ModelError(f"{source} does not fit this optimizer: {error}") from None


def checkpoints_in(run_dir: str | Path) -> list[tuple[int, Path]]:
    """``(N, checkpoints/step_N.zip)`` for every checkpoint of the run with a policy
    file, oldest first."""
    found = []
    for path in (Path(run_dir) / "checkpoints").glob("step_*.safetensors"):
        match = _STEP.match(path.name)
        if match:
            found.append((int(match.group(1)), path.with_suffix(".zip")))
    return sorted(found)


def latest_checkpoint(run_dir: str | Path) -> tuple[int, Path] | None:
    """``(N, checkpoints/step_N.zip)`` of the run's latest checkpoint, or ``None``."""
    found = checkpoints_in(run_dir)
    return found[-1] if found else None
