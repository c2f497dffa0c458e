"""Who decides in a Karel Kakelaar stage, and in which order.

Each stage asks the seats with a decision one after the other, the tractor holder
first, then clockwise; ``state.asked`` lists them and ``state.cursor`` points at the
one to commit next. Who has a decision is public (hands are public): a seat with a
biddable card in the bids, a seat with a mother hen in the hen stage, a hen player
whose discard pile holds more than two cards in the take-back stages.
"""

from __future__ import annotations

from kakelaar_env.engine.cards import HEN, NUM_BIDDABLE, ROUNDS
from kakelaar_env.engine.state import Phase, State

_ORDERS: dict[tuple[int, tuple[int, ...], int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def orders(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(participants, seats) clockwise from the tractor holder; seats leave the robot out."""
    key = (state.num_players, state.circle, state.tractor)
    found = _ORDERS.get(key)
    if found is None:
        _, circle, start = key
        k = len(circle)
        participants = tuple(circle[(start + i) % k] for i in range(k))
        seats = tuple(p for p in participants if p != state.robot)
        found = _ORDERS[key] = (participants, seats)
    return found


def order_from_tractor(state: State) -> tuple[int, ...]:
    """Seats clockwise from the tractor holder (the robot left out)."""
    return orders(state)[1]


def can_bid(hand: bytearray) -> bool:
    """Whether a hand holds a card that can be bid (a worm or a chicken)."""
    return hand.count(0, 0, NUM_BIDDABLE) != NUM_BIDDABLE


def must_play_hen(state: State, seat: int) -> bool:
    """Whether ``seat`` must play a mother hen now: only hens in hand, a round to come."""
    hand = state.hands[seat]
    return state.round < ROUNDS and hand[HEN] > 0 and not can_bid(hand)


def open_stage(state: State, phase: Phase, asked: list[int]) -> bool:
    """Begin a stage asking ``asked`` in order; False (nothing begun) if nobody is asked."""
    if not asked:
        return False
    state.phase = phase
    state.asked = asked
    state.cursor = 0
    state.current = asked[0]
    state.touch()
    return True


def advance(state: State) -> bool:
    """Move the cursor on; True when every asked seat has committed."""
    state.cursor += 1
    if state.cursor < len(state.asked):
        state.current = state.asked[state.cursor]
        return False
    return True
