"""Checks of the Python engine's encoding caches, shared by the common tests
(test_encoding_cache.py) and the games' own.

A game that lays out what every seat's observation shares once per state keeps it in
its state's ``memo`` (a cache field); the checks here compare every observation with
an encoding from scratch: of a clone of the state, which has no cache.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np

from cardgym.aec import CardGameEnv
from cardgym.record import Event
from cardgym.testing.kit import GameKit, random_action


def python_env(kit: GameKit, num_players: int, **options: Any) -> CardGameEnv[Any]:
    """The kit's env on the Python engine (the encoder the caches are of)."""
    env = kit.make_env(num_players=num_players, engine="python", **options)
    assert env.engine == "python"
    return env


def fresh(env: CardGameEnv[Any], seat: int) -> np.ndarray:
    """The seat's observation encoded from scratch: of a clone, which has no cache."""
    state = env.game_state.clone()
    assert getattr(state, "memo", None) is None
    return env.layout.encode(env.game.player_view(state, seat))


def finished(env: CardGameEnv[Any], agent: str) -> bool:
    return env.terminations[agent] or env.truncations[agent]


def advance(env: CardGameEnv[Any], rng: np.random.Generator, steps: int) -> None:
    """Step ``steps`` times (fewer if the game ends): random legal actions, ``None`` for
    a finished agent."""
    for _ in range(steps):
        if not env.agents:
            return
        agent = env.agent_selection
        env.step(None if finished(env, agent) else
                 random_action(env.observe(agent)["action_mask"], rng))


def check_every_seat(env: CardGameEnv[Any], order: list[int]) -> None:
    """Observe every seat in ``order`` and compare with encodings from scratch; a game
    with a shared layout keeps one per state, which every seat reads."""
    state = env.game_state
    memos = set()
    for seat in order:
        observed = env.observe(env.possible_agents[seat])["observation"]
        np.testing.assert_array_equal(observed, fresh(env, seat),
                                      err_msg=f"seat {seat}, order {order}")
        memos.add(id(getattr(state, "memo", None)))
    if hasattr(state, "memo"):
        assert state.memo is not None and len(memos) == 1, "the seats did not share one layout"


def check_edit_by_hand_is_not_stale(kit: GameKit, edit: Callable[[Any], None],
                                    seed: int = 8) -> None:
    """Encode a state, edit a public fact of it by hand, set it on the env again (the
    documented way to change the game): the observation shows the edit."""
    env = python_env(kit, 3)
    env.reset(seed=seed)
    advance(env, np.random.default_rng(1), 4)
    state = env.game_state
    before = env.observe(env.possible_agents[1])["observation"]
    assert state.memo is not None
    edit(state)
    env.game_state = state
    after = env.observe(env.possible_agents[1])["observation"]
    np.testing.assert_array_equal(after, fresh(env, 1))
    assert not np.array_equal(before, after), "the edit should show in the observation"


def check_layout_dropped(kit: GameKit, **options: Any) -> None:
    """A clone, a pickle, ``touch()`` and a move drop a state's layout, and one stored
    at another length of the record is not read."""
    env = python_env(kit, 3, **options)
    env.reset(seed=6)
    state = env.game_state
    view = env.game.player_view
    env.observe(env.agent_selection)
    assert state.memo is not None and view(state, 2).public_memo() is not None
    assert state.clone().memo is None
    assert pickle.loads(pickle.dumps(state)).memo is None
    state.touch()
    assert state.memo is None
    env.observe(env.agent_selection)
    mask = env.action_mask(env.agent_selection)
    env.layout.apply(state, int(np.flatnonzero(mask)[0]), env.np_random)
    assert state.memo is None
    env.observe(env.agent_selection)
    state.log.append(Event(0, 0))
    assert view(state, 0).public_memo() is None
