"""Nope windows (docs/rules/exploding_kittens.md "Nope", §1): answering a pending play, and what the play
does once its window closes.

Every living seat is asked in turn after the play (or the last Nope) and its maker
last; when a whole window passes, the play happens if the number of Nopes is even.
"""

from __future__ import annotations

from cardgym.chance import Chance
from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import NOPE, STREAKING, TAKEABLE, TAKEABLE_STREAKING
from ek_env.engine.hands import discard_from_hand
from ek_env.engine.seats import next_alive
from ek_env.engine.singles import resolve_single
from ek_env.engine.state import FIVE, PAIR, PLAY, SINGLE, TAKE, THREE, State
from ek_env.engine.transfers import steal_random, transfer
from ek_env.engine.turns import clear_pending, open_window


def respond(state: State, nope: bool, rng: Chance) -> None:
    """The seat asked in a Nope window Nopes or passes; after a full round of passes
    the pending play resolves if the number of Nopes is even."""
    seat = state.to_act
    if nope:
        discard_from_hand(state, seat, NOPE, 1)
        state.nopes += 1
        state.log.append(rec.event(seat, rec.NOPE, state.window_last, NOPE,
                                   min(state.nopes, rec.RESULTS - 1)))
        open_window(state, seat)
        return
    passed(state, seat, rng)


def passed(state: State, seat: int, rng: Chance) -> None:
    """``seat`` let the pending play (or the last Nope) stand: the next seat is asked,
    or the window closes after its last seat."""
    if seat != state.window_last:
        state.to_act = next_alive(state, seat)
        return
    resolve(state, rng)


def resume_window(state: State, closes: bool, rng: Chance) -> None:
    """After an explosion that interrupted a Nope window is settled: the play resolves
    if the window ``closes`` (what :func:`ek_env.engine.explosions.carry_on` reported)."""
    if closes:
        resolve(state, rng)


def resolve(state: State, rng: Chance) -> None:
    """The Nope window closed: the turn holder plays on, and the pending play happens
    if the number of Nopes is even."""
    kind, card, target = state.pending_kind, state.pending_card, state.pending_target
    named, succeeded = state.pending_named, state.nopes % 2 == 0
    clear_pending(state)
    state.phase = PLAY
    seat = state.to_act = state.turn_holder
    state.log.append(rec.event(seat, rec.WINDOW, target, card,
                               rec.ALLOWED if succeeded else rec.STOPPED))
    if not succeeded:
        return
    if kind == SINGLE:
        resolve_single(state, card, target, rng)
    elif kind == PAIR:
        steal_random(state, target, seat, rng)
    elif kind == THREE:
        _ask(state, seat, target, named, rng)
    elif kind == FIVE:
        _take_phase(state, seat)


def _ask(state: State, seat: int, target: int, named: int, rng: Chance) -> None:
    """Three of a kind: the target hands over the named card if it has one, in plain
    sight; a miss tells the table it has none."""
    if state.hands[target][named]:
        transfer(state, target, seat, named, False, True, rng, what=rec.ASK)
    else:
        state.log.append(rec.event(seat, rec.ASK, target, named, rec.MISS))
        knowledge.ruled_out(state, target, named)


def _take_phase(state: State, seat: int) -> None:
    """Five different: the turn holder takes a card from the discard pile, if any
    there may be taken."""
    takeable = TAKEABLE_STREAKING if state.kinds > STREAKING else TAKEABLE
    if any(state.discard[c] for c in takeable):
        state.phase = TAKE
    else:
        state.log.append(rec.event(seat, rec.TAKE, result=rec.NOTHING))
