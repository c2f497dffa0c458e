"""Train the shipped baseline models (``models/GAME-Np/``) from a fixed seed.

Usage::

    python benchmarks/train_baselines.py                       # all six, at their budgets
    python benchmarks/train_baselines.py --games karel_kakelaar --players 2 --timesteps 50000
    python benchmarks/train_baselines.py --scratch runs/baselines --resume   # continue

For each game at its baseline table sizes (each game's ``baseline_players``) this runs
:func:`agents.train.train` in a scratch folder: MaskablePPO with league self-play
(``--league``: random, heuristic and the learner's own checkpoints, drawn by
prioritized fictitious self-play, the checkpoints weighed together as one member:
``--pfsp-self group``), on 256 batched games where the game has a batched
engine, for the budget :data:`BUDGETS` states (``--timesteps`` overrides it). The
network size, discount, learning rate, entropy schedule and batch sizes are the best
trial of the game's recorded sweep (``benchmarks/results/sweep/GAME-Np.json``, made by
``python -m benchmarks.sweep``; a table size that was not swept takes the game's
nearest swept size), or train's defaults if the game has none (``--no-sweep``).

It then copies into ``models/GAME-Np/`` the policy file ``model.safetensors`` (the
network's tensors only, which the ``baseline`` agent loads without unpickling anything:
:mod:`agents.policy_file`), ``model.zip`` and the card ``model.json``. The shipped zip
drops the optimizer's moment estimates (they serve only to resume training and are
most of the file): it plays exactly as the trained model, and loads with
``MaskablePPO.load`` like any other. The card records the command, the budget, the
wall time, the sweep trial the settings come from, the league and the final
evaluation; ``benchmarks/arena.py --update-cards`` adds the arena results and
``--update-cards`` of ``benchmarks/exploitability.py`` the best-response figures.

Where :data:`FINE_TUNES` lists a table, fine-tune stages follow, in order: the network
shipped by the stage before is trained on from its weights (``cardgym train --start-from
baseline``) with a seed of its own and a lower learning rate, against opponents that hold
that network as a fixed member (``baseline``), and shipped in its place. The card's
``baseline.stage`` counts the fine-tunes the shipped network carries, and
``baseline.started_from`` keeps the record of the stage it was trained from (which keeps
its own, back to the first stage). A stage may be a :class:`Soup`: fine-tunes of the
shipped network, each in a run folder of its own, whose weights are averaged with the
shipped network's (``cardgym soup``); its card's ``soup`` names every ingredient with
its settings and digest, and ``final_evaluation`` measures the mean. ``--stage first``
trains only the first stage, ``--stage fine-tune`` the fine-tunes that the network
shipped now does not carry yet.

With ``--scratch DIR --resume`` a run that was stopped continues from its latest
checkpoint (``cardgym train --resume``), and a finished one is shipped again as it is
(its card's wall time is then the run's training time).
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.baselines import BASELINE, baseline_path, baseline_settings
from agents.model_card import card_path, read_card, write_card
from agents.policy_file import load_network, weights_path
from agents.resume import RESUME_SETTINGS, card_differences, latest_checkpoint
from agents.soup import average_policies
from agents.train import PFSP_SELF, TrainArgs, compared_settings, train, win_rate
from benchmarks.publish import portable_command
from benchmarks.sweep import best_settings
from cardgym.arguments import HelpFormatter, game_count, non_negative_int, positive_int
from cardgym.registration import find_game, games, short_name

#: Learner steps per baseline (game short name, players).
BUDGETS = {
    ("power_hungry_pets", 2): 2_000_000,
    ("power_hungry_pets", 4): 2_000_000,
    ("karel_kakelaar", 2): 2_000_000,
    ("karel_kakelaar", 5): 2_000_000,
    ("exploding_kittens", 2): 1_000_000,
    ("exploding_kittens", 4): 500_000,
}
#: The budget of a table that :data:`BUDGETS` does not list.
DEFAULT_BUDGET = 1_000_000


@dataclass(frozen=True)
class FineTune:
    """A fine-tune stage of a table's baseline: the network shipped by the stage before
    trained on from its weights. Settings not named here, and the evaluation settings
    left at ``None``, are the first stage's."""

    timesteps: int
    learning_rate: float
    ent_coef: float
    checkpoint_every: int
    eval_every: int
    ent_coef_end: float | None = None
    pfsp_self: str = "group"
    seed: int = 1
    opponents: tuple[str, ...] = ("random", "heuristic", "baseline", "self")
    league: bool = True
    eval_games: int | None = None
    eval_opponents: tuple[str, ...] | None = None


def heuristic_weighted(ent_coef: float) -> FineTune:
    """A fine-tune against a fixed pool weighted 3:1:1 towards the heuristic (three
    heuristic entries, the shipped network, the learner's own checkpoints), without the
    league: it lifts the networks' win rate against the heuristic (two-player Power
    Hungry Pets and Karel Kakelaar, five-player Karel Kakelaar; docs/training.md)."""
    return FineTune(2_000_128, 1e-4, ent_coef, checkpoint_every=500_224,
                    eval_every=1_000_192, pfsp_self="each", seed=3,
                    opponents=("heuristic", "heuristic", "heuristic", "baseline", "self"),
                    league=False, eval_games=200, eval_opponents=("heuristic",))


def heuristic_alone(ent_coef: float) -> FineTune:
    """:func:`heuristic_weighted` against the heuristic alone: one of the parts of the
    soups of Power Hungry Pets at two players and Karel Kakelaar at two and five
    (docs/training.md)."""
    return dataclasses.replace(heuristic_weighted(ent_coef), opponents=("heuristic",))


@dataclass(frozen=True)
class Soup:
    """A stage whose network is the mean of the weights (:mod:`agents.soup`) of the
    network shipped now and of fine-tunes of it: each part is trained from the shipped
    network in a run folder of its own (``GAME-Np-stageK-partJ``), then every tensor of
    the shipped network and the parts is averaged, equally. The soup is measured
    against the first part's evaluation opponents over ``eval_games`` games."""

    parts: tuple[FineTune, ...]
    eval_games: int = 400


#: A fine-tune stage: one fine-tune, or the mean of several.
Stage = FineTune | Soup

#: The first fine-tune of the four-player Power Hungry Pets network; run again from the
#: shipped network (another seed), it is one part of that table's soup.
_PHP_4P_FINE_TUNE = FineTune(2_000_128, 1e-4, 0.004, checkpoint_every=100_096,
                             eval_every=500_224)

#: The tables whose baseline is fine-tuned after the first stage: their stages, in order.
FINE_TUNES: dict[tuple[str, int], tuple[Stage, ...]] = {
    ("power_hungry_pets", 2): (
        heuristic_weighted(0.004),
        Soup((heuristic_weighted(0.004), heuristic_alone(0.004)))),
    ("power_hungry_pets", 4): (
        _PHP_4P_FINE_TUNE,
        Soup((dataclasses.replace(_PHP_4P_FINE_TUNE, checkpoint_every=500_224,
                                  eval_every=1_000_192, seed=3),
              heuristic_weighted(0.004)))),
    ("karel_kakelaar", 2): (
        FineTune(3_000_064, 3e-4, 0.0015, checkpoint_every=100_096, eval_every=500_224),
        heuristic_weighted(0.0015),
        Soup((heuristic_weighted(0.0015), heuristic_alone(0.0015)))),
    ("karel_kakelaar", 5): (
        FineTune(2_000_128, 3e-4, 0.0015, checkpoint_every=100_096, eval_every=500_224),
        heuristic_weighted(0.0015),
        Soup((heuristic_weighted(0.0015), heuristic_alone(0.0015)))),
    ("exploding_kittens", 2): (
        FineTune(2_000_000, 2e-4, 0.002, checkpoint_every=50_000, eval_every=250_000,
                 ent_coef_end=0.0, pfsp_self="each"),),
    ("exploding_kittens", 4): (
        FineTune(1_000_000, 2e-4, 0.002, checkpoint_every=50_000, eval_every=250_000,
                 ent_coef_end=0.0),),
}

#: ``--stage``: every stage of each table, only the first, or only the fine-tunes that
#: the shipped network does not carry yet.
STAGES = ("all", "first", "fine-tune")

#: The settings a finished run in the scratch folder must have been trained with to be
#: shipped as it is (``--resume``): those that change what it learns.
SHIPPED_SETTINGS = RESUME_SETTINGS + (
    "seed", "timesteps", "learning_rate", "ent_coef", "ent_coef_end", "gamma", "n_steps",
    "batch_size", "n_epochs", "start_from", "n_envs", "pfsp_power", "pfsp_floor",
    "league_size")

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Args:
    """Options of the baseline training (the command line mirrors these fields)."""

    games: tuple[str, ...] = field(default=(), metadata={
        "help": "only these games (short names); default every game"})
    players: tuple[int, ...] = field(default=(), metadata={
        "help": "only these player counts among each game's baseline sizes"})
    timesteps: int | None = field(default=None, metadata={
        "help": "learner steps per model (default each table's budget in BUDGETS)"})
    seed: int = field(default=0, metadata={"help": "seed of every run"})
    eval_games: int = field(default=400, metadata={
        "help": "games against random and against heuristic in the final evaluation"})
    net_arch: tuple[int, ...] | None = field(default=None, metadata={
        "help": "hidden layer sizes (default the sweep's best, else train's default)"})
    sweep: bool = field(default=True, metadata={
        "help": "take the settings of the game's recorded sweep (--no-sweep: train's "
                "defaults)"})
    pfsp_self: str = field(default="group", metadata={
        "help": "how the league counts the learner's checkpoints: group (one member, so "
                "that the heuristic keeps its share of the draws) or each"})
    vector: int = field(default=256, metadata={
        "help": "games on the batched engine where the game has one (0: single envs)"})
    scratch: str | None = field(default=None, metadata={
        "help": "folder for the runs (checkpoints, logs); default a temporary folder"})
    resume: bool = field(default=False, metadata={
        "help": "continue the runs in --scratch from their latest checkpoints"})
    progress: bool = field(default=False, metadata={"help": "show SB3's progress bar"})
    stage: str = field(default="all", metadata={
        "help": "all: the first stage, then the fine-tunes FINE_TUNES lists for the "
                "table; first: only the first stage; fine-tune: only the fine-tunes the "
                "network shipped now does not carry yet, from it"})


def budget(game: str, players: int, args: Args) -> int:
    """The learner steps of one baseline."""
    if args.timesteps is not None:
        return args.timesteps
    return BUDGETS.get((short_name(find_game(game).env_id), players), DEFAULT_BUDGET)


def train_args(game: str, players: int, args: Args, scratch: Path) -> tuple[TrainArgs, str]:
    """The :class:`TrainArgs` of one baseline, and where its settings come from."""
    timesteps = budget(game, players, args)
    tuned: dict[str, Any] = {}
    source = "train's defaults"
    vector = args.vector if find_game(game).batched is not None else 0
    found = best_settings(RESULTS, game, players, vector or 8) if args.sweep else None
    if found is not None:
        tuned, source = found
    if args.net_arch is not None:
        tuned["net_arch"] = args.net_arch
        source += f", net_arch {list(args.net_arch)} given"
    settings = TrainArgs(
        game=game, players=players, timesteps=timesteps,
        opponents=("random", "heuristic", "self"), seed=args.seed, n_envs=8, vector=vector,
        output=scratch, checkpoint_every=max(timesteps // 20, 2048),
        eval_every=max(timesteps // 4, 2048), eval_games=args.eval_games, league=True,
        pfsp_self=args.pfsp_self,
        progress=args.progress, tensorboard=True, **tuned,
    )
    return settings, source


def stage_of(game: str, players: int, stage: int) -> Stage | None:
    """A table's fine-tune ``stage`` (1: the first fine-tune); None where
    :data:`FINE_TUNES` lists no such stage."""
    stages = FINE_TUNES.get((short_name(find_game(game).env_id), players), ())
    return stages[stage - 1] if 1 <= stage <= len(stages) else None


def stage_runs(game: str, players: int, args: Args, scratch: Path, stage: int = 1
               ) -> list[tuple[TrainArgs, str]] | None:
    """The training runs of a table's fine-tune ``stage`` (one, or a soup's parts, each
    trained from the shipped network) as :class:`TrainArgs` with where their settings
    come from; None where :data:`FINE_TUNES` lists no such stage."""
    found = stage_of(game, players, stage)
    if found is None:
        return None
    count = len(FINE_TUNES[(short_name(find_game(game).env_id), players)])
    first, source = train_args(game, players, args, scratch)
    runs = []
    parts = found.parts if isinstance(found, Soup) else (found,)
    for index, tune in enumerate(parts, 1):
        changes: dict[str, Any] = {name: getattr(tune, name) for name in (
            "timesteps", "learning_rate", "ent_coef", "ent_coef_end", "checkpoint_every",
            "eval_every", "pfsp_self", "seed", "opponents", "league")}
        # The evaluation settings a stage leaves at None are the first stage's.
        changes.update({name: getattr(tune, name) for name in ("eval_games", "eval_opponents")
                        if getattr(tune, name) is not None})
        if args.timesteps is not None:
            changes["timesteps"] = args.timesteps
        what = f"stage {stage} of {count}"
        if isinstance(found, Soup):
            changes["run_name"] = (f"{short_name(find_game(game).env_id)}-{players}p-"
                                   f"stage{stage}-part{index}")
            what += f", part {index} of {len(parts)} of its soup"
        runs.append((dataclasses.replace(first, start_from=BASELINE, **changes),
                     f"{source}; fine-tuned from the shipped network (FINE_TUNES, {what})"))
    return runs


def shipped_stage(card: dict[str, Any]) -> int:
    """The fine-tune stages the network of a shipped ``card`` carries (0: the first
    stage's network). A card written before stages were counted carries one where it
    keeps a ``started_from``."""
    record = card.get("baseline", {})
    return int(record.get("stage", 1 if "started_from" in record else 0))


def slim_copy(source: Path, target: Path, policy: Path | None = None) -> Path:
    """Save the model at ``source`` to ``target`` without the optimizer's moments, and
    copy its policy file beside it; ``policy``: another policy file of the same network
    (a soup) whose weights replace the model's, copied in its place."""
    from sb3_contrib import MaskablePPO

    # The zip this script has just trained in its scratch folder: unpickling it trusts
    # only this run.
    model = MaskablePPO.load(source, device="cpu")
    if policy is not None:
        model.policy.load_state_dict(load_network(policy).state_dict())
    optimizer = model.policy.optimizer
    # A fresh optimizer of the same class and settings holds no per-parameter state.
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    model.tensorboard_log = None  # a folder of the machine that trained it
    target.parent.mkdir(parents=True, exist_ok=True)
    model.save(target)
    shutil.copyfile(policy or weights_path(source), weights_path(target))
    return target


def _trained(settings: TrainArgs, args: Args, label: str, stage: int,
             previous: dict[str, Any], target: Path) -> tuple[Path, float]:
    """Train one run of a stage, or take it as it is: a run in the scratch folder already
    trained to its budget (``--resume``) is kept, with its own training time, if it
    trained with the run's settings. Returns the model and the seconds an earlier
    process spent on it."""
    finished = settings.run_dir / "model.zip"
    card_now = read_card(finished) if args.resume and finished.is_file() else None
    if card_now is not None and card_now.get("timesteps", 0) >= settings.timesteps:
        differ = card_differences(card_now, compared_settings(settings), SHIPPED_SETTINGS)
        if differ:
            raise ValueError(f"the finished run in {settings.run_dir} was not trained as "
                             f"{label} is: {'; '.join(differ)} (move it away, or give "
                             "another --scratch)")
        return finished, float(card_now.get("train_seconds", 0.0))
    _check_parent(previous, stage, target)
    latest = latest_checkpoint(settings.run_dir) if args.resume else None
    settings.resume = latest is not None
    settings.overwrite = not settings.resume
    return train(settings), 0.0


def _check_parent(previous: dict[str, Any], stage: int, target: Path) -> None:
    """A fine-tune ``stage`` trains on from the network of stage ``stage - 1``."""
    if stage and shipped_stage(previous) != stage - 1:
        raise ValueError(f"{target} carries {shipped_stage(previous)} fine-tune "
                         f"stage(s); stage {stage} trains on from stage {stage - 1}: "
                         "ship the first stage again (--stage first) before "
                         "fine-tuning it")


def _soup(parts: list[Path], stage: int, tune: Soup, scratch: Path, target: Path,
          label: str) -> tuple[Path, dict[str, Any]]:
    """The mean of the shipped network and the trained ``parts``, written into the
    scratch folder, and the card section that says how it was made."""
    from types import SimpleNamespace

    folder = scratch / f"{label}-stage{stage}"
    parent = folder / "parent"
    parent.mkdir(parents=True, exist_ok=True)
    # The shipped network is about to be replaced: the soup takes it from a copy.
    shutil.copyfile(weights_path(target), parent / "model.safetensors")
    shutil.copyfile(card_path(target), parent / "model.json")
    written = average_policies([parent, *parts], folder / "soup", overwrite=True)
    made = read_card(written) or {}
    cards = [read_card(path) or {} for path in parts]
    # Named by run folder, not by this machine's path; each part with its settings.
    ingredients = [{**made["soup"]["ingredients"][0],
                    "path": f"the network shipped before (stage {stage - 1})"}]
    ingredients += [{**entry, "path": path.parent.name, "settings": card.get("settings")}
                    for entry, path, card in zip(made["soup"]["ingredients"][1:], parts, cards,
                                                 strict=True)]
    first = cards[0]
    settings = first.get("settings", {})
    network = SimpleNamespace(policy=load_network(written))
    evaluation: dict[str, Any] = {"timesteps": sum(int(card.get("timesteps", 0))
                                                   for card in cards)}
    for opponent in settings.get("eval_opponents", ["heuristic"]):
        evaluation[f"win_rate_vs_{opponent}"] = win_rate(
            network, first["game"], first["players"], opponent, first.get("options"),
            tune.eval_games, int(settings.get("seed", 0)))
    return written, {"method": made["soup"]["method"], "ingredients": ingredients,
                     "final_evaluation": evaluation}


def train_one(game: str, players: int, args: Args, scratch: Path, command: str,
              stage: int = 0) -> dict[str, Any]:
    """Train one baseline into the scratch folder and ship it; returns its card.
    ``stage``: 0 the first stage, k the table's k-th fine-tune, trained from the network
    shipped now (which must carry the k - 1 stages before it)."""
    name = short_name(find_game(game).env_id)
    target = baseline_path(game, players)
    previous = read_card(target) or {}
    tune = stage_of(game, players, stage) if stage else None
    if stage:
        runs = stage_runs(game, players, args, scratch, stage)
        if runs is None:
            count = len(FINE_TUNES.get((name, players), ()))
            raise ValueError(f"{name} at {players} players has {count} fine-tune stage(s) "
                             f"(FINE_TUNES), not a stage {stage}")
    else:
        runs = [train_args(game, players, args, scratch)]
    if isinstance(tune, Soup):  # the soup holds the shipped network: it must be the parent
        _check_parent(previous, stage, target)
    started = time.perf_counter()
    label = f"{name} {players}p stage {stage}"
    trained, earlier = [], 0.0
    for index, (settings, _) in enumerate(runs, 1):
        part = f"{label} part {index}" if isinstance(tune, Soup) else label
        path, seconds = _trained(settings, args, part, stage, previous, target)
        trained.append(path)
        earlier += seconds
    source = runs[0][1]
    soup: dict[str, Any] | None = None
    if isinstance(tune, Soup):
        written, soup = _soup(trained, stage, tune, scratch, target, f"{name}-{players}p")
        slim_copy(trained[0], target, written)
    else:
        slim_copy(trained[0], target)
    card = dict(read_card(trained[0]) or {})
    if soup is not None:
        card["timesteps"] = soup["final_evaluation"]["timesteps"]
        card["final_evaluation"] = soup.pop("final_evaluation")
        card["soup"] = soup
        source = f"the mean of the shipped network and {len(trained)} fine-tunes of it; " + source
    card["baseline"] = {
        "command": command,
        "budget_timesteps": sum(settings.timesteps for settings, _ in runs),
        "wall_seconds": round(earlier + time.perf_counter() - started, 1),
        "settings_from": source,
        "shipped_without_optimizer_state": True,
        "stage": stage,
    }
    if stage:
        card["baseline"]["started_from"] = {
            **previous.get("baseline", {}), "timesteps": previous.get("timesteps"),
            "final_evaluation": previous.get("final_evaluation")}
    for section in ("arena", "exploitability"):
        if section in previous:  # results of an earlier model no longer apply
            card[section] = {"stale": True}
    write_card(target, card)
    return card


def stages_to_train(name: str, players: int, args: Args) -> list[int]:
    """The stages ``--stage`` trains of one table, in order (0: the first stage)."""
    count = len(FINE_TUNES.get((name, players), ()))
    if args.stage == "first":
        return [0]
    if args.stage == "all":
        return list(range(count + 1))
    shipped = read_card(baseline_path(name, players)) or {}
    return list(range(shipped_stage(shipped) + 1, count + 1))


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
            stages = stages_to_train(name, count, args)
            if not stages:
                what = ("has no fine-tune stage" if (name, count) not in FINE_TUNES else
                        "carries every fine-tune stage already (--stage first ships the "
                        "first stage again)")
                print(f"train_baselines: {name} {count}p {what}", file=out)
            for stage in stages:
                what = f"fine-tune {stage}" if stage else "first stage"
                print(f"train_baselines: {name} {count}p, {what} ...", file=out, flush=True)
                card = train_one(game.env_id, count, args, scratch, command, stage)
                path = baseline_path(game, count)
                size = path.stat().st_size / 1024
                weights = path.with_suffix(".safetensors")
                print(f"train_baselines: {path} ({size:.0f} KiB), {weights.name} "
                      f"({weights.stat().st_size / 1024:.0f} KiB), {card['timesteps']} steps "
                      f"in {card['baseline']['wall_seconds']} s; final evaluation "
                      f"{card.get('final_evaluation')}", file=out, flush=True)
                if path not in paths:
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
    parser.add_argument("--timesteps", type=positive_int, default=None,
                        help=help_of("timesteps"))
    parser.add_argument("--seed", type=non_negative_int, default=defaults.seed,
                        help=help_of("seed"))
    parser.add_argument("--eval-games", type=game_count, default=defaults.eval_games,
                        help=help_of("eval_games"))
    parser.add_argument("--net-arch", type=positive_int, nargs="+", default=None,
                        help=help_of("net_arch"))
    parser.add_argument("--no-sweep", dest="sweep", action="store_false",
                        help=help_of("sweep"))
    parser.add_argument("--pfsp-self", choices=PFSP_SELF, default=defaults.pfsp_self,
                        help=help_of("pfsp_self"))
    parser.add_argument("--vector", type=non_negative_int, default=defaults.vector,
                        help=help_of("vector"))
    parser.add_argument("--scratch", default=None, help=help_of("scratch"))
    parser.add_argument("--resume", action="store_true", help=help_of("resume"))
    parser.add_argument("--progress", action="store_true", help=help_of("progress"))
    parser.add_argument("--stage", choices=STAGES, default=defaults.stage, help=help_of("stage"))
    namespace = parser.parse_args(argv)
    if namespace.resume and namespace.scratch is None:
        parser.error("--resume needs --scratch DIR, the folder of the runs to continue")
    args = Args(games=tuple(namespace.games), players=tuple(namespace.players),
                timesteps=namespace.timesteps, seed=namespace.seed,
                eval_games=namespace.eval_games,
                net_arch=None if namespace.net_arch is None else tuple(namespace.net_arch),
                sweep=namespace.sweep, vector=namespace.vector, scratch=namespace.scratch,
                resume=namespace.resume, progress=namespace.progress, stage=namespace.stage)
    command = portable_command("python benchmarks/train_baselines.py",
                               argv if argv is not None else sys.argv[1:])
    try:
        run(args, command)
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
