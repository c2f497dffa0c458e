"""The ``Policy`` protocol every cardgym agent implements, the random policy and
:func:`act_batch` (defined in :mod:`cardgym.policy`, re-exported here), search policies,
and :func:`decide`, which the harnesses call.

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

from cardgym.policy import Policy, RandomPolicy, act_batch

__all__ = ["Policy", "RandomPolicy", "SearchPolicy", "act_batch", "decide", "resample_for_seat"]


@runtime_checkable
class SearchPolicy(Policy, Protocol):
    """A policy that searches the game engine (``act`` may raise: it needs a state)."""

    def act_in(self, state: Any, seat: int, rng: np.random.Generator) -> int:
        """A legal action index for ``seat``, to act in ``state``: a state resampled
        for ``seat`` by the caller (never the true one)."""
        ...


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
