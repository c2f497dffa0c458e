"""What one seat may know of a Karel Kakelaar state (docs/rules/README.md).

:class:`PlayerView` is the only way the encoder and the renderer's seat view read a
state. Public: the row, every hand (each card enters and leaves a hand face up: the
chickens dealt, the row cards won, the bids revealed, the mother hens played and the
cards taken back from a face-up discard pile), every discard pile, the tractor, the
bids of the last resolved round, the multiset of the robot's remaining cards and of
the cards not yet seen, and the public record (:mod:`kakelaar_env.display.record`): who
committed when, every reveal, row card taken, mother hen and card taken back. Hidden:
the order of the draw pile, which cards were removed unseen, the order of the robot
deck, and what the other seats have committed in the current stage before it
resolves (the secrets of their face-down events).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgym.record import NONE, Event, events_as_seen_by
from cardgym.state import PublicMemo
from kakelaar_env.engine.cards import CHICKEN_TYPES, WORM_VALUE

if TYPE_CHECKING:
    from kakelaar_env.engine.state import Config, State

__all__ = ["NONE", "PlayerView"]


class PlayerView(PublicMemo):
    """Read-only view of a state from one seat.

    The list-returning accessors hand out the state's own lists of public facts
    (no copies, for speed): callers must not modify them.

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
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> int:
        return self._state.phase

    @property
    def current(self) -> int:
        """Seat to act (the commit order of a stage is public)."""
        return self._state.current

    @property
    def asked(self) -> list[int]:
        """Seats with a decision in this stage, in commit order."""
        return self._state.asked

    @property
    def circle(self) -> tuple[int, ...]:
        """Participants clockwise (with two players the robot is participant 2)."""
        return self._state.circle

    @property
    def tractor_index(self) -> int:
        """Position of the tractor holder in :attr:`circle`."""
        return self._state.tractor

    @property
    def tractor_holder(self) -> int:
        return self._state.circle[self._state.tractor]

    @property
    def version(self) -> int:
        """Counts resolutions: public facts change only when it does."""
        return self._state.version

    def memo_stamp(self) -> int:
        """The version: it changes with every public fact (:meth:`State.touch`)."""
        return self._state.version

    @property
    def row(self) -> list[int]:
        """Card types in the row, position 1 first."""
        return self._state.row

    @property
    def hands(self) -> list[bytearray]:
        """Count of each card type in each seat's hand (a committed bid stays in it
        until the reveal)."""
        return self._state.hands

    @property
    def discards(self) -> list[bytearray]:
        """Count of each biddable card type in each seat's discard pile."""
        return self._state.discards

    @property
    def hen_played(self) -> list[bool]:
        """Seats that played a mother hen in this mother-hen step (once revealed)."""
        return self._state.hen_played

    @property
    def last_bids(self) -> list[int]:
        """Card type each participant bid in the last resolved round (NONE: no bid)."""
        return self._state.last_bids

    @property
    def draw_pile_size(self) -> int:
        return len(self._state.deck)

    @property
    def winners(self) -> tuple[int, ...]:
        return self._state.winners

    def hand_sizes(self) -> list[int]:
        return [sum(hand) for hand in self._state.hands]

    def scores(self) -> list[int]:
        """Worm total in each seat's hand."""
        return [sum(c * v for c, v in zip(hand, WORM_VALUE, strict=True))
                for hand in self._state.hands]

    def robot_remaining(self) -> list[int]:
        """Count of chicken_3..chicken_7 left in the robot deck (order hidden)."""
        deck = self._state.robot_deck
        return list(map(deck.count, CHICKEN_TYPES))

    @property
    def unseen(self) -> list[int]:
        """Count of each card type nobody has seen: the draw pile and the cards
        removed unseen together (which of them is where is hidden)."""
        return self._state.unseen

    @property
    def round_digest(self) -> bytes:
        """What the public events of the newest revealed round show (its bids, the row
        cards taken, mother hens, cards taken back), ``DIGEST_WIDTH`` bytes per
        participant, the robot last (:func:`kakelaar_env.engine.digest.round_digest`)."""
        return self._state.round_digest

    # The record as this seat saw it -----------------------------------------

    def events_since(self, start: int) -> list[Event]:
        """The events from index ``start`` of the record on, as this seat saw them."""
        return events_as_seen_by(self._state.log, self.seat, start)

    # What this seat alone knows --------------------------------------------

    @property
    def my_bid(self) -> int:
        """The card type this seat has bid in the current bid stage (NONE: none yet)."""
        return self._state.bids[self.seat]

    @property
    def my_hen_choice(self) -> int:
        """1 if this seat committed to play a mother hen, 0 not to, NONE: not yet."""
        return self._state.hen_choices[self.seat]

    @property
    def my_picks(self) -> list[int]:
        """Card types this seat has chosen to take back (not yet revealed)."""
        return self._state.picks[self.seat]
