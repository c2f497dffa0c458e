"""The choice checks must catch what they are for: planted faults make them fail.

- a public choice dropped from the observation (the public record zeroed);
- a secret choice shown to the table (the Mouse Trapper depth written into the
  observation of every seat);
- a search resample that copies the true state (so it depends on secrets).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardgym import testing
from phpets_env.engine.state import State
from phpets_env.env import raw_env
from tests.cardgym.kits import PHPETS


class _DroppedRecord(raw_env):
    """Forgets the public record: the observation as if nothing were recorded."""

    def _game_encode(self, seat: int) -> np.ndarray:
        obs = super()._game_encode(seat)
        for name in ("recent_moves", "ruled_out"):
            obs[self.observation_spec.slice(name)] = 0
        return obs


class _ShownDepth(raw_env):
    """Writes, for every seat, how many cards lie above the last card put back with
    Mouse Trapper (a secret of the seat that put it back) into the deck_size field."""

    def _game_encode(self, seat: int) -> np.ndarray:
        obs = super()._game_encode(seat)
        state = self.game_state
        for depth, card in enumerate(reversed(state.deck)):
            if state.deck_watchers and any(state.known[s] >> card & 1
                                           for s in range(state.num_players) if s != seat):
                obs[self.observation_spec.offset("deck_size")] = depth
                break
        return obs


def test_the_public_check_catches_a_dropped_public_choice() -> None:
    kit = dataclasses.replace(PHPETS, make_env=_DroppedRecord)
    with pytest.raises(AssertionError, match="cannot tell the public choices"):
        testing.check_public_choices(kit, 3, games=5)


def test_the_private_check_catches_a_shown_secret() -> None:
    kit = dataclasses.replace(PHPETS, make_env=_ShownDepth)
    with pytest.raises(AssertionError, match="not party to it"):
        testing.check_private_choices(kit, 3, games=10, resample=False)


def test_the_resample_check_catches_a_sample_that_reads_secrets() -> None:
    def true_state(state: State, seat: int, rng: np.random.Generator) -> State:
        return state.clone()

    kit = dataclasses.replace(PHPETS, resample_hidden=true_state)
    with pytest.raises(AssertionError, match="depends on the secret choice"):
        testing.check_private_choices(kit, 3, games=10)


def test_the_unplanted_env_passes_the_same_checks() -> None:
    report = testing.check_choices(PHPETS, 3, games=10)
    assert report.private_pairs and report.public_pairs and report.resamples
