"""Environment steps per second under Ray RLlib, by number of env runners (needs the
``rllib`` extra).

Usage::

    python benchmarks/rllib_throughput.py --env-runners 1 2 --steps 4000 --rounds 3
    python benchmarks/rllib_throughput.py --games power_hungry_pets --players 4 \
        --envs-per-env-runner 8

For each game and each env-runner count, the script builds the PPO algorithm of
``cardgym train --backend rllib`` (:func:`agents.rllib.train.build_config`, the
same adapter, masking module and network) and has every remote EnvRunner sample
``steps / R`` environment steps at once, ``rounds`` times after one warm-up round.
A step is one action of one seat: the module's forward pass, RLlib's connectors
and :class:`~agents.rllib.env.CardGameMultiAgentEnv` (mask check included). It
measures sampling only: nothing is trained (``cardgym train`` prints the steps per
second of whole iterations, updates included). The reference row ``adapter`` plays
the adapter alone in this process with random legal actions, no RLlib.

The table (median over rounds, best round) goes to stdout and, with ``--output``,
to ``rllib_throughput.md`` and ``.csv`` there. Nothing here asserts on timings.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.rllib.train import RllibTrainArgs, build_config, connect_ray
from cardgym.arguments import non_negative_int, player_count_problem, positive_int
from cardgym.registration import GAMES, find_game, short_name


@dataclass
class Args:
    """Arguments of the benchmark (the command line's options, same names)."""

    games: list[str] = field(default_factory=lambda: [short_name(g.env_id) for g in GAMES])
    players: int = 2
    env_runners: list[int] = field(default_factory=lambda: [1, 2])
    envs_per_env_runner: int = 1
    steps: int = 4000
    rounds: int = 3
    net_arch: tuple[int, ...] = (256, 256)
    num_cpus: int | None = None
    seed: int = 0
    output: Path | None = None


@dataclass
class Row:
    game: str
    players: int
    runner: str
    steps: int
    rates: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def best(self) -> float:
        return max(self.rates)


def adapter_rate(game: str, players: int, steps: int, seed: int) -> float:
    """Steps per second of the adapter alone, random legal actions, in this process."""
    from agents.rllib.env import CardGameMultiAgentEnv

    env = CardGameMultiAgentEnv({"game": game, "num_players": players})
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        if not observations:
            observations, _ = env.reset()
        (agent, observation), = observations.items()
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observations, *_ = env.step({agent: action})
    return steps / (time.perf_counter() - start)


def _sample_steps(runner: Any, steps: int) -> int:
    return sum(len(episode) for episode in runner.sample(num_timesteps=steps))


def rllib_rates(game: str, args: Args, runners: int) -> list[float]:
    """Steps per second of ``runners`` remote EnvRunners sampling together, per round."""
    settings = RllibTrainArgs(game=game, players=args.players, seed=args.seed,
                              env_runners=runners, net_arch=args.net_arch,
                              envs_per_env_runner=args.envs_per_env_runner,
                              train_batch_size=args.steps, minibatch_size=1)
    algorithm = build_config(settings).build_algo()
    share = max(args.steps // runners, 1)
    group = algorithm.env_runner_group
    rates = []
    try:
        for round_number in range(args.rounds + 1):
            start = time.perf_counter()
            counts = group.foreach_env_runner(lambda runner: _sample_steps(runner, share),
                                              local_env_runner=False)
            rate = sum(counts) / (time.perf_counter() - start)
            if round_number:  # round 0 warms up
                rates.append(rate)
    finally:
        algorithm.stop()
    return rates


def run(args: Args) -> list[Row]:
    import ray

    rows = []
    started = connect_ray(args.num_cpus)
    try:
        for name in args.games:
            game = find_game(name).env_id
            label = short_name(game)
            reference = [adapter_rate(game, args.players, args.steps, args.seed + r)
                         for r in range(args.rounds)]
            rows.append(Row(label, args.players, "adapter", args.steps, reference))
            for runners in args.env_runners:
                print(f"rllib_throughput: {label}, {args.players} players, {runners} env "
                      f"runner(s) ...", file=sys.stderr)
                rows.append(Row(label, args.players, f"{runners} env runner(s)", args.steps,
                                rllib_rates(game, args, runners)))
    finally:
        if started:
            ray.shutdown()
    return rows


def table(rows: list[Row], args: Args) -> str:
    lines = [f"Environment steps per second under Ray RLlib (sampling only, PPO module "
             f"{list(args.net_arch)}, {args.envs_per_env_runner} env(s) per runner, "
             f"{args.steps} steps per round, median of {args.rounds} "
             f"rounds after a warm-up; {os.cpu_count()} CPUs). 'adapter' is the "
             f"MultiAgentEnv alone with random legal actions, one process.", "",
             "| game | players | sampler | steps/s (median) | steps/s (best) |",
             "|---|---|---|---|---|"]
    lines += [f"| {row.game} | {row.players} | {row.runner} | {row.median:,.0f} | "
              f"{row.best:,.0f} |" for row in rows]
    return "\n".join(lines)


def write(rows: list[Row], text: str, output: Path) -> None:
    output.mkdir(parents=True, exist_ok=True)
    (output / "rllib_throughput.md").write_text(text + "\n")
    with (output / "rllib_throughput.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["game", "players", "sampler", "steps", "median_steps_per_second",
                         "best_steps_per_second"])
        for row in rows:
            writer.writerow([row.game, row.players, row.runner, row.steps,
                             round(row.median, 1), round(row.best, 1)])


def parse(argv: list[str] | None = None) -> Args:
    defaults = Args()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--games", nargs="+", default=defaults.games,
                        help="games by id or short name")
    parser.add_argument("--players", type=positive_int, default=defaults.players, help="seats per game")
    parser.add_argument("--env-runners", type=int, nargs="+", default=defaults.env_runners,
                        help="env-runner counts to measure (each needs a CPU)")
    parser.add_argument("--envs-per-env-runner", type=positive_int,
                        default=defaults.envs_per_env_runner,
                        help="games each runner steps together (one batched forward pass)")
    parser.add_argument("--steps", type=positive_int, default=defaults.steps,
                        help="environment steps per round, split over the runners")
    parser.add_argument("--rounds", type=positive_int, default=defaults.rounds,
                        help="measured rounds (after one warm-up round)")
    parser.add_argument("--net-arch", type=positive_int, nargs="+", default=list(defaults.net_arch),
                        help="hidden layers of the PPO module")
    parser.add_argument("--num-cpus", type=positive_int, default=None,
                        help="CPUs of the local Ray instance (default all; not with RAY_ADDRESS)")
    parser.add_argument("--seed", type=non_negative_int, default=defaults.seed)
    parser.add_argument("--output", type=Path, default=None,
                        help="also write rllib_throughput.md and .csv to this folder")
    namespace = parser.parse_args(argv)
    if any(count <= 0 for count in namespace.env_runners):
        parser.error(f"--env-runners: counts must be positive, got {namespace.env_runners}")
    for name in namespace.games:
        try:
            game = find_game(name)
        except ValueError as error:
            parser.error(str(error))
        problem = player_count_problem(game, namespace.players)
        if problem is not None:
            parser.error(problem)
    return Args(games=namespace.games, players=namespace.players,
                env_runners=namespace.env_runners,
                envs_per_env_runner=namespace.envs_per_env_runner, steps=namespace.steps,
                rounds=namespace.rounds, net_arch=tuple(namespace.net_arch),
                num_cpus=namespace.num_cpus, seed=namespace.seed, output=namespace.output)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    rows = run(args)
    text = table(rows, args)
    print(text)
    if args.output is not None:
        write(rows, text, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
