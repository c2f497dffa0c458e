"""The bound game (cardgym.game.BoundGame): a game at one table size with one set of rule
options, checked once by Game.bind and trusted from then on by whatever is made from it."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from cardgym.errors import OptionError
from cardgym.game import BoundGame, Game
from cardgym.registration import bind, games

GAMES = games()


def _changed(game: Game) -> tuple[str, object]:
    """A rule option of ``game`` and an allowed value other than its default."""
    defaults = game.option_defaults()
    for name, allowed in game.option_values.items():
        if isinstance(allowed, tuple):
            for value in allowed:
                if value != defaults[name]:
                    return name, value
    pytest.skip(f"{game.name} has no option with listed values")


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_bind_checks_once_and_holds_the_config_the_game_makes(game: Game) -> None:
    players = max(game.player_counts)
    name, value = _changed(game)
    bound = game.bind(players, {name: value})
    assert bound.config == game.make_config(players, **{name: value})
    assert bound.num_players == players
    assert bound.options == {**game.option_defaults(), name: value}
    assert bound.changed_options == {name: value}
    assert game.bind(players).changed_options == {}


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_bind_refuses_bad_tables_and_options_saying_what_is_allowed(game: Game) -> None:
    too_many = max(game.player_counts) + 1
    with pytest.raises(OptionError, match=f"{game.name} takes .* players, not {too_many}"):
        game.bind(too_many)
    with pytest.raises(OptionError, match="unknown option 'no_such_rule'.*its options"):
        game.bind(min(game.player_counts), {"no_such_rule": 1})
    name, _ = _changed(game)
    with pytest.raises(OptionError, match=name):
        game.bind(min(game.player_counts), {name: "no such value"})


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_env_of_a_bound_game_is_the_env_of_its_options(game: Game) -> None:
    players = min(game.player_counts)
    name, value = _changed(game)
    bound = game.bind(players, {name: value})
    made = bound.make_env(render_mode="ansi")
    built = game.make_env(num_players=players, render_mode="ansi", **{name: value})
    assert made.config is bound.config
    assert made.config == built.config and made.render_mode == "ansi"
    made.reset(seed=7)
    built.reset(seed=7)
    for _ in range(12):
        if not made.agents:
            break
        ours, _, done, cut, _ = made.last()
        theirs, *_ = built.last()
        np.testing.assert_array_equal(ours["observation"], theirs["observation"])
        np.testing.assert_array_equal(ours["action_mask"], theirs["action_mask"])
        action = None if done or cut else int(np.flatnonzero(ours["action_mask"])[0])
        made.step(action)
        built.step(action)
    assert made.rewards == built.rewards


def test_an_env_refuses_another_games_config() -> None:
    first, second = GAMES[0], GAMES[1]
    with pytest.raises(TypeError, match=f"from_config takes a {first.title} Config"):
        first.raw_env.from_config(second.make_config(min(second.player_counts)))


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_bound_game_pickles_as_its_game_and_config(game: Game) -> None:
    bound = game.bind(min(game.player_counts))
    again = pickle.loads(pickle.dumps(bound))
    assert again == bound and again.game is game and again.config is not bound.config
    assert hash(again) == hash(bound)  # a key of a cache of agents or engines, say
    assert len({bound, again}) == 1
    if len(game.player_counts) > 1:
        assert len({bound, game.bind(max(game.player_counts))}) == 2


def test_bind_by_name_takes_a_bound_game_as_it_is_and_refuses_giving_options_again() -> None:
    game = GAMES[0]
    bound = bind(game.name, min(game.player_counts))
    assert bind(bound) is bound and bind(bound, bound.num_players) is bound
    with pytest.raises(TypeError, match="bound already"):
        bind(bound, bound.num_players + 1)
    with pytest.raises(TypeError, match="bound already"):
        bind(bound, options=bound.options)
    with pytest.raises(TypeError, match="num_players is needed"):
        bind(game.name)


@pytest.mark.parametrize("game", [g for g in GAMES if g.batched is not None],
                         ids=[g.name for g in GAMES if g.batched is not None])
def test_the_batched_engine_of_a_bound_game_runs_on_its_config(game: Game) -> None:
    bound = game.bind(min(game.player_counts))
    engine = bound.make_batched(3)
    assert engine.config == bound.config and engine.num_games == 3
    without = BoundGame(dataclasses.replace(game, batched=None), bound.config)
    with pytest.raises(ValueError, match=f"{game.title} has no batched engine"):
        without.make_batched(3)
