"""Setup for 2-5 players and several worm counts; option and player-count validation."""

from __future__ import annotations

import numpy as np
import pytest

from cardgym.errors import OptionError
from kakelaar_env import env, parallel_env, rules
from kakelaar_env.engine.cards import CHICKEN_TYPES, HEN, NUM_TYPES
from kakelaar_env.engine.state import BID, Config
from tests.kakelaar_env.helpers import counts

# players -> (row size, draw pile after the first row, removed unseen)
SETUP = {2: (3, 24, 18), 3: (3, 24, 18), 4: (4, 32, 9), 5: (5, 40, 0)}
WORM_COUNTS = [(5, 5, 5, 5, 4, 4, 4, 4), (8, 6, 5, 4, 4, 3, 3, 3), (0, 0, 0, 0, 0, 0, 0, 36),
               (36, 0, 0, 0, 0, 0, 0, 0), (1, 2, 3, 4, 5, 6, 7, 8)]


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("worm_counts", WORM_COUNTS)
def test_setup_counts(num_players: int, worm_counts: tuple[int, ...]) -> None:
    for seed in range(3):
        state = rules.new_game(Config(num_players, worm_counts), np.random.default_rng(seed))
        row, deck, removed = SETUP[num_players]
        assert (len(state.row), len(state.deck), len(state.removed)) == (row, deck, removed)
        assert state.round == 1 and state.phase == BID
        for seat in range(num_players):
            assert list(state.hands[seat]) == counts(*["c3", "c4", "c5", "c6", "c7"])
            assert sum(state.discards[seat]) == 0
        everything = [0] * NUM_TYPES
        for card in state.deck + state.removed + state.row:
            everything[card] += 1
        assert everything[:8] == list(worm_counts) and everything[HEN] == 9
        assert list(state.unseen) == [everything[t] - state.row.count(t) for t in range(NUM_TYPES)]
        if num_players == 2:
            assert sorted(state.robot_deck) == sorted(list(CHICKEN_TYPES) * 3)
            assert set(state.circle) == {0, 1, 2} and state.circle[2] == 2
            assert state.circle[state.tractor] in (0, 1)
        else:
            assert not state.robot_deck


def test_first_tractor_holder_is_random_over_every_seat() -> None:
    holders = {rules.new_game(Config(4), np.random.default_rng(seed)).tractor
               for seed in range(60)}
    assert holders == {0, 1, 2, 3}


def test_bid_stage_asks_every_seat_from_the_tractor_holder_clockwise() -> None:
    state = rules.new_game(Config(5), np.random.default_rng(3))
    holder = state.tractor
    assert state.asked == [(holder + k) % 5 for k in range(5)]
    assert state.current == holder


@pytest.mark.parametrize("bad", [1, 6, 0, "3", True, 2.0, None])
def test_invalid_player_counts(bad: object) -> None:
    with pytest.raises(OptionError, match="2 to 5 players"):
        env(num_players=bad)
    with pytest.raises(OptionError, match="2 to 5 players"):
        parallel_env(num_players=bad)


@pytest.mark.parametrize(
    ("worm_counts", "what"),
    [
        ((5, 5, 5, 5, 4, 4, 4), "has 7 entries"),
        ((5, 5, 5, 5, 4, 4, 4, 4, 0), "has 9 entries"),
        ((5, 5, 5, 5, 4, 4, 4, 5), "sums to 37"),
        ((6, 5, 5, 5, 4, 4, 4, -3), "negative"),
        ((5, 5, 5, 5, 4, 4, 4, 4.0), "not an integer"),
        ("55554444", "not a sequence"),
        (36, "not a sequence"),
    ],
)
def test_worm_counts_are_validated(worm_counts: object, what: str) -> None:
    with pytest.raises(OptionError, match=what) as info:
        env(num_players=3, worm_counts=worm_counts)
    assert "summing to 36" in str(info.value)  # says what is allowed


def test_worm_counts_accepts_lists_and_numpy_integers() -> None:
    game = env(num_players=3, worm_counts=[np.int64(v) for v in (4, 4, 4, 4, 5, 5, 5, 5)])
    assert game.config.worm_counts == (4, 4, 4, 4, 5, 5, 5, 5)
    game = env(num_players=3, worm_counts=np.array([5, 5, 5, 5, 4, 4, 4, 4]).tolist())
    assert game.config.worm_counts == (5, 5, 5, 5, 4, 4, 4, 4)


@pytest.mark.parametrize(("option", "value"), [("reward", "score"), ("final_tie", "nobody"),
                                               ("reward", None), ("final_tie", 1)])
def test_choice_options_are_validated(option: str, value: object) -> None:
    with pytest.raises(OptionError, match="allowed"):
        env(num_players=2, **{option: value})
    with pytest.raises(OptionError, match="allowed"):
        parallel_env(num_players=2, **{option: value})


def test_unknown_option_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        env(num_players=2, colour="red")
