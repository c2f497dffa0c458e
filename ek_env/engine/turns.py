"""Exploding Kittens turn flow (docs/rules/exploding_kittens.md): owed turns, announced plays, Nope windows
opening.

Like every engine module, these functions change a state in place and trust their
caller: the move was checked to be legal.
"""

from __future__ import annotations

from ek_env.engine.seats import next_alive
from ek_env.engine.state import NO_CARD, NO_PLAY, NOBODY, NOPE_WINDOW, PLAY, State


def start_turns(state: State, seat: int, owed: int, attacked: bool) -> None:
    """``seat`` becomes the turn holder, owing ``owed`` turns."""
    state.turn_holder = seat
    state.to_act = seat
    state.owed = owed
    state.attacked = attacked
    state.phase = PLAY
    state.turns_played += 1


def settle_one(state: State) -> None:
    """One owed turn is over (a draw, a Skip, a Defuse); the next player starts when
    none is left."""
    state.owed -= 1
    if state.owed == 0:
        start_turns(state, next_alive(state, state.turn_holder), 1, False)
    else:
        state.phase = PLAY
        state.to_act = state.turn_holder
        state.turns_played += 1


def announce(state: State, kind: int, card: int, target: int) -> None:
    """A play of ``kind`` is announced and awaits its Nope window."""
    state.pending_kind = kind
    state.pending_card = card
    state.pending_target = target
    state.pending_named = NO_CARD
    state.nopes = 0


def clear_pending(state: State) -> None:
    """No play is pending any more."""
    state.pending_kind = NO_PLAY
    state.pending_card = state.pending_named = NO_CARD
    state.pending_target = NOBODY
    state.pending_five = []
    state.nopes = 0
    state.window_last = NOBODY


def open_window(state: State, opener: int) -> None:
    """Every living seat is asked in turn, clockwise after ``opener`` and ``opener``
    last: being asked depends on nobody's cards (docs/rules/README.md)."""
    state.phase = NOPE_WINDOW
    state.window_last = opener
    state.to_act = next_alive(state, opener)
