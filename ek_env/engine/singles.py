"""What a single action card does once its Nope window lets it happen (docs/rules/exploding_kittens.md;
the expansion's cards are :mod:`ek_env.engine.streaking`'s)."""

from __future__ import annotations

from cardgym.chance import Chance
from cardgym.record import NONE
from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import ATTACK, FAVOR, SEE_THE_FUTURE, SEE_THE_FUTURE_CARDS, SHUFFLE, SKIP
from ek_env.engine.future import saw
from ek_env.engine.hands import random_kind
from ek_env.engine.seats import next_alive
from ek_env.engine.state import GIVE, State
from ek_env.engine.streaking import EFFECTS as STREAKING_EFFECTS
from ek_env.engine.streaking import Effect
from ek_env.engine.transfers import transfer
from ek_env.engine.turns import settle_one, start_turns


def _attack(state: State, seat: int, target: int, rng: Chance) -> None:
    """The turn holder's turns end without a draw; the next player owes 2 (or, when
    stacking, the attacked attacker's owed turns plus 2)."""
    stack = state.config.attack_stacking == "stack" and state.attacked
    start_turns(state, next_alive(state, seat), state.owed + 2 if stack else 2, True)


def _skip(state: State, seat: int, target: int, rng: Chance) -> None:
    settle_one(state)


def _favor(state: State, seat: int, target: int, rng: Chance) -> None:
    """The target gives a card of its choice (a blind target: a random one)."""
    if not state.sizes[target]:
        state.log.append(rec.event(target, rec.GIVE, seat, NONE, rec.NOTHING))
    elif state.blind[target]:
        transfer(state, target, seat, random_kind(state, target, rng), True, False, rng)
    else:
        state.phase = GIVE
        state.to_act = target


def _shuffle(state: State, seat: int, target: int, rng: Chance) -> None:
    rng.shuffle(state.deck)
    knowledge.deck_shuffled(state)


def _see_the_future(state: State, seat: int, target: int, rng: Chance) -> None:
    saw(state, seat, SEE_THE_FUTURE_CARDS, rec.SAW)


#: Every single card by kind, the expansion's included.
EFFECTS: dict[int, Effect] = {
    ATTACK: _attack,
    SKIP: _skip,
    FAVOR: _favor,
    SHUFFLE: _shuffle,
    SEE_THE_FUTURE: _see_the_future,
    **STREAKING_EFFECTS,
}


def resolve_single(state: State, card: int, target: int, rng: Chance) -> None:
    """Single ``card`` of the turn holder happens (its target or NOBODY)."""
    EFFECTS[card](state, state.turn_holder, target, rng)
