"""The parallel env on the compiled rules (engine="compiled") plays the Python
engine's games, step for step, and shows the same table."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from cardgym.errors import IllegalMoveError, OptionError
from kakelaar_env import env as aec_env
from kakelaar_env import parallel_env
from kakelaar_env.game import GAME
from kakelaar_env.parallel import ParallelKakelaar

OPTION_SETS = GAME.test_option_sets
#: A position in the middle of the bids: seat 1 has bid face down, seat 2 is next.
MID_STAGE = {"round": 4, "tractor": 1, "row": ["w8", "w5", "w1"], "bids": [None, "c6", None]}


def _pair(players: int, options: dict[str, Any], **kwargs: Any) -> tuple[Any, Any]:
    return (parallel_env(num_players=players, engine="python", **options, **kwargs),
            parallel_env(num_players=players, engine="compiled", **options, **kwargs))


def _choose(observations: dict[str, Any], pick: np.random.Generator) -> dict[str, int]:
    return {agent: int(pick.choice(np.flatnonzero(obs["action_mask"])))
            for agent, obs in sorted(observations.items())}


def _same_result(one: Any, other: Any, where: str) -> None:
    """Two ``step`` (or ``reset``) results: the same agents, observations bit for bit."""
    assert len(one) == len(other)
    observations, compiled = one[0], other[0]
    assert list(observations) == list(compiled), f"{where}: agents differ"
    for agent, seen in observations.items():
        for key in ("observation", "action_mask"):
            mine, theirs = seen[key], compiled[agent][key]
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape, (
                f"{where}, {agent}: {key} dtype or shape differs")
            assert np.array_equal(mine, theirs), (
                f"{where}, {agent}: {key} differs at "
                f"{np.flatnonzero(mine != theirs)[:8].tolist()}")
    for k in range(1, len(one)):  # rewards, terminations, truncations, infos
        assert one[k] == other[k], f"{where}: {one[k]!r} (python), {other[k]!r} (compiled)"
        assert [type(value) for value in one[k].values()] == [
            type(value) for value in other[k].values()], f"{where}: value types differ"


def _same_seen(python: Any, compiled: Any, where: str) -> None:
    assert python.agents == compiled.agents, f"{where}: agents differ"
    assert (python._np_random.bit_generator.state
            == compiled._np_random.bit_generator.state), f"{where}: generators differ"


def _same_shown(python: Any, compiled: Any, where: str) -> None:
    """What the table shows: renders (with the narration of the last step), table
    views, the position and the public record."""
    game = GAME
    for seat in [*range(python.num_players), None, "full"]:
        python.render_seat = compiled.render_seat = seat
        assert python.render() == compiled.render(), f"{where}: render of {seat!r} differs"
    python.render_seat = compiled.render_seat = None
    for viewer in [*python.possible_agents, None, "full"]:
        assert python.table_view(viewer) == compiled.table_view(viewer), (
            f"{where}: the table view of {viewer} differs")
    assert game.position(python.game_state) == game.position(compiled.game_state), (
        f"{where}: positions differ")
    assert list(game.log(python.game_state)) == list(game.log(compiled.game_state)), (
        f"{where}: the public records differ")


def _play_both(python: Any, compiled: Any, first: tuple[Any, Any], pick: np.random.Generator,
               where: str, shown_at: tuple[int, ...]) -> int:
    """Play both envs to the end from their reset results ``first``; returns the steps."""
    _same_result(first[0], first[1], f"{where}, reset")
    observations = first[0][0]
    step = 0
    while python.agents:
        _same_seen(python, compiled, f"{where}, step {step}")
        if step in shown_at:
            _same_shown(python, compiled, f"{where}, step {step}")
        actions = _choose(observations, pick)
        result = python.step(actions), compiled.step(actions)
        step += 1
        _same_result(result[0], result[1], f"{where}, step {step}")
        observations = result[0][0]
    _same_seen(python, compiled, f"{where}, the end")
    _same_shown(python, compiled, f"{where}, the end")
    return step


@pytest.mark.parametrize("options", range(len(OPTION_SETS)))
@pytest.mark.parametrize("players", GAME.player_counts)
def test_both_engines_play_the_same_parallel_games(players: int, options: int) -> None:
    python, compiled = _pair(players, dict(OPTION_SETS[options]), render_mode="ansi")
    assert (python.engine, compiled.engine) == ("python", "compiled")
    steps = 0
    for number in range(8):
        seed = 100 * players + 10 * options + number
        pick = np.random.default_rng(seed)
        # Every other game seeded, the others dealt on from the generator; the table
        # shown at a few points, or only mid-game (the compiled env's record replayed
        # then, from the deal), or only at the end.
        reset = {"seed": seed} if number % 2 == 0 else {}
        first = python.reset(**reset), compiled.reset(**reset)
        shown_at = ((0, 4, 11), (7,), ())[number % 3]
        steps += _play_both(python, compiled, first, pick,
                            f"{players} players, options {OPTION_SETS[options]}, game {number}",
                            shown_at)
    assert steps >= 8 * 9


def test_a_scenario_is_set_up_alike_under_both_engines() -> None:
    python, compiled = _pair(3, {}, render_mode="ansi")
    first = (python.reset(seed=5, options={"scenario": MID_STAGE}),
             compiled.reset(seed=5, options={"scenario": MID_STAGE}))
    assert compiled.game_state == python.game_state
    _play_both(python, compiled, first, np.random.default_rng(5), "mid-stage scenario",
               (0, 1, 2))
    # A position of a compiled game, played on under both engines.
    source = parallel_env(num_players=4, engine="compiled")
    observations, _ = source.reset(seed=6)
    pick = np.random.default_rng(6)
    for _ in range(6):
        observations = source.step(_choose(observations, pick))[0]
    position = GAME.position(source.game_state)
    python, compiled = _pair(4, {}, render_mode="ansi")
    first = (python.reset(seed=1, options={"scenario": position}),
             compiled.reset(seed=1, options={"scenario": position}))
    _same_result(first[0], (observations, first[0][1]), "the position's observations")
    _play_both(python, compiled, first, pick, "a compiled game's position", (3,))


def test_the_compiled_env_follows_a_state_set_and_a_state_read_mid_game() -> None:
    python, compiled = _pair(3, {}, render_mode="ansi")
    pick = np.random.default_rng(3)
    first = python.reset(seed=3), compiled.reset(seed=3)
    observations = first[0][0]
    for _ in range(5):
        actions = _choose(observations, pick)
        observations = python.step(actions)[0]
        compiled.step(actions)
    held = compiled.game_state  # read mid-game: the replay follows from now on
    assert held == python.game_state
    actions = _choose(observations, pick)
    result = python.step(actions), compiled.step(actions)
    _same_result(*result, "after a read")
    assert held is compiled.game_state and held == python.game_state
    assert python.render() == compiled.render()
    # A state set (a copy of the Python env's) is loaded into the row.
    compiled.game_state = python.game_state.clone()
    _play_both(python, compiled, (result[0][:1] + ({},), result[1][:1] + ({},)), pick,
               "a state set", (0, 2))


@pytest.mark.parametrize("players", [2, 5])
def test_illegal_actions_are_refused_and_lose_alike(players: int) -> None:
    python, compiled = _pair(players, {}, illegal_action="lose")
    first = python.reset(seed=8), compiled.reset(seed=8)
    pick = np.random.default_rng(8)
    actions = _choose(first[0][0], pick)
    result = python.step(actions), compiled.step(actions)
    _same_result(*result, "a legal step")
    bad = dict(_choose(result[0][0], pick), player_1=int(np.flatnonzero(
        result[0][0]["player_1"]["action_mask"] == 0)[0]))
    with pytest.warns(UserWarning, match="not legal"):
        result = python.step(bad), compiled.step(bad)
    _same_result(*result, "an illegal step")
    assert python.agents == compiled.agents == []
    strict = parallel_env(num_players=players, engine="compiled")
    observations, _ = strict.reset(seed=8)
    before = GAME.position(strict.game_state)
    bad = dict(_choose(observations, pick), player_0=10_000)
    with pytest.raises(IllegalMoveError, match="player_0: action 10000 is not legal"):
        strict.step(bad)
    assert GAME.position(strict.game_state) == before


def test_the_engine_argument_is_checked_as_in_the_aec_env() -> None:
    assert parallel_env(num_players=2).engine == "compiled"
    assert parallel_env(num_players=2, engine="python").engine == "python"
    with pytest.raises(OptionError, match="engine must be one of 'auto', 'compiled', 'python'"):
        parallel_env(num_players=2, engine="bogus")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert parallel_env(num_players=2, version=1).engine == "python"
        with pytest.raises(OptionError, match="numpy's PCG64 generator") as parallel:
            parallel_env(num_players=2, version=1, engine="compiled")
        with pytest.raises(OptionError) as aec:
            aec_env(num_players=2, version=1, engine="compiled")
    assert str(parallel.value) == str(aec.value)


def test_without_the_compiled_rules_auto_takes_the_python_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(path: str) -> Any:
        raise ImportError("cardgym.vector needs numba, which is not installed")

    monkeypatch.setattr("cardgym.compiled.load", missing)
    assert parallel_env(num_players=3).engine == "python"
    with pytest.raises(OptionError, match="engine='compiled' is not available: cardgym.vector"):
        parallel_env(num_players=3, engine="compiled")


def test_a_class_that_changes_a_python_hook_plays_on_the_python_engine() -> None:
    class NoPass(ParallelKakelaar):
        def _stage_mask(self, seat: int) -> int:
            return super()._stage_mask(seat)

    assert NoPass(num_players=2).engine == "python"
    with pytest.raises(OptionError, match="overrides _stage_mask"):
        NoPass(num_players=2, engine="compiled")
