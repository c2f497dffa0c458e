"""Each action card's effect (docs/rules/exploding_kittens.md "Action cards"), resolved after a Nope
window in which everybody passes."""

from __future__ import annotations

from collections import Counter

import pytest

from ek_env.engine.state import GIVE, NOPE_WINDOW, PLAY, Draw, Give, Insert, PlayCard, PlayPair
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    CATS,
    DEFUSE,
    FAVOR,
    FUTURE,
    KITTEN,
    MELON,
    NOPE,
    POTATO,
    RAINBOW,
    SHUFFLE,
    SKIP,
    TACO,
    apply,
    apply_all,
    assert_illegal,
    cards,
    deck_top_first,
    make,
    moves,
    pass_window,
)

DECK3 = [TACO, BEARD, MELON, KITTEN, POTATO, KITTEN]  # top first; 3 players

# ------------------------------------------------------------------ Attack


def test_attack_ends_the_turn_without_drawing_and_next_owes_two() -> None:
    state, rng = make([[ATTACK, SKIP], [FAVOR], [NOPE]], DECK3, first=0)
    apply(state, PlayCard(ATTACK), rng)
    assert state.phase == NOPE_WINDOW
    pass_window(state, rng)
    assert (state.turn_holder, state.to_act, state.owed, state.attacked) == (1, 1, 2, True)
    assert cards(state, 0) == [SKIP]
    assert deck_top_first(state) == DECK3
    assert state.discard[ATTACK] == 1


# (stacking option, attacker's owed turns, attacked?, plays before the Attack, owed by the next)
ATTACK_CASES = [
    ("stack", 1, False, [], 2),  # not attacked: 2
    ("stack", 2, True, [], 4),  # played at once under an Attack: 2 + 2
    ("stack", 2, True, [Draw()], 3),  # on the second of two turns: 1 + 2
    ("stack", 2, True, [PlayCard(SKIP)], 3),  # a Skip settled the first turn
    ("stack", 3, True, [], 5),  # owed 3 from an earlier stack: 3 + 2
    ("reset", 1, False, [], 2),
    ("reset", 2, True, [], 2),
    ("reset", 2, True, [Draw()], 2),
    ("reset", 2, True, [PlayCard(SKIP)], 2),
    ("reset", 3, True, [], 2),
]


@pytest.mark.parametrize(("stacking", "owed", "attacked", "before", "expected"), ATTACK_CASES)
def test_attacked_players_attack(stacking: str, owed: int, attacked: bool,
                                 before: list, expected: int) -> None:
    state, rng = make([[TACO], [ATTACK, SKIP, TACO], [NOPE]], DECK3, first=1, owed=owed,
                      attacked=attacked, attack_stacking=stacking)
    for move in before:
        apply(state, move, rng)
        if state.phase == NOPE_WINDOW:
            pass_window(state, rng)
        assert state.turn_holder == 1
    apply(state, PlayCard(ATTACK), rng)
    pass_window(state, rng)
    # All the attacker's owed turns end; the next player owes the stacked count.
    assert (state.turn_holder, state.owed, state.attacked) == (2, expected, True)


def test_attack_between_two_players_comes_back() -> None:
    state, rng = make([[ATTACK], [ATTACK]], [TACO, KITTEN], first=0)
    apply(state, PlayCard(ATTACK), rng)
    pass_window(state, rng)
    assert (state.turn_holder, state.owed) == (1, 2)
    apply(state, PlayCard(ATTACK), rng)
    pass_window(state, rng)
    assert (state.turn_holder, state.owed) == (0, 2)  # default "reset"


def test_attack_skips_an_exploded_seat() -> None:
    state, rng = make([[TACO], [TACO], [ATTACK, SKIP]], [KITTEN, BEARD, KITTEN], first=1)
    apply(state, Draw(), rng)  # seat 1 explodes
    apply(state, PlayCard(ATTACK), rng)
    pass_window(state, rng)
    assert (state.turn_holder, state.owed) == (0, 2)


# -------------------------------------------------------------------- Skip


def test_skip_ends_a_normal_turn_without_drawing() -> None:
    state, rng = make([[SKIP, TACO], [FAVOR], [NOPE]], DECK3, first=0)
    apply(state, PlayCard(SKIP), rng)
    pass_window(state, rng)
    assert (state.turn_holder, state.owed, state.attacked) == (1, 1, False)
    assert deck_top_first(state) == DECK3 and cards(state, 0) == [TACO]


def test_skip_under_an_attack_settles_one_turn() -> None:
    state, rng = make([[SKIP, SKIP], [FAVOR], [NOPE]], DECK3, first=0, owed=2)
    apply(state, PlayCard(SKIP), rng)
    pass_window(state, rng)
    assert (state.turn_holder, state.owed, state.phase) == (0, 1, PLAY)
    apply(state, PlayCard(SKIP), rng)
    pass_window(state, rng)
    assert (state.turn_holder, state.owed) == (1, 1)
    assert deck_top_first(state) == DECK3


# ------------------------------------------------------------------- Favor


def test_favor_target_chooses_the_card_to_give() -> None:
    state, rng = make([[FAVOR], [DEFUSE, NOPE, TACO, TACO], [SKIP]], DECK3, first=0)
    assert [m for m in moves(state) if isinstance(m, PlayCard)] == [
        PlayCard(FAVOR, 1), PlayCard(FAVOR, 2)]
    apply(state, PlayCard(FAVOR, 1), rng)
    pass_window(state, rng)
    assert state.phase == GIVE and state.to_act == 1 and state.turn_holder == 0
    assert moves(state) == [Give(DEFUSE), Give(NOPE), Give(TACO)]
    assert_illegal(state, Give(SKIP), rng)
    apply(state, Give(DEFUSE), rng)
    assert cards(state, 0) == [DEFUSE]
    assert cards(state, 1) == [NOPE, TACO, TACO]
    assert (state.phase, state.to_act, state.turn_holder, state.owed) == (PLAY, 0, 0, 1)
    # Both sides know where the card went.
    assert state.known_hands[(1 * 3 + 0) * 13 + DEFUSE] == 1


def test_favor_cannot_target_yourself_or_an_exploded_seat() -> None:
    state, rng = make([[TACO], [TACO], [FAVOR, SKIP]], [KITTEN, BEARD, KITTEN], first=1)
    apply(state, Draw(), rng)  # seat 1 explodes
    assert state.turn_holder == 2
    assert [m for m in moves(state) if isinstance(m, PlayCard) and m.card == FAVOR] == [
        PlayCard(FAVOR, 0)]
    assert_illegal(state, PlayCard(FAVOR, 1), rng)
    assert_illegal(state, PlayCard(FAVOR, 2), rng)
    assert_illegal(state, PlayCard(FAVOR), rng)


# ----------------------------------------------------------------- Shuffle


def test_shuffle_permutes_the_deck_seeded() -> None:
    deck = [TACO, BEARD, MELON, POTATO, RAINBOW, SKIP, ATTACK, FUTURE, KITTEN]
    results = set()
    for seed in range(6):
        state, rng = make([[SHUFFLE], [FAVOR]], deck, first=0, seed=seed)
        state.known_deck[0] = deck[:3]  # seat 0 had seen the top
        apply(state, PlayCard(SHUFFLE), rng)
        pass_window(state, rng)
        after = deck_top_first(state)
        assert Counter(after) == Counter(deck)
        assert state.known_deck[0] == []  # knowledge of the order is stale
        assert state.turn_holder == 0 and state.owed == 1
        again, rng2 = make([[SHUFFLE], [FAVOR]], deck, first=0, seed=seed)
        apply(again, PlayCard(SHUFFLE), rng2)
        pass_window(again, rng2)
        assert deck_top_first(again) == after  # same seed, same shuffle
        results.add(tuple(after))
    assert len(results) > 1


# ---------------------------------------------------------- See the Future


@pytest.mark.parametrize(
    "deck",
    [
        [TACO, KITTEN, BEARD, MELON, POTATO],
        [TACO, KITTEN, BEARD],
        [KITTEN, TACO],
        [KITTEN],
    ],
    ids=["five", "three", "two", "one"],
)
def test_see_the_future_shows_the_top_three_or_fewer(deck: list[int]) -> None:
    state, rng = make([[FUTURE], [FAVOR]], deck, first=0)
    apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    assert state.known_deck[0] == deck[:3]
    assert state.known_deck[1] == []
    assert deck_top_first(state) == deck  # order unchanged
    assert (state.turn_holder, state.owed, state.phase) == (0, 1, PLAY)


# ----------------------------------------------------- cards never played alone


@pytest.mark.parametrize("cat", CATS)
def test_a_single_cat_cannot_be_played_alone(cat: int) -> None:
    state, rng = make([[cat, TACO if cat != TACO else BEARD], [FAVOR]], [TACO, KITTEN], first=0)
    assert moves(state) == [Draw()]
    assert_illegal(state, PlayCard(cat), rng)
    assert_illegal(state, PlayCard(cat, 1), rng)


def test_defuse_is_never_played_by_choice() -> None:
    state, rng = make([[DEFUSE, DEFUSE, DEFUSE], [FAVOR]], [TACO, KITTEN], first=0)
    assert moves(state) == [Draw()]
    assert_illegal(state, PlayCard(DEFUSE), rng)
    assert_illegal(state, PlayPair(DEFUSE, 1), rng)


def test_a_lone_nope_cannot_be_played_in_the_play_phase() -> None:
    state, rng = make([[NOPE, SKIP], [FAVOR, NOPE]], [TACO, KITTEN], first=0)
    assert all(not (isinstance(m, PlayCard) and m.card == NOPE) for m in moves(state))
    assert_illegal(state, PlayCard(NOPE), rng)
    apply_all(state, [PlayCard(SKIP)], rng)
    pass_window(state, rng)
    assert state.turn_holder == 1
    assert all(not (isinstance(m, PlayCard) and m.card == NOPE) for m in moves(state))
    assert_illegal(state, PlayCard(NOPE), rng)


def test_kitten_cannot_be_played() -> None:
    state, rng = make([[SKIP], [FAVOR]], [TACO, KITTEN], first=0)
    assert_illegal(state, PlayCard(KITTEN), rng)


@pytest.mark.parametrize(("stacking", "expected"), [("stack", 3), ("reset", 2)])
def test_attack_after_a_defuse_settled_the_first_of_two_turns(stacking: str,
                                                              expected: int) -> None:
    state, rng = make([[TACO], [DEFUSE, ATTACK], [NOPE]], [KITTEN, TACO, BEARD, KITTEN],
                      first=1, owed=2, attack_stacking=stacking)
    apply(state, Draw(), rng)
    apply(state, Insert(2), rng)
    assert (state.turn_holder, state.owed, state.attacked) == (1, 1, True)
    apply(state, PlayCard(ATTACK), rng)
    pass_window(state, rng)
    assert (state.turn_holder, state.owed) == (2, expected)
