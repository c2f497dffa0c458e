"""Training throughput of ``cardgym train``: the in-process path against the batched
engine (``--vector N``), each in a process of its own.

Usage::

    cardgym bench --vector --train 40000                       # every game, 2 players
    python -m benchmarks.train_speed --env power_hungry_pets --timesteps 40000 \\
        --vectors 0 256 1024 --batch-size 256 1024

Every path trains MaskablePPO with the network and PPO settings of ``cardgym train``
(256x256, 4 epochs, a rollout of 2,048 steps: ``n_steps`` = 2,048 / games, a batch of
256 unless ``--batch-size`` says otherwise), opponents random and heuristic, PyTorch
on ``--torch-threads`` threads (default 1) and the engine's kernels on one. Each path
runs in a fresh process (spawned), so that no path inherits another's thread pools
or warm caches; the clock starts after the envs' first reset (which loads the
engine's compiled kernels), and PyTorch's thread count is set then and read again
when training ends (the table states both).

Where the time goes: *rollout* is collecting the 2,048 steps (the envs, the
opponents' policies, and the learner's own forward passes and buffer); *update* is
PPO's epochs over them. On the batched path the rollout splits further into the
*engine* (steps and observations), the *opponents* (their batched policies) and the
*learner* (the rest: the learner's network over the batch, SB3's buffer). The
first path's figures are the reference of the ratios: ``x`` for the whole run,
``rollout x`` for collecting alone. Nothing here asserts on timings.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from cardgym.arguments import positive_int

__all__ = ["format_table", "main", "measure", "train_path"]

#: Paths measured by default: the in-process one (8 AEC envs), then batched games.
VECTORS = (0, 256, 1024)
ROLLOUT = 2048


def train_path(game: str, players: int, timesteps: int, vector: int, seed: int = 0,
               batch_size: int = 256, n_epochs: int = 4, torch_threads: int = 1
               ) -> dict[str, float]:
    """Train in this process and return its figures: ``vector`` games on the batched
    engine, or 8 AEC envs in this process (``vector=0``)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from agents.train import TrainArgs, _training_envs

    torch.set_num_threads(torch_threads)
    torch.manual_seed(seed)
    n_envs = vector or 8
    args = TrainArgs(game=game, players=players, opponents=("random", "heuristic"),
                     seed=seed, n_envs=n_envs, vector=vector, n_steps=ROLLOUT // n_envs,
                     batch_size=batch_size, n_epochs=n_epochs)
    env = _training_envs(args)
    env.seed(seed)
    model = MaskablePPO("MlpPolicy", env, learning_rate=args.learning_rate,
                        n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=args.n_epochs, gamma=args.gamma, ent_coef=args.ent_coef,
                        seed=seed, device="cpu", policy_kwargs={"net_arch": list(args.net_arch)})
    spent = {"rollout": 0.0, "update": 0.0}
    marks: dict[str, float] = {}
    threads = {"start": 0.0}

    class Timing(BaseCallback):  # type: ignore[misc]
        def _on_training_start(self) -> None:
            # After the envs' first reset (which loads or compiles the kernels): the
            # clock starts here, with the thread count the whole run keeps.
            torch.set_num_threads(torch_threads)
            threads["start"] = torch.get_num_threads()
            for name in getattr(env, "timers", {}):
                env.timers[name] = 0.0
            marks["start"] = time.perf_counter()

        def _on_rollout_start(self) -> None:
            now = time.perf_counter()
            if "end" in marks:
                spent["update"] += now - marks["end"]
            marks["begin"] = now

        def _on_rollout_end(self) -> None:
            now = time.perf_counter()
            spent["rollout"] += now - marks["begin"]
            marks["end"] = now

        def _on_step(self) -> bool:
            return True

    model.learn(total_timesteps=timesteps, callback=Timing())
    finished = time.perf_counter()
    spent["update"] += finished - marks.get("end", finished)
    seconds = finished - marks["start"]
    result = {"steps": float(model.num_timesteps), "seconds": seconds,
              "steps_per_second": model.num_timesteps / seconds, **spent,
              "torch_threads_start": threads["start"],
              "torch_threads_end": float(torch.get_num_threads())}
    timers = getattr(env, "timers", None)
    if timers:
        result.update({f"env_{k}": v for k, v in timers.items()})
    env.close()
    return result


def measure(game: str, players: int, timesteps: int, vector: int, seed: int = 0,
            batch_size: int = 256, n_epochs: int = 4, torch_threads: int = 1
            ) -> dict[str, float]:
    """:func:`train_path` in a fresh (spawned) process."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return pool.apply(train_path, (game, players, timesteps, vector, seed, batch_size,
                                       n_epochs, torch_threads))  # type: ignore[no-any-return]


def label_of(vector: int, batch_size: int, n_epochs: int) -> str:
    path = "in-process, 8 envs" if not vector else f"--vector {vector}"
    return f"{path}, batch {batch_size}" + ("" if n_epochs == 4 else f", {n_epochs} epochs")


def format_table(rows: Sequence[tuple[str, str, dict[str, float]]], timesteps: int,
                 players: int) -> str:
    """The markdown table of ``(game, path label, figures)`` rows; each game's first
    row is the reference of its ratios."""
    text = (f"## Training throughput: {timesteps:,} MaskablePPO steps, {players} players, "
            "opponents random and heuristic, each path in its own process\n\n"
            "| game | path | steps/s | x | rollout s | rollout x | update s | engine s | "
            "opponents s | learner s | PyTorch threads |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n")
    base: dict[str, dict[str, float]] = {}
    for game, label, result in rows:
        first = base.setdefault(game, result)
        engine = result.get("env_engine")
        opponents = result.get("env_opponents")
        learner = (result["rollout"] - engine - opponents
                   if engine is not None and opponents is not None else None)

        def cell(value: float | None) -> str:
            return "" if value is None else f"{value:.1f}"

        threads = (f"{result['torch_threads_start']:.0f} / {result['torch_threads_end']:.0f}")
        text += (f"| {game} | {label} | {result['steps_per_second']:,.0f} | "
                 f"{result['steps_per_second'] / first['steps_per_second']:.1f} | "
                 f"{result['rollout']:.1f} | {first['rollout'] / result['rollout']:.1f} | "
                 f"{result['update']:.1f} | {cell(engine)} | {cell(opponents)} | "
                 f"{cell(learner)} | {threads} |\n")
    return text


def run(games: Sequence[str], players: int, timesteps: int, vectors: Sequence[int],
        batch_sizes: Sequence[int], n_epochs: int, torch_threads: int, seed: int,
        progress: TextIO | None = None) -> str:
    """Measure every game, path and batch size; the table."""
    rows = []
    for game in games:
        for vector in vectors:
            for batch in batch_sizes:
                if progress is not None:
                    print(f"training {game}, {label_of(vector, batch, n_epochs)} ...",
                          file=progress, flush=True)
                result = measure(game, players, timesteps, vector, seed, batch, n_epochs,
                                 torch_threads)
                rows.append((game, label_of(vector, batch, n_epochs), result))
    return format_table(rows, timesteps, players)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    from cardgym.registration import library_games

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env", nargs="+", default=None,
                        help="games (default: the library's games with a batched engine)")
    parser.add_argument("--players", type=positive_int, default=2)
    parser.add_argument("--timesteps", type=positive_int, default=40_000)
    parser.add_argument("--vectors", nargs="+", type=int, default=list(VECTORS),
                        help="0 for the in-process path, else games on the batched engine")
    parser.add_argument("--batch-size", nargs="+", type=positive_int, default=[256])
    parser.add_argument("--epochs", type=positive_int, default=4)
    parser.add_argument("--torch-threads", type=positive_int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    games = args.env or [game.name for game in library_games() if game.batched is not None]
    text = run(games, args.players, args.timesteps, args.vectors, args.batch_size, args.epochs,
               args.torch_threads, args.seed, sys.stderr)
    print(text, file=out or sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

