"""What a policy is, to the library's lowest layer: the ``Policy`` protocol, the
random policy, and :func:`act_batch`, which asks a policy for a batch of actions.

A policy chooses an action from what one seat may know: its observation vector and
its action mask. Randomness comes from the generator argument only, so that a seeded
run replays exactly. The agents (:mod:`agents.policy`, which re-exports these) add
search policies and the harnesses; the vector envs (:mod:`cardgym.vector`) play the
opponents' seats with these.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

__all__ = ["Policy", "RandomPolicy", "act_batch"]


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

    def act_batch(self, observations: NDArray[np.float32], action_masks: NDArray[np.int8],
                  rng: np.random.Generator) -> NDArray[np.int64]:
        """One uniformly random legal action per row of ``action_masks``."""
        if not action_masks.any(axis=1).all():
            raise ValueError("an action mask of the batch has no legal action")
        keys = np.where(action_masks != 0, rng.random(action_masks.shape), -1.0)
        return keys.argmax(axis=1).astype(np.int64)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return "RandomPolicy()"


def act_batch(policy: Policy, observations: NDArray[np.float32], action_masks: NDArray[np.int8],
              rng: np.random.Generator) -> NDArray[np.int64]:
    """The actions of ``policy`` for a batch of seats ``[M]``, from their
    observations ``[M, D]`` and masks ``[M, A]``: one call of the policy's
    ``act_batch`` when it has one (the random policy, model policies, the games'
    heuristics), else ``act`` row by row. A policy that searches game states (one
    with ``act_in``) needs states, not observations: ``ValueError``."""
    if hasattr(policy, "act_in"):
        raise ValueError(f"{policy!r} searches game states; a batch gives observations only")
    batched = getattr(policy, "act_batch", None)
    if batched is not None:
        return np.asarray(batched(observations, action_masks, rng), np.int64)
    return np.fromiter((policy.act(o, m, rng)
                        for o, m in zip(observations, action_masks, strict=True)),
                       np.int64, count=len(observations))
