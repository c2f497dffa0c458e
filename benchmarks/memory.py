"""Memory over many games: does a long run of one env grow?

::

    python -m benchmarks.memory                          # 100,000 games per setting
    python -m benchmarks.memory --quick                  # 2,000 games per setting
    python -m benchmarks.memory --game exploding_kittens --games 20000 --trace
    python -m benchmarks.memory --workers 2 --output benchmarks/results

Each setting (a game, a table size, rule options) runs in a process of its own: one
env plays ``--games`` games of random legal moves from seed 0, and the process's
resident memory (RSS) is read after the warm-up (the first tenth of the games, when
the caches fill) and at nine more checkpoints; with ``--trace`` the memory Python
itself holds (``tracemalloc``) is read there too, which makes a game several times
slower. The table gives the RSS after the warm-up and at the end, and the growth
after the warm-up per 10,000 games and per game: near zero when everything an env
keeps is bounded.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.publish import portable_command, publish
from cardgym.arguments import game_count, worker_count
from cardgym.registration import find_game

__all__ = ["QUICK_GAMES", "SETTINGS", "Checkpoint", "MemoryRow", "format_markdown", "main",
           "measure", "measure_all", "play"]

#: (game, players, options) measured by default.
SETTINGS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("power_hungry_pets", 4, {}),
    ("exploding_kittens", 4, {}),
    ("exploding_kittens", 4, {"expansions": ("streaking",)}),
    ("karel_kakelaar", 4, {}),
)

#: Games per setting with ``--quick``.
QUICK_GAMES = 2_000

#: Checkpoints per run: after the warm-up (the first tenth) and nine more.
CHECKPOINTS = 10

#: What a probe reads from the env at each checkpoint (a number, such as the MiB some
#: part of it holds).
Probe = Callable[[Any], float]


@dataclass(frozen=True)
class Checkpoint:
    """Memory after ``games`` games: RSS and, when traced, what Python holds (MiB);
    ``probe`` is what the run's probe read, if it had one."""

    games: int
    rss_mib: float
    traced_mib: float | None = None
    probe: float | None = None


@dataclass(frozen=True)
class MemoryRow:
    """One setting's checkpoints."""

    game: str
    players: int
    options: dict[str, Any]
    checkpoints: tuple[Checkpoint, ...]

    @property
    def games(self) -> int:
        """Games played in all."""
        return self.checkpoints[-1].games

    @property
    def growth_per_10k(self) -> float:
        """RSS gained, in MiB per 10,000 games, from the first checkpoint to the last."""
        return self._growth(lambda point: point.rss_mib) / 2**20 * 10_000

    @property
    def bytes_per_game(self) -> float:
        """RSS gained per game, in bytes, from the first checkpoint to the last."""
        return self._growth(lambda point: point.rss_mib)

    @property
    def traced_bytes_per_game(self) -> float | None:
        """What Python holds gained per game, in bytes (``None`` when not traced)."""
        if any(point.traced_mib is None for point in self.checkpoints):
            return None
        return self._growth(lambda point: point.traced_mib or 0.0)

    def _growth(self, mib: Callable[[Checkpoint], float]) -> float:
        """Bytes gained per game between the first checkpoint and the last."""
        first, last = self.checkpoints[0], self.checkpoints[-1]
        return (mib(last) - mib(first)) * 2**20 / max(last.games - first.games, 1)


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


def checkpoint_marks(games: int) -> list[int]:
    """The games after which memory is read: every tenth of ``games`` and the end."""
    step = max(games // CHECKPOINTS, 1)
    return sorted({step * k for k in range(1, CHECKPOINTS + 1) if step * k <= games} | {games})


def measure(game: str, players: int, options: dict[str, Any], games: int, *,
            trace: bool = False, probe: Probe | None = None,
            progress: bool = False) -> MemoryRow:
    """Play ``games`` games in this process and read its memory at each checkpoint.

    Args:
        trace: read what Python holds too (``tracemalloc``, started here if it is not
            running, and stopped at the end if it was started here).
        probe: read from the env at each checkpoint as well.
        progress: print each checkpoint on stderr as it is reached.
    """
    env = find_game(game).make_env(num_players=players, **options)
    rng = np.random.default_rng(0)
    started = trace and not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    checkpoints = []
    played = 0
    try:
        for mark in checkpoint_marks(games):
            while played < mark:
                play(env, rng, played)
                played += 1
            point = Checkpoint(
                played, round(rss_mib(), 2),
                round(tracemalloc.get_traced_memory()[0] / 2**20, 2) if trace else None,
                probe(env) if probe is not None else None)
            checkpoints.append(point)
            if progress:
                print(f"{describe(game, players, options)}: {point}", file=sys.stderr,
                      flush=True)
    finally:
        if started:
            tracemalloc.stop()
        env.close()
    return MemoryRow(game, players, dict(options), tuple(checkpoints))


def describe(game: str, players: int, options: dict[str, Any]) -> str:
    """A setting in a few words, e.g. ``exploding_kittens 4p (expansions=('streaking',))``."""
    words = ", ".join(f"{key}={value}" for key, value in options.items())
    return f"{game} {players}p" + (f" ({words})" if words else "")


def _measure_apart(args: tuple[str, int, dict[str, Any], int, bool]) -> MemoryRow:
    game, players, options, games, trace = args
    return measure(game, players, options, games, trace=trace, progress=True)


def measure_all(settings: Sequence[tuple[str, int, dict[str, Any]]], games: int, *,
                trace: bool = False, workers: int = 1) -> list[MemoryRow]:
    """Every setting in a fresh process of its own, ``workers`` at a time; the rows in
    the order of ``settings``."""
    context = multiprocessing.get_context("spawn")
    jobs = [(game, players, options, games, trace) for game, players, options in settings]
    with context.Pool(min(workers, len(jobs)), maxtasksperchild=1) as pool:
        return list(pool.imap(_measure_apart, jobs, chunksize=1))


def _cell(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:+.{digits}f}"


def format_markdown(rows: Sequence[MemoryRow], command: str) -> str:
    """The table of ``rows`` and their checkpoints; ``command`` is the one that ran."""
    lines = [
        "# Memory over many games",
        "",
        "One env per setting, in a process of its own, plays games of random legal moves "
        "(seed 0). RSS after the warm-up (the first tenth of the games) and at the end; "
        "the growth is counted after the warm-up. Python's own figure (tracemalloc) is "
        f"read only with `--trace`. Command: `{command}`.",
        "",
        "| game | players | options | games | RSS after warm-up (MiB) | RSS at end (MiB) "
        "| RSS growth per 10k games (MiB) | RSS growth per game (bytes) "
        "| traced growth per game (bytes) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        options = ", ".join(f"{k}={v}" for k, v in row.options.items()) or "-"
        lines.append(f"| {row.game} | {row.players} | {options} | {row.games:,} "
                     f"| {row.checkpoints[0].rss_mib:.1f} | {row.checkpoints[-1].rss_mib:.1f} "
                     f"| {row.growth_per_10k:+.2f} | {_cell(row.bytes_per_game, 1)} "
                     f"| {_cell(row.traced_bytes_per_game, 1)} |")
    lines += ["", "Checkpoints (games: RSS MiB, and traced MiB when read):", ""]
    for row in rows:
        points = ", ".join(
            f"{point.games:,}: {point.rss_mib:.1f}"
            + ("" if point.traced_mib is None else f" ({point.traced_mib:.1f})")
            for point in row.checkpoints)
        lines.append(f"- {describe(row.game, row.players, row.options)}: {points}")
    return "\n".join(lines) + "\n"


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, with ``games`` settled (``--quick`` or ``--games``)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=game_count, default=None,
                        help="games per setting (default: 100000, or "
                             f"{QUICK_GAMES} with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_GAMES} games per setting, a minute or two in all")
    parser.add_argument("--game", action="append", default=None,
                        choices=sorted({game for game, _, _ in SETTINGS}),
                        help="measure only this game's settings (may be repeated)")
    parser.add_argument("--trace", action="store_true",
                        help="read what Python holds too (tracemalloc; slower)")
    parser.add_argument("--workers", type=worker_count, default=1,
                        help="settings measured at once, each in its own process "
                             "(default: %(default)s)")
    parser.add_argument("--output", type=Path, default=None,
                        help="write memory.md into this folder")
    args = parser.parse_args(argv)
    if args.games is not None and args.quick:
        parser.error(f"--quick plays {QUICK_GAMES} games per setting; give --games or "
                     "--quick, not both")
    if args.games is None:
        args.games = QUICK_GAMES if args.quick else 100_000
    return args


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = parse_arguments(words)
    settings = [setting for setting in SETTINGS if args.game is None or setting[0] in args.game]
    rows = measure_all(settings, args.games, trace=args.trace, workers=args.workers)
    command = portable_command("python -m benchmarks.memory", words)
    publish(format_markdown(rows, command), args.output, "memory.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
