"""Self-play training of MaskablePPO on a cardgym game (``cardgym train``).

One file in the cleanrl shape: a dataclass of arguments, seeding first, progress
shown, results written where the evaluation and the notebooks read them::

    cardgym train power_hungry_pets --players 2 --timesteps 200000 \\
        --opponents random heuristic self --seed 0 --output runs

The learner holds one seat per episode (drawn at random); the other seats are drawn
from an opponent pool: ``random``, ``heuristic``, ``model:PATH`` and ``self`` (frozen
checkpoints of the learner, saved every ``checkpoint_every`` steps; the latest five
are kept in the pool). A run writes into ``OUTPUT/GAME-Np-seedS/``:

- ``model.zip`` (SB3's file, to resume training; loading it unpickles it),
  ``model.safetensors`` (the policy file: the network's tensors only,
  :mod:`agents.policy_file`) and ``model.json`` (the model card: game, players,
  options, budget, final evaluation, how to rebuild the network); ``model:PATH``
  plays the policy file;
- ``checkpoints/step_N.zip`` with their policy files and cards (the ``self`` pool
  plays the policy files); ``tb/`` (TensorBoard logs: ``tensorboard --logdir``);
- ``eval.csv``: the periodic evaluation, win rate against each evaluation opponent.

A run never writes outside ``OUTPUT`` (the run name is one folder name), and never
replaces the model of an earlier run unless ``overwrite`` (``--overwrite``) says so.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy_file import save_policy_file
from agents.runs import check_run_name, refuse_overwrite, run_folder
from agents.sb3 import ModelPolicy
from agents.single_agent import SingleAgentEnv
from cardgym.progress import Progress
from cardgym.registration import find_game, short_name

__all__ = ["MODEL_FILES", "TrainArgs", "check_run_name", "refuse_overwrite", "run_folder",
           "train", "win_rate"]


@dataclass
class TrainArgs:
    """Arguments of a training run (the command line's options, with the same names)."""

    game: str
    players: int = 2
    timesteps: int = 200_000
    opponents: tuple[str, ...] = ("random", "heuristic", "self")
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    n_envs: int = 8
    subprocess: bool = False
    #: Games on the game's batched engine (``--vector N``); 0: ``n_envs`` AEC envs.
    vector: int = 0
    output: Path = Path("runs")
    run_name: str | None = None
    checkpoint_every: int = 50_000
    eval_every: int = 50_000
    eval_games: int = 200
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    learning_rate: float = 3e-4
    n_steps: int = 256
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.99
    ent_coef: float = 0.01
    net_arch: tuple[int, ...] = (256, 256)
    #: A progress bar with the time left, on stderr when it is a terminal.
    progress: bool = True
    tensorboard: bool = True
    verbose: int = 0
    overwrite: bool = False

    @property
    def run_dir(self) -> Path:
        name = self.run_name or f"{short_name(find_game(self.game).env_id)}-{self.players}p-seed{self.seed}"
        return run_folder(self.output, name)


#: The files of a finished sb3 run that a new run in the same folder would replace.
MODEL_FILES = ("model.zip", "model.safetensors", "model.json")


def _make_env(game: str, players: int, opponents: Sequence[str], options: Mapping[str, Any],
              seed: int) -> Any:
    def build() -> SingleAgentEnv:
        env = SingleAgentEnv(game, players, opponents, options)
        env.reset(seed=seed)
        return env

    return build


def _training_envs(args: TrainArgs) -> Any:
    """The learner's environments: ``n_envs`` single-agent envs (in this process or
    in workers), or ``vector`` games on the batched engine."""
    if args.vector:
        from agents.vector_env import BatchedSelfPlayEnv

        return BatchedSelfPlayEnv(args.game, args.vector, args.players, args.opponents,
                                  args.options, seed=args.seed)
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    builders = [_make_env(args.game, args.players, args.opponents, args.options, args.seed + i)
                for i in range(args.n_envs)]
    if args.subprocess and args.n_envs > 1:
        return SubprocVecEnv(builders)
    return DummyVecEnv(builders)


def win_rate(model: Any, game: str, players: int, opponent: str, options: Mapping[str, Any],
             games: int, seed: int) -> float:
    """Share of ``games`` the deterministic model wins (final reward > 0) against
    ``opponent`` in every other seat, the learner's seat drawn per game."""
    policy = ModelPolicy(model.policy)
    env = SingleAgentEnv(game, players, [opponent], options)
    rng = np.random.default_rng(seed)
    wins = 0
    for episode in range(games):
        observation, _ = env.reset(seed=seed + episode)
        done, reward = False, 0.0
        while not done:
            action = policy.act(observation, env.action_masks().astype(np.int8), rng)
            observation, reward, done, _, _ = env.step(action)
        wins += reward > 0
    return wins / games


def train(args: TrainArgs) -> Path:
    """Train and save a model; returns the path of ``model.zip`` (its policy file
    ``model.safetensors`` and card ``model.json`` beside it).

    Raises:
        FileExistsError: the run folder holds an earlier run's model, and not
            ``args.overwrite``; nothing is written.
        ValueError: a run name that would leave the output folder.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    game = find_game(args.game)
    run_dir = args.run_dir
    refuse_overwrite(run_dir, MODEL_FILES, args.overwrite)
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    vec_env = _training_envs(args)
    vec_env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy", vec_env, learning_rate=args.learning_rate, n_steps=args.n_steps,
        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
        ent_coef=args.ent_coef, seed=args.seed, verbose=args.verbose, device="cpu",
        policy_kwargs={"net_arch": list(args.net_arch)},
        tensorboard_log=str(run_dir / "tb") if args.tensorboard else None,
    )
    eval_path = run_dir / "eval.csv"
    eval_rows: list[dict[str, Any]] = []

    class SelfPlayCallback(BaseCallback):  # type: ignore[misc]
        """Checkpoints into the opponent pool, and periodic evaluation."""

        def __init__(self) -> None:
            super().__init__()
            self.next_checkpoint = args.checkpoint_every
            self.next_eval = args.eval_every

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            if steps >= self.next_checkpoint:
                self.next_checkpoint += args.checkpoint_every
                path = run_dir / "checkpoints" / f"step_{steps}.zip"
                self.model.save(path)
                save_policy_file(self.model.policy, path, _card(args, game.env_id, steps, {}))
                self.training_env.env_method("add_checkpoint", str(path))
            if steps >= self.next_eval:
                self.next_eval += args.eval_every
                self._evaluate(steps)
            return True

        def _evaluate(self, steps: int) -> None:
            row: dict[str, Any] = {"timesteps": steps}
            for opponent in args.eval_opponents:
                rate = win_rate(self.model, args.game, args.players, opponent, args.options,
                                args.eval_games, seed=10_000 + args.seed)
                row[f"win_rate_vs_{opponent}"] = round(rate, 4)
                self.logger.record(f"eval/win_rate_vs_{opponent}", rate)
            eval_rows.append(row)
            with eval_path.open("w", newline="") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(row))
                writer.writeheader()
                writer.writerows(eval_rows)

    class ProgressCallback(BaseCallback):  # type: ignore[misc]
        """The learner's steps on a progress bar (stderr, on a terminal only)."""

        def __init__(self, bar: Progress) -> None:
            super().__init__()
            self.bar = bar

        def _on_step(self) -> bool:
            self.bar.update(self.num_timesteps - self.bar.done)
            return True

    started = time.perf_counter()
    callback = SelfPlayCallback()
    with Progress(args.timesteps, f"train {short_name(game.env_id)}", "step",
                  enabled=args.progress) as bar:
        model.learn(total_timesteps=args.timesteps, callback=[callback, ProgressCallback(bar)],
                    tb_log_name="ppo")
    seconds = time.perf_counter() - started
    if not eval_rows or eval_rows[-1]["timesteps"] != model.num_timesteps:
        callback._evaluate(model.num_timesteps)
    vec_env.close()
    path = run_dir / "model.zip"
    model.save(path)
    summary = {"train_seconds": round(seconds, 1),
               "env_steps_per_second": round(model.num_timesteps / seconds, 1),
               "final_evaluation": eval_rows[-1]}
    save_policy_file(model.policy, path, _card(args, game.env_id, model.num_timesteps, summary))
    return path


def _card(args: TrainArgs, env_id: str, steps: int, extra: Mapping[str, Any]) -> dict[str, Any]:
    settings = {k: v for k, v in asdict(args).items()
                if k not in ("game", "output", "run_name", "overwrite")}
    return {"game": env_id, "players": args.players, "options": args.options,
            "algorithm": "MaskablePPO (sb3-contrib)", "timesteps": steps,
            "settings": settings, **extra}
