"""Shared builders for the Karel Kakelaar rule tests.

Cards are written by name (``"w5"`` worm 5, ``"c3"`` chicken 3, ``"hen"``); decks
top first, as in scenarios: the first cards of ``deck_top`` are row positions 1, 2,
... of the first round played. :func:`run_stage` plays one stage through the env by
action name, each seat's choice given in a dict by seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym import testing
from kakelaar_env import env as make_env_plain
from kakelaar_env.engine.cards import TYPE_NAMES, parse_card
from kakelaar_env.engine.state import GAME_OVER, State
from kakelaar_env.env import raw_env

CHICKENS = ["c3", "c4", "c5", "c6", "c7"]


def make_env(num_players: int, scenario: dict[str, Any], seed: int = 0,
             **options: Any) -> raw_env:
    """A reset env set up from ``scenario``."""
    return testing.scenario_env(make_env_plain, num_players, scenario, seed, **options)


def run_stage(game: raw_env, choices: dict[int, str]) -> list[int]:
    """Commit one stage: each asked seat plays ``choices[seat]`` (an action name, or a
    card name for a bid/take, e.g. ``"c5"`` in a bid stage means ``bid:chicken_5``).
    Returns the seats in the order they were asked."""
    state: State = game.game_state
    phase, version = state.phase, state.version
    asked = []
    while state.phase == phase and state.version == version and state.phase != GAME_OVER:
        seat = state.current
        asked.append(seat)
        game.step(game.action_index(action_name(state, choices[seat])))
    return asked


def action_name(state: State, choice: str) -> str:
    """``choice`` as a full action name: card names get the stage's prefix."""
    if ":" in choice or choice == "pass":
        return choice
    prefix = "bid" if state.phase == 0 else "take"
    return f"{prefix}:{TYPE_NAMES[parse_card(choice)]}"


def counts(*cards: str) -> list[int]:
    """A count vector over the 14 card types."""
    out = [0] * 14
    for card in cards:
        out[parse_card(card)] += 1
    return out


def hand(state: State, seat: int) -> list[str]:
    """The card names in a seat's hand, sorted by type."""
    return [TYPE_NAMES[t] for t in range(14) for _ in range(state.hands[seat][t])]


def pile(state: State, seat: int) -> list[str]:
    """The card names in a seat's discard pile, sorted by type."""
    return [TYPE_NAMES[t] for t in range(13) for _ in range(state.discards[seat][t])]


def names(*cards: str) -> list[str]:
    """Card names in canonical form, sorted by type."""
    return [TYPE_NAMES[t] for t in sorted(parse_card(c) for c in cards)]


def fields(game: Any, seat: int) -> dict[str, NDArray[np.float32]]:
    """The named observation fields of ``seat``."""
    return testing.observation_fields(game, seat)


def legal_names(game: raw_env) -> list[str]:
    """Names of the legal actions of the agent to act."""
    return testing.legal_names(game)
