"""An RLlib checkpoint as a :class:`~agents.policy.Policy` (agent spec ``rllib+pickle:PATH``).

``PATH`` is any of: the run folder that ``cardgym train --backend rllib`` writes
(``runs/GAME-Np-seedS-rllib``), its ``checkpoint/`` folder (an RLlib algorithm
checkpoint), or a single RLModule saved with ``RLModule.save_to_path``. The
module is :class:`~agents.rllib.module.ActionMaskingModule` (or RLlib's example
``ActionMaskingTorchRLModule`` in older checkpoints); it is fed the seat's observation
and mask under the adapter's keys and plays on CPU, one decision at a time. The
model card ``model.json`` beside the checkpoint, when there is one, must name the
game being played; the module's spaces must fit it in any case.

An RLlib checkpoint loads only by unpickling (``class_and_ctor_args.pkl``, the module
state), and unpickling runs any code the files carry: :meth:`RllibPolicy.load` asks
for ``trust_pickle=True`` (the agent spec ``rllib+pickle:PATH``, or ``--trust-pickle``
on the command line) and says on stderr what it unpickles.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.model_card import ModelError, game_spaces, players_problem, read_card_file
from agents.policy_file import announce_unpickling
from agents.rllib import ACTION_MASK, CARD, OBSERVATIONS, SHARED_MODULE, require_rllib
from cardgym.registration import Game

__all__ = ["CheckpointError", "RllibPolicy", "find_module_dir", "read_card"]

#: Where an algorithm checkpoint keeps its modules.
MODULES_DIR = Path("learner_group") / "learner" / "rl_module"


class CheckpointError(ValueError):
    """A checkpoint path that is missing, holds no RLModule, or fits another game."""


def _is_module_dir(path: Path) -> bool:
    return (path / "class_and_ctor_args.pkl").is_file() and any(path.glob("module_state*"))


def find_module_dir(path: str | Path, module_id: str = SHARED_MODULE) -> Path:
    """The folder of RLModule ``module_id`` in a run folder, an algorithm
    checkpoint or a module checkpoint.

    Raises:
        CheckpointError: the path does not exist or holds no such module.
    """
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"RLlib checkpoint {str(path)!r} does not exist")
    for candidate in (path / "checkpoint" / MODULES_DIR / module_id, path / MODULES_DIR / module_id,
                      path / module_id):
        if _is_module_dir(candidate):
            return candidate
    if _is_module_dir(path) and not (path / module_id).is_dir():
        return path
    raise CheckpointError(
        f"{path} holds no RLlib module {module_id!r}: give the run folder of cardgym train "
        f"--backend rllib, its checkpoint/ folder, or a folder saved by RLModule.save_to_path"
    )


def read_card(path: str | Path) -> dict[str, Any] | None:
    """The model card of a run, looked up in ``path`` and its parent; None if absent."""
    path = Path(path)
    for folder in (path, path.parent):
        card = folder / CARD
        if card.is_file():
            try:
                return read_card_file(card)
            except ModelError as error:
                raise CheckpointError(str(error)) from None
    return None


class RllibPolicy:
    """A trained RLlib module choosing among the legal actions.

    Args:
        module: an RLModule that takes ``{"obs": {"observations", "action_mask"}}``
            and returns action logits (:class:`~agents.rllib.module.ActionMaskingModule`).
        deterministic: take the most probable legal action (default), or sample from
            the masked distribution with the generator passed to ``act``.
    """

    name = "rllib"

    def __init__(self, module: Any, deterministic: bool = True) -> None:
        self.module = module
        self.deterministic = deterministic

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None,
             num_players: int | None = None, options: Mapping[str, Any] | None = None,
             deterministic: bool = True, module_id: str = SHARED_MODULE,
             trust_pickle: bool = False) -> RllibPolicy:
        """Load module ``module_id`` from a checkpoint (see the module docstring).

        ``trust_pickle`` must be True: the checkpoint is unpickled, which runs any
        code it carries; load only checkpoints you trust.

        Raises:
            CheckpointError: a missing path, no module, a module for another game, or
                ``trust_pickle`` not given.
            ImportError: the ``rllib`` extra is not installed (the message says how).
        """
        module_dir = find_module_dir(path, module_id)
        card = read_card(path)
        if card is not None and game is not None and card.get("game") not in game.env_ids:
            raise CheckpointError(f"{path} was trained on {card.get('game')}, not {game.env_id}")
        problem = None if card is None else players_problem(card, path, num_players)
        if problem:
            raise CheckpointError(problem)
        require_rllib()
        if not trust_pickle:
            raise CheckpointError(
                f"{module_dir} is an RLlib checkpoint, which loads only by unpickling, and "
                f"unpickling runs any code the files carry, with your permissions: load it "
                f"only if you trust whoever made it. To load it, pass --trust-pickle or write "
                f"the agent spec rllib+pickle:PATH (in Python, trust_pickle=True)."
            )
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule

        announce_unpickling(module_dir, "an RLlib checkpoint, with RLModule.from_checkpoint")

        torch.set_num_threads(1)
        try:
            # Absolute: Ray reads a relative path as a URI without a scheme.
            module = RLModule.from_checkpoint(str(module_dir.resolve()))
        except Exception as error:  # a damaged or foreign checkpoint: say which
            raise CheckpointError(f"cannot load {module_dir} as an RLlib module: {error}") from error
        if game is not None:
            _check_fits(module, module_dir, game, num_players, options)
        if isinstance(module, torch.nn.Module):
            module.eval()
        return cls(module, deterministic)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        import torch

        legal = np.flatnonzero(action_mask)
        if not legal.size:
            raise ValueError("the action mask has no legal action")
        batch = {"obs": {
            OBSERVATIONS: torch.as_tensor(observation, dtype=torch.float32).reshape(1, -1),
            ACTION_MASK: torch.as_tensor(action_mask, dtype=torch.float32).reshape(1, -1),
        }}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        scores = logits[legal].astype(np.float64)
        if self.deterministic:
            return int(legal[np.argmax(scores)])
        probs = np.exp(scores - scores.max())
        return int(rng.choice(legal, p=probs / probs.sum()))

    def __repr__(self) -> str:
        return f"RllibPolicy(deterministic={self.deterministic})"


def _check_fits(module: Any, module_dir: Path, game: Game, num_players: int | None,
                options: Mapping[str, Any] | None) -> None:
    observation_space, action_space = game_spaces(game, num_players, options)
    expected, actions = observation_space.shape, action_space.n
    space = module.observation_space
    try:
        shape = space[OBSERVATIONS].shape
    except (KeyError, TypeError):
        raise CheckpointError(
            f"{module_dir} is not an action-masking module: its observation space is {space}"
        ) from None
    module_actions = getattr(module.action_space, "n", None)
    if shape != expected or module_actions != actions:
        raise CheckpointError(
            f"{module_dir} expects observations {shape} and {module_actions} actions; "
            f"{game.env_id} has {expected} and {actions}"
        )
