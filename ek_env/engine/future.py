"""The top of the draw pile (docs/rules/exploding_kittens.md-§4): See the Future, Alter the Future 5x and
Swap Top and Bottom.

Looking at cards is recorded with how many were seen, the cards themselves only for
the seat that saw them.
"""

from __future__ import annotations

from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import FUTURE_5X_CARDS
from ek_env.engine.state import ALTER, PLAY, State


def saw(state: State, seat: int, count: int, what: int) -> None:
    """``seat`` looks at the top ``count`` cards (See the Future, Alter the Future);
    the record shows how many, the cards only to ``seat``."""
    deck = state.deck
    count = min(count, len(deck))
    knowledge.saw_top(state, seat, count)
    if what == rec.SAW:
        state.log.append(rec.event(seat, rec.SAW, result=count,
                                   secret=rec.pack(deck[len(deck) - count :][::-1]),
                                   seen_by=1 << seat))


def start_alter(state: State, seat: int) -> None:
    """Alter the Future 5x: ``seat`` sees the top cards; two or more come off the pile
    to be put back one at a time (phase ALTER)."""
    deck = state.deck
    count = min(FUTURE_5X_CARDS, len(deck))
    saw(state, seat, count, rec.ALTERED)
    if count <= 1:  # nothing to reorder
        _altered(state, seat, deck[len(deck) - count :])
        return
    # the cards come off the pile while they are reordered
    state.alter_left = sorted(deck[len(deck) - count :])
    state.alter_placed = []
    del deck[len(deck) - count :]
    knowledge.lifted_top(state, count)
    state.phase = ALTER


def alter(state: State, card: int) -> None:
    """Alter the Future 5x: put a card of kind ``card`` at the next depth, top first;
    the last card goes where it must and the draw pile takes the new order."""
    state.alter_left.remove(card)
    state.alter_placed.append(card)
    if len(state.alter_left) > 1:
        return
    placed = state.alter_placed + state.alter_left
    state.deck += placed[::-1]
    knowledge.altered(state, state.turn_holder, placed)
    _altered(state, state.turn_holder, placed)
    state.alter_left = []
    state.alter_placed = []
    state.phase = PLAY
    state.to_act = state.turn_holder


def _altered(state: State, seat: int, placed: list[int]) -> None:
    """The record of Alter the Future: how many cards; the order (top first) only to
    ``seat``."""
    state.log.append(rec.event(seat, rec.ALTERED, result=len(placed), secret=rec.pack(placed),
                               seen_by=1 << seat))


def swap_ends(state: State) -> None:
    """Swap Top and Bottom: the top and bottom cards change places unseen."""
    deck = state.deck
    if len(deck) > 1:
        deck[0], deck[-1] = deck[-1], deck[0]
        knowledge.swapped_ends(state)
