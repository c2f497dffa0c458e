"""Garbage Collection (docs/rules/exploding_kittens.md, Streaking Kittens): every seat with cards puts one into the draw pile,
clockwise from the turn holder; then the pile is shuffled.

A blind seat puts in a random card; a Streaking Kitten put in while its owner holds
a kitten lets that kitten explode once the pile is shuffled.
"""

from __future__ import annotations

from cardgym.chance import Chance
from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import KITTEN, STREAKING
from ek_env.engine.explosions import carry_on
from ek_env.engine.hands import remove_card, remove_random_copy
from ek_env.engine.state import GARBAGE, PLAY, RESUME_PLAY, State


def start_garbage(state: State, seat: int, rng: Chance) -> None:
    """Garbage Collection played by ``seat`` goes ahead: the seats with cards, from
    ``seat`` clockwise, put one in."""
    n = state.num_players
    order = [(seat + k) % n for k in range(n)]
    state.garbage_queue = [s for s in order if state.alive[s] and state.sizes[s]]
    state.garbage_in = []
    state.garbage_from = []
    state.garbage_lost = []
    _next_garbage(state, rng)


def garbage(state: State, card: int, rng: Chance, marked: bool = False) -> None:
    """The seat to act puts ``card`` (a marked copy if ``marked``) from its hand into
    the draw pile (Garbage Collection)."""
    seat = state.to_act
    remove_card(state, seat, card, None, marked)
    _put_garbage(state, seat, card, marked)
    _next_garbage(state, rng)


def _next_garbage(state: State, rng: Chance) -> None:
    """The next seat puts a card in (a blind one at random, seen only by itself); when
    all have, the draw pile is shuffled and the kittens whose Streaking Kitten went
    in explode, clockwise from the turn holder."""
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
    carry_on(state, rng)  # under RESUME_PLAY no Nope window closes


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
