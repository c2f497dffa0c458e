"""Power Hungry Pets engine: a whole match of rounds (docs/rules/power_hungry_pets.md).

Pure game logic over :class:`~phpets_env.engine.state.State`; no gymnasium or pettingzoo
here. Randomness comes only from the ``np.random.Generator`` passed in.

This module gathers the engine's public functions: :func:`new_game`, :func:`to_act`,
:func:`legal_moves`, :func:`apply`, :func:`is_over`, :func:`returns`,
:func:`player_view`, :func:`resample_hidden`. They live by job: the match's rounds
and turns (:mod:`~phpets_env.engine.flow`), a play and its follow-ups
(:mod:`~phpets_env.engine.plays`), the card effects (:mod:`~phpets_env.engine.effects`), the
showdown (:mod:`~phpets_env.engine.showdown`), what is legal (:mod:`~phpets_env.engine.legality`)
and the samples for search (:mod:`~phpets_env.info.resample`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgym.chance import Chance
from cardgym.game import StepOutcome, StepRewards
from phpets_env.engine import flow
from phpets_env.engine.cards import ANY_PLAYER, NO_TARGET, OTHER_PLAYER, TARGET_KIND
from phpets_env.engine.legality import apply, choosable_targets, legal_moves, open_offsets
from phpets_env.engine.plays import play, resolve_grave_digger, resolve_mouse_trapper
from phpets_env.engine.state import (
    GRAVE_DIGGER,
    MATCH_OVER,
    MOUSE_TRAPPER,
    PHASE_NAMES,
    PLAY,
    Config,
    GraveSwap,
    Move,
    PlaceCard,
    Play,
    State,
)
from phpets_env.info.resample import resample_hidden
from phpets_env.info.view import PlayerView
from phpets_env.positions.scenario import load_scenario


def new_game(config: Config, rng: Chance,
             scenario: Mapping[str, Any] | None = None) -> State:
    """A new match (tokens at zero, a random first player, round 1 dealt and started),
    or the position ``scenario`` describes (:mod:`phpets_env.positions.scenario`).

    Raises:
        ScenarioError: the scenario is malformed or no position of the game.
    """
    if scenario is None:
        return flow.new_game(config, rng)
    return load_scenario(config, scenario, rng)


def to_act(state: State) -> int:
    """The seat to act (the last actor once the match is over)."""
    return state.to_act


def is_over(state: State) -> bool:
    """Whether the match is over."""
    return state.phase == MATCH_OVER


def returns(state: State) -> list[float]:
    """+1 to each match winner and -1 to the others once the match is over; else zeros."""
    if state.phase != MATCH_OVER:
        return [0.0] * state.num_players
    winners = state.match_winners
    return [1.0 if seat in winners else -1.0 for seat in range(state.num_players)]


def _round_number(state: State) -> int:
    return state.round_number


def _step_outcome(state: State, round_before: int) -> StepOutcome | None:
    """With ``reward="round"``: +1 to each round winner and -1 to the others at the end
    of each round; else the match's returns once it is over."""
    over = state.phase == MATCH_OVER
    if state.config.reward == "round":
        if over or state.round_number != round_before:
            winners = state.round_winners
            return StepOutcome([1.0 if s in winners else -1.0 for s in range(state.num_players)],
                               game_over=over)
        return None
    return StepOutcome(returns(state), game_over=True) if over else None


def _pays_per_round(config: Config) -> bool:
    return config.reward == "round"


#: The reward rule: per round or per match (the ``reward`` option); with ``reward="match"``
#: it pays the returns at the end, which the env does without it.
STEP_REWARDS = StepRewards(_round_number, _step_outcome, during=_pays_per_round)


def player_view(state: State, seat: int) -> PlayerView:
    """What ``seat`` may know of the state (docs/rules/README.md)."""
    return PlayerView(state, seat)


def phase_name(state: State) -> str:
    """Readable name of the current phase."""
    return PHASE_NAMES[state.phase]


__all__ = [
    "ANY_PLAYER",
    "GRAVE_DIGGER",
    "MATCH_OVER",
    "MOUSE_TRAPPER",
    "NO_TARGET",
    "OTHER_PLAYER",
    "PLAY",
    "STEP_REWARDS",
    "TARGET_KIND",
    "Config",
    "GraveSwap",
    "Move",
    "PlaceCard",
    "Play",
    "State",
    "apply",
    "choosable_targets",
    "is_over",
    "legal_moves",
    "new_game",
    "open_offsets",
    "phase_name",
    "play",
    "player_view",
    "resample_hidden",
    "resolve_grave_digger",
    "resolve_mouse_trapper",
    "returns",
    "to_act",
]
