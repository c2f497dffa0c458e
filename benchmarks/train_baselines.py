"""Train the shipped baseline models (``models/GAME-Np/``) from a fixed seed.

Usage::

    python benchmarks/train_baselines.py                     # all six, 3-13 minutes each
    python benchmarks/train_baselines.py --games karel_kakelaar --players 2 --timesteps 50000

For each game at its baseline table sizes (each game's ``baseline_players``)
this runs :func:`agents.train.train` (MaskablePPO by self-play against random,
heuristic and the learner's own checkpoints) in a scratch folder, then copies into
``models/GAME-Np/`` the policy file ``model.safetensors`` (the network's tensors only,
which the ``baseline`` agent loads without unpickling anything: :mod:`agents.policy_file`),
``model.zip`` and the card ``model.json``. The shipped zip drops the optimizer's moment
estimates (they serve only to resume training and are most of the file): it plays
exactly as the trained model, and loads with ``MaskablePPO.load`` like any other. The
card records the command, the budget, the final evaluation and how to rebuild the
network; ``benchmarks/arena.py --update-cards`` adds the arena results.

The networks are small (64x64) so that the files stay small; the budget is modest.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.baselines import baseline_path, baseline_settings
from agents.model_card import read_card, write_card
from agents.policy_file import weights_path
from agents.train import TrainArgs, train
from cardgym.arguments import HelpFormatter, non_negative_int, positive_int
from cardgym.registration import games, short_name


@dataclass
class Args:
    """Options of the baseline training (the command line mirrors these fields)."""

    games: tuple[str, ...] = field(default=(), metadata={
        "help": "only these games (short names); default every game"})
    players: tuple[int, ...] = field(default=(), metadata={
        "help": "only these player counts among each game's baseline sizes"})
    timesteps: int = field(default=400_000, metadata={"help": "learner steps per model"})
    seed: int = field(default=0, metadata={"help": "seed of every run"})
    eval_games: int = field(default=200, metadata={
        "help": "games against random and against heuristic in the final evaluation"})
    net_arch: tuple[int, ...] = field(default=(64, 64), metadata={
        "help": "hidden layer sizes of the policy and value networks"})
    scratch: str | None = field(default=None, metadata={
        "help": "folder for the runs (checkpoints, logs); default a temporary folder"})
    progress: bool = field(default=False, metadata={"help": "show SB3's progress bar"})


def train_args(game: str, players: int, args: Args, scratch: Path) -> TrainArgs:
    """The :class:`TrainArgs` of one baseline."""
    return TrainArgs(
        game=game, players=players, timesteps=args.timesteps,
        opponents=("random", "heuristic", "self"), seed=args.seed, n_envs=8,
        output=scratch, checkpoint_every=max(args.timesteps // 5, 2048),
        eval_every=max(args.timesteps, 2048), eval_games=args.eval_games,
        net_arch=args.net_arch,
        progress=args.progress, tensorboard=False,
    )


def slim_copy(source: Path, target: Path) -> Path:
    """Save the model at ``source`` to ``target`` without the optimizer's moments, and
    copy its policy file beside it."""
    from sb3_contrib import MaskablePPO

    # The zip this script has just trained in its scratch folder: unpickling it trusts
    # only this run.
    model = MaskablePPO.load(source, device="cpu")
    optimizer = model.policy.optimizer
    # A fresh optimizer of the same class and settings holds no per-parameter state.
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    target.parent.mkdir(parents=True, exist_ok=True)
    model.save(target)
    shutil.copyfile(weights_path(source), weights_path(target))
    return target


def train_one(game: str, players: int, args: Args, scratch: Path,
              command: str) -> dict[str, Any]:
    """Train one baseline into the scratch folder and ship it; returns its card."""
    settings = train_args(game, players, args, scratch)
    started = time.perf_counter()
    trained = train(settings)
    target = baseline_path(game, players)
    slim_copy(trained, target)
    card = dict(read_card(trained) or {})
    card["baseline"] = {
        "command": command,
        "wall_seconds": round(time.perf_counter() - started, 1),
        "shipped_without_optimizer_state": True,
    }
    previous = read_card(target) or {}
    if "arena" in previous:  # arena results of an earlier model no longer apply
        card["arena"] = {"stale": True}
    write_card(target, card)
    return card


def run(args: Args, command: str = "", out: Any = sys.stdout) -> list[Path]:
    """Train every selected baseline; returns the shipped model paths (the zips; their
    policy files and cards are beside them)."""
    settings = [(game, count) for game, count in baseline_settings()
                if (not args.games or short_name(game.env_id) in args.games)
                and (not args.players or count in args.players)]
    if not settings:
        sizes = "; ".join(f"{game.name}: {game.baseline_players}" for game in games()
                          if game.baseline_players)
        raise ValueError(f"no baseline matches games={args.games} players={args.players}; "
                         f"baselines: {sizes}")
    paths = []
    with tempfile.TemporaryDirectory(prefix="cardgym-baselines-") as temporary:
        scratch = Path(args.scratch) if args.scratch else Path(temporary)
        for game, count in settings:
            name = short_name(game.env_id)
            print(f"train_baselines: {name} {count}p, {args.timesteps} steps ...", file=out,
                  flush=True)
            card = train_one(game.env_id, count, args, scratch, command)
            path = baseline_path(game, count)
            size = path.stat().st_size / 1024
            weights = path.with_suffix(".safetensors")
            print(f"train_baselines: {path} ({size:.0f} KiB), {weights.name} "
                  f"({weights.stat().st_size / 1024:.0f} KiB) in "
                  f"{card['baseline']['wall_seconds']} s; final evaluation "
                  f"{card.get('final_evaluation')}", file=out, flush=True)
            paths.append(path)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    defaults = Args()
    parser = argparse.ArgumentParser(prog="train_baselines.py",
                                     description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=HelpFormatter)
    fields = Args.__dataclass_fields__

    def help_of(name: str) -> str:
        return str(fields[name].metadata["help"])

    parser.add_argument("--games", nargs="+", default=[], choices=[game.name for game in games() if game.baseline_players],
                        help=help_of("games"))
    parser.add_argument("--players", nargs="+", type=positive_int, default=[],
                        help=help_of("players"))
    parser.add_argument("--timesteps", type=positive_int, default=defaults.timesteps,
                        help=help_of("timesteps"))
    parser.add_argument("--seed", type=non_negative_int, default=defaults.seed,
                        help=help_of("seed"))
    parser.add_argument("--eval-games", type=positive_int, default=defaults.eval_games,
                        help=help_of("eval_games"))
    parser.add_argument("--net-arch", type=positive_int, nargs="+",
                        default=list(defaults.net_arch), help=help_of("net_arch"))
    parser.add_argument("--scratch", default=None, help=help_of("scratch"))
    parser.add_argument("--progress", action="store_true", help=help_of("progress"))
    namespace = parser.parse_args(argv)
    args = Args(games=tuple(namespace.games), players=tuple(namespace.players),
                timesteps=namespace.timesteps, seed=namespace.seed,
                eval_games=namespace.eval_games,
                net_arch=tuple(namespace.net_arch), scratch=namespace.scratch,
                progress=namespace.progress)
    command = "python benchmarks/train_baselines.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    try:
        run(args, command.strip())
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
