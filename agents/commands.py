"""The ``cardgym train`` and ``cardgym demo`` commands (they need the ``train`` extra).

``convert-model`` writes the safe policy file of an SB3 zip (:mod:`agents.policy_file`).
``demo`` is the project's main job (``make demo``): a short self-play training run of
MaskablePPO on two-player Power Hungry Pets, then a seeded evaluation of the model
against the random and the heuristic agent, printed as one table. ``train --backend
rllib`` hands over to :mod:`agents.rllib.commands` (PPO on Ray RLlib, the ``rllib`` extra).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from agents.arguments import (
    add_option_argument,
    add_trust_argument,
    check_specs,
    checked_table,
    run_name,
    trusted_specs,
)
from agents.evaluate import evaluate
from agents.league import SELF
from agents.model_card import read_card
from agents.policy_file import convert_model
from agents.rllib import commands as rllib_commands
from agents.runs import check_run_folder
from agents.train import (
    MODEL_FILES,
    PFSP_SELF,
    RUN_FILES,
    TrainArgs,
    check_budget,
    resume_point,
    train,
)
from cardgym.arguments import (
    UsageError,
    add_progress_argument,
    discount,
    game_count,
    game_name,
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
    unit_interval,
    worker_count,
)
from cardgym.files import OutputError, check_output_folder
from cardgym.progress import Progress
from cardgym.registration import GAMES, find_game, short_name

DEFAULTS = TrainArgs(game="power_hungry_pets")
INSTALL_HINT = ('the train extra is not installed: run "make install-train", or install PyTorch '
                'for your machine and then pip install -e ".[train]"')


def _require_train_extra() -> None:
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        raise UsageError(f"{INSTALL_HINT} ({error})") from None


# -------------------------------------------------------------------- train


def configure_train(parser: argparse.ArgumentParser) -> None:
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


def _check_vector(game: Any, args: argparse.Namespace) -> None:
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


def train_args(args: argparse.Namespace) -> TrainArgs:
    """Checked :class:`TrainArgs` from the parsed command line."""
    game, players, options = checked_table(args, args.players, args.players)
    check_specs([spec for spec in args.opponents if spec != SELF], game, players, options)
    check_specs(args.eval_opponents, game, players, options)
    if args.vector:
        _check_vector(game, args)
    settings = TrainArgs(
        game=game.env_id, players=players, timesteps=args.timesteps,
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
        resume=args.resume,
        progress=not args.no_progress, tensorboard=not args.no_tensorboard,
        overwrite=args.overwrite,
    )
    checked_budget(settings)
    try:
        check_output_folder(settings.run_dir, "--output", overwrite=True)
    except OutputError as error:
        raise UsageError(str(error)) from None
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
    return settings


def checked_budget(settings: TrainArgs) -> None:
    """:func:`agents.train.check_budget` for the command line (a :class:`UsageError`)."""
    try:
        check_budget(settings)
    except ValueError as error:
        name, _, rest = str(error).partition(" ")
        raise UsageError(f"--{name.replace('_', '-')} {rest}") from None


def run_train(args: argparse.Namespace, out: TextIO) -> int:
    trust = getattr(args, "trust_pickle", False)
    args.opponents = trusted_specs(args.opponents, trust)
    args.eval_opponents = trusted_specs(args.eval_opponents, trust)
    if args.backend == "rllib":
        return rllib_commands.run_rllib_train(args, out)
    rllib_commands.reject_rllib_arguments(args)
    _require_train_extra()
    settings = train_args(args)
    print(f"train: {short_name(settings.game)}, {settings.players} players, "
          f"{settings.timesteps} steps against {' '.join(settings.opponents)} -> "
          f"{settings.run_dir}", file=sys.stderr)
    path = train(settings)
    card = read_card(path) or {}
    evaluation = ", ".join(f"{key} {value}" for key, value in
                           card.get("final_evaluation", {}).items() if key != "timesteps")
    print(f"model: {path}\n{card.get('timesteps')} steps in {card.get('train_seconds')} s "
          f"({card.get('env_steps_per_second')} steps/s); {evaluation}", file=out)
    return 0


# --------------------------------------------------------------------- demo

DEMO_GAME = "power_hungry_pets"


def configure_demo(parser: argparse.ArgumentParser) -> None:
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


def run_demo(args: argparse.Namespace, out: TextIO) -> int:
    _require_train_extra()
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
            result = evaluate(find_game(DEMO_GAME), 2, [agent, opponent], games=args.games,
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


# ------------------------------------------------------------------ exploit


def configure_exploit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=game_name, metavar="GAME",
                        help="game id or short name: "
                             + ", ".join(short_name(g.env_id) for g in GAMES))
    parser.add_argument("--agent", required=True, metavar="SPEC",
                        help="the agent to exploit, frozen in every other seat: random, "
                             "heuristic, baseline, model:PATH, ismcts[:KEY=VALUE,...]")
    parser.add_argument("--players", type=positive_int, default=2, metavar="N",
                        help="seats at the table")
    parser.add_argument("--timesteps", type=positive_int, default=200_000, metavar="T",
                        help="the budget: learner steps of the best response")
    parser.add_argument("--games", type=game_count, default=1000, metavar="G",
                        help="games of the response against the agent")
    parser.add_argument("--vector", type=positive_int, default=None, metavar="N",
                        help="games at once on the batched engine (default 256 when the "
                             "game has one and the agent acts from observations)")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="seed of the training and of the games")
    parser.add_argument("--output", type=Path, default=Path("runs"), metavar="DIR",
                        help="the response goes to DIR/exploit-GAME-Np-AGENT-seedS/")
    parser.add_argument("--workers", type=worker_count, default=2, metavar="W",
                        help="evaluation processes (the result does not depend on it)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an earlier response in the same folder")
    add_progress_argument(parser)
    add_option_argument(parser)
    add_trust_argument(parser)


def run_exploit(args: argparse.Namespace, out: TextIO) -> int:
    from agents.exploit import exploit, exploit_settings

    _require_train_extra()
    game, players, options = checked_table(args, args.players, args.players)
    agent = trusted_specs([args.agent], getattr(args, "trust_pickle", False))[0]
    check_specs([agent], game, players, options)
    settings = exploit_settings(game.env_id, agent, players, args.timesteps, args.seed,
                                args.output, options, args.vector)
    if settings.vector:
        _check_vector(game, argparse.Namespace(subprocess=False, opponents=[agent]))
    checked_budget(settings)
    check_run_folder(settings.run_dir, RUN_FILES, args.overwrite)
    print(f"exploit: training a best response to {agent} on {short_name(game.env_id)} "
          f"({players} players) for {args.timesteps} steps"
          f"{f' on {settings.vector} batched games' if settings.vector else ''} ...",
          file=sys.stderr)
    result = exploit(game.env_id, agent, players, args.timesteps, args.games, args.seed,
                     args.output, options, args.vector, args.workers,
                     progress=not args.no_progress, overwrite=args.overwrite)
    low, high = result.interval
    print("\n".join([
        f"Best response to {result.agent} on {short_name(result.game)}, {players} players: "
        f"MaskablePPO, {result.timesteps} steps in {result.train_seconds:.0f} s, seed "
        f"{args.seed}; {result.games} games against it (an even share is "
        f"{result.even_share:.3f}).", "",
        "| agent | budget (steps) | response wins | response win rate | 95% CI |",
        "|---|---|---|---|---|",
        f"| {result.agent} | {result.timesteps} | {result.wins}/{result.games} | "
        f"{result.win_rate:.3f} | {low:.3f}-{high:.3f} |", "",
        f"wrote {Path(result.model).parent / 'exploit.json'}"]), file=out)
    return 0


# ------------------------------------------------------------ convert-model


def configure_convert(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, metavar="PATH",
                        help="an SB3 MaskablePPO model.zip, or a run folder holding one")
    parser.add_argument("--trust-pickle", action="store_true",
                        help="unpickle the zip to read it; unpickling runs any code the file "
                             "carries, so only for a file you trust (required)")
    parser.add_argument("--game", type=game_name, default=None, metavar="GAME",
                        help="the game the model was trained on, when it has no card "
                             "model.json")
    parser.add_argument("--players", type=positive_int, default=None, metavar="N",
                        help="the player count it was trained for, when it has no card")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace a policy file that is already there")


def run_convert(args: argparse.Namespace, out: TextIO) -> int:
    _require_train_extra()
    try:
        path = convert_model(args.path, trust_pickle=args.trust_pickle, game=args.game,
                             num_players=args.players, overwrite=args.overwrite)
    except ValueError as error:  # ModelError, PickleRefusedError: nothing was written
        raise UsageError(str(error)) from None
    print(f"wrote {path} (and the policy section of {path.with_suffix('.json')})", file=out)
    return 0
