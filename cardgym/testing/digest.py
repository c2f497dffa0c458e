"""Digests of a game's behaviour: one hash per part of everything the library shows
of seeded games, to show that a change of how the games are written changes nothing
of what they do.

:func:`behaviour_digest` plays seeded games of random legal moves through a kit's
env and hashes, part by part, what each seat and the table are shown at every step
(observations and masks, rewards, terminations, the text render of every seat and
the table's, the narration of the new events for every seat, the table views), the
position (``env.position()``) and, for every seat, a resample of the hidden state
(its position and its text render for that seat). For a game with a batched engine,
:func:`batched_digest` steps seeded rows with random legal actions and hashes the
row arrays, the observations of every seat, the rewards and the exported positions.

Every part is written in a form that does not depend on how the state is held in
memory (JSON with sorted keys, float32 and int8 bytes, text), so two versions of a
game that behave alike give equal digests. ``benchmarks/behaviour_digest.py`` keeps
the digests of every setting in ``tests/data/behaviour_digests.json``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from cardgym.testing.kit import GameKit, random_action

__all__ = ["PARTS", "BATCHED_PARTS", "Setting", "batched_digest", "behaviour_digest",
           "settings_of"]

#: The parts :func:`behaviour_digest` hashes, in order.
PARTS = ("observations", "rewards", "renders", "narration", "table_views", "positions",
         "resamples")
#: The parts :func:`batched_digest` hashes.
BATCHED_PARTS = ("rows", "observations", "rewards", "exports")

#: A setting: (kit name, player count, rule options).
Setting = tuple[str, int, dict[str, Any]]


def settings_of(kits: list[GameKit]) -> Iterator[tuple[GameKit, int, dict[str, Any]]]:
    """Every (kit, player count, option set) of ``kits``."""
    for kit in kits:
        for players in kit.player_counts:
            for options in kit.option_sets:
                yield kit, players, dict(options)


def _json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr).encode()


class _Hashes:
    """One running sha256 per part."""

    def __init__(self, parts: tuple[str, ...]) -> None:
        self.hashes = {part: hashlib.sha256() for part in parts}

    def add(self, part: str, data: bytes | str) -> None:
        chunk = data.encode() if isinstance(data, str) else data
        # Each chunk's length first, so that two streams cut differently differ.
        self.hashes[part].update(len(chunk).to_bytes(8, "little"))
        self.hashes[part].update(chunk)

    def digests(self) -> dict[str, str]:
        return {part: h.hexdigest() for part, h in self.hashes.items()}


def behaviour_digest(kit: GameKit, num_players: int, options: Mapping[str, Any] | None = None,
                     games: int = 2, seed: int = 0, stride: int = 1,
                     version: int | None = None, engine: str | None = None) -> dict[str, str]:
    """The digest of ``games`` seeded games of random legal moves (see the module):
    a sha256 per part of :data:`PARTS`. Observations, masks and rewards are hashed
    at every step; renders, narration (of the events since it was last hashed),
    table views, positions and resamples (each seat's, from ``default_rng(step)``)
    every ``stride`` steps and at the end of each game. ``version``: the env
    version to play (default: the newest), which names the stream seeds deal from;
    ``engine``: the env's ``engine`` argument (default: the env's default), under which
    a game behaves the same (:mod:`cardgym.compiled`)."""
    assert kit.game is not None, "behaviour_digest needs a kit built from a game"
    game = kit.game
    hashes = _Hashes(PARTS)
    chosen: dict[str, Any] = {} if version is None else {"version": version}
    if engine is not None:
        chosen["engine"] = engine
    env = kit.make_env(num_players=num_players, **chosen, **dict(options or {}))
    agents = env.possible_agents
    choose = np.random.default_rng(seed)
    step = 0
    for episode in range(games):
        env.reset(seed=seed + episode)
        narrated = 0
        while True:
            _hash_seen(env, hashes, agents)
            if step % stride == 0 or not env.agents:
                _hash_shown(env, hashes, agents, narrated)
                narrated = env.event_count
                state = env.game_state
                for seat in range(num_players):
                    sample = game.resample_hidden(state, seat, np.random.default_rng(step))
                    hashes.add("resamples", _json(game.position(sample)))
                    hashes.add("resamples", game.render(sample, seat))
            step += 1
            if not env.agents:
                break
            acting = env.agent_selection
            if env.terminations[acting] or env.truncations[acting]:
                env.step(None)
            else:
                env.step(random_action(env.observe(acting)["action_mask"], choose))
    env.close()
    return hashes.digests()


def _hash_seen(env: Any, hashes: _Hashes, agents: list[str]) -> None:
    """What every seat observes now, its reward and whether it is done."""
    for agent in agents:
        obs = env.observe(agent)
        hashes.add("observations", obs["observation"].astype(np.float32).tobytes())
        hashes.add("observations", obs["action_mask"].astype(np.int8).tobytes())
        hashes.add("rewards", _json([env.rewards.get(agent), env._cumulative_rewards.get(agent),
                                     env.terminations.get(agent), env.truncations.get(agent)]))
    hashes.add("rewards", _json([env.agent_selection, list(env.agents)]))


def _hash_shown(env: Any, hashes: _Hashes, agents: list[str], narrated: int) -> None:
    """What every seat and the table are shown now: renders, the narration of the
    events from ``narrated`` on, table views, the position."""
    for seat, agent in enumerate(agents):
        hashes.add("renders", env.render_text(seat))
        hashes.add("narration", "\n".join(env.narrate(seat, narrated)))
        if env.game.table is not None and agent in env.agents:
            hashes.add("table_views", _json(env.table_view(agent)))
    hashes.add("renders", env.render_text(None))
    if env.game.table is not None:
        hashes.add("table_views", _json(env.table_view(None)))
    hashes.add("positions", _json(env.position()))


def batched_digest(kit: GameKit, num_players: int, options: Mapping[str, Any] | None = None,
                   rows: int = 16, steps: int = 200, seed: int = 0,
                   export_stride: int = 10) -> dict[str, str]:
    """The digest of ``rows`` seeded rows of a game's batched engine over ``steps``
    steps of random legal actions (games reset as they end): a sha256 per part of
    :data:`BATCHED_PARTS`. Every ``export_stride`` steps, each row's position."""
    assert kit.game is not None and kit.game.batched is not None, (
        "batched_digest needs a game with a batched engine")
    game = kit.game
    engine = game.make_batched(rows, num_players, 1, **dict(options or {}))
    hashes = _Hashes(BATCHED_PARTS)
    engine.reset(seed=seed)
    masks = np.empty((rows, engine.num_actions), np.int8)
    for step in range(steps):
        for name in sorted(engine.row_arrays):
            hashes.add("rows", np.ascontiguousarray(engine.row_arrays[name]).tobytes())
        for seat in range(num_players):
            obs, seat_masks = engine.observe(np.full(rows, seat, np.int64))
            hashes.add("observations", obs.tobytes())
            hashes.add("observations", seat_masks.tobytes())
        if step % export_stride == 0:
            for row in range(rows):
                hashes.add("exports", _json(game.position(engine.export(row))))
        engine.legal_masks(masks)
        engine.step(engine.random_actions(masks), autoreset=True)
        hashes.add("rewards", engine.rewards.tobytes())
        hashes.add("rewards", engine.done.tobytes())
    return hashes.digests()
