"""Exploding Kittens turn flow and card effects, applied to a state in place.

These functions trust their caller: the move was checked to be legal
(``rules.apply`` checks; the env checks through the action mask). Randomness comes
from the generator argument only.
"""

from __future__ import annotations

import numpy as np

from ek_env import knowledge
from ek_env.cards import (
    ATTACK,
    DEFUSE,
    FAVOR,
    KITTEN,
    NOPE,
    SEE_THE_FUTURE,
    SEE_THE_FUTURE_CARDS,
    SHUFFLE,
    SKIP,
)
from ek_env.state import (
    CHOOSE_FIVE,
    FIVE,
    GAME_OVER,
    GIVE,
    INSERT,
    NAME_CARD,
    NO_PLAY,
    NOBODY,
    NOPE_WINDOW,
    PAIR,
    PLAY,
    SINGLE,
    TAKE,
    THREE,
    State,
)


def next_alive(state: State, seat: int) -> int:
    """The next living seat clockwise after ``seat``."""
    n = state.num_players
    alive = state.alive
    other = (seat + 1) % n
    while not alive[other]:
        other = (other + 1) % n
    return other


# --------------------------------------------------------------- turn flow


def _start_turns(state: State, seat: int, owed: int, attacked: bool) -> None:
    state.current = seat
    state.to_act = seat
    state.owed = owed
    state.attacked = attacked
    state.phase = PLAY
    state.turns_played += 1


def settle_one(state: State) -> None:
    """One owed turn is over (a draw, a Skip, a Defuse); the next player starts when
    none is left."""
    state.owed -= 1
    if state.owed == 0:
        _start_turns(state, next_alive(state, state.current), 1, False)
    else:
        state.phase = PLAY
        state.to_act = state.current
        state.turns_played += 1


def draw(state: State, rng: np.random.Generator) -> None:
    """The turn holder draws the top card: a kitten is defused (then placed) or explodes."""
    del rng  # drawing is deterministic; kept for a uniform signature
    seat = state.current
    card = state.deck.pop()
    knowledge.top_drawn(state, seat, card)
    hand = state.hands[seat]
    if card != KITTEN:
        hand[card] += 1
        settle_one(state)
        return
    if hand[DEFUSE]:
        hand[DEFUSE] -= 1
        state.discard[DEFUSE] += 1
        knowledge.left_publicly(state, seat, DEFUSE)
        state.held_kitten = 1
        state.phase = INSERT
        state.to_act = seat
        return
    explode(state, seat)


def explode(state: State, seat: int) -> None:
    """``seat`` drew a kitten without a Defuse: it is out; turns it owed vanish."""
    pile = state.discard if state.config.eliminated_cards == "discard" else state.out_of_play
    hand = state.hands[seat]
    for card, count in enumerate(hand):
        if count:
            pile[card] += count
            hand[card] = 0
    pile[KITTEN] += 1
    knowledge.hand_emptied(state, seat)
    state.alive[seat] = False
    state.eliminated.append(seat)
    survivors = [s for s in range(state.num_players) if state.alive[s]]
    if len(survivors) == 1:
        state.winner = survivors[0]
        state.phase = GAME_OVER
        state.to_act = survivors[0]
        return
    _start_turns(state, next_alive(state, seat), 1, False)


def insert(state: State, depth: int) -> None:
    """Put the defused kitten back ``depth`` cards from the top; settles one owed turn."""
    deck = state.deck
    deck.insert(len(deck) - depth, KITTEN)
    state.held_kitten = 0
    knowledge.inserted(state, state.current, KITTEN, depth)
    settle_one(state)


# ------------------------------------------------------------------- plays


def _announce(state: State, kind: int, card: int, target: int) -> None:
    state.pending_kind = kind
    state.pending_card = card
    state.pending_target = target
    state.pending_named = NOBODY
    state.nopes = 0


def _discard_from_hand(state: State, seat: int, card: int, count: int) -> None:
    state.hands[seat][card] -= count
    state.discard[card] += count
    knowledge.left_publicly(state, seat, card, count)


def open_window(state: State, opener: int) -> None:
    """Every living seat is asked in turn, clockwise after ``opener`` and ``opener``
    last: being asked depends on nobody's cards (RULES.md §1)."""
    state.phase = NOPE_WINDOW
    state.window_last = opener
    state.to_act = next_alive(state, opener)


def play_card(state: State, card: int, target: int | None) -> None:
    """Play one action card (Favor with its target) and open the Nope window."""
    seat = state.current
    _discard_from_hand(state, seat, card, 1)
    _announce(state, SINGLE, card, NOBODY if target is None else target)
    open_window(state, seat)


def play_pair(state: State, card: int, target: int) -> None:
    seat = state.current
    _discard_from_hand(state, seat, card, 2)
    _announce(state, PAIR, card, target)
    open_window(state, seat)


def play_three(state: State, card: int, target: int) -> None:
    """Three of a kind: the cards go down; the card asked for is named next."""
    seat = state.current
    _discard_from_hand(state, seat, card, 3)
    _announce(state, THREE, card, target)
    state.phase = NAME_CARD


def name_card(state: State, card: int) -> None:
    state.pending_named = card
    open_window(state, state.current)


def play_five(state: State) -> None:
    """Five different: the kinds are chosen next, one at a time in ascending order."""
    _announce(state, FIVE, NOBODY, NOBODY)
    state.pending_five = []
    state.phase = CHOOSE_FIVE


def choose_five(state: State, card: int) -> None:
    seat = state.current
    state.pending_five.append(card)
    _discard_from_hand(state, seat, card, 1)
    if len(state.pending_five) == 5:
        open_window(state, seat)


def respond(state: State, nope: bool, rng: np.random.Generator) -> None:
    """The seat asked in a Nope window Nopes or passes; after a full round of passes
    the pending play resolves if the number of Nopes is even."""
    seat = state.to_act
    if nope:
        _discard_from_hand(state, seat, NOPE, 1)
        state.nopes += 1
        open_window(state, seat)
        return
    if seat != state.window_last:
        state.to_act = next_alive(state, seat)
        return
    _resolve(state, rng)


def _resolve(state: State, rng: np.random.Generator) -> None:
    kind, card, target = state.pending_kind, state.pending_card, state.pending_target
    named, succeeded = state.pending_named, state.nopes % 2 == 0
    state.pending_kind = NO_PLAY
    state.pending_card = state.pending_target = state.pending_named = NOBODY
    state.pending_five = []
    state.nopes = 0
    state.window_last = NOBODY
    state.phase = PLAY
    state.to_act = state.current
    if not succeeded:
        return
    seat = state.current
    if kind == SINGLE:
        if card == ATTACK:
            stack = state.config.attack_stacking == "stack" and state.attacked
            _start_turns(state, next_alive(state, seat), state.owed + 2 if stack else 2, True)
        elif card == SKIP:
            settle_one(state)
        elif card == FAVOR:
            if any(state.hands[target]):
                state.phase = GIVE
                state.to_act = target
        elif card == SHUFFLE:
            rng.shuffle(state.deck)
            knowledge.deck_shuffled(state)
        elif card == SEE_THE_FUTURE:
            knowledge.saw_top(state, seat, SEE_THE_FUTURE_CARDS)
    elif kind == PAIR:
        steal_random(state, target, seat, rng)
    elif kind == THREE:
        if state.hands[target][named]:
            state.hands[target][named] -= 1
            state.hands[seat][named] += 1
            knowledge.moved_publicly(state, target, seat, named)
    elif kind == FIVE:
        if any(state.discard[c] for c in range(len(state.discard)) if c != KITTEN):
            state.phase = TAKE


def steal_random(state: State, target: int, thief: int, rng: np.random.Generator) -> None:
    """A random card of ``target``'s hand goes to ``thief``; both see which."""
    hand = state.hands[target]
    size = sum(hand)
    if not size:
        return
    card = nth_card(hand, int(rng.integers(size)))
    hand[card] -= 1
    state.hands[thief][card] += 1
    knowledge.moved_privately(state, target, thief, card)


def nth_card(counts: list[int], index: int) -> int:
    """The kind of the ``index``-th card of a hand given as counts per kind."""
    for card, count in enumerate(counts):
        if index < count:
            return card
        index -= count
    raise IndexError(f"card {index} of a hand of {sum(counts)}")


def give(state: State, card: int) -> None:
    """Favor: the seat to act gives ``card`` to the turn holder."""
    giver, receiver = state.to_act, state.current
    state.hands[giver][card] -= 1
    state.hands[receiver][card] += 1
    knowledge.moved_privately(state, giver, receiver, card)
    state.phase = PLAY
    state.to_act = receiver


def take(state: State, card: int) -> None:
    """Five different: the turn holder takes ``card`` from the discard pile."""
    seat = state.current
    state.discard[card] -= 1
    state.hands[seat][card] += 1
    knowledge.arrived_publicly(state, seat, card)
    state.phase = PLAY
    state.to_act = seat
