"""Karel Kakelaar as a PettingZoo ``ParallelEnv``: one step per stage, every agent acts.

In each step every live agent sends an action: the seats with a decision in the
current stage (bid, play a hen or not, take a card back) their choice, the others
their single legal move (``hen:none`` in the hen stage, ``pass`` otherwise). The
step commits the choices in the engine's order and resolves the stage; since a
stage's commits are hidden until it resolves, this is the same game as the AEC env
(the same state, public record and observations). ``render()`` shows one seat's view
by default, as the AEC env does (``render_seat="full"`` for everything), and ends
with what happened in the last step, as that seat saw it; with ``render_mode="human"``
``reset()`` and ``step()`` print it by themselves. See :mod:`kakelaar_env.env` for
options, observations (the public record included), actions and rewards.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import ParallelEnv

from cardgym.aec import scenario_of
from cardgym.errors import IllegalMoveError, OptionError, OrderError
from cardgym.record import TABLE
from kakelaar_env import rules
from kakelaar_env.cards import DEFAULT_WORM_COUNTS
from kakelaar_env.encoding import (
    ACTION_TABLE,
    NUM_ACTIONS,
    OBSERVATION_SPEC,
    apply_action,
    encode,
    parallel_mask,
)
from kakelaar_env.record import describe_event
from kakelaar_env.render import render_full, render_view
from kakelaar_env.state import GAME_OVER, Config, State
from kakelaar_env.view import PlayerView

Observation = dict[str, NDArray[Any]]
StepResult = tuple[dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool],
                   dict[str, dict[str, Any]]]


class ParallelKakelaar(ParallelEnv):  # type: ignore[type-arg]
    """Karel Kakelaar parallel environment; arguments as :func:`kakelaar_env.env.raw_env`
    (``render_seat``: a seat, ``None`` for the seat whose commit is next, or ``"full"``
    for everything)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "karel_kakelaar_v1",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        num_players: int = 2,
        worm_counts: Sequence[int] = DEFAULT_WORM_COUNTS,
        reward: str = "win_loss",
        final_tie: str = "shared",
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        self.config = Config(num_players, worm_counts, reward, final_tie)  # type: ignore[arg-type]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode={render_mode!r} is not supported; "
                              "allowed: None, 'ansi', 'human'")
        if illegal_action not in ("raise", "lose"):
            raise OptionError(
                f"illegal_action={illegal_action!r} is not allowed; allowed: 'raise', 'lose'"
            )
        if not (render_seat is None or render_seat == "full" or (
            isinstance(render_seat, int) and 0 <= render_seat < num_players
        )):
            raise OptionError(f"render_seat={render_seat!r} is not allowed; allowed: None (the "
                              f"seat whose commit is next), 'full' (everything), or a seat "
                              f"0..{num_players - 1}")
        num_players = self.config.num_players  # a numpy integer is taken as an int
        self.num_players = num_players
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.illegal_action = illegal_action
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agents: list[str] = []
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": OBSERVATION_SPEC.box(),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self._action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self.game_state: State | None = None
        self._np_random: np.random.Generator | None = None
        self._masks: list[int] = [0] * num_players
        self._penalties: list[float] = [0.0] * num_players
        # Index in the record of the first event of the last step (narrated by render()).
        self._step_start = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def action_name(self, action: int) -> str:
        """Readable name of an action index."""
        return ACTION_TABLE.name(action)

    def action_index(self, name: str) -> int:
        """Action index of a readable name."""
        return ACTION_TABLE.index(name)

    # ------------------------------------------------------------------ API

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
            rng, _ = seeding.np_random(seed)
        else:
            rng = self._np_random
        # A scenario that fails validation leaves the env as it was, generator included.
        saved = rng.bit_generator.state if scenario is not None else None
        try:
            state = rules.new_game(self.config, rng, scenario)
        except Exception:
            if saved is not None:
                rng.bit_generator.state = saved
            raise
        self._np_random = rng
        self.game_state = state
        self._step_start = 0
        self.agents = self.possible_agents[:]
        result: tuple[dict[str, Observation], dict[str, dict[str, Any]]] = (
            self._observations(), {agent: {} for agent in self.agents})
        if self.render_mode == "human":
            self.render()
        return result

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
        state = self.game_state
        if state is None:
            raise OrderError("step() called before reset(); call env.reset() first")
        if not self.agents:
            raise OrderError("step() called after the game ended; call reset()")
        chosen = self._check(actions)
        agents = self.agents
        if chosen is None:  # illegal_action="lose": the offenders lose, the game ends
            return self._finish(agents, [float(r) for r in self._penalties])
        phase, version = state.phase, state.version
        self._step_start = len(state.log)
        while state.phase == phase and state.version == version:
            apply_action(state, chosen[state.current])
        if state.phase == GAME_OVER:
            return self._finish(agents, rules.returns(state))
        observations = self._observations()
        return (observations, {a: 0.0 for a in agents}, {a: False for a in agents},
                {a: False for a in agents}, {a: {} for a in agents})

    def render(self) -> str | None:
        """The table as ``render_seat`` sees it, then what happened in the last step, as
        that seat saw it: returned as text with ``render_mode="ansi"``, printed with
        ``render_mode="human"`` (which ``reset`` and ``step`` do by themselves).

        ``render_seat``: a seat; ``None`` (default) for the seat whose commit is next
        (the AEC env's agent to act); ``"full"`` for everything, hidden cards included.
        """
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode='ansi' "
                          "or 'human'", stacklevel=2)
            return None
        if self.game_state is None:
            raise OrderError("render() called before reset(); call env.reset() first")
        state = self.game_state
        seat = self.render_seat
        if seat == "full":
            text = render_full(state)
            lines = [describe_event(event, TABLE, self.num_players)
                     for event in state.log[self._step_start:]]
        else:
            view = PlayerView(state, state.current if seat is None else int(seat))
            text = render_view(view)
            lines = [describe_event(event, view.seat, self.num_players)
                     for event in view.events_since(self._step_start)]
        if lines:
            text = "\n".join([text, "In the last step:", *(f"  {line}" for line in lines)])
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -------------------------------------------------------------- helpers

    def _observations(self) -> dict[str, Observation]:
        state: State = self.game_state  # type: ignore[assignment]
        over = state.phase == GAME_OVER
        out: dict[str, Observation] = {}
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            mask = 0 if over else parallel_mask(state, seat)
            self._masks[seat] = mask
            out[agent] = {
                "observation": encode(PlayerView(state, seat)),
                "action_mask": np.array([mask >> i & 1 for i in range(NUM_ACTIONS)],
                                        dtype=np.int8),
            }
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
            action = actions[agent]
            if isinstance(action, np.ndarray) and action.shape == ():
                action = action.item()
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise IllegalMoveError(f"{agent}: action must be an integer in "
                                       f"0..{NUM_ACTIONS - 1}, got {action!r}")
            action = int(action)
            if not 0 <= action < NUM_ACTIONS or not self._masks[seat] >> action & 1:
                offenders.append((agent, action))
            chosen[seat] = action
        if not offenders:
            return chosen
        mask = self._masks
        message = "; ".join(
            f"{agent}: action {action} "
            + (f"({ACTION_TABLE.names[action]}) " if 0 <= action < NUM_ACTIONS else "")
            + "is not legal now; legal: " + ", ".join(
                ACTION_TABLE.names[i] for i in range(NUM_ACTIONS)
                if mask[self.possible_agents.index(agent)] >> i & 1)
            for agent, action in offenders
        )
        if self.illegal_action == "raise":
            raise IllegalMoveError(message)
        warnings.warn(f"{message}; the game ends with -1 for the offenders", stacklevel=4)
        names = {agent for agent, _ in offenders}
        self._penalties = [-1.0 if a in names else 0.0 for a in self.possible_agents]
        return None

    def _finish(self, agents: list[str], rewards: Sequence[float]) -> StepResult:
        state: State = self.game_state  # type: ignore[assignment]
        seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observations: dict[str, Observation] = {}
        for agent in agents:
            observations[agent] = {
                "observation": encode(PlayerView(state, seat_of[agent])),
                "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8),
            }
        result: StepResult = (observations, {a: float(rewards[seat_of[a]]) for a in agents},
                  {a: True for a in agents}, {a: False for a in agents}, {a: {} for a in agents})
        self.agents = []
        return result


def parallel_env(**kwargs: Any) -> ParallelKakelaar:
    """Karel Kakelaar as a ``ParallelEnv`` (same arguments as ``env()``)."""
    return ParallelKakelaar(**kwargs)


__all__ = ["ParallelKakelaar", "parallel_env"]
