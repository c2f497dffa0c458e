"""The hand-written heuristic policies: legal, a function of their inputs, better than random."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from agents.policy import Policy, RandomPolicy
from agents.specs import make_policy
from cardgym.registration import find_game
from ek_env.heuristic import EkHeuristic
from kakelaar_env.heuristic import KakelaarHeuristic
from phpets_env.heuristic import PhpetsHeuristic


def _phpets_winners(env: Any) -> set[int]:
    return set(env.game_state.match_winners)


def _ek_winners(env: Any) -> set[int]:
    return {env.game_state.winner}


def _kakelaar_winners(env: Any) -> set[int]:
    return set(env.game_state.winners)


GAMES: dict[str, tuple[str, type, Callable[[Any], set[int]]]] = {
    "phpets": ("phpets_env", PhpetsHeuristic, _phpets_winners),
    "ek": ("ek_env", EkHeuristic, _ek_winners),
    "kakelaar": ("kakelaar_env", KakelaarHeuristic, _kakelaar_winners),
}


def play_game(game: str, num_players: int, seed: int, heuristic_seats: set[int],
              options: dict[str, Any] | None = None,
              check: Callable[[Policy, Any, Any], None] | None = None) -> set[int]:
    """Play one game, heuristic in ``heuristic_seats`` and random elsewhere; the winners."""
    module, cls, winners = GAMES[game]
    options = dict(options or {})
    env = importlib.import_module(module).env(num_players=num_players, **options)
    env.reset(seed=seed)
    heuristic = cls(env.config)
    rand = RandomPolicy()
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        policy: Policy = heuristic if seat in heuristic_seats else rand
        if check is not None and policy is heuristic:
            check(heuristic, obs["observation"], obs["action_mask"])
        action = policy.act(obs["observation"], obs["action_mask"], rng)
        assert obs["action_mask"][action] == 1, (game, seed, agent, action)
        env.step(action)
    return winners(env)


def wilson_lower(wins: int, games: int, z: float = 3.0) -> float:
    """Lower end of the Wilson score interval (z = 3: about 1 in 700 to fall below by chance)."""
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return centre - half


SETTINGS = [("phpets", 2), ("phpets", 4), ("ek", 2), ("ek", 4), ("kakelaar", 2), ("kakelaar", 5)]


@pytest.mark.parametrize(("game", "num_players"), SETTINGS)
def test_every_action_is_legal(game: str, num_players: int) -> None:
    for seed in range(12):
        seats = {seed % num_players} if seed % 3 else set(range(num_players))
        play_game(game, num_players, 1000 + seed, seats)


@pytest.mark.parametrize("options", [{"combos": False}, {"hand_size": 4},
                                     {"attack_stacking": "stack"}])
def test_ek_options_stay_legal(options: dict[str, Any]) -> None:
    for seed in range(6):
        play_game("ek", 3, 2000 + seed, {0, 1}, options)


STREAKING = {"expansions": ("streaking",)}


@pytest.mark.parametrize("num_players", [2, 3, 5])
@pytest.mark.parametrize("options", [STREAKING, {**STREAKING, "fast": True, "combos": False}])
def test_ek_streaking_stays_legal(num_players: int, options: dict[str, Any]) -> None:
    """The expansion's layout: every phase (blind play, targets, Alter the Future,
    Garbage Collection, a held kitten given away) gets a legal, deterministic answer."""
    for seed in range(8):
        play_game("ek", num_players, 7000 + seed, set(range(num_players)) if seed % 2 else {0},
                  options, check=_check_pure)


def test_ek_streaking_beats_random_at_two_players() -> None:
    games = 200
    wins = sum(1 for g in range(games) if g % 2 in play_game("ek", 2, 8000 + g, {g % 2}, STREAKING))
    assert wilson_lower(wins, games) > 0.5, f"{wins}/{games} wins"


def test_phpets_duel_only_stays_legal() -> None:
    for seed in range(6):
        play_game("phpets", 3, 3000 + seed, {0, 2}, {"robovac": "duel_only"})


def _check_pure(policy: Policy, observation: Any, mask: Any) -> None:
    """Same inputs, same action; the inputs are left untouched."""
    obs_copy, mask_copy = observation.copy(), mask.copy()
    first = policy.act(obs_copy, mask_copy, np.random.default_rng(5))
    second = policy.act(observation.copy(), mask.copy(), np.random.default_rng(5))
    assert first == second
    assert np.array_equal(obs_copy, observation) and np.array_equal(mask_copy, mask)


@pytest.mark.parametrize(("game", "num_players"), SETTINGS)
def test_decisions_depend_only_on_inputs(game: str, num_players: int) -> None:
    for seed in range(3):
        play_game(game, num_players, 4000 + seed, set(range(num_players)), check=_check_pure)


@pytest.mark.parametrize(("game", "num_players"), SETTINGS)
def test_fresh_instance_agrees(game: str, num_players: int) -> None:
    """No state is carried between calls: a fresh policy decides like a used one."""
    module, cls, _ = GAMES[game]
    config = importlib.import_module(f"{module}.engine.state").Config(num_players=num_players)
    used = cls(config)

    def check(policy: Policy, observation: Any, mask: Any) -> None:
        fresh = cls(config)
        assert (fresh.act(observation, mask, np.random.default_rng(1))
                == used.act(observation, mask, np.random.default_rng(1)))

    play_game(game, num_players, 5000, {0}, check=check)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_beats_random_at_two_players(game: str) -> None:
    games = 300
    wins = 0
    for g in range(games):
        seat = g % 2
        if seat in play_game(game, 2, 6000 + g, {seat}):
            wins += 1
    assert wilson_lower(wins, games) > 0.5, f"{game}: {wins}/{games} wins"


def test_every_game_contract_names_its_heuristic_class() -> None:
    expected = {"power_hungry_pets": PhpetsHeuristic, "exploding_kittens": EkHeuristic,
                "karel_kakelaar": KakelaarHeuristic}
    for name, cls in expected.items():
        assert find_game(name).heuristic is cls, name
        policy = make_policy("heuristic", find_game(name), 2)
        assert isinstance(policy, cls) and isinstance(policy, Policy)
        assert policy.name == "heuristic"
        assert cls.__doc__ and len(cls.__doc__) > 200, name


def test_single_legal_action_is_taken() -> None:
    for cls, spec_module in ((PhpetsHeuristic, "phpets_env"), (EkHeuristic, "ek_env"),
                             (KakelaarHeuristic, "kakelaar_env")):
        encoding = importlib.import_module(f"{spec_module}.encoding.encoding")
        size = encoding.OBSERVATION_SPEC.size
        mask = np.zeros(len(encoding.ACTION_TABLE), dtype=np.int8)
        mask[len(mask) // 2] = 1
        config = importlib.import_module(f"{spec_module}.engine.state").Config(num_players=2)
        assert cls(config).act(np.zeros(size, np.float32), mask,
                               np.random.default_rng(0)) == len(mask) // 2


def _first_decision(module: str, num_players: int, scenario: dict[str, Any]) -> tuple[Any, Any]:
    env = importlib.import_module(module).env(num_players=num_players)
    env.reset(seed=0, options={"scenario": scenario})
    obs = env.observe(env.agent_selection)
    return env, obs


def test_ek_dodges_a_likely_kitten_without_defuse() -> None:
    env, obs = _first_decision("ek_env", 2, {
        "hands": [["skip", "taco_cat"], ["nope"]],
        "deck": ["exploding_kitten", "taco_cat"], "first_player": 0})
    action = EkHeuristic(env.config).act(obs["observation"], obs["action_mask"],
                                         np.random.default_rng(0))
    assert env.action_name(action) == "play:skip"


def test_phpets_keeps_king_cat() -> None:
    env, obs = _first_decision("phpets_env", 2, {
        "hands": ["crystal_bowl", "battle_bunny"], "deck_top": ["king_cat"],
        "first_player": 0})
    action = PhpetsHeuristic(env.config).act(obs["observation"], obs["action_mask"],
                                             np.random.default_rng(0))
    assert env.action_name(action) != "play:king_cat"


def test_ek_streaking_gives_away_a_held_kitten() -> None:
    """Asked for a Favor while holding a kitten with the Streaking Kitten, the heuristic
    gives the kitten (the receiver explodes), never the Streaking Kitten."""
    from ek_env import env as ek_env
    from ek_env.engine.state import GIVE

    env = ek_env(num_players=2, expansions=("streaking",))
    env.reset(seed=0, options={"scenario": {
        "hands": [["favor", "skip"], ["streaking_kitten", "exploding_kitten", "taco_cat"]],
        "deck": ["exploding_kitten", "attack", "beard_cat"], "first_player": 0}})
    env.step(env.action_index("play:favor:+1"))
    while env.agent_selection != "player_1" or env.game_state.phase != GIVE:
        env.step(env.action_index("pass"))
    obs, *_ = env.last()
    action = EkHeuristic(env.config).act(
        obs["observation"], obs["action_mask"], np.random.default_rng(0))
    assert env.action_table.names[action] == "give:exploding_kitten"
