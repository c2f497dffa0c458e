"""The leak test: resampling what a seat cannot know leaves its observation, mask
and turn unchanged."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils.env_checker import data_equivalence

from cardgym.aec import CardGameEnv
from cardgym.testing.kit import GameKit, play_episode


def check_no_leaks(kit: GameKit, num_players: int, games: int = 30, resamples: int = 3,
                   options: dict[str, Any] | None = None, seed: int = 0,
                   probe_budget: int | None = None, min_games: int = 2,
                   view_stride: int = 1) -> int:
    """The leak test (docs/rules/README.md).

    At every step, for every seat: replace the state with ``resample_hidden``
    (everything the seat cannot know dealt anew, consistent with what it knows)
    and require the seat's observation, its mask and whether it is to act to be
    unchanged, and (at every ``view_stride``-th step) the seat's table view and the
    spectator's (:mod:`cardgym.table`) to be identical. Also require that resampling actually changes hidden information
    somewhere, so that the test can fail. Returns the number of comparisons made.

    With ``probe_budget``, no new game starts once that many comparisons are made
    and ``min_games`` games are played (large tables have long games and many seats).
    """
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)
    sample_rng = np.random.default_rng(seed + 1)
    compared = 0
    changed = 0
    steps = 0
    views = kit.game is not None and kit.game.table is not None

    def probe(env: CardGameEnv[Any]) -> None:
        nonlocal compared, changed, steps
        original = env.game_state
        with_views = views and steps % view_stride == 0
        steps += 1
        spectator = env._table_view(None) if with_views else None
        for seat, agent in enumerate(env.possible_agents):
            before = env.observe(agent)
            acting = env.agent_selection
            seen = env._table_view(seat) if with_views else None
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
                    if with_views:
                        _same_view(seen, env._table_view(seat), agent)
                        _same_view(spectator, env._table_view(None),
                                   f"the spectator (resampling for {agent})")
                finally:
                    env._replace_state(original)
                compared += 1

    for game in range(games):
        if probe_budget is not None and game >= min_games and compared >= probe_budget:
            break
        play_episode(env, rng, seed=seed + game, each_step=probe, max_steps=kit.max_steps)
    assert changed > 0, "resample_hidden never changed anything: the leak test cannot fail"
    return compared


def _same_view(before: Any, after: Any, whose: str) -> None:
    """Assert two table views are identical, naming the first keys that differ."""
    if before == after:
        return
    keys = [key for key in before if before[key] != after.get(key)]
    detail = ""
    if "seats" in keys:
        seats = [i for i, (a, b) in enumerate(zip(before["seats"], after["seats"], strict=True))
                 if a != b]
        detail = f" (seats {seats})"
    raise AssertionError(f"{whose}: the table view's {keys}{detail} depend on hidden "
                         f"information")


# ------------------------------------------------------------------ choices

#: The env's bookkeeping that one step changes; saved and restored around each trial.
