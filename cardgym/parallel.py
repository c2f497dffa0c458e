"""The parallel base class for games whose seats decide simultaneously.

A game whose stages are commits hidden until the stage resolves can be played as a
PettingZoo ``ParallelEnv``: one step per stage, in which every live agent sends an
action, the seats with a decision their choice and the others the single legal
move that stands for "nothing to decide". A subclass says what that means for its
game through two hooks (:meth:`CardGameParallelEnv._stage_mask` and
:meth:`CardGameParallelEnv._play_stage`); this class reads the rest of the game
through its contract (:class:`cardgym.game.Game`) and does the PettingZoo
bookkeeping: cached spaces, Gymnasium seeding semantics, the checks of every
agent's action, rewards at the end, rendering with the narration of the last step.

The game is played by the Python engine or, as in the AEC env, by its compiled rules
(``engine="compiled"``, :mod:`cardgym.compiled`): a one-row batched engine shows
every seat its observation and its mask in one kernel call per step, and the
stage's commits are kernel steps; what the kernels do not keep (the record, and so
the narration, table views, pictures and positions) comes from the Python engine's
replay of the game, made when first asked for.

Guarantees:

- ``step`` and ``render`` before ``reset``, or ``step`` after the game ended, raise
  :class:`~cardgym.errors.OrderError`.
- A step must name an action for every live agent; a non-integer action raises
  :class:`~cardgym.errors.IllegalMoveError`. Actions outside an agent's mask raise
  it too, naming each offender and its legal choices, and change nothing; with
  ``illegal_action="lose"`` the offenders instead get -1, the others 0, and the
  game ends.
- A scenario that fails validation leaves the env as it was, generator included.
- With ``render_mode="human"``, ``reset()`` and ``step()`` print the table.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import ParallelEnv

from cardgym.aec import RENDER_FPS, RENDER_MODES, take_version
from cardgym.chance import Chance, new_generator
from cardgym.compiled import CompiledTable, choose_engine
from cardgym.env_checks import (
    check_env_arguments,
    check_picture_support,
    scenario_of,
    start_game,
)
from cardgym.errors import IllegalMoveError, OptionError, OrderError
from cardgym.game import Game, Layout
from cardgym.reading import PICTURE_SIZE, table_viewer
from cardgym.record import TABLE, events_as_seen_by
from cardgym.table import compose, table_of

__all__ = ["CardGameParallelEnv", "Observation", "StepResult"]

StateT = TypeVar("StateT")

Observation = dict[str, NDArray[Any]]
StepResult = tuple[dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool],
                   dict[str, dict[str, Any]]]

#: The hooks through which a parallel env plays: a class that overrides one of them
#: below the class that plays on the compiled rules plays on the Python engine.
_ENGINE_HOOKS = ("_stage_mask", "_play_stage", "_observe")


class CardGameParallelEnv(ParallelEnv, Generic[StateT]):  # type: ignore[type-arg]
    """Shared parallel machinery over a card-game engine.

    A subclass sets the class attributes ``game`` (the game's
    :class:`~cardgym.game.Game`) and ``metadata``, sets ``self.config`` (the game's
    checked rule options) before calling ``__init__``, and fills in the hooks
    :meth:`_stage_mask` and :meth:`_play_stage`. A subclass whose game's batched
    engine shows a stage (``observe_stage``, as :meth:`_stage_mask` and
    :meth:`_observe` do) and whose :meth:`_play_stage` also plays on the compiled
    rules sets ``plays_compiled = True`` in its class body.

    Args:
        num_players: seats at the table; agents are ``player_0`` .. ``player_{n-1}``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"``
            (``render()`` prints it).
        render_seat: whose view ``render()`` shows: a seat number, ``None`` for the
            seat whose commit is next (the AEC env's agent to act), or ``"full"`` for
            everything, hidden cards included.
        illegal_action: ``"raise"`` (default) raises :class:`IllegalMoveError`;
            ``"lose"`` ends the game with -1 for the offenders and 0 for the others.
        version: the env version, as in the AEC env (:class:`cardgym.aec.CardGameEnv`):
            the newest deals from the game's shared stream, a legacy one from
            numpy's PCG64 generator.
        engine: ``"auto"`` (default), ``"compiled"`` or ``"python"``, chosen as in the
            AEC env: ``"compiled"`` plays the game in the game's batched engine
            (:mod:`cardgym.compiled`; the ``vector`` extra), the Python engine
            producing what the kernels do not keep (the record, positions, table
            views) when asked; ``"python"`` plays it in the Python engine; ``"auto"``
            takes the compiled rules where the game and the env class have them and
            numba is installed. Both play the same games, step for step.
    """

    game: ClassVar[Game]
    config: Any
    layout: Layout
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES), "is_parallelizable": True,
        "render_fps": RENDER_FPS,
    }
    #: Whether the class plays on the compiled rules too (see the class).
    plays_compiled: ClassVar[bool] = False

    def __init__(
        self,
        num_players: int,
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
        version: int | None = None,
        engine: str = "auto",
    ) -> None:
        self.stream: str
        self.version: int
        take_version(self, version)
        #: The rules the game is played by: ``"compiled"`` or ``"python"``.
        self.engine = self._choose_engine(engine)
        self._table = (CompiledTable(self.game, self.config) if self.engine == "compiled"
                       else None)
        check_env_arguments(self.metadata["render_modes"], num_players, render_mode,
                            render_seat, illegal_action, to_act="the seat whose commit is next")
        check_picture_support(self.game, render_mode)
        self.layout = self.game.layout(self.config)
        self.num_players = num_players
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.illegal_action = illegal_action
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agents: list[str] = []
        num_actions = self.layout.num_actions
        self._num_actions = num_actions
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": self.layout.observation_spec.box(),
                "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self._action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(num_actions) for agent in self.possible_agents
        }
        # The game's state; under the compiled rules only whether a game has begun (the
        # table), the state itself the table's (see ``game_state``).
        self._state: Any = None
        self._np_random: Chance | None = None
        self._masks: list[int] = [0] * num_players
        self._penalties: list[float] = [0.0] * num_players
        # Index in the record of the first event of the last step (narrated by render()).
        self._step_start = 0
        # Under the compiled rules, until the record is asked for: the table's mark
        # (``CompiledTable.mark``) where the last step began, ``_step_start`` to be.
        self._step_mark: int | None = None

    def _choose_engine(self, engine: Any) -> str:
        """The engine the env plays with for the ``engine`` argument (see the class)."""
        cls = type(self)
        home = next((k for k in cls.__mro__ if k.__dict__.get("plays_compiled")), None)
        overridden = [] if home is None else [
            name for name in _ENGINE_HOOKS if getattr(cls, name) is not getattr(home, name)]
        chosen = choose_engine(self.game, engine, self.stream, overridden)
        if chosen == "compiled" and home is None:
            if engine == "compiled":
                raise OptionError(f"engine='compiled' is not available: {cls.__name__} plays "
                                  "on the Python engine only; use engine='python' or 'auto'")
            return "python"
        return chosen

    # ------------------------------------------------------------------ hooks

    def _stage_mask(self, seat: int) -> int:
        """``seat``'s legal actions in this step as a bit mask: its decision if it has
        one, else the single action that stands for nothing to decide."""
        raise NotImplementedError

    def _play_stage(self, chosen: list[int]) -> None:
        """Commit ``chosen[seat]`` of every seat with a decision, in the game's order,
        until the stage resolves (under the compiled rules on the table,
        ``self._table``, in the same order)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ state

    @property
    def game_state(self) -> StateT | None:
        """The game's state, as the AEC env's (:attr:`cardgym.aec.CardGameEnv.game_state`:
        under the compiled rules, the replay brought up to date when this is read)."""
        table = self._table
        if table is None or self._state is None:
            return self._state  # type: ignore[no-any-return]
        self._settle_step_start(table)
        return table.state  # type: ignore[no-any-return]

    @game_state.setter
    def game_state(self, state: StateT | None) -> None:
        table = self._table
        if table is not None and state is not None:
            if self._state is not None:
                self._settle_step_start(table)
            table.set_state(state)
            self._state = table
        else:
            self._state = state

    def _settle_step_start(self, table: CompiledTable) -> None:
        """``_step_start`` from the replay, where the last step began (before the
        replay goes past it)."""
        mark = self._step_mark
        if mark is not None:
            self._step_mark = None
            self._step_start = len(self.game.log(table.state_at(mark)))

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def action_name(self, action: int) -> str:
        """Readable name of an action index."""
        return self.layout.action_table.name(action)

    def action_index(self, name: str) -> int:
        """Action index of a readable name."""
        return self.layout.action_table.index(name)

    # -------------------------------------------------------------------- API

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Start a new game; ``options={"scenario": {...}}`` as in the AEC env (unknown
        keys are ignored with a one-line warning). With ``render_mode="human"`` the new
        table is printed (as after each ``step``).

        Raises:
            OptionError: ``options`` is not a dict (nothing changes).
            ScenarioError: the scenario fails validation (nothing changes, the
                generator included).
        """
        scenario = scenario_of(options, self.metadata["name"])
        if seed is not None or self._np_random is None:
            rng, _ = new_generator(self.stream, seed)
        else:
            rng = self._np_random
        table = self._table
        if table is None:
            state = start_game(self.game, lambda: self.game.new_game(self.config, rng, scenario),
                               rng, scenario is not None)
            self._np_random = rng
            self._state = state
        else:
            self._compiled_reset(table, rng, scenario)
            self._np_random = table.random
        self._step_start, self._step_mark = 0, None
        self.agents = self.possible_agents[:]
        result: tuple[dict[str, Observation], dict[str, dict[str, Any]]] = (
            self._observations(), {agent: {} for agent in self.agents})
        if self.render_mode == "human":
            self.render()
        return result

    def _compiled_reset(self, table: CompiledTable, rng: Chance,
                        scenario: dict[str, Any] | None) -> None:
        """A new game in the compiled rules, as the AEC env's
        (:meth:`CompiledTable.begin`)."""
        make = None if scenario is None else (
            lambda start: start_game(self.game, lambda: self.game.new_game(self.config, start,
                                                                           scenario),
                                     start, True))
        table.begin(rng.bit_generator.state, make)
        self._state = table

    def step(self, actions: dict[str, Any]) -> StepResult:
        """Every live agent's action for the current stage; returns observations,
        rewards, terminations, truncations and infos of the agents live before it.
        With ``render_mode="human"`` the table is printed afterwards, the finishing
        step included."""
        result = self._step(actions)
        if self.render_mode == "human":
            self.render()
        return result

    def _step(self, actions: dict[str, Any]) -> StepResult:
        if self._state is None:
            raise OrderError("step() called before reset(); call env.reset() first")
        if not self.agents:
            raise OrderError("step() called after the game ended; call reset()")
        chosen = self._check(actions)
        agents = self.agents
        if chosen is None:  # illegal_action="lose": the offenders lose, the game ends
            return self._finish(agents, [float(r) for r in self._penalties])
        table = self._table
        if table is None:
            state = self._state
            self._step_start = len(self.game.log(state))
            self._play_stage(chosen)
            if self.game.is_over(state):
                return self._finish(agents, self.game.returns(state))
        else:
            if table.following:
                self._step_start, self._step_mark = len(self.game.log(table.state)), None
            else:
                self._step_mark = table.mark()
            self._play_stage(chosen)
            if table.is_over():
                # The game's own returns, exact, from the row's final position.
                return self._finish(agents,
                                    self.game.returns(table.engine.final_state(0)))
        observations = self._observations()
        return (observations, {a: 0.0 for a in agents}, {a: False for a in agents},
                {a: False for a in agents}, {a: {} for a in agents})

    def render(self) -> str | NDArray[np.uint8] | None:
        """The table as ``render_seat`` sees it, then what happened in the last step, as
        that seat saw it: returned as text with ``render_mode="ansi"``, printed with
        ``render_mode="human"`` (which ``reset`` and ``step`` do by themselves); a
        picture of the table (:meth:`render_image`) with ``render_mode="rgb_array"``.

        ``render_seat``: a seat; ``None`` (default) for the seat whose commit is next
        (the AEC env's agent to act); ``"full"`` for everything, hidden cards included.
        """
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode='ansi', "
                          "'human' or 'rgb_array'", stacklevel=2)
            return None
        if self._state is None:
            raise OrderError("render() called before reset(); call env.reset() first")
        if self.render_mode == "rgb_array":
            return self.render_image(self.render_seat)
        text = self._render_text()
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def table_view(self, agent: str | int | None) -> dict[str, Any]:
        """The table as ``agent`` knows it, in JSON types (:mod:`cardgym.table`): an
        agent name or seat, ``None`` for the spectator, ``"full"`` for everything. The
        legal moves are the viewer's decision in the current stage.

        Raises:
            ViewerError: ``agent`` is none of these; nothing changes.
            OrderError: before ``reset()``.
        """
        if self._state is None:
            raise OrderError("table_view() called before reset(); call env.reset() first")
        return self._table_view(table_viewer(agent, self.possible_agents))

    def render_image(self, seat: int | str | None = None,
                     size: tuple[int, int] = PICTURE_SIZE) -> NDArray[np.uint8]:
        """A picture of the table (:mod:`cardgym.picture`) as ``seat`` sees it (``None``:
        the seat whose commit is next; ``"full"``: everything), ``(height, width, 3)``
        ``uint8``."""
        if self._state is None:
            raise OrderError("render_image() called before reset(); call env.reset() first")
        from cardgym.picture import table_image  # Pillow only once a picture is asked for

        viewer = (self.game.to_act(self.game_state) if seat is None
                  else table_viewer(seat, self.possible_agents))
        return table_image(self._table_view(viewer), table_of(self.game), size)

    def _table_view(self, viewer: int | str | None) -> dict[str, Any]:
        state = self.game_state
        over = not self.agents or bool(self.game.is_over(state))
        legal: list[int] = []
        if not over and isinstance(viewer, int):
            mask = self._masks[viewer]
            legal = [i for i in range(self._num_actions) if mask >> i & 1]
        return compose(self.game, state, viewer, num_players=self.num_players,
                       action_table=self.layout.action_table,
                       to_act=None if over else self.game.to_act(state), legal=legal)

    # ---------------------------------------------------------------- helpers

    def _render_text(self) -> str:
        state = self.game_state
        game = self.game
        log = game.log(state)
        seat = self.render_seat
        if seat == "full":
            text = game.render(state, None)
            lines = [game.describe_event(event, TABLE, self.num_players)
                     for event in log[self._step_start:]]
        else:
            seat = game.to_act(state) if seat is None else int(seat)
            text = game.render(state, seat)
            lines = [game.describe_event(event, seat, self.num_players)
                     for event in events_as_seen_by(log, seat, self._step_start)]
        if lines:
            text = "\n".join([text, "In the last step:", *(f"  {line}" for line in lines)])
        return text

    def _observe(self, seat: int) -> NDArray[np.float32]:
        return self.layout.encode(self.game.player_view(self.game_state, seat))

    def _observations(self) -> dict[str, Observation]:
        table = self._table
        if table is not None:
            return self._table_observations(table)
        over = self.game.is_over(self.game_state)
        out: dict[str, Observation] = {}
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            mask = 0 if over else self._stage_mask(seat)
            self._masks[seat] = mask
            out[agent] = {
                "observation": self._observe(seat),
                "action_mask": np.array([mask >> i & 1 for i in range(self._num_actions)],
                                        dtype=np.int8),
            }
        return out

    def _table_observations(self, table: CompiledTable) -> dict[str, Observation]:
        """:meth:`_observations` under the compiled rules: every live seat's view of
        the stage in one kernel call."""
        names, agents = self.possible_agents, self.agents
        live = [seat for seat, agent in enumerate(names) if agent in agents]
        obs, masks = table.stage_view(live)
        packed = np.packbits(masks, axis=1, bitorder="little")
        out: dict[str, Observation] = {}
        for k, seat in enumerate(live):
            self._masks[seat] = int.from_bytes(packed[k].tobytes(), "little")
            out[names[seat]] = {"observation": obs[k], "action_mask": masks[k]}
        return out

    def _check(self, actions: dict[str, Any]) -> list[int] | None:
        """Every live agent's action as an int, by seat; ``None`` if some were illegal
        and ``illegal_action="lose"`` (then ``self._penalties`` holds the rewards)."""
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise IllegalMoveError(f"every live agent acts in each step; no action for {missing}")
        chosen = [0] * self.num_players
        offenders = []
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            action = self._coerce(agent, actions[agent])
            if not 0 <= action < self._num_actions or not self._masks[seat] >> action & 1:
                offenders.append((agent, action))
            chosen[seat] = action
        if not offenders:
            return chosen
        message = "; ".join(self._offence(agent, action) for agent, action in offenders)
        if self.illegal_action == "raise":
            raise IllegalMoveError(message)
        warnings.warn(f"{message}; the game ends with -1 for the offenders", stacklevel=4)
        names = {agent for agent, _ in offenders}
        self._penalties = [-1.0 if a in names else 0.0 for a in self.possible_agents]
        return None

    def _coerce(self, agent: str, action: Any) -> int:
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalMoveError(f"{agent}: action must be an integer in "
                                   f"0..{self._num_actions - 1}, got {action!r}")
        return int(action)

    def _offence(self, agent: str, action: int) -> str:
        names = self.layout.action_table.names
        mask = self._masks[self.possible_agents.index(agent)]
        return (f"{agent}: action {action} "
                + (f"({names[action]}) " if 0 <= action < self._num_actions else "")
                + "is not legal now; legal: "
                + ", ".join(names[i] for i in range(self._num_actions) if mask >> i & 1))

    def _finish(self, agents: list[str], rewards: Sequence[float]) -> StepResult:
        seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        table = self._table
        seen = None if table is None else table.stage_view([seat_of[a] for a in agents])[0]
        observations: dict[str, Observation] = {}
        for k, agent in enumerate(agents):
            observations[agent] = {
                "observation": self._observe(seat_of[agent]) if seen is None else seen[k],
                "action_mask": np.zeros(self._num_actions, dtype=np.int8),
            }
        result: StepResult = (observations, {a: float(rewards[seat_of[a]]) for a in agents},
                              {a: True for a in agents}, {a: False for a in agents},
                              {a: {} for a in agents})
        self.agents = []
        return result
