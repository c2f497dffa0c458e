"""Trained MaskablePPO models as policies (needs the ``train`` extra).

``cardgym train`` saves ``model.zip`` (SB3's file, for resuming training), the policy
file ``model.safetensors`` (the network as plain tensors, :mod:`agents.policy_file`)
and the model card ``model.json`` beside them (game, players, rule options, training
budget, how to rebuild the network). :class:`ModelPolicy` loads the policy file,
which runs no code, and checks that the model fits the game it is asked to play. An
SB3 zip without a policy file loads only by unpickling, which runs any code the file
carries: only when asked with ``trust_pickle=True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.model_card import (
    ModelError,
    card_path,
    game_spaces,
    load_target,
    players_problem,
    read_card,
    write_card,
)
from agents.policy_file import (
    PickleRefusedError,
    load_network,
    resolve_model_path,
    unpickle_model,
)
from cardgym.registration import BoundGame, Game

# The card's names stay importable from here, beside the loader that reads the cards.
__all__ = ["ModelError", "ModelPolicy", "card_path", "players_problem", "read_card",
           "write_card"]


class ModelPolicy:
    """A MaskablePPO policy network playing from observation and mask.

    Args:
        network: sb3-contrib's ``MaskableActorCriticPolicy`` (``model.policy`` of a
            ``MaskablePPO`` model, or one rebuilt from a policy file).
        deterministic: take the most probable legal action (default), or sample
            from the masked distribution with the generator passed to ``act``.
    """

    name = "model"

    def __init__(self, network: Any, deterministic: bool = True) -> None:
        self.network = network
        self.deterministic = deterministic

    @classmethod
    def load(cls, path: str | Path, game: Game | BoundGame | None = None,
             num_players: int | None = None,
             options: Mapping[str, Any] | None = None, deterministic: bool = True,
             trust_pickle: bool = False) -> ModelPolicy:
        """Load a model saved by ``cardgym train``.

        Args:
            path: a policy file ``x.safetensors``, an SB3 zip ``x.zip`` (its policy file
                ``x.safetensors`` is used when there is one), or a run folder.
            game: the game to play (the model must have been trained on it), or a
                bound game (then no ``num_players`` nor ``options``).
            num_players: seats at the table.
            options: rule options of the game.
            deterministic: see the class.
            trust_pickle: allow unpickling an SB3 zip that has no policy file beside
                it. Unpickling runs any code the file carries.

        Raises:
            ModelError: if the file is missing or was trained for another game, player
                count (the card's ``players``) or observation layout; ``PickleRefusedError`` (a ``ModelError``) for a zip
                without a policy file, unless ``trust_pickle``.
        """
        import torch

        torch.set_num_threads(1)
        weights, archive = resolve_model_path(path)
        if weights.is_file() or archive is None:
            # load_network reads a bound game's table size and options itself.
            return cls(load_network(weights, game, num_players, options), deterministic)
        if not archive.is_file():
            if Path(path).is_dir():
                raise ModelError(f"{path} holds neither {weights.name} nor {archive.name}")
            raise ModelError(f"model file {str(path)!r} does not exist")
        bound, entry, num_players = load_target(game, num_players)
        card = read_card(archive)
        if card is not None and entry is not None and card.get("game") not in entry.env_ids:
            raise ModelError(f"{archive} was trained on {card.get('game')}, not {entry.env_id}")
        problem = None if card is None else players_problem(card, archive, num_players)
        if problem:
            raise ModelError(problem)
        if not trust_pickle:
            raise PickleRefusedError(archive)
        model = unpickle_model(archive)
        if entry is not None:
            observation_space, action_space = (game_spaces(bound) if bound is not None else
                                               game_spaces(entry, num_players, options))
            expected, actions = observation_space.shape, action_space.n
            model_actions = getattr(model.action_space, "n", None)
            if model.observation_space.shape != expected or model_actions != actions:
                raise ModelError(
                    f"{archive} expects observations {model.observation_space.shape} and "
                    f"{model_actions} actions; {entry.env_id} has {expected} and {actions}"
                )
        model.policy.set_training_mode(False)
        return cls(model.policy, deterministic)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        import torch

        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).reshape(1, -1)
            distribution = self.network.get_distribution(obs,
                                                         action_masks=action_mask.astype(bool))
            probs = distribution.distribution.probs[0].numpy()
        if self.deterministic:
            return int(np.argmax(probs))
        probs = np.where(action_mask.astype(bool), probs, 0.0)
        return int(rng.choice(probs.size, p=probs / probs.sum()))

    def act_batch(self, observations: NDArray[np.float32], action_masks: NDArray[np.int8],
                  rng: np.random.Generator) -> NDArray[np.int64]:
        """The actions of a batch of seats ``[M]``: one forward pass of the network."""
        import torch

        legal = action_masks.astype(bool)
        with torch.no_grad():
            obs = torch.as_tensor(observations, dtype=torch.float32)
            distribution = self.network.get_distribution(obs, action_masks=legal)
            probs = distribution.distribution.probs.numpy()
        if self.deterministic:
            return probs.argmax(axis=1).astype(np.int64)  # type: ignore[no-any-return]
        probs = np.where(legal, probs, 0.0)
        cumulative = np.cumsum(probs, axis=1)
        draws = rng.random(len(probs)) * cumulative[:, -1]
        picks = (cumulative <= draws[:, None]).sum(axis=1)
        # Float rounding can point past the last legal action: take the last legal one.
        last = probs.shape[1] - 1 - np.argmax(legal[:, ::-1], axis=1)
        return np.minimum(picks, last).astype(np.int64)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"ModelPolicy(deterministic={self.deterministic})"
