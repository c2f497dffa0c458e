"""Action names and the action <-> move translation (seat offsets clockwise)."""

from __future__ import annotations

import numpy as np
import pytest

from cardgym.errors import IllegalMoveError
from phpets_env import rules
from phpets_env.encoding import encoding
from phpets_env.encoding.encoding import ACTION_TABLE, NUM_ACTIONS
from phpets_env.engine.state import Config, GraveSwap, PlaceCard, Play
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    HERMIT,
    KING,
    SHIELD,
    SNAKE,
    TRAPPER,
    hand,
    make_env,
    make_state,
    step_name,
)


def test_every_action_name_parses_back_to_its_index() -> None:
    for index in range(NUM_ACTIONS):
        assert ACTION_TABLE.index(ACTION_TABLE.name(index)) == index
    assert len(set(ACTION_TABLE.names)) == NUM_ACTIONS


def test_unknown_action_name_raises() -> None:
    with pytest.raises(IllegalMoveError, match="unknown action name"):
        ACTION_TABLE.index("play:dragon")


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_moves_and_actions_round_trip_over_random_games(num_players: int) -> None:
    rng = np.random.default_rng(num_players)
    state = rules.new_game(Config(num_players=num_players), rng)
    for _ in range(150):
        if rules.is_over(state):
            state = rules.new_game(Config(num_players=num_players), rng)
        moves = rules.legal_moves(state)
        actions = [encoding.move_to_action(state, move) for move in moves]
        # The mask's source and the engine's legal moves are the same set.
        assert sorted(actions) == encoding.legal_action_indices(state)
        assert len(set(actions)) == len(actions)
        for move, action in zip(moves, actions, strict=True):
            assert encoding.action_to_move(state, action) == move
        rules.apply(state, moves[int(rng.integers(len(moves)))], rng)


# (actor, action name, engine move) at four players: offsets count clockwise.
OFFSETS = [
    (0, "play:battle_bunny:+1", Play(BUNNY, 1)),
    (2, "play:battle_bunny:+3", Play(BUNNY, 1)),
    (3, "play:battle_bunny:+1", Play(BUNNY, 0)),
    (1, "play:snake_sorcerer:+0", Play(SNAKE, 1)),
    (1, "play:crystal_bowl:+2:king_cat", Play(BOWL, 3, KING)),
    (2, "play:crystal_bowl:+3:royal_robovac", Play(BOWL, 1, 0)),
    (0, "play:hermit_swap:none", Play(HERMIT)),
    (0, "grave_digger:swap", GraveSwap(True)),
    (0, "mouse_trapper:depth=3", PlaceCard(3)),
]


@pytest.mark.parametrize(("actor", "name", "move"), OFFSETS)
def test_action_names_use_seat_offsets_from_the_actor(actor: int, name: str, move: object) -> None:
    state = make_state([[BOWL]] * 4, to_act=actor)
    assert encoding.action_to_move(state, ACTION_TABLE.index(name)) == move


def test_env_step_by_name_targets_the_seat_clockwise() -> None:
    # Seat 2 of 4 names King Cat at +3, which is seat 1.
    game = make_env(4, {"hands": [SNAKE, KING, BOWL, BUNNY], "deck_top": [TRAPPER],
                        "first_player": 2})
    mask = game.observe("player_2")["action_mask"]
    assert mask[game.action_index("play:crystal_bowl:+3:king_cat")] == 1
    assert mask[game.action_index("play:crystal_bowl:+4:king_cat")] == 0  # no seat +4
    assert mask[game.action_index("play:crystal_bowl:none")] == 0  # a target exists
    # Masks of the agents not to act are all zero.
    assert game.observe("player_0")["action_mask"].sum() == 0
    step_name(game, "play:crystal_bowl:+3:king_cat")
    assert game.game_state.in_round == [True, False, True, True]
    assert game.agent_selection == "player_3"
    assert hand(game.game_state, 2) == [TRAPPER]


def test_env_mask_when_every_other_player_is_protected() -> None:
    game = make_env(2, {"hands": [SHIELD, BOWL], "deck_top": [TRAPPER, BUNNY],
                        "first_player": 0})
    step_name(game, "play:shell_shield")
    mask = game.observe("player_1")["action_mask"]
    legal = {ACTION_TABLE.name(i) for i in np.flatnonzero(mask)}
    # Seat 1 holds Crystal Bowl and Battle Bunny; seat 0 cannot be chosen.
    assert legal == {"play:crystal_bowl:none", "play:battle_bunny:none"}
    step_name(game, "play:battle_bunny:none")
    assert game.game_state.in_round == [True, True]
    assert game.agent_selection == "player_0"
