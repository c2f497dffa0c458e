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


class Encoder:
    """Writes the observation of one game setup (base, or with the Streaking Kittens
    expansion) from a :class:`~ek_env.info.view.PlayerView`."""

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

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the setup it belongs to (one shared encoder per setup).
        return encoder_named, (self.streaking,)

    def encode(self, view: PlayerView) -> NDArray[np.float32]:
        """The observation vector of ``view``'s seat (see :attr:`observation_spec`).

        Every field is a small count, so the vector is built in a ``bytearray`` and
        converted once; only public facts and the seat's own knowledge are read.
        """
        out = bytearray(self.obs_size)
        self._write_table(view, out)
        self._write_knowledge(view, out)
        self._write_record(view, out)
        if self.streaking:
            self._encode_streaking(view, out)
        return np.frombuffer(out, dtype=np.uint8).astype(np.float32)

    def _write_table(self, view: PlayerView, out: bytearray) -> None:
        """My hand and the public facts of the table, the pending play included."""
        (my_hand, phase, to_act, holder, present, alive_at, sizes_at, owed, attacked, deck,
         kittens, discard, out_of_play) = self._table_offsets
        kinds = self.kinds
        seat = view.seat
        n = view.num_players
        (phase_now, acting, turn_holder, alive, sizes, owed_turns, is_attacked, deck_size,
         discarded, set_aside) = view.table_facts()
        out[my_hand : my_hand + kinds] = bytes(view.my_hand)
        out[phase + phase_now] = 1
        out[to_act + (acting - seat) % n] = 1
        out[holder + (turn_holder - seat) % n] = 1
        out[present : present + n] = _PRESENT[n]
        out[alive_at : alive_at + n] = bytes(alive[seat:] + alive[:seat])
        out[sizes_at : sizes_at + n] = bytes(sizes[seat:] + sizes[:seat])
        out[owed] = min(owed_turns, OWED_CAP)
        out[attacked] = is_attacked
        out[deck] = deck_size
        out[kittens] = view.kittens_in_deck
        out[discard : discard + kinds] = bytes(discarded)
        out[out_of_play : out_of_play + kinds] = bytes(set_aside)
        pending = view.pending
        if pending[0]:
            self._write_pending(pending, seat, n, out)

    def _write_pending(self, pending: tuple[int, int, int, int, tuple[int, ...], int, int],
                       seat: int, n: int, out: bytearray) -> None:
        """The announced play awaiting its Nope window (see ``PlayerView.pending``)."""
        p_play, p_card, p_five, p_target, p_named, nopes_at, opener_at = self._pending_offsets
        kind, card, target, named, five, nopes, opener = pending
        out[p_play + kind - 1] = 1
        if card >= 0:
            out[p_card + card] = 1
        for chosen in five:
            out[p_five + chosen] = 1
        if target >= 0:
            out[p_target + (target - seat) % n] = 1
        if named >= 0:
            out[p_named + named] = 1
        out[nopes_at] = nopes
        if opener >= 0:
            out[opener_at + (opener - seat) % n] = 1

    def _write_knowledge(self, view: PlayerView, out: bytearray) -> None:
        """What the seat knows of the draw pile and of the other hands."""
        known_deck, known_hands_at = self._knowledge_offsets
        kinds = self.kinds
        for depth, known in view.known_deck():
            out[known_deck + depth * kinds + known] = 1
        known_hands = view.known_hands_relative()
        out[known_hands_at : known_hands_at + len(known_hands)] = known_hands

    def _write_record(self, view: PlayerView, out: bytearray) -> None:
        """The public part of the newest events, and what the table has ruled out."""
        row, ruled_at, actor_at, target_at, card_at, result_at, width = self._record
        n = view.num_players
        shift = n - view.seat  # (other - seat) % n == (other + shift) % n
        for who, what, target, card, result in view.recent_public(RECENT_MOVES):
            out[row + what] = 1
            out[row + actor_at + (who + shift) % n] = 1
            if target >= 0:
                out[row + target_at + (target + shift) % n] = 1
            if card >= 0:
                out[row + card_at + card] = 1
            if result >= 0:
                out[row + result_at + result] = 1
            row += width
        ruled = view.ruled_out()
        if ruled is not None:
            out[ruled_at : ruled_at + len(ruled)] = ruled

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


BASE_ENCODER: Final = Encoder(Config())
STREAKING_ENCODER: Final = Encoder(Config(expansions=("streaking",)))


def encoder_named(streaking: bool) -> Encoder:
    """The encoder of the base game, or of the Streaking Kittens expansion."""
    return STREAKING_ENCODER if streaking else BASE_ENCODER
