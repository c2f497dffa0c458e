"""Which seats come next and which may be chosen (docs/rules/exploding_kittens.md).

Targets are kept as bit masks over seat offsets clockwise from the turn holder (bit
``k`` for the seat ``k`` places on), the form the action table uses.
"""

from __future__ import annotations

from ek_env.engine.cards import CURSE
from ek_env.engine.state import State


def next_alive(state: State, seat: int) -> int:
    """The next living seat clockwise after ``seat``."""
    n = state.num_players
    alive = state.alive
    other = (seat + 1) % n
    while not alive[other]:
        other = (other + 1) % n
    return other


def target_offsets(state: State, need_cards: bool) -> int:
    """Seats the turn holder may choose, as a bit mask over offsets 1..n-1 clockwise:
    living others, with cards in hand if ``need_cards``."""
    n = state.num_players
    seat = state.turn_holder
    alive, sizes = state.alive, state.sizes
    mask = 0
    for offset in range(1, n):
        other = (seat + offset) % n
        if alive[other] and (not need_cards or sizes[other]):
            mask |= 1 << offset
    return mask


def valid_offsets(state: State, card: int) -> int:
    """Seats a blind player's turned-up targeted ``card`` may aim at, as
    :func:`target_offsets`' bit mask: living others, with cards for Favor and Mark
    when ``empty_hand_target`` is ``"forbidden"``."""
    return target_offsets(state, card != CURSE and state.config.empty_hand_target == "forbidden")
