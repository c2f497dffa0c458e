"""The ``Policy`` protocol every cardgym agent implements, and the random policy.

A policy chooses an action from what one seat may know: its observation vector
and its action mask. Randomness comes from the generator argument only, so that a
seeded evaluation replays exactly. Policies never see the game state.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray


@runtime_checkable
class Policy(Protocol):
    """Chooses a legal action for the seat whose observation and mask it is given."""

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        """A legal action index (``action_mask[action] == 1``)."""
        ...


class RandomPolicy:
    """Uniformly random among the legal actions."""

    name = "random"

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        legal = np.flatnonzero(action_mask)
        if not legal.size:
            raise ValueError("the action mask has no legal action")
        return int(legal[rng.integers(legal.size)])

    def __repr__(self) -> str:
        return "RandomPolicy()"
