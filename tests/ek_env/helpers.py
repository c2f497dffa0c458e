"""Shared builders for the Exploding Kittens rule tests (docs/rules/exploding_kittens.md).

Cards are ``Card`` kinds (short names below); decks are written top first, as in
scenarios (``state.deck`` keeps the top card last). :func:`make` builds a position
from a scenario; :func:`pass_window` and :func:`run_window` answer Nope windows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pytest

from cardgym.errors import IllegalMoveError
from ek_env import rules
from ek_env.engine.cards import Card
from ek_env.engine.invariants import check_invariants
from ek_env.engine.state import NOPE_WINDOW, Config, Move, Nope, Pass, State

# Short names, so that tables read like the rule text.
KITTEN = int(Card.EXPLODING_KITTEN)
DEFUSE = int(Card.DEFUSE)
ATTACK = int(Card.ATTACK)
SKIP = int(Card.SKIP)
FAVOR = int(Card.FAVOR)
SHUFFLE = int(Card.SHUFFLE)
FUTURE = int(Card.SEE_THE_FUTURE)
NOPE = int(Card.NOPE)
TACO = int(Card.TACO_CAT)
POTATO = int(Card.HAIRY_POTATO_CAT)
MELON = int(Card.CATTERMELON)
RAINBOW = int(Card.RAINBOW_RALPHING_CAT)
BEARD = int(Card.BEARD_CAT)
CATS = (TACO, POTATO, MELON, RAINBOW, BEARD)


def make(
    hands: Sequence[Sequence[int]],
    deck: Sequence[int],
    *,
    first: int = 0,
    owed: int = 1,
    attacked: bool | None = None,
    discard: Sequence[int] = (),
    blind: Sequence[int] | None = None,
    marked: Sequence[Sequence[int]] | None = None,
    eliminated: Sequence[int] = (),
    seed: int = 0,
    **options: Any,
) -> tuple[State, np.random.Generator]:
    """The position a scenario describes, and a seeded generator to play on with.

    ``deck`` is top first and must hold players - 1 kittens (base game). ``options``
    are ``Config`` fields other than ``num_players`` (taken from ``len(hands)``);
    ``blind`` and ``marked`` are the Streaking Kittens scenario keys; ``eliminated``
    the seats out (their kittens in ``discard``).
    """
    config = Config(num_players=len(hands), **options)
    scenario: dict[str, Any] = {
        "hands": [list(hand) for hand in hands],
        "deck": list(deck),
        "discard": list(discard),
        "first_player": first,
        "owed_turns": owed,
    }
    if attacked is not None:
        scenario["attacked"] = attacked
    if eliminated:
        scenario["eliminated"] = list(eliminated)
    if blind is not None:
        scenario["blind"] = list(blind)
    if marked is not None:
        scenario["marked"] = [list(cards) for cards in marked]
    state = rules.new_game(config, np.random.default_rng(seed), scenario)
    check_invariants(state)
    return state, np.random.default_rng(seed)


def apply(state: State, move: Move, rng: np.random.Generator) -> None:
    """Apply a legal move and check the rule invariants afterwards."""
    rules.apply(state, move, rng)
    check_invariants(state)


def apply_all(state: State, moves: Iterable[Move], rng: np.random.Generator) -> None:
    for move in moves:
        apply(state, move, rng)


def pass_window(state: State, rng: np.random.Generator) -> list[int]:
    """Everyone passes until the running Nope window closes; returns the seats asked."""
    return run_window(state, rng, ())


def run_window(state: State, rng: np.random.Generator, nopers: Sequence[int]) -> list[int]:
    """Answer Nope windows until the pending play resolves.

    ``nopers`` are the seats that Nope, in order: each Nopes the first time it is
    asked after the previous Nope; every other answer is a pass. Returns the seats
    asked, in order.
    """
    assert state.phase == NOPE_WINDOW, "no Nope window is open"
    queue = list(nopers)
    asked: list[int] = []
    while state.phase == NOPE_WINDOW:
        seat = state.to_act
        asked.append(seat)
        if queue and queue[0] == seat:
            queue.pop(0)
            apply(state, Nope(), rng)
        else:
            apply(state, Pass(), rng)
        assert len(asked) < 200, "the Nope window never closes"
    assert not queue, f"seats {queue} were never asked"
    return asked


def cards(state: State, seat: int) -> list[int]:
    """The kinds in a seat's hand, sorted (one entry per card)."""
    return expand(state.hands[seat])


def expand(counts: Sequence[int]) -> list[int]:
    """Counts per kind as a sorted list of kinds."""
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


def deck_top_first(state: State) -> list[int]:
    return list(reversed(state.deck))


def moves(state: State) -> list[Move]:
    return rules.legal_moves(state)


def assert_illegal(state: State, move: Move, rng: np.random.Generator) -> None:
    """``move`` is not offered, raises IllegalMoveError, and changes nothing."""
    assert move not in rules.legal_moves(state)
    before = state.clone()
    with pytest.raises(IllegalMoveError):
        rules.apply(state, move, rng)
    assert state == before
