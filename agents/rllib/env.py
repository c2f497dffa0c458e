"""A cardgym AEC game as an RLlib ``MultiAgentEnv`` (turn-based, action-masked).

RLlib's multi-agent API steps every agent that received an observation; a card
game has one seat to act at a time. So :meth:`CardGameMultiAgentEnv.reset` and
:meth:`~CardGameMultiAgentEnv.step` return the observation of exactly that seat,
and ``step`` takes an action for it alone. Rewards go to every seat they reach,
whenever they arise: RLlib keeps a seat's reward until its next observation (or
the end of the episode), as the AEC's cumulative rewards do. Seats that leave the
game early (a player exploding in Exploding Kittens) get their -1 at once; their
episode ends with everyone's when the game is over. A seat that never acted is
no part of the episode.

Observations are ``{"observations": float32 vector, "action_mask": float32 0/1}``,
the keys that the action-masking module (:mod:`agents.rllib.module`) reads; the game's
own keys (``observation``, and an int8 ``action_mask``) are renamed, nothing else changes.

Every action is checked against the seat's mask before the game sees it:
:attr:`~CardGameMultiAgentEnv.legal_actions_taken` counts the legal ones, and an
illegal one (or an action for a seat not to act) is counted in
:attr:`~CardGameMultiAgentEnv.illegal_actions` and raises
:class:`~cardgym.errors.IllegalMoveError`, which stops the training run (RLlib
re-raises env errors unless asked to restart envs).

Configuration (RLlib's ``env_config``): ``game`` (id or short name),
``num_players`` (default the game's smallest count) and ``options`` (rule options),
checked by each env; or ``bound`` alone, a game bound once to its table size and
options (:meth:`cardgym.game.Game.bind`), which the env trusts (a training run binds its
game once and its env runners receive it, pickled as the game and its config).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

from agents.options import as_bound
from agents.rllib import ACTION_MASK, OBSERVATIONS
from cardgym.errors import IllegalMoveError
from cardgym.game import BoundGame
from cardgym.registration import find_game

__all__ = ["CardGameMultiAgentEnv", "to_module_observation"]

_CONFIG_KEYS = frozenset({"game", "num_players", "options", "bound"})


def to_module_observation(observation: Mapping[str, NDArray[Any]]) -> dict[str, NDArray[np.float32]]:
    """An AEC observation (``observation``, int8 ``action_mask``) under the keys and
    dtypes of the RLlib side (``observations``, float32 ``action_mask``)."""
    return {OBSERVATIONS: observation["observation"],
            ACTION_MASK: observation["action_mask"].astype(np.float32)}


class CardGameMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """One cardgym game for RLlib's multi-agent EnvRunners.

    Args:
        config: ``{"game": ..., "num_players": ..., "options": {...}}`` or
            ``{"bound": BoundGame}`` (RLlib passes its ``env_config`` here).

    Raises:
        ValueError: an unknown game or configuration key, a player count the game
            does not support, or a bad rule option.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        unknown = sorted(set(config) - _CONFIG_KEYS)
        if unknown:
            raise ValueError(f"unknown env_config key(s) {unknown}; "
                             f"allowed: {', '.join(sorted(_CONFIG_KEYS))}")
        bound = config.get("bound")
        if bound is not None:
            if not isinstance(bound, BoundGame) or len(config) > 1:
                raise ValueError("env_config 'bound' takes a bound game (cardgym Game.bind), "
                                 f"alone; got {sorted(config)} with {type(bound).__name__}")
        elif "game" not in config:
            raise ValueError("env_config needs 'game' (a game id or short name) or 'bound'")
        else:
            game = find_game(str(config["game"]))
            bound = as_bound(game, int(config.get("num_players") or min(game.player_counts)),
                             config.get("options"))
        self.bound: BoundGame = bound
        self.game, self.num_players = bound.game, bound.num_players
        self.options = bound.options
        self.aec = bound.make_env()
        agents: list[str] = list(self.aec.possible_agents)
        self.possible_agents = list(agents)
        self.agents = list(agents)
        first = agents[0]
        num_actions = int(self.aec.action_space(first).n)  # type: ignore[attr-defined]
        space = spaces.Dict({
            OBSERVATIONS: self.aec.observation_space(first)["observation"],  # type: ignore[index]
            ACTION_MASK: spaces.Box(0.0, 1.0, (num_actions,), dtype=np.float32),
        })
        self.observation_spaces = {agent: space for agent in agents}
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in agents}
        #: Legal actions taken over the env's lifetime (every episode).
        self.legal_actions_taken = 0
        #: Illegal actions refused over the env's lifetime.
        self.illegal_actions = 0

    # -------------------------------------------------------------- RLlib API

    def reset(self, *, seed: int | None = None,  # type: ignore[override]
              options: dict[str, Any] | None = None) -> tuple[MultiAgentDict, MultiAgentDict]:
        """Start a game; returns the observation of the seat to act first."""
        self.aec.reset(seed=seed, options=options)
        self._skip_finished()
        self.agents = list(self.aec.agents)
        agent = self.aec.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: MultiAgentDict) -> tuple[  # type: ignore[override]
        MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict
    ]:
        """Apply the action of the seat to act; returns the next seat's observation,
        the rewards this move gave (to any seat), and ``__all__`` done flags."""
        agent = self.aec.agent_selection
        action = self._checked_action(agent, action_dict)
        self.aec.step(action)
        self.legal_actions_taken += 1
        # The step's own rewards, read before finished seats leave the game.
        rewards: MultiAgentDict = {name: float(value) for name, value in self.aec.rewards.items()}
        rewards.setdefault(agent, 0.0)
        self._skip_finished()
        self.agents = list(self.aec.agents)
        if not self.aec.agents:
            return {}, rewards, {"__all__": True}, {"__all__": False}, {}
        following = self.aec.agent_selection
        return ({following: self._observe(following)}, rewards, {"__all__": False},
                {"__all__": False}, {})

    # ---------------------------------------------------------------- helpers

    def _checked_action(self, agent: str, action_dict: MultiAgentDict) -> int:
        if set(action_dict) != {agent}:
            self.illegal_actions += 1
            raise IllegalMoveError(
                f"expected an action for {agent} (the seat to act) only, got actions for "
                f"{sorted(map(str, action_dict))}"
            )
        raw = action_dict[agent]
        try:
            action = int(raw)
        except (TypeError, ValueError):
            action = -1
        mask = self.aec.action_mask(agent)
        if action != raw or not 0 <= action < mask.size or not mask[action]:
            self.illegal_actions += 1
            legal = np.flatnonzero(mask).tolist()
            raise IllegalMoveError(
                f"{agent}: action {raw!r} is not legal in {self.game.env_id}; legal: {legal}"
            )
        return action

    def _skip_finished(self) -> None:
        """Step finished seats out of the AEC (``step(None)``) until a live seat is to
        act or the game is over."""
        aec = self.aec
        while aec.agents:
            agent = aec.agent_selection
            if not (aec.terminations[agent] or aec.truncations[agent]):
                return
            aec.step(None)

    def _observe(self, agent: str) -> dict[str, NDArray[np.float32]]:
        return to_module_observation(self.aec.observe(agent))
