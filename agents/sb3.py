"""Trained MaskablePPO models as policies (needs the ``train`` extra).

``cardgym train`` saves ``model.zip`` with a ``model.json`` card beside it (game,
players, rule options, training budget). :class:`ModelPolicy` loads either and
checks that the model fits the game it is asked to play.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.registration import GameEntry


class ModelError(ValueError):
    """A model file that is missing, unreadable, or made for another game."""


def card_path(model_path: str | Path) -> Path:
    """The JSON card saved beside a model: ``x.zip`` -> ``x.json``."""
    return Path(model_path).with_suffix(".json")


def read_card(model_path: str | Path) -> dict[str, Any] | None:
    """The model card of a saved model, or None when there is none."""
    path = card_path(model_path)
    if not path.is_file():
        return None
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def write_card(model_path: str | Path, card: Mapping[str, Any]) -> Path:
    path = card_path(model_path)
    path.write_text(json.dumps(dict(card), indent=2, sort_keys=True, default=str) + "\n")
    return path


class ModelPolicy:
    """A MaskablePPO model playing from observation and mask.

    Args:
        model: a loaded ``sb3_contrib.MaskablePPO``.
        deterministic: take the most probable legal action (default), or sample
            from the masked distribution with the generator passed to ``act``.
    """

    name = "model"

    def __init__(self, model: Any, deterministic: bool = True) -> None:
        self.model = model
        self.deterministic = deterministic

    @classmethod
    def load(cls, path: str | Path, game: GameEntry | None = None, num_players: int | None = None,
             options: Mapping[str, Any] | None = None, deterministic: bool = True) -> ModelPolicy:
        """Load a model saved by ``cardgym train``.

        Raises:
            ModelError: if the file is missing or was trained for another game or
                observation layout.
        """
        path = Path(path)
        if not path.is_file():
            raise ModelError(f"model file {str(path)!r} does not exist")
        card = read_card(path)
        if card is not None and game is not None and card.get("game") != game.env_id:
            raise ModelError(f"{path} was trained on {card.get('game')}, not {game.env_id}")
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        try:
            model = MaskablePPO.load(path, device="cpu")
        except Exception as error:  # a corrupt or foreign zip: say which file
            raise ModelError(f"cannot load {path} as a MaskablePPO model: {error}") from error
        if game is not None:
            from agents.single_agent import make_game_env

            env = make_game_env(game, num_players or min(game.player_counts), options)
            agent = env.possible_agents[0]
            expected = env.observation_space(agent)["observation"].shape  # type: ignore[index]
            actions = env.action_space(agent).n  # type: ignore[attr-defined]
            model_actions = getattr(model.action_space, "n", None)
            if model.observation_space.shape != expected or model_actions != actions:
                raise ModelError(
                    f"{path} expects observations {model.observation_space.shape} and "
                    f"{model_actions} actions; {game.env_id} has {expected} and {actions}"
                )
        return cls(model, deterministic)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        import torch

        policy = self.model.policy
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).reshape(1, -1)
            distribution = policy.get_distribution(obs, action_masks=action_mask.astype(bool))
            probs = distribution.distribution.probs[0].numpy()
        if self.deterministic:
            return int(np.argmax(probs))
        probs = np.where(action_mask.astype(bool), probs, 0.0)
        return int(rng.choice(probs.size, p=probs / probs.sum()))

    def __repr__(self) -> str:
        return f"ModelPolicy(deterministic={self.deterministic})"
