"""Throughput of the batched engines (``cardgym bench --vector``).

Usage::

    cardgym bench --vector --seconds 2 --rounds 3 --output benchmarks/results
    cardgym bench --vector --env karel_kakelaar --players 2 --batch-sizes 1 4096
    cardgym bench --vector --memory 10000000       # memory over 10^7 decisions
    cardgym bench --vector --train 50000           # cardgym train --vector vs today

For every game with a batched engine (:mod:`cardgym.vector`), at each player count
asked for (default 2) and each batch size (default 1, 64, 1,024 and 4,096), two
loops of random legal play are timed, resets included:

- ``engine``: the engine's legal-action masks, a mask-respecting random action per
  game drawn inside the batch (``engine.random_actions``), ``engine.step``: what a
  search playout or a batched random opponent costs;
- ``engine, 2 threads``: the same with the rows spread over the machine's cores
  (``threads=``), at the batch sizes of 1,024 and more;
- ``vector env``: :class:`cardgym.vector.VectorEnv` (``copy=False``) with the same
  random actions: every step also writes every game's observation ``[N, D]``.

A *decision* is one game's move: a step of a batch of N is N decisions. Beside them,
in the same run and interleaved round by round, the game's AEC ``env()`` and
PettingZoo's ``leduc_holdem_v4`` ``env()`` play with the cheap random chooser of
:mod:`benchmarks.throughput` (a decision there is an ``env.step``); the table gives
every rate as a ratio to leduc's. The table reports the median over rounds and the
spread ``(max - min) / median``. Nothing here asserts on timings.

``--exchange K`` times ``engine.export(i)`` and ``engine.load(i, state)`` over K
states of random games (what ``fill`` costs a search with batched playouts).
``--memory D`` plays D decisions at the largest batch size and reports the resident
memory every 10% of the way. ``--train T`` trains MaskablePPO for T steps on the
in-process path (8 single-agent envs) and with ``--vector`` at 256 and 1,024 games, each
in its own process, with the same network and PPO settings, and reports steps/s and
where the time went (:mod:`benchmarks.train_speed`).
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from benchmarks.throughput import RandomLegalChooser, frozen_heap, load_leduc, play
from cardgym.arguments import positive_int
from cardgym.registration import Game, find_game

__all__ = ["BATCH_SIZES", "add_arguments", "run_namespace"]

BATCH_SIZES = (1, 64, 1024, 4096)
ENGINE = "engine"
VECTOR = "vector env"
AEC = "AEC env()"
LEDUC = "leduc_holdem_v4 env()"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options ``--vector`` adds to ``cardgym bench``."""
    parser.add_argument("--vector", action="store_true",
                        help="measure the batched engines (cardgym.vector) instead of the "
                             "AEC envs: decisions/s per batch size beside leduc_holdem_v4")
    parser.add_argument("--batch-sizes", nargs="+", type=positive_int,
                        default=list(BATCH_SIZES), metavar="N",
                        help="with --vector: the batch sizes to measure")
    parser.add_argument("--memory", type=positive_int, default=None, metavar="D",
                        help="with --vector: also play D decisions at the largest batch size "
                             "and report the resident memory along the way")
    parser.add_argument("--exchange", type=positive_int, default=None, metavar="K",
                        help="with --vector: also time export(i) and load(i, state) over "
                             "K states of random games (what a batched search's fill costs)")
    parser.add_argument("--train", type=positive_int, default=None, metavar="T",
                        help="with --vector: also time T training steps of cardgym train, "
                             "in-process and with --vector, same network and PPO settings")


# ------------------------------------------------------------------ subjects


@dataclass
class Subject:
    """One loop measured: a label, and a function playing for a time budget that
    returns (decisions, seconds)."""

    game: str
    players: int
    kind: str
    batch: int
    run: Callable[[float, int], tuple[int, float]]
    rates: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def spread(self) -> float:
        return (max(self.rates) - min(self.rates)) / self.median


def _engine_loop(game: Game, players: int, batch: int,
                 threads: int = 1) -> Callable[[float, int], tuple[int, float]]:
    engine = game.make_batched(batch, players, threads)
    engine.reset(seed=0)
    masks = np.empty((batch, engine.num_actions), np.int8)
    actions = np.empty(batch, np.int64)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for _ in range(16):
                engine.legal_masks(masks)
                engine.random_actions(masks, actions)
                engine.step(actions)
            steps += 16
            now = time.perf_counter()
            if now >= deadline:
                return steps * batch, now - start

    run(0.05, 0)  # compile and warm up
    return run


def _vector_loop(game: Game, players: int, batch: int) -> Callable[[float, int], tuple[int, float]]:
    from cardgym.vector import VectorEnv

    venv = VectorEnv(game.make_batched(batch, players), copy=False)
    venv.reset(seed=0)
    actions = np.empty(batch, np.int64)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        masks = venv.action_masks()
        while True:
            for _ in range(16):
                venv.engine.random_actions(masks, actions)
                venv.step(actions)
            steps += 16
            now = time.perf_counter()
            if now >= deadline:
                return steps * batch, now - start

    run(0.05, 0)
    return run


def _aec_loop(make: Callable[[], Any]) -> Callable[[float, int], tuple[int, float]]:
    env = make()

    def run(seconds: float, seed: int) -> tuple[int, float]:
        result = play(env, RandomLegalChooser(np.random.default_rng(seed)), seconds, seed=seed)
        return result.steps, result.seconds

    run(0.05, 0)
    return run


def build_subjects(games: Sequence[str], players: Sequence[int],
                   batches: Sequence[int]) -> list[Subject]:
    from cardgym.vector import batched_games
    from cardgym.vector._numba import MAX_THREADS

    chosen = [find_game(name) for name in games] or list(batched_games())
    missing = [game.title for game in chosen if game.batched is None]
    if missing:
        raise SystemExit(f"error: no batched engine for {', '.join(missing)}")
    subjects = []
    for game in chosen:
        for count in players or (2,):
            if count not in game.player_counts:
                continue
            subjects.append(Subject(game.name, count, AEC, 1,
                                    _aec_loop(partial(game.make_env, num_players=count))))
            for batch in batches:
                subjects.append(Subject(game.name, count, ENGINE, batch,
                                        _engine_loop(game, count, batch)))
                if batch >= 1024 and MAX_THREADS > 1:
                    subjects.append(Subject(game.name, count, f"{ENGINE}, {MAX_THREADS} threads",
                                            batch, _engine_loop(game, count, batch, MAX_THREADS)))
                subjects.append(Subject(game.name, count, VECTOR, batch,
                                        _vector_loop(game, count, batch)))
    leduc = load_leduc()
    if leduc is not None:
        subjects.append(Subject("leduc_holdem_v4", 2, LEDUC, 1, _aec_loop(leduc)))
    return subjects


def measure(subjects: list[Subject], seconds: float, rounds: int, out: TextIO) -> None:
    with frozen_heap():
        for round_index in range(rounds):
            for offset in range(len(subjects)):
                subject = subjects[(round_index + offset) % len(subjects)]
                gc.collect()
                decisions, spent = subject.run(seconds, 1 + round_index)
                subject.rates.append(decisions / spent)
            print(f"bench --vector: round {round_index + 1}/{rounds} done", file=sys.stderr)


def format_table(subjects: Sequence[Subject], seconds: float, rounds: int) -> str:
    leduc = next((s for s in subjects if s.kind == LEDUC), None)
    lines = [
        "# Batched engines: random legal play",
        "",
        f"{platform.python_implementation()} {platform.python_version()}, numpy "
        f"{np.__version__}, {platform.machine()}; {rounds} rounds of {seconds:g} s, "
        "interleaved; median decisions per second (a decision: one game's move), spread "
        "(max - min) / median. `engine`: masks, random legal actions drawn in the batch, "
        "step; `vector env`: `VectorEnv.step` with observations. Generated by "
        "`cardgym bench --vector`.",
        "",
        "| game | players | loop | batch | decisions/s | x leduc | spread |",
        "|---|---|---|---|---|---|---|",
    ]
    for subject in subjects:
        ratio = f"{subject.median / leduc.median:.1f}" if leduc is not None else "-"
        lines.append(f"| {subject.game} | {subject.players} | {subject.kind} | {subject.batch} | "
                     f"{subject.median:,.0f} | {ratio} | {subject.spread:.0%} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ memory


def _resident_mib() -> float:
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    import resource

    return pages * resource.getpagesize() / 2**20


def memory_profile(game: Game, players: int, batch: int, decisions: int) -> list[tuple[int, float]]:
    """Resident memory (MiB) every tenth of ``decisions`` of random play at ``batch``."""
    engine = game.make_batched(batch, players)
    engine.reset(seed=0)
    masks = np.empty((batch, engine.num_actions), np.int8)
    actions = np.empty(batch, np.int64)
    obs = np.empty((batch, engine.obs_dim), np.float32)
    points = [(0, _resident_mib())]
    done = 0
    mark = decisions // 10
    while done < decisions:
        engine.legal_masks(masks)
        engine.random_actions(masks, actions)
        engine.step(actions)
        engine.observe(None, obs, masks)
        done += batch
        if done >= mark * len(points):
            points.append((done, _resident_mib()))
    return points


def exchange_times(game: Game, players: int, states: int, rounds: int) -> tuple[float, float]:
    """Median over ``rounds`` of the µs of one ``export(i)`` and one ``load(i, state)``,
    over ``states`` positions of random games (64 rows stepped, exported as they go)."""
    engine = game.make_batched(64, players)
    engine.reset(seed=0)
    masks = np.empty((64, engine.num_actions), np.int8)
    exported: list[tuple[int, Any]] = []
    while len(exported) < states:
        engine.step(engine.random_actions(engine.legal_masks(masks)))
        exported += [(i, engine.export(i)) for i in range(min(64, states - len(exported)))]
    exports, loads = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for i, _state in exported:
            engine.export(i)
        exports.append((time.perf_counter() - start) / len(exported) * 1e6)
        start = time.perf_counter()
        for i, state in exported:
            engine.load(i, state)
        loads.append((time.perf_counter() - start) / len(exported) * 1e6)
    return float(np.median(exports)), float(np.median(loads))


# ------------------------------------------------------------------ entry


def run_namespace(namespace: argparse.Namespace, out: TextIO | None = None) -> int:
    """``cardgym bench --vector``: print the table, and write it with ``--output``."""
    out = sys.stdout if out is None else out
    subjects = build_subjects(namespace.games, namespace.players, namespace.batch_sizes)
    measure(subjects, namespace.seconds, namespace.rounds, sys.stderr)
    text = format_table(subjects, namespace.seconds, namespace.rounds)
    games = sorted({s.game for s in subjects if s.kind != LEDUC})
    players = (namespace.players or [2])[0]
    if namespace.memory:
        batch = max(namespace.batch_sizes)
        text += (f"\n## Memory over {namespace.memory:,} decisions (batch {batch}, "
                 f"{players} players)\n\n| game | decisions | resident MiB |\n|---|---|---|\n")
        for name in games:
            for done, mib in memory_profile(find_game(name), players, batch, namespace.memory):
                text += f"| {name} | {done:,} | {mib:.1f} |\n"
    if namespace.exchange:
        text += (f"\n## Moving a game between a row and a state ({namespace.exchange:,} "
                 f"states, {players} players, median of {namespace.rounds})\n\n"
                 "| game | export µs | load µs |\n|---|---|---|\n")
        for name in games:
            export_us, load_us = exchange_times(find_game(name), players, namespace.exchange,
                                                namespace.rounds)
            text += f"| {name} | {export_us:.1f} | {load_us:.1f} |\n"
    if namespace.train:
        from benchmarks import train_speed

        text += "\n" + train_speed.run(games, players, namespace.train, train_speed.VECTORS,
                                       [256], 4, 1, 0, sys.stderr)
    print(text, file=out)
    if namespace.output is not None:
        target = Path(namespace.output)
        target.mkdir(parents=True, exist_ok=True)
        path = target / "vector_throughput.md"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}", file=out)
    return 0
