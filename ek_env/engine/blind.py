"""Blind play (docs/rules/exploding_kittens.md, Streaking Kittens, Curse of the Cat Butt): a blind seat cannot see its hand,
so it plays and Nopes with random cards of it."""

from __future__ import annotations

from cardgym.chance import Chance
from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import BLIND_PLAYABLE, KITTEN, NOPE, TARGETED
from ek_env.engine.explosions import carry_on, explode
from ek_env.engine.hands import remove_random, streaking_left
from ek_env.engine.seats import valid_offsets
from ek_env.engine.state import NOBODY, RESUME_PLAY, RESUME_WINDOW, SINGLE, TARGET, State
from ek_env.engine.turns import announce, open_window
from ek_env.engine.window import passed, resume_window


def blind_play(state: State, rng: Chance) -> None:
    """A blind turn holder turns a random card of their hand face up: a card playable
    now is played (a targeted one after its target is chosen); a kitten explodes;
    anything else is lost."""
    seat = state.turn_holder
    card = remove_random(state, seat, rng)
    knowledge.left_publicly(state, seat, card)
    log = state.log
    if card == KITTEN:
        log.append(rec.event(seat, rec.BLIND_PLAY, card=KITTEN, result=rec.EXPLODED))
        state.resume = RESUME_PLAY
        explode(state, seat, 1, rng)  # under RESUME_PLAY no Nope window closes
        return
    state.discard[card] += 1
    if card in TARGETED:
        if valid_offsets(state, card):
            log.append(rec.event(seat, rec.BLIND_PLAY, card=card, result=rec.PLAYED))
            announce(state, SINGLE, card, NOBODY)
            state.phase = TARGET
            return
    elif card in BLIND_PLAYABLE:
        log.append(rec.event(seat, rec.BLIND_PLAY, card=card, result=rec.PLAYED))
        announce(state, SINGLE, card, NOBODY)
        open_window(state, seat)
        return
    log.append(rec.event(seat, rec.BLIND_PLAY, card=card, result=rec.LOST))
    if streaking_left(state, seat, card):
        state.resume = RESUME_PLAY
        carry_on(state, rng)


def choose_target(state: State, target: int) -> None:
    """The target of a blind player's turned-up Favor, Mark or Curse; the Nope window
    opens."""
    state.pending_target = target
    state.log.append(rec.event(state.turn_holder, rec.TARGET, target, state.pending_card))
    open_window(state, state.turn_holder)


def blind_nope(state: State, rng: Chance) -> None:
    """A blind seat in a Nope window turns a random card: a Nope Nopes; a kitten
    explodes them (then the window goes on); anything else is lost."""
    seat = state.to_act
    card = remove_random(state, seat, rng)
    knowledge.left_publicly(state, seat, card)
    result = rec.NOPED if card == NOPE else rec.EXPLODED if card == KITTEN else rec.LOST
    state.log.append(rec.event(seat, rec.BLIND_NOPE, state.window_last, card, result))
    if card == NOPE:
        state.discard[NOPE] += 1
        state.nopes += 1
        open_window(state, seat)
        return
    if card == KITTEN:
        state.resume = RESUME_WINDOW
        state.resume_seat = seat
        resume_window(state, explode(state, seat, 1, rng), rng)
        return
    state.discard[card] += 1
    if streaking_left(state, seat, card):
        state.resume = RESUME_WINDOW
        state.resume_seat = seat
        resume_window(state, carry_on(state, rng), rng)
        return
    passed(state, seat, rng)
