"""The position check: every state written as a position reads back as the same
state, and play goes on from it as from the original (docs/positions.md)."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np

from cardgym.aec import CardGameEnv
from cardgym.chance import new_generator
from cardgym.testing.kit import GameKit, random_action


def check_positions(kit: GameKit, num_players: int, games: int = 2,
                    options: dict[str, Any] | None = None, seed: int = 0,
                    positions_per_game: int = 12, follow: int = 12) -> int:
    """Write positions from random play and read them back.

    At about ``positions_per_game`` decisions of each game (spread over it), the
    current state is written with ``env.position()`` and checked:

    - it holds JSON types only (``json`` round-trips it unchanged);
    - an env of the same game and options reset to it (through ``json``) draws
      nothing from its generator, and writes the same position again;
    - its state equals the original (after ``canonical_state``, when the game has
      one), and it holds the same agents;
    - from it and from a copy of the original env, with generators in the same
      state, the same random actions give the same acting agents, observations,
      masks, rewards and terminations for ``follow`` moves (or to the end).

    Returns the number of positions checked.
    """
    assert kit.game is not None, f"{kit.name}: the kit has no game contract"
    options = options or {}
    env = kit.make_env(num_players=num_players, **options)
    rng = np.random.default_rng(seed)
    checked = 0
    for episode in range(games):
        actions = _random_game(env, seed + episode, rng)
        stride = max(1, sum(a is not None for a in actions) // positions_per_game)
        env.reset(seed=seed + episode)
        decision = 0
        for action in actions:
            if action is not None:
                if decision % stride == 0:
                    _check_one(kit, env, num_players, options, rng, follow)
                    checked += 1
                decision += 1
            env.step(action)
    return checked


def _random_game(env: CardGameEnv[Any], seed: int, rng: np.random.Generator) -> list[int | None]:
    """The steps of a random game from ``reset(seed=seed)`` (``None``: a finished
    agent's step)."""
    env.reset(seed=seed)
    actions: list[int | None] = []
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else random_action(obs["action_mask"], rng)
        actions.append(action)
        env.step(action)
    return actions


def _check_one(kit: GameKit, env: CardGameEnv[Any], num_players: int, options: dict[str, Any],
               rng: np.random.Generator, follow: int) -> None:
    game = kit.game
    assert game is not None
    where = f"{kit.name} {num_players}p"
    written = env.position()
    text = json.dumps(written)
    assert json.loads(text) == written, f"{where}: the position holds more than JSON types"
    loaded = kit.make_env(num_players=num_players, **options)
    loaded.reset(seed=7, options={"scenario": json.loads(text)})
    fresh, _ = new_generator(loaded.unwrapped.stream, 7)
    assert loaded.np_random.bit_generator.state == fresh.bit_generator.state, (
        f"{where}: reading a whole position drew from the generator")
    assert loaded.position() == written, f"{where}: the position read back writes differently"
    original = env.game_state
    if game.canonical_state is not None:
        original = game.canonical_state(original)
    assert loaded.game_state == original, (
        f"{where}: the state read back differs in "
        f"{_differing(loaded.game_state, original)}")
    twin = copy.deepcopy(env)
    assert loaded.agents == twin.agents, (
        f"{where}: the position has agents {loaded.agents}, the game {twin.agents}")
    loaded.np_random.bit_generator.state = twin.np_random.bit_generator.state
    moves = np.random.default_rng(int(rng.integers(2**32)))
    for _ in range(follow):
        _same(twin, loaded, where)
        if not twin.agents:
            return
        agent = twin.agent_selection
        if twin.terminations[agent] or twin.truncations[agent]:
            action = None
        else:
            action = random_action(twin.observe(agent)["action_mask"], moves)
        twin.step(action)
        loaded.step(action)
    _same(twin, loaded, where)


def _same(a: CardGameEnv[Any], b: CardGameEnv[Any], where: str) -> None:
    assert a.agents == b.agents, f"{where}: agents {a.agents} != {b.agents} after the position"
    if not a.agents:
        return
    assert a.agent_selection == b.agent_selection, f"{where}: another agent acts"
    for agent in a.agents:
        left, right = a.observe(agent), b.observe(agent)
        assert np.array_equal(left["observation"], right["observation"]), (
            f"{where}: {agent}'s observation differs after the position")
        assert np.array_equal(left["action_mask"], right["action_mask"]), (
            f"{where}: {agent}'s mask differs after the position")
    assert a.rewards == b.rewards, f"{where}: rewards {a.rewards} != {b.rewards}"
    assert a.terminations == b.terminations, f"{where}: terminations differ"


def _differing(left: Any, right: Any) -> str:
    """The fields in which two states differ, for the message."""
    names = [name for name in left.fields() if getattr(left, name) != getattr(right, name)]
    return ", ".join(names) or "nothing field by field"
