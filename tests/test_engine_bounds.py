"""Numbers that would hang, exhaust memory or wrap: the batched engines' sizes, actions
and rows, and the numbers a Power Hungry Pets position may hold, are bounded with a
clear error, and nothing changes."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import phpets_env
from cardgym import vector
from cardgym.errors import ScenarioError
from cardgym.vector.engine import MAX_GAMES

BATCHED = ["power_hungry_pets", "karel_kakelaar"]


@pytest.mark.parametrize("game", BATCHED)
@pytest.mark.parametrize("size", [10**12, MAX_GAMES + 1, 0, 2.0, True])
def test_an_engine_of_impossible_size_is_refused_before_anything_is_allocated(
        game: str, size: Any) -> None:
    with pytest.raises(ValueError, match=f"num_games must be an integer from 1 to {MAX_GAMES}"):
        vector.make(game, size)


def engine(game: str, rows: int = 4) -> Any:
    venv = vector.make(game, rows)
    venv.reset(seed=0)
    return venv.engine


@pytest.mark.parametrize("game", BATCHED)
@pytest.mark.parametrize("actions", [np.zeros(4, np.float64), np.full(4, np.nan),
                                     np.zeros(4, np.bool_), np.zeros(3, np.int64)])
def test_actions_that_are_not_one_integer_per_row_are_refused_and_hold_nothing(
        game: str, actions: Any) -> None:
    batched = engine(game)
    before = {name: array.copy() for name, array in batched.row_arrays.items()}
    with pytest.raises(ValueError, match="actions must be 4 integers"):
        batched.step(actions)
    for name, array in batched.row_arrays.items():
        assert np.array_equal(array, before[name]), name


@pytest.mark.parametrize("game", BATCHED)
def test_an_action_beyond_the_game_s_actions_is_refused(game: str) -> None:
    batched = engine(game)
    with pytest.raises(ValueError, match=f"actions must be below {batched.num_actions}"):
        batched.step(np.full(4, batched.num_actions, np.int64))


@pytest.mark.parametrize("game", BATCHED)
@pytest.mark.parametrize(("row", "message"), [
    (4, "row 4 is out of range: this engine has rows 0 to 3"),
    (-1, "row -1 is out of range"),
    (1.0, "a row is an integer from 0 to 3, got 1.0"),
    (True, "a row is an integer from 0 to 3, got True"),
])
def test_a_row_outside_the_engine_is_an_index_error(game: str, row: Any,
                                                    message: str) -> None:
    batched = engine(game)
    with pytest.raises(IndexError, match=message):
        batched.export(row)
    state = batched.export(0)
    with pytest.raises(IndexError, match=message):
        batched.load(row, state)


def phpets_position() -> dict[str, Any]:
    env = phpets_env.env(num_players=2)
    env.reset(seed=0)
    for _ in range(3):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    return env.position()


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p.update(round=10**30), r"round must be an integer 1\.\.1073741824"),
    (lambda p: p["log"][1].update(secret=10**30), r"secret -1\.\.1073741824"),
])
def test_power_hungry_pets_refuses_numbers_past_its_engines_like_exploding_kittens(
        change: Any, message: str) -> None:
    position = phpets_position()
    env = phpets_env.env(num_players=2)
    env.reset(seed=1)
    before = env.position()
    bad = copy.deepcopy(position)
    change(bad)
    with pytest.raises(ScenarioError, match=message) as refused:
        env.reset(options={"scenario": bad})
    assert len(str(refused.value)) < 300
    assert env.position() == before
    env.reset(options={"scenario": position})
    assert env.position()["round"] == position["round"]
