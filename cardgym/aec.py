"""The AEC base class every cardgym environment builds on.

A game subclass provides a handful of hooks over its engine (new game, whose turn,
legal actions, apply, encode, render); this class does the PettingZoo bookkeeping:
cached spaces, Gymnasium seeding semantics, agents leaving the game, rewards, and
the checks that PettingZoo's standard wrapper chain (``OrderEnforcingWrapper``,
``AssertOutOfBoundsWrapper``, ``TerminateIllegalWrapper``) would add, done inline
so they cost next to nothing per step.

Guarantees:

- ``step``, ``observe`` and ``render`` before ``reset`` raise
  :class:`~cardgym.errors.OrderError`; the bookkeeping attributes (``agents``,
  ``rewards``, ``agent_selection``, ...), and so ``last()`` and iterating
  ``agent_iter()``, raise ``AttributeError`` saying that ``reset()`` comes first.
- An action outside ``0..n-1``, of a non-integer type, or not legal now raises
  :class:`~cardgym.errors.IllegalMoveError` naming the action and the legal
  choices, and changes nothing. With ``illegal_action="lose"`` the offender
  instead gets -1, the others 0, and the game ends (``TerminateIllegalWrapper``).
- A finished agent must step with ``None``; anything else raises. Finished agents'
  masks are all zero, however the game ended (``TerminateIllegalWrapper`` too).
- ``last()`` after every agent has finished raises
  :class:`~cardgym.errors.GameOverError` (a ``KeyError`` too, as PettingZoo's own
  envs raise there) saying to call ``reset()``.
- With ``render_mode="human"``, ``reset()`` and ``step()`` print the table, as
  Gymnasium and PettingZoo envs do.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, ClassVar, Final, Generic, Self, TypeVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from cardgym.actions import ActionTable
from cardgym.chance import SPLITMIX64, Chance, new_generator
from cardgym.compiled import CompiledTable, choose_engine
from cardgym.env_checks import (
    _summarise,
    check_env_arguments,
    check_picture_support,
    scenario_of,
    start_game,
)
from cardgym.errors import GameOverError, IllegalMoveError, OrderError
from cardgym.game import Game, Layout, StepOutcome
from cardgym.observation import ObservationSpec
from cardgym.reading import FULL_VIEW_EVENTS, PICTURE_SIZE, TableReading, table_viewer
from cardgym.record import Event
from cardgym.state import SlotState

StateT = TypeVar("StateT")

_BEFORE_RESET = frozenset(
    {"agents", "rewards", "terminations", "truncations", "infos", "agent_selection",
     "_cumulative_rewards"}
)

Observation = dict[str, NDArray[Any]]

#: Names that moved to :mod:`cardgym.reading` and :mod:`cardgym.env_checks`, still
#: importable from here.
__all__ = ["FULL_VIEW_EVENTS", "PICTURE_SIZE", "RENDER_FPS", "RENDER_MODES", "CardGameEnv",
           "Observation", "StepOutcome", "check_env_arguments", "check_picture_support",
           "mask_to_array", "scenario_of", "start_game", "table_viewer"]

#: The render modes of every cardgym env: text returned, text printed, a picture.
RENDER_MODES: Final = ("ansi", "human", "rgb_array")
#: Frames per second of a video of a game (Gymnasium's ``RecordVideo`` reads it).
RENDER_FPS: Final = 2
#: Distinct masks whose int8 arrays an env keeps (cleared when full): at most
#: 4,096 x (actions + 112) bytes, under 2 MiB for the largest action table.
_MASK_CACHE_SIZE = 1 << 12


#: The hooks through which the Python engine plays; an env class that overrides one
#: plays on the Python engine (the compiled rules do not call them).
_ENGINE_HOOKS = ("_game_new", "_game_to_act", "_game_legal_mask", "_game_apply",
                 "_game_encode")


def take_version(env: Any, version: int | None) -> None:
    """Set ``env.stream`` and ``env.version`` for the env ``version`` of its game
    (``None``: the newest); a legacy version warns, in one line, that it is
    deprecated, and names itself in the env's ``metadata``. The AEC and the parallel
    envs alike.

    Raises:
        OptionError: not a version the game keeps.
    """
    game = env.game
    #: The stream the game's chance comes from (:data:`cardgym.chance.STREAMS`).
    env.stream = game.stream_of(version)
    #: The env version (its id is ``game.env_id_of(version)``).
    env.version = game.version if version is None else int(version)
    if env.stream != SPLITMIX64:
        warnings.warn(f"{game.env_id_of(env.version)} is deprecated: it deals from numpy's "
                      f"PCG64 generator; {game.env_id} plays the same rules on the game's "
                      "shared stream (cardgym.chance), the games a batched engine deals for the "
                      "same seed", DeprecationWarning, stacklevel=5)
        # An instance's own, over the class's.
        env.metadata = {**env.metadata, "name": f"{game.name}_v{env.version}"}


def mask_to_array(mask: int, num_actions: int) -> NDArray[np.int8]:
    """The int8 array of a bit mask over ``num_actions`` actions (bit i = action i)."""
    raw = np.frombuffer(mask.to_bytes((num_actions + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=num_actions, bitorder="little").view(np.int8)


class CardGameEnv(TableReading, AECEnv, Generic[StateT]):  # type: ignore[type-arg]
    """Shared AEC machinery over a card-game engine.

    A subclass sets the class attributes ``game`` (the game's
    :class:`~cardgym.game.Game`) and ``metadata``, and sets ``self.config`` (the
    game's checked rule options) before calling ``__init__``; the layout (action
    table, observation spec, mask, dispatch, encoder) comes from
    ``game.layout(config)``, and the ``_game_*`` hooks read the game through its
    contract.

    Args:
        num_players: seats at the table; agents are ``player_0`` .. ``player_{n-1}``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text), ``"human"``
            (``render()`` prints it) or ``"rgb_array"`` (``render()`` returns a
            picture of the table, an ``(H, W, 3)`` ``uint8`` array).
        render_seat: whose view ``render()`` shows: a seat number, ``None`` for the
            agent to act, or ``"full"`` for everything, hidden cards included.
        illegal_action: ``"raise"`` (default) raises :class:`IllegalMoveError`;
            ``"lose"`` ends the game with -1 for the offender and 0 for the others.
        version: the env version (``None``: the newest, :attr:`Game.version`). The
            newest deals from the game's shared stream (:mod:`cardgym.chance`), so
            that a seed deals the same game here as in a batched engine's row; a
            legacy version (:attr:`Game.legacy_versions`) deals from numpy's PCG64
            generator as it always did, and warns once per env that it is
            deprecated.
        engine: ``"auto"`` (default), ``"compiled"`` or ``"python"``: the rules the
            game is played by. ``"compiled"`` steps and observes the game in the
            game's batched engine (:mod:`cardgym.compiled`; the ``vector`` extra),
            the Python engine producing what the kernels do not keep (the record,
            positions, table views) when asked; ``"python"`` plays it in the Python
            engine; ``"auto"`` takes the compiled rules where the game has them and
            numba is installed. Both play the same games, step for step.
    """

    game: ClassVar[Game]
    config: Any
    # From ``game.layout(config)``, per instance (Exploding Kittens' layout depends on
    # its options).
    layout: Layout
    action_table: ActionTable[Any]
    observation_spec: ObservationSpec
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES), "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        num_players: int,
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
        version: int | None = None,
        engine: str = "auto",
    ) -> None:
        super().__init__()
        game = self.game
        self.stream: str
        self.version: int
        take_version(self, version)
        #: The rules the game is played by: ``"compiled"`` or ``"python"``.
        self.engine = choose_engine(game, engine, self.stream, [
            name for name in _ENGINE_HOOKS
            if getattr(type(self), name) is not getattr(CardGameEnv, name)])
        self._table = CompiledTable(game, self.config) if self.engine == "compiled" else None
        layout = game.layout(self.config)
        self.layout = layout
        self.action_table = layout.action_table
        self.observation_spec = layout.observation_spec
        # The hooks run on every step: their functions are bound once, here.
        self._to_act_of, self._is_over_of = game.to_act, game.is_over
        self._view_of, self._encode_of = game.player_view, layout.encode
        self._mask_of, self._apply_of = layout.legal_mask, layout.apply
        # The reward rule, where it pays during the game under these options.
        rule = game.step_rewards
        self._step_rewards = rule if rule is not None and rule.pays_during(self.config) else None
        check_env_arguments(self.metadata["render_modes"], num_players, render_mode,
                            render_seat, illegal_action)
        check_picture_support(game, render_mode)
        self.num_players = num_players
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.illegal_action = illegal_action
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        num_actions = len(self.action_table)
        self._num_actions = num_actions
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": self.observation_spec.box(),
                    "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(num_actions) for agent in self.possible_agents
        }
        self._state: StateT | None = None
        self._np_random: Chance | None = None
        self._np_random_seed: int | None = None
        self._mask_cache: int | None = None
        self._mask_arrays: dict[int, NDArray[np.int8]] = {}
        #: Finished agents' observation vectors by seat, of the state as it is now (the
        #: Python engine): a finished agent is observed once more after the step that
        #: finished it (PettingZoo's loop calls ``last()`` for it), and any later
        #: observation of it is served from here, as a copy, until the env changes or
        #: replaces the state (``step``, ``reset``, ``game_state = ...``).
        self._finished_obs: dict[int, NDArray[np.float32]] = {}

    @classmethod
    def from_config(cls, config: Any, **env_kwargs: Any) -> Self:
        """The env on rule options already checked (a ``Config`` of this game, as
        :meth:`cardgym.game.BoundGame.make_env` holds it), without building them
        again; ``env_kwargs`` are ``render_mode``, ``render_seat``,
        ``illegal_action``, ``version`` and ``engine``."""
        expected = cls.game.config
        if isinstance(expected, type) and not isinstance(config, expected):
            raise TypeError(f"from_config takes a {cls.game.title} Config, "
                            f"not {type(config).__name__}")
        env = cls.__new__(cls)
        env.config = config
        CardGameEnv.__init__(env, config.num_players, **env_kwargs)
        return env

    # ------------------------------------------------------------------ hooks
    # Each hook reads the game through its contract (``game``); a subclass overrides
    # a hook only where its game differs (rewards during the game, say).

    def _game_new(self, rng: Chance, scenario: dict[str, Any] | None) -> StateT:
        """A new game (match) state, from the generator or a scenario."""
        return self.game.new_game(self.config, rng, scenario)  # type: ignore[no-any-return]

    def _game_to_act(self) -> int:
        """The seat to act now (any seat once the game is over)."""
        table = self._table
        return self._to_act_of(self._state) if table is None else table.to_act()

    def _game_legal_mask(self) -> int:
        """Legal actions of the seat to act as a bit mask (bit ``i`` set: action ``i`` legal)."""
        table = self._table
        return self._mask_of(self._state) if table is None else table.legal_mask()

    def _game_apply(self, action: int, rng: Chance) -> StepOutcome | None:
        """Apply a legal action of the seat to act; ``None`` if nothing but the move
        happened. The rewards are the game's reward rule's (``Game.step_rewards``),
        or without one the game's returns, once it is over."""
        if self._table is not None:
            return self._table.apply(action)
        state = self._state
        rule = self._step_rewards
        if rule is not None:
            mark = rule.mark(state)
            self._apply_of(state, action, rng)
            return rule.outcome(state, mark)  # type: ignore[no-any-return]
        self._apply_of(state, action, rng)
        if self._is_over_of(state):
            return StepOutcome(self.game.returns(state), game_over=True)
        return None

    def _game_encode(self, seat: int) -> NDArray[np.float32]:
        """The observation vector of one seat, from that seat's view alone."""
        return self._encode_of(self._view_of(self._state, seat))

    def _game_render(self, seat: int | None) -> str:
        """Text of the table from one seat's view, or the full view when ``seat`` is None."""
        return self.game.render(self.game_state, seat)

    def _game_log(self) -> Sequence[Event]:
        """The game's public record (:mod:`cardgym.record`), oldest event first."""
        return self.game.log(self.game_state)

    def _game_describe(self, event: Event, seat: int) -> str:
        """One event in words, as ``seat`` saw it (:data:`~cardgym.record.TABLE`: the
        full view, secrets included)."""
        return self.game.describe_event(event, seat, self.num_players)

    # --------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    @property
    def game_state(self) -> StateT | None:
        """The game's state (``None`` before ``reset``). Under the compiled rules it
        is the Python engine's replay of the game (:mod:`cardgym.compiled`), brought
        up to date when this is read: read it again after a step rather than keep it,
        and to change the game set a whole state (``env.game_state = state``), which
        the compiled rules load."""
        table = self._table
        if table is None or self._state is None:
            return self._state
        return table.state  # type: ignore[no-any-return]

    @game_state.setter
    def game_state(self, state: StateT | None) -> None:
        # Under the compiled rules ``_state`` is only whether a game has begun (the
        # table), the state itself the table's.
        self._finished_obs.clear()
        if isinstance(state, SlotState):  # edited by hand, maybe, since it was encoded
            state.drop_caches()
        table = self._table
        if table is not None and state is not None:
            table.set_state(state)
            self._state = table  # type: ignore[assignment]
        else:
            self._state = state

    @property
    def np_random(self) -> Chance:
        """The game's generator, seeded by ``reset(seed=...)``: a
        :class:`~cardgym.chance.GameRandom` on the game's stream (a numpy
        ``Generator`` in a legacy version). Its ``bit_generator.state`` reads and
        sets its state either way."""
        if self._np_random is None:
            self._np_random, self._np_random_seed = new_generator(self.stream, None)
            if self._table is not None:
                self._table.random.bit_generator.state = self._np_random.bit_generator.state
                self._np_random = self._table.random
        return self._np_random

    # ---------------------------------------------------------- bookkeeping

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails, so it costs nothing on the hot path.
        if name in _BEFORE_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset()")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        Args:
            seed: seeds the environment's generator (Gymnasium semantics: without a
                seed, a first reset seeds from entropy and later resets continue).
            options: ``{"scenario": {...}}`` sets up a specific position (see the
                env's documentation). Unknown keys are ignored with a one-line warning
                (PettingZoo's ``api_test`` probe ``{"options": 1}`` silently). A scenario
                that fails validation raises and leaves the env unchanged.

        Raises:
            OptionError: ``options`` is not a dict (nothing changes).

        With ``render_mode="human"`` the new table is printed (as after each ``step``).
        """
        scenario = scenario_of(options, self.metadata.get("name", type(self).__name__))
        rng_seed: int | None
        if seed is not None or self._np_random is None:
            rng, rng_seed = new_generator(self.stream, seed)
        else:
            rng, rng_seed = self._np_random, self._np_random_seed
        table = self._table
        if table is None:
            game_state = start_game(self.game, lambda: self._game_new(rng, scenario), rng,
                                    scenario is not None)
            self._np_random, self._np_random_seed = rng, rng_seed
            self._state = game_state
        else:
            game_state = self._compiled_reset(table, rng, scenario)  # type: ignore[assignment]
            self._np_random, self._np_random_seed = table.random, rng_seed
        self.agents = self.possible_agents[:]
        if scenario is not None and self.game.seats_out is not None:
            out = set(self.game.seats_out(game_state))
            self.agents = [agent for seat, agent in enumerate(self.agents) if seat not in out]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewards_dirty = False
        self._mask_cache = None
        self._finished_obs.clear()
        self.agent_selection = self.possible_agents[self._game_to_act()]
        if self.render_mode == "human":
            self.render()

    def _compiled_reset(self, table: CompiledTable, rng: Chance,
                        scenario: dict[str, Any] | None) -> StateT | None:
        """A new game in the compiled rules (:meth:`CompiledTable.begin`): dealt in the
        row from ``rng``'s stream state, or the scenario's state (read by the Python
        engine) loaded there, which it returns."""
        make = None if scenario is None else (
            lambda start: start_game(self.game, lambda: self._game_new(start, scenario), start,
                                     True))
        state = table.begin(rng.bit_generator.state, make)
        self._state = table  # type: ignore[assignment]  # begun (see game_state)
        return state  # type: ignore[no-any-return]

    def position(self) -> dict[str, Any]:
        """The current state as a scenario, in JSON types: ``reset(options={"scenario":
        env.position()})`` on an env of the same game and options sets up the same
        state, and play goes on from it as from this one (docs/positions.md)."""
        self._require_reset("position()")
        return self.game.position(self.game_state)

    def _require_reset(self, what: str) -> None:
        if self._state is None:
            raise OrderError(f"{what} called before reset(); call env.reset() first")

    def _legal_mask(self) -> int:
        # A finished agent has no legal action, however the game ended: PettingZoo's
        # TerminateIllegalWrapper ends it by writing ``terminations`` directly, past
        # step() and its cache.
        agent = self.agent_selection
        if self.terminations.get(agent, True) or self.truncations.get(agent, True):
            return 0
        mask = self._mask_cache
        if mask is None:
            mask = self._game_legal_mask()
            self._mask_cache = mask
        return mask

    def _was_dead_step(self, action: Any) -> None:
        super()._was_dead_step(action)
        self._mask_cache = None

    def _deads_step_first(self) -> str:
        selected: str = super()._deads_step_first()
        self._mask_cache = None
        return selected

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, termination, truncation and info of the agent
        to act (PettingZoo's ``last``).

        Raises:
            AttributeError: before ``reset()`` (see the module).
            GameOverError: once every agent has finished: an :class:`OrderError` and
                a ``KeyError``, which PettingZoo's own envs raise there.
        """
        if not self.agents:
            raise GameOverError(
                "last() called after the game ended: every agent has finished and left "
                "env.agents (agent_iter() stops here); call env.reset() for a new game"
            )
        return super().last(observe)  # type: ignore[no-any-return]

    def legal_actions(self) -> list[int]:
        """Legal action indices of the agent to act, ascending (empty once it is done)."""
        self._require_reset("legal_actions()")
        mask = self._legal_mask()
        return [i for i in range(self._num_actions) if mask >> i & 1]

    def action_mask(self, agent: str) -> NDArray[np.int8]:
        """The int8 mask of ``agent``: its legal actions if it is to act, else all zero."""
        if agent != self.agent_selection:
            return np.zeros(self._num_actions, dtype=np.int8)
        return self._mask_array(self._legal_mask())

    def _mask_array(self, mask: int) -> NDArray[np.int8]:
        """A fresh int8 array of a bit mask (the arrays of distinct masks are kept)."""
        array = self._mask_arrays.get(mask)
        if array is None:
            if len(self._mask_arrays) >= _MASK_CACHE_SIZE:
                self._mask_arrays.clear()
            array = mask_to_array(mask, self._num_actions)
            self._mask_arrays[mask] = array
        return array.copy()

    def observe(self, agent: str) -> Observation:
        self._require_reset("observe()")
        table = self._table
        if table is not None:
            seat = self.agent_name_mapping[agent]
            obs, mask = table.observe(seat)
            # The kernels' mask is the seat's to act; a finished agent's is all zero.
            if agent == self.agent_selection and (self.terminations.get(agent, True)
                                                  or self.truncations.get(agent, True)):
                mask[:] = 0
            return {"observation": obs, "action_mask": mask}
        seat = self.agent_name_mapping[agent]
        if self.terminations.get(agent, True) or self.truncations.get(agent, True):
            # Finished: the state no longer changes for it; encoded once (per state).
            vector = self._finished_obs.get(seat)
            if vector is None:
                vector = self._finished_obs[seat] = self._game_encode(seat)
            return {"observation": vector.copy(),
                    "action_mask": np.zeros(self._num_actions, dtype=np.int8)}
        return {"observation": self._game_encode(seat), "action_mask": self.action_mask(agent)}

    def step(self, action: Any) -> None:
        if self._state is None:
            raise OrderError("step() called before reset(); call env.reset() first")
        if not self.agents:
            raise OrderError("step() called after every agent has finished; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalMoveError(
                    f"{agent} has finished; the only valid action is None, got {action!r}"
                )
            self._was_dead_step(action)
            return
        if action.__class__ is not int:
            action = self._coerce_action(action)
        table = self._table
        if table is None:
            mask = self._mask_cache
            if mask is None:
                mask = self._legal_mask()
            legal = 0 <= action < self._num_actions and mask >> action & 1
        else:
            legal = 0 <= action < self._num_actions and table.legal()[action]
        if not legal:
            self._illegal(agent, action)
            if self.render_mode == "human":
                self.render()
            return
        if self._rewards_dirty:
            self._clear_rewards()
            self._rewards_dirty = False
        self._cumulative_rewards[agent] = 0.0
        outcome = self._game_apply(action, self._np_random)  # type: ignore[arg-type]
        self._mask_cache = None
        self._finished_obs.clear()
        if outcome is not None:
            self._record(outcome)
        if not (outcome is not None and outcome.game_over):
            self.agent_selection = self.possible_agents[self._game_to_act()]
            if outcome is not None and outcome.finished:
                self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _replace_state(self, state: StateT) -> None:
        """Swap in another state of the same game mid-episode (leak tests, analysis)."""
        self.game_state = state
        self._mask_cache = None
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            self.agent_selection = self.possible_agents[self._game_to_act()]

    def _coerce_action(self, action: Any) -> int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(
                action.dtype, np.integer
            ):
                return int(action)
            raise IllegalMoveError(
                f"action must be an integer in 0..{self._num_actions - 1}, got {action!r} "
                f"of type {type(action).__name__}"
            )
        return int(action)

    def _illegal(self, agent: str, action: int) -> None:
        if not 0 <= action < self._num_actions:
            message = (
                f"{agent}: action {action} is out of bounds; actions are 0..{self._num_actions - 1}"
            )
        else:
            names = [self.action_table.names[i] for i in self.legal_actions()]
            message = (
                f"{agent}: action {action} ({self.action_table.names[action]}) is not legal now; "
                f"legal: {_summarise(names)}"
            )
        if self.illegal_action == "raise":
            raise IllegalMoveError(message)
        warnings.warn(f"{message}; the game ends with -1 for {agent}", stacklevel=3)
        if self._rewards_dirty:
            self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.rewards[other] = -1.0 if other == agent else 0.0
            self.terminations[other] = True
        self.infos[agent] = {"illegal_action": action}
        self._rewards_dirty = True
        self._accumulate_rewards()
        self._mask_cache = None

    def _record(self, outcome: StepOutcome) -> None:
        names = self.possible_agents
        if outcome.rewards is not None:
            rewards = self.rewards
            for seat, value in enumerate(outcome.rewards):
                agent = names[seat]
                if agent in rewards:
                    rewards[agent] = float(value)
            self._rewards_dirty = True
            self._accumulate_rewards()
        if outcome.game_over:
            for agent in self.agents:
                self.terminations[agent] = True
        else:
            for seat in outcome.finished:
                self.terminations[names[seat]] = True

    # ------------------------------------------------------------ rendering

    def render(self) -> str | NDArray[np.uint8] | None:
        """The table from ``render_seat``'s view: returned as text with
        ``render_mode="ansi"``, printed with ``render_mode="human"``, returned as a
        picture (:meth:`render_image`) with ``render_mode="rgb_array"``. Nothing is
        drawn unless a render is asked for."""
        if self.render_mode is None:
            warnings.warn(
                "render() called without a render_mode; pass render_mode='ansi', 'human' "
                "or 'rgb_array'",
                stacklevel=2,
            )
            return None
        self._require_reset("render()")
        if self.render_mode == "rgb_array":
            return self.render_image(self.render_seat)
        text = self.render_text(self.render_seat)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release; present so that ``render`` has its pair."""

    # --------------------------------------------------------------- helpers

    def __str__(self) -> str:
        return str(self.metadata.get("name", type(self).__name__))
