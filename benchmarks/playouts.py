"""Random playouts per second through the search adapters (:mod:`agents.engines`).

Usage::

    python benchmarks/playouts.py                      # every game and table size
    python benchmarks/playouts.py --games exploding_kittens --players 2 4 --seconds 2

For each game and player count, for ``--seconds`` each:

- *playouts/s*: whole games from a new deal (``new_game`` included) to the end,
  uniformly random legal actions, on the engine's state directly (no env, no
  observations): the rollout an ISMCTS iteration does;
- *steps/playout* and *steps/s*: actions per game and per second;
- *clone µs*, *resample µs*: one ``state.clone()`` and one ``resample_hidden`` of a
  position 10 random actions into a game (what an ISMCTS iteration does once).

Prints a Markdown table. Timings depend on the machine and its load; nothing
here asserts on them.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from agents.engines import Engine, engine_for
from cardgym.arguments import game_name, non_negative_int, positive_float, positive_int
from cardgym.registration import GAMES, find_game, short_name


@dataclass
class Row:
    game: str
    players: int
    playouts_per_second: float
    steps_per_playout: float
    clone_us: float
    resample_us: float

    @property
    def steps_per_second(self) -> float:
        return self.playouts_per_second * self.steps_per_playout


def _position(engine: Engine, rng: np.random.Generator, steps: int = 10) -> object:
    while True:
        state = engine.new_game(rng)
        for _ in range(steps):
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))], rng)
        if not engine.is_over(state):
            return state


def _per_call(call: Callable[[], object], seconds: float) -> float:
    """Microseconds per call of a no-argument function, over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(50):
            call()
        count += 50
        now = time.perf_counter()
        if now >= end:
            return (now - start) / count * 1e6


def measure(game: str, players: int, seconds: float, seed: int = 0) -> Row:
    """One row of the table."""
    engine = engine_for(game, players)
    rng = np.random.default_rng(seed)
    for _ in range(5):  # warm the caches
        engine.random_playout(engine.new_game(rng), rng)
    games = steps = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        steps += engine.random_playout(engine.new_game(rng), rng)
        games += 1
        now = time.perf_counter()
        if now >= end:
            break
    rate = games / (now - start)
    state = _position(engine, rng)
    seat = engine.to_act(state)
    clone_us = _per_call(lambda: engine.clone(state), seconds / 4)
    resample_us = _per_call(lambda: engine.resample(state, seat, rng), seconds / 4)
    return Row(short_name(engine.game.env_id), players, rate, steps / games, clone_us,
               resample_us)


def table(rows: Sequence[Row]) -> str:
    lines = ["| game | players | playouts/s | steps/playout | steps/s | clone µs | resample µs |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row.game} | {row.players} | {row.playouts_per_second:,.0f} | "
                     f"{row.steps_per_playout:.1f} | {row.steps_per_second:,.0f} | "
                     f"{row.clone_us:.1f} | {row.resample_us:.1f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", type=game_name,
                        default=[short_name(g.env_id) for g in GAMES],
                        help="games (ids or short names); default: all")
    parser.add_argument("--players", nargs="+", type=positive_int, default=None,
                        help="player counts; default: every count the game takes")
    parser.add_argument("--seconds", type=positive_float, default=0.3,
                        help="seconds of playouts per game and player count (default 0.3)")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    args = parser.parse_args(argv)
    rows = []
    for name in args.games:
        entry = find_game(name)
        counts = args.players or list(entry.player_counts)
        for players in counts:
            if players not in entry.player_counts:
                continue
            rows.append(measure(entry.env_id, players, args.seconds, args.seed))
    print(f"Random playouts through agents.engines, {args.seconds:g} s each; Python "
          f"{platform.python_version()}, {platform.machine()}.")
    print()
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
