"""A Stable-Baselines3 ``VecEnv`` over a game's batched engine, for self-play
training at thousands of games per call (``cardgym train --vector N``).

Each of the ``N`` games gives the learner one seat, drawn afresh per game; the other
seats are played by opponents drawn per game and seat from an
:class:`~agents.single_agent.OpponentPool` (``random``, ``heuristic``, ``model:PATH``,
``self``), as in :class:`~agents.single_agent.SingleAgentEnv`. Between two learner
decisions, the opponents move in rounds: in each round every game whose seat to act
is an opponent's moves once, with one batched call per opponent policy
(:func:`agents.policy.act_batch`: the random policy and model policies act on the
whole batch at once; a heuristic acts game by game). The learner's reward is what
reached its seat since its previous decision, the final reward of a game an
opponent's move ended included; a game that ends is dealt again in the same call
(``dones[i]``), and its ``info`` holds ``episode`` (the learner's return ``r`` and
the length ``l`` in decisions of all seats), as SB3's ``Monitor`` writes it.
``action_masks()`` (through ``env_method``) serves MaskablePPO.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from stable_baselines3.common.vec_env import VecEnv

from agents.policy import Policy, act_batch
from agents.single_agent import OpponentPool, learner_table
from cardgym.registration import BoundGame, Game

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
        self.game, num_players = bound.game, bound.num_players
        if learner_seat is not None and not 0 <= learner_seat < num_players:
            raise ValueError(f"learner_seat must be 0..{num_players - 1}, got {learner_seat}")
        if self.game.batched is None:
            raise ValueError(f"{self.game.title} has no batched engine: train it without "
                             "--vector")
        self.options = bound.options
        self.engine = bound.make_batched(num_envs)
        self.pool = OpponentPool(bound, list(opponents), keep=keep, built=built)
        for label, policy in self.pool._fixed.items():
            if hasattr(policy, "act_in"):
                raise ValueError(f"opponent {label!r} searches game states; the batched "
                                 "engine plays policies that act from observations")
        self.num_players = num_players
        self.fixed_seat = learner_seat
        engine = self.engine
        observation_space = engine.layout.observation_spec.box()
        self.render_mode = None
        super().__init__(num_envs, observation_space, spaces.Discrete(engine.num_actions))
        self._rng = np.random.default_rng(seed)
        self._seed = seed
        self._rows = np.arange(num_envs)
        self.learner = np.zeros(num_envs, np.int64)
        #: Per game and seat, the index of its policy in ``_policies`` (-1: the learner).
        self.assigned = np.full((num_envs, num_players), -1, np.int64)
        self._policies: list[Policy] = []
        self._labels: list[str] = []
        self._index: dict[str, int] = {}
        self._obs = np.zeros((num_envs, engine.obs_dim), np.float32)
        self._masks = np.zeros((num_envs, engine.num_actions), np.int8)
        self._learner_obs = np.zeros((num_envs, engine.obs_dim), np.float32)
        self._learner_masks = np.zeros((num_envs, engine.num_actions), np.int8)
        self._actions: NDArray[np.int64] | None = None
        #: Seconds spent in the batched engine and in the opponents' policies.
        self.timers = {"engine": 0.0, "opponents": 0.0}

    # ------------------------------------------------------------ the VecEnv API

    def reset(self) -> NDArray[np.float32]:
        seed = self._seeds[0] if self._seeds[0] is not None else self._seed
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._reset_seeds()
        self.engine.reset(seed=int(self._rng.integers(2**63)))
        self._draw(np.ones(self.num_envs, np.bool_))
        rewards = np.zeros(self.num_envs)
        self._play_opponents(rewards, np.zeros(self.num_envs, np.bool_), [{} for _ in self._rows])
        self._learner_view()
        return self._learner_obs.copy()

    def step_async(self, actions: NDArray[Any]) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        actions, self._actions = self._actions, None
        if actions is None:
            raise RuntimeError("step_wait() without step_async()")
        legal = self._learner_masks[self._rows, np.clip(actions, 0, self.engine.num_actions - 1)]
        wrong = (actions < 0) | (actions >= self.engine.num_actions) | (legal == 0)
        if wrong.any():
            bad = int(np.flatnonzero(wrong)[0])
            raise ValueError(f"game {bad}: the learner's action {int(actions[bad])} is not legal "
                             f"({wrong.sum()} games with an illegal action)")
        engine = self.engine
        started = time.perf_counter()
        engine.step(actions)
        self.timers["engine"] += time.perf_counter() - started
        rewards = engine.rewards[self._rows, self.learner].astype(np.float64)
        dones = engine.done.copy()
        infos: list[dict[str, Any]] = [{} for _ in self._rows]
        self._finish(dones, infos)
        self._play_opponents(rewards, dones, infos)
        self._learner_view()
        return (self._learner_obs.copy(), rewards.astype(np.float32), dones, infos)

    def close(self) -> None:
        """Nothing to release."""

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions in every game ``[N, A]``."""
        return self._learner_masks.astype(bool)

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

    def _policy_index(self, label: str, policy: Policy) -> int:
        index = self._index.get(label)
        if index is None:
            index = self._index[label] = len(self._policies)
            self._policies.append(policy)
            self._labels.append(label)
        return index

    def _draw(self, rows: NDArray[np.bool_]) -> None:
        """A learner seat and opponents for the games in ``rows``."""
        rng = self._rng
        for i in np.flatnonzero(rows).tolist():
            seat = (self.fixed_seat if self.fixed_seat is not None
                    else int(rng.integers(self.num_players)))
            self.learner[i] = seat
            for other in range(self.num_players):
                if other == seat:
                    self.assigned[i, other] = -1
                else:
                    label, policy = self.pool.sample(rng)
                    self.assigned[i, other] = self._policy_index(label, policy)

    def _finish(self, ended: NDArray[np.bool_], infos: list[dict[str, Any]]) -> None:
        """Episode records for the games that just ended; new seats and opponents."""
        if not ended.any():
            return
        engine = self.engine
        for i in np.flatnonzero(ended).tolist():
            seat = int(self.learner[i])
            episode_return = float(engine.final_returns[i, seat])
            infos[i]["episode"] = {"r": episode_return, "l": int(engine.final_lengths[i])}
            infos[i]["learner_seat"] = seat
            infos[i]["league"] = {
                "opponents": [self._labels[j] for j in self.assigned[i].tolist() if j >= 0],
                "return": episode_return}
        self._draw(ended)

    def _play_opponents(self, rewards: NDArray[np.float64], dones: NDArray[np.bool_],
                        infos: list[dict[str, Any]]) -> None:
        """Move the opponents until the learner is to act in every game; add what
        reaches the learner of a game still running (or just ended) to ``rewards``."""
        engine = self.engine
        actions = np.empty(self.num_envs, np.int64)
        for _ in range(self.game.max_steps):
            seats = engine.to_act
            owner = self.assigned[self._rows, seats]
            waiting = owner >= 0
            if not waiting.any():
                return
            started = time.perf_counter()
            engine.observe(None, self._obs, self._masks)
            actions[:] = -1
            middle = time.perf_counter()
            for index in np.unique(owner[waiting]).tolist():
                chosen = owner == index
                actions[chosen] = act_batch(self._policies[index], self._obs[chosen],
                                            self._masks[chosen], self._rng)
            end = time.perf_counter()
            engine.step(actions)
            self.timers["opponents"] += end - middle
            self.timers["engine"] += middle - started + time.perf_counter() - end
            # Rewards after the learner's game ended belong to the next game, before its
            # first decision: dropped, as the single-agent env drops them.
            got = engine.rewards[self._rows, self.learner]
            rewards += np.where(waiting & ~dones, got, 0.0)
            ended = engine.done & waiting
            newly = ended & ~dones
            dones |= ended
            self._finish(newly, infos)
            if (ended & ~newly).any():
                self._draw(ended & ~newly)
        raise RuntimeError(f"{self.game.title}: the opponents did not reach a learner decision "
                           f"within {self.game.max_steps} moves")

    def _learner_view(self) -> None:
        started = time.perf_counter()
        self.engine.observe(self.learner, self._learner_obs, self._learner_masks)
        self.timers["engine"] += time.perf_counter() - started
