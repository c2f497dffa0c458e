"""What one seat may know of an Exploding Kittens state (docs/rules/README.md).

:class:`PlayerView` is the only way the encoder and the renderer's seat view read a
state: everything it returns is public or known to its seat. The draw pile appears
only as its size, its public kitten count, and the depths the seat knows.
"""

from __future__ import annotations

from cardgym.state import PublicMemo
from ek_env.engine.cards import KITTEN, MAX_PLAYERS, MIN_PLAYERS, composition
from ek_env.engine.knowledge import row
from ek_env.engine.state import UNKNOWN, Config, State

#: Exploding Kittens in the box with the expansion, by player count.
_KITTENS = {n: composition(n, True)[KITTEN] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}

_NONE: list[int] = []
_NO_MARKS: list[bytearray] = []


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
    def phase(self) -> int:
        return self._state.phase

    @property
    def to_act(self) -> int:
        return self._state.to_act

    @property
    def turn_holder(self) -> int:
        return self._state.turn_holder

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
        return self._state.sizes[:]

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
        """Public: base game, one fewer than the players alive, less a kitten being put
        back; with the expansion, the kittens in play that are not being put back (in
        the draw pile or held in hands: a held kitten is secret)."""
        state = self._state
        if not state.config.streaking:
            return sum(state.alive) - 1 - state.held_kitten
        gone = state.box[KITTEN] + state.discard[KITTEN] + state.out_of_play[KITTEN]
        return _KITTENS[state.num_players] - gone - state.held_kitten

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

    def table_facts(self) -> tuple[int, int, int, list[bool], list[int], int, bool, int,
                                   list[int], list[int]]:
        """The public facts the encoder reads each step, in one call (the lists are the
        state's own, for speed: read them, never change them): phase, seat to act,
        turn holder, seats alive, hand sizes, owed turns, attacked, deck size, discard
        pile, cards out of play."""
        s = self._state
        return (s.phase, s.to_act, s.turn_holder, s.alive, s.sizes, s.owed, s.attacked,
                len(s.deck), s.discard, s.out_of_play)

    def memo_stamp(self) -> int:
        """The length of the record: every move adds to it (and drops ``State.memo``;
        code that edits a state by hand calls :meth:`State.touch`)."""
        return len(self._state.log)

    # The seat's own knowledge ------------------------------------------

    @property
    def my_hand(self) -> list[int]:
        """My hand; while I am blind, only what I know of it: the marked cards and
        those I saw arrive (the larger of the two, kind by kind)."""
        state, seat = self._state, self.seat
        if not state.blind[seat]:
            return state.hands[seat][:]
        start = row(state, seat, seat)
        known = state.known_hands[start : start + state.kinds]
        return [max(a, b) for a, b in zip(known, state.marked[seat], strict=True)]

    # Streaking Kittens: public facts and the seat's own reordering -----------

    def is_blind(self, seat: int) -> bool:
        return self._state.blind[seat]

    @property
    def blind(self) -> list[bool]:
        return self._state.blind[:]

    def marked(self, seat: int) -> list[int]:
        """Counts per kind of ``seat``'s marked cards (public)."""
        return list(self._state.marked[seat])

    def marked_hands(self) -> list[tuple[int, list[int]]]:
        """(seat, marked counts per kind) of every seat with marked cards (public)."""
        return [(seat, list(marks)) for seat, marks in enumerate(self._state.marked)
                if any(marks)]

    def streaking_facts(self) -> tuple[list[bool], list[bytearray], int, list[int], list[int],
                                       list[int], list[int]] | None:
        """The expansion's facts for the encoder in one call (the lists are the
        state's own, for speed: read them, never change them): blindness and marked
        cards per seat (no list when nobody has a marked card), kittens to insert,
        seats exploding next, seats still to put a card in for Garbage Collection, and
        my Alter the Future cards (left, placed). ``None`` when there is none of these
        (nobody blind, no marked card, no kitten held or being put back, no Garbage
        Collection or Alter the Future under way)."""
        state = self._state
        if not (state.marks_total or state.held_kitten or state.garbage_queue
                or state.alter_left or True in state.blind):
            return None
        if state.alter_left and state.turn_holder == self.seat:
            left, placed = state.alter_left, state.alter_placed
        else:
            left = placed = _NONE
        return (state.blind, state.marked if state.marks_total else _NO_MARKS,
                state.held_kitten, state.explode_queue,
                state.garbage_queue, left, placed)

    @property
    def kittens_to_insert(self) -> int:
        return self._state.held_kitten

    def exploding(self) -> list[int]:
        """Seats whose held kitten explodes next (announced)."""
        return self._state.explode_queue[:]

    def garbage_waiting(self) -> list[int]:
        """Seats still to put a card in for Garbage Collection."""
        return self._state.garbage_queue[:]

    def my_alter(self) -> tuple[list[int], list[int]]:
        """The cards I still have to place and those I placed (Alter the Future), if I
        am the one reordering; else nothing."""
        state = self._state
        if state.alter_left and state.turn_holder == self.seat:
            return state.alter_left[:], state.alter_placed[:]
        return [], []

    def known_deck(self) -> list[tuple[int, int]]:
        """(depth, card) pairs of the draw pile this seat knows, 0 = top."""
        return [(depth, card) for depth, card in enumerate(self._state.known_deck[self.seat])
                if card != UNKNOWN]

    def known_hands_relative(self) -> bytearray:
        """Lower bounds on every other seat's hand, clockwise from the next seat, as one
        flat run of ``(num_players - 1) * kinds`` counts."""
        state, seat = self._state, self.seat
        kinds = state.kinds
        width = state.num_players * kinds
        block = state.known_hands[seat * width : (seat + 1) * width]
        return block[(seat + 1) * kinds :] + block[: seat * kinds]

    def known_hand(self, other: int) -> list[int]:
        """Lower bounds on the count of each kind in ``other``'s hand."""
        start = row(self._state, self.seat, other)
        return list(self._state.known_hands[start : start + self._state.kinds])

    # The public record ---------------------------------------------------

    @property
    def log_length(self) -> int:
        """Events in the public record so far."""
        return len(self._state.log)

    def record_memo(self) -> tuple[int, object] | None:
        """``(log length, data)`` that :meth:`store_record_memo` stored: the encoder's
        layout of the newest events, kept across moves (``State.record_memo``)."""
        return self._state.record_memo

    def store_record_memo(self, length: int, data: object) -> None:
        """Keep ``data`` (public facts only) about the newest events of a log of
        ``length`` events."""
        self._state.record_memo = (length, data)

    def recent_public(self, count: int) -> list[tuple[int, int, int, int, int]]:
        """The public part of the last ``count`` events, newest first: (actor, what,
        target, card, result). The encoder's fast path: no secret is read."""
        log = self._state.log
        return [(e.actor, e.what, e.target, e.card, e.result) for e in log[:-count - 1:-1]]

    def ruled_out(self) -> bytearray | None:
        """Public negative knowledge, seats relative (me first, then clockwise): per
        seat and kind, 1 if the table knows the seat holds no card of that kind;
        ``None`` when nothing is ruled out (the common case, for speed)."""
        state = self._state
        known = state.ruled_out
        if 1 not in known:
            return None
        cut = self.seat * state.kinds
        return known[cut:] + known[:cut]
