"""``cardgym train GAME --backend rllib``: the command-line side of :mod:`agents.rllib.train`.

:func:`add_arguments` adds ``--backend`` and the RLlib options to the ``train``
parser; :func:`run_rllib_train` runs a training from them. Options that only
one backend uses are refused with the other, so nothing is silently ignored.
Nothing here imports Ray until a run starts; without the ``rllib`` extra,
``--backend rllib`` ends with exit status 2 and says how to install it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from agents.arguments import check_specs, checked_table
from agents.model_card import read_card_file
from agents.rllib import CARD, require_rllib
from agents.rllib.train import RUN_FILES, RllibTrainArgs, train
from agents.runs import check_run_folder
from cardgym.arguments import UsageError, non_negative_int, positive_int
from cardgym.registration import short_name

__all__ = ["BACKENDS", "add_arguments", "reject_rllib_arguments", "rllib_train_args",
           "run_rllib_train"]

BACKENDS = ("sb3", "rllib")
DEFAULTS = RllibTrainArgs(game="power_hungry_pets")

#: Options of the sb3 backend that RLlib runs do not use.
SB3_ONLY = ("timesteps", "opponents", "n_envs", "subprocess", "checkpoint_every", "eval_every",
            "n_steps", "batch_size", "no_tensorboard")
#: Options of the RLlib backend (``None`` unless given).
RLLIB_ONLY = ("iterations", "env_runners", "envs_per_env_runner", "train_batch_size",
              "minibatch_size", "self_play", "snapshots", "snapshot_every", "save_every",
              "num_cpus")


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--backend`` and the RLlib options to the ``train`` parser."""
    parser.add_argument("--backend", choices=BACKENDS, default="sb3",
                        help="sb3: MaskablePPO in this process; rllib: PPO on Ray RLlib, on "
                             "this machine or on the cluster RAY_ADDRESS names (needs the "
                             "rllib extra)")
    group = parser.add_argument_group(
        "RLlib backend (--backend rllib)",
        "PPO with RLlib's action-masking module; one module plays every seat unless "
        "--self-play. --players, --seed, --output, --run-name, --learning-rate, --n-epochs, "
        "--gamma, --ent-coef, --net-arch, --eval-games, --eval-opponents, --option and "
        "--no-progress apply too. Writes OUTPUT/GAME-Np-seedS-rllib/ (checkpoint/, "
        "model.json, progress.csv); play it with the agent spec rllib+pickle:PATH "
        "(checkpoints are pickled: load only the ones you trust).")
    group.add_argument("--iterations", type=positive_int, default=None, metavar="I",
                       help=f"training iterations (default {DEFAULTS.iterations})")
    group.add_argument("--env-runners", type=non_negative_int, default=None, metavar="R",
                       help="EnvRunner actors sampling in parallel, one CPU each; 0 samples "
                            f"in the driver (default {DEFAULTS.env_runners})")
    group.add_argument("--envs-per-env-runner", type=positive_int, default=None, metavar="E",
                       help=f"games each EnvRunner steps (default {DEFAULTS.envs_per_env_runner})")
    group.add_argument("--train-batch-size", type=positive_int, default=None, metavar="B",
                       help="environment steps sampled per iteration "
                            f"(default {DEFAULTS.train_batch_size})")
    group.add_argument("--minibatch-size", type=positive_int, default=None, metavar="M",
                       help=f"steps per gradient step, at most B (default {DEFAULTS.minibatch_size})")
    group.add_argument("--self-play", action="store_const", const=True, default=None,
                       help="one seat per game learns; the others play frozen snapshots of it")
    group.add_argument("--snapshots", type=positive_int, default=None, metavar="K",
                       help=f"frozen snapshots kept with --self-play (default {DEFAULTS.snapshots})")
    group.add_argument("--snapshot-every", type=positive_int, default=None, metavar="I",
                       help="replace the oldest snapshot every I iterations "
                            f"(default {DEFAULTS.snapshot_every})")
    group.add_argument("--save-every", type=positive_int, default=None, metavar="I",
                       help=f"save the checkpoint every I iterations and at the end "
                            f"(default {DEFAULTS.save_every})")
    group.add_argument("--num-cpus", type=positive_int, default=None, metavar="C",
                       help="CPUs of the local Ray instance (default all); not with "
                            "RAY_ADDRESS, where the cluster's resources apply")


def reject_rllib_arguments(args: argparse.Namespace) -> None:
    """Raise :class:`UsageError` if an RLlib-only option is given to the sb3 backend."""
    given = [_flag(dest) for dest in RLLIB_ONLY if getattr(args, dest, None) is not None]
    if given:
        raise UsageError(f"{', '.join(given)}: only with --backend rllib")


def _reject_sb3_arguments(args: argparse.Namespace) -> None:
    parser = args.command_parser
    given = [_flag(dest) for dest in SB3_ONLY
             if getattr(args, dest) != parser.get_default(dest)]
    if given:
        raise UsageError(f"{', '.join(given)}: only with --backend sb3 (RLlib runs take "
                         "--iterations, --train-batch-size and --minibatch-size)")


def _value(args: argparse.Namespace, dest: str) -> Any:
    value = getattr(args, dest)
    return getattr(DEFAULTS, dest) if value is None else value


def rllib_train_args(args: argparse.Namespace) -> RllibTrainArgs:
    """Checked :class:`RllibTrainArgs` from the parsed ``train`` command line."""
    _reject_sb3_arguments(args)
    bound, options = checked_table(args, args.players, args.players)
    game, players = bound.game, bound.num_players
    check_specs(args.eval_opponents, bound)
    train_batch, minibatch = _value(args, "train_batch_size"), _value(args, "minibatch_size")
    if minibatch > train_batch:
        raise UsageError(f"--minibatch-size ({minibatch}) must not exceed --train-batch-size "
                         f"({train_batch})")
    if args.num_cpus is not None and os.environ.get("RAY_ADDRESS"):
        raise UsageError("--num-cpus sizes a local Ray instance; with RAY_ADDRESS set the "
                         "cluster's own resources apply")
    settings = RllibTrainArgs(
        game=game.env_id, players=players, options=options, seed=args.seed,
        iterations=_value(args, "iterations"), env_runners=_value(args, "env_runners"),
        envs_per_env_runner=_value(args, "envs_per_env_runner"),
        train_batch_size=train_batch, minibatch_size=minibatch, num_epochs=args.n_epochs,
        learning_rate=args.learning_rate, gamma=args.gamma, ent_coef=args.ent_coef,
        net_arch=tuple(args.net_arch), self_play=bool(args.self_play),
        snapshots=_value(args, "snapshots"), snapshot_every=_value(args, "snapshot_every"),
        save_every=_value(args, "save_every"), num_cpus=args.num_cpus,
        eval_games=args.eval_games, eval_opponents=tuple(args.eval_opponents),
        output=Path(args.output), run_name=args.run_name, progress=not args.no_progress,
        overwrite=bool(getattr(args, "overwrite", False)),
    )
    try:
        settings.check_network()
    except ValueError as error:
        raise UsageError(str(error).replace("net_arch", "--net-arch", 1)) from None
    return settings


def run_rllib_train(args: argparse.Namespace, out: TextIO) -> int:
    """``cardgym train --backend rllib``: train, then print the checkpoint and its card."""
    try:
        require_rllib()
    except ImportError as error:
        raise UsageError(f"--backend rllib: {error}") from None
    settings = rllib_train_args(args)
    check_run_folder(settings.run_dir, RUN_FILES, settings.overwrite)
    where = os.environ.get("RAY_ADDRESS") or "a local Ray instance"
    print(f"train (rllib): {short_name(settings.game)}, {settings.players} players, "
          f"{settings.iterations} iterations of {settings.train_batch_size} steps, "
          f"{settings.env_runners} env runner(s) on {where} -> {settings.run_dir}",
          file=sys.stderr)
    try:
        checkpoint = train(settings)
    except ConnectionError as error:  # RAY_ADDRESS names no cluster this process can join
        raise UsageError(str(error)) from None
    card = read_card_file(checkpoint.parent / CARD)
    evaluation = ", ".join(f"{key} {value}" for key, value in card["final_evaluation"].items())
    print(f"checkpoint: {checkpoint}\nagent spec: rllib+pickle:{checkpoint.parent}\n"
          f"{card['timesteps']} env steps in {card['train_seconds']} s "
          f"({card['env_steps_per_second']} steps/s), {card['legal_actions']} actions checked, "
          f"{card['illegal_actions']} illegal; {evaluation}", file=out)
    return 0

