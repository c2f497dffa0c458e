"""What the table sees of each choice (docs/rules/README.md), read beside the action table."""

from __future__ import annotations

from collections.abc import Hashable

from ek_env.engine.actions import (
    ALTER_ACTION,
    GARBAGE_ACTION,
    GARBAGE_MARKED,
    GIVE_ACTION,
    GIVE_MARKED,
    INSERT_ACTION,
    actions_for,
)
from ek_env.engine.cards import KITTEN, STREAKING
from ek_env.engine.state import State


def choice_visibility(state: State, action: int) -> tuple[Hashable, int]:
    """What the table sees of the seat to act choosing ``action`` now (docs/rules/README.md).

    Returns ``(public, parties)``: alternatives with equal ``public`` differ only in a
    secret seen by the seats in the bit mask ``parties``. Secret choices:

    - the depth a defused kitten goes back to (``insert``): the actor only;
    - the order of Alter the Future (``alter``): the actor only;
    - the card given to a Favor (``give``): giver and receiver; public are a marked
      copy (its mark leaves), an Exploding Kitten (it explodes for the receiver) and
      a Streaking Kitten that leaves a held kitten behind (that kitten explodes);
    - the card put in by Garbage Collection (``garbage``): its owner; public are a
      marked copy, and a Streaking Kitten leaving a held kitten when the round of
      put-ins ends with this one (the kitten explodes then; until then nothing shows).

    Every other choice is announced: plays, targets, named cards, the five kinds, the
    card taken from the discard pile, Nope or pass, drawing, blind plays and the
    target of a turned-up card.
    """
    kind, card, _, _ = actions_for(state.config).specs[action]
    seat = state.to_act
    actor = 1 << seat
    if kind == INSERT_ACTION:
        return "insert", actor
    if kind == ALTER_ACTION:
        return "alter", actor
    holds_kitten = state.kinds > STREAKING and state.hands[seat][KITTEN] > 0
    if kind in (GIVE_ACTION, GIVE_MARKED):
        parties = actor | 1 << state.turn_holder
        marked = kind == GIVE_MARKED
        if marked or card == KITTEN or (card == STREAKING and holds_kitten):
            return ("give", card, marked), parties
        return "give", parties
    if kind in (GARBAGE_ACTION, GARBAGE_MARKED):
        marked = kind == GARBAGE_MARKED
        last = all(state.blind[other] for other in state.garbage_queue[1:])
        if marked or (card == STREAKING and holds_kitten and last):
            return ("garbage", card, marked), actor
        return "garbage", actor
    return action, actor
