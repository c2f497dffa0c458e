"""Karel Kakelaar engine: nine rounds of row, bids, distribution and mother hens
(docs/rules/karel_kakelaar.md).

Pure game logic over :class:`~kakelaar_env.engine.state.State`; no gymnasium or pettingzoo
here. Randomness comes only from the ``np.random.Generator`` passed in.

This module gathers the engine's public functions: :func:`new_game`, :func:`to_act`,
:func:`legal_moves`, :func:`legal_moves_for`, :func:`apply`, :func:`is_over`,
:func:`returns`, :func:`scores`, :func:`player_view`, :func:`resample_hidden`. They
live by job: the deal (:mod:`~kakelaar_env.engine.deal`), who decides
(:mod:`~kakelaar_env.engine.turns`), commits and the round's flow
(:mod:`~kakelaar_env.engine.flow`), the reveals (:mod:`~kakelaar_env.engine.reveal`), the end
(:mod:`~kakelaar_env.engine.scoring`), what is legal (:mod:`~kakelaar_env.engine.legality`) and
hidden information (:mod:`~kakelaar_env.info.hidden`). The ``commit_*`` functions apply a
choice without checking it (the env checks its cached mask first).

Every commit and every public outcome is appended to ``state.log`` as it happens
(see :mod:`kakelaar_env.display.record` for the events): a commit as a face-down event whose
choice only the committing seat saw, a reveal as public events from the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardgym.chance import Chance
from kakelaar_env.engine import deal
from kakelaar_env.engine.cards import count_types
from kakelaar_env.engine.deal import shuffled_pile
from kakelaar_env.engine.flow import commit_bid, commit_hen, commit_take
from kakelaar_env.engine.legality import apply, legal_moves, legal_moves_for
from kakelaar_env.engine.reveal import ranking
from kakelaar_env.engine.scoring import final_winners, returns, scores
from kakelaar_env.engine.state import (
    BID,
    GAME_OVER,
    HEN_STAGE,
    PHASE_NAMES,
    TAKE_FIRST,
    TAKE_SECOND,
    Bid,
    Config,
    HenChoice,
    Move,
    State,
    TakeBack,
)
from kakelaar_env.engine.turns import can_bid, must_play_hen
from kakelaar_env.info.hidden import resample
from kakelaar_env.info.view import PlayerView
from kakelaar_env.positions.scenario import load_scenario


def new_game(config: Config, rng: Chance,
             scenario: Mapping[str, Any] | None = None) -> State:
    """A new game: chickens dealt, pile shuffled and trimmed, a random tractor holder,
    round 1's row turned up; or the position a scenario describes
    (:mod:`kakelaar_env.positions.scenario`; one that names everything, as
    :func:`kakelaar_env.positions.position.position` writes, draws nothing from ``rng``).

    Raises:
        ScenarioError: the scenario is malformed or breaks the rules.
    """
    if scenario is None:
        return deal.new_game(config, rng)
    return load_scenario(config, scenario, rng)


def to_act(state: State) -> int:
    """The seat to act (the last actor once the game is over)."""
    return state.to_act


def is_over(state: State) -> bool:
    """Whether the game is over."""
    return state.phase == GAME_OVER


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state`` (see :mod:`kakelaar_env.info.hidden`)."""
    return resample(state, seat, rng)


def player_view(state: State, seat: int) -> PlayerView:
    """What ``seat`` may know of the state (docs/rules/README.md)."""
    return PlayerView(state, seat)


def phase_name(state: State) -> str:
    """Readable name of the current stage."""
    return PHASE_NAMES[state.phase]


__all__ = [
    "BID", "GAME_OVER", "HEN_STAGE", "TAKE_FIRST", "TAKE_SECOND", "Bid", "Config", "HenChoice",
    "Move", "State", "TakeBack", "apply", "can_bid", "commit_bid", "commit_hen", "commit_take",
    "count_types", "final_winners", "is_over", "legal_moves", "legal_moves_for",
    "must_play_hen", "new_game", "phase_name", "player_view", "ranking", "resample_hidden",
    "returns", "scores", "shuffled_pile", "to_act",
]
