"""The differential check of a batched engine against the reference AEC env.

:func:`check_batched` plays random legal games in a batched engine
(:mod:`cardgym.vector`) and, beside each row, an AEC env of the same game kept on
the same position, and requires at every step the same acting seat, the same
observation and mask for every seat, the same rewards and the same terminations.

The batched engine draws from its rows' streams (:mod:`cardgym.vector.random`). For
each step the AEC env of a row is given a :class:`~cardgym.chance.GameRandom` at the
row's stream state, which draws as the kernels do (``integers(n)`` as ``below``,
``permutation(k)`` as ``shuffle``), so that chance inside a step (a shuffle, the next
round's deal) comes out the same on both sides when the engine draws as the
reference does. A new game (the engine deals it at
once, the env not at all) and any draw that the stand-in did not match set the env
to the row's game (``env._replace_state(engine.export(i))``). Every few steps the
row's exported position is compared with the env's as well, so that a difference in
hidden state shows even before it reaches an observation.

:func:`batched_observer_env` wraps the other way round: an AEC env whose
observations and masks come from a one-row batched engine, for running the leak
test and the choice checks (:mod:`cardgym.testing`) over the batched encoder.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.aec import CardGameEnv
from cardgym.chance import GameRandom
from cardgym.game import Game
from cardgym.testing.kit import GameKit

__all__ = ["batched_kit", "batched_observer_env", "check_batched"]

def _position_less_log(game: Game, state: Any) -> dict[str, Any]:
    position = dict(game.position(state))
    position.pop("log", None)
    return position


def _first_difference(left: Any, right: Any, path: str = "") -> str:
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        for key in sorted(set(left) | set(right)):
            if key not in left or key not in right:
                return f"{path}{key}: only on one side"
            found = _first_difference(left[key], right[key], f"{path}{key}.")
            if found:
                return found
        return ""
    if left != right:
        return f"{path.rstrip('.')}: batched {left!r}, reference {right!r}"
    return ""


class _Row:
    """The reference AEC env beside one row of the engine."""

    def __init__(self, game: Game, num_players: int, options: Mapping[str, Any], seed: int):
        self.env: CardGameEnv[Any] = game.make_env(num_players=num_players, engine="python",
                                                      **options)
        self.seed = seed
        self.returns = np.zeros(num_players)
        self.length = 0

    def sync(self, state: Any, new_game: bool) -> None:
        if new_game:
            self.env.reset(seed=self.seed)
            self.seed += 1
            self.returns[:] = 0.0
            self.length = 0
        self.env._replace_state(state)


def check_batched(game: Game, num_players: int, options: Mapping[str, Any] | None = None, *,
                  decisions: int = 100_000, batch: int = 64, seed: int = 0,
                  every_seat: bool = True, positions_every: int = 7,
                  mirrored: bool = False) -> int:
    """Play ``decisions`` random legal decisions in ``batch`` rows of ``game``'s
    batched engine beside the reference AEC env, raising ``AssertionError`` at the
    first difference (row, step and what differs). Returns the decisions compared.

    Checked at every step, for every row: the seat to act; the observation and mask
    of every seat (of the seat to act only with ``every_seat=False``); after the
    step, each seat's reward (as float32, exactly), whether the game ended, and at
    its end the returns and length the engine keeps (``final_returns``,
    ``final_lengths``). Every ``positions_every`` steps of a row (and at every
    deal), the row's exported position less its log equals the env's, and the
    exported state passes the game's invariants. With ``mirrored``, the engine must
    draw inside a step exactly as the reference does through
    :class:`~cardgym.chance.GameRandom`
    (the same draws, in the same order): a step whose draws differ fails.
    """
    options = dict(options or {})
    engine = game.make_batched(batch, num_players, **options)
    engine.reset(seed=seed)
    rows = [_Row(game, num_players, options, seed=1_000_000 * (seed + 1) + i)
            for i in range(batch)]
    for i, row in enumerate(rows):
        state = engine.export(i)
        game.invariants(state)
        row.sync(state, new_game=True)
    seats = [np.full(batch, s, np.int64) for s in range(num_players)]
    masks = np.empty((batch, engine.num_actions), np.int8)
    actions = np.empty(batch, np.int64)
    agents = rows[0].env.possible_agents
    compared = 0
    step = 0
    while compared < decisions:
        where = f"{game.name}, {num_players} players, options {options}, step {step}"
        to_act = engine.to_act.copy()
        views = {s: engine.observe(seats[s]) for s in
                 (range(num_players) if every_seat else sorted(set(to_act.tolist())))}
        for i, row in enumerate(rows):
            env = row.env
            expected = agents.index(env.agent_selection)
            assert to_act[i] == expected, (
                f"{where}, row {i}: batched seat to act {to_act[i]}, reference {expected}")
            for s, (obs, mask) in views.items():
                if not every_seat and s != to_act[i]:
                    continue
                reference = env.observe(agents[s])
                _same_vector(obs[i], reference["observation"], game, engine,
                             f"{where}, row {i}, seat {s}: observation")
                _same_vector(mask[i], reference["action_mask"], None, engine,
                             f"{where}, row {i}, seat {s}: mask")
        engine.legal_masks(masks)
        engine.random_actions(masks, actions)
        chance = engine.chance.copy()
        before = engine.rng.copy()
        engine.step(actions)
        step += 1
        for i, row in enumerate(rows):
            env = row.env
            generator = GameRandom(int(before[i]))
            env._np_random = generator  # type: ignore[assignment]
            env.step(int(actions[i]))
            row.length += 1
            compared += 1
            rewards = np.array([env.rewards.get(agent, 0.0) for agent in agents])
            row.returns += rewards
            batched = engine.rewards[i]
            assert np.array_equal(batched, rewards.astype(np.float32)), (
                f"{where}, row {i}, action {actions[i]}: batched rewards {batched.tolist()}, "
                f"reference {rewards.tolist()}")
            ended = all(env.terminations.get(agent, True) for agent in agents)
            assert bool(engine.done[i]) == ended, (
                f"{where}, row {i}: batched game over {bool(engine.done[i])}, reference {ended}")
            if ended:
                assert engine.final_lengths[i] == row.length, (
                    f"{where}, row {i}: batched length {engine.final_lengths[i]}, "
                    f"reference {row.length}")
                assert np.allclose(engine.final_returns[i], row.returns, atol=1e-4), (
                    f"{where}, row {i}: batched returns {engine.final_returns[i].tolist()}, "
                    f"reference {row.returns.tolist()}")
            unmatched = engine.chance[i] != chance[i] and generator.state != int(engine.rng[i])
            assert not (mirrored and unmatched and not ended), (
                f"{where}, row {i}, action {actions[i]}: the reference drew otherwise than "
                "the engine")
            if ended or unmatched:
                state = engine.export(i)
                game.invariants(state)
                row.sync(state, new_game=ended)
            elif row.length % positions_every == 0:
                difference = _first_difference(_position_less_log(game, engine.export(i)),
                                               _position_less_log(game, env.game_state))
                assert not difference, f"{where}, row {i}: positions differ at {difference}"
    return compared


def _same_vector(batched: NDArray[Any], reference: NDArray[Any], game: Game | None,
                 engine: Any, where: str) -> None:
    if np.array_equal(batched, reference):
        return
    diff = np.flatnonzero(batched != reference)
    names = ""
    if game is not None:
        spec = engine.layout.observation_spec
        fields = []
        for index in diff[:8].tolist():
            for field in spec.fields:
                start = spec.offset(field.name)
                if start <= index < start + field.size:
                    fields.append(f"{field.name}[{index - start}]")
        names = f" (fields {', '.join(fields)})"
    raise AssertionError(f"{where} differs at {diff[:8].tolist()}{names}: batched "
                         f"{batched[diff[:8]].tolist()}, reference {reference[diff[:8]].tolist()}")


# ------------------------------------------------------- the kit over the encoder


def batched_observer_env(game: Game, **kwargs: Any) -> CardGameEnv[Any]:
    """The game's AEC env, whose observations and masks are computed by a one-row
    batched engine loaded with the env's state at each call (slow: for checks)."""
    env: CardGameEnv[Any] = game.make_env(**{**kwargs, "engine": "python"})
    options = {key: value for key, value in kwargs.items()
               if key not in ("num_players", "render_mode", "render_seat", "illegal_action",
                              "version", "engine")}
    engine = game.make_batched(1, env.num_players, **options)
    seat_array = np.zeros(1, np.int64)

    def encode(seat: int) -> NDArray[np.float32]:
        engine.load(0, env.game_state)
        seat_array[0] = seat
        obs, _ = engine.observe(seat_array)
        return obs[0].copy()

    def legal_mask() -> int:
        engine.load(0, env.game_state)
        masks = engine.legal_masks()
        return sum(1 << int(a) for a in np.flatnonzero(masks[0]))

    env._game_encode = encode  # type: ignore[method-assign]
    env._game_legal_mask = legal_mask  # type: ignore[method-assign]
    return env


def batched_kit(kit: GameKit) -> GameKit:
    """``kit`` with envs that observe through the game's batched engine
    (:func:`batched_observer_env`), for the leak test and the choice checks."""
    assert kit.game is not None, f"{kit.name}: the kit has no game contract"
    preset = kit.make_env.keywords if isinstance(kit.make_env, functools.partial) else {}
    make_env = functools.partial(batched_observer_env, kit.game, **preset)
    return dataclasses.replace(kit, name=f"{kit.name}_batched", make_env=make_env)
