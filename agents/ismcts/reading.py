"""Reading the opponents: a determinisation weighed by how likely a model of the other
seats makes the choices it gives them (``ismcts:reading=heuristic|policy``).

A determinisation deals everything the searching seat cannot know uniformly among
what is consistent with its information, the other seats' unseen choices included
(a bid face down is any legal bid). Under a model of the other seats, some are more
likely than others. For each choice the game lists (its contract's
``hidden_choices``: the chooser, the state it chose in, the action), the model gives
the probability of that action from the chooser's observation there; the
determinisation's weight is the product over its choices, each divided by the
likeliest action's probability (so a determinisation in which every chooser did what
the model expects weighs 1). The search backs every iteration up with its weight:
statistics become self-normalised importance-weighted means over the posterior under
the model.

Models: ``heuristic``, the game's hand-written policy, taken to choose its own move
with probability ``1 - epsilon`` and any other legal move with the rest spread evenly;
``policy``, the network of ``model=`` with its own probabilities. A chooser's
distribution is kept per observation within a search, so a choice seen in many
determinisations is evaluated once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.engines import Engine
from agents.ismcts.network import PolicyNetwork
from agents.ismcts.rollout import MaskArrays

__all__ = ["MIN_WEIGHT", "Reader"]

#: The least weight a determinisation gets (products of small probabilities stay
#: above it, so every visit counts for something and no count is zero).
MIN_WEIGHT = 1e-6


class Reader:
    """The weight of a determinisation under a model of the other seats.

    Args:
        engine: the game's engine adapter (its ``hidden_choices`` must be set).
        heuristic: the game's heuristic policy (``reading=heuristic``), or ``None``.
        network: the policy network (``reading=policy``), or ``None``.
        epsilon: the heuristic's chance of a move other than its own.
        arrays: the mask arrays of the search.
    """

    def __init__(self, engine: Engine, heuristic: Any, network: PolicyNetwork | None,
                 epsilon: float, arrays: MaskArrays) -> None:
        if engine.hidden_choices is None:
            raise ValueError(f"{engine.game.title} does not list its hidden choices")
        self.engine = engine
        self.heuristic = heuristic
        self.network = network
        self.epsilon = epsilon
        self.arrays = arrays
        self._choices = engine.hidden_choices
        self._cache: dict[tuple[int, bytes, int], np.ndarray] = {}
        self._rng = np.random.default_rng(0)

    def start(self, rng: np.random.Generator) -> None:
        """A new search: forget the distributions kept, and draw the heuristic's tie
        breaks from ``rng`` (so the search stays a function of its generator)."""
        self._cache.clear()
        self._rng = np.random.default_rng(int(rng.integers(2**63)))

    def weight(self, state: Any, seat: int) -> float:
        """The weight of the determinisation ``state`` for the search of ``seat``."""
        weight = 1.0
        for chooser, before, action in self._choices(state, seat):  # type: ignore[misc]
            likelihoods = self._likelihoods(before, chooser)
            weight *= likelihoods[action]
        return max(weight, MIN_WEIGHT)

    def _likelihoods(self, state: Any, chooser: int) -> np.ndarray:
        """The model's probabilities of ``chooser``'s actions in ``state``, each over
        the likeliest's."""
        engine = self.engine
        mask = engine.legal_mask(state)
        observation = engine.observe(state, chooser)
        key = (chooser, observation.tobytes(), mask)
        found = self._cache.get(key)
        if found is not None:
            return found
        if self.network is not None:
            probs = self.network.probabilities(state, chooser, mask)
        else:
            probs = self._heuristic(observation, mask)
        top = probs.max()
        found = self._cache[key] = probs / top if top > 0 else probs
        return found

    def _heuristic(self, observation: np.ndarray, mask: int) -> np.ndarray:
        legal = self.arrays(mask).astype(bool)
        count = int(legal.sum())
        probs = np.zeros(legal.shape, np.float64)
        if count == 1:
            probs[legal] = 1.0
            return probs
        choice = int(self.heuristic.act(observation, self.arrays(mask), self._rng))
        probs[legal] = self.epsilon / (count - 1)
        probs[choice] = 1.0 - self.epsilon
        return probs
