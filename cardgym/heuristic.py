"""Helpers for the hand-written heuristic policies each game package ships
(``<game>/heuristic.py``, named by the game's ``GAME.heuristic``).

Each heuristic policy reads only the observation vector and action mask it is given (fields by
name through the game's ``OBSERVATION_SPEC``, actions by name through its
``ACTION_TABLE``), keeps no state between calls, and uses the generator only to break
ties between equally good actions.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def pick_best(scores: dict[int, float], rng: np.random.Generator, eps: float = 1e-9) -> int:
    """The action with the highest score; equal scores (within ``eps``) broken by ``rng``."""
    if not scores:
        raise ValueError("no legal action to choose from")
    best = max(scores.values())
    top = sorted(a for a, s in scores.items() if s >= best - eps)
    if len(top) == 1:
        return top[0]
    return top[int(rng.integers(len(top)))]


def legal_indices(action_mask: NDArray[np.int8]) -> list[int]:
    """Legal action indices, ascending; raises if there is none."""
    legal = [int(i) for i in np.flatnonzero(action_mask)]
    if not legal:
        raise ValueError("the action mask has no legal action")
    return legal
