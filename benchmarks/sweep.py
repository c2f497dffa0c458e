"""A small, recorded hyperparameter sweep of ``cardgym train`` (Optuna's TPE sampler).

Usage::

    python -m benchmarks.sweep --env power_hungry_pets --players 2 --trials 10 \\
        --timesteps 300000 --games 400 --vector 256 --output benchmarks/results

Each trial trains MaskablePPO with league self-play (``--league``: random, heuristic and
its own checkpoints, drawn by PFSP) for ``--timesteps`` learner steps, then plays
``--games`` games against the heuristic (and as many against random) with the
deterministic policy. The objective is the win rate against the heuristic. The space:

- ``net_arch``: 64x64, 128x128, 256x256 or 256x256x256;
- ``gamma``: 0.98, 0.99, 0.995 or 1.0;
- ``learning_rate``: log-uniform in [1e-4, 1e-3];
- ``ent_coef``: log-uniform in [1e-3, 5e-2], and ``ent_schedule``: kept throughout, or
  annealed linearly to 0 (``--ent-coef-end 0``);
- ``batch_size``: 256, 1024 or 4096; ``n_epochs``: 4 or 8; ``n_steps``: 32, 64 or 128
  rollout steps per game counted for 256 games, that is rollouts of 8,192 to 32,768
  decisions whatever the number of environments (:data:`ROLLOUT_GAMES`; 8 single-game
  envs then take 1,024 to 4,096 steps each).

Every finished trial is written at once to ``OUTPUT/sweep/GAME-Np.json`` (the settings
of the sweep, each trial's parameters, objective, evaluation and wall time, and the best
trial), and the table of every sweep in that folder to ``OUTPUT/sweep.md``.
``benchmarks/train_baselines.py`` trains the shipped baselines with the best trial's
parameters. ``--storage sqlite:///sweep.db`` keeps the study in a database, so that a
sweep that was stopped continues where it was (``--trials`` counts the trials in all).
The sampler is seeded, but the objective is a noisy measurement: a sweep run twice
samples the same first trials and may then part.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.model_card import read_card
from agents.train import TrainArgs, train
from cardgym.arguments import game_count, positive_int
from cardgym.registration import find_game, games, short_name

__all__ = ["NET_ARCHS", "SPACE", "main", "settings_of", "sweep"]

NET_ARCHS = {"64x64": (64, 64), "128x128": (128, 128), "256x256": (256, 256),
             "256x256x256": (256, 256, 256)}

#: The search space, as (kind, arguments) per parameter: what ``trial.suggest_*`` gets.
SPACE: dict[str, tuple[str, tuple[Any, ...]]] = {
    "net_arch": ("categorical", (tuple(NET_ARCHS),)),
    "gamma": ("categorical", ((0.98, 0.99, 0.995, 1.0),)),
    "learning_rate": ("log", (1e-4, 1e-3)),
    "ent_coef": ("log", (1e-3, 5e-2)),
    "ent_schedule": ("categorical", (("constant", "to_zero"),)),
    "batch_size": ("categorical", ((256, 1024, 4096),)),
    "n_epochs": ("categorical", ((4, 8),)),
    "n_steps": ("categorical", ((32, 64, 128),)),
}


#: ``n_steps`` in the space counts steps per game for this many games.
ROLLOUT_GAMES = 256


def settings_of(params: Mapping[str, Any], envs: int = ROLLOUT_GAMES) -> dict[str, Any]:
    """The :class:`TrainArgs` fields a trial's parameters stand for, with ``envs``
    environments (``--vector N`` games, or ``n_envs``) sharing each rollout."""
    return {
        "net_arch": NET_ARCHS[str(params["net_arch"])],
        "gamma": float(params["gamma"]),
        "learning_rate": float(params["learning_rate"]),
        "ent_coef": float(params["ent_coef"]),
        "ent_coef_end": 0.0 if params["ent_schedule"] == "to_zero" else None,
        "batch_size": int(params["batch_size"]),
        "n_epochs": int(params["n_epochs"]),
        "n_steps": max(1, int(params["n_steps"]) * ROLLOUT_GAMES // envs),
    }


def _suggest(trial: Any) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, (kind, arguments) in SPACE.items():
        if kind == "categorical":
            params[name] = trial.suggest_categorical(name, list(arguments[0]))
        else:
            params[name] = trial.suggest_float(name, *arguments, log=True)
    return params


def sweep(game: str, players: int, trials: int, timesteps: int, games: int, vector: int,
          seed: int, runs: Path, output: Path | None, storage: str | None = None,
          out: Any = sys.stderr) -> dict[str, Any]:
    """Run the sweep; returns what ``GAME-Np.json`` holds."""
    import optuna

    env_id = find_game(game).env_id
    name = f"{short_name(env_id)}-{players}p"
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        study_name=name, direction="maximize", storage=storage, load_if_exists=True,
        sampler=optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(5, trials)))
    settings = {"game": env_id, "players": players, "timesteps": timesteps, "games": games,
                "vector": vector, "seed": seed, "objective": "win rate against heuristic",
                "opponents": ["random", "heuristic", "self"], "league": True,
                "space": {key: [kind, list(arguments)] for key, (kind, arguments) in
                          SPACE.items()}}

    def objective(trial: Any) -> float:
        params = _suggest(trial)
        started = time.perf_counter()
        args = TrainArgs(game=env_id, players=players, timesteps=timesteps,
                         opponents=("random", "heuristic", "self"), seed=seed,
                         vector=vector, output=runs, run_name=f"{name}-trial{trial.number}",
                         checkpoint_every=max(timesteps // 5, 1), eval_every=timesteps,
                         eval_games=games, eval_opponents=("heuristic", "random"),
                         league=True, progress=False, tensorboard=False, overwrite=True,
                         **settings_of(params, vector or TrainArgs.n_envs))
        card = read_card(train(args)) or {}
        evaluation = card.get("final_evaluation", {})
        trial.set_user_attr("evaluation", evaluation)
        trial.set_user_attr("wall_seconds", round(time.perf_counter() - started, 1))
        trial.set_user_attr("timesteps", card.get("timesteps"))
        value = float(evaluation["win_rate_vs_heuristic"])
        print(f"sweep {name}: trial {trial.number} {params} -> {value:.3f} "
              f"({time.perf_counter() - started:.0f} s)", file=out, flush=True)
        return value

    def save(study: Any, _trial: Any = None) -> None:
        if output is not None:
            write_results(output, name, record(study, settings))

    remaining = trials - len([t for t in study.trials if t.state.is_finished()])
    if remaining > 0:
        study.optimize(objective, n_trials=remaining, callbacks=[save])
    result = record(study, settings)
    if output is not None:
        write_results(output, name, result)
    return result


def record(study: Any, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The sweep as plain data: its settings, every finished trial, the best one."""
    rows = []
    for trial in study.trials:
        if trial.value is None:
            continue
        rows.append({"number": trial.number, "params": dict(trial.params),
                     "value": round(float(trial.value), 4), **trial.user_attrs})
    best = max(rows, key=lambda row: row["value"]) if rows else None
    return {**settings, "trials": rows, "best": best}


def write_results(output: Path, name: str, result: Mapping[str, Any]) -> None:
    folder = output / "sweep"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    sweeps = [json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))]
    (output / "sweep.md").write_text(format_tables(sweeps), encoding="utf-8")


def best_settings(results: Path, game: str, players: int,
                  envs: int = ROLLOUT_GAMES) -> tuple[dict[str, Any], str] | None:
    """The :class:`TrainArgs` fields of the best trial of the sweep of ``game`` at
    ``players`` in ``results/sweep/`` (or of its nearest swept table size), with a note
    of where they come from; ``None`` if the game was not swept."""
    folder = results / "sweep"
    name = short_name(find_game(game).env_id)
    found = sorted(folder.glob(f"{name}-*p.json"),
                   key=lambda path: abs(int(path.stem.rsplit("-", 1)[1][:-1]) - players))
    for path in found:
        data = json.loads(path.read_text())
        if data.get("best"):
            best = data["best"]
            return settings_of(best["params"], envs), (f"{path.name} trial {best['number']} "
                                                 f"(win rate {best['value']} against heuristic)")
    return None


def format_tables(sweeps: Sequence[Mapping[str, Any]]) -> str:
    lines = ["# Hyperparameter sweeps", "",
             "Optuna TPE over the space in `benchmarks/sweep.py`; each trial trains with league "
             "self-play (random, heuristic, own checkpoints by PFSP) and is scored by its win "
             "rate against the heuristic (deterministic policy, learner seat drawn per game). "
             "Generated by `python -m benchmarks.sweep`; the shipped baselines use each "
             "table's best trial.", ""]
    for data in sweeps:
        lines += [f"## {short_name(data['game'])}, {data['players']} players", "",
                  f"{len(data['trials'])} trials of {data['timesteps']} steps "
                  f"(vector {data['vector'] or 'off'}), {data['games']} evaluation games "
                  f"against each opponent, seed {data['seed']}.", "",
                  "| trial | vs heuristic | vs random | net | gamma | lr | ent | schedule | "
                  "batch | epochs | n_steps | wall s |",
                  "|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---:|"]
        for row in sorted(data["trials"], key=lambda r: -r["value"]):
            p, evaluation = row["params"], row.get("evaluation", {})
            lines.append(
                f"| {row['number']} | {row['value']:.3f} | "
                f"{evaluation.get('win_rate_vs_random', float('nan')):.3f} | {p['net_arch']} | "
                f"{p['gamma']} | {p['learning_rate']:.2e} | {p['ent_coef']:.2e} | "
                f"{p['ent_schedule']} | {p['batch_size']} | {p['n_epochs']} | {p['n_steps']} | "
                f"{row.get('wall_seconds', 0):.0f} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sweep.py", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", nargs="+", default=[], metavar="GAME",
                        help="games (default the library's own, those with baselines)")
    parser.add_argument("--players", type=positive_int, default=2)
    parser.add_argument("--trials", type=positive_int, default=10)
    parser.add_argument("--timesteps", type=positive_int, default=300_000)
    parser.add_argument("--games", type=game_count, default=400,
                        help="evaluation games against the heuristic and against random")
    parser.add_argument("--vector", type=int, default=256,
                        help="games on the batched engine where the game has one (0: off)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=Path, default=None,
                        help="folder for the trials' runs (default a temporary folder)")
    parser.add_argument("--output", type=Path, default=None,
                        help="write OUTPUT/sweep/GAME-Np.json and OUTPUT/sweep.md")
    parser.add_argument("--storage", default=None,
                        help="an Optuna storage URL (sqlite:///sweep.db) to continue a sweep")
    args = parser.parse_args(argv)
    chosen = args.env or [g.name for g in games() if args.players in g.baseline_players]
    runs = args.runs or Path(tempfile.mkdtemp(prefix="sweep-"))
    for game in chosen:
        vector = args.vector if find_game(game).batched is not None else 0
        result = sweep(game, args.players, args.trials, args.timesteps, args.games, vector,
                       args.seed, runs, args.output, args.storage)
        best = result["best"]
        print(f"{short_name(find_game(game).env_id)} {args.players}p: best trial "
              f"{best['number']} {best['params']} -> {best['value']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
