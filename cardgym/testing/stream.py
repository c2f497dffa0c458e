"""The checks that a seed deals one game on every path of a game.

:func:`check_engines` plays seeded games in two AEC envs of a game side by side, one
on the Python engine and one on the compiled rules (``engine="compiled"``,
:mod:`cardgym.compiled`), the same random legal actions in both, and requires at
every step the same agent to act, the same observation and mask for every seat, the
same rewards, terminations and truncations, the same generator state and, every
``shown_every`` steps and at the end, the same position, text renders, table views,
narration and public record.

:func:`check_same_games` resets an AEC env of the game's newest version (its Python
engine, on the game's stream, :mod:`cardgym.chance`) and a one-row batched engine
with the same seed, plays the same random legal actions in both, and requires at
every step, from the deal to the end, with nothing set from one side to the other:
the same position (less the log, which the batched engine keeps only in part), the
same seat to act, the same observation and mask for every seat, the same rewards
and the same end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardgym.game import Game
from cardgym.testing.batched import _first_difference, _position_less_log, _same_vector

__all__ = ["check_engines", "check_same_games"]


def check_engines(game: Game, num_players: int, options: Mapping[str, Any] | None = None,
                  *, games: int = 10, seed: int = 0, shown_every: int = 5) -> int:
    """Play the games of seeds ``seed .. seed + games - 1`` under both engines (see
    the module), raising ``AssertionError`` at the first difference. Returns the
    decisions compared."""
    options = dict(options or {})
    python = game.make_env(num_players=num_players, engine="python", **options)
    compiled = game.make_env(num_players=num_players, engine="compiled", **options)
    agents = python.possible_agents
    compared = 0
    for number in range(seed, seed + games):
        python.reset(seed=number)
        compiled.reset(seed=number)
        pick = np.random.default_rng(number)
        step = 0
        while True:
            where = (f"{game.name}, {num_players} players, options {options}, seed {number}, "
                     f"step {step}")
            _same_seen(python, compiled, agents, where)
            if step % shown_every == 0 or not python.agents:
                _same_shown(python, compiled, agents, where)
            if not python.agents:
                break
            agent = python.agent_selection
            finished = python.terminations[agent] or python.truncations[agent]
            action = None if finished else int(pick.choice(python.legal_actions()))
            python.step(action)
            compiled.step(action)
            step += 1
            compared += action is not None
    return compared


def _same_seen(python: Any, compiled: Any, agents: list[str], where: str) -> None:
    """What every seat sees now, and the bookkeeping, equal in the two envs."""
    for name in ("agents", "agent_selection", "rewards", "_cumulative_rewards", "terminations",
                 "truncations", "infos"):
        one, other = getattr(python, name), getattr(compiled, name)
        assert one == other, f"{where}: {name} {other!r} (compiled), {one!r} (python)"
    for agent in agents:
        one, other = python.observe(agent), compiled.observe(agent)
        for key in ("observation", "action_mask"):
            assert one[key].dtype == other[key].dtype and np.array_equal(one[key], other[key]), (
                f"{where}, {agent}: {key} differs at "
                f"{np.flatnonzero(one[key] != other[key])[:8].tolist()}")
    assert python.legal_actions() == compiled.legal_actions(), f"{where}: legal actions differ"
    assert python.np_random.bit_generator.state == compiled.np_random.bit_generator.state, (
        f"{where}: the generators' states differ")


def _same_shown(python: Any, compiled: Any, agents: list[str], where: str) -> None:
    """What the table shows now equal in the two envs: position, renders, table
    views, narration, the public record."""
    assert python.position() == compiled.position(), f"{where}: positions differ"
    for seat in [*range(len(agents)), None]:
        assert python.render_text(seat) == compiled.render_text(seat), (
            f"{where}: the render for seat {seat} differs")
        if seat is not None:
            assert python.narrate(seat, 0) == compiled.narrate(seat, 0), (
                f"{where}: the narration for seat {seat} differs")
        if python.game.table is not None and (seat is None or agents[seat] in python.agents):
            viewer = None if seat is None else agents[seat]
            assert python.table_view(viewer) == compiled.table_view(viewer), (
                f"{where}: the table view of {viewer} differs")
    assert list(python.game.log(python.game_state)) == list(compiled.game.log(
        compiled.game_state)), f"{where}: the public records differ"


def check_same_games(game: Game, num_players: int, options: Mapping[str, Any] | None = None,
                     *, games: int = 20, seed: int = 0) -> int:
    """Play the games of seeds ``seed .. seed + games - 1`` in the env and in the
    batched engine side by side (see the module), raising ``AssertionError`` at the
    first difference (seed, step and what differs). Returns the decisions compared."""
    options = dict(options or {})
    env = game.make_env(num_players=num_players, **options)
    engine = game.make_batched(1, num_players, **options)
    agents = env.possible_agents
    seats = [np.full(1, s, np.int64) for s in range(num_players)]
    compared = 0
    for number in range(seed, seed + games):
        env.reset(seed=number)
        engine.reset(seed=number)
        pick = np.random.default_rng(number)
        step = 0
        while True:
            where = f"{game.name}, {num_players} players, options {options}, seed {number}, " \
                    f"step {step}"
            difference = _first_difference(_position_less_log(game, engine.export(0)),
                                           _position_less_log(game, env.game_state))
            assert not difference, f"{where}: positions differ at {difference}"
            over = game.is_over(env.game_state)
            assert bool(engine.over[0]) == over, (
                f"{where}: batched game over {bool(engine.over[0])}, env {over}")
            if over:
                break
            acting = agents.index(env.agent_selection)
            assert int(engine.to_act[0]) == acting, (
                f"{where}: batched seat to act {int(engine.to_act[0])}, env {acting}")
            for seat in range(num_players):
                obs, mask = engine.observe(seats[seat])
                seen = env.observe(agents[seat])
                _same_vector(obs[0], seen["observation"], game, engine,
                             f"{where}, seat {seat}: observation")
                _same_vector(mask[0], seen["action_mask"], None, engine,
                             f"{where}, seat {seat}: mask")
            if env.terminations[env.agent_selection]:
                env.step(None)
                continue
            action = int(pick.choice(env.legal_actions()))
            env.step(action)
            engine.step(np.array([action]), autoreset=False)
            rewards = np.array([env.rewards.get(agent, 0.0) for agent in agents], np.float32)
            assert np.array_equal(engine.rewards[0], rewards), (
                f"{where}, action {action}: batched rewards {engine.rewards[0].tolist()}, "
                f"env {rewards.tolist()}")
            step += 1
            compared += 1
    return compared
