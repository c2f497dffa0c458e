"""Helpers for the hand-written heuristic policies each game package ships
(``<game>/heuristic.py``, named by the game's ``GAME.heuristic``).

Each heuristic policy reads only the observation vector and action mask it is given (fields by
name through the game's ``OBSERVATION_SPEC``, actions by name through its
``ACTION_TABLE``), keeps no state between calls, and uses the generator only to break
ties between equally good actions.

A heuristic may also act on a batch (``act_batch(observations, masks, rng)``, which
:func:`cardgym.policy.act_batch` prefers): the batched training env and the batched
evaluation then call it once per opponent round. It must choose exactly what ``act``
chooses row by row and draw from the generator as those calls would (Power Hungry
Pets and Karel Kakelaar score their rows in compiled code, checked against ``act``
over 100,000 decisions each); :func:`checked_batch` checks such a batch.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

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


def checked_batch(observations: NDArray[np.floating], action_masks: NDArray[np.integer],
                  observation_size: int, num_actions: int
                  ) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
    """A heuristic's batch as C-ordered float32 observations ``[M, observation_size]``
    and int8 masks ``[M, num_actions]`` (0 or 1), for compiled scoring.

    Raises:
        ValueError: shapes or dtypes that are not a batch of the game's rows, or a row
            without a legal action (the message names it).
    """
    observations = np.asarray(observations)
    action_masks = np.asarray(action_masks)
    if observations.ndim != 2 or observations.shape[1] != observation_size:
        raise ValueError(f"observations must have shape [M, {observation_size}], "
                         f"not {list(observations.shape)}")
    if action_masks.shape != (len(observations), num_actions):
        raise ValueError(f"action masks must have shape [{len(observations)}, "
                         f"{num_actions}], not {list(action_masks.shape)}")
    if observations.dtype.kind != "f":
        raise ValueError(f"observations must be floats, not {observations.dtype}")
    if action_masks.dtype.kind not in "biu":
        raise ValueError(f"action masks must be integers or booleans, not {action_masks.dtype}")
    empty = np.flatnonzero(~action_masks.any(axis=1))
    if empty.size:
        raise ValueError(f"the action mask of row {int(empty[0])} has no legal action")
    return (np.ascontiguousarray(observations, np.float32),
            np.ascontiguousarray(action_masks != 0, np.int8))


def pick_rows(scores: NDArray[np.float64], best: NDArray[np.float64],
              actions: NDArray[np.int64], ties: NDArray[np.int64], rng: np.random.Generator,
              act_row: Callable[[int], int] | None = None) -> NDArray[np.int64]:
    """Finish a batch scored in compiled code as :func:`pick_best` would row by row:
    in row order, a row with several tied best actions (``ties > 1``; scores within
    ``pick_best``'s window of ``best``) draws one from ``rng``, and a row the scoring
    left to Python (``actions == -1``) gets ``act_row(row)``; ``actions`` holds the
    first best action of every other row and is completed in place."""
    eps = inspect.signature(pick_best).parameters["eps"].default
    for row in np.flatnonzero((ties > 1) | (actions < 0)).tolist():
        if actions[row] < 0:
            if act_row is None:
                raise ValueError(f"row {row} was left unscored and there is no act_row")
            actions[row] = act_row(row)
            continue
        top = np.flatnonzero(scores[row] >= best[row] - eps)
        actions[row] = top[int(rng.integers(len(top)))]
    return actions
