"""The baseline models shipped in ``models/``: where they are and which exist.

One MaskablePPO model per game at each table size its contract lists in
``baseline_players``, trained from a fixed seed by
``benchmarks/train_baselines.py`` and saved in ``models/GAME-Np/``: the policy file
``model.safetensors`` (:mod:`agents.policy_file`), the SB3 zip ``model.zip`` and the
model card ``model.json``. The agent spec ``baseline`` plays the policy file for the
game and player count at hand (loading it needs the ``train`` extra); it never
unpickles the zip.

The folder is found beside the packages (a clone installed with ``pip install -e``);
the environment variable ``CARDGYM_MODELS`` points elsewhere (to a folder of the same
shape; its policy files are loaded the same safe way).
"""

from __future__ import annotations

import os
from pathlib import Path

from cardgym.registration import Game, find_game, games, short_name

__all__ = ["BASELINE", "baseline_path", "baseline_policy_path", "baseline_settings",
           "models_dir", "network_file"]

#: The name that stands for the shipped baseline of the game and table size at hand.
BASELINE = "baseline"


def models_dir() -> Path:
    """The folder of the shipped models: ``$CARDGYM_MODELS`` or ``models/`` of the clone."""
    override = os.environ.get("CARDGYM_MODELS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[1] / "models"


def baseline_settings() -> list[tuple[Game, int]]:
    """Every (game, player count) with a baseline model (the games'
    ``baseline_players``, also the arena's default sizes), in registry order."""
    return [(game, count) for game in games() for count in game.baseline_players]


def baseline_path(game: Game | str, num_players: int) -> Path:
    """``models/GAME-Np/model.zip``, the SB3 file (it may not exist: see
    :func:`baseline_settings`); its card ``model.json`` is the baseline's card."""
    entry = game if isinstance(game, Game) else find_game(game)
    return models_dir() / f"{short_name(entry.env_id)}-{num_players}p" / "model.zip"


def baseline_policy_path(game: Game | str, num_players: int) -> Path:
    """``models/GAME-Np/model.safetensors``, the policy file ``baseline`` plays."""
    return baseline_path(game, num_players).with_suffix(".safetensors")


def network_file(spec: str | Path, game: Game | str, num_players: int) -> Path:
    """The policy file a start network's ``spec`` names: ``baseline`` (the shipped
    network of ``game`` at ``num_players``), a ``.safetensors`` policy file, a ``.zip``
    saved by ``cardgym train`` (its policy file beside it) or a run folder.

    Raises:
        ModelError: the spec is none of these, or its policy file does not exist.
    """
    from agents.policy_file import ModelError, resolve_model_path

    if str(spec) == BASELINE:
        path = baseline_policy_path(game, num_players)
        if not path.is_file():
            entry = game if isinstance(game, Game) else find_game(game)
            raise ModelError(f"no baseline network for {entry.name} at {num_players} players "
                             f"({path}); give a policy file instead")
        return path
    weights, _ = resolve_model_path(spec)
    if not weights.is_file():
        raise ModelError(f"start model {str(spec)!r}: no policy file {weights}")
    return weights
