"""What one seat may know of a Power Hungry Pets state (docs/rules/README.md).

:class:`PlayerView` is the only way the encoder and the renderer's seat view read a
state: everything it returns is public or known to its seat. Hidden cards appear
only through ``known`` bits, which the engine keeps per seat.
"""

from __future__ import annotations

from cardgym.state import PublicMemo
from phpets_env.engine.cards import CARD_VALUES
from phpets_env.engine.events import PUBLIC_BY_ID, TURN_DRAW, PublicPart, public_part
from phpets_env.engine.state import NO_CARD, Config, State


class PlayerView(PublicMemo):
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
    def to_act(self) -> int:
        """The seat that decides now."""
        return self._state.to_act

    @property
    def phase(self) -> int:
        return self._state.phase

    @property
    def round_start(self) -> int:
        return self._state.round_start

    @property
    def round_number(self) -> int:
        return self._state.round_number

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def aside_present(self) -> bool:
        """Whether the face-down set-aside card is still set aside."""
        return self._state.aside != NO_CARD

    @property
    def token_supply(self) -> int:
        return self._state.token_supply

    def rows(self) -> list[list[int]]:
        """Values in each seat's row, in play order."""
        return [[CARD_VALUES[c] for c in row] for row in self._state.rows]

    def face_up(self) -> list[int]:
        """Values of the cards set aside face up (two-player game)."""
        return [CARD_VALUES[c] for c in self._state.face_up]

    def hand_sizes(self) -> list[int]:
        return [len(hand) for hand in self._state.hands]

    @property
    def round_winners(self) -> tuple[int, ...]:
        return self._state.round_winners

    @property
    def match_winners(self) -> tuple[int, ...]:
        return self._state.match_winners

    @property
    def ruled_out_masks(self) -> list[int]:
        """Per seat, bit mask of the values the table knows it does not hold (public)."""
        return self._state.ruled_out

    def memo_stamp(self) -> int:
        """The length of the record: every move adds to it (and drops ``State.memo``;
        code that edits a state by hand calls :meth:`State.touch`)."""
        return len(self._state.log)

    # The public record ----------------------------------------------------

    def recent_public(self, count: int) -> list[PublicPart]:
        """The public part of the last ``count`` events but the draws that start turns
        (``TURN_DRAW``), newest first: what every seat saw (the encoder's fast path; no
        secret is reachable from it)."""
        state = self._state
        log, public, seen = state.log, state.public_log, state.public_seen
        if public is None or seen is None or seen > len(log):
            public, seen = state.public_log, state.public_seen = [], 0
        if seen < len(log):  # the log only grows: add the new events' parts
            new = log[seen:]
            parts = list(map(PUBLIC_BY_ID.get, map(id, new)))
            if None in parts:  # an event not made by the engine (a test's, say)
                parts = [public_part(event) for event in new]
            public.extend([part for part in parts if part.what != TURN_DRAW])  # type: ignore[union-attr, misc]
            state.public_seen = len(log)
        return public[:-count - 1:-1]

    # What this seat knows -------------------------------------------------

    def my_hand(self) -> list[int]:
        """Values in the seat's own hand."""
        return [CARD_VALUES[c] for c in self._state.hands[self.seat]]

    def known_hand(self, other: int) -> list[int]:
        """Values this seat knows to be in ``other``'s hand."""
        known = self._state.known[self.seat]
        return [CARD_VALUES[c] for c in self._state.hands[other] if known >> c & 1]

    def known_deck(self) -> list[tuple[int, int]]:
        """``(depth, value)`` of deck cards whose place this seat knows (0 = top)."""
        state = self._state
        known = state.known[self.seat]
        deck = state.deck
        top = len(deck) - 1
        return [(top - i, CARD_VALUES[c]) for i, c in enumerate(deck) if known >> c & 1]

    def known_aside(self) -> int | None:
        """Value of the face-down set-aside card if this seat knows it."""
        aside = self._state.aside
        if aside != NO_CARD and self._state.known[self.seat] >> aside & 1:
            return CARD_VALUES[aside]
        return None

    def pending_card(self) -> int | None:
        """Value of the card this seat holds out during its Mouse Trapper placement."""
        state = self._state
        if state.pending != NO_CARD and state.to_act == self.seat:
            return CARD_VALUES[state.pending]
        return None

    # Fast accessors for the encoder -------------------------------------------
    # They return the state's own lists of public flags and card ids (or of the
    # seat's own cards), not copies: callers must not modify them.

    def table_facts(self) -> tuple[int, int, int, list[bool], list[bool], list[int],
                                   list[list[int]], list[int], list[int], int, bool]:
        """The public facts the encoder lays out once per state, in one call (the
        lists are the state's own, for speed: read them, never change them): phase,
        seat to act, the round's start seat, in-round, protected and token flags per
        seat, card ids in each row, card ids set aside face up, ruled-out value masks
        per seat, cards in the draw pile, and whether the face-down set-aside card is
        there."""
        s = self._state
        return (s.phase, s.to_act, s.round_start, s.in_round, s.protected, s.tokens,
                s.rows, s.face_up, s.ruled_out, len(s.deck), s.aside != NO_CARD)

    @property
    def in_round_flags(self) -> list[bool]:
        return self._state.in_round

    @property
    def protected_flags(self) -> list[bool]:
        return self._state.protected

    @property
    def token_counts(self) -> list[int]:
        return self._state.tokens

    @property
    def row_ids(self) -> list[list[int]]:
        """Card ids in each row (public)."""
        return self._state.rows

    @property
    def face_up_ids(self) -> list[int]:
        """Card ids set aside face up (public)."""
        return self._state.face_up

    @property
    def my_hand_ids(self) -> list[int]:
        """Card ids in the seat's own hand."""
        return self._state.hands[self.seat]

    def known_hand_ids(self, other: int) -> list[int]:
        """Ids of the cards in ``other``'s hand whose place this seat knows."""
        known = self._state.known[self.seat]
        return [c for c in self._state.hands[other] if known >> c & 1]

    def known_opponent_ids(self) -> list[list[int]]:
        """:meth:`known_hand_ids` of every other seat, clockwise from the next one."""
        state, seat = self._state, self.seat
        known = state.known[seat]
        hands = state.hands
        return [[c for c in hand if known >> c & 1] for hand in hands[seat + 1:] + hands[:seat]]

    @property
    def watches_deck(self) -> bool:
        """Whether the seat may know a position in the pile (else :meth:`known_deck` is empty)."""
        return bool(self._state.deck_watchers >> self.seat & 1)
