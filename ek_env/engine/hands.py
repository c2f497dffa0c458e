"""Cards leaving hands (docs/rules/exploding_kittens.md-§4): which copy goes, at random or by choice.

Hands are counts per kind; with the Streaking Kittens expansion some copies are
marked (public), so a card leaving a hand may take a mark with it.
"""

from __future__ import annotations

from cardgym.chance import Chance
from ek_env.engine import knowledge
from ek_env.engine.cards import KITTEN, STREAKING
from ek_env.engine.state import State


def nth_card(counts: list[int], index: int) -> int:
    """The kind of the ``index``-th card of a hand given as counts per kind."""
    for card, count in enumerate(counts):
        if index < count:
            return card
        index -= count
    raise IndexError(f"card {index} of a hand of {sum(counts)}")


def random_kind(state: State, seat: int, rng: Chance) -> int:
    """The kind of a uniformly random card of ``seat``'s hand (the hand is unchanged)."""
    hand = state.hands[seat]
    return nth_card(hand, int(rng.integers(sum(hand))))


def remove_card(state: State, seat: int, card: int, rng: Chance | None,
                marked: bool | None = None) -> bool:
    """One ``card`` leaves ``seat``'s hand. ``marked``: the player chose a marked (True)
    or an unmarked (False) copy (Favor, Garbage Collection); else a marked copy first
    where the copy is public anyway (``rng`` None: a Defuse played, a card named in
    three of a kind), or a random copy among the kind's cards (``rng`` given).
    Returns whether the copy that left was marked."""
    state.hands[seat][card] -= 1
    state.sizes[seat] -= 1
    marks = state.marked[seat]
    if marks[card]:
        if marked is None:
            marked = rng is None or int(rng.integers(state.hands[seat][card] + 1)) < marks[card]
        if marked:
            marks[card] -= 1
            state.marks_total -= 1
            return True
    return False


def remove_random(state: State, seat: int, rng: Chance) -> int:
    """A uniformly random card leaves ``seat``'s (non-empty) hand; returns its kind."""
    return remove_random_copy(state, seat, rng)[0]


def remove_random_copy(state: State, seat: int, rng: Chance) -> tuple[int, bool]:
    """As :func:`remove_random`; returns the kind and whether the copy was marked."""
    hand = state.hands[seat]
    card = nth_card(hand, int(rng.integers(state.sizes[seat])))
    return card, remove_card(state, seat, card, rng)


def discard_from_hand(state: State, seat: int, card: int, count: int) -> None:
    """``count`` cards of ``card`` are played face up from ``seat``'s hand onto the
    discard pile (marked copies first: all are seen)."""
    state.hands[seat][card] -= count
    state.sizes[seat] -= count
    marks = state.marked[seat]
    if marks[card]:
        unmarked = min(count, marks[card])
        marks[card] -= unmarked
        state.marks_total -= unmarked
    state.discard[card] += count
    knowledge.left_publicly(state, seat, card, count)


def streaking_left(state: State, seat: int, card: int) -> bool:
    """``card`` left ``seat``'s hand: a Streaking Kitten leaving a kitten behind makes it
    explode (queued). Returns whether it did."""
    if card == STREAKING and state.hands[seat][KITTEN]:
        state.explode_queue.append(seat)
        return True
    return False
