"""Cards changing hands on one row of the batched engine, as
:mod:`ek_env.engine.transfers` moves them: Favor, steals, three of a kind, and five
different's card from the discard pile.

A kitten changing hands explodes for its receiver (Streaking Kittens), and a
Streaking Kitten leaving a held kitten behind lets that kitten go off; the turn
holder plays on afterwards, so no Nope window is waiting on these explosions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.explosions import carry_on, explode
from ek_env.batched.hands import (
    ANY_COPY,
    MARKED_COPY,
    UNMARKED_COPY,
    random_kind,
    remove_card,
)
from ek_env.batched.knowledge import (
    arrived_publicly,
    gained_seen,
    gained_unseen,
    left_publicly,
    moved_privately,
)
from ek_env.batched.layout import (
    DISCARD,
    EV_ASK,
    EV_GIVE,
    EV_STEAL,
    EV_TAKE,
    HANDS,
    KIND_ROOM,
    KITTEN_KIND,
    NO,
    ONE,
    PHASE,
    PLAY_PHASE,
    QUEUE,
    QUEUE_LEN,
    R_DONE,
    R_HIT,
    R_MARKED_COPY,
    R_NOTHING,
    RESUME,
    RESUME_PLAY,
    SIZES,
    STREAKING_KIND,
    TO_ACT,
    TURN_HOLDER,
    UNSEEN,
)
from ek_env.batched.record import log_event

__all__ = ["give", "steal_random", "take", "transfer"]


@njit
def transfer(s: Any, w: Any, opts: Any, giver: Any, receiver: Any, card: Any, random_copy: Any,
             public: Any, choice: Any, what: Any, rng: Any, chance: Any, row: Any) -> None:
    """``card`` goes from ``giver`` to ``receiver`` (Favor, steal, three of a kind);
    ``random_copy`` and ``choice`` as :func:`~ek_env.batched.hands.remove_card` takes
    them; ``what``: the record's code (GIVE, STEAL, ASK).

    A kitten explodes for its receiver; a Streaking Kitten leaving a held kitten
    makes that kitten explode for the giver. The turn holder then plays on."""
    was_marked = remove_card(s, giver, card, random_copy, choice, rng, chance, row)
    _record(w, giver, receiver, card, was_marked, what)
    if card == KITTEN_KIND:
        left_publicly(s, opts, giver, KITTEN_KIND, ONE)
        s[RESUME] = RESUME_PLAY
        explode(s, w, opts, receiver, ONE, rng, chance, row)
        return
    s[HANDS + KIND_ROOM * receiver + card] += 1
    s[SIZES + receiver] += 1
    if public:
        left_publicly(s, opts, giver, card, ONE)
        arrived_publicly(s, opts, receiver, card)
        gained_seen(s, opts, receiver, card)
    else:
        moved_privately(s, opts, giver, receiver, card)
        gained_unseen(s, opts, receiver)
    if card == STREAKING_KIND and s[HANDS + KIND_ROOM * giver + KITTEN_KIND]:
        # the giver's held kitten goes off (hands.streaking_left)
        s[QUEUE + s[QUEUE_LEN]] = giver
        s[QUEUE_LEN] += 1
        s[RESUME] = RESUME_PLAY
        carry_on(s, w, opts, rng, chance, row)


@njit
def _record(w: Any, giver: Any, receiver: Any, card: Any, was_marked: Any, what: Any) -> None:
    """The record of a card changing hands: public if asked for, a kitten or a
    marked copy; else the card is a secret of the two seats."""
    if what == EV_ASK:
        log_event(w, receiver, EV_ASK, giver, card, R_HIT, NO, UNSEEN)
        return
    result = R_MARKED_COPY if was_marked else R_DONE
    actor, target = (giver, receiver) if what == EV_GIVE else (receiver, giver)
    if was_marked or card == KITTEN_KIND:  # the table sees which card left
        log_event(w, actor, what, target, card, result, NO, UNSEEN)
    else:
        log_event(w, actor, what, target, NO, result, card,
                  np.int64(1) << giver | np.int64(1) << receiver)


@njit
def steal_random(s: Any, w: Any, opts: Any, target: Any, thief: Any, rng: Any, chance: Any,
                 row: Any) -> None:
    """A random card of ``target``'s hand goes to ``thief``; both see which."""
    if not s[SIZES + target]:
        log_event(w, thief, EV_STEAL, target, NO, R_NOTHING, NO, UNSEEN)
        return
    card = random_kind(s, opts, target, rng, chance, row)
    transfer(s, w, opts, target, thief, card, np.bool_(True), np.bool_(False), ANY_COPY, EV_STEAL,
             rng, chance, row)


@njit
def give(s: Any, w: Any, opts: Any, card: Any, marked: Any, rng: Any, chance: Any,
         row: Any) -> None:
    """Favor: the seat to act gives ``card`` (a marked copy if ``marked``) to the turn
    holder."""
    giver, receiver = np.int64(s[TO_ACT]), np.int64(s[TURN_HOLDER])
    s[PHASE] = PLAY_PHASE
    s[TO_ACT] = receiver
    transfer(s, w, opts, giver, receiver, card, np.bool_(False), np.bool_(False),
             MARKED_COPY if marked else UNMARKED_COPY, EV_GIVE, rng, chance, row)


@njit
def take(s: Any, w: Any, opts: Any, card: Any) -> None:
    """Five different: the turn holder takes ``card`` from the discard pile."""
    seat = np.int64(s[TURN_HOLDER])
    s[DISCARD + card] -= 1
    s[HANDS + KIND_ROOM * seat + card] += 1
    s[SIZES + seat] += 1
    arrived_publicly(s, opts, seat, card)
    gained_seen(s, opts, seat, card)
    log_event(w, seat, EV_TAKE, NO, card, R_DONE, NO, UNSEEN)
    s[PHASE] = PLAY_PHASE
    s[TO_ACT] = seat
