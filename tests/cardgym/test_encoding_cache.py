"""The encoding caches of the Python engine give exactly what encoding from scratch gives.

Two caches (cardgym.aec, each game's encoder):

- A finished agent's closing observation is encoded once per state: observing it again
  (``last()`` and then ``observe()``, say) is served from the env's cache, as a copy,
  until the env changes or replaces the state.
- What every seat's observation of one state shares, laid out once per state (kept in
  the state's ``memo`` by the games that have one): the observation of any seat, in
  any order, after every step, after a scenario and after a state is set, equals the
  encoding of a clone of the state, which has no cache.

The games' own tests check their edits by hand and what drops a layout
(``encoding_checks``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardgym.aec import CardGameEnv
from cardgym.testing import GameKit
from cardgym.testing.kit import random_action
from tests.cardgym.encoding_checks import (
    advance,
    check_every_seat,
    finished,
    fresh,
    python_env,
)
from tests.cardgym.kits import KITS, kit_named

#: (kit, rule options) of every kit's option sets.
SETTINGS = [(kit, options) for kit in KITS for options in kit.option_sets]
IDS = [f"{kit.name}-{index}" for kit in KITS for index in range(len(kit.option_sets))]


def _seats(kit: GameKit) -> int:
    return 3 if 3 in kit.player_counts else kit.player_counts[-1]


def _count_encodes(env: CardGameEnv[Any]) -> list[int]:
    """Count the env's calls of its encoder hook (``calls[seat]``)."""
    calls = [0] * env.num_players
    encode = env._game_encode

    def counting(seat: int) -> np.ndarray:
        calls[seat] += 1
        return encode(seat)

    env._game_encode = counting  # type: ignore[method-assign]
    return calls


def _play_to_the_end(env: CardGameEnv[Any], seed: int) -> None:
    """Play random legal actions until every agent left has finished (agents that
    finished earlier step out on the way)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    while not all(finished(env, agent) for agent in env.agents):
        advance(env, rng, 1)


def _finished_game(kit: GameKit, options: dict[str, Any],
                   seed: int) -> tuple[CardGameEnv[Any], list[int]]:
    """An env whose game has just ended (its agents left to observe), and the count of
    its encoder calls from then on."""
    env = python_env(kit, _seats(kit), **options)
    _play_to_the_end(env, seed=seed)
    return env, _count_encodes(env)


# ------------------------------------------------------- finished agents' observations


@pytest.mark.parametrize(("kit", "options"), SETTINGS, ids=IDS)
def test_a_finished_agents_observation_is_encoded_once_and_served_fresh(
        kit: GameKit, options: dict[str, Any]) -> None:
    env, calls = _finished_game(kit, options, seed=11)
    for agent in env.agents:
        seat = env.agent_name_mapping[agent]
        expected = fresh(env, seat)
        first = env.observe(agent)["observation"]
        assert calls[seat] == 1
        first[:] = -1  # the caller's array: the cache must not hand it out again
        again = env.observe(agent)
        assert calls[seat] == 1, f"{agent}'s closing observation was encoded again"
        assert again["observation"] is not first
        assert again["observation"].dtype == np.float32
        np.testing.assert_array_equal(again["observation"], expected)
        assert not again["action_mask"].any()


@pytest.mark.parametrize(("kit", "options"), SETTINGS, ids=IDS)
def test_the_closing_observations_in_pettingzoos_loop_equal_encodings_from_scratch(
        kit: GameKit, options: dict[str, Any]) -> None:
    env, calls = _finished_game(kit, options, seed=5)
    left = len(env.agents)
    seen = 0
    for agent in env.agent_iter():
        seat = env.agent_name_mapping[agent]
        obs, _, terminated, truncated, _ = env.last()
        assert terminated or truncated
        np.testing.assert_array_equal(obs["observation"], fresh(env, seat))
        np.testing.assert_array_equal(env.observe(agent)["observation"], obs["observation"])
        assert calls[seat] == 1
        env.step(None)
        seen += 1
    assert seen == left >= 1


@pytest.mark.parametrize(("kit", "options"), SETTINGS, ids=IDS)
def test_a_finished_agents_cached_observation_goes_when_the_state_is_replaced(
        kit: GameKit, options: dict[str, Any]) -> None:
    env = python_env(kit, _seats(kit), **options)
    other = python_env(kit, _seats(kit), **options)
    _play_to_the_end(other, seed=2)
    _play_to_the_end(env, seed=1)
    calls = _count_encodes(env)
    agent = env.agents[0]
    seat = env.agent_name_mapping[agent]
    before = env.observe(agent)["observation"]
    env.game_state = other.game_state.clone()
    after = env.observe(agent)["observation"]
    assert calls[seat] == 2
    np.testing.assert_array_equal(after, fresh(env, seat))
    assert not np.array_equal(before, after), "the two games' ends look alike: pick other seeds"
    _play_to_the_end(env, seed=3)  # a new game, over in another state
    np.testing.assert_array_equal(env.observe(agent)["observation"], fresh(env, seat))


def test_an_agent_that_finished_in_a_running_game_is_observed_in_the_state_as_it_is() -> None:
    """Exploding Kittens: an exploded agent steps out while the others play on. Its
    closing observation is of the state it exploded in; after the next move, observing
    it again reads the new state (the cache went with the move)."""
    env = python_env(kit_named("exploding_kittens"), 4)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    checked = 0
    while env.agents:
        agent = env.agent_selection
        if not finished(env, agent):
            advance(env, rng, 1)
            continue
        seat = env.agent_name_mapping[agent]
        np.testing.assert_array_equal(env.last()[0]["observation"], fresh(env, seat))
        env.step(None)
        if env.agents and not finished(env, env.agent_selection):
            advance(env, rng, 1)
            np.testing.assert_array_equal(env.observe(agent)["observation"], fresh(env, seat))
            checked += 1
    assert checked, "nobody exploded before the end: pick another seed"


# ------------------------------------------------------ parts every seat shares


@pytest.mark.parametrize("players", ["fewest", "three", "most"])
@pytest.mark.parametrize(("kit", "options"), SETTINGS, ids=IDS)
def test_every_seats_observation_equals_an_encoding_from_scratch_after_every_step(
        kit: GameKit, options: dict[str, Any], players: str) -> None:
    counts = kit.player_counts
    num_players = {"fewest": counts[0], "three": _seats(kit), "most": counts[-1]}[players]
    env = python_env(kit, num_players, **options)
    rng = np.random.default_rng(num_players)
    steps = 0
    for game in range(2):
        env.reset(seed=100 + game)
        for agent in env.agent_iter():
            seats = list(range(num_players))
            rng.shuffle(seats)
            check_every_seat(env, seats)
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else
                     random_action(obs["action_mask"], rng))
            steps += 1
            del agent
    assert steps > 5


@pytest.mark.parametrize(("kit", "options"), SETTINGS, ids=IDS)
def test_a_scenario_or_a_state_set_mid_game_is_encoded_afresh(
        kit: GameKit, options: dict[str, Any]) -> None:
    n = _seats(kit)
    env = python_env(kit, n, **options)
    source = python_env(kit, n, **options)
    rng = np.random.default_rng(9)
    source.reset(seed=4)
    advance(source, rng, 1)
    position = source.position()
    env.reset(seed=3)
    advance(env, rng, 1)
    seats = list(range(n))
    check_every_seat(env, seats)
    env.reset(options={"scenario": position})
    check_every_seat(env, seats[::-1])
    advance(env, rng, 1)
    check_every_seat(env, seats[1:] + seats[:1])
    env.game_state = source.game_state.clone()
    check_every_seat(env, seats)
    env._replace_state(source.game_state)
    check_every_seat(env, seats[::-1])
