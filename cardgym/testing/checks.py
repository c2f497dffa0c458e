"""The checks of the PettingZoo contract, seeding, masks, spaces, pickling and
clones, and random-play fuzzing with the game's invariants."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils.env_checker import data_equivalence

from cardgym.aec import CardGameEnv
from cardgym.testing.kit import GameKit, play_episode, random_action


def check_api(kit: GameKit, num_players: int, num_cycles: int = 300) -> None:
    """PettingZoo's ``api_test``."""
    from pettingzoo.test import api_test

    api_test(kit.make_env(num_players=num_players), num_cycles=num_cycles)


def check_render(kit: GameKit, num_players: int) -> None:
    """PettingZoo's ``render_test`` (every render mode, ``rgb_array`` included), every
    seat's view and the full view as text, and pictures of the first and last seat's
    view and the full view."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode="ansi": kit.make_env(num_players=num_players,
                                                         render_mode=render_mode))
    env = kit.make_env(num_players=num_players, render_mode="ansi")
    env.reset(seed=3)
    for seat in range(num_players):
        text = env.render_text(seat)
        assert isinstance(text, str) and text, "render_text(seat) returned no text"
    assert env.render_text("full")
    viewers: tuple[int | str, ...] = (0, num_players - 1, "full")
    for viewer in viewers:
        picture = kit.make_env(num_players=num_players, render_mode="rgb_array",
                               render_seat=viewer)
        picture.reset(seed=3)
        image = picture.render()
        assert isinstance(image, np.ndarray) and image.dtype == np.uint8, (
            f"render() with rgb_array for {viewer!r} gave {type(image).__name__}")
        assert image.ndim == 3 and image.shape[2] == 3 and image.min() < image.max(), (
            f"render() with rgb_array for {viewer!r} gave no picture: {image.shape}")


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


_IMMUTABLE = (int, float, str, bytes, bool, type(None), frozenset, range)


def shared_mutables(original: Any, clone: Any) -> list[str]:
    """Paths of mutable objects (lists, dicts, sets, bytearrays, arrays, objects with
    fields) that ``clone`` shares with ``original``; tuples and frozen dataclasses are
    followed, other immutables skipped."""
    found: list[str] = []
    seen: set[int] = set()

    def children(value: Any) -> list[tuple[str, Any]]:
        if isinstance(value, dict):
            return [(f"[{key!r}]", item) for key, item in value.items()]
        if isinstance(value, (list, tuple)):
            return [(f"[{i}]", item) for i, item in enumerate(value)]
        if isinstance(value, (set, bytearray, np.ndarray)):
            return []
        slots = getattr(type(value), "__slots__", ())
        fields = [name for name in slots if hasattr(value, name)]
        fields += list(getattr(value, "__dict__", {}))
        return [(f".{name}", getattr(value, name)) for name in fields]

    def frozen(value: Any) -> bool:
        params = getattr(type(value), "__dataclass_params__", None)
        return isinstance(value, (tuple, *_IMMUTABLE)) or bool(params and params.frozen)

    def walk(a: Any, b: Any, path: str) -> None:
        if isinstance(a, _IMMUTABLE) or id(a) in seen:
            return
        seen.add(id(a))
        if a is b and not frozen(a):
            found.append(path)
            return
        if type(a) is not type(b):
            return
        pairs_b = dict(children(b))
        for key, item in children(a):
            if key in pairs_b:
                walk(item, pairs_b[key], path + key)

    walk(original, clone, "state")
    return found


def check_clones(kit: GameKit, num_players: int, games: int = 5, seed: int = 11) -> int:
    """``state.clone()`` at every step of random games: equal to the original, sharing
    no mutable object with it, and playing the clone on leaves the original as it was.
    Returns the number of states cloned."""
    env = kit.make_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    cloned = 0
    for episode in range(games):
        env.reset(seed=seed + episode)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            state: Any = env.game_state
            before = copy.deepcopy(state)
            twin = state.clone()
            assert twin == state, f"{kit.name}: a clone differs from its original"
            shared = shared_mutables(state, twin)
            assert not shared, f"{kit.name}: the clone shares mutable {', '.join(shared[:5])}"
            if kit.game is not None and not kit.game.is_over(twin):
                layout = kit.game.layout(env.config)
                legal = [i for i in range(layout.num_actions) if layout.legal_mask(twin) >> i & 1]
                layout.apply(twin, legal[0], np.random.default_rng(0))
                assert state == before, f"{kit.name}: playing on a clone changed the original"
            cloned += 1
            done = terminated or truncated
            env.step(None if done else random_action(obs["action_mask"], rng))
    return cloned


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


def check_declared_state(kit: GameKit, num_players: int, games: int = 3,
                         options: dict[str, Any] | None = None, seed: int = 0,
                         stride: int = 2) -> int:
    """A state declared field by field (:func:`cardgym.state.slot`) keeps what it
    declares, at every ``stride``-th step of random games:

    - a resample for search (each seat's) changes only fields declared ``hidden``;
    - every key a position writes is the ``json`` name of a declared field.

    Returns the resamples compared; ``AssertionError`` naming the field otherwise.
    """
    assert kit.game is not None, "check_declared_state needs a kit built from a game"
    game = kit.game
    env = kit.make_env(num_players=num_players, **(options or {}))
    env.reset(seed=seed)
    spec = getattr(type(env.game_state), "SPEC", {})
    assert spec, f"{kit.name}: the state declares no fields (cardgym.state.slot)"
    public = [name for name, field in spec.items() if not field.hidden and field.cache is None]
    keys = {field.json.split(".")[0] for field in spec.values() if field.json is not None}
    rng = np.random.default_rng(seed)
    compared = 0
    step = 0

    def check(env: CardGameEnv[Any]) -> None:
        nonlocal compared, step
        step += 1
        if step % stride:
            return
        state: Any = env.game_state
        undeclared = sorted(set(game.position(state)) - keys)
        assert not undeclared, (
            f"{kit.name}: the position writes {undeclared}, which no declared field names "
            "as its json key")
        for seat in range(num_players):
            sample = game.resample_hidden(state, seat, np.random.default_rng(step))
            changed = [name for name in public if getattr(sample, name) != getattr(state, name)]
            assert not changed, (
                f"{kit.name}: a resample for seat {seat} changed {changed}, which the state "
                "declares public (every seat knows them): declare them hidden, or keep them")
            compared += 1

    for game_index in range(games):
        play_episode(env, rng, seed=seed + game_index, each_step=check,
                     max_steps=kit.max_steps)
    return compared
