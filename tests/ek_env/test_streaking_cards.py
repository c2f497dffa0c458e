"""The new action cards of Streaking Kittens (docs/rules/exploding_kittens.md, Streaking Kittens "Cards"; seed 003 "De nieuwe
kaarten"), each resolved after a Nope window in which everybody passes, and each
Nope-able.

Decks are written top first. Expected positions are worked out from the rule text.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ek_env.engine.state import (
    INSERT,
    NOPE_WINDOW,
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
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
    KITTEN,
    MELON,
    NOPE,
    POTATO,
    RAINBOW,
    SKIP,
    TACO,
    apply,
    apply_all,
    assert_illegal,
    cards,
    deck_top_first,
    moves,
    pass_window,
    run_window,
)
from tests.ek_env.streaking_helpers import (
    ALTER,
    ALTER_CARD,
    BOMB,
    CURSE,
    FUTURE5,
    GARBAGE,
    GC,
    MARK,
    SK,
    SUPER,
    SWAP,
    UNKNOWN,
    Alter,
    BlindPlay,
    Garbage,
    blind_seats,
    known,
    marked,
    play_and_pass,
    smake,
)

# ------------------------------------------------------------- Catomic Bomb


def test_catomic_bomb_puts_every_kitten_on_top_and_ends_the_turn() -> None:
    deck = [TACO, KITTEN, BEARD, MELON, KITTEN, POTATO]
    state, rng = smake([[BOMB, SKIP], [NOPE], [FAVOR]], deck, first=0)
    state.known_deck[2] = [TACO, KITTEN]  # seat 2 had seen the top two
    play_and_pass(state, rng, PlayCard(BOMB))
    top = deck_top_first(state)
    assert len(top) == 6
    assert top[:2] == [KITTEN, KITTEN]
    assert Counter(top[2:]) == Counter([TACO, BEARD, MELON, POTATO])
    # The count is public and the kittens lie face down on top: everybody knows the
    # top two are kittens, and nothing else (the rest was shuffled).
    for seat in range(3):
        assert known(state, seat) == {0: KITTEN, 1: KITTEN}
    # It settles one owed turn without drawing.
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 1, 1, 1)
    assert cards(state, 0) == [SKIP]
    assert state.discard[BOMB] == 1


def test_catomic_bomb_shuffles_the_rest_seeded() -> None:
    deck = [TACO, KITTEN, BEARD, MELON, POTATO, RAINBOW, SKIP, ATTACK]
    orders = set()
    for seed in range(8):
        state, rng = smake([[BOMB], [NOPE], [FAVOR]], deck, first=0, seed=seed)
        play_and_pass(state, rng, PlayCard(BOMB))
        top = deck_top_first(state)
        assert top[0] == KITTEN and KITTEN not in top[1:]
        orders.add(tuple(top))
    assert len(orders) > 1


def test_catomic_bomb_under_an_attack_settles_one_of_two_turns() -> None:
    deck = [TACO, KITTEN, BEARD]
    state, rng = smake([[BOMB, SKIP], [NOPE], [FAVOR]], deck, first=0, owed=2)
    play_and_pass(state, rng, PlayCard(BOMB))
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)
    assert deck_top_first(state)[0] == KITTEN
    assert known(state, 0) == {0: KITTEN} and known(state, 1) == {0: KITTEN}
    apply(state, Draw(), rng)  # the kitten: no Defuse, no Streaking Kitten
    assert state.alive == [False, True, True]


def test_catomic_bomb_leaves_a_held_kitten_in_its_hand() -> None:
    state, rng = smake([[BOMB], [NOPE], [SK, KITTEN]], [TACO, BEARD, KITTEN, MELON], first=0)
    play_and_pass(state, rng, PlayCard(BOMB))
    top = deck_top_first(state)
    assert top[0] == KITTEN and top.count(KITTEN) == 1 and len(top) == 4
    assert cards(state, 2) == [KITTEN, SK]
    assert known(state, 1) == {0: KITTEN}


def test_catomic_bomb_without_kittens_in_the_deck_only_shuffles() -> None:
    deck = [TACO, BEARD, MELON]
    state, rng = smake([[BOMB], [NOPE], [SK, KITTEN]], deck, first=0)
    play_and_pass(state, rng, PlayCard(BOMB))
    assert Counter(deck_top_first(state)) == Counter(deck)
    assert all(known(state, seat) == {} for seat in range(3))
    assert (state.turn_holder, state.owed) == (1, 1)


# --------------------------------------------------------------- Super Skip


@pytest.mark.parametrize(("owed", "stacking"), [(1, "reset"), (2, "reset"), (3, "stack"),
                                                (4, "stack")])
def test_super_skip_settles_every_owed_turn(owed: int, stacking: str) -> None:
    deck = [TACO, KITTEN, BEARD]
    state, rng = smake([[SUPER, SKIP], [NOPE], [FAVOR]], deck, first=0, owed=owed,
                       attack_stacking=stacking)
    play_and_pass(state, rng, PlayCard(SUPER))
    assert (state.phase, state.turn_holder, state.to_act, state.owed, state.attacked) == (
        PLAY, 1, 1, 1, False)
    assert deck_top_first(state) == deck
    assert cards(state, 0) == [SKIP]


def test_super_skip_after_a_draw_under_attack() -> None:
    deck = [TACO, KITTEN, BEARD]
    state, rng = smake([[SUPER], [NOPE], [FAVOR]], deck, first=0, owed=3)
    apply(state, Draw(), rng)
    assert (state.turn_holder, state.owed) == (0, 2)
    play_and_pass(state, rng, PlayCard(SUPER))
    assert (state.turn_holder, state.owed) == (1, 1)
    assert deck_top_first(state) == [KITTEN, BEARD]


# ------------------------------------------------------ See the Future 5x


@pytest.mark.parametrize(
    "deck",
    [
        [TACO, KITTEN, BEARD, MELON, POTATO, RAINBOW, SKIP],
        [TACO, KITTEN, BEARD, MELON, POTATO],
        [TACO, KITTEN, BEARD],
        [KITTEN],
    ],
    ids=["seven", "five", "three", "one"],
)
def test_see_the_future_5x_shows_the_top_five_or_fewer(deck: list[int]) -> None:
    state, rng = smake([[FUTURE5], [NOPE], [FAVOR]], deck, first=0)
    play_and_pass(state, rng, PlayCard(FUTURE5))
    assert known(state, 0) == dict(enumerate(deck[:5]))
    assert known(state, 1) == {} and known(state, 2) == {}
    assert deck_top_first(state) == deck  # same order
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)


# ----------------------------------------------------- Alter the Future 5x

ALTER_DECK = [TACO, KITTEN, BEARD, MELON, POTATO, RAINBOW, SKIP]


def test_alter_the_future_places_the_top_five_in_the_chosen_order() -> None:
    state, rng = smake([[ALTER_CARD], [NOPE], [FAVOR]], ALTER_DECK, first=0)
    play_and_pass(state, rng, PlayCard(ALTER_CARD))
    assert (state.phase, state.to_act, state.turn_holder) == (ALTER, 0, 0)
    assert set(moves(state)) == {Alter(TACO), Alter(KITTEN), Alter(BEARD), Alter(MELON),
                                 Alter(POTATO)}
    assert_illegal(state, Alter(RAINBOW), rng)  # the sixth card is not among them
    assert_illegal(state, Draw(), rng)
    apply(state, Alter(KITTEN), rng)  # the new top card
    assert state.phase == ALTER
    assert set(moves(state)) == {Alter(TACO), Alter(BEARD), Alter(MELON), Alter(POTATO)}
    assert_illegal(state, Alter(KITTEN), rng)
    apply_all(state, [Alter(POTATO), Alter(TACO), Alter(MELON)], rng)
    # The last card (the beard cat) is placed automatically.
    assert (state.phase, state.to_act, state.turn_holder, state.owed) == (PLAY, 0, 0, 1)
    assert deck_top_first(state) == [KITTEN, POTATO, TACO, MELON, BEARD, RAINBOW, SKIP]
    assert known(state, 0) == {0: KITTEN, 1: POTATO, 2: TACO, 3: MELON, 4: BEARD}
    assert known(state, 1) == {} and known(state, 2) == {}


def test_alter_the_future_with_repeated_kinds() -> None:
    deck = [TACO, KITTEN, TACO, KITTEN, BEARD, SKIP]
    state, rng = smake([[ALTER_CARD], [NOPE], [FAVOR]], deck, first=0)
    play_and_pass(state, rng, PlayCard(ALTER_CARD))
    assert set(moves(state)) == {Alter(TACO), Alter(KITTEN), Alter(BEARD)}
    apply(state, Alter(KITTEN), rng)
    assert set(moves(state)) == {Alter(TACO), Alter(KITTEN), Alter(BEARD)}
    apply(state, Alter(KITTEN), rng)
    assert set(moves(state)) == {Alter(TACO), Alter(BEARD)}
    apply(state, Alter(TACO), rng)
    assert set(moves(state)) == {Alter(TACO), Alter(BEARD)}
    apply(state, Alter(BEARD), rng)
    assert state.phase == PLAY
    assert deck_top_first(state) == [KITTEN, KITTEN, TACO, BEARD, TACO, SKIP]


def test_alter_the_future_with_two_cards() -> None:
    state, rng = smake([[ALTER_CARD], [NOPE], [FAVOR]], [KITTEN, TACO], first=0)
    play_and_pass(state, rng, PlayCard(ALTER_CARD))
    assert state.phase == ALTER and set(moves(state)) == {Alter(KITTEN), Alter(TACO)}
    apply(state, Alter(TACO), rng)
    assert state.phase == PLAY
    assert deck_top_first(state) == [TACO, KITTEN]
    assert known(state, 0) == {0: TACO, 1: KITTEN}


def test_alter_the_future_with_one_card_needs_no_choice() -> None:
    state, rng = smake([[ALTER_CARD], [NOPE], [FAVOR]], [KITTEN], first=0)
    play_and_pass(state, rng, PlayCard(ALTER_CARD))
    assert (state.phase, state.to_act) == (PLAY, 0)
    assert deck_top_first(state) == [KITTEN]
    assert known(state, 0) == {0: KITTEN}


def test_alter_the_future_makes_others_knowledge_of_the_top_stale() -> None:
    state, rng = smake([[ALTER_CARD], [NOPE], [FAVOR]], ALTER_DECK, first=0)
    state.known_deck[1] = [TACO, KITTEN, BEARD]  # seat 1 had seen the top three
    play_and_pass(state, rng, PlayCard(ALTER_CARD))
    apply_all(state, [Alter(TACO), Alter(KITTEN), Alter(BEARD), Alter(MELON)], rng)
    # The order happens to be unchanged, but seat 1 cannot know that.
    assert deck_top_first(state) == ALTER_DECK
    assert all(depth >= 5 for depth in known(state, 1))
    assert known(state, 0) == dict(enumerate(ALTER_DECK[:5]))


def test_alter_the_future_keeps_knowledge_below_the_five_cards() -> None:
    # docs/rules/README.md: knowledge is kept until it becomes stale. Only the top five are
    # reordered, so the sixth and seventh cards stay where everybody knew them to be.
    state, rng = smake([[ALTER_CARD], [NOPE], [FAVOR]], ALTER_DECK, first=0)
    state.known_deck[0] = [UNKNOWN] * 6 + [SKIP]
    state.known_deck[2] = [UNKNOWN] * 5 + [RAINBOW]
    play_and_pass(state, rng, PlayCard(ALTER_CARD))
    apply_all(state, [Alter(POTATO), Alter(MELON), Alter(BEARD), Alter(KITTEN)], rng)
    assert deck_top_first(state) == [POTATO, MELON, BEARD, KITTEN, TACO, RAINBOW, SKIP]
    assert known(state, 0) == {0: POTATO, 1: MELON, 2: BEARD, 3: KITTEN, 4: TACO, 6: SKIP}
    assert known(state, 2) == {5: RAINBOW}


# ------------------------------------------------------ Swap Top and Bottom


def test_swap_top_and_bottom_and_known_depths_move_with_their_cards() -> None:
    deck = [TACO, BEARD, MELON, KITTEN]
    state, rng = smake([[FUTURE5, SWAP], [NOPE], [FAVOR]], deck, first=0)
    play_and_pass(state, rng, PlayCard(FUTURE5))
    assert known(state, 0) == {0: TACO, 1: BEARD, 2: MELON, 3: KITTEN}
    state.known_deck[1] = [TACO]  # seat 1 knows only the top
    state.known_deck[2] = [UNKNOWN, UNKNOWN, UNKNOWN, KITTEN]  # seat 2 only the bottom
    play_and_pass(state, rng, PlayCard(SWAP))
    assert deck_top_first(state) == [KITTEN, BEARD, MELON, TACO]
    assert known(state, 0) == {0: KITTEN, 1: BEARD, 2: MELON, 3: TACO}
    assert known(state, 1) == {3: TACO}
    assert known(state, 2) == {0: KITTEN}
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)
    assert state.discard[SWAP] == 1 and state.discard[FUTURE5] == 1


@pytest.mark.parametrize(("deck", "after"), [([KITTEN, TACO], [TACO, KITTEN]),
                                             ([KITTEN], [KITTEN])])
def test_swap_top_and_bottom_small_decks(deck: list[int], after: list[int]) -> None:
    state, rng = smake([[SWAP], [NOPE], [FAVOR]], deck, first=0)
    play_and_pass(state, rng, PlayCard(SWAP))
    assert deck_top_first(state) == after
    assert known(state, 0) == {}  # unseen


# ------------------------------------------------------ Garbage Collection


def test_garbage_collection_asks_seats_with_cards_from_the_turn_holder() -> None:
    hands = [[TACO, SKIP], [], [GC, ATTACK, BEARD], [MELON]]
    deck = [POTATO, KITTEN, RAINBOW]
    state, rng = smake(hands, deck, first=2)
    state.known_deck[2] = [POTATO, KITTEN]
    apply(state, PlayCard(GC), rng)
    assert pass_window(state, rng) == [3, 0, 1, 2]
    asked = []
    expected_moves = {
        2: {Garbage(ATTACK), Garbage(BEARD)},
        3: {Garbage(MELON)},
        0: {Garbage(TACO), Garbage(SKIP)},
    }
    choice = {2: BEARD, 3: MELON, 0: SKIP}
    while state.phase == GARBAGE:
        seat = state.to_act
        asked.append(seat)
        assert set(moves(state)) == expected_moves[seat]
        if seat == 2:
            assert_illegal(state, Garbage(TACO), rng)
            assert_illegal(state, Draw(), rng)
        apply(state, Garbage(choice[seat]), rng)
        assert len(asked) < 10
    # The turn holder first, then clockwise; the empty-handed seat 1 is not asked.
    assert asked == [2, 3, 0]
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 2, 2, 1)
    assert cards(state, 0) == [TACO] and cards(state, 1) == []
    assert cards(state, 2) == [ATTACK] and cards(state, 3) == []
    assert Counter(deck_top_first(state)) == Counter([POTATO, KITTEN, RAINBOW, BEARD, MELON,
                                                      SKIP])
    assert all(known(state, seat) == {} for seat in range(4))  # shuffled
    assert state.discard[GC] == 1 and all(state.alive)


def test_garbage_collection_shuffles_the_deck() -> None:
    deck = [POTATO, KITTEN, RAINBOW, ATTACK, FAVOR]
    orders = set()
    for seed in range(8):
        state, rng = smake([[GC, TACO], [BEARD], [MELON]], deck, first=0, seed=seed)
        play_and_pass(state, rng, PlayCard(GC))
        apply_all(state, [Garbage(TACO), Garbage(BEARD), Garbage(MELON)], rng)
        after = deck_top_first(state)
        assert Counter(after) == Counter(deck + [TACO, BEARD, MELON])
        orders.add(tuple(after))
    assert len(orders) > 1


def test_garbage_collection_skips_the_turn_holder_with_no_cards_left() -> None:
    state, rng = smake([[GC], [BEARD], [MELON]], [POTATO, KITTEN], first=0)
    play_and_pass(state, rng, PlayCard(GC))
    assert (state.phase, state.to_act) == (GARBAGE, 1)
    apply_all(state, [Garbage(BEARD), Garbage(MELON)], rng)
    assert (state.phase, state.to_act) == (PLAY, 0)
    assert len(state.deck) == 4


def test_garbage_collection_blind_seat_puts_a_random_card_unasked() -> None:
    left = set()
    for seed in range(20):
        state, rng = smake([[GC, SKIP], [TACO, BEARD], [MELON, ATTACK]], [POTATO, KITTEN],
                           first=0, blind=[1], seed=seed)
        play_and_pass(state, rng, PlayCard(GC))
        asked = []
        while state.phase == GARBAGE:
            asked.append(state.to_act)
            seat = state.to_act
            apply(state, Garbage(SKIP if seat == 0 else MELON), rng)
        assert asked == [0, 2]
        assert state.phase == PLAY and len(state.deck) == 5
        assert sum(state.hands[1]) == 1
        left.add(tuple(cards(state, 1)))
        assert state.blind[1]  # still blind: it did not draw
    assert left == {(TACO,), (BEARD,)}


def test_garbage_collection_a_held_kitten_put_in_does_not_explode() -> None:
    state, rng = smake([[GC], [SK, KITTEN, TACO], [MELON]], [BEARD, KITTEN], first=0)
    play_and_pass(state, rng, PlayCard(GC))
    assert state.to_act == 1
    assert set(moves(state)) == {Garbage(KITTEN), Garbage(TACO), Garbage(SK)}
    apply_all(state, [Garbage(KITTEN), Garbage(MELON)], rng)
    assert (state.phase, state.turn_holder, state.to_act) == (PLAY, 0, 0)
    assert all(state.alive)
    assert cards(state, 1) == [TACO, SK]
    assert state.deck.count(KITTEN) == 2 and len(state.deck) == 4
    assert state.discard[DEFUSE] == 0


def test_garbage_collection_streaking_kitten_put_in_explodes_the_kitten_after_the_shuffle(
) -> None:
    # Seat 1 puts in its Streaking Kitten while holding a kitten: after the shuffle the
    # kitten explodes; seat 1 defuses it and places it where it likes (a place that the
    # shuffle does not undo). The turn holder's owed turns are untouched.
    state, rng = smake([[GC], [SK, KITTEN, DEFUSE], [MELON]], [BEARD, TACO, POTATO],
                       first=0, owed=2)
    play_and_pass(state, rng, PlayCard(GC))
    apply(state, Garbage(SK), rng)
    assert (state.phase, state.to_act) == (GARBAGE, 2)
    apply(state, Garbage(MELON), rng)
    assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 1, 1)
    assert state.discard[DEFUSE] == 1 and cards(state, 1) == []
    apply(state, Insert(0), rng)
    top = deck_top_first(state)
    assert top[0] == KITTEN and top.count(KITTEN) == 1 and len(top) == 6
    assert SK in top and MELON in top
    assert known(state, 1) == {0: KITTEN}
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 2)
    assert all(state.alive)


def test_garbage_collection_streaking_kitten_put_in_without_defuse_is_out() -> None:
    state, rng = smake([[GC, SKIP], [SK, KITTEN, TACO], [MELON]], [BEARD, POTATO], first=0)
    play_and_pass(state, rng, PlayCard(GC))
    apply_all(state, [Garbage(SKIP), Garbage(SK), Garbage(MELON)], rng)
    assert state.alive == [True, False, True] and state.eliminated == [1]
    assert cards(state, 1) == []
    assert state.discard[KITTEN] == 1 and state.discard[TACO] == 1
    assert state.deck.count(SK) == 1 and state.deck.count(KITTEN) == 0
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 1)


# -------------------------------------------------------------------- Mark


def test_mark_makes_a_random_card_of_the_target_public() -> None:
    seen = set()
    for seed in range(30):
        state, rng = smake([[MARK], [TACO, BEARD, SKIP], [NOPE]], [KITTEN, MELON], first=0,
                           seed=seed)
        assert set(m for m in moves(state) if isinstance(m, PlayCard)) == {
            PlayCard(MARK, 1), PlayCard(MARK, 2)}
        play_and_pass(state, rng, PlayCard(MARK, 1))
        assert cards(state, 1) == [SKIP, TACO, BEARD]  # the card stays in the hand
        assert len(marked(state, 1)) == 1
        seen.add(marked(state, 1)[0])
        assert marked(state, 0) == [] and marked(state, 2) == []
        assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)
        assert state.discard[MARK] == 1
    assert seen == {TACO, BEARD, SKIP}


def test_mark_cannot_target_yourself_or_nobody() -> None:
    state, rng = smake([[MARK], [TACO], [NOPE]], [KITTEN], first=0)
    assert_illegal(state, PlayCard(MARK, 0), rng)
    assert_illegal(state, PlayCard(MARK), rng)


def test_mark_may_hit_an_already_marked_card() -> None:
    state, rng = smake([[MARK], [SKIP], [NOPE]], [KITTEN], first=0, marked=[[], [SKIP], []])
    play_and_pass(state, rng, PlayCard(MARK, 1))
    assert marked(state, 1) == [SKIP] and cards(state, 1) == [SKIP]


def test_a_played_kind_plays_the_marked_copy_first() -> None:
    state, rng = smake([[SKIP, SKIP, TACO], [NOPE], [FAVOR]], [KITTEN, BEARD], first=0,
                       marked=[[SKIP], [], []])
    play_and_pass(state, rng, PlayCard(SKIP))
    assert cards(state, 0) == [SKIP, TACO]
    assert marked(state, 0) == []


def test_a_given_marked_copy_is_not_marked_after() -> None:
    state, rng = smake([[FAVOR], [SKIP, SKIP], [NOPE]], [KITTEN, BEARD], first=0,
                       marked=[[], [SKIP], []])
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    apply(state, Give(SKIP, marked=True), rng)
    assert cards(state, 0) == [SKIP] and cards(state, 1) == [SKIP]
    assert marked(state, 0) == [] and marked(state, 1) == []


def test_a_stolen_marked_card_is_not_marked_at_its_new_owner() -> None:
    state, rng = smake([[TACO, TACO], [ATTACK], [NOPE]], [KITTEN, BEARD], first=0,
                       marked=[[], [ATTACK], []])
    play_and_pass(state, rng, PlayPair(TACO, 1))
    assert cards(state, 0) == [ATTACK] and cards(state, 1) == []
    assert marked(state, 0) == [] and marked(state, 1) == []


def test_a_random_steal_keeps_the_other_card_marked() -> None:
    outcomes = set()
    for seed in range(20):
        state, rng = smake([[TACO, TACO], [ATTACK, BEARD], [NOPE]], [KITTEN], first=0,
                           marked=[[], [ATTACK], []], seed=seed)
        play_and_pass(state, rng, PlayPair(TACO, 1))
        assert marked(state, 0) == []
        if cards(state, 1) == [BEARD]:
            assert marked(state, 1) == []
        else:
            assert cards(state, 1) == [ATTACK] and marked(state, 1) == [ATTACK]
        outcomes.add(tuple(cards(state, 1)))
    assert outcomes == {(ATTACK,), (BEARD,)}


def test_a_marked_card_handed_over_by_three_of_a_kind_is_not_marked_after() -> None:
    state, rng = smake([[MELON, MELON, MELON], [SKIP], [NOPE]], [KITTEN], first=0,
                       marked=[[], [SKIP], []])
    apply(state, PlayThree(MELON, 1), rng)
    play_and_pass(state, rng, NameCard(SKIP))
    assert cards(state, 0) == [SKIP] and marked(state, 0) == [] and marked(state, 1) == []


def test_a_marked_card_put_into_the_deck_by_garbage_collection() -> None:
    state, rng = smake([[GC], [SKIP, SKIP], [MELON]], [KITTEN], first=0,
                       marked=[[], [SKIP], []])
    play_and_pass(state, rng, PlayCard(GC))
    apply_all(state, [Garbage(SKIP, marked=True), Garbage(MELON)], rng)
    assert cards(state, 1) == [SKIP] and marked(state, 1) == []


@pytest.mark.parametrize("option", ["allowed", "forbidden"])
def test_mark_on_an_empty_hand(option: str) -> None:
    state, rng = smake([[MARK], [], [NOPE]], [KITTEN], first=0, empty_hand_target=option)
    targets = {m.target for m in moves(state) if isinstance(m, PlayCard) and m.card == MARK}
    if option == "forbidden":
        assert targets == {2}
        assert_illegal(state, PlayCard(MARK, 1), rng)
        return
    assert targets == {1, 2}
    play_and_pass(state, rng, PlayCard(MARK, 1))
    assert all(marked(state, seat) == [] for seat in range(3))
    assert (state.phase, state.turn_holder) == (PLAY, 0) and state.discard[MARK] == 1


# ------------------------------------------------------ Curse of the Cat Butt


def test_curse_makes_the_target_blind() -> None:
    hands = [[CURSE], [TACO, TACO, SKIP, FAVOR, ATTACK], [NOPE]]
    state, rng = smake(hands, [BEARD, KITTEN, MELON], first=0)
    assert {m.target for m in moves(state) if isinstance(m, PlayCard)} == {1, 2}
    play_and_pass(state, rng, PlayCard(CURSE, 1))
    assert blind_seats(state) == [1]
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)
    assert cards(state, 1) == [ATTACK, SKIP, FAVOR, TACO, TACO]  # the cards stay
    apply(state, Draw(), rng)
    # Seat 1's turn: blind, it may only draw or play a random card.
    assert state.turn_holder == 1
    assert set(moves(state)) == {Draw(), BlindPlay()}
    for move in (PlayCard(SKIP), PlayCard(FAVOR, 2), PlayCard(ATTACK), PlayPair(TACO, 2)):
        assert_illegal(state, move, rng)


@pytest.mark.parametrize("option", ["allowed", "forbidden"])
def test_curse_may_target_an_empty_hand(option: str) -> None:
    state, rng = smake([[CURSE], [], [NOPE]], [KITTEN], first=0, empty_hand_target=option)
    assert PlayCard(CURSE, 1) in moves(state)
    assert_illegal(state, PlayCard(CURSE, 0), rng)
    play_and_pass(state, rng, PlayCard(CURSE, 1))
    assert blind_seats(state) == [1]


def test_curse_on_a_blind_player_changes_nothing() -> None:
    state, rng = smake([[CURSE], [TACO], [NOPE]], [KITTEN], first=0, blind=[1])
    play_and_pass(state, rng, PlayCard(CURSE, 1))
    assert blind_seats(state) == [1]
    assert (state.phase, state.turn_holder) == (PLAY, 0)


# ----------------------------------------------------------- every card Noped

NOPED = [
    ("catomic_bomb", PlayCard(BOMB), [TACO, KITTEN, BEARD, KITTEN]),
    ("super_skip", PlayCard(SUPER), [TACO, KITTEN, BEARD, KITTEN]),
    ("see_the_future_5x", PlayCard(FUTURE5), [TACO, KITTEN, BEARD, KITTEN]),
    ("alter_the_future_5x", PlayCard(ALTER_CARD), [TACO, KITTEN, BEARD, KITTEN]),
    ("swap_top_and_bottom", PlayCard(SWAP), [TACO, KITTEN, BEARD, KITTEN]),
    ("garbage_collection", PlayCard(GC), [TACO, KITTEN, BEARD, KITTEN]),
    ("mark", PlayCard(MARK, 2), [TACO, KITTEN, BEARD, KITTEN]),
    ("curse_of_the_cat_butt", PlayCard(CURSE, 2), [TACO, KITTEN, BEARD, KITTEN]),
]


@pytest.mark.parametrize(("play", "deck"), [c[1:] for c in NOPED], ids=[c[0] for c in NOPED])
def test_every_new_card_can_be_noped(play: PlayCard, deck: list[int]) -> None:
    state, rng = smake([[play.card, SKIP], [NOPE], [MELON, POTATO]], deck, first=0, owed=2)
    apply(state, play, rng)
    assert state.phase == NOPE_WINDOW
    assert run_window(state, rng, [1]) == [1, 2, 0, 1]
    # Nothing happened: same turn, same deck, no marks, nobody blind, nothing seen.
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 2)
    assert deck_top_first(state) == deck
    assert cards(state, 0) == [SKIP] and cards(state, 2) == [POTATO, MELON]
    assert all(marked(state, seat) == [] for seat in range(3))
    assert blind_seats(state) == []
    assert all(known(state, seat) == {} for seat in range(3))
    assert state.discard[play.card] == 1 and state.discard[NOPE] == 1


def test_a_noped_nope_lets_the_new_card_through() -> None:
    state, rng = smake([[CURSE, NOPE], [NOPE], [MELON]], [TACO, KITTEN], first=0)
    apply(state, PlayCard(CURSE, 2), rng)
    run_window(state, rng, [1, 0])
    assert blind_seats(state) == [2]


@pytest.mark.parametrize("card", [SK, KITTEN])
def test_the_kittens_are_never_played_on_purpose(card: int) -> None:
    state, rng = smake([[SK, KITTEN], [NOPE], [MELON]], [TACO], first=0)
    assert moves(state) == [Draw()]
    assert_illegal(state, PlayCard(card), rng)
    assert_illegal(state, PlayCard(card, 1), rng)


# ------------------------------------------------------------ an empty deck


@pytest.mark.parametrize("card", [FUTURE5, ALTER_CARD, SWAP])
def test_deck_cards_on_an_empty_deck_do_nothing(card: int) -> None:
    state, rng = smake([[card, SKIP], [NOPE], [SK, KITTEN]], [], first=0)
    play_and_pass(state, rng, PlayCard(card))
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 1)
    assert state.deck == [] and known(state, 0) == {}


def test_catomic_bomb_on_an_empty_deck_still_settles_a_turn() -> None:
    state, rng = smake([[BOMB], [NOPE], [SK, KITTEN]], [], first=0)
    play_and_pass(state, rng, PlayCard(BOMB))
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)


# ------------------------------------------------ expansion cards in combos


def test_a_pair_of_marks_steals_and_marks_nothing() -> None:
    # Combo cards lose their own text (docs/rules/exploding_kittens.md "Cats and combos").
    state, rng = smake([[MARK, MARK], [ATTACK], [NOPE]], [KITTEN, BEARD], first=0)
    assert PlayPair(MARK, 1) in moves(state)
    play_and_pass(state, rng, PlayPair(MARK, 1))
    assert cards(state, 0) == [ATTACK] and cards(state, 1) == []
    assert all(marked(state, seat) == [] for seat in range(3))
    assert state.discard[MARK] == 2


def test_three_swaps_ask_for_a_card_and_swap_nothing() -> None:
    deck = [KITTEN, BEARD, TACO]
    state, rng = smake([[SWAP, SWAP, SWAP], [CURSE], [NOPE]], deck, first=0)
    apply(state, PlayThree(SWAP, 1), rng)
    play_and_pass(state, rng, NameCard(CURSE))
    assert cards(state, 0) == [CURSE] and cards(state, 1) == []
    assert deck_top_first(state) == deck


def test_a_pair_of_curses_blinds_nobody() -> None:
    state, rng = smake([[CURSE, CURSE], [ATTACK], [NOPE]], [KITTEN, BEARD], first=0)
    play_and_pass(state, rng, PlayPair(CURSE, 1))
    assert blind_seats(state) == [] and cards(state, 0) == [ATTACK]


def test_five_different_expansion_cards_take_from_the_discard_pile() -> None:
    hand = [BOMB, SUPER, SWAP, MARK, CURSE]
    deck = [KITTEN, BEARD]
    state, rng = smake([hand, [NOPE], [TACO]], deck, first=0, discard=[GC])
    assert PlayFive() in moves(state)
    apply(state, PlayFive(), rng)
    apply_all(state, [ChooseFive(card) for card in sorted(hand)], rng)
    pass_window(state, rng)
    assert set(moves(state)) == {Take(card) for card in hand + [GC]}
    apply(state, Take(GC), rng)
    assert cards(state, 0) == [GC]
    assert deck_top_first(state) == deck and (state.turn_holder, state.owed) == (0, 1)


def test_without_combos_expansion_cards_do_not_pair() -> None:
    state, rng = smake([[MARK, MARK, SWAP, SWAP, SWAP], [ATTACK], [NOPE]], [KITTEN], first=0,
                       combos=False)
    assert not any(isinstance(m, (PlayPair, PlayThree)) for m in moves(state))
