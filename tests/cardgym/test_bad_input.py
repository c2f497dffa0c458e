"""Bad input to the AEC base class is a clear error that changes nothing, and the
PettingZoo conventions it follows (issue 17, sections 2 and 3)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from cardgym.aec import CardGameEnv
from cardgym.documents import MAX_DEPTH
from cardgym.errors import GameOverError, OptionError, OrderError, ScenarioError
from cardgym.registration import GAMES, Game

IDS = [game.env_id for game in GAMES]


def raw(game: Game, **kwargs: Any) -> CardGameEnv[Any]:
    """The game's ``raw_env`` (``<pkg>.env``'s, found through sys.modules: the
    package's ``env`` function shadows the module)."""
    module = importlib.import_module(game.entry_point.partition(":")[0])
    return module.raw_env(num_players=min(game.player_counts), **kwargs)  # type: ignore[no-any-return]


def play_out(env: CardGameEnv[Any], seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


# ------------------------------------------------------------ reset options


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("options", [["scenario"], ("scenario", {}), "scenario", 3])
def test_reset_options_that_are_not_a_dict_are_refused_and_change_nothing(
    game: Game, options: Any
) -> None:
    env = raw(game)
    env.reset(seed=3)
    env.step(env.legal_actions()[0])
    state, selection = env.game_state, env.agent_selection
    generator = env.np_random.bit_generator.state
    with pytest.raises(OptionError, match=r"takes a dict or None.*'scenario'"):
        env.reset(seed=4, options=options)
    assert env.game_state is state and env.agent_selection == selection
    assert env.np_random.bit_generator.state == generator


def test_unknown_reset_option_warns_in_one_line_naming_the_key_and_the_fix() -> None:
    env = raw(GAMES[0])
    with pytest.warns(UserWarning) as caught:
        env.reset(seed=0, options={"colour": "red"})
    (warning,) = caught
    message = str(warning.message)
    assert "\n" not in message
    assert "'colour'" in message and "'scenario'" in message and "cardgym docs" in message
    assert warning.filename == __file__  # points at the caller's line
    assert env.agents == env.possible_agents


def nested(depth: int, innermost: Any = 0) -> Any:
    """``innermost`` inside ``depth`` lists: ``nested(2)`` is ``[[0]]``."""
    value = innermost
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_scenario_nested_50000_deep_is_refused_naming_the_key_and_changes_nothing(
        game: Game) -> None:
    env = raw(game)
    env.reset(seed=3)
    env.step(env.legal_actions()[0])
    state, selection = env.game_state, env.agent_selection
    generator = env.np_random.bit_generator.state
    deep = nested(50_000)
    for key in game.scenario_keys:
        with pytest.raises(ScenarioError) as refused:
            env.reset(seed=4, options={"scenario": {key: deep}})
        assert str(refused.value) == (
            f"the scenario's {key!r} is nested too deeply: a scenario holds at most "
            f"{MAX_DEPTH} levels of lists and mappings, itself the first")
        assert env.game_state is state and env.agent_selection == selection
        assert env.np_random.bit_generator.state == generator
    with pytest.raises(ScenarioError, match=r"^the scenario is nested too deeply"):
        env.reset(seed=4, options={"scenario": deep})  # not even a mapping
    with pytest.raises(ScenarioError, match=r"'known' is nested too deeply"):  # in a mapping
        env.reset(seed=4, options={"scenario": {"known": [{"hands": nested(40)}]}})


def test_a_scenario_at_the_depth_limit_goes_on_to_the_games_own_checks() -> None:
    # The scenario is level 1, so its key's value may hold MAX_DEPTH - 1 levels.
    env = raw(GAMES[0])
    key = GAMES[0].scenario_keys[0]
    with pytest.raises(ScenarioError) as read:
        env.reset(seed=0, options={"scenario": {key: nested(MAX_DEPTH - 1)}})
    assert "nested too deeply" not in str(read.value)
    with pytest.raises(ScenarioError, match="nested too deeply"):
        env.reset(seed=0, options={"scenario": {key: nested(MAX_DEPTH)}})


def test_pettingzoo_api_test_probe_does_not_warn_but_a_nested_dict_does() -> None:
    env = raw(GAMES[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0, options={"options": 1})  # what api_test passes
    with pytest.warns(UserWarning, match="'options'"):
        env.reset(seed=0, options={"options": {"scenario": {}}})


# ------------------------------------------------------------- render_text


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("seat", [7, -1, 2.0, True, "0"])
def test_render_text_of_a_seat_not_at_the_table_names_the_seats(game: Game,
                                                                seat: Any) -> None:
    env = raw(game)
    env.reset(seed=0)
    count = env.num_players
    with pytest.raises(ValueError, match=rf"seat {seat!r} is not at this table; seats are "
                                         rf"0\.\.{count - 1}"):
        env.render_text(seat)
    assert env.render_text(count - 1) and env.render_text("full")


# ------------------------------------------------------------------ last()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_last_after_the_game_ended_is_a_clear_error(game: Game) -> None:
    env = raw(game)
    env.reset(seed=1)
    play_out(env)
    assert env.agents == []
    with pytest.raises(GameOverError, match=r"game ended.*env\.reset\(\)") as raised:
        env.last()
    # PettingZoo's own envs raise KeyError here; code that catches it keeps working.
    assert isinstance(raised.value, KeyError) and isinstance(raised.value, OrderError)
    assert str(raised.value).startswith("last() called after the game ended")
    env.reset(seed=1)
    assert env.last()[2] is False


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_api_test_stays_green_and_warns_nothing_about_reset_options(game: Game) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(raw(game), num_cycles=200)
    assert not [w for w in caught if "reset options" in str(w.message)]


# ------------------------------------------------------- render_mode="human"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_human_mode_renders_by_itself_in_reset_and_step(
    game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    env = raw(game, render_mode="human", render_seat=0)
    env.reset(seed=2)
    assert capsys.readouterr().out == env.render_text(0) + "\n\n"
    for _ in range(3):
        if not env.agents or env.terminations[env.agent_selection]:
            break  # the table is printed once, when the game ends
        env.step(env.legal_actions()[0])
        assert capsys.readouterr().out == env.render_text(0) + "\n\n"


@pytest.mark.parametrize("mode", [None, "ansi"])
def test_other_modes_print_nothing_by_themselves(mode: str | None,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    env = raw(GAMES[0], render_mode=mode)
    env.reset(seed=2)
    env.step(env.legal_actions()[0])
    assert capsys.readouterr().out == ""


# ------------------------------------------------- TerminateIllegalWrapper


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_masks_of_finished_agents_are_zero_after_terminate_illegal_wrapper(
    game: Game,
) -> None:
    inner = raw(game)
    env = TerminateIllegalWrapper(inner, illegal_reward=-1)
    env.reset(seed=0)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    assert mask.any()
    env.step(int(np.flatnonzero(mask == 0)[0]))  # PettingZoo logs "Illegal move made"
    assert all(env.terminations.values())
    assert inner._cumulative_rewards[offender] == -1
    while env.agents:
        for agent in env.agents:
            assert not inner.action_mask(agent).any(), agent
            assert not env.observe(agent)["action_mask"].any(), agent
        assert inner.legal_actions() == []
        env.step(None)
    assert inner.legal_actions() == []


# ------------------------------------------- the benchmark scripts' numbers


@pytest.mark.parametrize(("args", "message"), [
    (["--seconds=nan"], "--seconds: must be a positive number, got 'nan'"),
    (["--seconds=inf"], "--seconds: must be a positive number, got 'inf'"),
    (["--seconds", "0"], "--seconds: must be a positive number, got '0'"),
    (["--seed=-1"], "--seed: must be an integer >= 0, got '-1'"),
    (["--players", "0"], "--players: must be a positive integer, got '0'"),
    (["--games", "chess"], "unknown game 'chess'"),
])
def test_playouts_script_refuses_bad_numbers_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import playouts

    with pytest.raises(SystemExit) as stop:
        playouts.main(args)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["--net-arch", "0"], "--net-arch: must be a positive integer, got '0'"),
    (["--num-cpus", "0"], "--num-cpus: must be a positive integer, got '0'"),
    (["--seed=-3"], "--seed: must be an integer >= 0, got '-3'"),
    (["--steps", "0"], "--steps: must be a positive integer, got '0'"),
])
def test_rllib_throughput_script_refuses_bad_numbers_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rllib_throughput = pytest.importorskip("benchmarks.rllib_throughput")

    with pytest.raises(SystemExit) as stop:
        rllib_throughput.parse(args)
    assert stop.value.code == 2 and message in capsys.readouterr().err
