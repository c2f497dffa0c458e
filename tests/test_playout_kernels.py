"""Playouts in one compiled call (``BatchedEngine.playout`` on a game's playout kernel)
and ISMCTS random playouts on the compiled rules (``ismcts:engine=compiled``).

A playout kernel must play exactly the game that stepping the rows one decision at a
time with ``random_actions`` plays, and a search's compiled playout exactly the game
the Python engine plays from the same position when its moves and chance are drawn
from the row's stream (:class:`cardgym.chance.GameRandom`).
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.engines import engine_for
from agents.ismcts import IsmctsPolicy, SettingsError, parse_settings
from agents.ismcts.rollout import CompiledPlayouts
from cardgym.chance import GameRandom
from cardgym.registration import find_game
from phpets_env.batched.layout import ROUND_NUMBER

pytest.importorskip("numba")

SETTINGS = [("power_hungry_pets", 2, {}), ("power_hungry_pets", 4, {"reward": "round"}),
            ("power_hungry_pets", 6, {}), ("karel_kakelaar", 2, {}),
            ("karel_kakelaar", 5, {"reward": "score_difference", "final_tie": "draw"})]


def step_by_step(engine, round_end: bool = False) -> None:
    """Random legal play one decision at a time, each row held once its game (with
    ``round_end``, its round) is over: what a playout kernel must do in one call."""
    start = engine.wide[:, ROUND_NUMBER].copy() if round_end else None
    while True:
        stopped = engine.over.copy()
        if start is not None:
            stopped |= engine.wide[:, ROUND_NUMBER] != start
        if stopped.all():
            return
        masks = engine.legal_masks()
        masks[stopped] = 0  # no legal action: no draw, and -1 holds the row
        engine.step(engine.random_actions(masks), autoreset=False)


def same_rows(a, b) -> None:
    for name in a.row_arrays:
        if name in ("rewards", "done"):  # those of the last step, which differs by design
            continue
        assert np.array_equal(a.row_arrays[name], b.row_arrays[name]), name
    assert np.array_equal(a.rng, b.rng)


@pytest.mark.parametrize(("name", "players", "options"), SETTINGS)
def test_a_playout_kernel_plays_the_games_of_stepping_one_decision_at_a_time(
        name: str, players: int, options: dict) -> None:
    game = find_game(name)
    kernel = game.bind(players, options).make_batched(40)
    steps = game.bind(players, options).make_batched(40)
    assert kernel.has_playout_kernel
    for engine in (kernel, steps):
        engine.reset(seed=11)
        engine.step(engine.random_actions(engine.legal_masks()), autoreset=False)
    returns = kernel.playout()
    step_by_step(steps)
    assert kernel.over.all()
    assert np.array_equal(returns, steps.returns)
    assert np.array_equal(kernel.final_returns, steps.final_returns)
    same_rows(kernel, steps)


@pytest.mark.parametrize("players", [2, 5])
def test_a_playout_to_the_end_of_the_round_stops_each_row_there(players: int) -> None:
    game = find_game("power_hungry_pets")
    kernel, steps = game.make_batched(30, players), game.make_batched(30, players)
    for engine in (kernel, steps):
        engine.reset(seed=5)
    rounds = kernel.wide[:, ROUND_NUMBER].copy()
    kernel.playout(round_end=True)
    step_by_step(steps, round_end=True)
    same_rows(kernel, steps)
    # Every row ended its round (a new one was dealt) or the match, and none went on.
    moved = kernel.wide[:, ROUND_NUMBER] - rounds
    assert ((moved == 1) | kernel.over).all() and (moved <= 1).all()
    assert not kernel.over.all()  # a first round rarely ends the match: rows went on


def test_a_playout_that_does_not_end_within_its_steps_is_an_error() -> None:
    engine = find_game("karel_kakelaar").make_batched(4, 3)
    engine.reset(seed=1)
    with pytest.raises(RuntimeError, match="did not end within 3 steps"):
        engine.playout(max_steps=3)


def test_an_engine_without_a_playout_kernel_plays_step_by_step() -> None:
    engine = find_game("kuhn_poker").make_batched(20, 2)
    assert not engine.has_playout_kernel
    engine.reset(seed=2)
    returns = engine.playout(round_end=True)  # a game of one round: its end
    assert engine.over.all() and np.array_equal(returns, engine.final_returns)


def python_playout(engine, state, stream: int, round_end: bool) -> list[float]:
    """``state`` played on by the Python engine, moves and chance drawn from the shared
    stream at ``stream`` as a batched row draws them, valued as the search values it."""
    random = GameRandom(stream)
    in_round = engine.round_of(state) if round_end else None
    while not engine.is_over(state) and (in_round is None or engine.round_of(state) == in_round):
        legal = engine.legal_actions(state)
        engine.apply(state, legal[random.integers(len(legal))], random)
    if engine.is_over(state):
        return engine.returns(state)
    return engine.round_value(state)


@pytest.mark.parametrize(("name", "players", "options", "round_end"), [
    ("power_hungry_pets", 3, {}, True), ("power_hungry_pets", 3, {}, False),
    ("power_hungry_pets", 2, {"reward": "round"}, False), ("karel_kakelaar", 4, {}, False),
    ("karel_kakelaar", 2, {"reward": "score_difference"}, False)])
def test_a_compiled_playout_values_the_game_the_python_engine_plays_on_the_same_stream(
        name: str, players: int, options: dict, round_end: bool) -> None:
    engine = engine_for(name, players, options)
    rng = np.random.default_rng(3)
    playouts = CompiledPlayouts(engine, engine.bound.make_batched(1), seed=9)
    for _ in range(25):
        state = engine.new_game(rng)
        for _ in range(int(rng.integers(0, 12))):
            engine.apply(state, engine.legal_actions(state)[0], rng)
        if engine.is_over(state):
            continue
        stream = int(playouts.batched.rng[0])
        before = engine.game.position(state)
        value = playouts.value(state, round_end)
        assert engine.game.position(state) == before  # the search's state is left alone
        assert value == pytest.approx(python_playout(engine, state.clone(), stream, round_end))


def test_the_engine_setting_parses_labels_and_refuses_what_does_not_go_with_it() -> None:
    assert parse_settings("iterations=5").engine == "auto"
    settings = parse_settings("iterations=5,engine=python")
    assert settings.engine == "python" and "engine=python" in settings.label()
    assert "engine" not in parse_settings("iterations=5").label()
    with pytest.raises(SettingsError, match="engine must be one of auto, compiled, python"):
        parse_settings("engine=numba")
    with pytest.raises(SettingsError, match="engine=compiled goes with rollout=random"):
        parse_settings("rollout=heuristic,engine=compiled")


def test_auto_takes_the_compiled_rules_where_the_game_has_them() -> None:
    auto = parse_settings("iterations=20")
    assert IsmctsPolicy("karel_kakelaar", 2, settings=auto).playout_engine == "compiled"
    assert IsmctsPolicy("exploding_kittens", 2, settings=auto).playout_engine == "python"
    heuristic = parse_settings("iterations=20,rollout=heuristic")
    assert IsmctsPolicy("karel_kakelaar", 2, settings=heuristic).playout_engine == "python"
    with pytest.raises(SettingsError, match="Exploding Kittens has no compiled rules"):
        IsmctsPolicy("exploding_kittens", 2, settings=parse_settings("engine=compiled"))


@pytest.mark.parametrize("name", ["power_hungry_pets", "karel_kakelaar"])
def test_a_search_on_the_compiled_rules_is_a_function_of_its_generator(name: str) -> None:
    engine = engine_for(name, 3)
    policy = IsmctsPolicy(engine.bound, settings=parse_settings("iterations=150,engine=compiled"))
    rng = np.random.default_rng(4)
    state = engine.new_game(rng)
    while len(engine.legal_actions(state)) < 2:
        engine.apply(state, engine.legal_actions(state)[0], rng)
    seat = engine.to_act(state)
    first = [policy.act_in(state, seat, np.random.default_rng(s)) for s in range(4)]
    visits = policy.root_visits()
    again = [policy.act_in(state, seat, np.random.default_rng(s)) for s in range(4)]
    assert first == again and np.array_equal(visits, policy.root_visits())
    assert policy.last_iterations == 150
