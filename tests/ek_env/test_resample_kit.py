"""The kit's choice check follows a secret choice's alternatives on to each seat's next
decision: a resample may show another seat's secret only later, once the play has
moved on (a kitten put back, then a kitten drawn that may or may not be that one)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from cardgym import testing
from ek_env import rules
from ek_env.engine.state import INSERT, UNKNOWN, State
from ek_env.env import raw_env as ek_raw_env
from tests.cardgym.kits import EK


def _known_counts(state: State, seat: int, rng: np.random.Generator) -> State:
    """The search resample as it was: each other seat knows as many top cards as it
    knows depths in the true state. That count is the same after any depth the kitten
    goes back to, and differs once a kitten is drawn that may be that one."""
    sample = rules.resample_hidden(state, seat, rng)
    for other, known in enumerate(state.known_deck):
        if other != seat:
            count = len(known) - known.count(UNKNOWN)
            sample.known_deck[other] = sample.deck[::-1][:count]
    return sample


def _insert_decision() -> Any:
    """Seat 0 has drawn a kitten with another under it and chooses where it goes back;
    seat 1, next, holds a Defuse."""
    env = ek_raw_env(num_players=3)
    env.reset(seed=0, options={"scenario": {
        "hands": [["defuse", "skip"], ["defuse", "taco_cat"], ["nope", "beard_cat"]],
        "deck": ["exploding_kitten", "exploding_kitten", "taco_cat", "cattermelon",
                 "beard_cat", "hairy_potato_cat"],
        "first_player": 0}})
    env.step(env.action_index("draw"))
    state = env.game_state
    assert state is not None and state.phase == INSERT and state.to_act == 0
    return env


def test_the_check_catches_a_resample_that_differs_only_at_a_later_decision() -> None:
    kit = dataclasses.replace(EK, resample_hidden=_known_counts)
    with pytest.raises(AssertionError, match="next decision.*insert:depth=0.*seats \\[0\\]"):
        testing.check_decision(kit, _insert_decision(), public=False)


def test_the_check_without_the_later_decisions_misses_it() -> None:
    # What the check saw before: right after the choice, every alternative leaves
    # seat 0 knowing one depth.
    kit = dataclasses.replace(EK, resample_hidden=_known_counts)
    report = testing.check_decision(kit, _insert_decision(), public=False, later=False)
    assert report.resamples > 0 and report.later_resamples == 0


def test_the_search_resample_passes_at_the_later_decisions() -> None:
    report = testing.check_decision(EK, _insert_decision())
    assert report.later_resamples > 0


def test_the_env_is_left_as_it_was() -> None:
    env = _insert_decision()
    before = env.game_state.clone()
    rng_before = env.np_random.bit_generator.state
    testing.check_decision(EK, env)
    assert env.game_state == before
    assert env.np_random.bit_generator.state == rng_before
    assert env.agent_selection == "player_0"
