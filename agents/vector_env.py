"""A Stable-Baselines3 ``VecEnv`` over a game's batched engine, for self-play
training at thousands of games per call (``cardgym train --vector N``).

It is a thin adapter over :class:`cardgym.vector.LearnerVectorEnv` (the Gymnasium
vector env with a learner seat, in ``SAME_STEP`` autoreset), with the opponents
drawn per game and seat from an :class:`~agents.single_agent.OpponentPool`
(``random``, ``heuristic``, ``model:PATH``, ``self``), as in
:class:`~agents.single_agent.SingleAgentEnv`. The learner's reward is what reached
its seat since its previous decision, the final reward of a game an opponent's move
ended included; a game that ends is dealt again in the same call (``dones[i]``), and
its ``info`` holds ``episode`` (the learner's return ``r`` and the length ``l`` in
decisions of all seats), as SB3's ``Monitor`` writes it, ``learner_seat`` and
``league`` (for :mod:`agents.league`). ``action_masks()`` (through ``env_method``)
serves MaskablePPO.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray
from stable_baselines3.common.vec_env import VecEnv

from agents.policy import Policy
from agents.single_agent import OpponentPool, learner_table
from cardgym.registration import BoundGame, Game
from cardgym.vector.learner import LearnerVectorEnv

__all__ = ["BatchedSelfPlayEnv"]


class BatchedSelfPlayEnv(VecEnv):  # type: ignore[misc]
    """``num_envs`` games of ``game`` on its batched engine, one learner seat each.

    Args:
        game: game id or short name, or a bound game (then no ``num_players`` nor
            ``options``); the game needs a batched engine.
        num_envs: games played at once.
        num_players: seats at the table (default 2).
        opponents: agent specs of the opponent pool.
        options: rule options of the game.
        seed: seeds the deals and every draw of seats and opponents.
        learner_seat: a fixed seat for the learner; ``None`` draws one per game.
        keep: how many of the latest checkpoints ``self`` draws from.

    The ``info`` of a game that ends holds ``episode``, ``learner_seat`` and ``league``
    (the opponents' labels and the learner's return, for :mod:`agents.league`).
    """

    def __init__(self, game: str | Game | BoundGame, num_envs: int,
                 num_players: int | None = None, opponents: Sequence[str] = ("random",),
                 options: Mapping[str, Any] | None = None, seed: int | None = None,
                 learner_seat: int | None = None, keep: int = 5,
                 built: Mapping[str, Policy] | None = None) -> None:
        bound = learner_table(game, num_players, options)
        self.game = bound.game
        if self.game.batched is None:
            raise ValueError(f"{self.game.title} has no batched engine: train it without "
                             "--vector")
        self.options = bound.options
        self.pool = OpponentPool(bound, list(opponents), keep=keep, built=built)
        for label, policy in self.pool.fixed.items():
            if hasattr(policy, "act_in"):
                raise ValueError(f"opponent {label!r} searches game states; the batched "
                                 "engine plays policies that act from observations")
        self.vector = LearnerVectorEnv(bound, num_envs, self.pool, learner_seat=learner_seat,
                                       seed=seed, autoreset_mode=AutoresetMode.SAME_STEP,
                                       final_observations=False)
        self.engine = self.vector.engine
        self.num_players = bound.num_players
        self.render_mode = None
        super().__init__(num_envs, self.vector.single_observation_space,
                         spaces.Discrete(self.engine.num_actions))
        self._seed = seed
        self._actions: NDArray[np.int64] | None = None

    @property
    def learner(self) -> NDArray[np.int64]:
        """The learner's seat in each game."""
        return self.vector.learner

    @property
    def timers(self) -> dict[str, float]:
        """Seconds spent in the batched engine and in the opponents' policies."""
        return self.vector.timers

    # ------------------------------------------------------------ the VecEnv API

    def reset(self) -> NDArray[np.float32]:
        seed = self._seeds[0] if self._seeds[0] is not None else self._seed
        self._reset_seeds()
        obs, _ = self.vector.reset(seed=seed)
        return obs

    def step_async(self, actions: NDArray[Any]) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        actions, self._actions = self._actions, None
        if actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, rewards, dones, _, info = self.vector.step(actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "_final_return" in info:
            for i in np.flatnonzero(info["_final_return"]).tolist():
                episode_return = float(info["final_return"][i])
                infos[i]["episode"] = {"r": episode_return, "l": int(info["final_length"][i])}
                infos[i]["learner_seat"] = int(info["final_seat"][i])
                infos[i]["league"] = {
                    "opponents": [label for label in info["final_opponents"][i] if label],
                    "return": episode_return}
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        """Nothing to release."""

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions in every game ``[N, A]``."""
        return self.vector.action_masks().astype(bool)

    def add_checkpoint(self, path: str) -> None:
        """Let ``self`` opponents draw from a newly saved model."""
        self.pool.add_checkpoint(path)

    def set_opponent_weights(self, weights: Mapping[str, float] | None) -> None:
        """Draw opponents by these weights from now on (a league's); ``None`` returns
        to the uniform draw."""
        self.pool.set_weights(weights)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    # ------------------------------------------------------------ helpers

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
