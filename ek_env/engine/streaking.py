"""Streaking Kittens (docs/rules/exploding_kittens.md, Streaking Kittens): what the expansion's single cards do once their
Nope window lets them happen.

Alter the Future 5x and Swap Top and Bottom are :mod:`ek_env.engine.future`'s, Garbage
Collection :mod:`ek_env.engine.garbage`'s; blind play is :mod:`ek_env.engine.blind`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from cardgym.chance import Chance
from cardgym.record import NONE
from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import (
    ALTER_THE_FUTURE_5X,
    CATOMIC_BOMB,
    CURSE,
    FUTURE_5X_CARDS,
    GARBAGE_COLLECTION,
    KITTEN,
    MARK,
    SEE_THE_FUTURE_5X,
    SUPER_SKIP,
    SWAP_TOP_AND_BOTTOM,
)
from ek_env.engine.future import saw, start_alter, swap_ends
from ek_env.engine.garbage import start_garbage
from ek_env.engine.hands import nth_card
from ek_env.engine.state import State
from ek_env.engine.turns import settle_one

#: What a single card does: (state, the turn holder, the target or NOBODY, rng).
Effect = Callable[[State, int, int, Chance], None]


def _catomic_bomb(state: State, seat: int, target: int, rng: Chance) -> None:
    """The draw pile is shuffled with every kitten on top, for all to see."""
    deck = state.deck
    kittens = deck.count(KITTEN)
    rest = [c for c in deck if c != KITTEN]
    rng.shuffle(rest)
    deck[:] = rest + [KITTEN] * kittens
    knowledge.everyone_sees_top(state, KITTEN, kittens)
    state.log.append(rec.event(seat, rec.BOMB, result=kittens))
    settle_one(state)


def _super_skip(state: State, seat: int, target: int, rng: Chance) -> None:
    """Every turn owed ends without a draw."""
    state.owed = 1
    settle_one(state)


def _see_the_future_5x(state: State, seat: int, target: int, rng: Chance) -> None:
    saw(state, seat, FUTURE_5X_CARDS, rec.SAW)


def _alter_the_future_5x(state: State, seat: int, target: int,
                         rng: Chance) -> None:
    start_alter(state, seat)


def _swap_top_and_bottom(state: State, seat: int, target: int,
                         rng: Chance) -> None:
    swap_ends(state)


def _garbage_collection(state: State, seat: int, target: int, rng: Chance) -> None:
    start_garbage(state, seat, rng)


def _mark(state: State, seat: int, target: int, rng: Chance) -> None:
    """A random card of the target's hand becomes marked (public)."""
    hand = state.hands[target]
    size = sum(hand)
    if not size:
        state.log.append(rec.event(seat, rec.MARK, target, NONE, rec.NOTHING))
        return
    kind = nth_card(hand, int(rng.integers(size)))
    marks = state.marked[target]
    result = rec.ALREADY_MARKED
    if int(rng.integers(hand[kind])) >= marks[kind]:
        marks[kind] += 1
        state.marks_total += 1
        result = rec.DONE
    state.log.append(rec.event(seat, rec.MARK, target, kind, result))


def _curse(state: State, seat: int, target: int, rng: Chance) -> None:
    """The target goes blind."""
    if state.alive[target] and not state.blind[target]:
        state.blind[target] = True
        knowledge.sight_changed(state, target)


#: The expansion's single cards by kind.
EFFECTS: dict[int, Effect] = {
    CATOMIC_BOMB: _catomic_bomb,
    SUPER_SKIP: _super_skip,
    SEE_THE_FUTURE_5X: _see_the_future_5x,
    ALTER_THE_FUTURE_5X: _alter_the_future_5x,
    SWAP_TOP_AND_BOTTOM: _swap_top_and_bottom,
    GARBAGE_COLLECTION: _garbage_collection,
    MARK: _mark,
    CURSE: _curse,
}

