"""The vector env: many games of one cardgym game, stepped together over arrays.

::

    import cardgym.vector

    venv = cardgym.vector.make("power_hungry_pets", num_envs=4096, num_players=2)
    obs, info = venv.reset(seed=0)                     # obs [N, D] float32
    while ...:
        actions = choose(obs, info["action_mask"])     # [N] ints, for info["to_act"]
        obs, rewards, terminations, truncations, info = venv.step(actions)

Each row is one game (a match, for games played in rounds) and every step takes one
decision per row: the action of the seat ``info["to_act"][i]`` whose observation is
``obs[i]`` and whose legal actions are ``info["action_mask"][i]``. ``rewards`` is
``[N, num_players]``: what each seat received with that decision, exactly as the AEC
env's ``rewards`` after the same step. A row whose game ends is dealt a new game in
the same call: its ``terminations[i]`` is true, ``obs[i]`` is the new game's first
observation, and ``info["final_returns"][i]`` / ``info["final_lengths"][i]`` keep the
finished game's returns (per seat) and length (decisions). ``info["_final"]`` marks
the rows where a game ended. Games always end, so ``truncations`` is all false.

Observations and masks are those of the game's AEC env, bit for bit (the
differential tests compare them at every step); the deals come from per-row
generators (:mod:`cardgym.vector.random`), not from numpy's, so a seed gives other
cards than the AEC env's seed, the same for every batch size.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from cardgym.errors import IllegalMoveError
from cardgym.registration import Game, find_game
from cardgym.vector.engine import BatchedEngine

__all__ = ["VectorEnv", "batched_games", "make"]


def batched_games() -> tuple[Game, ...]:
    """The registered games that have a batched engine."""
    from cardgym.registration import games

    return tuple(game for game in games() if game.batched is not None)


def make(env_id: str | Game, num_envs: int, num_players: int | None = None, *,
         copy: bool = True, threads: int = 1, **options: Any) -> VectorEnv:
    """``num_envs`` games of ``env_id`` (``cardgym/NAME-vN``, or the game's short
    name) with ``num_players`` seats (default: the game's default) and rule
    ``options`` (as the game's ``env()`` takes them); the kernels run on ``threads``
    threads (see :class:`~cardgym.vector.BatchedEngine`), the arrays returned are
    copies unless ``copy=False``.

    Raises:
        ValueError: the game has no batched engine (the message lists those that
            do), or ``num_envs`` is not a positive integer.
        OptionError: an unknown option or a bad value.
    """
    game = find_game(env_id)
    if game.batched is None:
        having = ", ".join(g.name for g in batched_games()) or "none"
        raise ValueError(f"{game.title} has no batched engine yet; games with one: {having}")
    if num_players is None:
        num_players = _default_players(game)
    return VectorEnv(game.make_batched(num_envs, num_players, threads, **options), copy=copy)


def _default_players(game: Game) -> int:
    """The player count the game's ``env()`` uses when none is given."""
    for item in dataclasses.fields(game.config):  # type: ignore[arg-type]
        if item.name == "num_players" and isinstance(item.default, int):
            return item.default
    return game.player_counts[0]


class VectorEnv:
    """Batched games behind a Gymnasium-style vector API (see the module).

    Args:
        engine: the game's batched engine (:meth:`cardgym.game.Game.make_batched`).
        copy: return fresh arrays from ``reset`` and ``step`` (default); with
            ``False`` the arrays are buffers the next call overwrites (faster).

    Attributes:
        num_envs, num_players, game, engine.
        single_observation_space: the AEC env's ``Box`` for one seat.
        single_action_space: ``Discrete(num_actions)``.
        observation_space, action_space: the same, batched.
    """

    def __init__(self, engine: BatchedEngine, copy: bool = True) -> None:
        self.engine = engine
        self.game = engine.game
        self.copy = copy
        self.num_envs = n = engine.num_games
        self.num_players = engine.num_players
        self.num_actions = engine.num_actions
        spec = engine.layout.observation_spec
        self.single_observation_space = spec.box()
        self.single_action_space: spaces.Discrete = spaces.Discrete(engine.num_actions)
        self.observation_space = spaces.Box(
            np.broadcast_to(spec.low, (n, spec.size)), np.broadcast_to(spec.high, (n, spec.size)),
            dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, engine.num_actions))
        self._obs = np.zeros((n, engine.obs_dim), np.float32)
        self._masks = np.zeros((n, engine.num_actions), np.int8)
        self._rows = np.arange(n)
        self._started = False

    @property
    def env_id(self) -> str:
        return self.game.env_id

    @property
    def to_act(self) -> NDArray[np.int64]:
        """The seat to decide in each row."""
        return self.engine.to_act

    def action_masks(self) -> NDArray[np.int8]:
        """The legal actions ``[N, A]`` of the seat to act in each row."""
        return self._masks.copy() if self.copy else self._masks

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """New games in every row, from ``seed`` (row ``i``'s game depends on the
        seed and ``i`` alone). Returns the observations and the info of the module."""
        if options:
            raise ValueError(f"reset options are not supported by the vector env, got "
                             f"{sorted(options)}; set rule options in make()")
        self.engine.reset(seed=seed)
        self._started = True
        self._observe()
        return self._out(self._obs), self._info(final=False)

    def step(self, actions: Any) -> tuple[NDArray[np.float32], NDArray[np.float32],
                                          NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """One decision per row (see the module).

        Raises:
            IllegalMoveError: an action is out of bounds or not legal in its row (the
                message names the first such rows and their legal actions); nothing
                moves.
        """
        if not self._started:
            raise RuntimeError("step() called before reset(); call venv.reset() first")
        actions = self._check(actions)
        engine = self.engine
        engine.step(actions)
        self._observe()
        truncations = np.zeros(self.num_envs, np.bool_)
        return (self._out(self._obs), self._out(engine.rewards), self._out(engine.done),
                truncations, self._info(final=True))

    def close(self) -> None:
        """Nothing to release (the arrays go with the object)."""

    # ------------------------------------------------------------------ helpers

    def _observe(self) -> None:
        self.engine.observe(None, self._obs, self._masks)

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _info(self, final: bool) -> dict[str, Any]:
        engine = self.engine
        info: dict[str, Any] = {"action_mask": self._out(self._masks),
                                "to_act": self._out(engine.to_act)}
        if final:
            info["final_returns"] = self._out(engine.final_returns)
            info["final_lengths"] = self._out(engine.final_lengths)
            info["_final"] = self._out(engine.done)
        return info

    def _check(self, actions: Any) -> NDArray[np.int64]:
        return checked_actions(actions, self._masks, self.engine.to_act,
                               self.engine.layout.action_table.names)

    def __repr__(self) -> str:
        return (f"VectorEnv({self.env_id}, num_envs={self.num_envs}, "
                f"num_players={self.num_players})")


def checked_actions(actions: Any, masks: NDArray[np.int8], seats: NDArray[np.int64],
                    names: Sequence[str], free: NDArray[np.bool_] | None = None,
                    unit: str = "row", whose: str = "") -> NDArray[np.int64]:
    """``actions`` as ``int64``, one per row, each legal under its row's mask (rows
    marked ``free`` take any integer).

    Raises:
        IllegalMoveError: not one integer per row, or actions out of bounds or not
            legal: the message names the first three such rows (``unit`` names a row,
            ``whose`` the actor), their seat, the action and the legal ones.
    """
    count, num_actions = masks.shape
    array = np.asarray(actions)
    if array.shape != (count,) or not np.issubdtype(array.dtype, np.integer):
        raise IllegalMoveError(
            f"actions must be {count} integers (one per {unit}), got "
            + (f"dtype {array.dtype}" if array.shape == (count,) else f"shape {array.shape}"))
    array = array.astype(np.int64, copy=False)
    inside = (array >= 0) & (array < num_actions)
    legal = inside.copy()
    legal[inside] = masks[np.flatnonzero(inside), array[inside]] != 0
    if free is not None:
        legal |= free
    if legal.all():
        return array
    bad = np.flatnonzero(~legal)
    parts = []
    for row in bad[:3].tolist():
        action = int(array[row])
        what = names[action] if 0 <= action < num_actions else "out of bounds"
        allowed = [names[a] for a in np.flatnonzero(masks[row])[:8].tolist()]
        parts.append(f"{unit} {row}, seat {int(seats[row])}: action {action} ({what}); "
                     f"legal: {', '.join(allowed)}")
    more = f" (and {bad.size - 3} more {unit}s)" if bad.size > 3 else ""
    raise IllegalMoveError(f"illegal {whose}actions in {bad.size} {unit}s: "
                           + "; ".join(parts) + more)
