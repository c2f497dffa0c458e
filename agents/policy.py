"""The ``Policy`` protocol every cardgym agent implements, and the random policy.

A policy chooses an action from what one seat may know: its observation vector
and its action mask. Randomness comes from the generator argument only, so that a
seeded evaluation replays exactly. Policies never see the true game state.

Search agents (:mod:`agents.ismcts`) also implement :class:`SearchPolicy`: besides
``act`` they have ``act_in(state, seat, rng)``, which chooses from a full game state
*already resampled for the seat to act* (the game's ``resample_hidden``: everything
the seat cannot know dealt anew, consistent with what it knows). The harnesses
(:mod:`agents.evaluate`, :mod:`agents.play`, :mod:`agents.single_agent`) call every
policy through :func:`decide`, which does the resampling with the seat's own
generator and passes the sample, never the true state. Since the games'
``resample_hidden`` deal from canonically ordered pools, the sample, and so the
search agent's move, depends only on what the seat may know and on its generator.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

__all__ = ["Policy", "RandomPolicy", "SearchPolicy", "act_batch", "decide", "resample_for_seat"]


@runtime_checkable
class Policy(Protocol):
    """Chooses a legal action for the seat whose observation and mask it is given."""

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        """A legal action index (``action_mask[action] == 1``)."""
        ...


@runtime_checkable
class SearchPolicy(Policy, Protocol):
    """A policy that searches the game engine (``act`` may raise: it needs a state)."""

    def act_in(self, state: Any, seat: int, rng: np.random.Generator) -> int:
        """A legal action index for ``seat``, to act in ``state``: a state resampled
        for ``seat`` by the caller (never the true one)."""
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
    ``act_batch`` when it has one (the random and model policies), else ``act`` row
    by row (heuristics). A :class:`SearchPolicy` needs game states: ``ValueError``."""
    if hasattr(policy, "act_in"):
        raise ValueError(f"{policy!r} searches game states; a batch gives observations only")
    batched = getattr(policy, "act_batch", None)
    if batched is not None:
        return np.asarray(batched(observations, action_masks, rng), np.int64)
    return np.fromiter((policy.act(o, m, rng)
                        for o, m in zip(observations, action_masks, strict=True)),
                       np.int64, count=len(observations))


def resample_for_seat(env: Any, seat: int, rng: np.random.Generator) -> Any:
    """The env's game state with everything ``seat`` cannot know dealt anew from
    ``rng`` (the game's ``resample_hidden``); the env is left unchanged."""
    return env.game.resample_hidden(env.game_state, seat, rng)


def decide(policy: Policy, env: Any, agent: str, observation: dict[str, Any],
           rng: np.random.Generator) -> int:
    """The action of ``policy`` for ``agent`` (to act in the AEC ``env``).

    ``observation`` is ``env.observe(agent)`` (or ``env.last()``'s). A
    :class:`SearchPolicy` gets a state resampled for the agent's seat from ``rng``;
    any other policy gets the observation and the mask.
    """
    act_in = getattr(policy, "act_in", None)
    if act_in is None:
        return policy.act(observation["observation"], observation["action_mask"], rng)
    seat = env.agent_name_mapping[agent]
    return int(act_in(resample_for_seat(env, seat, rng), seat, rng))
