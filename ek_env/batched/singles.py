"""What a single action card does once its Nope window lets it happen, on one row
of the batched engine, as :mod:`ek_env.engine.singles` resolves it (the base game's
cards here, the expansion's in :mod:`~ek_env.batched.streaking`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from cardgym.vector.random import shuffle
from ek_env.batched.future import saw
from ek_env.batched.hands import ANY_COPY, random_kind
from ek_env.batched.knowledge import deck_shuffled
from ek_env.batched.layout import (
    ATTACK_KIND,
    ATTACKED,
    BLIND,
    DECK,
    DECK_LEN,
    DECK_ROOM,
    EV_GIVE,
    EV_SAW,
    FAVOR_KIND,
    FUTURE_CARDS,
    GIVE_PHASE,
    NO,
    OPT_PLAYERS,
    OPT_STACK,
    OWED,
    PHASE,
    R_NOTHING,
    SEE_THE_FUTURE_KIND,
    SHUFFLE_KIND,
    SIZES,
    SKIP_KIND,
    TO_ACT,
    TURN_HOLDER,
)
from ek_env.batched.record import log_event
from ek_env.batched.seats import next_alive
from ek_env.batched.streaking import resolve_streaking
from ek_env.batched.transfers import transfer
from ek_env.batched.turns import settle_one, start_turns

__all__ = ["resolve_single"]


@njit
def resolve_single(s: Any, w: Any, opts: Any, card: Any, target: Any, rng: Any, chance: Any,
                   row: Any) -> None:
    """Single ``card`` of the turn holder happens (its target, or -1)."""
    seat = np.int64(s[TURN_HOLDER])
    if card == ATTACK_KIND:
        # the next player owes 2, or when stacking the attacked attacker's turns plus 2
        owed = np.int64(2)
        if opts[OPT_STACK] and s[ATTACKED]:
            owed += w[OWED]
        start_turns(s, w, next_alive(s, opts[OPT_PLAYERS], seat), owed, np.bool_(True))
    elif card == SKIP_KIND:
        settle_one(s, w, opts)
    elif card == FAVOR_KIND:
        _favor(s, w, opts, seat, target, rng, chance, row)
    elif card == SHUFFLE_KIND:
        chance[row] += 1
        shuffle(s[DECK:DECK + DECK_ROOM], np.int64(s[DECK_LEN]), rng, row)  # type: ignore[arg-type]
        deck_shuffled(s, opts)
    elif card == SEE_THE_FUTURE_KIND:
        saw(s, w, seat, FUTURE_CARDS, EV_SAW)
    else:
        resolve_streaking(s, w, opts, seat, card, target, rng, chance, row)


@njit
def _favor(s: Any, w: Any, opts: Any, seat: Any, target: Any, rng: Any, chance: Any,
           row: Any) -> None:
    """The target gives a card of its choice (a blind target: a random one)."""
    if not s[SIZES + target]:
        log_event(w, target, EV_GIVE, seat, NO, R_NOTHING, NO, np.int64(0))
    elif s[BLIND + target]:
        card = random_kind(s, opts, target, rng, chance, row)
        transfer(s, w, opts, target, seat, card, np.bool_(True), np.bool_(False), ANY_COPY,
                 EV_GIVE, rng, chance, row)
    else:
        s[PHASE] = GIVE_PHASE
        s[TO_ACT] = target
