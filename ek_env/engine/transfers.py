"""Cards changing hands (docs/rules/exploding_kittens.md): Favor, steals, three of a kind, and five
different's card from the discard pile.

A kitten changing hands explodes for its receiver (Streaking Kittens), and a
Streaking Kitten leaving a held kitten behind lets that kitten go off; the turn
holder plays on afterwards, so no Nope window is waiting on these explosions.
"""

from __future__ import annotations

from cardgym.chance import Chance
from cardgym.record import NONE
from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import KITTEN
from ek_env.engine.explosions import carry_on, explode
from ek_env.engine.hands import random_kind, remove_card, streaking_left
from ek_env.engine.state import PLAY, RESUME_PLAY, State


def transfer(state: State, giver: int, receiver: int, card: int, random_copy: bool,
             public: bool, rng: Chance, marked: bool | None = None,
             what: int = rec.GIVE) -> None:
    """``card`` goes from ``giver`` to ``receiver`` (Favor, steal, three of a kind);
    ``marked`` as in :func:`~ek_env.engine.hands.remove_card`; ``what``: the record's code
    (GIVE, STEAL, ASK).

    A kitten explodes for its receiver; a Streaking Kitten leaving a held kitten
    makes that kitten explode for the giver. The turn holder then plays on.
    """
    was_marked = remove_card(state, giver, card, rng if random_copy else None, marked)
    _record(state, giver, receiver, card, was_marked, what)
    if card == KITTEN:
        knowledge.left_publicly(state, giver, KITTEN)
        state.resume = RESUME_PLAY
        explode(state, receiver, 1, rng)
        return
    state.hands[receiver][card] += 1
    state.sizes[receiver] += 1
    if public:
        knowledge.moved_publicly(state, giver, receiver, card)
        knowledge.gained_seen(state, receiver, card)
    else:
        knowledge.moved_privately(state, giver, receiver, card)
        knowledge.gained_unseen(state, receiver)
    if streaking_left(state, giver, card):
        state.resume = RESUME_PLAY
        carry_on(state, rng)


def _record(state: State, giver: int, receiver: int, card: int, was_marked: bool,
            what: int) -> None:
    """The record of a card changing hands: public if asked for, a kitten or a
    marked copy; else the card is a secret of the two seats."""
    if what == rec.ASK:
        state.log.append(rec.event(receiver, rec.ASK, giver, card, rec.HIT))
        return
    result = rec.MARKED_COPY if was_marked else rec.DONE
    actor, target = (giver, receiver) if what == rec.GIVE else (receiver, giver)
    if was_marked or card == KITTEN:  # the table sees which card left
        state.log.append(rec.event(actor, what, target, card, result))
    else:
        state.log.append(rec.event(actor, what, target, NONE, result, card,
                                   1 << giver | 1 << receiver))


def steal_random(state: State, target: int, thief: int, rng: Chance) -> None:
    """A random card of ``target``'s hand goes to ``thief``; both see which."""
    if not state.sizes[target]:
        state.log.append(rec.event(thief, rec.STEAL, target, NONE, rec.NOTHING))
        return
    transfer(state, target, thief, random_kind(state, target, rng), True, False, rng,
             what=rec.STEAL)


def give(state: State, card: int, rng: Chance, marked: bool = False) -> None:
    """Favor: the seat to act gives ``card`` (a marked copy if ``marked``) to the turn
    holder."""
    giver, receiver = state.to_act, state.turn_holder
    state.phase = PLAY
    state.to_act = receiver
    transfer(state, giver, receiver, card, False, False, rng, marked, rec.GIVE)


def take(state: State, card: int) -> None:
    """Five different: the turn holder takes ``card`` from the discard pile."""
    seat = state.turn_holder
    state.discard[card] -= 1
    state.hands[seat][card] += 1
    state.sizes[seat] += 1
    knowledge.arrived_publicly(state, seat, card)
    knowledge.gained_seen(state, seat, card)
    state.log.append(rec.event(seat, rec.TAKE, card=card, result=rec.DONE))
    state.phase = PLAY
    state.to_act = seat
