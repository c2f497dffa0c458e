"""One random stream per game (cardgym.chance): the Python engines draw as the
compiled kernels draw, a seed deals one game on every path, and the legacy env
versions deal from numpy's generator as they did."""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pettingzoo
import pytest
from gymnasium.error import Error as SeedError

from cardgym import positions, records
from cardgym.chance import PCG64, SPLITMIX64, GameRandom, SplitMix64, seed_state
from cardgym.errors import OptionError
from cardgym.registration import find_game, games
from cardgym.testing.stream import check_same_games
from cardgym.vector.random import below, next_u64, seed_states, shuffle
from tests.cardgym.kits import KITS

BATCHED = [game for game in games() if game.batched is not None]


def test_the_stream_is_splitmix64_of_the_published_reference() -> None:
    # SplitMix64's reference outputs for state 1234567 (Vigna's splitmix64.c).
    bits = SplitMix64(1234567)
    assert [bits.next_u64() for _ in range(3)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423]


@pytest.mark.parametrize("state", [0, 1, 2**63 + 5, 2**64 - 1])
def test_python_draws_equal_the_kernels_draws(state: int) -> None:
    python = GameRandom(state)
    kernel = np.array([state], np.uint64)
    for n in (1, 2, 3, 7, 52, 1000, 2**31 + 3):
        assert python.integers(n) == below(kernel, 0, n)
    assert python.bit_generator.next_u64() == int(next_u64(kernel, 0))
    values = np.arange(20, dtype=np.int8)
    shuffle(values, 20, kernel, 0)
    assert python.permutation(20).tolist() == values.tolist()
    assert python.state == int(kernel[0])


def test_random_times_n_is_integers_n() -> None:
    one, other = GameRandom(99), GameRandom(99)
    for n in (2, 3, 5, 6, 9, 13):
        assert int(one.random() * n) == other.integers(n)


def test_the_draws_an_engine_uses_follow_numpys_forms() -> None:
    rng = GameRandom(5)
    assert 10 <= rng.integers(10, 13) < 13
    assert sorted(rng.permutation(["a", "b", "c"]).tolist()) == ["a", "b", "c"]
    items = list(range(10))
    rng.shuffle(items)
    assert sorted(items) == list(range(10))
    assert rng.choice(["x"]) == "x"
    picks = rng.choice(8, size=5, replace=False)
    assert len(set(picks.tolist())) == 5 and all(0 <= p < 8 for p in picks)
    with pytest.raises(ValueError, match="1 to 2\\*\\*32 - 1 integers"):
        rng.integers(0)
    with pytest.raises(ValueError, match="cannot choose 3 of 2"):
        rng.choice(2, size=3, replace=False)


def test_the_state_is_read_and_set_as_numpys_bit_generators_are() -> None:
    rng = GameRandom(seed_state(3))
    saved = rng.bit_generator.state
    first = [rng.integers(100) for _ in range(5)]
    rng.bit_generator.state = saved
    assert [rng.integers(100) for _ in range(5)] == first
    with pytest.raises(ValueError, match="a SplitMix64 state is"):
        rng.bit_generator.state = {"bit_generator": "PCG64", "state": {}}


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 1])
def test_a_seed_gives_the_state_of_row_0_of_a_batched_engine(seed: int) -> None:
    assert seed_state(seed) == int(seed_states(seed, 64)[0])
    game = BATCHED[0]
    engine = game.make_batched(4, 2)
    engine.seed(seed)
    assert int(engine.rng[0]) == seed_state(seed)


@pytest.mark.parametrize("game", BATCHED, ids=lambda game: game.name)
def test_a_seed_deals_the_same_game_in_the_env_and_the_batched_engine(game: Any) -> None:
    # Every player count and option set, whole games, nothing set from one side to
    # the other (tests/benchmarks: the full size in benchmarks/stream_parity.py).
    compared, played = 0, 0
    for players in game.player_counts:
        for options in game.test_option_sets:
            compared += check_same_games(game, players, options, games=2, seed=players)
            played += 2
    assert compared >= played


@pytest.mark.parametrize("kit", KITS, ids=lambda kit: kit.name)
def test_the_newest_version_deals_from_the_shared_stream_and_v1_from_pcg64(kit: Any) -> None:
    game = kit.game
    newest = kit.make_env(num_players=game.player_counts[0])
    assert (newest.version, newest.stream) == (game.version, SPLITMIX64)
    newest.reset(seed=11)
    assert isinstance(newest.np_random, GameRandom)
    with pytest.warns(DeprecationWarning, match=f"{game.env_id_of(1)} is deprecated"):
        legacy = kit.make_env(num_players=game.player_counts[0], version=1)
    assert (legacy.version, legacy.stream) == (1, PCG64)
    legacy.reset(seed=11)
    assert isinstance(legacy.np_random, np.random.Generator)


def test_pettingzoo_makes_every_version_kept() -> None:
    game = find_game("power_hungry_pets")
    assert game.versions == (1, 2)
    newest = pettingzoo.make("aec", "cardgym/power_hungry_pets-v2", num_players=3)
    assert newest.unwrapped.version == 2
    with pytest.warns(DeprecationWarning):
        legacy = pettingzoo.make("aec", "cardgym/power_hungry_pets-v1", num_players=3)
    assert legacy.unwrapped.version == 1
    assert str(legacy.unwrapped) == "power_hungry_pets_v1"
    assert find_game("cardgym/power_hungry_pets-v1") is game
    kakelaar = pettingzoo.make("parallel", "cardgym/karel_kakelaar-v2", num_players=3)
    assert kakelaar.version == 2


@pytest.mark.parametrize("version", [0, 3, "2", True, 1.0])
def test_an_unknown_version_is_refused(version: Any) -> None:
    with pytest.raises(OptionError, match="env versions 1, 2"):
        find_game("karel_kakelaar").make_env(num_players=2, version=version)


def test_a_bad_seed_is_refused_as_gymnasium_refuses_it() -> None:
    env = find_game("karel_kakelaar").make_env(num_players=2)
    env.reset(seed=1)
    before = env.position()
    with pytest.raises(SeedError, match="greater or equal to zero"):
        env.reset(seed=-1)
    with pytest.raises(SeedError, match="python integer"):
        env.reset(seed=1.5)  # type: ignore[arg-type]
    assert env.position() == before


def test_the_same_seed_deals_other_games_in_the_two_versions() -> None:
    game = find_game("power_hungry_pets")
    newest = game.make_env(num_players=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        legacy = game.make_env(num_players=4, version=1)
    dealt = []
    for env in (newest, legacy):
        env.reset(seed=5)
        dealt.append(env.position())
    assert dealt[0] != dealt[1]


def _play(env: Any, seed: int) -> records.GameRecord:
    env.reset(seed=seed)
    recorder = records.Recorder(env, seed)
    pick = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(pick.choice(env.legal_actions()))
        recorder.step(action)
        env.step(action)
    return recorder.record()


@pytest.mark.parametrize("version", [1, 2])
def test_a_record_names_its_version_and_replays_in_it(version: int) -> None:
    game = find_game("karel_kakelaar")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        env = game.make_env(num_players=3, version=version)
        record = _play(env, seed=21)
        assert record.env_id == f"cardgym/karel_kakelaar-v{version}"
        replayed = records.replay(json.loads(json.dumps(record.to_json())))
    assert game.position(replayed.states[-1]) == env.position()


@pytest.mark.parametrize("version", [1, 2])
def test_a_position_names_its_version_and_goes_on_drawing_from_its_stream(version: int) -> None:
    game = find_game("power_hungry_pets")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        env = game.make_env(num_players=3, version=version)
        env.reset(seed=4)
        document = positions.document(env)
        assert document["env_id"] == f"cardgym/power_hungry_pets-v{version}"
        loaded = positions.load(document, seed=8)
    assert (loaded.unwrapped.version, loaded.unwrapped.stream) == (env.version, env.stream)
