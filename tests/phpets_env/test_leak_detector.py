"""The leak test must catch a leak: a deliberately leaky env fails it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardgym import testing
from phpets_env.engine.cards import CARD_VALUES
from phpets_env.env import raw_env
from tests.cardgym.kits import PHPETS


class _LeakyTopCard(raw_env):
    """Writes the value of the top card of the pile into the deck_size field."""

    def _game_encode(self, seat: int) -> np.ndarray:
        obs = super()._game_encode(seat)
        deck = self.game_state.deck
        if deck:
            obs[self.observation_spec.offset("deck_size")] = CARD_VALUES[deck[-1]]
        return obs


class _LeakyOpponentHand(raw_env):
    """Shows the next seat's hand as if it were known."""

    def _game_encode(self, seat: int) -> np.ndarray:
        obs = super()._game_encode(seat)
        state = self.game_state
        other = (seat + 1) % state.num_players
        start = self.observation_spec.offset("known_hands")
        for card in state.hands[other]:
            obs[start + CARD_VALUES[card]] = 1
        return obs


@pytest.mark.parametrize("leaky", [_LeakyTopCard, _LeakyOpponentHand])
def test_leak_test_catches_a_leaky_observation(leaky: type) -> None:
    kit = dataclasses.replace(PHPETS, make_env=leaky)
    with pytest.raises(AssertionError, match="depend on hidden information"):
        testing.check_no_leaks(kit, 3, games=5)
