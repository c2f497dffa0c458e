"""A Gymnasium single-agent view of a cardgym game, for Stable-Baselines3.

The learner holds one seat, drawn afresh each episode; the other seats are played
inside ``step()`` by :class:`~agents.policy.Policy` objects drawn from an
:class:`OpponentPool`. The learner always receives its own reward: everything that
reached its seat since its last action, including the final reward of a game that
an opponent's move ended. ``action_masks()`` serves sb3-contrib's MaskablePPO; the
class pickles, so it runs under ``SubprocVecEnv``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

from agents.league import SELF, checkpoint_label
from agents.options import as_bound
from agents.policy import Policy, RandomPolicy, decide
from agents.sb3 import ModelPolicy
from agents.specs import policy_of
from cardgym.aec import RENDER_FPS, RENDER_MODES, CardGameEnv
from cardgym.env_checks import check_env_arguments, check_picture_support
from cardgym.errors import IllegalMoveError
from cardgym.registration import BoundGame, Game

#: What an illegal learner action does: raise, or end the game with -1 for the learner.
ILLEGAL_ACTIONS = ("raise", "lose")


def make_game_env(game: Game, num_players: int,
                  options: Mapping[str, Any] | None = None, **env_kwargs: Any) -> CardGameEnv[Any]:
    """The game's AEC env (its ``env()`` factory) with rule ``options`` and env
    arguments such as ``illegal_action``."""
    return game.make_env(num_players=num_players, **dict(options or {}),  # type: ignore[no-any-return]
                         **env_kwargs)


def learner_table(game: str | Game | BoundGame, num_players: int | None,
                  options: Mapping[str, Any] | None) -> BoundGame:
    """The bound game of a learner's env: a bound game as it is (then give neither
    ``num_players`` nor ``options``), else the game (or its id or short name) bound to
    ``num_players`` (default 2) and ``options``, checked (``OptionsError``)."""
    if num_players is None and not isinstance(game, BoundGame):
        num_players = 2
    return as_bound(game, num_players, options)


class OpponentPool:
    """The policies the learner meets, drawn per seat and per episode.

    Args:
        bound: the game at its table size with its rule options.
        specs: agent specs (``random``, ``heuristic``, ``model:PATH``) and
            ``self`` for frozen checkpoints of the learner (random until the first
            checkpoint is added), drawn with equal weight.
        keep: how many of the latest checkpoints ``self`` draws from.
        built: policies already built for some of the specs (another pool's
            :attr:`fixed`, for the same bound game), used instead of building them again.

    By default a spec is drawn uniformly from ``specs`` (repeat one to weight it), and
    ``self`` then draws uniformly among the checkpoints. Once :meth:`set_weights` has
    given weights (a league, :mod:`agents.league`), a member is drawn by its weight
    instead: each distinct fixed spec and each checkpoint (``self:step_N.zip``) is one
    member; a member without a weight gets the mean of the others.
    """

    def __init__(self, bound: BoundGame, specs: Sequence[str], keep: int = 5,
                 built: Mapping[str, Policy] | None = None) -> None:
        if not specs:
            raise ValueError("the opponent pool needs at least one agent spec")
        self.bound = bound
        self.specs = list(specs)
        self.keep = keep
        self._fixed = {spec: policy_of(spec, bound, built)
                       for spec in dict.fromkeys(self.specs) if spec != SELF}
        self.checkpoints: list[Path] = []
        self._snapshots: dict[Path, Policy] = {}
        self._random = RandomPolicy()
        self.weights: dict[str, float] | None = None

    @property
    def fixed(self) -> Mapping[str, Policy]:
        """The policies of the fixed specs (all but ``self``), by spec."""
        return self._fixed

    def members(self) -> list[str]:
        """The labels a weighted draw picks from: each fixed spec once, then
        ``self:NAME`` for each checkpoint kept (none before the first)."""
        labels = list(self._fixed)
        if SELF in self.specs:
            labels += [checkpoint_label(path.name) for path in self.checkpoints]
        return labels

    def set_weights(self, weights: Mapping[str, float] | None) -> None:
        """Draw members by these weights from now on (``None``: the uniform draw)."""
        self.weights = None if weights is None else {k: float(v) for k, v in weights.items()}

    def add_checkpoint(self, path: str | Path) -> None:
        """Make a saved model available to ``self`` draws (latest ``keep`` kept). A
        checkpoint the pool has already is not added again (the envs that share one
        pool each pass it on)."""
        path = Path(path)
        if path in self.checkpoints:
            return
        self.checkpoints.append(path)
        self.checkpoints = self.checkpoints[-self.keep :]
        for old in list(self._snapshots):
            if old not in self.checkpoints:
                del self._snapshots[old]

    def sample(self, rng: np.random.Generator) -> tuple[str, Policy]:
        """A (label, policy) pair: the spec drawn, or ``self:<checkpoint>``."""
        if self.weights is not None:
            return self._sample_weighted(rng)
        spec = self.specs[int(rng.integers(len(self.specs)))]
        if spec != SELF:
            return spec, self._fixed[spec]
        if not self.checkpoints:
            return checkpoint_label("none"), self._random
        return self._snapshot(self.checkpoints[int(rng.integers(len(self.checkpoints)))])

    def _sample_weighted(self, rng: np.random.Generator) -> tuple[str, Policy]:
        given = self.weights or {}
        labels = self.members()
        if not labels:  # only 'self', before its first checkpoint
            return checkpoint_label("none"), self._random
        known = [given[label] for label in labels if label in given]
        default = float(np.mean(known)) if known else 1.0
        weights = np.array([given.get(label, default) for label in labels], np.float64)
        weights = np.maximum(weights, 0.0)
        total = weights.sum()
        index = (int(rng.integers(len(labels))) if total <= 0
                 else int(rng.choice(len(labels), p=weights / total)))
        label = labels[index]
        if label in self._fixed:
            return label, self._fixed[label]
        return self._snapshot(self.checkpoints[index - len(self._fixed)])

    def _snapshot(self, path: Path) -> tuple[str, Policy]:
        policy = self._snapshots.get(path)
        if policy is None:
            policy = ModelPolicy.load(path, game=self.bound)
            self._snapshots[path] = policy
        return checkpoint_label(path.name), policy


class SingleAgentEnv(gymnasium.Env):  # type: ignore[type-arg]
    """One learner seat of a cardgym game; opponents play inside ``step()``.

    Args:
        game: game id or short name (``power_hungry_pets``), or a bound game
            (:meth:`cardgym.game.Game.bind`: then no ``num_players`` nor ``options``).
        num_players: seats at the table (default 2).
        opponents: agent specs for the pool (see :class:`OpponentPool`).
        options: rule options of the game.
        learner_seat: a fixed seat for the learner; ``None`` draws one per episode.
        keep: how many of the latest checkpoints ``self`` draws from.
        illegal_action: what a learner action outside its mask does: ``"raise"``
            (default) raises :class:`~cardgym.errors.IllegalMoveError` and changes
            nothing; ``"lose"`` ends the episode with reward -1 for the learner (and
            a warning), as PettingZoo's ``TerminateIllegalWrapper`` does. Checkers
            that step unmasked random actions, Stable-Baselines3's and Gymnasium's
            ``check_env``, need ``"lose"``; MaskablePPO never takes an illegal action.
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (a picture
            of the table for Gymnasium's ``RecordVideo``), as in the AEC env.
        render_seat: whose view ``render()`` shows: ``None`` for the learner's seat,
            a seat number, or ``"full"``.
        pool: an opponent pool of this bound game to share with other envs of the
            same process (its policies and loaded checkpoints built once; each env
            draws from it with its own generator); ``None`` builds one from
            ``opponents`` and ``keep``.
        engine: the rules the game is played by, as in the AEC env: ``"auto"``
            (default: the compiled rules where the game has them and numba is
            installed), ``"compiled"`` or ``"python"``.

    Observations are the learner's flat float32 vector; ``action_masks()`` gives its
    legal actions. ``info`` holds ``learner_seat`` and the opponents' labels; the last
    step of an episode adds ``league``: the opponents' labels and the learner's return
    over the game, which a league (:mod:`agents.league`) records.
    ``step`` takes an integer action (``int``, a NumPy integer or a 0-d integer
    array); anything else (``2.9``, ``"2"``, ``True``) raises ``IllegalMoveError``
    whatever ``illegal_action`` says.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(self, game: str | Game | BoundGame, num_players: int | None = None,
                 opponents: Sequence[str] = ("random",),
                 options: Mapping[str, Any] | None = None,
                 learner_seat: int | None = None, illegal_action: str = "raise",
                 keep: int = 5, render_mode: str | None = None,
                 render_seat: int | str | None = None,
                 pool: OpponentPool | None = None, engine: str = "auto") -> None:
        super().__init__()
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action={illegal_action!r} is not allowed; allowed: "
                             f"{', '.join(map(repr, ILLEGAL_ACTIONS))}")
        if options and "illegal_action" in options:
            raise ValueError("illegal_action is an argument of SingleAgentEnv, not a rule "
                             "option: SingleAgentEnv(..., illegal_action='lose')")
        self.bound = bound = learner_table(game, num_players, options)
        self.game, num_players = bound.game, bound.num_players
        check_env_arguments(RENDER_MODES, num_players, render_mode, render_seat, "raise",
                            to_act="the learner's seat")
        check_picture_support(self.game, render_mode)
        self.render_mode = render_mode
        self.render_seat = render_seat
        if learner_seat is not None and not 0 <= learner_seat < num_players:
            raise ValueError(f"learner_seat must be 0..{num_players - 1}, got {learner_seat}")
        self.num_players = num_players
        self.options = bound.options
        self.illegal_action = illegal_action
        self.aec = bound.make_env(illegal_action=illegal_action, engine=engine)
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)["observation"]  # type: ignore[index]
        self.action_space = self.aec.action_space(agent)
        if pool is not None and pool.bound != bound:
            raise ValueError(f"the opponent pool is for {pool.bound!r}, not {bound!r}")
        self.pool = pool if pool is not None else OpponentPool(bound, list(opponents), keep=keep)
        self.fixed_seat = learner_seat
        self.learner = self.aec.possible_agents[0]
        self.seat_policies: dict[str, Policy] = {}
        self.labels: dict[str, str] = {}
        #: The seat that made the latest move (the learner's or an opponent's).
        self.last_actor: int = -1
        #: The learner's return so far in this episode.
        self.episode_return = 0.0

    # ------------------------------------------------------------ gymnasium

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        while True:
            seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.num_players))
            self.learner = self.aec.possible_agents[seat]
            self.seat_policies, self.labels = {}, {}
            for agent in self.aec.possible_agents:
                if agent != self.learner:
                    self.labels[agent], self.seat_policies[agent] = self.pool.sample(rng)
            self.aec.reset(seed=int(rng.integers(2**31 - 1)))
            if not self._play_opponents():
                break
            # The game ended before the learner's first decision: nothing to learn; deal again.
        self.episode_return = 0.0
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self.aec.agent_selection != self.learner:
            raise RuntimeError("step() called after the learner's episode ended; call reset()")
        self.aec.step(_integer_action(action, self.action_space))
        self.last_actor = self.aec.agent_name_mapping[self.learner]
        done = self._play_opponents()
        reward = float(self.aec._cumulative_rewards.get(self.learner, 0.0))
        self.episode_return += reward
        info = self._info()
        if done:
            info["league"] = {"opponents": list(self.labels.values()),
                              "return": self.episode_return}
        return self._observation(), reward, done, False, info

    def render(self) -> str | NDArray[np.uint8] | None:  # type: ignore[override]
        """The table as ``render_seat`` sees it (``None``: the learner's seat;
        ``"full"``: everything): text with ``render_mode="ansi"``, printed with
        ``"human"``, a picture (``(H, W, 3)`` ``uint8``) with ``"rgb_array"``."""
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode='ansi', "
                          "'human' or 'rgb_array' to SingleAgentEnv", stacklevel=2)
            return None
        seat = (self.aec.agent_name_mapping[self.learner] if self.render_seat is None
                else self.render_seat)
        if self.render_mode == "rgb_array":
            return self.aec.render_image(seat)
        text = self.aec.render_text(seat)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions (all False once its episode is over)."""
        return self.aec.action_mask(self.learner).astype(bool)

    # --------------------------------------------------------------- helpers

    def add_checkpoint(self, path: str) -> None:
        """Let ``self`` opponents draw from a newly saved model (called across
        ``SubprocVecEnv`` with ``env_method``)."""
        self.pool.add_checkpoint(path)

    def set_opponent_weights(self, weights: Mapping[str, float] | None) -> None:
        """Draw opponents by these weights from now on (a league's, through
        ``env_method``); ``None`` returns to the uniform draw."""
        self.pool.set_weights(weights)

    def _play_opponents(self) -> bool:
        """Play the other seats until the learner is to act; True if its episode is over."""
        aec = self.aec
        rng = self.np_random
        while aec.agents:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                if agent == self.learner:
                    return True
                aec.step(None)
                continue
            if agent == self.learner:
                return False
            observation = aec.observe(agent)
            aec.step(decide(self.seat_policies[agent], aec, agent, observation, rng))
            self.last_actor = aec.agent_name_mapping[agent]
        return True

    def _observation(self) -> NDArray[np.float32]:
        return self.aec.observe(self.learner)["observation"]

    def _info(self) -> dict[str, Any]:
        return {"learner_seat": self.aec.agent_name_mapping[self.learner],
                "opponents": dict(self.labels)}


def _integer_action(action: Any, space: Any) -> int:
    """``action`` as an int if it is an integer (``int``, a NumPy integer or a 0-d
    integer array); ``2.9``, ``"2"`` or ``True`` are refused, never truncated."""
    value = action[()] if isinstance(action, np.ndarray) and action.shape == () else action
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise IllegalMoveError(f"action must be an integer in 0..{space.n - 1}, got {action!r} "
                               f"of type {type(action).__name__}")
    return int(value)
