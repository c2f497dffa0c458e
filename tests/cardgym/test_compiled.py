"""The env on the compiled rules (engine="compiled", cardgym.compiled) plays the
Python engine's game, step for step, and shows the same table."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
import pytest

from cardgym.errors import IllegalMoveError, OptionError
from cardgym.registration import find_game, games
from cardgym.testing.stream import check_engines

COMPILED = [game for game in games() if game.batched is not None and game.seats_out is None]


@pytest.mark.parametrize("game", COMPILED, ids=lambda game: game.name)
def test_both_engines_play_the_same_games_in_every_setting(game: Any) -> None:
    # Every player count and option set; the full size is benchmarks/engine_parity.py.
    compared = 0
    for players in game.player_counts:
        for options in game.test_option_sets:
            compared += check_engines(game, players, options, games=1, seed=players,
                                      shown_every=9)
    assert compared > 0


def test_auto_takes_the_compiled_rules_where_a_game_has_them() -> None:
    assert find_game("power_hungry_pets").make_env(num_players=2).engine == "compiled"
    assert find_game("karel_kakelaar").make_env(num_players=2).engine == "compiled"
    assert find_game("exploding_kittens").make_env(num_players=2).engine == "python"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        legacy = find_game("karel_kakelaar").make_env(num_players=2, version=1)
    assert legacy.engine == "python"


@pytest.mark.parametrize(("name", "kwargs", "words"), [
    ("power_hungry_pets", {"engine": "fast"}, "engine must be one of 'auto', 'compiled'"),
    ("power_hungry_pets", {"engine": None}, "engine must be one of"),
    ("exploding_kittens", {"engine": "compiled"}, "Exploding Kittens has no compiled rules"),
    ("karel_kakelaar", {"engine": "compiled", "version": 1}, "numpy's PCG64 generator"),
])
def test_an_engine_that_cannot_be_had_is_refused_saying_why(name: str, kwargs: dict[str, Any],
                                                            words: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(OptionError, match=words):
            find_game(name).make_env(num_players=2, **kwargs)


def _pair(name: str, players: int, **options: Any) -> tuple[Any, Any]:
    game = find_game(name)
    return (game.make_env(num_players=players, engine="python", **options),
            game.make_env(num_players=players, engine="compiled", **options))


def _step_both(envs: tuple[Any, Any], action: int | None) -> None:
    for env in envs:
        env.step(action)


def _same(envs: tuple[Any, Any]) -> None:
    python, compiled = envs
    assert python.agent_selection == compiled.agent_selection
    for agent in python.possible_agents:
        one, other = python.observe(agent), compiled.observe(agent)
        assert np.array_equal(one["observation"], other["observation"])
        assert np.array_equal(one["action_mask"], other["action_mask"])
    assert python.position() == compiled.position()
    assert python.rewards == compiled.rewards


def test_a_state_set_mid_game_is_played_on_by_the_compiled_rules() -> None:
    envs = _pair("power_hungry_pets", 3)
    source = find_game("power_hungry_pets").make_env(num_players=3, engine="python")
    source.reset(seed=40)
    pick = np.random.default_rng(0)
    for _ in range(9):
        source.step(int(pick.choice(source.legal_actions())))
    for env in envs:
        env.reset(seed=1)
        env._replace_state(source.game_state.clone())
    _same(envs)
    for _ in range(12):
        if not envs[0].agents:
            break
        _step_both(envs, int(pick.choice(envs[0].legal_actions())))
        _same(envs)


def test_drawing_from_the_generator_between_steps_moves_both_engines_alike() -> None:
    envs = _pair("karel_kakelaar", 3)
    pick = np.random.default_rng(2)
    for env in envs:
        env.reset(seed=9)
    for step in range(40):
        if not envs[0].agents:
            break
        if step % 5 == 0:
            drawn = [env.np_random.permutation(6).tolist() for env in envs]
            assert drawn[0] == drawn[1]
        if step == 17:
            state = envs[0].np_random.bit_generator.state
            for env in envs:
                env.np_random.bit_generator.state = state
        _step_both(envs, int(pick.choice(envs[0].legal_actions())))
        _same(envs)


def test_a_scenario_is_set_up_alike_and_a_bad_one_changes_nothing() -> None:
    envs = _pair("power_hungry_pets", 2)
    scenario = {"hands": ["crystal_bowl", "king_cat"], "deck_top": ["battle_bunny"],
                "first_player": 0}
    for env in envs:
        env.reset(seed=3, options={"scenario": scenario})
    _same(envs)
    before = envs[1].position(), envs[1].np_random.bit_generator.state
    with pytest.raises(ValueError):
        envs[1].reset(seed=4, options={"scenario": {"hands": ["king_cat", "king_cat", "x"]}})
    assert (envs[1].position(), envs[1].np_random.bit_generator.state) == before
    pick = np.random.default_rng(5)
    while envs[0].agents:
        agent = envs[0].agent_selection
        done = envs[0].terminations[agent] or envs[0].truncations[agent]
        _step_both(envs, None if done else int(pick.choice(envs[0].legal_actions())))
        if envs[0].agents:
            _same(envs)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = find_game("karel_kakelaar").make_env(num_players=2, engine="compiled")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    before = env.position(), copy.deepcopy(env.rewards), env.agent_selection
    with pytest.raises(IllegalMoveError, match="is not legal now"):
        env.step(illegal)
    with pytest.raises(IllegalMoveError, match="out of bounds"):
        env.step(10_000)
    assert (env.position(), env.rewards, env.agent_selection) == before


def test_losing_by_an_illegal_action_ends_the_game_with_all_masks_zero() -> None:
    env = find_game("power_hungry_pets").make_env(num_players=2, engine="compiled",
                                                  illegal_action="lose")
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match="the game ends with -1"):
        env.step(illegal)
    assert env.rewards[agent] == -1.0 and all(env.terminations.values())
    assert not env.observe(agent)["action_mask"].any()


def test_a_copy_of_a_compiled_env_plays_on_alone() -> None:
    env = find_game("karel_kakelaar").make_env(num_players=3, engine="compiled")
    env.reset(seed=12)
    twin = copy.deepcopy(env)
    pick = np.random.default_rng(1)
    action = int(pick.choice(env.legal_actions()))
    env.step(action)
    assert twin.position() != env.position()
    twin.step(action)
    assert twin.position() == env.position()


def test_an_env_class_that_changes_a_python_hook_plays_on_the_python_engine() -> None:
    raw_env = COMPILED[0].raw_env

    class Quieter(raw_env):  # type: ignore[misc, valid-type]
        def _game_encode(self, seat: int) -> Any:
            return super()._game_encode(seat) * 0

    assert Quieter(num_players=2).engine == "python"
    with pytest.raises(OptionError, match="overrides _game_encode"):
        Quieter(num_players=2, engine="compiled")


@pytest.mark.parametrize("game", COMPILED, ids=lambda game: game.name)
def test_a_rows_final_state_holds_what_the_end_of_a_game_reads(game: Any) -> None:
    # The env pays a finished game's returns from it (without rebuilding the record).
    engine = game.make_batched(3, game.player_counts[-1])
    engine.reset(seed=8)
    while not engine.over.all():
        engine.step(engine.random_actions(engine.legal_masks()), autoreset=False)
    for row in range(3):
        final, whole = engine.final_state(row), engine.export(row)
        assert game.returns(final) == game.returns(whole)
        assert game.winners(final) == game.winners(whole)
