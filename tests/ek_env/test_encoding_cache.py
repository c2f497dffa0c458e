"""Exploding Kittens' shared layout of the public facts (``State.memo``) is never read
stale, and its cache of the recent events' rows may be cleared at any time (the common
checks: tests/cardgym/test_encoding_cache.py)."""

from __future__ import annotations

import numpy as np
import pytest

from cardgym.testing.kit import random_action
from ek_env.encoding import encoder as ek_encoder
from ek_env.engine.state import State
from tests.cardgym.encoding_checks import (
    check_edit_by_hand_is_not_stale,
    check_layout_dropped,
    python_env,
)
from tests.cardgym.kits import EK, EK_STREAKING


def _owe_another_turn(state: State) -> None:
    state.owed += 1


def test_a_state_edited_by_hand_and_set_again_is_not_read_from_a_stale_layout() -> None:
    check_edit_by_hand_is_not_stale(EK, _owe_another_turn)


@pytest.mark.parametrize("kit", [EK, EK_STREAKING], ids=["base", "streaking"])
def test_a_move_touch_a_clone_and_a_pickle_drop_the_layout(kit: object) -> None:
    check_layout_dropped(kit)  # type: ignore[arg-type]


def test_the_event_rows_cache_may_be_cleared_at_any_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The encoder keeps each public event's rows per table size and clears them when
    they reach a bound: the observations are the same with a bound of 10."""

    def observations() -> list[bytes]:
        env = python_env(EK, 4)
        rng = np.random.default_rng(3)
        seen = []
        for game in range(2):
            env.reset(seed=game)
            for agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                seen.append(obs["observation"].tobytes())
                seen.extend(env.observe(other)["observation"].tobytes() for other in env.agents)
                env.step(None if terminated or truncated else
                         random_action(obs["action_mask"], rng))
                del agent
        return seen

    usual = observations()
    rows = ek_encoder.BASE_ENCODER._event_rows[4]
    rows.clear()
    monkeypatch.setattr(ek_encoder, "_EVENT_CACHE_SIZE", 10)
    assert observations() == usual
    assert 0 < len(rows) <= 10
