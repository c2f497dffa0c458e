"""Memory over many games: does a long run of one env grow?

::

    python -m benchmarks.memory                          # 100,000 games per setting
    python -m benchmarks.memory --games 20000 --output benchmarks/results

Each setting (a game, a table size, rule options) runs in a process of its own: one
env plays ``--games`` games of random legal moves from seed 0, and the process's
resident memory (RSS) is read after the warm-up (the first tenth of the games, when
the caches fill) and at nine more checkpoints. The table gives the RSS after the
warm-up, at the end, and the growth per 10,000 games after the warm-up: near zero
when everything an env keeps is bounded.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.publish import publish
from cardgym.arguments import game_count
from cardgym.registration import find_game

__all__ = ["SETTINGS", "MemoryRow", "format_markdown", "main", "measure", "play"]

#: (game, players, options) measured by default.
SETTINGS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("power_hungry_pets", 4, {}),
    ("exploding_kittens", 4, {}),
    ("exploding_kittens", 4, {"expansions": ("streaking",)}),
    ("karel_kakelaar", 4, {}),
)


@dataclass(frozen=True)
class MemoryRow:
    """One setting's figures: RSS in MiB at each checkpoint (games played, MiB)."""

    game: str
    players: int
    options: dict[str, Any]
    checkpoints: tuple[tuple[int, float], ...]

    @property
    def growth_per_10k(self) -> float:
        """MiB gained per 10,000 games between the first checkpoint and the last."""
        (start, first), (end, last) = self.checkpoints[0], self.checkpoints[-1]
        return (last - first) / max(end - start, 1) * 10_000


def rss_mib() -> float:
    """This process's resident memory in MiB (Linux's /proc; elsewhere the peak)."""
    try:
        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (2**20 if sys.platform == "darwin" else 2**10)


def play(env: Any, rng: np.random.Generator, seed: int) -> int:
    """One game of random legal moves; returns the moves made."""
    env.reset(seed=seed)
    moves = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        moves += 1
    return moves


def measure(game: str, players: int, options: dict[str, Any], games: int) -> MemoryRow:
    """Play ``games`` games in this process; RSS after the warm-up and at nine more
    checkpoints."""
    env = find_game(game).make_env(num_players=players, **options)
    rng = np.random.default_rng(0)
    marks = sorted({max(games // 10, 1) * k for k in range(1, 11)} | {games})
    marks = [mark for mark in marks if mark <= games]
    checkpoints = []
    played = 0
    for mark in marks:
        while played < mark:
            play(env, rng, played)
            played += 1
        checkpoints.append((played, round(rss_mib(), 1)))
    env.close()
    return MemoryRow(game, players, dict(options), tuple(checkpoints))


def _measure_apart(args: tuple[str, int, dict[str, Any], int]) -> MemoryRow:
    return measure(*args)


def measure_all(settings: Sequence[tuple[str, int, dict[str, Any]]],
                games: int) -> list[MemoryRow]:
    """Every setting in a fresh process of its own (one after another)."""
    context = multiprocessing.get_context("spawn")
    rows = []
    for game, players, options in settings:
        with context.Pool(1) as pool:
            rows.append(pool.apply(_measure_apart, ((game, players, options, games),)))
    return rows


def format_markdown(rows: Sequence[MemoryRow], games: int) -> str:
    lines = [
        "# Memory over many games",
        "",
        f"One env per setting, in a process of its own, plays {games:,} games of random legal "
        "moves (seed 0). RSS after the warm-up (the first tenth of the games) and at the "
        "end; the growth is per 10,000 games after the warm-up. Command: "
        f"`python -m benchmarks.memory --games {games}`.",
        "",
        "| game | players | options | games | RSS after warm-up (MiB) | RSS at end (MiB) "
        "| growth per 10k games (MiB) |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        options = ", ".join(f"{k}={v}" for k, v in row.options.items()) or "-"
        lines.append(f"| {row.game} | {row.players} | {options} | {row.checkpoints[-1][0]:,} "
                     f"| {row.checkpoints[0][1]:.1f} | {row.checkpoints[-1][1]:.1f} "
                     f"| {row.growth_per_10k:+.2f} |")
    lines += ["", "Checkpoints (games: MiB):", ""]
    for row in rows:
        options = ", ".join(f"{k}={v}" for k, v in row.options.items())
        points = ", ".join(f"{played:,}: {mib:.1f}" for played, mib in row.checkpoints)
        lines.append(f"- {row.game} {row.players}p{f' ({options})' if options else ''}: "
                     f"{points}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=game_count, default=100_000,
                        help="games per setting (default: %(default)s)")
    parser.add_argument("--output", type=Path, default=None,
                        help="write memory.md into this folder")
    args = parser.parse_args(argv)
    rows = measure_all(SETTINGS, args.games)
    publish(format_markdown(rows, args.games), args.output, "memory.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
