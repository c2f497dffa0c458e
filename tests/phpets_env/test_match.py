"""Rounds, tokens and the match (docs/rules/power_hungry_pets.md): setup, match end, start player,
rewards, illegal moves and option validation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardgym.errors import IllegalMoveError, OptionError
from phpets_env import env as make_env_plain
from phpets_env import rules
from phpets_env.encoding import encoding
from phpets_env.encoding.encoding import ACTION_TABLE
from phpets_env.engine.cards import CARD_NAMES, NUM_CARDS
from phpets_env.engine.state import (
    GRAVE_DIGGER,
    MATCH_OVER,
    MOUSE_TRAPPER,
    NO_CARD,
    PHASE_NAMES,
    PLAY,
    Config,
    GraveSwap,
    Move,
    Phase,
    PlaceCard,
    Play,
    State,
)
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    HERMIT,
    KING,
    ROBOVAC,
    SHIELD,
    SNAKE,
    TRAPPER,
    make_env,
    make_state,
    new,
    showdown_state,
    step_name,
)

# --------------------------------------------------------------------- setup


def _check_round_setup(state: State, start: int) -> None:
    n = state.num_players
    # With 2 players two cards are set aside face up as well as the face-down one.
    assert len(state.face_up) == (2 if n == 2 else 0)
    assert state.aside != NO_CARD
    # One card dealt each; the start player has drawn its second card.
    assert [len(h) for h in state.hands] == [2 if seat == start else 1 for seat in range(n)]
    assert len(state.deck) == NUM_CARDS - 1 - len(state.face_up) - n - 1
    # All 21 cards are accounted for, each once.
    places = [*state.deck, *state.face_up, state.aside, *(c for h in state.hands for c in h)]
    assert sorted(places) == list(range(NUM_CARDS))
    assert all(row == [] for row in state.rows)
    assert state.in_round == [True] * n and state.protected == [False] * n
    assert state.to_act == start == state.round_start and state.phase == PLAY


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1])
def test_round_one_setup(num_players: int, seed: int) -> None:
    state = rules.new_game(Config(num_players=num_players), np.random.default_rng(seed))
    _check_round_setup(state, state.round_start)
    assert state.round_number == 1
    assert state.tokens == [0] * num_players and state.token_supply == 7


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_next_round_is_set_up_like_the_first(num_players: int) -> None:
    held = [BOWL, KING, BUNNY, SHIELD, SNAKE, DIGGER][:num_players]
    state, rng = showdown_state(held, [[TRAPPER]] + [[]] * (num_players - 1))
    rules.apply(state, Play(TRAPPER), rng)
    assert state.round_number == 2 and state.round_winners == (1,)
    _check_round_setup(state, 1)


def test_first_player_of_round_one_is_random() -> None:
    starts = {
        rules.new_game(Config(num_players=4), np.random.default_rng(seed)).round_start
        for seed in range(30)
    }
    assert starts == {0, 1, 2, 3}
    # A scenario without first_player leaves it random too.
    starts = {new(4, {"hands": [BOWL, BOWL, BOWL, BOWL]}, seed=seed)[0].round_start
              for seed in range(30)}
    assert starts == {0, 1, 2, 3}


# ----------------------------------------------------------------- match end


def _seat_one_wins_showdown(num_players: int, tokens: list[int], **options: Any) -> State:
    held = [BOWL, KING, BUNNY, SHIELD, SNAKE, DIGGER][:num_players]
    state, rng = showdown_state(
        held, [[TRAPPER]] + [[]] * (num_players - 1), tokens=tokens, **options
    )
    rules.apply(state, Play(TRAPPER), rng)
    return state


@pytest.mark.parametrize(("num_players", "target"), [(2, 3), (3, 3), (4, 2), (5, 2), (6, 2)])
def test_match_ends_at_the_token_target(num_players: int, target: int) -> None:
    tokens = [0] * num_players
    tokens[1] = target - 1
    state = _seat_one_wins_showdown(num_players, tokens)
    assert rules.is_over(state)
    assert state.match_winners == (1,)
    assert state.tokens[1] == target
    assert rules.returns(state) == [1.0 if seat == 1 else -1.0 for seat in range(num_players)]
    assert rules.legal_moves(state) == []


@pytest.mark.parametrize(("num_players", "target"), [(2, 3), (3, 3), (4, 2), (5, 2), (6, 2)])
def test_match_goes_on_below_the_target(num_players: int, target: int) -> None:
    tokens = [0] * num_players
    tokens[1] = target - 2
    tokens[0] = target - 1  # another player one short does not end it either
    state = _seat_one_wins_showdown(num_players, tokens)
    assert not rules.is_over(state)
    assert state.tokens[1] == target - 1
    assert rules.returns(state) == [0.0] * num_players
    assert state.round_number == 2


def test_match_end_through_the_tokens_scenario_key() -> None:
    # Two players, seat 0 holds 2 tokens and knocks seat 1 out with Crystal Bowl.
    state, rng = new(2, {"hands": [BOWL, SNAKE], "deck_top": [BUNNY], "first_player": 0,
                         "tokens": [2, 1]})
    rules.apply(state, Play(BOWL, 1, SNAKE), rng)
    assert rules.is_over(state)
    assert state.tokens == [3, 1] and state.token_supply == 3
    assert rules.returns(state) == [1.0, -1.0]


def test_shared_round_win_to_the_target_makes_all_of_them_winners() -> None:
    # Seats 1 and 2 tie completely (same card, equal rows) with 2 tokens each.
    state, rng = showdown_state([BOWL, SNAKE, SNAKE], [[TRAPPER], [], []], tokens=[0, 2, 2])
    rules.apply(state, Play(TRAPPER), rng)
    assert state.match_winners == (1, 2)
    assert rules.returns(state) == [-1.0, 1.0, 1.0]


def test_shared_round_win_only_those_at_the_target_win_the_match() -> None:
    state, rng = showdown_state([BOWL, SNAKE, SNAKE], [[TRAPPER], [], []], tokens=[0, 2, 1])
    rules.apply(state, Play(TRAPPER), rng)
    assert state.match_winners == (1,)
    assert state.tokens == [0, 3, 2]
    assert rules.returns(state) == [-1.0, 1.0, -1.0]


def test_shared_win_when_the_tokens_run_short_still_crowns_every_tied_player() -> None:
    # Six players hold one token each (one of the 7 left); seats 1-3 tie at 2 tokens.
    held = [BOWL, BUNNY, BUNNY, BUNNY, ROBOVAC, BOWL]
    state, rng = showdown_state(held, [[TRAPPER]] + [[]] * 5, tokens=[1] * 6)
    rules.apply(state, Play(TRAPPER), rng)
    assert state.match_winners == (1, 2, 3)
    assert rules.returns(state) == [-1.0, 1.0, 1.0, 1.0, -1.0, -1.0]


# -------------------------------------------------------------- start player


@pytest.mark.parametrize(
    ("rule", "round_start", "next_start"),
    [
        ("winner", 0, 2),  # seat 2 won
        ("winner", 1, 2),
        ("rotate", 0, 1),  # clockwise from the previous start player
        ("rotate", 2, 0),
    ],
)
def test_start_player_of_the_next_round(rule: str, round_start: int, next_start: int) -> None:
    state, rng = showdown_state([BOWL, BUNNY, SNAKE], [[TRAPPER], [], []],
                                round_start=round_start, start_player=rule)
    rules.apply(state, Play(TRAPPER), rng)
    assert state.round_winners == (2,)
    assert state.round_start == next_start == state.to_act
    assert len(state.hands[next_start]) == 2  # the new start player has drawn


def test_start_player_random() -> None:
    starts = set()
    for seed in range(30):
        state, _ = showdown_state([BOWL, BUNNY, SNAKE], [[TRAPPER], [], []],
                                  start_player="random")
        rules.apply(state, Play(TRAPPER), np.random.default_rng(seed))
        assert state.round_winners == (2,)
        starts.add(state.round_start)
    assert starts == {0, 1, 2}


@pytest.mark.parametrize(("round_start", "next_start"), [(2, 3), (3, 3), (0, 1), (1, 1)])
def test_start_player_after_a_shared_win(round_start: int, next_start: int) -> None:
    # Seats 1 and 3 share the round: the first of them clockwise from the previous
    # start player, that player included, starts.
    state, rng = showdown_state([BOWL, SNAKE, BUNNY, SNAKE], [[TRAPPER], [], [], []],
                                round_start=round_start)
    rules.apply(state, Play(TRAPPER), rng)
    assert set(state.round_winners) == {1, 3}
    assert state.tokens == [0, 1, 0, 1]
    assert state.round_start == next_start


def test_start_player_when_nobody_wins_a_tie() -> None:
    # final_tie="nobody": no winner; the env documents that the next seat clockwise starts.
    state, rng = showdown_state([BOWL, SNAKE, BUNNY, SNAKE], [[TRAPPER], [], [], []],
                                round_start=2, final_tie="nobody")
    rules.apply(state, Play(TRAPPER), rng)
    assert state.round_winners == () and state.tokens == [0, 0, 0, 0]
    assert state.round_start == 3


# ------------------------------------------------------------------- rewards


def test_round_rewards_through_the_env() -> None:
    game = make_env(2, {"hands": [BOWL, SNAKE], "deck_top": [BUNNY], "first_player": 0},
                    reward="round")
    step_name(game, "play:crystal_bowl:+1:snake_sorcerer")
    # The round ended: +1 to the winner, -1 to the other; the match goes on.
    assert game.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert not any(game.terminations.values())
    assert game.agent_selection == "player_0"  # the winner starts round 2
    # Play on at random: every step that ends a round rewards its winners +1 and the
    # others -1; every other step rewards nothing.
    rng = np.random.default_rng(5)
    rounds = 1
    while not any(game.terminations.values()):
        state = game.game_state
        before = state.round_number
        legal = game.legal_actions()
        game.step(legal[int(rng.integers(len(legal)))])
        ended = state.phase == MATCH_OVER or state.round_number != before
        if ended:
            rounds += 1
            winners = state.round_winners
            assert game.rewards == {f"player_{s}": 1.0 if s in winners else -1.0 for s in (0, 1)}
        else:
            assert game.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert rounds >= 3  # a two-player match needs 3 round wins


def test_match_rewards_through_the_env() -> None:
    game = make_env(2, {"hands": [BOWL, SNAKE], "deck_top": [BUNNY], "first_player": 0,
                        "tokens": [0, 2]})
    step_name(game, "play:crystal_bowl:+1:snake_sorcerer")
    # Default reward="match": a round win alone pays nothing.
    assert game.rewards == {"player_0": 0.0, "player_1": 0.0}
    game2 = make_env(2, {"hands": [BOWL, SNAKE], "deck_top": [BUNNY], "first_player": 0,
                         "tokens": [2, 0]})
    step_name(game2, "play:crystal_bowl:+1:snake_sorcerer")
    assert game2.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert all(game2.terminations.values())


# -------------------------------------------------------------- illegal moves


def _trapper_phase() -> State:
    state = make_state([[TRAPPER, SHIELD], [BUNNY]], deck=[SNAKE, DIGGER])
    rules.apply(state, Play(TRAPPER), np.random.default_rng(0))
    assert state.phase == MOUSE_TRAPPER
    return state


def _match_over() -> State:
    state, rng = new(2, {"hands": [BOWL, SNAKE], "deck_top": [BUNNY], "first_player": 0,
                         "tokens": [2, 0]})
    rules.apply(state, Play(BOWL, 1, SNAKE), rng)
    assert rules.is_over(state)
    return state


def _play_phase() -> State:
    return make_state([[BOWL, BUNNY], [], [SNAKE], [SHIELD]], deck=[HERMIT, DIGGER],
                      protected=[3])


ILLEGAL: list[tuple[str, Any, Move]] = [
    ("card not in hand", _play_phase, Play(KING)),
    ("bowl names 1", _play_phase, Play(BOWL, 2, BOWL)),
    ("bowl without a guess", _play_phase, Play(BOWL, 2)),
    ("bunny on yourself", _play_phase, Play(BUNNY, 0)),
    ("bunny on a player out", _play_phase, Play(BUNNY, 1)),
    ("bunny on a protected player", _play_phase, Play(BUNNY, 3)),
    ("bunny without effect while a target exists", _play_phase, Play(BUNNY)),
    ("target outside the table", _play_phase, Play(BUNNY, 4)),
    ("grave digger choice in the play phase", _play_phase, GraveSwap(True)),
    ("placement in the play phase", _play_phase, PlaceCard(0)),
    ("placement below the bottom", _trapper_phase, PlaceCard(2)),
    ("play during placement", _trapper_phase, Play(SHIELD)),
    ("play after the match", _match_over, Play(SNAKE)),
]


@pytest.mark.parametrize(("build", "move"), [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL])
def test_illegal_move_raises_and_changes_nothing(build: Any, move: Move) -> None:
    state = build()
    before = state.clone()
    with pytest.raises(IllegalMoveError, match="not legal"):
        rules.apply(state, move, np.random.default_rng(0))
    assert state == before


def test_illegal_move_message_names_the_move_the_seat_and_the_phase() -> None:
    state = make_state([[BOWL, SHIELD], [BUNNY], [SNAKE]], to_act=0)
    with pytest.raises(IllegalMoveError) as error:
        rules.apply(state, GraveSwap(True), np.random.default_rng(0))
    assert str(error.value) == "GraveSwap(swap=True) is not legal for seat 0 in phase 'play'"


def test_legal_moves_are_the_moves_of_the_mask_bits() -> None:
    # Seat 1 holds Crystal Bowl and Battle Bunny; seat 2 is protected, seat 0 is out.
    state = make_state([[], [BOWL, BUNNY], [SNAKE], [KING]], to_act=1, protected=[2])
    actions = encoding.legal_action_indices(state)
    assert rules.legal_moves(state) == [encoding.action_to_move(state, a) for a in actions]
    assert {ACTION_TABLE.name(a) for a in actions} == (
        {f"play:crystal_bowl:+2:{name}" for name in CARD_NAMES if name != "crystal_bowl"}
        | {"play:battle_bunny:+2"})


def test_phases_are_an_int_enum_with_plain_aliases() -> None:
    assert list(Phase) == [PLAY, GRAVE_DIGGER, MOUSE_TRAPPER, MATCH_OVER] == [0, 1, 2, 3]
    assert PHASE_NAMES == ("play", "grave_digger", "mouse_trapper", "match_over")


def test_env_illegal_or_out_of_bounds_action_raises_and_changes_nothing() -> None:
    game = make_env(3, {"hands": [BOWL, SNAKE, BUNNY], "deck_top": [SHIELD], "first_player": 0})
    before = game.game_state.clone()
    obs = game.observe("player_0")["observation"].copy()
    for action in (
        game.action_index("play:king_cat"),  # not in hand
        game.action_index("play:crystal_bowl:+3:snake_sorcerer"),  # no seat +3 at 3 players
        game.action_index("play:crystal_bowl:none"),  # targets exist
        game.action_index("grave_digger:swap"),
        len(game.action_table),  # out of bounds
        -1,
    ):
        with pytest.raises(IllegalMoveError):
            game.step(action)
        assert game.game_state == before
        assert game.agent_selection == "player_0"
        assert np.array_equal(game.observe("player_0")["observation"], obs)
        assert game.rewards == {f"player_{s}": 0.0 for s in range(3)}
    # A legal action still works afterwards.
    step_name(game, "play:shell_shield")
    assert game.agent_selection == "player_1"


# -------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "allowed"),
    [
        ({"num_players": 7}, "2 to 6"),
        ({"num_players": 1}, "2 to 6"),
        ({"robovac": "x"}, "'dethrone', 'duel_only'"),
        ({"final_tie": "x"}, "'shared', 'nobody'"),
        ({"start_player": "loser"}, "'winner', 'rotate', 'random'"),
        ({"reward": "step"}, "'match', 'round'"),
    ],
)
def test_invalid_options_name_the_allowed_values(options: dict[str, Any], allowed: str) -> None:
    with pytest.raises(OptionError, match=allowed):
        Config(**options)
    with pytest.raises(OptionError, match=allowed):
        make_env_plain(**options)


def test_default_options_follow_the_rules() -> None:
    config = Config()
    assert (config.robovac, config.final_tie, config.start_player, config.reward) == (
        "dethrone", "shared", "winner", "match")
    assert [Config(num_players=n).tokens_to_win for n in range(2, 7)] == [3, 3, 2, 2, 2]


def test_numpy_integer_player_count_is_accepted_as_an_int() -> None:
    import numpy as np

    from phpets_env.engine.state import Config

    config = Config(num_players=np.int64(4))
    assert config.num_players == 4 and type(config.num_players) is int
