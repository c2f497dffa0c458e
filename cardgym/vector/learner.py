"""A Gymnasium vector env in which a learner holds one seat of every game and
opponent policies play the others, in batches, on a game's batched engine.

::

    import cardgym.vector

    envs = cardgym.vector.make_single_agent("power_hungry_pets", num_envs=1024,
                                            num_players=2, opponents=["heuristic"])
    obs, info = envs.reset(seed=0)                  # obs [N, D], the learner's
    while ...:
        actions = choose(obs, info["action_mask"])  # [N], the learner's actions
        obs, rewards, terminations, truncations, info = envs.step(actions)

It is a :class:`gymnasium.vector.VectorEnv`: ``single_observation_space``,
``single_action_space``, batched ``observation_space`` and ``action_space``,
``reset(seed=int | list)``, ``step``, ``render`` and ``close``, and
``metadata["autoreset_mode"]``, so Gymnasium's vector wrappers
(``RecordEpisodeStatistics``, ``NormalizeReward``, ...) take it.

Each row is one game of the learner. A step takes the learner's action in every row;
then the opponents move, one batched call per opponent policy and round
(:func:`cardgym.policy.act_batch`), until the learner is to act again in every row
or its game has ended. The reward of a row is what reached the learner's seat since
its previous action (the end of the game included); ``info["action_mask"]`` holds
the learner's legal actions (``[N, A]`` int8) and ``info["learner_seat"]`` its seat.

A game ends with ``terminations[i]`` true (games always end: ``truncations`` is
all false), and the info of that step holds, for the rows where a game ended
(``info["_final_return"]``), ``final_return`` (the learner's return), ``final_length``
(decisions in the game, every seat's), ``final_seat`` (the learner's seat in it) and
``final_opponents`` (the labels of the opponents it met, by seat; ``""`` for the
learner's). The next game's seat and opponents are drawn anew (the
learner's seat from ``learner_seat`` when fixed). What happens next is the
``autoreset_mode``:

- ``NEXT_STEP`` (the default, and Gymnasium's): the step that ends a game returns
  the learner's last observation of it; the row's next step ignores its action
  (its mask allows every action), deals the next game and returns its first
  observation with reward 0.
- ``SAME_STEP``: the step that ends a game deals the next one; its first observation
  is returned at once, and ``info["final_obs"]`` (with ``info["_final_obs"]``) holds
  the learner's last observation of the game that ended (``final_observations=False``
  leaves them out and saves an observation of every row per ended step). Gymnasium
  1.2's ``RecordEpisodeStatistics`` counts episodes after the first one step short
  in this mode (its later versions do not); ``final_return`` and ``final_length``
  are exact in both.

Deals come from the batched engine's per-row generators: ``reset(seed=s)`` gives the
same games for the same seed, and ``reset(seed=[s0, s1, ...])`` seeds each row on its
own (the same seed in two rows, the same first deal). The learner's seats, the
opponents' draws and their choices come from one numpy generator seeded from the
same seed.
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from cardgym.errors import shorten
from cardgym.policy import Policy, RandomPolicy, act_batch
from cardgym.registration import BoundGame, Game, bind
from cardgym.vector.env import _default_players, batched_games, checked_actions
from cardgym.vector.random import seed_states

__all__ = ["LearnerVectorEnv", "Opponents", "UniformOpponents", "make_single_agent",
           "opponents_of"]

#: Frames per second of a video of a game (as the AEC env's ``render_fps``).
_RENDER_FPS = 2


class Opponents(Protocol):
    """Where the opponents come from: each opponent seat of each game draws one
    (label, policy) pair. ``agents.single_agent.OpponentPool`` is one (with trained
    models and frozen checkpoints of the learner)."""

    def sample(self, rng: np.random.Generator) -> tuple[str, Policy]:
        """A policy for one seat of one game, and the label that names it."""
        ...


class UniformOpponents:
    """Policies drawn uniformly per seat and game (repeat one to weight it)."""

    def __init__(self, policies: Sequence[tuple[str, Policy]]) -> None:
        if not policies:
            raise ValueError("opponents must name at least one policy")
        self.policies = list(policies)

    def sample(self, rng: np.random.Generator) -> tuple[str, Policy]:
        return self.policies[int(rng.integers(len(self.policies)))]

    def __repr__(self) -> str:
        return f"UniformOpponents({[label for label, _ in self.policies]})"


def opponents_of(opponents: Opponents | Sequence[str | Policy], bound: BoundGame) -> Opponents:
    """``opponents`` as an :class:`Opponents`: one already (it has ``sample``), or a
    list of ``"random"``, ``"heuristic"`` (the game's own) and policy objects, drawn
    uniformly.

    Raises:
        ValueError: an empty list, an unknown name (trained models and the learner's
            checkpoints go through ``agents.single_agent.OpponentPool``, passed as
            ``opponents``), a game without a heuristic, or a policy that searches
            game states (it needs states, the batch gives observations).
    """
    if hasattr(opponents, "sample"):
        return opponents  # type: ignore[return-value]
    if isinstance(opponents, str):
        opponents = [opponents]
    policies: list[tuple[str, Policy]] = []
    built: dict[str, Policy] = {}
    for entry in opponents:  # type: ignore[union-attr]
        if isinstance(entry, str):
            if entry not in built:
                built[entry] = _named_policy(entry, bound)
            policies.append((entry, built[entry]))
        elif callable(getattr(entry, "act", None)):
            if hasattr(entry, "act_in"):
                raise ValueError(f"opponent {entry!r} searches game states; the batched engine "
                                 "plays policies that act from observations")
            policies.append((str(getattr(entry, "name", type(entry).__name__)), entry))
        else:
            raise ValueError(f"an opponent is 'random', 'heuristic' or a policy (an object "
                             f"with act(observation, action_mask, rng)), got {shorten(entry)}")
    return UniformOpponents(policies)


def _named_policy(name: str, bound: BoundGame) -> Policy:
    if name == "random":
        return RandomPolicy()
    if name == "heuristic":
        if bound.game.heuristic is None:
            raise ValueError(f"{bound.game.title} has no heuristic; opponents it can use: "
                             "'random' or policy objects")
        return bound.game.heuristic(bound.config)  # type: ignore[no-any-return]
    raise ValueError(f"unknown opponent {name!r}: give 'random', 'heuristic' or a policy "
                     "object; for trained models and the learner's own checkpoints pass an "
                     "agents.single_agent.OpponentPool as opponents")


def make_single_agent(env_id: str | Game | BoundGame, num_envs: int,
                      num_players: int | None = None, *,
                      opponents: Opponents | Sequence[str | Policy] = ("random",),
                      learner_seat: int | None = None, seed: int | None = None,
                      autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                      render_mode: str | None = None, threads: int = 1,
                      **options: Any) -> LearnerVectorEnv:
    """``num_envs`` games of ``env_id`` (``cardgym/NAME-vN``, the short name, or a
    bound game) with ``num_players`` seats (default: the game's default) and rule
    ``options``, a learner in one seat of each (see the module and
    :class:`LearnerVectorEnv` for the other arguments).

    Raises:
        ValueError: the game has no batched engine (the message lists those that
            do), a bad count, seat or opponent.
        OptionError: an unknown option or a bad value.
    """
    if isinstance(env_id, BoundGame):
        bound = bind(env_id, num_players, options)
    else:
        from cardgym.registration import find_game

        game = find_game(env_id)
        if game.batched is None:
            having = ", ".join(g.name for g in batched_games()) or "none"
            raise ValueError(f"{game.title} has no batched engine yet; games with one: {having}")
        bound = bind(game, _default_players(game) if num_players is None else num_players,
                     options)
    return LearnerVectorEnv(bound, num_envs, opponents, learner_seat=learner_seat, seed=seed,
                            autoreset_mode=autoreset_mode, render_mode=render_mode,
                            threads=threads)


@dataclasses.dataclass
class _Ended:
    """The games that ended during one step, as the info reports them."""

    rows: NDArray[np.bool_]
    returns: NDArray[np.float64]
    lengths: NDArray[np.int64]
    seats: NDArray[np.int64]
    opponents: NDArray[np.object_]
    final_obs: dict[int, NDArray[np.float32]] = dataclasses.field(default_factory=dict)


class LearnerVectorEnv(GymVectorEnv):  # type: ignore[misc]
    """A learner's seat in ``num_envs`` games of a bound game (see the module).

    Args:
        bound: the game at its table size with its rule options; it needs a batched
            engine.
        num_envs: games played at once.
        opponents: an :class:`Opponents` (``sample(rng)``), or a list of
            ``"random"``, ``"heuristic"`` and policy objects drawn uniformly.
        learner_seat: a fixed seat for the learner; ``None`` draws one per game.
        seed: seeds the first ``reset()`` when it is given none.
        autoreset_mode: ``NEXT_STEP`` (default) or ``SAME_STEP`` (see the module), an
            ``AutoresetMode`` or its name (``"same_step"``, ``"SameStep"``).
        final_observations: with ``SAME_STEP``, put ``final_obs`` in the info.
        render_mode: ``None`` or ``"rgb_array"``: ``render()`` returns a picture of
            every game's table from the learner's seat (see :meth:`render`).
        threads: threads of the engine's kernels.

    Attributes:
        engine: the batched engine; ``learner`` the learner's seat in each game;
        opponent_labels: per game and seat, the label of the opponent playing it
        (``""`` for the learner).
    """

    def __init__(self, bound: BoundGame, num_envs: int,
                 opponents: Opponents | Sequence[str | Policy] = ("random",), *,
                 learner_seat: int | None = None, seed: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 final_observations: bool = True, render_mode: str | None = None,
                 threads: int = 1) -> None:
        game = bound.game
        if game.batched is None:
            raise ValueError(f"{game.title} has no batched engine")
        num_players = bound.num_players
        if learner_seat is not None and (isinstance(learner_seat, bool)
                                         or not 0 <= learner_seat < num_players):
            raise ValueError(f"learner_seat must be 0..{num_players - 1} (a seat) or None, "
                             f"got {learner_seat!r}")
        mode = _autoreset_mode(autoreset_mode)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.bound = bound
        self.game = game
        self.opponents = opponents_of(opponents, bound)
        self.engine = engine = bound.make_batched(num_envs, threads)
        self.num_envs = n = engine.num_games
        self.num_players = num_players
        self.num_actions = engine.num_actions
        self.fixed_seat = learner_seat
        self.autoreset_mode = mode
        self.final_observations = bool(final_observations)
        self.render_mode = render_mode
        self.metadata = {"autoreset_mode": mode, "render_modes": ["rgb_array"],
                         "render_fps": _RENDER_FPS}
        self.single_observation_space = engine.layout.observation_spec.box()
        self.single_action_space: spaces.Discrete = spaces.Discrete(engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self._rows = np.arange(n)
        self.learner = np.zeros(n, np.int64)
        #: Per game and seat, the index of its policy in ``_policies`` (-1: the learner).
        self.assigned = np.full((n, num_players), -1, np.int64)
        self._policies: list[Policy] = []
        self._labels: list[str] = []
        self._index: dict[int, int] = {}
        self._obs = np.zeros((n, engine.obs_dim), np.float32)
        self._masks = np.zeros((n, engine.num_actions), np.int8)
        self._learner_obs = np.zeros((n, engine.obs_dim), np.float32)
        self._learner_masks = np.zeros((n, engine.num_actions), np.int8)
        #: NEXT_STEP: the rows whose game ended on the last step, dealt on the next.
        self._pending = np.zeros(n, np.bool_)
        self._started = False
        #: Seconds spent in the batched engine and in the opponents' policies.
        self.timers = {"engine": 0.0, "opponents": 0.0}

    # ------------------------------------------------------------ the Gymnasium API

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None
              ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """New games in every row; returns the learner's observations and the info.

        ``seed``: an integer seeds the deals and the draws; a list gives each row its
        own seed (``None`` entries: fresh entropy); without one, the first reset
        uses the constructor's ``seed`` and later ones go on from the generators.

        Raises:
            ValueError: a bad seed, or ``options`` (rule options are set when the
                env is made).
        """
        if options:
            raise ValueError(f"reset options are not supported by the vector env, got "
                             f"{sorted(options)}; set rule options in make_single_agent()")
        engine = self.engine
        if seed is None and not self._started:
            seed = self._seed
        if isinstance(seed, (list, tuple, np.ndarray)):
            engine.rng[:] = self._row_states(seed)
            known = [int(s) for s in seed if s is not None]
            self._rng = np.random.default_rng(known if len(known) == len(seed) else None)
            engine.reset()
        elif seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer, a list of them (one per "
                                 f"game) or None, got {shorten(seed)}")
            self._rng = np.random.default_rng(int(seed))
            engine.reset(seed=int(self._rng.integers(2**63)))
        else:
            engine.reset()
        self._started = True
        self._pending[:] = False
        self._draw(np.ones(self.num_envs, np.bool_))
        self._play_opponents(np.zeros(self.num_envs), np.zeros(self.num_envs, np.bool_),
                             np.ones(self.num_envs, np.bool_), self._no_ends())
        self._learner_view()
        return self._learner_obs.copy(), self._info(None)

    def step(self, actions: Any) -> tuple[NDArray[np.float32], NDArray[np.float64],
                                          NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """The learner's action in every row (see the module).

        Raises:
            IllegalMoveError: an action that is not an integer of the action space or
                not legal in its row (the message names the first such rows and
                their legal actions); nothing moves.
        """
        if not self._started:
            raise RuntimeError("step() called before reset(); call envs.reset() first")
        actions = self._check(actions)
        engine = self.engine
        pending = self._pending
        dealing = pending.any()
        if dealing:
            self._timed("engine", engine.reset, rows=pending)
            self._draw(pending)
            actions = np.where(pending, -1, actions)
        self._timed("engine", engine.step, actions, autoreset=False)
        rewards = np.where(pending, 0.0, engine.rewards[self._rows, self.learner]
                           ).astype(np.float64)
        dones = engine.done & ~pending
        ended = self._no_ends()
        self._end(dones, ended)
        self._pending = np.zeros(self.num_envs, np.bool_)
        self._play_opponents(rewards, dones, dones | pending, ended)
        self._learner_view()
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            self._pending = dones.copy()
            self._learner_masks[dones] = 1
        truncations = np.zeros(self.num_envs, np.bool_)
        return self._learner_obs.copy(), rewards, dones, truncations, self._info(ended)

    def render(self) -> tuple[Any, ...] | None:  # (H, W, 3) uint8 pictures
        """With ``render_mode="rgb_array"``, a picture of every game's table from its
        learner's seat (``(H, W, 3)`` uint8 arrays), as the AEC env draws one; the
        games' records hold the recent events the engine keeps. ``None`` (and a
        warning) without a render mode. Each picture takes some milliseconds: make
        a small env for videos."""
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode="
                          "'rgb_array'", stacklevel=2)
            return None
        if not self._started:
            raise RuntimeError("render() called before reset(); call envs.reset() first")
        env = self.bound.make_env(render_mode="rgb_array")
        env.reset(seed=0)
        frames = []
        for i in range(self.num_envs):
            env._replace_state(self.engine.export(i))
            frames.append(env.render_image(int(self.learner[i])))
        return tuple(frames)

    def close(self, **kwargs: Any) -> None:
        """Nothing to release (the arrays go with the object)."""
        self.closed = True

    # ------------------------------------------------------------ more than Gymnasium

    def action_masks(self) -> NDArray[np.int8]:
        """The learner's legal actions in every game ``[N, A]``."""
        return self._learner_masks.copy()

    @property
    def opponent_labels(self) -> list[list[str]]:
        return [[self._labels[j] if j >= 0 else "" for j in row]
                for row in self.assigned.tolist()]

    def __repr__(self) -> str:
        return (f"LearnerVectorEnv({self.game.env_id}, num_envs={self.num_envs}, "
                f"num_players={self.num_players}, opponents={self.opponents!r}, "
                f"autoreset_mode={self.autoreset_mode.name})")

    # ------------------------------------------------------------ helpers

    def _timed(self, part: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        result = call(*args, **kwargs)
        self.timers[part] += time.perf_counter() - started
        return result

    def _row_states(self, seeds: Sequence[int | None]) -> NDArray[np.uint64]:
        if len(seeds) != self.num_envs:
            raise ValueError(f"a list of seeds needs one per game ({self.num_envs}), got "
                             f"{len(seeds)}")
        states = np.empty(self.num_envs, np.uint64)
        for i, one in enumerate(seeds):
            if one is not None and (isinstance(one, bool) or not isinstance(one, (int, np.integer))
                                    or one < 0):
                raise ValueError(f"seed {i} of the list must be a non-negative integer or None, "
                                 f"got {shorten(one)}")
            states[i] = seed_states(None if one is None else int(one), 1)[0]
        return states

    def _check(self, actions: Any) -> NDArray[np.int64]:
        return checked_actions(actions, self._learner_masks, self.learner,
                               self.engine.layout.action_table.names, free=self._pending,
                               unit="game", whose="learner ")

    def _policy_index(self, policy: Policy, label: str) -> int:
        index = self._index.get(id(policy))
        if index is None:
            index = self._index[id(policy)] = len(self._policies)
            self._policies.append(policy)
            self._labels.append(label)
        return index

    def _draw(self, rows: NDArray[np.bool_]) -> None:
        """A learner seat and opponents for the games in ``rows``."""
        rng = self._rng
        sample = self.opponents.sample
        for i in np.flatnonzero(rows).tolist():
            seat = (self.fixed_seat if self.fixed_seat is not None
                    else int(rng.integers(self.num_players)))
            self.learner[i] = seat
            for other in range(self.num_players):
                if other == seat:
                    self.assigned[i, other] = -1
                else:
                    label, policy = sample(rng)
                    self.assigned[i, other] = self._policy_index(policy, label)

    def _no_ends(self) -> _Ended:
        n = self.num_envs
        return _Ended(np.zeros(n, np.bool_), np.zeros(n), np.zeros(n, np.int64),
                      np.zeros(n, np.int64), np.full(n, None, object))

    def _end(self, rows: NDArray[np.bool_], ended: _Ended) -> None:
        """Note the games of ``rows`` that just ended (the learner's current ones);
        with ``SAME_STEP`` keep the learner's last observation of them, deal the
        next games and draw their seats."""
        if not rows.any():
            return
        engine = self.engine
        ended.rows |= rows
        ended.returns[rows] = engine.final_returns[rows, self.learner[rows]]
        ended.lengths[rows] = engine.final_lengths[rows]
        ended.seats[rows] = self.learner[rows]
        for i in np.flatnonzero(rows).tolist():
            ended.opponents[i] = [self._labels[j] if j >= 0 else ""
                                  for j in self.assigned[i].tolist()]
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            if self.final_observations:
                self._timed("engine", engine.observe, self.learner, self._obs, self._masks)
                for i in np.flatnonzero(rows).tolist():
                    ended.final_obs[i] = self._obs[i].copy()
            self._timed("engine", engine.reset, rows=rows)
            self._draw(rows)

    def _play_opponents(self, rewards: NDArray[np.float64], dones: NDArray[np.bool_],
                        quiet: NDArray[np.bool_], ended: _Ended) -> None:
        """Move the opponents until the learner is to act, or its game is over, in
        every row. What reaches the learner in the rows not ``quiet`` is added to
        ``rewards``; a game that ends there is the learner's (``dones``, noted in
        ``ended``). A ``quiet`` row's game is one the learner has not acted in yet
        (or one after its game ended, with ``SAME_STEP``): rewards before its first
        decision are dropped, and if it ends, the next game is dealt."""
        engine = self.engine
        rows = self._rows
        actions = np.empty(self.num_envs, np.int64)
        quiet = quiet.copy()
        for _ in range(self.game.max_steps):
            owner = self.assigned[rows, engine.to_act]
            waiting = (owner >= 0) & ~engine.over
            if not waiting.any():
                return
            self._timed("engine", engine.observe, None, self._obs, self._masks)
            actions[:] = -1
            started = time.perf_counter()
            for index in np.unique(owner[waiting]).tolist():
                chosen = waiting & (owner == index)
                actions[chosen] = act_batch(self._policies[index], self._obs[chosen],
                                            self._masks[chosen], self._rng)
            self.timers["opponents"] += time.perf_counter() - started
            self._timed("engine", engine.step, actions, autoreset=False)
            got = engine.rewards[rows, self.learner]
            rewards += np.where(waiting & ~quiet, got, 0.0)
            over = engine.done & waiting
            newly = over & ~quiet
            again = over & quiet
            dones |= newly
            quiet |= newly
            self._end(newly, ended)
            if again.any():
                self._timed("engine", engine.reset, rows=again)
                self._draw(again)
        raise RuntimeError(f"{self.game.title}: the opponents did not reach a learner decision "
                           f"within {self.game.max_steps} moves")

    def _learner_view(self) -> None:
        self._timed("engine", self.engine.observe, self.learner, self._learner_obs,
                    self._learner_masks)

    def _info(self, ended: _Ended | None) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._learner_masks.copy(),
                                "learner_seat": self.learner.copy()}
        if ended is None or not ended.rows.any():
            return info
        mask = ended.rows.copy()
        info["final_return"], info["_final_return"] = ended.returns, mask
        info["final_length"], info["_final_length"] = ended.lengths, mask.copy()
        info["final_seat"], info["_final_seat"] = ended.seats, mask.copy()
        info["final_opponents"], info["_final_opponents"] = ended.opponents, mask.copy()
        if self.autoreset_mode is AutoresetMode.SAME_STEP and self.final_observations:
            final = np.full(self.num_envs, None, object)
            for i, obs in ended.final_obs.items():
                final[i] = obs
            info["final_obs"], info["_final_obs"] = final, mask.copy()
        return info


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        allowed = mode
    else:
        names = {key.lower(): m for m in AutoresetMode for key in (m.name, m.value)}
        allowed = names.get(str(mode).lower())  # type: ignore[assignment]
    if allowed not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, got {mode!r}")
    return allowed


