"""``agents.options``: ``key=value`` parsing and checks against each game."""

from __future__ import annotations

from typing import Any

import pytest

from agents.options import (
    OptionsError,
    check_options,
    check_players,
    game_options,
    make_env,
    parse_option,
    parse_options,
)
from agents.single_agent import SingleAgentEnv
from cardgym.arguments import player_count_problem
from cardgym.registration import GAMES, find_game
from cardgym_cli import main

PETS = find_game("power_hungry_pets")
KITTENS = find_game("exploding_kittens")
KAKELAAR = find_game("karel_kakelaar")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("attack_stacking=stack", ("attack_stacking", "stack")),
        ("hand_size=5", ("hand_size", 5)),
        ("combos=false", ("combos", False)),
        ("combos=True", ("combos", True)),
        ("combos=TRUE", ("combos", True)),
        ("x=None", ("x", None)),
        ("x=1.5", ("x", 1.5)),
        ("worm_counts=5,5,5,5,4,4,4,4", ("worm_counts", (5, 5, 5, 5, 4, 4, 4, 4))),
        ("worm_counts=[5, 5, 5, 5, 4, 4, 4, 4]", ("worm_counts", [5, 5, 5, 5, 4, 4, 4, 4])),
        (" key = spaced text ", ("key", "spaced text")),
        ("x='quoted'", ("x", "quoted")),
        ("x=", ("x", "")),
        ("x=a=b", ("x", "a=b")),
    ],
)
def test_parse_option(text: str, expected: tuple[str, Any]) -> None:
    assert parse_option(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("combos", "option 'combos' is not of the form key=value"),
        ("=5", "option '=5' is not of the form key=value"),
        ("two words=1", "option name 'two words' (in 'two words=1') is not a valid name"),
    ],
)
def test_parse_option_rejects_malformed_text(text: str, message: str) -> None:
    with pytest.raises(OptionsError) as caught:
        parse_option(text)
    assert str(caught.value) == message


def test_parse_options_collects_and_rejects_repeats() -> None:
    assert parse_options([]) == {}
    assert parse_options(["a=1", "b=x"]) == {"a": 1, "b": "x"}
    with pytest.raises(OptionsError, match="option 'a' is given more than once"):
        parse_options(["a=1", "a=2"])


def test_options_errors_are_value_errors() -> None:
    assert issubclass(OptionsError, ValueError)


def test_game_options_come_from_the_env_signature() -> None:
    assert game_options(PETS) == {"robovac": "dethrone", "final_tie": "shared",
                                  "start_player": "winner", "reward": "match"}
    assert "attack_stacking" in game_options(KITTENS)
    assert "worm_counts" in game_options(KAKELAAR)
    for game in GAMES:
        assert not {"num_players", "render_mode", "render_seat", "illegal_action",
                    "self"} & set(game_options(game))


def test_check_options_accepts_good_values() -> None:
    options = {"attack_stacking": "stack", "combos": False}
    assert check_options(KITTENS, 3, options) == options
    assert check_options(KAKELAAR, 2, {"worm_counts": (5, 5, 5, 5, 4, 4, 4, 4)})
    assert check_options(PETS, 2, None) == {}
    env = make_env(KITTENS, 3, options)
    assert env.config.attack_stacking == "stack" and env.config.combos is False


def test_unknown_option_lists_the_games_options() -> None:
    with pytest.raises(OptionsError) as caught:
        check_options(PETS, 2, {"colour": "red", "speed": 2})
    message = str(caught.value)
    assert message.startswith("unknown options 'colour', 'speed' for power_hungry_pets; ")
    for name, default in game_options(PETS).items():
        assert f"{name} (default {default!r})" in message
    assert "render_mode" not in message and "illegal_action" not in message


def test_not_rule_options_are_refused_too() -> None:
    with pytest.raises(OptionsError, match="unknown option 'render_mode'"):
        check_options(PETS, 2, {"render_mode": "ansi"})


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        (KITTENS, {"attack_stacking": "stak"},
         "attack_stacking='stak' is not a valid option; allowed: 'reset', 'stack'"),
        (PETS, {"robovac": 3}, "robovac=3"),
        (KAKELAAR, {"worm_counts": (1, 2, 3)}, "worm_counts=(1, 2, 3) has 3 entries"),
    ],
)
def test_bad_values_get_the_envs_own_message(game: Any, options: dict[str, Any],
                                             message: str) -> None:
    with pytest.raises(OptionsError) as caught:
        check_options(game, 2, options)
    assert message in str(caught.value)


def test_player_counts_are_checked() -> None:
    check_players(KAKELAAR, 5)
    with pytest.raises(OptionsError, match="karel_kakelaar takes 2..5 players, not 6"):
        check_players(KAKELAAR, 6)
    with pytest.raises(OptionsError, match="takes 2..5 players, not 6"):
        check_options(KAKELAAR, 6, {})


@pytest.mark.parametrize(("name", "count", "message"), [
    ("kuhn_poker", 3, "kuhn_poker takes 2 players, not 3"),  # one table size: no "2..2"
    ("karel_kakelaar", 6, "karel_kakelaar takes 2..5 players, not 6"),
    ("power_hungry_pets", 1, "power_hungry_pets takes 2..6 players, not 1"),
])
def test_a_table_size_a_game_does_not_take_reads_the_same_wherever_it_is_checked(
        name: str, count: int, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 35: the options, the command line (``checked_table``) and the training
    envs refuse a player count with one message, naming the game and what it takes."""
    game = find_game(name)
    assert player_count_problem(game, count) == message
    assert player_count_problem(game, game.player_counts[0]) is None
    with pytest.raises(OptionsError) as refused:
        check_players(game, count)
    assert str(refused.value) == message
    assert main(["play", name, "--players", str(count)]) == 2
    assert capsys.readouterr().err.rstrip().endswith(f"error: {message}")
    with pytest.raises(ValueError) as refused:
        SingleAgentEnv(name, count, opponents=["random"])
    assert str(refused.value) == message


def test_cardgym_train_checks_the_options_once_for_all_its_envs_opponents_and_checkpoints(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    # Two envs, three kinds of opponents (a checkpoint of the learner among them) and
    # an evaluation against each: the rule options are checked where they enter, once,
    # and every env, opponent and loaded checkpoint is made from the bound game.
    import agents.single_agent as single_agent
    import agents.specs as specs
    from phpets_env.engine.state import Config

    configs: list[Config] = []
    check = Config.__post_init__
    monkeypatch.setattr(Config, "__post_init__", lambda self: (configs.append(self), check(self)))
    built: list[str] = []
    make = specs.make_policy
    monkeypatch.setattr(specs, "make_policy",
                        lambda spec, *args: (built.append(spec), make(spec, *args))[1])
    pools: list[object] = []
    init = single_agent.OpponentPool.__init__
    monkeypatch.setattr(single_agent.OpponentPool, "__init__",
                        lambda self, *args, **kw: (pools.append(self), init(self, *args, **kw))[1])
    assert main(["train", "power_hungry_pets", "--timesteps", "1024", "--n-envs", "2",
                 "--n-steps", "256", "--batch-size", "256", "--checkpoint-every", "512",
                 "--eval-every", "512", "--eval-games", "2", "--opponents", "random",
                 "heuristic", "self", "--option", "final_tie=nobody", "--output",
                 str(tmp_path), "--no-progress", "--no-tensorboard"]) == 0
    assert [config.final_tie for config in configs] == ["nobody"]
    # One pool for the two envs, and one per evaluation opponent for the whole run,
    # which takes the training pool's policy: each opponent built once.
    assert sorted(built) == ["heuristic", "random"]
    assert len(pools) == 3
    assert [path.name for path in pools[0].checkpoints] == ["step_512.zip", "step_1024.zip"]
