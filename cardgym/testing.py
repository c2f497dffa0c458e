"""Conformance kit: the checks every cardgym environment must pass.

Each game describes itself with a :class:`GameKit` (how to build the env, and the
engine functions the checks compare against); the functions here take a kit and
raise ``AssertionError`` with a readable message on the first failure. The test
suite runs every check over every game; a new game only adds its kit.

Checks: PettingZoo's ``api_test`` and ``render_test``; seeding over many episodes
(:func:`check_seeding`); masks equal the engine's legal moves
(:func:`check_masks`); observations inside their space (:func:`check_spaces`);
pickling mid-game (:func:`check_pickle`); the leak test (:func:`check_no_leaks`);
and random-play fuzzing with the game's invariants (:func:`fuzz`).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils.env_checker import data_equivalence

from cardgym.aec import CardGameEnv


@dataclass(frozen=True)
class GameKit:
    """What the conformance checks need to know about one game.

    Attributes:
        name: short game name, for messages.
        make_env: builds the env: ``make_env(num_players=..., **options)``.
        player_counts: the supported player counts.
        legal_moves: engine function, state -> legal moves of the seat to act.
        move_to_action: (state, move) -> action index.
        resample_hidden: (state, seat, rng) -> a state that seat cannot tell apart.
        invariants: state -> None, raising ``AssertionError`` when a rule invariant
            is broken (cards conserved, bounds, ...).
        option_sets: rule-option combinations (keyword dicts) to run the checks on.
        max_steps: a game longer than this many steps counts as not ending.
    """

    name: str
    make_env: Callable[..., CardGameEnv[Any]]
    player_counts: Sequence[int]
    legal_moves: Callable[[Any], Sequence[Any]]
    move_to_action: Callable[[Any, Any], int]
    resample_hidden: Callable[[Any, int, np.random.Generator], Any]
    invariants: Callable[[Any], None]
    option_sets: Sequence[dict[str, Any]] = field(default_factory=lambda: [{}])
    max_steps: int = 100_000


def random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of a mask."""
    legal = np.flatnonzero(mask)
    assert legal.size, "the agent to act has no legal action"
    return int(legal[rng.integers(legal.size)])


def play_episode(
    env: CardGameEnv[Any],
    rng: np.random.Generator,
    seed: int | None = None,
    each_step: Callable[[CardGameEnv[Any]], None] | None = None,
    max_steps: int = 100_000,
) -> int:
    """Play one episode with random legal actions; returns the number of steps.

    ``each_step(env)`` runs before every action of a live agent.
    """
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if each_step is not None:
            each_step(env)
        env.step(random_action(obs["action_mask"], rng))
        steps += 1
        assert steps <= max_steps, f"episode did not end within {max_steps} steps"
        del agent
    return steps


def check_api(kit: GameKit, num_players: int, num_cycles: int = 300) -> None:
    """PettingZoo's ``api_test``."""
    from pettingzoo.test import api_test

    api_test(kit.make_env(num_players=num_players), num_cycles=num_cycles)


def check_render(kit: GameKit, num_players: int) -> None:
    """PettingZoo's ``render_test``, and every seat's view plus the full view render."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode="ansi": kit.make_env(num_players=num_players,
                                                         render_mode=render_mode))
    env = kit.make_env(num_players=num_players, render_mode="ansi")
    env.reset(seed=3)
    for seat in range(num_players):
        text = env.render_text(seat)
        assert isinstance(text, str) and text, "render_text(seat) returned no text"
    assert env.render_text("full")


def check_seeding(kit: GameKit, num_players: int, episodes: int = 20,
                  options: dict[str, Any] | None = None) -> None:
    """Same seed, same game, over ``episodes`` consecutive episodes.

    PettingZoo's ``seed_test`` compares one episode per call (always seed 42). Here
    two envs play ``episodes`` episodes side by side: the first reset seeded, the
    later ones unseeded (Gymnasium semantics: the generator continues), with the
    agents' choices drawn from identically seeded generators. Observations, masks,
    rewards, terminations and infos must match at every step. A third env with
    another seed must play a different sequence of games.
    """
    from pettingzoo.test import seed_test

    options = options or {}
    seed_test(lambda: kit.make_env(num_players=num_players, **options), num_cycles=200)

    def trace(seed: int) -> list[Any]:
        env = kit.make_env(num_players=num_players, **options)
        rng = np.random.default_rng(1234)
        out: list[Any] = []
        for episode in range(episodes):
            env.reset(seed=seed if episode == 0 else None)
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, info = env.last()
                out.append((agent, obs, reward, terminated, truncated, info))
                env.step(None if terminated or truncated
                         else random_action(obs["action_mask"], rng))
        return out

    first, second = trace(7), trace(7)
    assert len(first) == len(second), "same seed, different episode lengths"
    for step, (a, b) in enumerate(zip(first, second, strict=True)):
        assert data_equivalence(a, b), f"same seed, different data at step {step}: {a} != {b}"
    other = trace(8)
    assert not (len(other) == len(first) and all(
        data_equivalence(a, b) for a, b in zip(first, other, strict=True)
    )), "seeds 7 and 8 gave identical games"


def check_masks(kit: GameKit, num_players: int, games: int = 50,
                options: dict[str, Any] | None = None, seed: int = 0) -> None:
    """At every step the mask is exactly the engine's legal moves, all other agents'
    masks are zero, and every observation lies inside its space."""
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)

    def compare(env: CardGameEnv[Any]) -> None:
        state = env.game_state
        expected = sorted(kit.move_to_action(state, m) for m in kit.legal_moves(state))
        for agent in env.agents:
            obs = env.observe(agent)
            space = env.observation_space(agent)
            assert space.contains(obs), f"{agent}: observation outside its space"
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            if agent == env.agent_selection:
                assert legal == expected, (
                    f"{agent}: mask {legal} differs from the legal moves {expected}"
                )
            else:
                assert not legal, f"{agent} is not to act but its mask is {legal}"

    for game in range(games):
        play_episode(env, rng, seed=seed + game, each_step=compare, max_steps=kit.max_steps)


def check_spaces(kit: GameKit, num_players: int) -> None:
    """Spaces are cached objects of the documented types and dtypes."""
    env = kit.make_env(num_players=num_players)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        obs_space = env.observation_space(agent)
        assert isinstance(obs_space, spaces.Dict)
        assert obs_space["observation"].dtype == np.float32
        assert obs_space["action_mask"].dtype == np.int8
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["observation"].dtype == np.float32 and obs["observation"].ndim == 1
    assert obs["action_mask"].dtype == np.int8


def check_pickle(kit: GameKit, num_players: int, seed: int = 5) -> None:
    """An env pickled mid-game continues exactly like the original."""
    env = kit.make_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(3):
        obs, _, terminated, _, _ = env.last()
        if terminated:
            break
        env.step(random_action(obs["action_mask"], rng))
    copy = pickle.loads(pickle.dumps(env))
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    for a, b in zip(env.agent_iter(), copy.agent_iter(), strict=True):
        obs_a, *rest_a = env.last()
        obs_b, *rest_b = copy.last()
        assert a == b and data_equivalence(obs_a, obs_b) and data_equivalence(rest_a, rest_b)
        done = rest_a[1] or rest_a[2]
        env.step(None if done else random_action(obs_a["action_mask"], rng_a))
        copy.step(None if done else random_action(obs_b["action_mask"], rng_b))


def check_no_leaks(kit: GameKit, num_players: int, games: int = 30, resamples: int = 3,
                   options: dict[str, Any] | None = None, seed: int = 0,
                   probe_budget: int | None = None, min_games: int = 2) -> int:
    """The leak test (RULES.md §1).

    At every step, for every seat: replace the state with ``resample_hidden``
    (everything the seat cannot know dealt anew, consistent with what it knows)
    and require the seat's observation, its mask and whether it is to act to be
    unchanged. Also require that resampling actually changes hidden information
    somewhere, so that the test can fail. Returns the number of comparisons made.

    With ``probe_budget``, no new game starts once that many comparisons are made
    and ``min_games`` games are played (large tables have long games and many seats).
    """
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)
    sample_rng = np.random.default_rng(seed + 1)
    compared = 0
    changed = 0

    def probe(env: CardGameEnv[Any]) -> None:
        nonlocal compared, changed
        original = env.game_state
        for seat, agent in enumerate(env.possible_agents):
            before = env.observe(agent)
            acting = env.agent_selection
            for _ in range(resamples):
                other = kit.resample_hidden(original, seat, sample_rng)
                if other != original:
                    changed += 1
                env._replace_state(other)
                try:
                    after = env.observe(agent)
                    assert (env.agent_selection == agent) == (acting == agent), (
                        f"{agent}: whether it is to act depends on hidden information"
                    )
                    assert data_equivalence(before["action_mask"], after["action_mask"]), (
                        f"{agent}: the action mask depends on hidden information"
                    )
                    diff = np.flatnonzero(before["observation"] != after["observation"])
                    assert diff.size == 0, (
                        f"{agent}: observation entries {diff.tolist()} depend on hidden information"
                    )
                finally:
                    env._replace_state(original)
                compared += 1

    for game in range(games):
        if probe_budget is not None and game >= min_games and compared >= probe_budget:
            break
        play_episode(env, rng, seed=seed + game, each_step=probe, max_steps=kit.max_steps)
    assert changed > 0, "resample_hidden never changed anything: the leak test cannot fail"
    return compared


def fuzz(kit: GameKit, num_players: int, games: int, options: dict[str, Any] | None = None,
         seed: int = 0) -> dict[str, float]:
    """Random play of ``games`` games checking the invariants before every step and at
    the end; every game must end within ``kit.max_steps``. Returns simple statistics."""
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)
    total_steps = 0

    def check(env: CardGameEnv[Any]) -> None:
        kit.invariants(env.game_state)

    for game in range(games):
        total_steps += play_episode(env, rng, seed=seed + game if game == 0 else None,
                                    each_step=check, max_steps=kit.max_steps)
        kit.invariants(env.game_state)
        assert not env.agents, "agents left after the game ended"
    return {"games": games, "steps": total_steps, "mean_steps": total_steps / max(games, 1)}


__all__ = [
    "GameKit",
    "check_api",
    "check_masks",
    "check_no_leaks",
    "check_pickle",
    "check_render",
    "check_seeding",
    "check_spaces",
    "fuzz",
    "play_episode",
    "random_action",
]
