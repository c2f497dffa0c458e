"""Power Hungry Pets observation layout and encoder; with the action table and the
rules as actions, everything the environment and the search read.

Observations are seat-relative: index 0 of every per-seat field is the observer,
then the other seats clockwise. The action table lives in :mod:`phpets_env.engine.actions`
and the legal-action mask and dispatch in :mod:`phpets_env.engine.legality`; both are
named here too, as the environment knows them.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

from cardgym.observation import Field, ObservationSpec
from phpets_env.engine.actions import (
    ACTION_SPECS,
    ACTION_TABLE,
    KEEP,
    NUM_ACTIONS,
    PLACE,
    PLAY_CARD,
    SWAP,
    action_to_move,
    move_to_action,
)
from phpets_env.engine.cards import (
    CARD_VALUES,
    MAX_DECK,
    MAX_PLAYERS,
    NUM_VALUES,
    tokens_to_win,
)
from phpets_env.engine.events import NUM_RECENT_KINDS, NUM_RESULTS, PublicPart
from phpets_env.engine.legality import apply_action, legal_action_indices, legal_action_mask
from phpets_env.engine.state import PHASE_NAMES
from phpets_env.info.view import PlayerView

# ------------------------------------------------------------- observation

_OPPONENTS = MAX_PLAYERS - 1
#: Events in ``recent_moves`` (the draws that start turns left out, see
#: :data:`~phpets_env.display.record.TURN_DRAW`): at six players a seat usually sees everything
#: since its own previous play (a play per turn, plus the odd follow-up, draw or
#: elimination). Measured under random play at six players (3,000 matches, 143,807
#: turns): of the turns whose seat has played earlier in the same round (56%), the gap
#: back to that play, counted in ``recent_moves`` events and the play included, has
#: median 7, 90th percentile 11 and 95th 13; 10 events hold it in 89% of them (8: 73%,
#: 9: 84%, 11: 92%, 12: 95%). The earlier window, 16 events with every turn's draw,
#: held it in 91% (median gap 12, 90th percentile 16).
RECENT_EVENTS: Final = 10
# One event: actor (relative seat) | what | target (relative seat) | card value | result.
_EVENT_ACTOR: Final = 0
_EVENT_WHAT: Final = _EVENT_ACTOR + MAX_PLAYERS
_EVENT_TARGET: Final = _EVENT_WHAT + NUM_RECENT_KINDS
_EVENT_CARD: Final = _EVENT_TARGET + MAX_PLAYERS
_EVENT_RESULT: Final = _EVENT_CARD + NUM_VALUES
EVENT_WIDTH: Final = _EVENT_RESULT + NUM_RESULTS
OBSERVATION_SPEC: Final = ObservationSpec(
    [
        Field("my_hand", (NUM_VALUES,), 0, 2, "count of each value 0..10 in my hand"),
        Field("phase", (len(PHASE_NAMES),), 0, 1,
              "one-hot: play, grave_digger (keep or swap), mouse_trapper (place), match_over"),
        Field("to_act", (MAX_PLAYERS,), 0, 1, "one-hot: the seat to act (relative)"),
        Field("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats at this table (relative)"),
        Field("in_round", (MAX_PLAYERS,), 0, 1, "1 if the seat is still in the round"),
        Field("protected", (MAX_PLAYERS,), 0, 1, "1 if the seat is protected by Shell Shield"),
        Field("tokens", (MAX_PLAYERS,), 0, 3, "tokens won by each seat"),
        Field("round_start", (MAX_PLAYERS,), 0, 1, "one-hot: the seat that started this round"),
        Field("rows", (MAX_PLAYERS, NUM_VALUES), 0, 5,
              "count of each value in each seat's row of played and revealed cards"),
        Field("known_hands", (_OPPONENTS, NUM_VALUES), 0, 2,
              "count of each value I know to be in each opponent's hand (seen, given, "
              "compared, or watched moving)"),
        Field("face_up_aside", (NUM_VALUES,), 0, 2,
              "count of each value set aside face up (two players)"),
        Field("known_aside", (NUM_VALUES,), 0, 1,
              "one-hot value of the face-down set-aside card if I have seen it (Grave Digger)"),
        Field("aside_present", (1,), 0, 1, "1 while the face-down set-aside card is set aside"),
        Field("known_deck", (MAX_DECK, NUM_VALUES), 0, 1,
              "one-hot value at each depth of the draw pile (0 = top) that I know "
              "(Mouse Trapper), until a shuffle or another Mouse Trapper makes it stale"),
        Field("pending_card", (NUM_VALUES,), 0, 1,
              "one-hot value of the card I am putting back with Mouse Trapper"),
        Field("deck_size", (1,), 0, MAX_DECK, "cards in the draw pile"),
        Field("tokens_to_win", (1,), 2, 3, "tokens that win the match"),
        Field("recent_moves", (RECENT_EVENTS, EVENT_WIDTH), 0, 1,
              f"the public part of the last {RECENT_EVENTS} events of the record, newest "
              f"first, leaving out the draw that starts every turn (implied: each turn's "
              f"player draws first); each is {EVENT_WIDTH} one-hot columns: actor (6, "
              f"relative seat; none for the table), what ({NUM_RECENT_KINDS}: a play of "
              f"value 0..10, grave_digger, mouse_trapper, draw (after Snake Sorcerer or "
              f"Jittery Juggler), eliminated, reveal, round_won, match_won, new_round), "
              f"target (6, relative seat), card value (11: named "
              f"by Crystal Bowl, shown by Snake Sorcerer, put face up, revealed), result "
              f"({NUM_RESULTS}: no_effect, hit, miss, tie, actor_lost, target_lost, "
              f"swapped, kept, from_aside); all zero where there is no event"),
        Field("ruled_out", (_OPPONENTS, NUM_VALUES), 0, 1,
              "1 for each value the table knows an opponent does not hold (a missed "
              "Crystal Bowl, the winner of a Battle Bunny holds more than the revealed "
              "card, a tie rules out values with fewer than two copies left, Not A Pet! "
              "without a swap rules out King Cat), until that opponent gets a new card"),
    ]
)
OBS_SIZE: Final = OBSERVATION_SPEC.size
_O = OBSERVATION_SPEC.offsets
_MY_HAND, _PHASE, _TO_ACT = _O["my_hand"], _O["phase"], _O["to_act"]
_PRESENT, _IN_ROUND, _PROTECTED = _O["seat_present"], _O["in_round"], _O["protected"]
_TOKENS, _START, _ROWS = _O["tokens"], _O["round_start"], _O["rows"]
_KNOWN_HANDS, _FACE_UP, _KNOWN_ASIDE = _O["known_hands"], _O["face_up_aside"], _O["known_aside"]
_ASIDE_PRESENT, _KNOWN_DECK, _PENDING = _O["aside_present"], _O["known_deck"], _O["pending_card"]
_DECK_SIZE, _TO_WIN = _O["deck_size"], _O["tokens_to_win"]
_RECENT, _RULED_OUT = _O["recent_moves"], _O["ruled_out"]
_RECENT_END: Final = _RECENT + RECENT_EVENTS * EVENT_WIDTH


def _event_rows(public: PublicPart) -> list[bytes]:
    """The encoded event for every (players, observer): index ``n * MAX_PLAYERS + seat``."""
    actor, what, target, card, result = (public.actor, public.what, public.target,
                                         public.card, public.result)
    rows = [b""] * ((MAX_PLAYERS + 1) * MAX_PLAYERS)
    for n in range(2, MAX_PLAYERS + 1):
        for seat in range(n):
            row = bytearray(EVENT_WIDTH)
            if actor >= 0:
                row[_EVENT_ACTOR + (actor - seat) % n] = 1
            if what >= 0:
                row[_EVENT_WHAT + what] = 1
            if target >= 0:
                row[_EVENT_TARGET + (target - seat) % n] = 1
            if card >= 0:
                row[_EVENT_CARD + card] = 1
            if result >= 0:
                row[_EVENT_RESULT + result] = 1
            rows[n * MAX_PLAYERS + seat] = bytes(row)
    return rows


#: Each public part encoded once, for every table size and observer (parts are shared
#: and never freed, so each is a key of its own).
_ENCODED: dict[PublicPart, list[bytes]] = {}

#: Bit masks of values 0..10 as one-hot byte strings.
_VALUE_BYTES: Final = tuple(
    bytes(mask >> value & 1 for value in range(NUM_VALUES)) for mask in range(1 << NUM_VALUES)
)
#: The value of each card id.
_VALUE: Final = CARD_VALUES
_PRESENT_BYTES: Final = {n: bytes([1] * n) for n in range(2, MAX_PLAYERS + 1)}
#: The conversion of the finished vector, its dtypes bound once (cheaper than
#: ``dtype=np.uint8`` on every call).
_FROM_BUFFER: Final = np.frombuffer
_UINT8: Final = np.dtype(np.uint8)
_FLOAT32: Final = np.dtype(np.float32)

#: The public facts of one state laid out for every observer (:func:`_public`), kept
#: per state through the view (:meth:`~phpets_env.info.view.PlayerView.public_memo`):
#: the table size; the vector with every observer-independent field written; the seat
#: to act and the round's start seat; ``(offset, flags)`` of each per-seat flag field
#: that needs a rotation (not the in-round flags when every seat is in the round, nor
#: protected flags or tokens that are all zero), each row's value counts and the
#: ruled-out values (``None`` when there are none), all by absolute seat and written
#: twice in a row, so that the rotation to an observer is one slice; and the public
#: parts of the recent events, newest first.
_Public = tuple[int, bytearray, int, int, list[tuple[int, bytes]], bytearray, "bytes | None",
                list[PublicPart]]


def _public(view: PlayerView) -> _Public:
    """The public facts of ``view``'s state laid out for every observer (see
    :data:`_Public`): only public facts are read."""
    (phase, to_act, round_start, in_round, protected, tokens, rows, face_up, ruled_out,
     deck_size, aside_present) = view.table_facts()
    n = len(in_round)
    values = _VALUE
    template = _BLANKS[n][:]
    template[_PHASE + phase] = 1
    rotated = []
    if False in in_round:
        rotated.append((_IN_ROUND, bytes(in_round) * 2))
    else:  # every seat in the round: the same after a rotation
        template[_IN_ROUND : _IN_ROUND + n] = _PRESENT_BYTES[n]
    if True in protected:
        rotated.append((_PROTECTED, bytes(protected) * 2))
    if any(tokens):
        rotated.append((_TOKENS, bytes(tokens) * 2))
    for card in face_up:
        template[_FACE_UP + values[card]] += 1
    if aside_present:
        template[_ASIDE_PRESENT] = 1
    template[_DECK_SIZE] = deck_size
    counts = bytearray(n * NUM_VALUES)
    base = 0
    for row in rows:
        for card in row:
            counts[base + values[card]] += 1
        base += NUM_VALUES
    ruled = (b"".join([_VALUE_BYTES[mask] for mask in ruled_out]) * 2 if any(ruled_out)
             else None)
    return (n, template, to_act, round_start, rotated, counts + counts, ruled,
            view.recent_public(RECENT_EVENTS))


def _blank(n: int) -> bytearray:
    """The vector of every state at ``n`` seats before its facts are written: the seats
    present and the tokens that win the match."""
    blank = bytearray(OBS_SIZE)
    blank[_PRESENT : _PRESENT + n] = _PRESENT_BYTES[n]
    blank[_TO_WIN] = tokens_to_win(n)
    return blank


_BLANKS: Final = {n: _blank(n) for n in range(2, MAX_PLAYERS + 1)}


def encode(view: PlayerView) -> NDArray[np.float32]:
    """The observation vector of ``view``'s seat (see :data:`OBSERVATION_SPEC`).

    Every field is a small count, so the vector is built in a ``bytearray`` and
    converted once. The public facts are laid out once per state (:func:`_public`,
    cached through the view: the observations of several seats of one state share
    them) and rotated to the observer; only the view's public facts and the seat's
    own knowledge are read.
    """
    public: _Public | None = view.public_memo()  # type: ignore[assignment]
    if public is None:
        public = _public(view)
        view.store_public_memo(public)
    n, template, to_act, round_start, rotated, rows, ruled_out, recent = public
    seat = view.seat
    out = template[:]
    out[_TO_ACT + (to_act - seat) % n] = 1
    out[_START + (round_start - seat) % n] = 1
    for offset, flags in rotated:
        out[offset : offset + n] = flags[seat : seat + n]
    out[_ROWS : _ROWS + n * NUM_VALUES] = rows[seat * NUM_VALUES : (seat + n) * NUM_VALUES]
    if ruled_out is not None:
        out[_RULED_OUT : _RULED_OUT + (n - 1) * NUM_VALUES] = (
            ruled_out[(seat + 1) * NUM_VALUES : (seat + n) * NUM_VALUES])
    if recent:
        column = n * MAX_PLAYERS + seat
        encoded = _ENCODED
        try:
            block = b"".join([encoded[event][column] for event in recent])
        except KeyError:
            for event in recent:
                if event not in encoded:
                    encoded[event] = _event_rows(event)
            block = b"".join([encoded[event][column] for event in recent])
        out[_RECENT : _RECENT + len(block)] = block
    values = _VALUE
    for card in view.my_hand_ids:
        out[_MY_HAND + values[card]] += 1
    base = _KNOWN_HANDS
    for known in view.known_opponent_ids():
        for card in known:
            out[base + values[card]] += 1
        base += NUM_VALUES
    if template[_ASIDE_PRESENT] or view.watches_deck:
        _encode_hidden_places(out, view)
    return _FROM_BUFFER(out, _UINT8).astype(_FLOAT32)


def _encode_hidden_places(out: bytearray, view: PlayerView) -> None:
    """The face-down set-aside card, pile depths and held-out card, where the observer
    knows them."""
    if view.aside_present:
        aside = view.known_aside()
        if aside is not None:
            out[_KNOWN_ASIDE + aside] = 1
    if view.watches_deck:
        for depth, value in view.known_deck():
            out[_KNOWN_DECK + depth * NUM_VALUES + value] = 1
        pending = view.pending_card()
        if pending is not None:
            out[_PENDING + pending] = 1


__all__ = [
    "ACTION_SPECS", "ACTION_TABLE", "EVENT_WIDTH", "KEEP", "NUM_ACTIONS", "OBSERVATION_SPEC",
    "OBS_SIZE", "PLACE", "PLAY_CARD", "RECENT_EVENTS", "SWAP", "action_to_move", "apply_action",
    "encode", "legal_action_indices", "legal_action_mask", "move_to_action",
]
