"""The Streaking Kitten (docs/rules/exploding_kittens.md, Streaking Kittens "Streaking Kitten"; seed 003 "De Streaking Kitten").

While you hold it you may hold one Exploding Kitten: a drawn one is kept, unrevealed;
a second one must be defused. If it leaves your hand while you hold a kitten, that
kitten explodes at once; whoever steals or receives a kitten explodes. Defusing
outside your own draw settles no owed turn. Neither kitten counts toward or can be
taken by five different. An empty draw pile ends the game in a shared draw.
"""

from __future__ import annotations

import pytest

from ek_env import rules
from ek_env.engine.state import (
    GAME_OVER,
    GIVE,
    INSERT,
    PLAY,
    ChooseFive,
    Draw,
    Give,
    Insert,
    NameCard,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
    Take,
)
from ek_env.info.view import PlayerView
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
    KITTEN,
    MELON,
    NOPE,
    SHUFFLE,
    SKIP,
    TACO,
    apply,
    apply_all,
    assert_illegal,
    cards,
    deck_top_first,
    moves,
    pass_window,
)
from tests.ek_env.streaking_helpers import (
    NOBODY,
    SK,
    act,
    agent,
    known,
    play_and_pass,
    senv,
    smake,
)

# ------------------------------------------------------------ keeping a kitten


def test_drawing_a_kitten_with_the_streaking_kitten_keeps_it() -> None:
    state, rng = smake([[SK, TACO], [NOPE], [FAVOR]], [KITTEN, BEARD, KITTEN], first=0)
    apply(state, Draw(), rng)
    assert cards(state, 0) == [KITTEN, TACO, SK]
    assert state.alive == [True, True, True]
    assert not any(state.discard)  # not shown, no Defuse
    assert state.held_kitten == 0
    assert deck_top_first(state) == [BEARD, KITTEN]
    # The turn settles as a normal draw.
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 1, 1, 1)
    # Not revealed: the others know nothing of seat 0's hand.
    for seat in (1, 2):
        assert not any(PlayerView(state, seat).known_hand(0))


def test_a_kept_kitten_needs_no_defuse_even_when_holding_one() -> None:
    state, rng = smake([[SK, DEFUSE], [NOPE], [FAVOR]], [KITTEN, BEARD], first=0, owed=2)
    apply(state, Draw(), rng)
    assert cards(state, 0) == [KITTEN, DEFUSE, SK]
    assert state.discard[DEFUSE] == 0
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)  # one of two turns


def test_a_second_kitten_must_be_defused() -> None:
    state, rng = smake([[SK, KITTEN, DEFUSE], [NOPE], [FAVOR]], [KITTEN, TACO], first=0)
    apply(state, Draw(), rng)
    assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 0, 1)
    assert state.discard[DEFUSE] == 1
    assert cards(state, 0) == [KITTEN, SK]
    apply(state, Insert(1), rng)
    assert deck_top_first(state) == [TACO, KITTEN]
    assert cards(state, 0) == [KITTEN, SK]
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)


@pytest.mark.parametrize("pile", ["discard", "out_of_play"])
def test_a_second_kitten_without_defuse_takes_both_out(pile: str) -> None:
    state, rng = smake([[SK, KITTEN, TACO], [NOPE], [FAVOR]], [KITTEN, BEARD], first=0,
                       eliminated_cards=pile)
    apply(state, Draw(), rng)
    assert state.alive == [False, True, True] and state.eliminated == [0]
    assert cards(state, 0) == []
    gone = getattr(state, pile)
    assert (gone[KITTEN], gone[SK], gone[TACO]) == (2, 1, 1)
    assert deck_top_first(state) == [BEARD]  # one kitten fewer in the game than players
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)


def test_the_streaking_kitten_given_away_without_a_kitten_is_harmless() -> None:
    state, rng = smake([[FAVOR, SKIP], [SK, TACO], [NOPE]], [KITTEN, BEARD, KITTEN], first=0)
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    apply(state, Give(SK), rng)
    assert all(state.alive) and cards(state, 1) == [TACO]
    apply(state, Draw(), rng)  # seat 0 now keeps the kitten it draws
    assert cards(state, 0) == [KITTEN, SKIP, SK] and state.alive[0]


# ------------------------------------------- Streaking Kitten leaving a hand


def test_streaking_kitten_stolen_by_a_pair() -> None:
    # Seat 1 holds Streaking Kitten, a kitten and a Defuse; seat 0's pair steals one of
    # the three at random. Each outcome follows the rule text.
    outcomes = set()
    for seed in range(40):
        state, rng = smake([[TACO, TACO], [SK, KITTEN, DEFUSE], [NOPE]], [BEARD, KITTEN],
                           first=0, owed=2, seed=seed)
        play_and_pass(state, rng, PlayPair(TACO, 1))
        if state.phase == INSERT:
            # The Streaking Kitten left seat 1: its kitten explodes; seat 1 defuses it.
            outcomes.add("sk")
            assert cards(state, 0) == [SK]
            assert (state.to_act, state.held_kitten, state.turn_holder) == (1, 1, 0)
            assert cards(state, 1) == [] and state.discard[DEFUSE] == 1
            apply(state, Insert(1), rng)
            assert deck_top_first(state) == [BEARD, KITTEN, KITTEN]
            assert known(state, 1) == {1: KITTEN}
            # The turn holder's turn goes on; no owed turn is settled.
            assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 2)
        elif not state.alive[0]:
            # Seat 0 stole the kitten: it explodes without a Defuse; its turns vanish.
            outcomes.add("kitten")
            assert state.eliminated == [0]
            assert state.discard[KITTEN] == 1 and state.discard[TACO] == 2
            assert cards(state, 1) == [DEFUSE, SK]
            assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)
        else:
            outcomes.add("defuse")
            assert cards(state, 0) == [DEFUSE] and cards(state, 1) == [KITTEN, SK]
            assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 2)
            assert all(state.alive)
    assert outcomes == {"sk", "kitten", "defuse"}


def test_streaking_kitten_given_by_favor_explodes_the_givers_kitten() -> None:
    state, rng = smake([[FAVOR], [SK, KITTEN, DEFUSE, TACO], [NOPE]], [BEARD, KITTEN],
                       first=0, owed=2)
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    assert (state.phase, state.to_act) == (GIVE, 1)
    # Any held card may be given, the kittens included.
    assert set(moves(state)) == {Give(KITTEN), Give(DEFUSE), Give(TACO), Give(SK)}
    apply(state, Give(SK), rng)
    assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 1, 1)
    apply(state, Insert(0), rng)
    assert deck_top_first(state) == [KITTEN, BEARD, KITTEN]
    assert cards(state, 0) == [SK] and cards(state, 1) == [TACO]
    assert state.discard[DEFUSE] == 1 and all(state.alive)
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 2)


def test_streaking_kitten_given_by_favor_without_defuse_puts_the_giver_out() -> None:
    state, rng = smake([[FAVOR], [SK, KITTEN, TACO], [NOPE]], [BEARD, KITTEN], first=0)
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    apply(state, Give(SK), rng)
    assert state.alive == [True, False, True] and state.eliminated == [1]
    assert state.discard[KITTEN] == 1 and state.discard[TACO] == 1
    assert cards(state, 0) == [SK]
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 1)


def test_streaking_kitten_named_in_three_of_a_kind() -> None:
    state, rng = smake([[MELON, MELON, MELON], [SK, KITTEN], [NOPE]], [BEARD, KITTEN],
                       first=0)
    apply(state, PlayThree(MELON, 1), rng)
    play_and_pass(state, rng, NameCard(SK))
    assert cards(state, 0) == [SK]
    assert state.alive == [True, False, True] and state.eliminated == [1]
    assert state.discard[KITTEN] == 1
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 1)


def test_streaking_kitten_named_in_a_two_player_game_ends_it() -> None:
    state, rng = smake([[MELON, MELON, MELON], [SK, KITTEN]], [BEARD, KITTEN], first=0)
    apply(state, PlayThree(MELON, 1), rng)
    play_and_pass(state, rng, NameCard(SK))
    assert state.phase == GAME_OVER and state.winner == 0
    assert rules.returns(state) == [1.0, -1.0]


# --------------------------------------------------- a kitten changing hands


def test_a_kitten_given_by_favor_explodes_the_receiver() -> None:
    state, rng = smake([[FAVOR], [SK, KITTEN, DEFUSE, TACO], [NOPE]], [BEARD, KITTEN],
                       first=0, owed=2)
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    apply(state, Give(KITTEN), rng)
    # Seat 0, the turn holder, has no Defuse: out, and its owed turns vanish.
    assert state.alive == [False, True, True] and state.eliminated == [0]
    assert state.discard[KITTEN] == 1
    assert cards(state, 1) == [DEFUSE, TACO, SK]
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)


def test_a_kitten_received_and_defused_settles_no_owed_turn() -> None:
    state, rng = smake([[FAVOR, DEFUSE], [SK, KITTEN, TACO], [NOPE]], [BEARD, KITTEN],
                       first=0, owed=2)
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    apply(state, Give(KITTEN), rng)
    assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 0, 1)
    assert state.discard[DEFUSE] == 1
    apply(state, Insert(2), rng)
    assert deck_top_first(state) == [BEARD, KITTEN, KITTEN]
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 2)
    assert cards(state, 0) == [] and cards(state, 1) == [TACO, SK]


def test_a_kitten_named_in_three_of_a_kind_explodes_the_receiver() -> None:
    state, rng = smake([[MELON, MELON, MELON], [SK, KITTEN, DEFUSE], [NOPE]], [BEARD, KITTEN],
                       first=0)
    apply(state, PlayThree(MELON, 1), rng)
    play_and_pass(state, rng, NameCard(KITTEN))
    assert state.alive == [False, True, True]
    assert cards(state, 1) == [DEFUSE, SK]
    assert (state.phase, state.turn_holder) == (PLAY, 1)


def test_a_kitten_named_and_defused_by_the_receiver() -> None:
    state, rng = smake([[MELON, MELON, MELON, DEFUSE], [SK, KITTEN], [NOPE]], [BEARD],
                       first=0)
    apply(state, PlayThree(MELON, 1), rng)
    play_and_pass(state, rng, NameCard(KITTEN))
    assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 0, 1)
    apply(state, Insert(0), rng)
    assert deck_top_first(state) == [KITTEN, BEARD]
    assert cards(state, 1) == [SK] and cards(state, 0) == []
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)


# -------------------------------------------- never in combos, never taken


def test_kittens_do_not_count_toward_five_different() -> None:
    hand = [SK, KITTEN, ATTACK, SKIP, SHUFFLE, TACO]  # four kinds besides the kittens
    state, rng = smake([hand, [NOPE], [FAVOR]], [BEARD], first=0)
    assert PlayFive() not in moves(state)
    assert_illegal(state, PlayFive(), rng)


def test_kittens_cannot_be_chosen_for_five_different() -> None:
    hand = [SK, KITTEN, DEFUSE, ATTACK, SKIP, SHUFFLE, TACO, BEARD]
    state, rng = smake([hand, [NOPE], [FAVOR]], [MELON], first=0)
    apply(state, PlayFive(), rng)
    # Exactly five kinds count (attack, skip, shuffle, taco, beard): the first, ascending,
    # must be the attack. Counting the Streaking Kitten would also allow the skip.
    assert moves(state) == [ChooseFive(ATTACK)]
    assert_illegal(state, ChooseFive(KITTEN), rng)
    assert_illegal(state, ChooseFive(SK), rng)


def test_five_different_cannot_take_a_kitten_from_the_discard_pile() -> None:
    hand = [ATTACK, SKIP, FAVOR, SHUFFLE, TACO]
    state, rng = smake([hand, [NOPE], [BEARD]], [BEARD, KITTEN], first=0,
                       discard=[SK, KITTEN, DEFUSE, MELON])
    apply_all(state, [PlayFive()] + [ChooseFive(card) for card in hand], rng)
    pass_window(state, rng)
    assert set(moves(state)) == {Take(card) for card in [DEFUSE, MELON] + hand}
    assert_illegal(state, Take(SK), rng)
    assert_illegal(state, Take(KITTEN), rng)


def test_kittens_never_form_a_pair_or_three() -> None:
    state, rng = smake([[SK, KITTEN, TACO], [NOPE], [FAVOR]], [BEARD], first=0)
    assert moves(state) == [Draw()]
    assert_illegal(state, PlayPair(SK, 1), rng)
    assert_illegal(state, PlayPair(KITTEN, 1), rng)


# ------------------------------------------------------- deck running dry


def test_drawing_from_an_empty_deck_is_a_shared_draw() -> None:
    # Seat 0 explodes on the last kitten; the deck is empty when seat 1 must draw.
    state, rng = smake([[SKIP], [SK, KITTEN], [TACO]], [KITTEN], first=0)
    apply(state, Draw(), rng)
    assert state.alive == [False, True, True] and state.deck == []
    assert state.turn_holder == 1 and Draw() in moves(state)
    apply(state, Draw(), rng)
    assert state.phase == GAME_OVER and state.winner == NOBODY
    assert rules.returns(state) == [-1.0, 0.0, 0.0]


def test_empty_deck_draw_after_playing_on() -> None:
    state, rng = smake([[SK, KITTEN, SKIP], [TACO]], [BEARD], first=1)
    apply(state, Draw(), rng)  # seat 1 takes the last card
    assert state.turn_holder == 0 and state.deck == []
    play_and_pass(state, rng, PlayCard(SKIP))  # seat 0 may still play cards
    assert state.turn_holder == 1
    apply(state, Draw(), rng)
    assert state.phase == GAME_OVER and state.winner == NOBODY
    assert rules.returns(state) == [0.0, 0.0]


def test_empty_deck_draw_in_the_env_gives_zero_to_the_living() -> None:
    game = senv([["skip"], ["streaking_kitten", "exploding_kitten"], ["taco_cat"]],
                ["exploding_kitten"], first=0)
    act(game, "draw")  # player_0 explodes: -1
    assert game._cumulative_rewards[agent(0)] == -1.0
    game.step(None)
    assert game.agent_selection == agent(1)
    act(game, "draw")  # empty deck: the game ends in a draw
    assert game.terminations[agent(1)] and game.terminations[agent(2)]
    assert game._cumulative_rewards[agent(1)] == 0.0
    assert game._cumulative_rewards[agent(2)] == 0.0


def test_a_seat_out_during_anothers_turn_leaves_the_env_and_the_turn_goes_on() -> None:
    game = senv([["favor", "skip"], ["streaking_kitten", "exploding_kitten", "taco_cat"],
                 ["nope"]], ["beard_cat", "exploding_kitten"], first=0)
    act(game, "play:favor:+1")
    while game.game_state.phase != GIVE:
        act(game, "pass")
    assert game.agent_selection == agent(1)
    act(game, "give:streaking_kitten")  # its kitten explodes: no Defuse, out
    assert game._cumulative_rewards[agent(1)] == -1.0
    assert game.terminations[agent(1)] and not game.terminations[agent(0)]
    while game.agent_selection == agent(1):
        game.step(None)
    assert game.agent_selection == agent(0)
    assert game.game_state.turn_holder == 0 and game.game_state.phase == PLAY
    assert game._cumulative_rewards[agent(0)] == 0.0


def test_an_eliminated_seat_keeps_no_marks_or_blindness() -> None:
    state, rng = smake([[TACO, SKIP], [NOPE], [FAVOR]], [KITTEN, BEARD, KITTEN], first=0,
                       blind=[0], marked=[[TACO], [], []])
    apply(state, Draw(), rng)  # blind, no Defuse: every card turned is lost, then out
    assert state.alive == [False, True, True]
    assert not any(state.marked[0]) and not state.blind[0] and cards(state, 0) == []
    assert (state.discard[TACO], state.discard[SKIP], state.discard[KITTEN]) == (1, 1, 1)
