"""A learned policy inside the search: its action probabilities as the prior, its value
estimate in place of a playout (``prior=policy``, ``value=policy``).

Both read the network of a MaskablePPO model (:class:`agents.sb3.ModelPolicy`, loaded
from a policy file: nothing is unpickled) from the observation of a seat in the
determinisation, exactly what that seat would see there. The value head estimates the
return of the seat whose observation it reads, in the game's reward units, so a leaf is
valued per seat by one forward pass over every seat's observation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.engines import Engine
from agents.ismcts.rollout import MaskArrays
from agents.ismcts.settings import SettingsError

__all__ = ["PolicyNetwork", "load_model"]


def load_model(model: str, engine: Engine) -> Any:
    """The :class:`~agents.sb3.ModelPolicy` that ``model=`` names: ``baseline`` (the
    shipped model of the game at this table size) or the path of a policy file or run
    folder written by ``cardgym train``.

    Raises:
        SettingsError: no such model, or one that does not fit the game.
    """
    from agents.baselines import baseline_policy_path
    from agents.model_card import ModelError
    from agents.sb3 import ModelPolicy

    game, players = engine.game, engine.num_players
    path = baseline_policy_path(game, players) if model == "baseline" else Path(model)
    if model == "baseline" and not path.is_file():
        raise SettingsError(f"ismcts model=baseline: no baseline for {game.name} with "
                            f"{players} players ({path} does not exist); give model=PATH")
    try:
        return ModelPolicy.load(path, game=engine.bound)
    except (ModelError, ImportError) as error:
        raise SettingsError(f"ismcts model={model}: {error}") from None


class PolicyNetwork:
    """Probabilities and values of a policy network, from the engine's observations.

    Args:
        engine: the game's engine adapter.
        network: sb3-contrib's ``MaskableActorCriticPolicy`` (``ModelPolicy.network``).
        arrays: the mask arrays of the search.
        bounds: the reward bounds values are clipped to.
    """

    def __init__(self, engine: Engine, network: Any, arrays: MaskArrays,
                 bounds: tuple[float, float]) -> None:
        import torch

        self.engine = engine
        self.network = network
        self.arrays = arrays
        self.low, self.high = bounds
        self._torch = torch
        network.set_training_mode(False)

    def probabilities(self, state: Any, seat: int, mask: int) -> NDArray[np.float64]:
        """The network's distribution over ``seat``'s legal actions (``mask``) in
        ``state``, from ``seat``'s observation; zero outside the mask."""
        torch = self._torch
        legal = self.arrays(mask).astype(bool)
        with torch.no_grad():
            obs = torch.as_tensor(self.engine.observe(state, seat)).reshape(1, -1)
            distribution = self.network.get_distribution(obs, action_masks=legal)
            probs = distribution.distribution.probs[0].numpy().astype(np.float64)
        probs[~legal] = 0.0
        total = probs.sum()
        return probs / total if total > 0 else legal / legal.sum()

    def values(self, state: Any) -> list[float]:
        """Each seat's estimated return from ``state``, from its own observation,
        clipped to the reward bounds."""
        torch = self._torch
        observe = self.engine.observe
        batch = np.stack([observe(state, seat) for seat in range(self.engine.num_players)])
        with torch.no_grad():
            values = self.network.predict_values(torch.as_tensor(batch)).numpy().reshape(-1)
        return [float(v) for v in np.clip(values, self.low, self.high)]
