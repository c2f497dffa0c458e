"""Turn flow on one row of the batched engine, as :mod:`ek_env.engine.turns` plays it:
owed turns, announced plays, Nope windows opening."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from ek_env.batched.layout import (
    ATTACKED,
    FIVE_LEN,
    NO_PLAY,
    NOPE_WINDOW_PHASE,
    NOPES,
    ONE,
    OPT_PLAYERS,
    OWED,
    PENDING_CARD,
    PENDING_KIND,
    PENDING_NAMED,
    PENDING_TARGET,
    PHASE,
    PLAY_PHASE,
    TO_ACT,
    TURN_HOLDER,
    TURNS_PLAYED,
    WINDOW_LAST,
)
from ek_env.batched.seats import next_alive


@njit
def start_turns(s: Any, w: Any, seat: Any, owed: Any, attacked: Any) -> None:
    """``seat`` becomes the turn holder, owing ``owed`` turns."""
    s[TURN_HOLDER] = seat
    s[TO_ACT] = seat
    w[OWED] = owed
    s[ATTACKED] = attacked
    s[PHASE] = PLAY_PHASE
    w[TURNS_PLAYED] += 1


@njit
def settle_one(s: Any, w: Any, opts: Any) -> None:
    """One owed turn is over (a draw, a Skip, a Defuse); the next player starts when
    none is left."""
    w[OWED] -= 1
    holder = np.int64(s[TURN_HOLDER])
    if w[OWED] == 0:
        start_turns(s, w, next_alive(s, opts[OPT_PLAYERS], holder), ONE, np.bool_(False))
    else:
        s[PHASE] = PLAY_PHASE
        s[TO_ACT] = holder
        w[TURNS_PLAYED] += 1


@njit
def announce(s: Any, kind: Any, card: Any, target: Any) -> None:
    """A play of ``kind`` is announced and awaits its Nope window."""
    s[PENDING_KIND] = kind
    s[PENDING_CARD] = card
    s[PENDING_TARGET] = target
    s[PENDING_NAMED] = -1
    s[NOPES] = 0


@njit
def clear_pending(s: Any) -> None:
    """No play is pending any more."""
    s[PENDING_KIND] = NO_PLAY
    s[PENDING_CARD] = -1
    s[PENDING_NAMED] = -1
    s[PENDING_TARGET] = -1
    s[FIVE_LEN] = 0
    s[NOPES] = 0
    s[WINDOW_LAST] = -1


@njit
def open_window(s: Any, opts: Any, opener: Any) -> None:
    """Every living seat is asked in turn, clockwise after ``opener`` and ``opener``
    last."""
    s[PHASE] = NOPE_WINDOW_PHASE
    s[WINDOW_LAST] = opener
    s[TO_ACT] = next_alive(s, opts[OPT_PLAYERS], opener)
