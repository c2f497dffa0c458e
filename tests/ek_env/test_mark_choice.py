"""Issue 16, finding 1: which copy of a kind leaves a hand is the player's choice
(docs/rules/README.md, §4).

With Streaking Kittens a Mark makes one card of a hand visible to all. A player who
gives a card to a Favor, or puts one into the draw pile with Garbage Collection,
chooses one physical card: where they hold a marked and an unmarked copy of a kind,
giving the marked one and giving an unmarked one are different actions
(``give:attack:marked`` and ``give:attack``), so that the other seats learn exactly
what the table shows: the mark leaving, or not.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ek_env import rules
from ek_env.encoding.encoding import STREAKING as STREAKING_LAYOUT
from ek_env.engine.state import GARBAGE, GIVE, Garbage, Give, PlayCard
from tests.ek_env.helpers import ATTACK, FAVOR, KITTEN, MELON, NOPE, SKIP, TACO, apply, cards
from tests.ek_env.streaking_helpers import (
    GC,
    act,
    fields,
    legal_names,
    marked,
    pass_env_window,
    play_and_pass,
    senv,
    smake,
)

# Seat 1 holds Attack, Attack (one of them marked) and Skip.
HANDS = [["favor", "garbage_collection", "taco_cat"], ["attack", "attack", "skip"],
         ["nope", "cattermelon"]]
DECK = ["taco_cat", "exploding_kitten", "beard_cat", "exploding_kitten"]
MARKED = [[], ["attack"], []]


def _after(opening: str, choice: str) -> Any:
    """The env after seat 0 plays ``opening`` at seat 1 (Favor) or for everyone
    (Garbage Collection), everyone passes, and seat 1 chooses ``choice``."""
    game = senv(HANDS, DECK, first=0, marked_cards=MARKED)
    act(game, opening)
    pass_env_window(game)
    if opening == "play:garbage_collection":
        act(game, "garbage:taco_cat")  # seat 0 puts in first
    assert game.game_state.to_act == 1
    act(game, choice)
    return game


def _differences(a: Any, b: Any, seat: int) -> list[str]:
    fa, fb = fields(a, seat), fields(b, seat)
    return [name for name in fa if not np.array_equal(fa[name], fb[name])]


@pytest.mark.parametrize(("opening", "prefix"), [("play:favor:+1", "give"),
                                                   ("play:garbage_collection", "garbage")])
def test_the_reproduction_a_third_seat_cannot_tell_which_unmarked_card_left(
        opening: str, prefix: str) -> None:
    """The issue's reproduction: seat 2's observation after ``give:attack`` equals the
    one after ``give:skip`` (the same for Garbage Collection)."""
    attack = _after(opening, f"{prefix}:attack")
    skip = _after(opening, f"{prefix}:skip")
    assert _differences(attack, skip, 2) == []
    assert marked(attack.game_state, 1) == [ATTACK]  # the unmarked Attack left


@pytest.mark.parametrize(("opening", "prefix"), [("play:favor:+1", "give"),
                                                   ("play:garbage_collection", "garbage")])
def test_giving_the_marked_copy_is_its_own_action_and_everyone_sees_it(
        opening: str, prefix: str) -> None:
    marked_game = _after(opening, f"{prefix}:attack:marked")
    plain = _after(opening, f"{prefix}:attack")
    assert marked(marked_game.game_state, 1) == []
    assert cards(marked_game.game_state, 1) == cards(plain.game_state, 1)
    assert "marked" in _differences(marked_game, plain, 2)


@pytest.mark.parametrize(("opening", "prefix"), [("play:favor:+1", "give"),
                                                   ("play:garbage_collection", "garbage")])
def test_the_mask_offers_the_copies_held(opening: str, prefix: str) -> None:
    game = senv(HANDS, DECK, first=0, marked_cards=MARKED)
    act(game, opening)
    pass_env_window(game)
    if opening == "play:garbage_collection":
        act(game, "garbage:taco_cat")
    assert legal_names(game) == {f"{prefix}:attack", f"{prefix}:attack:marked", f"{prefix}:skip"}


@pytest.mark.parametrize(("hand", "marks", "expected"), [
    ([SKIP], [SKIP], [Give(SKIP, marked=True)]),  # only a marked copy: no unmarked choice
    ([SKIP, SKIP], [SKIP, SKIP], [Give(SKIP, marked=True)]),
    ([SKIP, SKIP], [SKIP], [Give(SKIP), Give(SKIP, marked=True)]),
    ([SKIP, TACO], [], [Give(SKIP), Give(TACO)]),
])
def test_give_moves_follow_the_marked_and_unmarked_copies(
        hand: list[int], marks: list[int], expected: list[Give]) -> None:
    state, rng = smake([[FAVOR], hand, [NOPE]], [KITTEN, MELON, KITTEN], first=0,
                       marked=[[], marks, []])
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    assert state.phase == GIVE
    assert rules.legal_moves(state) == expected
    mask = STREAKING_LAYOUT.legal_indices(state)
    assert sorted(mask) == sorted(STREAKING_LAYOUT.move_to_action(state, m) for m in expected)
    for move in expected:
        index = STREAKING_LAYOUT.move_to_action(state, move)
        assert STREAKING_LAYOUT.action_to_move(state, index) == move


def test_a_marked_give_keeps_the_unmarked_copy_and_the_plain_give_keeps_the_mark() -> None:
    for move, left_marked in ((Give(SKIP, marked=True), []), (Give(SKIP), [SKIP])):
        state, rng = smake([[FAVOR], [SKIP, SKIP], [NOPE]], [KITTEN, MELON, KITTEN], first=0,
                           marked=[[], [SKIP], []])
        play_and_pass(state, rng, PlayCard(FAVOR, 1))
        apply(state, move, rng)
        assert cards(state, 1) == [SKIP] and marked(state, 1) == left_marked
        assert marked(state, 0) == []  # a card is never marked at its new owner


def test_a_garbage_put_in_may_choose_the_marked_copy() -> None:
    state, rng = smake([[GC, TACO], [SKIP, SKIP], [MELON]], [KITTEN, KITTEN, KITTEN], first=0,
                       marked=[[], [SKIP], []])
    play_and_pass(state, rng, PlayCard(GC))
    apply(state, Garbage(TACO), rng)
    assert state.phase == GARBAGE and state.to_act == 1
    assert rules.legal_moves(state) == [Garbage(SKIP), Garbage(SKIP, marked=True)]
    apply(state, Garbage(SKIP, marked=True), rng)
    assert marked(state, 1) == [] and cards(state, 1) == [SKIP]


def test_a_blind_players_random_give_still_takes_a_marked_copy_at_its_share() -> None:
    """A blind target's card is random among its physical cards: a marked copy leaves
    as often as its share of the kind (here 1 of 2 Skips)."""
    kept_mark = 0
    for seed in range(40):
        state, rng = smake([[FAVOR], [SKIP, SKIP], [NOPE]], [KITTEN, MELON, KITTEN], first=0,
                           marked=[[], [SKIP], []], blind=[1], seed=seed)
        play_and_pass(state, rng, PlayCard(FAVOR, 1))
        assert cards(state, 1) == [SKIP]
        kept_mark += marked(state, 1) == [SKIP]
    assert 8 <= kept_mark <= 32
