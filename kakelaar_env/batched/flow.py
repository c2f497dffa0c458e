"""The flow of a Karel Kakelaar game on one row of the batched engine (compiled
helpers): the deal, commits, stages and rounds, as :mod:`kakelaar_env.engine.deal` and
:mod:`kakelaar_env.engine.flow` play them, over a row of bytes
(:mod:`kakelaar_env.batched.layout`). :func:`deal` starts a game in a row and
:func:`commit` applies a legal action of the seat to act, running the reveals
(:mod:`kakelaar_env.batched.reveal`) and stages that follow. Each function takes the
row ``b`` and the number of players ``n``.

What follows a stage's last commit runs as a loop over the steps of a round
(:func:`settle`) rather than as calls into each other, so that nothing recurses.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.vector._numba import njit
from cardgym.vector.random import below, shuffle
from kakelaar_env.batched.layout import (
    ASKED,
    BID_STAGE,
    BIDS,
    CIRCLE,
    CURRENT,
    CURSOR,
    DECK,
    DECK_SIZE,
    GAME_OVER,
    HANDS,
    HEN_CHOICES,
    HEN_PLAYED,
    HEN_STAGE,
    HEN_TYPE,
    LAST_BIDS,
    NONE,
    NUM_ASKED,
    NUM_CIRCLE,
    NUM_PICKS,
    PHASE,
    PICKS,
    REMOVED,
    REMOVED_SIZE,
    ROBOT_DECK,
    ROBOT_SIZE,
    ROUND,
    ROW,
    ROW_SIZE,
    TAKE_FIRST,
    TAKE_SECOND,
    TRACTOR,
    UNSEEN,
    WINNERS,
)
from kakelaar_env.batched.reveal import reveal_bids, reveal_hens, reveal_picks
from kakelaar_env.batched.scoring import winners
from kakelaar_env.batched.turns import ask, can_bid, participant
from kakelaar_env.engine.actions import HEN_NONE_INDEX, HEN_PLAY_INDEX, TAKE_BASE
from kakelaar_env.engine.cards import FIRST_CHICKEN, NUM_BIDDABLE, NUM_TYPES, ROUNDS

_ROBOT_CHICKENS = 3  # copies of each chicken value in the two-player robot deck
#: The steps of a round that follow a stage's last commit (:func:`settle`).
START_ROUND = 0
AFTER_BIDS = 1
AFTER_HENS = 2
AFTER_PICKS = 3
END_ROUND = 4


@njit
def removed_unseen(n: int) -> int:
    """Cards removed unseen at setup (:func:`kakelaar_env.engine.cards.removed_unseen`)."""
    return 18 if n <= 3 else 9 if n == 4 else 0


@njit
def row_size(n: int) -> int:
    """Cards in a row: one per player, 3 with two players (the robot bids too)."""
    return 3 if n == 2 else n


@njit
def deal(b: NDArray[np.int8], n: int, pile: NDArray[np.int8], rng: NDArray[np.uint64],
         row: int) -> None:
    """A new game in ``b`` (:func:`kakelaar_env.engine.deal.new_game`): chickens dealt, the 45
    cards of ``pile`` shuffled and trimmed, a random tractor holder, round 1's row."""
    b[:] = 0
    b[BIDS:BIDS + n] = NONE
    b[HEN_CHOICES:HEN_CHOICES + n] = NONE
    b[LAST_BIDS:LAST_BIDS + n + 1] = NONE
    for seat in range(n):
        b[HANDS + seat * NUM_TYPES + FIRST_CHICKEN:HANDS + seat * NUM_TYPES + NUM_BIDDABLE] = 1
    size = pile.shape[0]
    cut = size - removed_unseen(n)
    for k in range(size):
        b[DECK + k] = pile[k]
        b[UNSEEN + pile[k]] += 1
    shuffle(b[DECK:DECK + size], size, rng, row)
    for k in range(cut, size):
        b[REMOVED + k - cut] = b[DECK + k]
        b[DECK + k] = 0
    b[DECK_SIZE] = cut
    b[REMOVED_SIZE] = size - cut
    first = below(rng, row, n)
    if n == 2:
        for k in range(5 * _ROBOT_CHICKENS):
            b[ROBOT_DECK + k] = FIRST_CHICKEN + k // _ROBOT_CHICKENS
        shuffle(b[ROBOT_DECK:ROBOT_DECK + 5 * _ROBOT_CHICKENS], 5 * _ROBOT_CHICKENS, rng, row)
        b[ROBOT_SIZE] = 5 * _ROBOT_CHICKENS
        b[CIRCLE] = first
        b[CIRCLE + 1] = 1 - first
        b[CIRCLE + 2] = 2
        b[NUM_CIRCLE] = 3
    else:
        for seat in range(n):
            b[CIRCLE + seat] = seat
        b[NUM_CIRCLE] = n
        b[TRACTOR] = first
    b[ROUND] = 1
    b[PHASE] = BID_STAGE
    ask(b, _start_round(b, n))  # every seat holds its five chickens: all are asked


@njit
def commit(b: NDArray[np.int8], n: int, action: int) -> None:
    """The seat to act commits ``action`` (legal, unchecked); the stage resolves and
    the game moves on when it was the last commit (:mod:`kakelaar_env.engine.flow`)."""
    seat = np.int64(b[CURRENT])
    if action < NUM_BIDDABLE:
        b[BIDS + seat] = action
        step = AFTER_BIDS
    elif action <= HEN_PLAY_INDEX:
        b[HEN_CHOICES + seat] = action - HEN_NONE_INDEX
        step = AFTER_HENS
    else:
        b[PICKS + 2 * seat + b[NUM_PICKS + seat]] = action - TAKE_BASE
        b[NUM_PICKS + seat] += 1
        step = AFTER_PICKS
    cursor = b[CURSOR] + 1
    if cursor < b[NUM_ASKED]:
        b[CURSOR] = cursor
        b[CURRENT] = b[ASKED + cursor]
    elif step == AFTER_PICKS and b[PHASE] == TAKE_FIRST:
        b[PHASE] = TAKE_SECOND  # the same seats pick their second card
        b[CURSOR] = 0
        b[CURRENT] = b[ASKED]
    else:
        b[CURSOR] = cursor
        settle(b, n, step)


@njit
def settle(b: NDArray[np.int8], n: int, step: int) -> None:
    """Run the round from ``step`` on until a stage asks a seat or the game ends (a
    stage that asks nobody is skipped: its phase is set, then the next one's)."""
    while True:
        if step == START_ROUND:
            b[PHASE] = BID_STAGE
            if ask(b, _start_round(b, n)):
                return
            step = AFTER_BIDS
        elif step == AFTER_BIDS:
            reveal_bids(b, n)
            b[PHASE] = HEN_STAGE
            if ask(b, _hen_holders(b, n)):
                return
            step = END_ROUND
        elif step == AFTER_HENS:
            b[PHASE] = TAKE_FIRST
            if ask(b, reveal_hens(b)):
                return
            step = END_ROUND
        elif step == AFTER_PICKS:
            reveal_picks(b)
            step = END_ROUND
        else:
            b[HEN_PLAYED:HEN_PLAYED + n] = 0
            b[NUM_ASKED] = 0
            b[CURSOR] = 0
            if b[ROUND] >= ROUNDS:
                b[PHASE] = GAME_OVER
                b[WINNERS] = winners(b, n)
                return
            b[TRACTOR] = (b[TRACTOR] + 1) % b[NUM_CIRCLE]
            b[ROUND] += 1
            step = START_ROUND


@njit
def _start_round(b: NDArray[np.int8], n: int) -> int:
    """Turn up the row; the seats with a card to bid into ``ASKED``, their count."""
    size = row_size(n)
    top = np.int64(b[DECK_SIZE])
    for position in range(size):
        card = b[DECK + top - 1 - position]
        b[ROW + position] = card
        b[UNSEEN + card] -= 1
        b[DECK + top - 1 - position] = 0
    b[DECK_SIZE] = top - size
    b[ROW_SIZE] = size
    count = 0
    robot = 2 if n == 2 else -1
    for k in range(np.int64(b[NUM_CIRCLE])):
        seat = participant(b, k)
        if seat != robot and can_bid(b, seat):
            b[ASKED + count] = seat
            count += 1
    return count


@njit
def _hen_holders(b: NDArray[np.int8], n: int) -> int:
    """The seats holding a mother hen, from the tractor holder on, into ``ASKED``."""
    count = 0
    robot = 2 if n == 2 else -1
    for k in range(np.int64(b[NUM_CIRCLE])):
        seat = participant(b, k)
        if seat != robot and b[HANDS + seat * NUM_TYPES + HEN_TYPE] > 0:
            b[ASKED + count] = seat
            count += 1
    return count


@njit
def is_over(b: NDArray[np.int8]) -> bool:
    """Whether the game in ``b`` has ended."""
    return b[PHASE] == GAME_OVER
