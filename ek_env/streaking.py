"""Streaking Kittens (RULES.md §4): the expansion's cards and blind play.

The turn flow, explosions and hand changes they rely on are :mod:`ek_env.effects`';
like those, these functions trust their caller to apply legal moves only.
"""

from __future__ import annotations

import numpy as np

from cardgym.record import NONE
from ek_env import knowledge
from ek_env import record as rec
from ek_env.cards import (
    ALTER_THE_FUTURE_5X,
    BLIND_PLAYABLE,
    CATOMIC_BOMB,
    CURSE,
    FUTURE_5X_CARDS,
    GARBAGE_COLLECTION,
    KITTEN,
    MARK,
    NOPE,
    SEE_THE_FUTURE_5X,
    STREAKING,
    SUPER_SKIP,
    SWAP_TOP_AND_BOTTOM,
    TARGETED,
)
from ek_env.effects import (
    announce,
    carry_on,
    explode,
    nth_card,
    open_window,
    passed,
    remove_card,
    remove_random,
    remove_random_copy,
    saw,
    settle_one,
    streaking_left,
    target_offsets,
)
from ek_env.state import (
    ALTER,
    GARBAGE,
    NOBODY,
    PLAY,
    RESUME_PLAY,
    RESUME_WINDOW,
    SINGLE,
    TARGET,
    State,
)

# ------------------------------------------------------------- blind play


def valid_offsets(state: State, card: int) -> int:
    """Seats a turned-up targeted card may aim at, as :func:`target_offsets`' bit mask:
    living others, with cards for Favor and Mark when ``empty_hand_target`` is
    ``"forbidden"``."""
    return target_offsets(state, card != CURSE and state.config.empty_hand_target == "forbidden")


def valid_targets(state: State, card: int) -> list[int]:
    """The seats of :func:`valid_offsets`."""
    offsets, n = valid_offsets(state, card), state.num_players
    return [(state.current + k) % n for k in range(1, n) if offsets >> k & 1]


def blind_play(state: State, rng: np.random.Generator) -> None:
    """A blind turn holder turns a random card of their hand face up: a card playable
    now is played (a targeted one after its target is chosen); a kitten explodes;
    anything else is lost."""
    seat = state.current
    card = remove_random(state, seat, rng)
    knowledge.left_publicly(state, seat, card)
    log = state.log
    if card == KITTEN:
        log.append(rec.event(seat, rec.BLIND_PLAY, card=KITTEN, result=rec.EXPLODED))
        state.resume = RESUME_PLAY
        explode(state, seat, 1, rng)
        return
    state.discard[card] += 1
    if card in TARGETED:
        if valid_targets(state, card):
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
    state.log.append(rec.event(state.current, rec.TARGET, target, state.pending_card))
    open_window(state, state.current)


def blind_nope(state: State, rng: np.random.Generator) -> None:
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
        explode(state, seat, 1, rng)
        return
    state.discard[card] += 1
    if streaking_left(state, seat, card):
        state.resume = RESUME_WINDOW
        state.resume_seat = seat
        carry_on(state, rng)
        return
    passed(state, seat, rng)


def resolve(state: State, card: int, target: int, rng: np.random.Generator) -> None:
    """The expansion's single cards, once their Nope window let them happen."""
    seat = state.current
    deck = state.deck
    if card == CATOMIC_BOMB:
        kittens = deck.count(KITTEN)
        rest = [c for c in deck if c != KITTEN]
        rng.shuffle(rest)
        deck[:] = rest + [KITTEN] * kittens
        knowledge.everyone_sees_top(state, KITTEN, kittens)
        state.log.append(rec.event(seat, rec.BOMB, result=kittens))
        settle_one(state)
    elif card == SUPER_SKIP:
        state.owed = 1
        settle_one(state)
    elif card == SEE_THE_FUTURE_5X:
        saw(state, seat, FUTURE_5X_CARDS, rec.SAW)
    elif card == ALTER_THE_FUTURE_5X:
        count = min(FUTURE_5X_CARDS, len(deck))
        saw(state, seat, count, rec.ALTERED)
        if count <= 1:  # nothing to reorder
            _altered(state, seat, deck[len(deck) - count :])
        else:  # the cards come off the pile while they are reordered
            state.alter_left = sorted(deck[len(deck) - count :])
            state.alter_placed = []
            del deck[len(deck) - count :]
            knowledge.lifted_top(state, count)
            state.phase = ALTER
    elif card == SWAP_TOP_AND_BOTTOM:
        if len(deck) > 1:
            deck[0], deck[-1] = deck[-1], deck[0]
            knowledge.swapped_ends(state)
    elif card == GARBAGE_COLLECTION:
        n = state.num_players
        order = [(seat + k) % n for k in range(n)]
        state.garbage_queue = [s for s in order if state.alive[s] and state.sizes[s]]
        state.garbage_in = []
        state.garbage_from = []
        state.garbage_lost = []
        _next_garbage(state, rng)
    elif card == MARK:
        hand = state.hands[target]
        size = sum(hand)
        if size:
            kind = nth_card(hand, int(rng.integers(size)))
            marks = state.marked[target]
            result = rec.ALREADY_MARKED
            if int(rng.integers(hand[kind])) >= marks[kind]:
                marks[kind] += 1
                state.marks_total += 1
                result = rec.DONE
            state.log.append(rec.event(seat, rec.MARK, target, kind, result))
        else:
            state.log.append(rec.event(seat, rec.MARK, target, NONE, rec.NOTHING))
    elif card == CURSE:
        if state.alive[target] and not state.blind[target]:
            state.blind[target] = True
            knowledge.sight_changed(state, target)


def alter(state: State, card: int) -> None:
    """Alter the Future 5x: put a card of kind ``card`` at the next depth, top first;
    the last card goes where it must and the draw pile takes the new order."""
    state.alter_left.remove(card)
    state.alter_placed.append(card)
    if len(state.alter_left) > 1:
        return
    placed = state.alter_placed + state.alter_left
    state.deck += placed[::-1]
    knowledge.altered(state, state.current, placed)
    _altered(state, state.current, placed)
    state.alter_left = []
    state.alter_placed = []
    state.phase = PLAY
    state.to_act = state.current


def _altered(state: State, seat: int, placed: list[int]) -> None:
    """The record of Alter the Future: how many cards; the order (top first) only to
    ``seat``."""
    state.log.append(rec.event(seat, rec.ALTERED, result=len(placed), secret=rec.pack(placed),
                           seen_by=1 << seat))


def _next_garbage(state: State, rng: np.random.Generator) -> None:
    """Garbage Collection: the next seat puts a card in (a blind one at random, seen
    only by itself); when all have, the draw pile is shuffled and the kittens whose
    Streaking Kitten went in explode, clockwise from the turn holder."""
    queue = state.garbage_queue
    while queue:
        seat = queue[0]
        if not state.blind[seat]:
            state.phase = GARBAGE
            state.to_act = seat
            return
        _put_garbage(state, seat, *remove_random_copy(state, seat, rng))
    state.deck += state.garbage_in
    state.garbage_in = []
    state.garbage_from = []
    rng.shuffle(state.deck)
    knowledge.deck_shuffled(state)
    state.explode_queue = state.garbage_lost
    state.garbage_lost = []
    state.resume = RESUME_PLAY
    state.phase = PLAY
    carry_on(state, rng)


def _put_garbage(state: State, seat: int, card: int, marked: bool) -> None:
    knowledge.left_unseen(state, seat, card)
    if marked:  # its mark leaves: the table sees which card went in
        state.log.append(rec.event(seat, rec.GARBAGE, card=card, result=rec.MARKED_COPY))
    else:
        state.log.append(rec.event(seat, rec.GARBAGE, result=rec.DONE, secret=card,
                               seen_by=1 << seat))
    state.garbage_in.append(card)
    state.garbage_from.append(seat)
    if card == STREAKING and state.hands[seat][KITTEN]:
        state.garbage_lost.append(seat)
    state.garbage_queue.pop(0)


def garbage(state: State, card: int, rng: np.random.Generator, marked: bool = False) -> None:
    """The seat to act puts ``card`` (a marked copy if ``marked``) from its hand into
    the draw pile (Garbage Collection)."""
    seat = state.to_act
    remove_card(state, seat, card, None, marked)
    _put_garbage(state, seat, card, marked)
    _next_garbage(state, rng)


