"""Blind play (docs/rules/exploding_kittens.md, Streaking Kittens "Blind play"; seed 003 "Blind spelen").

A blind player sees only how many cards they hold (and marked ones) until they draw
without exploding. To play they turn a random card: playable now, it resolves (its
target chosen after it is seen); a kitten explodes them; anything else is lost. A
kitten drawn blind without Streaking Kitten is defused by turning random cards until
a Defuse. A blind Favor giver gives at random; three of a kind still works; Garbage
Collection takes a random card; a blind player may try to Nope with a random card;
no combos while blind.
"""

from __future__ import annotations

import pytest

from ek_env.engine.state import (
    GAME_OVER,
    GIVE,
    INSERT,
    NOPE_WINDOW,
    PLAY,
    Draw,
    Give,
    Insert,
    NameCard,
    Nope,
    Pass,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
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
    POTATO,
    SHUFFLE,
    SKIP,
    TACO,
    apply,
    assert_illegal,
    cards,
    deck_top_first,
    moves,
    pass_window,
)
from tests.ek_env.streaking_helpers import (
    CURSE,
    GARBAGE,
    GC,
    MARK,
    SK,
    TARGET,
    BlindNope,
    BlindPlay,
    ChooseTarget,
    Garbage,
    blind_seats,
    marked,
    play_and_pass,
    smake,
)

# ------------------------------------------------------------ what is legal


def test_a_blind_turn_offers_only_draw_and_a_random_card() -> None:
    hand = [TACO, TACO, TACO, SKIP, ATTACK, FAVOR, SHUFFLE, BEARD, MELON]
    state, rng = smake([hand, [NOPE], [POTATO]], [KITTEN, BEARD], first=0, blind=[0])
    assert set(moves(state)) == {Draw(), BlindPlay()}
    for move in (PlayCard(SKIP), PlayCard(FAVOR, 1), PlayCard(ATTACK), PlayPair(TACO, 1),
                 PlayThree(TACO, 1), PlayFive()):
        assert_illegal(state, move, rng)


def test_a_blind_player_without_cards_can_only_draw() -> None:
    state, rng = smake([[], [NOPE], [POTATO]], [BEARD, KITTEN], first=0, blind=[0])
    assert moves(state) == [Draw()]
    assert_illegal(state, BlindPlay(), rng)


def test_a_sighted_player_cannot_play_blind() -> None:
    state, rng = smake([[SKIP], [NOPE], [POTATO]], [BEARD, KITTEN], first=0, blind=[1])
    assert_illegal(state, BlindPlay(), rng)


# -------------------------------------------------------- playing a random card


def test_a_playable_random_card_resolves_with_its_nope_window() -> None:
    state, rng = smake([[SKIP], [NOPE], [POTATO]], [BEARD, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    assert state.phase == NOPE_WINDOW and state.pending_card == SKIP
    assert state.discard[SKIP] == 1 and cards(state, 0) == []
    assert pass_window(state, rng) == [1, 2, 0]
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)
    assert state.blind[0]  # a Skip is not a draw


@pytest.mark.parametrize("card", [TACO, NOPE, DEFUSE, SK])
def test_an_unplayable_random_card_is_lost(card: int) -> None:
    state, rng = smake([[card], [NOPE], [POTATO]], [BEARD, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 1)
    assert state.discard[card] == 1 and cards(state, 0) == []
    assert all(state.alive) and state.blind[0]
    assert moves(state) == [Draw()]


def test_the_card_played_blind_is_random() -> None:
    results = set()
    for seed in range(20):
        state, rng = smake([[SKIP, TACO], [NOPE], [POTATO]], [BEARD, KITTEN], first=0,
                           blind=[0], seed=seed)
        apply(state, BlindPlay(), rng)
        if state.phase == NOPE_WINDOW:
            assert cards(state, 0) == [TACO] and state.pending_card == SKIP
            results.add(SKIP)
        else:
            assert state.phase == PLAY and cards(state, 0) == [SKIP]
            assert state.discard[TACO] == 1
            results.add(TACO)
    assert results == {SKIP, TACO}


def test_a_favor_turned_blind_chooses_its_target_after_it_is_seen() -> None:
    state, rng = smake([[FAVOR], [ATTACK], [BEARD]], [POTATO, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    assert (state.phase, state.to_act) == (TARGET, 0)
    assert state.discard[FAVOR] == 1
    assert set(moves(state)) == {ChooseTarget(1), ChooseTarget(2)}
    assert_illegal(state, ChooseTarget(0), rng)
    assert_illegal(state, Draw(), rng)
    apply(state, ChooseTarget(2), rng)
    assert state.phase == NOPE_WINDOW
    assert (state.pending_card, state.pending_target) == (FAVOR, 2)
    pass_window(state, rng)
    assert (state.phase, state.to_act) == (GIVE, 2)
    apply(state, Give(BEARD), rng)
    assert cards(state, 0) == [BEARD] and cards(state, 2) == []
    assert (state.phase, state.to_act) == (PLAY, 0)
    assert state.blind[0]
    # A card received by Favor is seen by the blind player.
    assert PlayerView(state, 0).my_hand[BEARD] == 1


@pytest.mark.parametrize("card", [FAVOR, MARK])
def test_a_favor_or_mark_turned_blind_without_a_valid_target_is_lost(card: int) -> None:
    state, rng = smake([[card], []], [POTATO, KITTEN], first=0, blind=[0],
                       empty_hand_target="forbidden")
    apply(state, BlindPlay(), rng)
    assert (state.phase, state.to_act, state.turn_holder) == (PLAY, 0, 0)
    assert state.discard[card] == 1 and cards(state, 0) == []


@pytest.mark.parametrize("card", [FAVOR, MARK])
def test_a_favor_or_mark_turned_blind_may_target_an_empty_hand_by_default(card: int) -> None:
    state, rng = smake([[card], []], [POTATO, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    assert state.phase == TARGET and moves(state) == [ChooseTarget(1)]
    apply(state, ChooseTarget(1), rng)
    pass_window(state, rng)
    assert (state.phase, state.to_act) == (PLAY, 0)


def test_a_mark_turned_blind() -> None:
    state, rng = smake([[MARK], [TACO], [NOPE]], [POTATO, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    apply(state, ChooseTarget(1), rng)
    pass_window(state, rng)
    assert marked(state, 1) == [TACO]


def test_a_curse_turned_blind() -> None:
    state, rng = smake([[CURSE], [TACO], [NOPE]], [POTATO, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    assert set(moves(state)) == {ChooseTarget(1), ChooseTarget(2)}
    apply(state, ChooseTarget(2), rng)
    pass_window(state, rng)
    assert blind_seats(state) == [0, 2]


def test_garbage_collection_turned_blind_puts_in_a_random_card_of_its_player() -> None:
    seen_gc = False
    for seed in range(20):
        state, rng = smake([[GC, TACO], [BEARD], [MELON]], [POTATO, KITTEN], first=0,
                           blind=[0], seed=seed)
        apply(state, BlindPlay(), rng)
        if state.phase != NOPE_WINDOW:
            assert state.discard[TACO] == 1  # the taco cat came up: lost
            continue
        seen_gc = True
        pass_window(state, rng)
        asked = []
        while state.phase == GARBAGE:
            asked.append(state.to_act)
            apply(state, Garbage(BEARD if state.to_act == 1 else MELON), rng)
        assert asked == [1, 2]  # the blind turn holder's card went in unasked
        assert cards(state, 0) == [] and len(state.deck) == 5
    assert seen_gc


# ----------------------------------------------------------- blind explosions


def test_turning_a_held_kitten_without_defuse_is_out() -> None:
    # Whichever comes up first: the kitten explodes (and the Streaking Kitten turned
    # next is lost), or the Streaking Kitten is lost (and the kitten explodes).
    for seed in range(6):
        state, rng = smake([[SK, KITTEN], [NOPE], [POTATO]], [BEARD, KITTEN], first=0,
                           blind=[0], seed=seed)
        apply(state, BlindPlay(), rng)
        assert state.alive == [False, True, True] and state.eliminated == [0]
        assert state.discard[SK] == 1 and state.discard[KITTEN] == 1
        assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)


def test_turning_a_held_kitten_or_losing_the_streaking_kitten_with_a_defuse() -> None:
    outcomes = set()
    for seed in range(40):
        state, rng = smake([[SK, KITTEN, DEFUSE], [NOPE], [POTATO]], [BEARD, KITTEN],
                           first=0, owed=2, blind=[0], seed=seed)
        apply(state, BlindPlay(), rng)
        if state.phase == PLAY:
            # The Defuse came up: not playable, lost.
            outcomes.add("defuse lost")
            assert cards(state, 0) == [KITTEN, SK] and state.discard[DEFUSE] == 1
            continue
        # The kitten came up, or the Streaking Kitten (its kitten then explodes): the
        # Defuse is found and the blind player puts the kitten back.
        outcomes.add("defused")
        assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 0, 1)
        assert state.discard[DEFUSE] == 1 and KITTEN not in cards(state, 0)
        apply(state, Insert(0), rng)
        assert deck_top_first(state) == [KITTEN, BEARD, KITTEN]
        # Not a draw: no owed turn settled, and still blind.
        assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 2)
        assert state.alive[0] and state.blind[0]
    assert outcomes == {"defuse lost", "defused"}


def test_a_kitten_drawn_blind_turns_cards_until_a_defuse() -> None:
    outcomes = set()
    for seed in range(20):
        state, rng = smake([[TACO, DEFUSE], [NOPE], [POTATO]], [KITTEN, BEARD], first=0,
                           blind=[0], seed=seed)
        apply(state, Draw(), rng)
        assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 0, 1)
        assert state.discard[DEFUSE] == 1
        outcomes.add(tuple(cards(state, 0)))
        assert cards(state, 0) == [TACO] or state.discard[TACO] == 1  # lost if turned first
        apply(state, Insert(1), rng)
        assert deck_top_first(state) == [BEARD, KITTEN]
        assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)
        assert not state.blind[0]  # defused its own draw: it sees again
    assert outcomes == {(), (TACO,)}


def test_a_kitten_drawn_blind_without_defuse_is_out() -> None:
    state, rng = smake([[TACO, SKIP], [NOPE], [POTATO]], [KITTEN, BEARD, KITTEN], first=0,
                       blind=[0])
    apply(state, Draw(), rng)
    assert state.alive == [False, True, True]
    assert (state.discard[TACO], state.discard[SKIP], state.discard[KITTEN]) == (1, 1, 1)
    assert (state.phase, state.turn_holder) == (PLAY, 1)


def test_two_kittens_blind_both_defused_or_one() -> None:
    # Seat 0 holds Streaking Kitten and a kitten and draws another: it must be defused.
    # A Defuse first: that one kitten is defused, the held one stays. The held kitten
    # (or the Streaking Kitten, which makes it explode) first: both need a Defuse.
    inserts_seen = set()
    for seed in range(40):
        state, rng = smake([[SK, KITTEN, DEFUSE, DEFUSE], [NOPE], [POTATO]],
                           [KITTEN, BEARD, TACO], first=0, owed=2, blind=[0], seed=seed)
        apply(state, Draw(), rng)
        inserts = 0
        while state.phase == INSERT:
            assert state.to_act == 0
            apply(state, Insert(0), rng)
            inserts += 1
            assert inserts <= 2
        inserts_seen.add(inserts)
        assert state.alive[0] and not state.blind[0]
        # One draw, one owed turn settled, however many kittens were put back.
        assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)
        assert state.discard[DEFUSE] == inserts
        assert state.deck.count(KITTEN) == inserts
        assert state.hands[0][KITTEN] == 2 - inserts
        if inserts == 1:
            assert cards(state, 0) == [KITTEN, DEFUSE, SK]
    assert inserts_seen == {1, 2}


def test_two_kittens_blind_with_one_defuse() -> None:
    outcomes = set()
    for seed in range(40):
        state, rng = smake([[SK, KITTEN, DEFUSE], [NOPE], [POTATO]], [KITTEN, BEARD],
                           first=0, blind=[0], seed=seed)
        apply(state, Draw(), rng)
        if state.phase == INSERT:
            outcomes.add("defused")  # the Defuse came up first
            assert cards(state, 0) == [KITTEN, SK]
            apply(state, Insert(0), rng)
            assert state.alive[0] and not state.blind[0] and state.turn_holder == 1
        else:
            outcomes.add("out")  # a second kitten to defuse and no Defuse left
            assert state.alive == [False, True, True]
            assert state.discard[KITTEN] == 2 and state.discard[SK] == 1
            assert (state.phase, state.turn_holder) == (PLAY, 1)
    assert outcomes == {"defused", "out"}


# --------------------------------------------------------- blindness ends


def test_blindness_ends_after_a_safe_draw() -> None:
    state, rng = smake([[TACO], [NOPE], [POTATO]], [BEARD, KITTEN], first=0, owed=2,
                       blind=[0])
    apply(state, Draw(), rng)
    assert not state.blind[0]
    assert (state.turn_holder, state.owed) == (0, 1)
    assert BlindPlay() not in moves(state)


def test_keeping_a_kitten_with_the_streaking_kitten_ends_blindness() -> None:
    state, rng = smake([[SK], [NOPE], [POTATO]], [KITTEN, BEARD], first=0, blind=[0])
    apply(state, Draw(), rng)
    assert cards(state, 0) == [KITTEN, SK] and state.alive[0]
    assert not state.blind[0]


def test_blindness_lasts_through_other_players_draws() -> None:
    state, rng = smake([[SKIP], [TACO], [POTATO]], [BEARD, MELON, KITTEN], first=1,
                       blind=[0])
    apply(state, Draw(), rng)  # seat 1
    apply(state, Draw(), rng)  # seat 2
    assert state.turn_holder == 0 and state.blind[0]


# ------------------------------------------------------ the blind as a target


def test_a_blind_player_gives_a_random_card_on_a_favor() -> None:
    given = set()
    for seed in range(20):
        state, rng = smake([[FAVOR], [TACO, BEARD], [NOPE]], [KITTEN, POTATO], first=0,
                           blind=[1], seed=seed)
        play_and_pass(state, rng, PlayCard(FAVOR, 1))
        # Not asked: the card is taken at random.
        assert (state.phase, state.to_act) == (PLAY, 0)
        assert len(cards(state, 0)) == 1 and len(cards(state, 1)) == 1
        card = cards(state, 0)[0]
        given.add(card)
        # Seen by both sides.
        assert PlayerView(state, 1).known_hand(0)[card] == 1
        assert state.blind[1]
    assert given == {TACO, BEARD}


def test_three_of_a_kind_against_a_blind_player() -> None:
    state, rng = smake([[MELON, MELON, MELON], [SKIP, BEARD], [NOPE]], [KITTEN, POTATO],
                       first=0, blind=[1])
    apply(state, PlayThree(MELON, 1), rng)
    play_and_pass(state, rng, NameCard(SKIP))
    assert cards(state, 0) == [SKIP] and cards(state, 1) == [BEARD]
    assert state.blind[1]


def test_three_of_a_kind_naming_a_card_the_blind_player_lacks() -> None:
    state, rng = smake([[MELON, MELON, MELON], [SKIP, BEARD], [NOPE]], [KITTEN, POTATO],
                       first=0, blind=[1])
    apply(state, PlayThree(MELON, 1), rng)
    play_and_pass(state, rng, NameCard(ATTACK))
    assert cards(state, 0) == [] and cards(state, 1) == [SKIP, BEARD]


# ------------------------------------------------------------ Noping blind


def test_a_blind_player_nopes_with_a_random_card_that_is_a_nope() -> None:
    state, rng = smake([[SKIP], [NOPE], [POTATO]], [KITTEN, BEARD], first=0, blind=[1])
    apply(state, PlayCard(SKIP), rng)
    assert state.to_act == 1
    assert set(moves(state)) == {BlindNope(), Pass()}
    assert_illegal(state, Nope(), rng)
    apply(state, BlindNope(), rng)
    assert state.nopes == 1 and state.discard[NOPE] == 1
    assert pass_window(state, rng) == [2, 0, 1]
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)  # the Skip was Noped


def test_a_blind_nope_that_turns_another_card_is_lost() -> None:
    state, rng = smake([[SKIP], [TACO], [POTATO]], [KITTEN, BEARD], first=0, blind=[1])
    apply(state, PlayCard(SKIP), rng)
    assert set(moves(state)) == {BlindNope(), Pass()}  # whatever it holds
    apply(state, BlindNope(), rng)
    assert state.nopes == 0 and state.discard[TACO] == 1 and cards(state, 1) == []
    assert (state.phase, state.to_act) == (NOPE_WINDOW, 2)
    assert pass_window(state, rng) == [2, 0]
    assert (state.phase, state.turn_holder) == (PLAY, 1)  # the Skip happened


def test_a_blind_seat_without_cards_can_only_pass() -> None:
    state, rng = smake([[SKIP], [], [POTATO]], [KITTEN, BEARD], first=0, blind=[1])
    apply(state, PlayCard(SKIP), rng)
    assert moves(state) == [Pass()]


def test_a_blind_nope_turning_a_kitten_explodes_and_the_window_goes_on() -> None:
    for seed in range(6):
        state, rng = smake([[SKIP], [SK, KITTEN], [POTATO]], [BEARD, KITTEN], first=0,
                           blind=[1], seed=seed)
        apply(state, PlayCard(SKIP), rng)
        apply(state, BlindNope(), rng)
        assert state.alive == [True, False, True]
        assert state.discard[KITTEN] == 1 and state.discard[SK] == 1
        assert (state.phase, state.to_act) == (NOPE_WINDOW, 2)
        assert pass_window(state, rng) == [2, 0]
        assert (state.phase, state.turn_holder, state.owed) == (PLAY, 2, 1)  # the Skip happened


def test_a_blind_nope_explosion_defused_then_the_window_goes_on() -> None:
    outcomes = set()
    for seed in range(30):
        state, rng = smake([[SKIP], [SK, KITTEN, DEFUSE], [POTATO]], [BEARD, KITTEN],
                           first=0, blind=[1], seed=seed)
        apply(state, PlayCard(SKIP), rng)
        apply(state, BlindNope(), rng)
        if state.phase == INSERT:
            outcomes.add("defused")
            assert (state.to_act, state.held_kitten, state.turn_holder) == (1, 1, 0)
            apply(state, Insert(0), rng)
            assert deck_top_first(state) == [KITTEN, BEARD, KITTEN]
        else:
            outcomes.add("defuse lost")
            assert cards(state, 1) == [KITTEN, SK]
        assert state.discard[DEFUSE] == 1 and state.nopes == 0
        assert (state.phase, state.to_act) == (NOPE_WINDOW, 2)
        assert pass_window(state, rng) == [2, 0]
        assert (state.phase, state.turn_holder) == (PLAY, 1) and all(state.alive)
    assert outcomes == {"defused", "defuse lost"}


def test_a_blind_nope_explosion_can_end_a_two_player_game() -> None:
    state, rng = smake([[SKIP], [SK, KITTEN]], [BEARD, KITTEN], first=0, blind=[1])
    apply(state, PlayCard(SKIP), rng)
    apply(state, BlindNope(), rng)
    assert state.phase == GAME_OVER and state.winner == 0
    assert state.alive == [True, False]


def test_a_blind_turn_holder_turning_its_kitten_can_end_a_two_player_game() -> None:
    state, rng = smake([[SK, KITTEN], [TACO]], [BEARD, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    assert state.phase == GAME_OVER and state.winner == 1
