"""Turns, drawing, Exploding Kittens, Defuse, elimination and the end of the game
(docs/rules/exploding_kittens.md "Turn", "Exploding Kitten", rewards)."""

from __future__ import annotations

import pytest

from ek_env import rules
from ek_env.engine.state import GAME_OVER, INSERT, PLAY, Draw, Insert, PlayCard
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
    FUTURE,
    KITTEN,
    NOPE,
    SHUFFLE,
    SKIP,
    TACO,
    apply,
    assert_illegal,
    cards,
    deck_top_first,
    expand,
    make,
    moves,
    pass_window,
)

# ---------------------------------------------------------------- drawing


def test_draw_takes_the_top_card_and_ends_the_turn() -> None:
    state, rng = make([[SKIP], [FAVOR], [NOPE]], [TACO, BEARD, KITTEN, KITTEN], first=1)
    apply(state, Draw(), rng)
    assert cards(state, 1) == [FAVOR, TACO]
    assert deck_top_first(state) == [BEARD, KITTEN, KITTEN]
    assert (state.turn_holder, state.to_act, state.owed, state.phase) == (2, 2, 1, PLAY)


def test_draw_wraps_clockwise_to_seat_zero() -> None:
    state, rng = make([[SKIP], [FAVOR], [NOPE]], [TACO, BEARD, KITTEN, KITTEN], first=2)
    apply(state, Draw(), rng)
    assert (state.turn_holder, state.owed) == (0, 1)


def test_draw_with_two_owed_turns_settles_one() -> None:
    state, rng = make([[SKIP], [FAVOR]], [TACO, BEARD, KITTEN], first=0, owed=2)
    apply(state, Draw(), rng)
    assert (state.turn_holder, state.owed, state.phase) == (0, 1, PLAY)
    assert state.attacked
    apply(state, Draw(), rng)
    assert (state.turn_holder, state.owed, state.attacked) == (1, 1, False)
    assert cards(state, 0) == [SKIP, TACO, BEARD]


def test_draw_skips_an_exploded_seat() -> None:
    # Seat 1 explodes; seat 2 then draws, and the turn passes from 2 to 0 to 2.
    state, rng = make([[SKIP], [FAVOR], [NOPE]], [KITTEN, TACO, BEARD, KITTEN], first=1)
    apply(state, Draw(), rng)
    assert state.alive == [True, False, True]
    assert state.turn_holder == 2
    apply(state, Draw(), rng)
    assert state.turn_holder == 0
    apply(state, Draw(), rng)
    assert state.turn_holder == 2


def test_a_player_with_no_cards_still_plays_and_draws() -> None:
    state, rng = make([[], [FAVOR]], [TACO, KITTEN], first=0)
    assert moves(state) == [Draw()]
    apply(state, Draw(), rng)
    assert cards(state, 0) == [TACO] and state.turn_holder == 1


# ----------------------------------------------------- kitten with a Defuse

DEFUSE_DECK = [KITTEN, TACO, BEARD, SHUFFLE, KITTEN]  # top first; 3 players


@pytest.mark.parametrize("depth", range(5))  # the deck holds 4 cards after the draw
def test_kitten_with_defuse_is_put_back_at_the_chosen_depth(depth: int) -> None:
    state, rng = make([[DEFUSE, SKIP], [NOPE], [NOPE]], DEFUSE_DECK, first=0)
    apply(state, Draw(), rng)
    # The Defuse is played at once (no choice, no Nope window); the drawer places the kitten.
    assert state.phase == INSERT and state.to_act == 0 and state.turn_holder == 0
    assert cards(state, 0) == [SKIP]
    assert state.discard[DEFUSE] == 1
    assert state.held_kitten == 1
    assert moves(state) == [Insert(d) for d in range(5)]
    apply(state, Insert(depth), rng)
    rest = [TACO, BEARD, SHUFFLE, KITTEN]
    assert deck_top_first(state) == rest[:depth] + [KITTEN] + rest[depth:]
    assert state.held_kitten == 0
    # One owed turn settled: the turn passes on.
    assert (state.turn_holder, state.owed, state.phase) == (1, 1, PLAY)
    assert state.alive == [True, True, True]
    # Only the drawer knows where the kitten went.
    assert state.known_deck[0][depth] == KITTEN
    assert all(KITTEN not in state.known_deck[seat] for seat in (1, 2))


def test_insert_deeper_than_the_deck_is_illegal() -> None:
    state, rng = make([[DEFUSE], [NOPE]], [KITTEN, TACO], first=0)
    apply(state, Draw(), rng)
    assert moves(state) == [Insert(0), Insert(1)]
    assert_illegal(state, Insert(2), rng)
    assert_illegal(state, Insert(-1), rng)
    assert_illegal(state, Draw(), rng)


def test_defuse_into_an_empty_deck() -> None:
    state, rng = make([[DEFUSE], [NOPE]], [KITTEN], first=0)
    apply(state, Draw(), rng)
    assert moves(state) == [Insert(0)]
    apply(state, Insert(0), rng)
    assert state.deck == [KITTEN] and state.turn_holder == 1


def test_defuse_under_an_attack_settles_one_turn() -> None:
    state, rng = make([[DEFUSE, TACO], [NOPE]], [KITTEN, BEARD], first=0, owed=2)
    apply(state, Draw(), rng)
    apply(state, Insert(1), rng)
    assert (state.turn_holder, state.owed, state.phase) == (0, 1, PLAY)
    assert deck_top_first(state) == [BEARD, KITTEN]


def test_only_one_defuse_is_used() -> None:
    state, rng = make([[DEFUSE, DEFUSE], [NOPE]], [KITTEN, BEARD], first=0)
    apply(state, Draw(), rng)
    assert cards(state, 0) == [DEFUSE] and state.discard[DEFUSE] == 1


# -------------------------------------------------- kitten without a Defuse


@pytest.mark.parametrize("rule", ["discard", "out_of_play"])
def test_kitten_without_defuse_eliminates(rule: str) -> None:
    hand0 = [SKIP, TACO, TACO, NOPE]
    state, rng = make([hand0, [FAVOR], [ATTACK]], [KITTEN, BEARD, KITTEN], first=0,
                      discard=[FUTURE], eliminated_cards=rule)
    apply(state, Draw(), rng)
    assert state.alive == [False, True, True]
    assert state.eliminated == [0]
    assert cards(state, 0) == []
    gone = sorted(hand0 + [KITTEN])
    if rule == "discard":
        assert expand(state.discard) == sorted(gone + [FUTURE])
        assert not any(state.out_of_play)
    else:
        assert expand(state.out_of_play) == gone
        assert expand(state.discard) == [FUTURE]
    assert rules.returns(state) == [-1.0, 0.0, 0.0]
    assert (state.turn_holder, state.owed, state.attacked, state.phase) == (1, 1, False, PLAY)
    assert not rules.is_over(state)
    assert deck_top_first(state) == [BEARD, KITTEN]


def test_explosion_with_owed_turns_left_they_vanish() -> None:
    state, rng = make([[SKIP], [FAVOR], [ATTACK]], [KITTEN, BEARD, KITTEN], first=0, owed=3)
    apply(state, Draw(), rng)
    assert state.alive == [False, True, True]
    assert (state.turn_holder, state.owed, state.attacked) == (1, 1, False)


def test_explosion_on_the_second_of_two_turns() -> None:
    state, rng = make([[SKIP], [FAVOR], [ATTACK]], [TACO, KITTEN, BEARD, KITTEN], first=2,
                      owed=2)
    apply(state, Draw(), rng)
    assert (state.turn_holder, state.owed) == (2, 1)
    apply(state, Draw(), rng)
    assert state.alive == [True, True, False]
    assert (state.turn_holder, state.owed) == (0, 1)


def test_the_last_player_standing_wins() -> None:
    state, rng = make([[SKIP], [FAVOR]], [KITTEN, TACO], first=1)
    apply(state, Draw(), rng)
    assert state.phase == GAME_OVER and rules.is_over(state)
    assert state.winner == 0
    assert rules.returns(state) == [1.0, -1.0]
    assert moves(state) == []


def test_game_over_after_two_eliminations_in_three_players() -> None:
    state, rng = make([[SKIP], [FAVOR], [NOPE]], [KITTEN, KITTEN, TACO], first=1)
    apply(state, Draw(), rng)
    assert rules.returns(state) == [0.0, -1.0, 0.0] and not rules.is_over(state)
    apply(state, Draw(), rng)
    assert rules.is_over(state) and state.winner == 0
    assert state.eliminated == [1, 2]
    assert rules.returns(state) == [1.0, -1.0, -1.0]


def test_returns_are_zero_while_nobody_is_out() -> None:
    state, rng = make([[SKIP], [FAVOR]], [TACO, KITTEN], first=0)
    apply(state, Draw(), rng)
    assert rules.returns(state) == [0.0, 0.0]


def test_playing_cards_then_drawing_in_one_turn() -> None:
    # Any number of plays, each resolving before the next, then the draw.
    state, rng = make([[FUTURE, SHUFFLE, TACO], [FAVOR]], [TACO, BEARD, KITTEN], first=0)
    apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    assert state.turn_holder == 0 and state.phase == PLAY
    apply(state, PlayCard(SHUFFLE), rng)
    pass_window(state, rng)
    assert state.turn_holder == 0 and state.phase == PLAY and state.owed == 1
    apply(state, Draw(), rng)
    assert state.turn_holder == 1 and sum(state.hands[0]) == 2


def test_attacked_player_defuses_to_the_top_and_must_draw_it_again() -> None:
    state, rng = make([[DEFUSE], [NOPE]], [KITTEN, TACO], first=0, owed=2)
    apply(state, Draw(), rng)
    apply(state, Insert(0), rng)
    assert (state.turn_holder, state.owed) == (0, 1)
    apply(state, Draw(), rng)  # the same kitten, no Defuse left
    assert rules.is_over(state) and state.winner == 1
    assert rules.returns(state) == [-1.0, 1.0]
