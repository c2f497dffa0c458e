"""``cardgym demo``, the project's main job (``make demo``): a short self-play training
run of MaskablePPO on two-player Power Hungry Pets, then a seeded evaluation of the
model against the random and the heuristic agent, printed as one table."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from agents.evaluate import evaluate
from agents.runs import check_run_folder
from agents.train import MODEL_FILES, RUN_FILES, TrainArgs, train
from cardgym.arguments import (
    add_progress_argument,
    game_count,
    non_negative_int,
    positive_int,
    worker_count,
)
from cardgym.progress import Progress
from cardgym_cli.train import checked_budget, require_train_extra

__all__ = ["DEMO_GAME", "configure", "run"]


DEMO_GAME = "power_hungry_pets"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timesteps", type=positive_int, default=100_000, metavar="T",
                        help="training steps")
    parser.add_argument("--games", type=game_count, default=1000, metavar="G",
                        help="evaluation games per pairing")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the whole run")
    parser.add_argument("--output", type=Path, default=Path("runs"), metavar="DIR",
                        help="the model goes to DIR/demo/")
    parser.add_argument("--workers", type=worker_count, default=2, metavar="W",
                        help="evaluation processes (the result does not depend on it)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the model of an earlier demo in DIR/demo/ (make demo "
                             "passes it; without it, an earlier demo is kept and nothing runs)")
    add_progress_argument(parser)


def run(args: argparse.Namespace, out: TextIO) -> int:
    require_train_extra()
    import torch

    settings = TrainArgs(game=DEMO_GAME, players=2, timesteps=args.timesteps,
                         seed=args.seed, output=args.output, run_name="demo",
                         checkpoint_every=max(args.timesteps // 5, 1),
                         eval_every=args.timesteps, eval_games=100,
                         progress=not args.no_progress, overwrite=args.overwrite)
    checked_budget(settings)
    check_run_folder(settings.run_dir, RUN_FILES, settings.overwrite)
    if any((settings.run_dir / name).exists() for name in MODEL_FILES):
        print(f"demo: replacing the earlier demo model in {settings.run_dir} (--overwrite)",
              file=sys.stderr)
    # The figures depend on the seed and on torch's float kernels: one thread for
    # training and for every evaluation process (ModelPolicy.load pins it there too).
    torch.set_num_threads(1)
    started = time.perf_counter()
    print(f"demo: training MaskablePPO on {DEMO_GAME} (2 players) for {args.timesteps} steps "
          f"against random, heuristic and its own checkpoints ...", file=sys.stderr)
    path = train(settings)
    trained = time.perf_counter() - started
    model = f"model:{path}"
    rows: list[tuple[str, str, Any]] = []
    for agent, opponent in ((model, "random"), (model, "heuristic"), ("heuristic", "random")):
        print(f"demo: evaluating {agent} against {opponent} ({args.games} games) ...",
              file=sys.stderr)
        with Progress(args.games, "demo eval", "match", enabled=not args.no_progress) as bar:
            result = evaluate(settings.table(), 2, [agent, opponent], games=args.games,
                              seed=args.seed, workers=args.workers, progress=bar.update)
        rows.append((agent, opponent, result.agents[0]))
    lines = [f"MaskablePPO on two-player Power Hungry Pets: {args.timesteps} training steps "
             f"in {trained:.0f} s, seed {args.seed}; model {path}.",
             f"Evaluation: {args.games} matches per pairing, seats alternating; a win is a "
             "match won.",
             f"The figures depend on the seed and on the float arithmetic of torch "
             f"{torch.__version__.split('+')[0]} on this CPU (1 thread, pinned); not on "
             "--workers.", "",
             "| agent | opponent | matches | wins | win rate | 95% CI |", "|---|---|---|---|---|---|"]
    for agent, opponent, result in rows:
        low, high = result.interval
        label = "MaskablePPO (demo)" if agent == model else agent
        lines.append(f"| {label} | {opponent} | {result.seat_games} | {result.wins} | "
                     f"{result.win_rate:.3f} | {low:.3f}-{high:.3f} |")
    print("\n".join(lines), file=out)
    return 0
