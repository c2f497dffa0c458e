"""The Exploding Kittens encoder: one seat's view as the observation vector
(docs/rules/README.md; the fields are :mod:`ek_env.encoding.observation`'s)."""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.observation import ObservationSpec
from ek_env.encoding.observation import (
    KNOWLEDGE_FIELDS,
    OWED_CAP,
    PENDING_FIELDS,
    RECENT_MOVES,
    STREAKING_FIELDS,
    TABLE_FIELDS,
    build_spec,
    event_codes,
    event_width,
)
from ek_env.engine.cards import MAX_PLAYERS
from ek_env.engine.state import Config
from ek_env.info.view import PlayerView

_PRESENT: Final = {n: bytes([1] * n) for n in range(2, MAX_PLAYERS + 1)}
#: The conversion of the finished vector, its dtypes bound once (cheaper than
#: ``dtype=np.uint8`` on every call).
_FROM_BUFFER: Final = np.frombuffer
_UINT8: Final = np.dtype(np.uint8)
_FLOAT32: Final = np.dtype(np.float32)
#: Distinct public events whose rows an encoder keeps per table size (cleared when
#: full): at most 4,096 x 9 rows of about 100 bytes.
_EVENT_CACHE_SIZE: Final = 1 << 12

#: What every seat's observation of one state shares (:meth:`Encoder._public`), kept per
#: state through the view (:meth:`~ek_env.info.view.PlayerView.public_memo`): the head of
#: the vector (the table and the pending play, up to ``known_deck``) with every
#: observer-independent field written (the alive flags too when every seat is alive);
#: the seat to act, the turn holder, the alive flags and hand sizes by absolute seat
#: (the state's own lists); the pending play's target and the seat its Nope window
#: answers (-1: none); and the recent events' rows, each as every observer sees it,
#: newest first.
_Public = tuple[bytearray, int, int, list[bool], list[int], int, int, list[tuple[bytes, ...]]]
_Event = tuple[int, int, int, int, int]


class Encoder:
    """Writes the observation of one game setup (base, or with the Streaking Kittens
    expansion) from a :class:`~ek_env.info.view.PlayerView`.

    What every seat's observation of a state shares is laid out once per state
    (:meth:`_public`, cached through the view); each observation copies it and writes
    the seat-relative fields and the seat's own knowledge on top.
    """

    def __init__(self, config: Config) -> None:
        self.streaking = config.streaking
        self.kinds = config.num_kinds
        self.observation_spec: ObservationSpec = build_spec(config)
        self.obs_size = self.observation_spec.size
        offsets = self.observation_spec.offsets
        self._table_offsets = tuple(offsets[name] for name in TABLE_FIELDS)
        self._pending_offsets = tuple(offsets[name] for name in PENDING_FIELDS)
        self._knowledge_offsets = tuple(offsets[name] for name in KNOWLEDGE_FIELDS)
        codes = event_codes(config)
        self._record = (offsets["recent_moves"], offsets["ruled_out"], codes,
                        codes + MAX_PLAYERS, codes + 2 * MAX_PLAYERS,
                        codes + 2 * MAX_PLAYERS + self.kinds, event_width(config))
        if self.streaking:
            self._streaking_offsets = tuple(offsets[name] for name in STREAKING_FIELDS)
        #: The seat-relative fields every observation writes: the seat to act, the turn
        #: holder, the alive flags, the hand sizes, the pending play's target and the
        #: seat its Nope window answers.
        self._seat_offsets = (offsets["to_act"], offsets["turn_holder"], offsets["alive"],
                              offsets["hand_sizes"], offsets["pending_target"],
                              offsets["window_opener"])
        self._recent_at, self._ruled_at = offsets["recent_moves"], offsets["ruled_out"]
        present = offsets["seat_present"]
        #: The table's and the pending play's fields: the head of the vector, which
        #: holds every observer-independent field but the expansion's.
        self._head = offsets["known_deck"]
        #: The head of every state at n seats before its facts are written.
        self._blanks = {n: _blank(self._head, present, n) for n in range(2, MAX_PLAYERS + 1)}
        #: Per table size, each public event's row as every observer sees it.
        self._event_rows: dict[int, dict[_Event, tuple[bytes, ...]]] = {
            n: {} for n in range(2, MAX_PLAYERS + 1)}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the setup it belongs to (one shared encoder per setup).
        return encoder_named, (self.streaking,)

    def encode(self, view: PlayerView) -> NDArray[np.float32]:
        """The observation vector of ``view``'s seat (see :attr:`observation_spec`).

        Every field is a small count, so the vector is built in a ``bytearray`` and
        converted once; only public facts and the seat's own knowledge are read. What
        every seat's observation shares comes from :meth:`_public`, once per state.
        """
        public: _Public | None = view.public_memo()  # type: ignore[assignment]
        if public is None:
            public = self._public(view)
            view.store_public_memo(public)
        head, acting, turn_holder, alive, sizes, target, opener, recent = public
        out = bytearray(self.obs_size)
        out[: self._head] = head
        seat = view.seat
        to_act, holder, alive_at, sizes_at, target_at, opener_at = self._seat_offsets
        n = len(alive)
        out[to_act + (acting - seat) % n] = 1
        out[holder + (turn_holder - seat) % n] = 1
        if False in alive:  # else every seat is alive, written in the head
            out[alive_at : alive_at + n] = bytes(alive[seat:] + alive[:seat])
        out[sizes_at : sizes_at + n] = bytes(sizes[seat:] + sizes[:seat])
        if target >= 0:
            out[target_at + (target - seat) % n] = 1
        if opener >= 0:
            out[opener_at + (opener - seat) % n] = 1
        if recent:
            row = self._recent_at
            block = b"".join([rows[seat] for rows in recent])
            out[row : row + len(block)] = block
        ruled = view.ruled_out()
        if ruled is not None:
            out[self._ruled_at : self._ruled_at + len(ruled)] = ruled
        self._write_knowledge(view, out)
        if self.streaking:
            self._encode_streaking(view, out)
        return _FROM_BUFFER(out, _UINT8).astype(_FLOAT32)

    def _public(self, view: PlayerView) -> _Public:
        """What every seat's observation of ``view``'s state shares (see
        :data:`_Public`): only public facts are read."""
        (_, phase, _, _, _, alive_at, _, owed, attacked, deck, kittens, discard,
         out_of_play) = self._table_offsets
        kinds = self.kinds
        (phase_now, acting, turn_holder, alive, sizes, owed_turns, is_attacked, deck_size,
         discarded, set_aside) = view.table_facts()
        n = len(alive)
        head = self._blanks[n][:]
        head[phase + phase_now] = 1
        if False not in alive:  # the same after a rotation
            head[alive_at : alive_at + n] = _PRESENT[n]
        head[owed] = min(owed_turns, OWED_CAP)
        head[attacked] = is_attacked
        head[deck] = deck_size
        head[kittens] = view.kittens_in_deck
        head[discard : discard + kinds] = bytes(discarded)
        head[out_of_play : out_of_play + kinds] = bytes(set_aside)
        target = opener = -1
        pending = view.pending
        if pending[0]:
            target, opener = self._write_pending(pending, head)
        return (head, acting, turn_holder, alive, sizes, target, opener,
                self._recent(view, n))

    def _recent(self, view: PlayerView, n: int) -> list[tuple[bytes, ...]]:
        """The rows of the newest events as every observer sees them, newest first: the
        record's layout of the last time (``view.record_memo()``), with the rows of the
        events appended since in front."""
        length = view.log_length
        memo: tuple[int, list[tuple[bytes, ...]]] | None = view.record_memo()  # type: ignore[assignment]
        new = RECENT_MOVES
        if memo is not None:
            new = length - memo[0]
            if not new:
                return memo[1]
            if not 0 < new < RECENT_MOVES:  # a log shorter than before, or all new
                new = RECENT_MOVES
        events = view.recent_public(new)
        table = self._event_rows[n]
        try:
            rows = [table[event] for event in events]
        except KeyError:
            rows = self._recent_rows(events, n)
        if new < RECENT_MOVES:
            rows = (rows + memo[1])[:RECENT_MOVES]  # type: ignore[index]
        view.store_record_memo(length, rows)
        return rows

    def _write_pending(self, pending: tuple[int, int, int, int, tuple[int, ...], int, int],
                       head: bytearray) -> tuple[int, int]:
        """The announced play awaiting its Nope window (see ``PlayerView.pending``) but
        its seats: its target and the seat whose play or Nope the window answers (-1:
        none), which it returns."""
        p_play, p_card, p_five, _, p_named, nopes_at, _ = self._pending_offsets
        kind, card, target, named, five, nopes, opener = pending
        head[p_play + kind - 1] = 1
        if card >= 0:
            head[p_card + card] = 1
        for chosen in five:
            head[p_five + chosen] = 1
        if named >= 0:
            head[p_named + named] = 1
        head[nopes_at] = nopes
        return max(target, -1), max(opener, -1)

    def _recent_rows(self, events: list[_Event], n: int) -> list[tuple[bytes, ...]]:
        """The rows of ``events`` as every observer sees them (kept for the next time)."""
        table = self._event_rows[n]
        if len(table) + len(events) > _EVENT_CACHE_SIZE:
            table.clear()
        for event in events:
            if event not in table:
                table[event] = self._event_row(event, n)
        return [table[event] for event in events]

    def _event_row(self, event: _Event, n: int) -> tuple[bytes, ...]:
        """One public event's row of ``recent_moves`` as each of ``n`` seats sees it."""
        _, _, actor_at, target_at, card_at, result_at, width = self._record
        who, what, target, card, result = event
        rows = []
        for seat in range(n):
            shift = n - seat  # (other - seat) % n == (other + shift) % n
            row = bytearray(width)
            row[what] = 1
            row[actor_at + (who + shift) % n] = 1
            if target >= 0:
                row[target_at + (target + shift) % n] = 1
            if card >= 0:
                row[card_at + card] = 1
            if result >= 0:
                row[result_at + result] = 1
            rows.append(bytes(row))
        return tuple(rows)

    def _write_knowledge(self, view: PlayerView, out: bytearray) -> None:
        """My hand, and what I know of the draw pile and of the other hands."""
        my_hand = self._table_offsets[0]
        known_deck, known_hands_at = self._knowledge_offsets
        kinds = self.kinds
        out[my_hand : my_hand + kinds] = bytes(view.my_hand)
        for depth, known in view.known_deck():
            out[known_deck + depth * kinds + known] = 1
        known_hands = view.known_hands_relative()
        out[known_hands_at : known_hands_at + len(known_hands)] = known_hands

    def _encode_streaking(self, view: PlayerView, out: bytearray) -> None:
        """The expansion's fields: blindness, marks, kittens to put back or exploding,
        Garbage Collection and my Alter the Future."""
        facts = view.streaking_facts()
        if facts is None:
            return
        blind, marked, to_insert, exploding, waiting, alter_left, alter_placed = facts
        blind_at, marked_at, insert_at, exploding_at, waiting_at, left_at, placed_at = (
            self._streaking_offsets)
        kinds = self.kinds
        seat = view.seat
        n = len(blind)
        if True in blind:
            out[blind_at : blind_at + n] = bytes(blind[seat:] + blind[:seat])
        if marked:  # empty when nobody has a marked card
            out[marked_at : marked_at + n * kinds] = b"".join(marked[seat:] + marked[:seat])
        if to_insert:
            out[insert_at] = to_insert
            for other in exploding:
                out[exploding_at + (other - seat) % n] = 1
        for other in waiting:
            out[waiting_at + (other - seat) % n] = 1
        for card in alter_left:
            out[left_at + card] += 1
        for depth, card in enumerate(alter_placed):
            out[placed_at + depth * kinds + card] = 1


def _blank(size: int, present: int, n: int) -> bytearray:
    """The first ``size`` bytes of the vector of every state at ``n`` seats before its
    facts are written: the seats present."""
    blank = bytearray(size)
    blank[present : present + n] = _PRESENT[n]
    return blank


BASE_ENCODER: Final = Encoder(Config())
STREAKING_ENCODER: Final = Encoder(Config(expansions=("streaking",)))


def encoder_named(streaking: bool) -> Encoder:
    """The encoder of the base game, or of the Streaking Kittens expansion."""
    return STREAKING_ENCODER if streaking else BASE_ENCODER
