"""Setting up the table on one row of the batched engine, as
:func:`ek_env.engine.setup.deal` sets it up, drawing from the row's stream exactly as
the reference draws from :class:`~cardgym.chance.GameRandom`: the cards other than
kittens and Defuses shuffled (a list in kind order), each hand dealt from its end, a
third of the rest back to the box with the ``fast`` option, then the rest with the
kittens and leftover Defuses shuffled into the draw pile, and the first player
drawn with ``integers(n)``."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from cardgym.vector.random import below, shuffle
from ek_env.batched.layout import (
    ALIVE,
    BOX,
    DECK,
    DECK_LEN,
    DECK_ROOM,
    DEFUSE_KIND,
    HANDS,
    HANDS_LEN,
    KIND_ROOM,
    KITTEN_KIND,
    MARKED_LEN,
    OPT_COUNTS,
    OPT_DEFUSES,
    OPT_FAST,
    OPT_HAND_SIZE,
    OPT_KINDS,
    OPT_KITTENS,
    OPT_PLAYERS,
    OWED,
    PENDING_CARD,
    PENDING_NAMED,
    PENDING_TARGET,
    RESUME_SEAT,
    SIZES,
    TO_ACT,
    TURN_HOLDER,
    WINDOW_LAST,
    WINNER,
)

__all__ = ["new_game"]


@njit
def new_game(s: Any, w: Any, opts: Any, rng: Any, chance: Any, row: Any) -> None:
    """Shuffle and deal a new game into the row (three draws: two shuffles and the
    first player)."""
    n, kinds, hand_size = opts[OPT_PLAYERS], opts[OPT_KINDS], opts[OPT_HAND_SIZE]
    s[:] = 0
    w[:] = 0
    _blank(s, w, n, kinds)
    deck = s[DECK:DECK + DECK_ROOM]
    count = np.int64(0)  # the cards other than kittens and Defuses, in kind order
    for card in range(kinds):
        if card != KITTEN_KIND and card != DEFUSE_KIND:
            for _ in range(opts[OPT_COUNTS + card]):
                deck[count] = card
                count += 1
    chance[row] += 1
    shuffle(deck, count, rng, row)  # type: ignore[arg-type]
    for seat in range(n):  # each hand from the end of the shuffled list
        hand = HANDS + KIND_ROOM * seat
        for _ in range(hand_size):
            count -= 1
            s[hand + deck[count]] += 1
        s[hand + DEFUSE_KIND] += 1
        s[SIZES + seat] = hand_size + 1
    if opts[OPT_FAST]:  # a third of the undealt cards go back to the box unseen
        for _ in range(count // 3):
            count -= 1
            s[BOX + deck[count]] += 1
    for _ in range(opts[OPT_KITTENS]):
        deck[count] = KITTEN_KIND
        count += 1
    for _ in range(opts[OPT_DEFUSES]):
        deck[count] = DEFUSE_KIND
        count += 1
    chance[row] += 1
    shuffle(deck, count, rng, row)  # type: ignore[arg-type]
    s[DECK_LEN] = count
    s[BOX + KITTEN_KIND] = opts[OPT_COUNTS + KITTEN_KIND] - opts[OPT_KITTENS]
    s[BOX + DEFUSE_KIND] = opts[OPT_COUNTS + DEFUSE_KIND] - n - opts[OPT_DEFUSES]
    chance[row] += 1
    first = np.int64(below(rng, row, n))
    s[TURN_HOLDER] = first
    s[TO_ACT] = first


@njit
def _blank(s: Any, w: Any, n: Any, kinds: Any) -> None:
    """The values of a new state other than zero (``State``'s ``init``): no pending
    play, target, Noper or winner; one turn owed; every seat alive, its hand and
    marks counted over the kinds in play."""
    s[PENDING_CARD] = -1
    s[PENDING_TARGET] = -1
    s[PENDING_NAMED] = -1
    s[WINDOW_LAST] = -1
    s[WINNER] = -1
    s[RESUME_SEAT] = -1
    w[OWED] = 1
    for seat in range(n):
        s[ALIVE + seat] = 1
        s[HANDS_LEN + seat] = kinds
        s[MARKED_LEN + seat] = kinds
