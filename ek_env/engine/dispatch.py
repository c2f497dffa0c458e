"""Applying an action: the one dispatch of Exploding Kittens moves (docs/rules/exploding_kittens.md-§4).

An action's row in the table is ``(kind, card, seat offset, depth)``; its kind picks
the engine function, which trusts that the action is legal (the env checks the mask;
:func:`ek_env.rules.apply` checks readable moves). Randomness comes from the
generator argument only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from cardgym.chance import Chance
from ek_env.engine import actions as act
from ek_env.engine import blind, explosions, future, garbage, plays, transfers, window
from ek_env.engine.actions import BASE_ACTIONS, STREAKING_ACTIONS, Actions
from ek_env.engine.cards import NUM_KINDS
from ek_env.engine.state import State

#: Applies one kind of action: (state, card, seat offset, depth, rng).
Handler = Callable[[State, int, int, int, Chance], None]


def _seat(state: State, offset: int) -> int:
    return (state.turn_holder + offset) % state.num_players


def _draw(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    explosions.draw(state, rng)


def _single(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    plays.play_card(state, card, _seat(state, offset) if offset else None)


def _pair(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    plays.play_pair(state, card, _seat(state, offset))


def _three(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    plays.play_three(state, card, _seat(state, offset))


def _five(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    plays.play_five(state)


def _choose(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    plays.choose_five(state, card)


def _name(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    plays.name_card(state, card)


def _nope(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    window.respond(state, True, rng)


def _pass(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    window.respond(state, False, rng)


def _give(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    transfers.give(state, card, rng)


def _give_marked(state: State, card: int, offset: int, depth: int,
                 rng: Chance) -> None:
    transfers.give(state, card, rng, True)


def _insert(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    # A blind seat's kitten may have exploded while it tried to Nope: the window it
    # interrupted may close now.
    window.resume_window(state, explosions.insert(state, depth, rng), rng)


def _take(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    transfers.take(state, card)


def _blind_play(state: State, card: int, offset: int, depth: int,
                rng: Chance) -> None:
    blind.blind_play(state, rng)


def _blind_nope(state: State, card: int, offset: int, depth: int,
                rng: Chance) -> None:
    blind.blind_nope(state, rng)


def _target(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    blind.choose_target(state, _seat(state, offset))


def _alter(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    future.alter(state, card)


def _garbage(state: State, card: int, offset: int, depth: int, rng: Chance) -> None:
    garbage.garbage(state, card, rng)


def _garbage_marked(state: State, card: int, offset: int, depth: int,
                    rng: Chance) -> None:
    garbage.garbage(state, card, rng, True)


_BY_KIND: dict[int, Handler] = {
    act.DRAW: _draw, act.PLAY_SINGLE: _single, act.PLAY_PAIR: _pair,
    act.PLAY_THREE: _three, act.PLAY_FIVE: _five, act.CHOOSE: _choose, act.NAME: _name,
    act.NOPE_ACTION: _nope, act.PASS_ACTION: _pass, act.GIVE_ACTION: _give,
    act.INSERT_ACTION: _insert, act.TAKE_ACTION: _take, act.BLIND_PLAY: _blind_play,
    act.BLIND_NOPE: _blind_nope, act.TARGET_ACTION: _target, act.ALTER_ACTION: _alter,
    act.GARBAGE_ACTION: _garbage, act.GIVE_MARKED: _give_marked,
    act.GARBAGE_MARKED: _garbage_marked,
}
#: The handler of each kind of action, indexed by its code.
HANDLERS: tuple[Handler, ...] = tuple(_BY_KIND[kind] for kind in range(len(_BY_KIND)))


class Dispatch:
    """Applies the actions of one game setup's action table."""

    def __init__(self, actions: Actions) -> None:
        self.streaking = actions.streaking
        self._specs = actions.specs

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the setup it belongs to (one shared dispatch per setup).
        return dispatch_named, (self.streaking,)

    def apply(self, state: State, action: int, rng: Chance) -> None:
        """Apply a legal action index of the seat to act (the env's and the search's
        fast path: no legality check)."""
        state.memo = None  # the encoder's cache of the public facts
        kind, card, offset, depth = self._specs[action]
        HANDLERS[kind](state, card, offset, depth, rng)


BASE_DISPATCH: Final = Dispatch(BASE_ACTIONS)
STREAKING_DISPATCH: Final = Dispatch(STREAKING_ACTIONS)


def dispatch_named(streaking: bool) -> Dispatch:
    """The dispatch of the base game, or of the Streaking Kittens expansion."""
    return STREAKING_DISPATCH if streaking else BASE_DISPATCH


def apply_action(state: State, action: int, rng: Chance) -> None:
    """Apply a legal action index of the seat to act (the state's setup; no legality
    check)."""
    dispatch = STREAKING_DISPATCH if state.kinds > NUM_KINDS else BASE_DISPATCH
    dispatch.apply(state, action, rng)
