"""The private choice check must catch the Mark leak of Streaking Kittens as it was: a
Favor's ``give:KIND`` took a marked copy first, so the table saw which kind was given."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardgym import testing
from cardgym.aec import StepOutcome
from ek_env.env import raw_env as ek_raw_env
from tests.cardgym.kits import EK_STREAKING


class _MarkedFirst(ek_raw_env):
    """Streaking Kittens with the Mark leak planted back: ``give:KIND`` gives a marked
    copy of KIND whenever the giver holds one."""

    def _game_apply(self, action: int, rng: np.random.Generator) -> StepOutcome | None:
        name = self.action_name(action)
        state = self.game_state
        if name.startswith("give:") and name.count(":") == 1:
            kind = self.action_index(name + ":marked")
            giver = state.to_act
            if state.marked[giver][self.action_table.moves[kind][1]]:
                action = kind
        return super()._game_apply(action, rng)


def _favor_decision(make_env: object) -> object:
    """Seat 1 holds Attack, Attack (one marked) and Skip; seat 0 plays Favor at it and
    everyone passes: seat 1 chooses what to give, seat 2 watches."""
    env = make_env(num_players=3, expansions=("streaking",))  # type: ignore[operator]
    env.reset(seed=0, options={"scenario": {
        "hands": [["favor", "taco_cat"], ["attack", "attack", "skip"], ["nope", "cattermelon"]],
        "deck": ["taco_cat", "exploding_kitten", "beard_cat", "exploding_kitten"],
        "first_player": 0, "marked": [[], ["attack"], []]}})
    env.step(env.action_index("play:favor:+1"))
    while env.action_index("pass") in env.legal_actions():
        env.step(env.action_index("pass"))
    assert env.game_state.to_act == 1
    return env


def test_the_private_check_catches_the_planted_mark_leak() -> None:
    kit = dataclasses.replace(EK_STREAKING, make_env=_MarkedFirst)
    with pytest.raises(AssertionError, match="seat 2, not party to it.*marked"):
        testing.check_decision(kit, _favor_decision(_MarkedFirst), public=False, resample=False)


def test_the_fixed_mark_choice_passes_the_same_check() -> None:
    report = testing.check_decision(EK_STREAKING, _favor_decision(ek_raw_env))
    assert report.private_pairs > 0 and report.public_pairs > 0
