"""``cardgym train``: MaskablePPO by self-play (the ``train`` extra), or PPO on Ray RLlib
with ``--backend rllib`` (:mod:`agents.rllib.commands`, the ``rllib`` extra)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from agents.arguments import (
    add_option_argument,
    add_trust_argument,
    check_specs,
    run_name,
    trusted_specs,
)
from agents.league import SELF
from agents.model_card import read_card
from agents.options import parse_options
from agents.policy import Policy
from agents.rllib import commands as rllib_commands
from agents.runs import check_run_folder
from agents.train import (
    PFSP_SELF,
    RUN_FILES,
    TrainArgs,
    check_budget,
    resume_point,
    start_network,
    train,
)
from cardgym.arguments import (
    UsageError,
    discount,
    game_count,
    game_name,
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
    unit_interval,
)
from cardgym.files import OutputError, check_output_folder
from cardgym.registration import GAMES, find_game, short_name

__all__ = ["DEFAULTS", "INSTALL_HINT", "check_vector", "checked_budget", "configure",
           "require_train_extra", "run", "train_args"]


DEFAULTS = TrainArgs(game="power_hungry_pets")
INSTALL_HINT = ('the train extra is not installed: run "make install-train", or install PyTorch '
                'for your machine and then pip install -e ".[train]"')


def require_train_extra() -> None:
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        raise UsageError(f"{INSTALL_HINT} ({error})") from None


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=game_name, metavar="GAME",
                        help="game id or short name: "
                             + ", ".join(short_name(g.env_id) for g in GAMES))
    parser.add_argument("--players", type=positive_int, default=DEFAULTS.players, metavar="N",
                        help="seats at the table")
    parser.add_argument("--timesteps", type=positive_int, default=DEFAULTS.timesteps,
                        metavar="T", help="learner steps to train for")
    parser.add_argument("--opponents", nargs="+", default=list(DEFAULTS.opponents),
                        metavar="SPEC",
                        help="the opponent pool, drawn per seat and episode: random, heuristic, "
                             "baseline, model:PATH, and self (frozen checkpoints of the "
                             "learner); repeat a spec to weight it")
    parser.add_argument("--seed", type=non_negative_int, default=DEFAULTS.seed,
                        help="seed of the environments and of PyTorch")
    parser.add_argument("--output", type=Path, default=DEFAULTS.output, metavar="DIR",
                        help="runs go to DIR/GAME-Np-seedS/")
    parser.add_argument("--run-name", type=run_name, default=None, metavar="NAME",
                        help="the run's folder name under --output, instead of GAME-Np-seedS")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the model of an earlier run in the same folder "
                             "(without it, such a run is refused and nothing is written)")
    parser.add_argument("--n-envs", type=positive_int, default=DEFAULTS.n_envs, metavar="E",
                        help="environments stepped together")
    parser.add_argument("--subprocess", action="store_true",
                        help="step the environments in worker processes (SubprocVecEnv); "
                             "cardgym's envs are cheap, so in-process is usually faster")
    parser.add_argument("--vector", type=positive_int, default=None, metavar="N",
                        help="play N games at once on the game's batched engine "
                             "(cardgym.vector) instead of --n-envs environments; opponents "
                             "act in batches")
    parser.add_argument("--checkpoint-every", type=positive_int,
                        default=DEFAULTS.checkpoint_every, metavar="T",
                        help="save a checkpoint (and add it to the 'self' pool) every T steps")
    parser.add_argument("--eval-every", type=positive_int, default=DEFAULTS.eval_every,
                        metavar="T", help="evaluate against --eval-opponents every T steps")
    parser.add_argument("--eval-games", type=game_count, default=DEFAULTS.eval_games,
                        metavar="G", help="games per evaluation opponent")
    parser.add_argument("--eval-opponents", nargs="+", default=list(DEFAULTS.eval_opponents),
                        metavar="SPEC", help="opponents of the periodic evaluation")
    parser.add_argument("--learning-rate", type=positive_float, default=DEFAULTS.learning_rate)
    parser.add_argument("--n-steps", type=positive_int, default=DEFAULTS.n_steps,
                        help="rollout steps per environment between updates")
    parser.add_argument("--batch-size", type=positive_int, default=DEFAULTS.batch_size)
    parser.add_argument("--n-epochs", type=positive_int, default=DEFAULTS.n_epochs)
    parser.add_argument("--gamma", type=discount, default=DEFAULTS.gamma,
                        help="discount factor, in (0, 1]")
    parser.add_argument("--ent-coef", type=non_negative_float, default=DEFAULTS.ent_coef,
                        help="entropy coefficient, a finite number >= 0")
    parser.add_argument("--ent-coef-end", type=non_negative_float, default=None, metavar="E",
                        help="entropy coefficient at the end of the run, reached linearly "
                             "from --ent-coef (default: --ent-coef throughout)")
    parser.add_argument("--net-arch", type=positive_int, nargs="+",
                        default=list(DEFAULTS.net_arch), metavar="UNITS",
                        help="hidden layer sizes of the policy and value networks")
    league = parser.add_argument_group(
        "league", "prioritized fictitious self-play: every distinct --opponents spec and each "
                  "kept checkpoint of the learner is a member, drawn with probability "
                  "(1-floor)*(1-x)^power/sum + floor/members, x the learner's recent win "
                  "rate against it; written to league.json and TensorBoard (league/)")
    league.add_argument("--league", action="store_true",
                        help="draw opponents by PFSP instead of uniformly")
    league.add_argument("--pfsp-power", type=non_negative_float, default=DEFAULTS.pfsp_power,
                        metavar="P", help="weighting exponent; 0 draws members evenly")
    league.add_argument("--pfsp-floor", type=unit_interval, default=DEFAULTS.pfsp_floor,
                        metavar="F", help="share of draws spread evenly over the members")
    league.add_argument("--pfsp-self", choices=PFSP_SELF, default=DEFAULTS.pfsp_self,
                        help="each: every kept checkpoint of the learner is a member; group: "
                             "they count as one member, whose share is split among them "
                             "(keeps the fixed opponents' share up) (default: %(default)s)")
    league.add_argument("--league-size", type=positive_int, default=DEFAULTS.league_size,
                        metavar="K", help="checkpoints of the learner kept as members")
    parser.add_argument("--start-from", default=None, metavar="MODEL",
                        help="start the network from MODEL's weights instead of random ones: "
                             "baseline (the shipped network of the game and --players), a "
                             ".safetensors policy file, a .zip of cardgym train or a run "
                             "folder; its hidden layers must be --net-arch (the optimizer "
                             "starts afresh)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in the run folder from its latest checkpoint "
                             "(network and optimizer state, league, eval.csv) up to "
                             "--timesteps in all, with the run's own settings")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (there is none anyway when stderr is not a "
                             "terminal)")
    parser.add_argument("--no-tensorboard", action="store_true", help="no TensorBoard logs")
    add_option_argument(parser)
    add_trust_argument(parser)
    rllib_commands.add_arguments(parser)  # --backend and the RLlib options


def check_vector(game: Any, args: argparse.Namespace) -> None:
    """``--vector`` needs a batched engine and opponents that act from observations."""
    if game.batched is None:
        from cardgym.vector import batched_games

        having = ", ".join(g.name for g in batched_games()) or "none"
        raise UsageError(f"--vector: {game.title} has no batched engine yet; games "
                         f"with one: {having}")
    if args.subprocess:
        raise UsageError("--vector and --subprocess exclude each other: the batched "
                         "engine steps every game in this process")
    searching = [spec for spec in args.opponents if spec.partition(":")[0] == "ismcts"]
    if searching:
        raise UsageError(f"--vector: opponents {', '.join(searching)} search game states; "
                         "the batched engine plays policies that act from observations")


def train_args(args: argparse.Namespace) -> tuple[TrainArgs, dict[str, Policy]]:
    """Checked :class:`TrainArgs` from the parsed command line, and the opponents'
    policies built to check their specs (by spec), which the training then uses."""
    try:
        options = parse_options(args.option)
    except ValueError as error:
        raise UsageError(str(error)) from None
    settings = TrainArgs(
        game=find_game(args.game).env_id, players=args.players, timesteps=args.timesteps,
        opponents=tuple(args.opponents), options=options, seed=args.seed,
        n_envs=args.n_envs, subprocess=args.subprocess, vector=args.vector or 0,
        output=args.output,
        run_name=args.run_name, checkpoint_every=args.checkpoint_every,
        eval_every=args.eval_every, eval_games=args.eval_games,
        eval_opponents=tuple(args.eval_opponents), learning_rate=args.learning_rate,
        n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
        gamma=args.gamma, ent_coef=args.ent_coef, ent_coef_end=args.ent_coef_end,
        net_arch=tuple(args.net_arch), league=args.league, pfsp_power=args.pfsp_power,
        pfsp_floor=args.pfsp_floor, pfsp_self=args.pfsp_self, league_size=args.league_size,
        start_from=args.start_from, resume=args.resume,
        progress=not args.no_progress, tensorboard=not args.no_tensorboard,
        overwrite=args.overwrite,
    )
    try:
        bound = settings.table()  # the command's one check of the rule options
    except ValueError as error:
        raise UsageError(str(error)) from None
    built = check_specs([spec for spec in args.opponents if spec != SELF]
                        + list(args.eval_opponents), bound)
    if args.vector:
        check_vector(bound.game, args)
    checked_budget(settings)
    try:
        check_output_folder(settings.run_dir, "--output", overwrite=True)
    except OutputError as error:
        raise UsageError(str(error)) from None
    if args.start_from is not None and not args.resume:
        try:
            start_network(settings)
        except ValueError as error:  # a ModelError too
            message = str(error).removeprefix("start_from ").replace("net_arch", "--net-arch")
            raise UsageError(f"--start-from: {message}") from None
    if args.resume and args.overwrite:
        raise UsageError("--resume and --overwrite exclude each other: --resume continues the "
                         "run in the folder, --overwrite replaces it")
    if args.resume:
        try:
            resume_point(settings)
        except ValueError as error:
            raise UsageError(str(error)) from None
    else:
        check_run_folder(settings.run_dir, RUN_FILES, settings.overwrite, resumable=True)
    return settings, built


def checked_budget(settings: TrainArgs) -> None:
    """:func:`agents.train.check_budget` for the command line (a :class:`UsageError`)."""
    try:
        check_budget(settings)
    except ValueError as error:
        name, _, rest = str(error).partition(" ")
        raise UsageError(f"--{name.replace('_', '-')} {rest}") from None


def run(args: argparse.Namespace, out: TextIO) -> int:
    trust = getattr(args, "trust_pickle", False)
    args.opponents = trusted_specs(args.opponents, trust)
    args.eval_opponents = trusted_specs(args.eval_opponents, trust)
    if args.backend == "rllib":
        return rllib_commands.run_rllib_train(args, out)
    rllib_commands.reject_rllib_arguments(args)
    require_train_extra()
    settings, built = train_args(args)
    print(f"train: {short_name(settings.game)}, {settings.players} players, "
          f"{settings.timesteps} steps against {' '.join(settings.opponents)} -> "
          f"{settings.run_dir}", file=sys.stderr)
    path = train(settings, built)
    card = read_card(path) or {}
    evaluation = ", ".join(f"{key} {value}" for key, value in
                           card.get("final_evaluation", {}).items() if key != "timesteps")
    print(f"model: {path}\n{card.get('timesteps')} steps in {card.get('train_seconds')} s "
          f"({card.get('env_steps_per_second')} steps/s); {evaluation}", file=out)
    return 0
