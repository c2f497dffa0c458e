"""Cat pairs and special combos (docs/rules/exploding_kittens.md "Cats and combos", "Open points")."""

from __future__ import annotations

from collections import Counter

import pytest

from ek_env.engine.state import (
    CHOOSE_FIVE,
    NAME_CARD,
    NOPE_WINDOW,
    PLAY,
    TAKE,
    ChooseFive,
    Draw,
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
    expand,
    make,
    moves,
    pass_window,
    run_window,
)

DECK3 = [SKIP, BEARD, KITTEN, KITTEN]  # top first; 3 players

# ---------------------------------------------------------------- cat pairs


@pytest.mark.parametrize("combos", [True, False])
@pytest.mark.parametrize("cat", CATS)
def test_cat_pair_steals_the_only_card(cat: int, combos: bool) -> None:
    state, rng = make([[cat, cat, SKIP], [DEFUSE], [FAVOR, NOPE]], DECK3, first=0,
                      combos=combos)
    assert PlayPair(cat, 1) in moves(state) and PlayPair(cat, 2) in moves(state)
    apply(state, PlayPair(cat, 1), rng)
    assert state.phase == NOPE_WINDOW
    pass_window(state, rng)
    assert cards(state, 0) == [DEFUSE, SKIP]
    assert cards(state, 1) == []
    assert cards(state, 2) == [FAVOR, NOPE]
    assert state.discard[cat] == 2
    assert (state.turn_holder, state.phase, state.owed) == (0, PLAY, 1)


def test_pair_steals_a_random_card_seeded() -> None:
    target_hand = [DEFUSE, ATTACK, SKIP, FAVOR, SHUFFLE, FUTURE, BEARD]
    stolen = []
    for seed in range(40):
        state, rng = make([[TACO, TACO], target_hand], [MELON, KITTEN], first=0, seed=seed)
        apply(state, PlayPair(TACO, 1), rng)
        pass_window(state, rng)
        got = cards(state, 0)
        assert len(got) == 1 and sum(state.hands[1]) == len(target_hand) - 1
        assert Counter(cards(state, 1)) + Counter(got) == Counter(target_hand)
        again, rng2 = make([[TACO, TACO], target_hand], [MELON, KITTEN], first=0, seed=seed)
        apply(again, PlayPair(TACO, 1), rng2)
        pass_window(again, rng2)
        assert cards(again, 0) == got  # the same seed steals the same card
        stolen.append(got[0])
    assert len(set(stolen)) >= 4  # random, not always the same kind


def test_two_different_cats_are_not_a_pair() -> None:
    state, rng = make([[TACO, BEARD], [SKIP]], [MELON, KITTEN], first=0)
    assert moves(state) == [Draw()]
    assert_illegal(state, PlayPair(TACO, 1), rng)
    assert_illegal(state, PlayPair(BEARD, 1), rng)


def test_pair_cannot_target_yourself() -> None:
    state, rng = make([[TACO, TACO], [SKIP]], [MELON, KITTEN], first=0)
    assert [m for m in moves(state) if isinstance(m, PlayPair)] == [PlayPair(TACO, 1)]
    assert_illegal(state, PlayPair(TACO, 0), rng)


# -------------------------------------------------- two of a kind, any name

NON_CAT_PAIRS = [ATTACK, SKIP, FAVOR, SHUFFLE, FUTURE, NOPE]


@pytest.mark.parametrize("kind", NON_CAT_PAIRS)
def test_two_of_a_kind_of_any_name_steals_with_combos(kind: int) -> None:
    state, rng = make([[kind, kind], [MELON], [DEFUSE]], DECK3, first=0, combos=True)
    assert PlayPair(kind, 1) in moves(state)
    apply(state, PlayPair(kind, 1), rng)
    pass_window(state, rng)
    # The cards lose their own text: only the steal happens.
    assert cards(state, 0) == [MELON] and cards(state, 1) == []
    assert state.discard[kind] == 2
    assert (state.turn_holder, state.owed, state.phase) == (0, 1, PLAY)


@pytest.mark.parametrize("kind", NON_CAT_PAIRS)
def test_two_of_a_kind_of_a_non_cat_needs_combos(kind: int) -> None:
    state, rng = make([[kind, kind], [MELON], [DEFUSE]], DECK3, first=0, combos=False)
    assert not any(isinstance(m, PlayPair) for m in moves(state))
    assert_illegal(state, PlayPair(kind, 1), rng)


def test_combos_off_keeps_only_cat_pairs() -> None:
    hand = [TACO, TACO, TACO, ATTACK, ATTACK, ATTACK, SKIP, FAVOR, SHUFFLE, NOPE, NOPE]
    state, rng = make([hand, [MELON], [DEFUSE]], DECK3, first=0, combos=False)
    legal = moves(state)
    assert not any(isinstance(m, (PlayThree, PlayFive)) for m in legal)
    assert {m.card for m in legal if isinstance(m, PlayPair)} == {TACO}
    for move in [PlayThree(TACO, 1), PlayThree(ATTACK, 2), PlayFive(), PlayPair(ATTACK, 1),
                 PlayPair(NOPE, 1)]:
        assert_illegal(state, move, rng)
    on = make([hand, [MELON], [DEFUSE]], DECK3, first=0, combos=True)[0]
    assert PlayThree(TACO, 1) in moves(on) and PlayFive() in moves(on)
    assert PlayPair(ATTACK, 1) in moves(on) and PlayPair(NOPE, 2) in moves(on)


# ----------------------------------------------- empty-hand targets (option)

# (play, extra cards the player needs)
EMPTY_TARGET_PLAYS = [
    (PlayCard(FAVOR, 1), [FAVOR]),
    (PlayPair(TACO, 1), [TACO, TACO]),
    (PlayPair(SKIP, 1), [SKIP, SKIP]),
]


@pytest.mark.parametrize(("play", "hand"), EMPTY_TARGET_PLAYS,
                         ids=["favor", "cat_pair", "two_of_a_kind"])
def test_empty_hand_target_allowed_does_nothing(play, hand: list[int]) -> None:
    state, rng = make([hand, [], [BEARD]], DECK3, first=0, empty_hand_target="allowed")
    assert play in moves(state)
    apply(state, play, rng)
    pass_window(state, rng)
    assert cards(state, 0) == [] and cards(state, 1) == [] and cards(state, 2) == [BEARD]
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 1)
    assert sum(state.discard) == len(hand)


@pytest.mark.parametrize(("play", "hand"), EMPTY_TARGET_PLAYS,
                         ids=["favor", "cat_pair", "two_of_a_kind"])
def test_empty_hand_target_forbidden(play, hand: list[int]) -> None:
    state, rng = make([hand, [], [BEARD]], DECK3, first=0, empty_hand_target="forbidden")
    assert_illegal(state, play, rng)
    # The player with cards is still a target.
    other = type(play)(play.card, 2)
    assert other in moves(state)


def test_favor_on_a_target_who_nopes_with_their_last_card() -> None:
    # The target empties its hand by Noping; a second Nope lets the Favor through,
    # against an empty hand: nothing to give.
    state, rng = make([[FAVOR, NOPE], [NOPE], [BEARD]], DECK3, first=0)
    apply(state, PlayCard(FAVOR, 1), rng)
    run_window(state, rng, [1, 0])
    assert (state.phase, state.to_act) == (PLAY, 0)
    assert cards(state, 0) == [] and cards(state, 1) == []


# ----------------------------------------------------------- three of a kind

# (target hand, named card, expected player hand after, expected target hand after)
THREE_CASES = [
    ("held", [DEFUSE, SKIP, SKIP], SKIP, [SKIP], [DEFUSE, SKIP]),
    ("defuse", [DEFUSE, SKIP], DEFUSE, [DEFUSE], [SKIP]),
    ("not held", [DEFUSE, SKIP], NOPE, [], [DEFUSE, SKIP]),
    ("kitten named", [DEFUSE, SKIP], KITTEN, [], [DEFUSE, SKIP]),
    ("empty hand", [], DEFUSE, [], []),
]


@pytest.mark.parametrize("rule", ["allowed", "forbidden"])
@pytest.mark.parametrize(("target_hand", "named", "mine", "theirs"),
                         [case[1:] for case in THREE_CASES], ids=[c[0] for c in THREE_CASES])
def test_three_of_a_kind(target_hand: list[int], named: int, mine: list[int],
                         theirs: list[int], rule: str) -> None:
    state, rng = make([[MELON, MELON, MELON], target_hand, [BEARD]], DECK3, first=0,
                      empty_hand_target=rule)
    # Three of a kind may target anyone, an empty hand included.
    assert PlayThree(MELON, 1) in moves(state) and PlayThree(MELON, 2) in moves(state)
    apply(state, PlayThree(MELON, 1), rng)
    assert (state.phase, state.to_act) == (NAME_CARD, 0)
    assert moves(state) == [NameCard(card) for card in range(13)]
    apply(state, NameCard(named), rng)
    assert state.phase == NOPE_WINDOW and state.pending_named == named
    pass_window(state, rng)
    assert cards(state, 0) == mine
    assert cards(state, 1) == theirs
    assert state.discard[MELON] == 3
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)


@pytest.mark.parametrize("kind", [ATTACK, NOPE, TACO])
def test_three_of_a_kind_any_name_with_combos(kind: int) -> None:
    state, rng = make([[kind, kind, kind, kind], [FAVOR], [BEARD]], DECK3, first=0)
    apply_all(state, [PlayThree(kind, 2), NameCard(BEARD)], rng)
    pass_window(state, rng)
    assert cards(state, 0) == [kind, BEARD] and cards(state, 2) == []
    assert state.discard[kind] == 3


def test_three_of_a_kind_needs_three() -> None:
    state, rng = make([[TACO, TACO, BEARD], [FAVOR], [BEARD]], DECK3, first=0)
    assert not any(isinstance(m, PlayThree) for m in moves(state))
    assert_illegal(state, PlayThree(TACO, 1), rng)


def test_three_of_a_kind_cannot_target_yourself_or_the_dead() -> None:
    state, rng = make([[TACO], [FAVOR], [MELON, MELON, MELON]], [KITTEN, SKIP, KITTEN], first=1)
    apply(state, Draw(), rng)  # seat 1 explodes
    assert [m for m in moves(state) if isinstance(m, PlayThree)] == [PlayThree(MELON, 0)]
    assert_illegal(state, PlayThree(MELON, 1), rng)
    assert_illegal(state, PlayThree(MELON, 2), rng)


# ------------------------------------------------------------ five different

FIVE_HAND = [ATTACK, SKIP, FAVOR, NOPE, TACO, BEARD, DEFUSE]


def test_five_different_takes_from_the_discard_pile() -> None:
    # Seat 3 exploded: its kitten lies in the discard pile (docs/rules/exploding_kittens.md).
    state, rng = make([FIVE_HAND, [MELON], [POTATO], []], DECK3, first=0,
                      discard=[KITTEN, DEFUSE, RAINBOW], eliminated=[3])
    assert PlayFive() in moves(state)
    apply(state, PlayFive(), rng)
    assert (state.phase, state.to_act) == (CHOOSE_FIVE, 0)
    # Ascending kind order, leaving enough kinds to complete five: from six held
    # combo kinds (the Defuse does not count) the first is one of the lowest two.
    assert moves(state) == [ChooseFive(ATTACK), ChooseFive(SKIP)]
    assert_illegal(state, ChooseFive(DEFUSE), rng)
    apply(state, ChooseFive(SKIP), rng)
    assert_illegal(state, ChooseFive(ATTACK), rng)  # descending
    assert_illegal(state, ChooseFive(SKIP), rng)  # repeated
    apply_all(state, [ChooseFive(FAVOR), ChooseFive(NOPE), ChooseFive(TACO)], rng)
    assert state.phase == CHOOSE_FIVE
    assert moves(state) == [ChooseFive(BEARD)]
    apply(state, ChooseFive(BEARD), rng)
    assert state.phase == NOPE_WINDOW
    assert cards(state, 0) == [DEFUSE, ATTACK]
    pass_window(state, rng)
    assert (state.phase, state.to_act) == (TAKE, 0)
    # Any card of the pile but the kitten, the ones just played included.
    assert moves(state) == [Take(k) for k in (DEFUSE, SKIP, FAVOR, NOPE, TACO, RAINBOW, BEARD)]
    assert_illegal(state, Take(KITTEN), rng)
    assert_illegal(state, Take(MELON), rng)
    apply(state, Take(NOPE), rng)
    assert cards(state, 0) == [DEFUSE, ATTACK, NOPE]
    assert expand(state.discard) == sorted([KITTEN, DEFUSE, RAINBOW, SKIP, FAVOR, TACO, BEARD])
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 0, 1)


def test_five_different_may_take_a_defuse() -> None:
    state, rng = make([FIVE_HAND, [MELON], [POTATO]], DECK3, first=0, discard=[DEFUSE])
    apply_all(state, [PlayFive(), ChooseFive(SKIP), ChooseFive(FAVOR), ChooseFive(NOPE),
                      ChooseFive(TACO), ChooseFive(BEARD)], rng)
    pass_window(state, rng)
    apply(state, Take(DEFUSE), rng)
    assert cards(state, 0) == [DEFUSE, DEFUSE, ATTACK]


def test_noped_five_different_takes_nothing() -> None:
    state, rng = make([FIVE_HAND, [NOPE], [POTATO]], DECK3, first=0, discard=[RAINBOW])
    apply_all(state, [PlayFive(), ChooseFive(ATTACK), ChooseFive(SKIP), ChooseFive(FAVOR),
                      ChooseFive(NOPE), ChooseFive(TACO)], rng)
    run_window(state, rng, [1])
    assert (state.phase, state.to_act, state.turn_holder) == (PLAY, 0, 0)
    assert cards(state, 0) == [DEFUSE, BEARD]
    assert expand(state.discard) == sorted([ATTACK, SKIP, FAVOR, NOPE, NOPE, TACO, RAINBOW])


def test_five_different_needs_five_kinds_besides_defuse() -> None:
    hand = [ATTACK, SKIP, FAVOR, TACO, TACO, DEFUSE]
    state, rng = make([hand, [MELON], [POTATO]], DECK3, first=0)
    assert PlayFive() not in moves(state)
    assert_illegal(state, PlayFive(), rng)
