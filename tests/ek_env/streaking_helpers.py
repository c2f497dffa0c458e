"""Shared builders for the Streaking Kittens rule tests (docs/rules/exploding_kittens.md, Streaking Kittens).

Card kinds of the expansion are written as the numbers the engine API gives them
(``Card`` kinds 13..21 after the 13 base kinds), so that these
tests can be collected before the engine grows them. New moves and phases are read
from :mod:`ek_env.engine.state` when they exist; a test that needs one that does not exist
yet fails with a message saying so (instead of the whole file failing to import).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import ek_env
from cardgym import testing
from ek_env.engine import state as _state
from ek_env.engine.state import NOPE_WINDOW, Move, State
from tests.ek_env.helpers import apply, expand, make, pass_window

# Expansion kinds (API: STREAKING_KITTEN=13 .. CURSE_OF_THE_CAT_BUTT=21).
SK = 13  # Streaking Kitten
BOMB = 14  # Catomic Bomb
SUPER = 15  # Super Skip
FUTURE5 = 16  # See the Future 5x
ALTER_CARD = 17  # Alter the Future 5x
SWAP = 18  # Swap Top and Bottom
GC = 19  # Garbage Collection
MARK = 20  # Mark
CURSE = 21  # Curse of the Cat Butt
NUM_KINDS_STREAKING = 22

EXPANSION_NAMES = {
    SK: "streaking_kitten",
    BOMB: "catomic_bomb",
    SUPER: "super_skip",
    FUTURE5: "see_the_future_5x",
    ALTER_CARD: "alter_the_future_5x",
    SWAP: "swap_top_and_bottom",
    GC: "garbage_collection",
    MARK: "mark",
    CURSE: "curse_of_the_cat_butt",
}

STREAKING: dict[str, Any] = {"expansions": ("streaking",)}

UNKNOWN = _state.UNKNOWN
NOBODY = _state.NOBODY

# New phases (API values); the engine's own constants when they exist.
ALTER = getattr(_state, "ALTER", 8)
GARBAGE = getattr(_state, "GARBAGE", 9)
TARGET = getattr(_state, "TARGET", 10)


def _move(name: str) -> Any:
    cls = getattr(_state, name, None)
    if cls is not None:
        return cls

    def missing(*args: Any, **kwargs: Any) -> Any:
        pytest.fail(f"ek_env.engine.state.{name} is not implemented yet")

    return missing


BlindPlay = _move("BlindPlay")
BlindNope = _move("BlindNope")
ChooseTarget = _move("ChooseTarget")
Alter = _move("Alter")
Garbage = _move("Garbage")


def smake(hands: Sequence[Sequence[int]], deck: Sequence[int], **kwargs: Any
          ) -> tuple[State, np.random.Generator]:
    """:func:`tests.ek_env.helpers.make` with the Streaking Kittens expansion."""
    return make(hands, deck, **STREAKING, **kwargs)


def play_and_pass(state: State, rng: np.random.Generator, move: Move) -> None:
    """Apply ``move``; if it opens a Nope window, everybody passes."""
    apply(state, move, rng)
    if state.phase == NOPE_WINDOW:
        pass_window(state, rng)


def known(state: State, seat: int) -> dict[int, int]:
    """{depth: kind} of the draw pile ``seat`` knows (0 = top)."""
    return {depth: card for depth, card in enumerate(state.known_deck[seat]) if card != UNKNOWN}


def marked(state: State, seat: int) -> list[int]:
    """The marked (public) cards of a seat, sorted."""
    return expand(state.marked[seat])


def blind_seats(state: State) -> list[int]:
    return [seat for seat, blind in enumerate(state.blind) if blind]


# ------------------------------------------------------------------ the env


def senv(hands: list[list[Any]], deck: list[Any], *, first: int = 0,
         blind: list[int] | None = None, marked_cards: list[list[Any]] | None = None,
         seed: int = 0, **options: Any) -> Any:
    """The expansion env reset to a scenario (cards by name or kind number)."""
    game = ek_env.env(num_players=len(hands), **STREAKING, **options)
    scenario: dict[str, Any] = {"hands": hands, "deck": deck, "first_player": first}
    if blind is not None:
        scenario["blind"] = blind
    if marked_cards is not None:
        scenario["marked"] = marked_cards
    game.reset(seed=seed, options={"scenario": scenario})
    return game


def act(game: Any, name: str) -> None:
    testing.step_names(game, name)


def agent(seat: int) -> str:
    return f"player_{seat}"


def fields(game: Any, seat: int) -> dict[str, np.ndarray]:
    """The named fields of ``seat``'s observation."""
    return testing.observation_fields(game, seat)


def legal_names(game: Any) -> set[str]:
    """Names of the legal actions of the agent to act."""
    return set(testing.legal_names(game))


def pass_env_window(game: Any) -> list[int]:
    """Everyone passes the open Nope window in the env; returns the seats asked."""
    asked = []
    while game.game_state.phase == NOPE_WINDOW:
        asked.append(game.game_state.to_act)
        act(game, "pass")
        assert len(asked) < 50
    return asked
