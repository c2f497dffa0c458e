"""The conformance kit's choice checks on Power Hungry Pets (issue 16), every player
count and option set of the kit, a few random games each.

- private: a Mouse Trapper depth leaves every seat but its player unable to tell the
  depths apart, and their resamples for search unchanged (depth 0 also gives the next
  drawer the card put back, so that seat is a party to depth 0 only);
- public: every play (card, target, named value) and every Grave Digger decision
  gives every seat still in the match a different observation.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from cardgym import testing
from phpets_env import rules
from phpets_env.display.record import choice_visibility
from tests.cardgym.kits import PHPETS
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    HERMIT,
    SHIELD,
    SNAKE,
    TRAPPER,
    make_env,
    step_name,
)

KIT = dataclasses.replace(PHPETS, choice_visibility=choice_visibility)
GAMES = 4
CASES = [(n, options) for n in KIT.player_counts for options in KIT.option_sets]


@pytest.mark.parametrize(("num_players", "options"), CASES)
def test_choice_checks(num_players: int, options: dict[str, Any]) -> None:
    report = testing.check_choices(KIT, num_players, games=GAMES, options=options)
    assert report.public_pairs > 0, "no public choice was met: the public check cannot fail"
    if num_players > 2:
        assert report.private_pairs > 0, "no secret choice was met: the check cannot fail"
        assert report.resamples > 0
    # With two players the kit pairs depth 0 (the first alternative) with the others,
    # and both seats are party to depth 0: test_two_players_depths_below_the_top_...
    # below compares depths the next drawer is not party to.


@pytest.mark.parametrize("depths", [(1, 2), (1, 5)])
def test_two_players_depths_below_the_top_look_the_same_to_the_drawer(
        depths: tuple[int, int]) -> None:
    games = []
    for depth in depths:
        game = make_env(2, {"hands": [TRAPPER, SHIELD], "deck_top": [BUNNY, HERMIT, SNAKE],
                            "first_player": 0})
        step_name(game, "play:mouse_trapper")
        action = f"mouse_trapper:depth={depth}"
        assert choice_visibility(game.game_state, game.action_index(action))[1] == 0b01
        step_name(game, action)
        games.append(game)
    first, second = games
    assert first.game_state != second.game_state
    assert (first.observe("player_1")["observation"].tobytes()
            == second.observe("player_1")["observation"].tobytes())
    for k in range(5):
        assert (rules.resample_hidden(first.game_state, 1, np.random.default_rng(k))
                == rules.resample_hidden(second.game_state, 1, np.random.default_rng(k)))


def test_depth_zero_gives_the_next_drawer_the_card_put_back() -> None:
    game = make_env(3, {"hands": [TRAPPER, SHIELD, BOWL], "deck_top": [BUNNY, HERMIT, SNAKE],
                        "first_player": 0})
    step_name(game, "play:mouse_trapper")
    state = game.game_state
    label, parties = choice_visibility(state, game.action_index("mouse_trapper:depth=0"))
    assert parties == 0b011
    assert choice_visibility(state, game.action_index("mouse_trapper:depth=2")) == (label, 0b001)


def test_plays_and_grave_digger_decisions_are_public() -> None:
    game = make_env(3, {"hands": [DIGGER, SHIELD, BOWL], "deck_top": [BUNNY],
                        "first_player": 0})
    for name in ("play:grave_digger", "play:battle_bunny:+2"):
        action = game.action_index(name)
        assert choice_visibility(game.game_state, action) == (action, 0b001)
    step_name(game, "play:grave_digger")
    for name in ("grave_digger:keep", "grave_digger:swap"):
        action = game.action_index(name)
        assert choice_visibility(game.game_state, action) == (action, 0b001)
