"""PettingZoo's own checkers on the Karel Kakelaar parallel env, with the documented
``illegal_action="lose"`` setting that random unmasked play needs (issue 17, section 3)."""

from __future__ import annotations

import math
import warnings

import pytest
from pettingzoo.test import parallel_seed_test
from pettingzoo.utils import average_total_reward
from pettingzoo.utils.conversions import parallel_to_aec

from cardgym.errors import IllegalMoveError
from kakelaar_env import parallel_env

COUNTS = (2, 3, 4, 5)


@pytest.mark.parametrize("num_players", COUNTS)
def test_parallel_seed_test_passes_with_illegal_action_lose(num_players: int) -> None:
    with warnings.catch_warnings():
        # parallel_seed_test samples unmasked actions: each illegal one ends the game.
        warnings.filterwarnings("ignore", message=".*the game ends with -1 for the offenders")
        parallel_seed_test(lambda: parallel_env(num_players=num_players,
                                                illegal_action="lose"))


def test_parallel_seed_test_needs_the_setting() -> None:
    with pytest.raises(IllegalMoveError, match="not legal now"):
        parallel_seed_test(lambda: parallel_env(num_players=3))


@pytest.mark.parametrize("num_players", COUNTS)
def test_average_total_reward_runs_on_the_parallel_env(num_players: int) -> None:
    env = parallel_to_aec(parallel_env(num_players=num_players, illegal_action="lose"))
    env.reset(seed=0)
    with warnings.catch_warnings():
        # It calls last(observe=False), so it has no mask and samples any action.
        warnings.filterwarnings("ignore", message=".*the game ends with -1 for the offenders")
        average = average_total_reward(env, max_episodes=5)
    # win_loss: +1 to each winner, -1 to every other seat, summed over the seats.
    assert math.isfinite(average) and -num_players <= average <= num_players
