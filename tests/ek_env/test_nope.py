"""Nope and the Nope window (docs/rules/exploding_kittens.md "Nope", §1; ek_env.env docstring).

Every living player is asked in turn, clockwise after the one who played (who is
asked last); a Nope opens a new window clockwise after the Noper; the play happens
after a whole window of passes iff the number of Nopes is even.
"""

from __future__ import annotations

import pytest

from ek_env.engine.state import (
    GIVE,
    INSERT,
    NOPE_WINDOW,
    PLAY,
    ChooseFive,
    Draw,
    Insert,
    NameCard,
    Nope,
    Pass,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
)
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
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
    make,
    moves,
    pass_window,
    run_window,
)

DECK3 = [TACO, BEARD, KITTEN, KITTEN]  # top first; 3 players
HANDS3 = [[SKIP, NOPE, NOPE], [NOPE], [NOPE, NOPE]]

# (nopers in order, the seats asked in order, does the Skip happen?)
CHAINS = [
    ("no nope", [], [1, 2, 0], True),
    ("chain of 1", [1], [1, 2, 0, 1], False),
    ("chain of 2", [1, 0], [1, 2, 0, 1, 2, 0], True),
    ("chain of 3", [1, 0, 2], [1, 2, 0, 1, 2, 0, 1, 2], False),
    ("second noper after the first", [1, 2], [1, 2, 0, 1, 2], True),
    ("own play noped", [0], [1, 2, 0, 1, 2, 0], False),
    ("chain of 4", [2, 1, 0, 2], [1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], True),
]


@pytest.mark.parametrize(("nopers", "asked", "happens"), [c[1:] for c in CHAINS],
                         ids=[c[0] for c in CHAINS])
def test_nope_chain(nopers: list[int], asked: list[int], happens: bool) -> None:
    state, rng = make(HANDS3, DECK3, first=0)
    apply(state, PlayCard(SKIP), rng)
    assert run_window(state, rng, nopers) == asked
    assert state.phase == PLAY
    if happens:
        assert (state.turn_holder, state.owed) == (1, 1)
    else:
        assert (state.turn_holder, state.to_act, state.owed) == (0, 0, 1)
    # The Skip and every Nope stay in the discard pile either way.
    assert state.discard[SKIP] == 1 and state.discard[NOPE] == len(nopers)
    assert sum(sum(hand) for hand in state.hands) == 6 - 1 - len(nopers)
    assert state.nopes == 0 and state.pending_kind == 0


def test_window_state_while_open() -> None:
    state, rng = make(HANDS3, DECK3, first=0)
    apply(state, PlayCard(SKIP), rng)
    assert (state.phase, state.to_act, state.window_last, state.nopes) == (NOPE_WINDOW, 1, 0, 0)
    assert state.turn_holder == 0
    apply(state, Nope(), rng)
    assert (state.to_act, state.window_last, state.nopes) == (2, 1, 1)
    assert cards(state, 1) == []
    assert_illegal(state, Draw(), rng)
    assert_illegal(state, PlayCard(SKIP), rng)


def test_everyone_is_asked_but_only_holders_may_nope() -> None:
    state, rng = make([[SKIP], [TACO], [NOPE], [BEARD]], [MELON, KITTEN, KITTEN, KITTEN],
                      first=0)
    apply(state, PlayCard(SKIP), rng)
    assert state.to_act == 1 and moves(state) == [Pass()]
    assert_illegal(state, Nope(), rng)
    apply(state, Pass(), rng)
    assert state.to_act == 2 and moves(state) == [Nope(), Pass()]
    apply(state, Pass(), rng)
    assert state.to_act == 3 and moves(state) == [Pass()]
    apply(state, Pass(), rng)
    assert state.to_act == 0 and moves(state) == [Pass()]  # the player, asked last
    apply(state, Pass(), rng)
    assert state.turn_holder == 1


def test_window_skips_exploded_seats() -> None:
    state, rng = make([[NOPE], [TACO], [BEARD], [SKIP, NOPE]],
                      [MELON, KITTEN, POTATO, KITTEN, KITTEN], first=1)
    apply(state, Draw(), rng)  # seat 1 draws melon
    apply(state, Draw(), rng)  # seat 2 explodes
    assert state.alive == [True, True, False, True] and state.turn_holder == 3
    apply(state, PlayCard(SKIP), rng)
    assert run_window(state, rng, [0]) == [0, 1, 3, 0]
    assert (state.turn_holder, state.owed) == (3, 1)  # Noped: still seat 3's turn


def test_nope_cannot_touch_a_defuse_or_a_kitten() -> None:
    state, rng = make([[DEFUSE], [NOPE, NOPE], [NOPE]], [KITTEN, TACO, KITTEN], first=0)
    apply(state, Draw(), rng)
    # No window: the drawer places the kitten at once; nobody else is asked.
    assert (state.phase, state.to_act) == (INSERT, 0)
    assert Nope() not in moves(state)
    assert_illegal(state, Nope(), rng)
    apply(state, Insert(0), rng)
    assert (state.phase, state.turn_holder) == (PLAY, 1)
    assert cards(state, 1) == [NOPE, NOPE] and cards(state, 2) == [NOPE]


def test_an_explosion_cannot_be_noped() -> None:
    state, rng = make([[SKIP], [NOPE], [NOPE]], [KITTEN, TACO, KITTEN], first=0)
    apply(state, Draw(), rng)
    assert state.alive == [False, True, True]
    assert (state.phase, state.to_act) == (PLAY, 1)


def test_noped_attack_leaves_the_attackers_turn_running() -> None:
    state, rng = make([[ATTACK, TACO], [NOPE], [SKIP]], DECK3, first=0, owed=2,
                      attack_stacking="stack")
    apply(state, PlayCard(ATTACK), rng)
    run_window(state, rng, [1])
    assert (state.turn_holder, state.to_act, state.owed, state.attacked) == (0, 0, 2, True)
    assert state.phase == PLAY
    assert state.discard[ATTACK] == 1 and state.discard[NOPE] == 1
    assert cards(state, 0) == [TACO]
    apply(state, Draw(), rng)
    assert (state.turn_holder, state.owed) == (0, 1)


def test_noped_attack_on_a_normal_turn() -> None:
    state, rng = make([[ATTACK], [NOPE], [SKIP]], DECK3, first=0)
    apply(state, PlayCard(ATTACK), rng)
    run_window(state, rng, [1])
    assert (state.turn_holder, state.owed, state.attacked) == (0, 1, False)


def test_noped_nope_lets_the_attack_through() -> None:
    state, rng = make([[ATTACK, NOPE], [NOPE], [SKIP]], DECK3, first=0)
    apply(state, PlayCard(ATTACK), rng)
    run_window(state, rng, [1, 0])
    assert (state.turn_holder, state.owed, state.attacked) == (1, 2, True)


# Every Nope-able play, Noped once by seat 1: nothing happens, its cards stay discarded.
NOPED_PLAYS = [
    ("favor", [FAVOR], [PlayCard(FAVOR, 2)], {FAVOR: 1}),
    ("shuffle", [SHUFFLE], [PlayCard(SHUFFLE)], {SHUFFLE: 1}),
    ("see the future", [FUTURE], [PlayCard(FUTURE)], {FUTURE: 1}),
    ("cat pair", [TACO, TACO], [PlayPair(TACO, 2)], {TACO: 2}),
    ("two of a kind", [SKIP, SKIP], [PlayPair(SKIP, 2)], {SKIP: 2}),
    ("three of a kind", [MELON] * 3, [PlayThree(MELON, 2), NameCard(BEARD)], {MELON: 3}),
    ("five different", [ATTACK, SKIP, FAVOR, SHUFFLE, TACO],
     [PlayFive(), ChooseFive(ATTACK), ChooseFive(SKIP), ChooseFive(FAVOR), ChooseFive(SHUFFLE),
      ChooseFive(TACO)], {ATTACK: 1, SKIP: 1, FAVOR: 1, SHUFFLE: 1, TACO: 1}),
]


@pytest.mark.parametrize(("hand", "plays", "discarded"), [c[1:] for c in NOPED_PLAYS],
                         ids=[c[0] for c in NOPED_PLAYS])
def test_noped_play_does_nothing(hand: list[int], plays: list, discarded: dict) -> None:
    deck = [POTATO, RAINBOW, BEARD, KITTEN, FUTURE, SKIP, KITTEN]
    state, rng = make([hand, [NOPE], [BEARD, DEFUSE]], deck, first=0, discard=[POTATO])
    apply_all(state, plays, rng)
    assert state.phase == NOPE_WINDOW
    run_window(state, rng, [1])
    assert (state.phase, state.turn_holder, state.to_act, state.owed) == (PLAY, 0, 0, 1)
    assert cards(state, 0) == [] and cards(state, 2) == [DEFUSE, BEARD]
    assert [c for c in reversed(state.deck)] == deck
    assert state.known_deck[0] == []
    expected = {POTATO: 1, NOPE: 1, **{k: v + (k == POTATO) for k, v in discarded.items()}}
    assert {k: c for k, c in enumerate(state.discard) if c} == expected


def test_nope_pair_is_a_combo_not_a_nope() -> None:
    # A pair of Nopes steals (with combos); it opens its own window.
    state, rng = make([[NOPE, NOPE], [BEARD], [SKIP]], DECK3, first=0)
    assert PlayPair(NOPE, 1) in moves(state)
    apply(state, PlayPair(NOPE, 1), rng)
    pass_window(state, rng)
    assert cards(state, 0) == [BEARD] and state.discard[NOPE] == 2


def test_favor_target_asked_in_the_window_then_gives() -> None:
    state, rng = make([[FAVOR], [SKIP, NOPE], [BEARD]], DECK3, first=0)
    apply(state, PlayCard(FAVOR, 1), rng)
    assert pass_window(state, rng) == [1, 2, 0]
    assert (state.phase, state.to_act) == (GIVE, 1)
