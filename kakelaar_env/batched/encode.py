"""One seat's observation of one row of the batched engine (a compiled helper).

The same vector as :func:`kakelaar_env.encoding.encoding.encode` of that seat's
:class:`~kakelaar_env.info.view.PlayerView`: public facts, the seat's own committed
choices, and per-seat fields relative to the observer (me first, then clockwise).
Only what the view shows is read: of the committed choices, the observer's own.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.vector._numba import njit
from kakelaar_env.batched.layout import (
    ASKED,
    BIDS,
    CIRCLE,
    CURRENT,
    DECK_SIZE,
    DIGEST,
    DIGEST_ROW,
    DISCARDS,
    HANDS,
    HEN_CHOICES,
    HEN_PLAYED,
    LAST_BIDS,
    NONE,
    NUM_ASKED,
    NUM_CIRCLE,
    NUM_PICKS,
    PHASE,
    PICKS,
    ROBOT_DECK,
    ROBOT_SIZE,
    ROUND,
    ROW,
    ROW_SIZE,
    ROW_SLOTS,
    TRACTOR,
    UNSEEN,
)
from kakelaar_env.batched.scoring import hand_size, score
from kakelaar_env.encoding.encoding import OBSERVATION_SPEC
from kakelaar_env.engine.cards import (
    FIRST_CHICKEN,
    HEN,
    MAX_PLAYERS,
    NUM_BIDDABLE,
    NUM_ROW_TYPES,
    NUM_TYPES,
)
from kakelaar_env.engine.digest import DIGEST_WIDTH

# Where each field of the observation starts (kakelaar_env.encoding.encoding.OBSERVATION_SPEC).
_AT = OBSERVATION_SPEC.offsets
O_PHASE = _AT["phase"]
O_ROUND = _AT["round"]
O_PRESENT = _AT["seat_present"]
O_ROW = _AT["row"]
O_ROBOT = _AT["robot_remaining"]
O_UNSEEN = _AT["unseen"]
O_DRAW = _AT["draw_pile"]
O_TO_ACT = _AT["to_act"]
O_DECIDING = _AT["deciding"]
O_TRACTOR = _AT["tractor"]
O_TIE_RANK = _AT["tie_rank"]
O_MY_HAND = _AT["my_hand"]
O_MY_BID = _AT["my_bid"]
O_MY_HEN = _AT["my_hen"]
O_MY_PICKS = _AT["my_picks"]
O_OPPONENTS = _AT["opponent_hands"]
O_DISCARDS = _AT["discards"]
O_SIZES = _AT["hand_sizes"]
O_SCORES = _AT["scores"]
O_HEN_PLAYED = _AT["hen_played"]
O_LAST_BIDS = _AT["last_bids"]
O_RECENT = _AT["recent_moves"]
_ROBOT_ENTRY = MAX_PLAYERS  # the sixth entry of a per-participant field


@njit
def _public(b: NDArray[np.int8], n: int, out: NDArray[np.float32]) -> None:
    """The observer-independent prefix: stage, round, seats, row, robot deck, unseen."""
    out[O_PHASE + b[PHASE]] = 1.0
    out[O_ROUND] = b[ROUND]
    out[O_PRESENT:O_PRESENT + n] = 1.0
    for position in range(b[ROW_SIZE]):
        out[O_ROW + position * NUM_ROW_TYPES + ROW_SLOTS[b[ROW + position]]] = 1.0
    if n == 2:
        for k in range(b[ROBOT_SIZE]):
            out[O_ROBOT + b[ROBOT_DECK + k] - FIRST_CHICKEN] += 1.0
    for t in range(NUM_ROW_TYPES - 1):
        out[O_UNSEEN + t] = b[UNSEEN + t]
    out[O_UNSEEN + NUM_ROW_TYPES - 1] = b[UNSEEN + HEN]
    out[O_DRAW] = b[DECK_SIZE]


@njit
def _stage(b: NDArray[np.int8], n: int, o: int, out: NDArray[np.float32]) -> None:
    """Who acts and decides, the tractor and the tie ranks, relative to seat ``o``."""
    asked = b[NUM_ASKED]
    if asked > 0:
        out[O_TO_ACT + (b[CURRENT] - o) % n] = 1.0
    for i in range(asked):
        out[O_DECIDING + (b[ASKED + i] - o) % n] = 1.0
    k = b[NUM_CIRCLE]
    for i in range(k):
        p = b[CIRCLE + (b[TRACTOR] + i) % k]
        rel = _ROBOT_ENTRY if p >= n else (p - o) % n
        if i == 0:
            out[O_TRACTOR + rel] = 1.0
        out[O_TIE_RANK + rel] = i + 1


@njit
def _own(b: NDArray[np.int8], o: int, out: NDArray[np.float32]) -> None:
    """Seat ``o``'s hand and its own committed choices (hidden from the others)."""
    hand = HANDS + o * NUM_TYPES
    for t in range(NUM_TYPES):
        out[O_MY_HAND + t] = b[hand + t]
    bid = b[BIDS + o]
    if bid != NONE:
        out[O_MY_BID + bid] = 1.0
    if b[HEN_CHOICES + o] == 1:
        out[O_MY_HEN] = 1.0
    for k in range(b[NUM_PICKS + o]):
        out[O_MY_PICKS + b[PICKS + 2 * o + k]] += 1.0


@njit
def _seats(b: NDArray[np.int8], n: int, o: int, out: NDArray[np.float32]) -> None:
    """The per-seat fields, me first then clockwise, and the robot's sixth entries."""
    for k in range(n):
        seat = (o + k) % n
        hand = HANDS + seat * NUM_TYPES
        if k > 0:
            at = O_OPPONENTS + (k - 1) * NUM_TYPES
            for t in range(NUM_TYPES):
                out[at + t] = b[hand + t]
        pile = DISCARDS + seat * NUM_BIDDABLE
        for t in range(NUM_BIDDABLE):
            out[O_DISCARDS + k * NUM_BIDDABLE + t] = b[pile + t]
        out[O_SIZES + k] = hand_size(b, seat)
        out[O_SCORES + k] = score(b, seat)
        out[O_HEN_PLAYED + k] = b[HEN_PLAYED + seat]
        bid = b[LAST_BIDS + seat]
        if bid != NONE:
            out[O_LAST_BIDS + k * NUM_BIDDABLE + bid] = 1.0
        _digest_row(b, seat, out, O_RECENT + k * DIGEST_WIDTH)
    if n == 2:
        bid = b[LAST_BIDS + 2]
        if bid != NONE:
            out[O_LAST_BIDS + _ROBOT_ENTRY * NUM_BIDDABLE + bid] = 1.0
    _digest_row(b, n, out, O_RECENT + _ROBOT_ENTRY * DIGEST_WIDTH)


@njit
def _digest_row(b: NDArray[np.int8], row: int, out: NDArray[np.float32], at: int) -> None:
    start = DIGEST + row * DIGEST_ROW
    for c in range(DIGEST_WIDTH):
        out[at + c] = b[start + c]


@njit
def observe(b: NDArray[np.int8], n: int, o: int, out: NDArray[np.float32]) -> None:
    """Seat ``o``'s observation of row ``b`` into ``out`` (every entry written)."""
    out[:] = 0.0
    _public(b, n, out)
    _stage(b, n, o, out)
    _own(b, o, out)
    _seats(b, n, o, out)
