"""The reveals that end each Karel Kakelaar stage, on one row of the batched engine
(compiled helpers; :mod:`kakelaar_env.engine.reveal`): every committed choice turned up at
once and carried out, the round digest kept as the reference keeps it."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.vector._numba import njit
from kakelaar_env.batched.layout import (
    ASKED,
    BID_VALUES,
    BIDS,
    D_FORCED,
    D_HEN,
    D_NO_BID,
    D_POSITION,
    D_TAKEN,
    D_TOOK,
    DIGEST,
    DIGEST_ROW,
    DISCARDS,
    HANDS,
    HEN_CHOICES,
    HEN_PLAYED,
    HEN_TYPE,
    HENS_OUT,
    LAST_BIDS,
    NONE,
    NUM_ASKED,
    NUM_CIRCLE,
    NUM_PICKS,
    PICKS,
    ROBOT_DECK,
    ROBOT_DISCARD,
    ROBOT_DISCARD_SIZE,
    ROBOT_SIZE,
    ROBOT_WON,
    ROBOT_WON_SIZE,
    ROW,
    ROW_SIZE,
    ROW_SLOTS,
    WHOLE_PILES,
    Int,
)
from kakelaar_env.batched.turns import must_play_hen, participant
from kakelaar_env.engine.cards import NUM_BIDDABLE, NUM_TYPES


@njit
def _rank_key(bid: Int) -> Int:
    """Sort key of a bid: higher bids first, no bid (``NONE``) after every bid."""
    return -BID_VALUES[bid] if bid != NONE else 1


@njit
def _rank(b: NDArray[np.int8], i: int, robot: int, robot_bid: Int) -> int:
    """The row position that the participant ``i`` places from the tractor takes: the
    participants before it in the ranking have lower keys, or equal keys and sit
    nearer the tractor (a stable sort of the participants in tractor order)."""
    key = _rank_key(robot_bid if participant(b, i) == robot
                    else np.int64(b[BIDS + participant(b, i)]))
    position = 0
    for j in range(np.int64(b[NUM_CIRCLE])):
        q = participant(b, j)
        other = _rank_key(robot_bid if q == robot else np.int64(b[BIDS + q]))
        if other < key or (other == key and j < i):
            position += 1
    return position


@njit
def reveal_bids(b: NDArray[np.int8], n: int) -> None:
    """Reveal the bids (and the robot's), hand out the row, discard the bids."""
    robot = -1
    robot_bid: Int = NONE
    if n == 2:
        robot = 2
        b[ROBOT_SIZE] -= 1
        robot_bid = np.int64(b[ROBOT_DECK + b[ROBOT_SIZE]])
        b[ROBOT_DECK + b[ROBOT_SIZE]] = 0
    b[DIGEST:DIGEST + 6 * DIGEST_ROW] = 0
    b[WHOLE_PILES] = 0
    for i in range(np.int64(b[NUM_CIRCLE])):
        p = participant(b, i)
        bid = robot_bid if p == robot else np.int64(b[BIDS + p])
        _take(b, n, p, robot, bid, _rank(b, i, robot, robot_bid))
    for seat in range(n):
        b[LAST_BIDS + seat] = b[BIDS + seat]
        b[BIDS + seat] = NONE
    if n == 2:
        b[LAST_BIDS + 2] = robot_bid
    b[ROW:ROW + 5] = 0
    b[ROW_SIZE] = 0


@njit
def _take(b: NDArray[np.int8], n: int, p: Int, robot: int, bid: Int, position: int) -> None:
    """Participant ``p`` takes the row card at ``position`` and discards its bid."""
    card = np.int64(b[ROW + position])
    at = DIGEST + min(p, n) * DIGEST_ROW
    b[at + D_POSITION + position] = 1
    b[at + D_TOOK + ROW_SLOTS[card]] = 1
    if p == robot:
        b[ROBOT_DISCARD + b[ROBOT_DISCARD_SIZE]] = bid
        b[ROBOT_DISCARD_SIZE] += 1
        b[ROBOT_WON + b[ROBOT_WON_SIZE]] = card
        b[ROBOT_WON_SIZE] += 1
        return
    b[HANDS + p * NUM_TYPES + card] += 1
    if bid == NONE:
        b[at + D_NO_BID] = 1
    else:
        b[HANDS + p * NUM_TYPES + bid] -= 1
        b[DISCARDS + p * NUM_BIDDABLE + bid] += 1


@njit
def reveal_hens(b: NDArray[np.int8]) -> int:
    """Reveal the mother hens played; take back whole discard piles of two cards or
    fewer. The hen players who choose their two cards into ``ASKED``, their count."""
    count = 0
    for i in range(b[NUM_ASKED]):
        seat = np.int64(b[ASKED + i])
        played = b[HEN_CHOICES + seat] == 1
        b[HEN_CHOICES + seat] = NONE
        if not played:
            continue
        at = DIGEST + seat * DIGEST_ROW
        b[at + D_HEN] = 1
        b[at + D_FORCED] = 1 if must_play_hen(b, seat) else 0
        b[HEN_PLAYED + seat] = 1
        b[HANDS + seat * NUM_TYPES + HEN_TYPE] -= 1
        b[HENS_OUT] += 1
        pile = DISCARDS + seat * NUM_BIDDABLE
        cards = 0
        for t in range(NUM_BIDDABLE):
            cards += b[pile + t]
        if cards <= 2:
            b[WHOLE_PILES] |= 1 << seat
            for t in range(NUM_BIDDABLE):
                b[HANDS + seat * NUM_TYPES + t] += b[pile + t]
                b[at + D_TAKEN + t] += b[pile + t]
                b[pile + t] = 0
        else:
            b[ASKED + count] = seat  # choosers are a subsequence of the hen seats
            count += 1
    return count


@njit
def reveal_picks(b: NDArray[np.int8]) -> None:
    """Reveal the cards taken back and move them into hand."""
    for i in range(b[NUM_ASKED]):
        seat = np.int64(b[ASKED + i])
        at = DIGEST + seat * DIGEST_ROW
        for k in range(b[NUM_PICKS + seat]):
            card = b[PICKS + 2 * seat + k]
            b[DISCARDS + seat * NUM_BIDDABLE + card] -= 1
            b[HANDS + seat * NUM_TYPES + card] += 1
            b[at + D_TAKEN + card] += 1
            b[PICKS + 2 * seat + k] = 0
        b[NUM_PICKS + seat] = 0
