"""The turn holder's plays (docs/rules/exploding_kittens.md): single cards, pairs, three of a kind with its
named card, and five different with its kinds, each announced before its Nope
window opens."""

from __future__ import annotations

from cardgym.record import NONE
from ek_env.engine import record as rec
from ek_env.engine.hands import discard_from_hand
from ek_env.engine.state import (
    CHOOSE_FIVE,
    FIVE,
    NAME_CARD,
    NO_CARD,
    NOBODY,
    PAIR,
    SINGLE,
    THREE,
    State,
)
from ek_env.engine.turns import announce, open_window


def play_card(state: State, card: int, target: int | None) -> None:
    """Play one action card (Favor, Mark, Curse with a target) and open the Nope window."""
    seat = state.turn_holder
    discard_from_hand(state, seat, card, 1)
    announce(state, SINGLE, card, NOBODY if target is None else target)
    state.log.append(rec.event(seat, rec.PLAY, NONE if target is None else target, card))
    open_window(state, seat)


def play_pair(state: State, card: int, target: int) -> None:
    """Two of a kind against ``target``: a random card of its hand, if the play stands."""
    seat = state.turn_holder
    discard_from_hand(state, seat, card, 2)
    announce(state, PAIR, card, target)
    state.log.append(rec.event(seat, rec.PAIR, target, card))
    open_window(state, seat)


def play_three(state: State, card: int, target: int) -> None:
    """Three of a kind: the cards go down; the card asked for is named next."""
    seat = state.turn_holder
    discard_from_hand(state, seat, card, 3)
    announce(state, THREE, card, target)
    state.log.append(rec.event(seat, rec.THREE, target, card))
    state.phase = NAME_CARD


def name_card(state: State, card: int) -> None:
    """Three of a kind: the card asked for is named; the Nope window opens."""
    state.pending_named = card
    state.log.append(rec.event(state.turn_holder, rec.NAME, state.pending_target, card))
    open_window(state, state.turn_holder)


def play_five(state: State) -> None:
    """Five different: the kinds are chosen next, one at a time in ascending order."""
    announce(state, FIVE, NO_CARD, NOBODY)
    state.pending_five = []
    state.phase = CHOOSE_FIVE


def choose_five(state: State, card: int) -> None:
    """Five different: one more kind goes down; after the fifth the window opens."""
    seat = state.turn_holder
    state.pending_five.append(card)
    discard_from_hand(state, seat, card, 1)
    state.log.append(rec.event(seat, rec.FIVE, card=card))
    if len(state.pending_five) == 5:
        open_window(state, seat)
