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

import csv
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.model_card import ModelError, card_path, read_card
from agents.policy_file import load_network, weights_path
from cardgym.files import atomic_save

__all__ = ["OPTIMIZER_SUFFIX", "RESUME_SETTINGS", "card_differences", "checkpoint_files",
           "checkpoints_in", "describe_incomplete", "incomplete_checkpoints",
           "latest_checkpoint", "load_optimizer", "optimizer_path", "read_eval", "restore",
           "resume_point", "save_optimizer"]

#: ``step_N.zip`` -> ``step_N.optimizer.safetensors``.
OPTIMIZER_SUFFIX = ".optimizer.safetensors"

_STEP = re.compile(r"^step_(\d+)\.(zip|json|safetensors|optimizer\.safetensors)$")


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
    metadata = {"param_groups": json.dumps(state["param_groups"])}
    return atomic_save(lambda where: save_file(tensors, str(where), metadata=metadata),
                       optimizer_path(checkpoint))


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


def checkpoint_files(checkpoint: str | Path) -> tuple[Path, ...]:
    """The files of a checkpoint ``step_N.zip``, in the order they are written: SB3's
    file, the optimizer state, the policy file, and last the card, whose presence
    marks the checkpoint complete (each file is written whole or not at all)."""
    checkpoint = Path(checkpoint)
    return (checkpoint, optimizer_path(checkpoint), weights_path(checkpoint),
            card_path(checkpoint))


def checkpoints_in(run_dir: str | Path) -> list[tuple[int, Path]]:
    """``(N, checkpoints/step_N.zip)`` for every complete checkpoint of the run (all
    of :func:`checkpoint_files` there), oldest first."""
    return [(steps, checkpoint) for steps, checkpoint, missing in _checkpoints(run_dir)
            if not missing]


def incomplete_checkpoints(run_dir: str | Path) -> list[tuple[int, Path, list[str]]]:
    """``(N, checkpoints/step_N.zip, missing file names)`` for every checkpoint of the
    run that was cut off while it was written (a kill, a full disk), oldest first."""
    return [entry for entry in _checkpoints(run_dir) if entry[2]]


def _checkpoints(run_dir: str | Path) -> list[tuple[int, Path, list[str]]]:
    folder = Path(run_dir) / "checkpoints"
    steps = set()
    for path in folder.glob("step_*"):
        match = _STEP.match(path.name)
        if match:
            steps.add(int(match.group(1)))
    found = []
    for step in sorted(steps):
        checkpoint = folder / f"step_{step}.zip"
        missing = [path.name for path in checkpoint_files(checkpoint) if not path.is_file()]
        found.append((step, checkpoint, missing))
    return found


def latest_checkpoint(run_dir: str | Path) -> tuple[int, Path] | None:
    """``(N, checkpoints/step_N.zip)`` of the run's latest complete checkpoint, or ``None``."""
    found = checkpoints_in(run_dir)
    return found[-1] if found else None


def resume_point(run_dir: Path, timesteps: int,
                 current: Mapping[str, Any]) -> tuple[int, Path]:
    """The steps trained and the latest checkpoint of the run in ``run_dir``, to be
    continued up to ``timesteps`` with the training settings ``current`` (a
    ``TrainArgs`` as a dict, with ``opponent_models``; see :func:`card_differences`).

    Raises:
        ValueError: the run has no checkpoint, has already trained ``timesteps``
            steps, or was trained with other settings (:data:`RESUME_SETTINGS`) or
            against opponents whose model files have changed since.
    """
    latest = latest_checkpoint(run_dir)
    if latest is None:
        cut = incomplete_checkpoints(run_dir)
        raise ValueError(f"--resume: {run_dir} has no checkpoint to resume from (a complete "
                         "one: checkpoints/step_N.zip with its .safetensors, "
                         ".optimizer.safetensors and .json)"
                         + (f"; {_describe(cut)}" if cut else ""))
    steps, checkpoint = latest
    if steps >= timesteps:
        raise ValueError(f"--resume: {run_dir} has already trained {steps} steps; ask "
                         f"for more than that with --timesteps (got {timesteps})")
    differ = card_differences(read_card(checkpoint) or {}, current)
    if differ:
        raise ValueError(f"--resume: settings differ from {checkpoint.name}'s ("
                         + "; ".join(differ) + "); resume with the run's own settings")
    return latest


#: Settings a resumed run must share with the run it continues.
RESUME_SETTINGS = ("players", "net_arch", "options", "opponents", "vector", "league",
                   "pfsp_self")


def card_differences(card: Mapping[str, Any], current: Mapping[str, Any],
                     keys: Sequence[str] = RESUME_SETTINGS) -> list[str]:
    """How the training settings ``current`` (a ``TrainArgs`` as a dict, with
    ``opponent_models``: the content of the opponents' model files, by spec; see
    :func:`agents.train.opponent_models`) differ from those a checkpoint's or model's
    ``card`` records, in ``keys`` and the opponents' models; one phrase
    per difference, none when they agree. A card without a setting (written by an
    earlier cardgym) agrees on it."""
    recorded = dict(card.get("settings") or {})
    recorded["players"] = card.get("players")
    recorded["options"] = card.get("options", {})
    differ = [f"{key}: the run has {_plain(recorded.get(key))}, this call "
              f"{_plain(current[key])}" for key in keys
              if key in recorded and _plain(recorded.get(key)) != _plain(current[key])]
    models = card.get("opponent_models")
    now = current.get("opponent_models")
    if isinstance(models, dict) and now is not None:
        changed = sorted(spec for spec in {*models, *now} if models.get(spec) != now.get(spec))
        if changed:
            differ.append(f"the model files of opponent {', '.join(changed)} changed since "
                          "the run trained against them")
    return differ


def restore(model: Any, game: Any, players: int, options: Mapping[str, Any], steps: int,
            checkpoint: Path) -> None:
    """Copy the checkpoint's network and optimizer state into ``model``, which has
    trained ``steps`` steps then."""
    network = load_network(weights_path(checkpoint), game, players, options)
    model.policy.load_state_dict(network.state_dict())
    load_optimizer(model.policy.optimizer, checkpoint)
    model.num_timesteps = steps


def describe_incomplete(run_dir: str | Path, after: int = -1) -> str | None:
    """A sentence on the run's incomplete checkpoints later than ``after`` steps, or
    None when there are none."""
    cut = [entry for entry in incomplete_checkpoints(run_dir) if entry[0] > after]
    return _describe(cut) if cut else None


def _describe(cut: list[tuple[int, Path, list[str]]]) -> str:
    return "; ".join(f"{checkpoint.stem} is incomplete (no {', '.join(missing)})"
                     for _, checkpoint, missing in cut)


def _plain(value: Any) -> Any:
    """Tuples as lists, as a card's JSON holds them."""
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def read_eval(path: Path) -> list[dict[str, Any]]:
    """The rows of an earlier ``eval.csv`` (none if there is none)."""
    if not path.is_file():
        return []
    try:
        with path.open(newline="") as handle:
            return [{key: int(value) if key == "timesteps" else float(value)
                     for key, value in row.items()} for row in csv.DictReader(handle)]
    except (OSError, ValueError, TypeError) as error:
        raise ValueError(f"--resume: cannot read the run's evaluations {path}: {error}; "
                         "move it aside to resume without them") from None
