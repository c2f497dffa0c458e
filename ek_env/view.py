"""What one seat may know of an Exploding Kittens state (RULES.md §1).

:class:`PlayerView` is the only way the encoder and the renderer's seat view read a
state: everything it returns is public or known to its seat. The draw pile appears
only as its size, its public kitten count, and the depths the seat knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ek_env.cards import NUM_KINDS
from ek_env.knowledge import row
from ek_env.state import UNKNOWN

if TYPE_CHECKING:
    from ek_env.state import Config, State


class PlayerView:
    """Read-only view of a state from one seat.

    Args:
        state: the full state (kept private).
        seat: the observing seat.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    # Public facts -------------------------------------------------------

    @property
    def config(self) -> Config:
        return self._state.config

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def phase(self) -> int:
        return self._state.phase

    @property
    def to_act(self) -> int:
        return self._state.to_act

    @property
    def turn_holder(self) -> int:
        return self._state.current

    @property
    def owed_turns(self) -> int:
        return self._state.owed

    @property
    def attacked(self) -> bool:
        return self._state.attacked

    @property
    def alive(self) -> list[bool]:
        return self._state.alive[:]

    def hand_sizes(self) -> list[int]:
        return [sum(hand) for hand in self._state.hands]

    @property
    def discard(self) -> list[int]:
        return self._state.discard[:]

    @property
    def out_of_play(self) -> list[int]:
        return self._state.out_of_play[:]

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def kittens_in_deck(self) -> int:
        """Public: one fewer than the players alive, less a kitten being put back."""
        state = self._state
        return sum(state.alive) - 1 - state.held_kitten

    @property
    def pending(self) -> tuple[int, int, int, int, tuple[int, ...], int, int]:
        """The announced play: (kind, card, target, named card, five kinds, nopes,
        seat whose play or Nope the window answers)."""
        s = self._state
        return (s.pending_kind, s.pending_card, s.pending_target, s.pending_named,
                tuple(s.pending_five), s.nopes, s.window_last)

    @property
    def winner(self) -> int:
        return self._state.winner

    @property
    def eliminated(self) -> list[int]:
        return self._state.eliminated[:]

    # The seat's own knowledge ------------------------------------------

    @property
    def my_hand(self) -> list[int]:
        return self._state.hands[self.seat][:]

    def known_deck(self) -> list[tuple[int, int]]:
        """(depth, card) pairs of the draw pile this seat knows, 0 = top."""
        return [(depth, card) for depth, card in enumerate(self._state.known_deck[self.seat])
                if card != UNKNOWN]

    def known_hands_relative(self) -> list[int]:
        """Lower bounds on every other seat's hand, clockwise from the next seat, as one
        flat list of ``(num_players - 1) * NUM_KINDS`` counts."""
        state, seat = self._state, self.seat
        width = state.num_players * NUM_KINDS
        block = state.known_hands[seat * width : (seat + 1) * width]
        return block[(seat + 1) * NUM_KINDS :] + block[: seat * NUM_KINDS]

    def known_hand(self, other: int) -> list[int]:
        """Lower bounds on the count of each kind in ``other``'s hand."""
        start = row(self._state, self.seat, other)
        return self._state.known_hands[start : start + NUM_KINDS]
