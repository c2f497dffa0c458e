"""PPO on Ray RLlib for a cardgym game (``cardgym train GAME --backend rllib``).

One file in the cleanrl shape: a dataclass of arguments, seeding first, progress
shown, results written where the evaluation reads them::

    cardgym train power_hungry_pets --backend rllib --players 3 --iterations 50 \\
        --env-runners 4 --train-batch-size 8000 --minibatch-size 512

RLlib's new API stack does the work: EnvRunner actors play
:class:`~agents.rllib.env.CardGameMultiAgentEnv` (every action checked against
the mask), a local Learner updates the action-masking PPO module
(:mod:`agents.rllib.module`) with PPO. Seats map to modules:

- by default one module, ``shared``, plays every seat (self-play with the
  current weights);
- with ``self_play`` one seat per game (drawn from the episode id) plays
  ``shared`` and the others play frozen snapshots ``snapshot_0`` ..: copies of
  ``shared`` taken at the start and every ``snapshot_every`` iterations, the
  oldest replaced first. Only ``shared`` is trained.

A new local Ray instance starts (``num_cpus`` of this machine; never a cluster that
``ray start`` left running here) unless ``RAY_ADDRESS`` names a running cluster to
join; the env runners then spread over its nodes (every node needs cardgym
installed with the ``rllib`` extra). A run writes into
``OUTPUT/GAME-Np-seedS-rllib/``:

- ``checkpoint/``: the algorithm checkpoint (``Algorithm.from_checkpoint`` resumes
  it; the agent spec ``rllib+pickle:PATH`` plays its ``shared`` module), saved every
  ``save_every`` iterations and at the end;
- ``model.json``: the model card (game, players, options, settings, environment
  steps, steps per second, actions checked, final evaluation);
- ``progress.csv``: one row per iteration.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agents.evaluate import evaluate
from agents.options import as_bound
from agents.policy_file import check_network_size
from agents.rllib import CARD, SHARED_MODULE
from agents.rllib.policy import RllibPolicy
from agents.runs import hold_run_folder, refuse_overwrite, remove_partial_files, run_folder
from cardgym.arguments import UsageError
from cardgym.files import atomic_write, os_problem
from cardgym.registration import find_game, short_name

__all__ = ["LEGAL_ACTIONS", "ILLEGAL_ACTIONS", "RllibTrainArgs", "SelfPlayMapping",
           "build_config", "connect_ray", "shared_mapping", "snapshot_ids", "train"]

#: Env-runner metrics: actions checked against the mask and taken, and refused.
LEGAL_ACTIONS = "cardgym_legal_actions"
ILLEGAL_ACTIONS = "cardgym_illegal_actions"
#: What an earlier run left in its folder, which a new run refuses to replace.
RUN_FILES = ("checkpoint", CARD, "progress.csv")


@dataclass
class RllibTrainArgs:
    """Arguments of an RLlib training run (the command line's options, same names)."""

    game: str
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    iterations: int = 10
    env_runners: int = 2
    envs_per_env_runner: int = 1
    train_batch_size: int = 4000
    minibatch_size: int = 256
    num_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.99
    ent_coef: float = 0.01
    net_arch: tuple[int, ...] = (256, 256)
    self_play: bool = False
    snapshots: int = 3
    snapshot_every: int = 5
    save_every: int = 10
    num_cpus: int | None = None
    eval_games: int = 200
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    output: Path = Path("runs")
    run_name: str | None = None
    progress: bool = True
    overwrite: bool = False

    def __post_init__(self) -> None:
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(f"minibatch_size ({self.minibatch_size}) must not exceed "
                             f"train_batch_size ({self.train_batch_size})")
        for name in ("iterations", "envs_per_env_runner", "train_batch_size", "minibatch_size",
                     "num_epochs", "snapshots", "snapshot_every", "save_every"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.env_runners < 0:
            raise ValueError(f"env_runners must be >= 0, got {self.env_runners}")

    def check_network(self) -> None:
        """Refuse a ``net_arch`` whose network (policy and value layers, as MaskablePPO's)
        would hold more parameters than a policy file loads, before Ray starts or
        anything is allocated (:func:`agents.policy_file.check_network_size`).

        Raises:
            ValueError: naming the size asked for and the limit.
        """
        layout = as_bound(find_game(self.game), self.players, self.options).layout
        check_network_size(self.net_arch, layout.observation_spec.size, layout.num_actions,
                           f"{short_name(self.game)} at {self.players} players")

    @property
    def run_dir(self) -> Path:
        name = self.run_name or (f"{short_name(find_game(self.game).env_id)}-{self.players}p-"
                                 f"seed{self.seed}-rllib")
        return run_folder(self.output, name)


# ------------------------------------------------------------ seats to modules


def snapshot_ids(count: int) -> list[str]:
    """The module ids of the frozen snapshots: ``snapshot_0`` .. ``snapshot_{count-1}``."""
    return [f"snapshot_{slot}" for slot in range(count)]


def shared_mapping(agent_id: Any, episode: Any, **kwargs: Any) -> str:
    """Every seat plays the one trained module."""
    return SHARED_MODULE


class SelfPlayMapping:
    """One seat per episode plays ``shared``, the others frozen snapshots.

    The learning seat and each opponent's snapshot follow from a hash of the
    episode id, so they are fixed for the episode and spread evenly over seats.
    """

    def __init__(self, num_players: int, snapshots: int) -> None:
        self.num_players = num_players
        self.snapshots = snapshot_ids(snapshots)

    def __call__(self, agent_id: Any, episode: Any, **kwargs: Any) -> str:
        key = zlib.crc32(str(episode.id_).encode())
        seat = int(str(agent_id).rpartition("_")[2])
        if seat == key % self.num_players:
            return SHARED_MODULE
        return self.snapshots[(key // self.num_players + seat) % len(self.snapshots)]


# ------------------------------------------------------------------ config


def _callbacks_class() -> type:
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class ActionCountCallbacks(RLlibCallback):  # type: ignore[misc]
        """Reports the actions each env runner's envs checked (and refused)."""

        def __init__(self) -> None:
            super().__init__()
            self._reported = (0, 0)

        def on_sample_end(self, *, env_runner: Any = None, metrics_logger: Any = None,
                          **kwargs: Any) -> None:
            if env_runner is None or metrics_logger is None:
                return
            envs = [env.unwrapped for env in env_runner.env.envs]
            legal = sum(env.legal_actions_taken for env in envs)
            illegal = sum(env.illegal_actions for env in envs)
            metrics_logger.log_value(LEGAL_ACTIONS, legal - self._reported[0],
                                     reduce="lifetime_sum")
            metrics_logger.log_value(ILLEGAL_ACTIONS, illegal - self._reported[1],
                                     reduce="lifetime_sum")
            self._reported = (legal, illegal)

    return ActionCountCallbacks


def build_config(args: RllibTrainArgs) -> Any:
    """The ``PPOConfig`` of a run (not built)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from agents.rllib.env import CardGameMultiAgentEnv
    from agents.rllib.module import ActionMaskingModule

    game = find_game(args.game)
    model_config = {"fcnet_hiddens": list(args.net_arch), "head_fcnet_hiddens": []}
    module_ids = [SHARED_MODULE] + (snapshot_ids(args.snapshots) if args.self_play else [])
    mapping: Callable[..., str] = (SelfPlayMapping(args.players, args.snapshots)
                                   if args.self_play else shared_mapping)
    return (
        PPOConfig()
        .environment(CardGameMultiAgentEnv,
                     # The game bound once here; the env runners trust it.
                     env_config={"bound": as_bound(game, args.players, args.options)},
                     # RLlib's checker steps a random, usually illegal, action.
                     disable_env_checking=True)
        .env_runners(num_env_runners=args.env_runners,
                     num_envs_per_env_runner=args.envs_per_env_runner)
        .multi_agent(policies=set(module_ids), policy_mapping_fn=mapping,
                     policies_to_train=[SHARED_MODULE])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            module_id: RLModuleSpec(module_class=ActionMaskingModule,
                                    model_config=model_config)
            for module_id in module_ids}))
        .training(train_batch_size_per_learner=args.train_batch_size,
                  minibatch_size=args.minibatch_size, num_epochs=args.num_epochs,
                  lr=args.learning_rate, gamma=args.gamma, entropy_coeff=args.ent_coef)
        .callbacks(_callbacks_class())
        .debugging(seed=args.seed)
    )


def connect_ray(num_cpus: int | None = None) -> bool:
    """Join the cluster ``RAY_ADDRESS`` names, or start Ray on this machine with
    ``num_cpus`` (all when None). Returns whether this call started the connection
    (False when Ray was already initialised)."""
    import ray

    if ray.is_initialized():
        return False
    address = os.environ.get("RAY_ADDRESS")
    if address:
        if num_cpus is not None:
            raise ValueError("num_cpus sizes a local Ray instance; with RAY_ADDRESS set the "
                             "cluster's own resources apply")
        try:
            ray.init(address=address)
        except ConnectionError as error:
            raise ConnectionError(
                f"cannot join the Ray cluster at RAY_ADDRESS={address} ({error}); check that "
                f"it runs (ray status) and, since Ray clusters authenticate with a token, that "
                f"RAY_AUTH_MODE=token is set here with the cluster's token") from error
    else:
        # "local": a new instance even when a cluster started on this machine is running.
        try:
            ray.init(address="local", num_cpus=num_cpus, include_dashboard=False)
        except Exception as error:  # Ray reports a start-up that timed out as a bare Exception
            ray.shutdown()
            cause = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
            raise UsageError(f"Ray could not start on this machine: {cause} (a busy or "
                             "small machine: try again, or lower --num-cpus)") from None
    return True


# ------------------------------------------------------------------ training


def _copy_into_snapshot(algorithm: Any, slot: str) -> None:
    """Freeze the current ``shared`` weights as ``slot`` on the learner and runners."""
    learners = algorithm.learner_group
    weights = learners.get_weights(module_ids=[SHARED_MODULE])[SHARED_MODULE]
    learners.set_weights({slot: weights})
    algorithm.env_runner_group.sync_weights(policies=[slot], from_worker_or_learner_group=learners,
                                            inference_only=True)


def _row(iteration: int, result: Mapping[str, Any], seconds: float) -> dict[str, Any]:
    runners = result.get("env_runners", {})
    steps = int(runners.get("num_env_steps_sampled", 0))
    return {
        "iteration": iteration,
        "env_steps": int(result.get("num_env_steps_sampled_lifetime", 0)),
        "iteration_env_steps": steps,
        "episodes": int(runners.get("num_episodes_lifetime", 0)),
        "episode_len_mean": round(float(runners.get("episode_len_mean", float("nan"))), 2),
        "seconds": round(seconds, 3),
        "env_steps_per_second": round(steps / seconds, 1) if seconds > 0 else 0.0,
        "legal_actions": int(runners.get(LEGAL_ACTIONS, 0)),
        "illegal_actions": int(runners.get(ILLEGAL_ACTIONS, 0)),
    }


def train(args: RllibTrainArgs) -> Path:
    """Train, checkpoint and evaluate; returns the checkpoint directory.

    Raises:
        IllegalMoveError: (wrapped by RLlib) if an illegal action ever reached a game.
        ConnectionError: ``RAY_ADDRESS`` names a cluster this process cannot join.
        FileExistsError: the run folder holds an earlier run, and not ``args.overwrite``.
        RunInUseError: another run is writing into the folder.
        UsageError: Ray could not start on this machine.
        OutputError: a file of the run cannot be written; the message names it.
        ValueError: a network larger than a policy file loads
            (:meth:`RllibTrainArgs.check_network`).
    """
    args.check_network()
    refuse_overwrite(args.run_dir, RUN_FILES, args.overwrite)
    with hold_run_folder(args.run_dir):
        refuse_overwrite(args.run_dir, RUN_FILES, args.overwrite)
        remove_partial_files(args.run_dir)
        return _train(args)


def _train(args: RllibTrainArgs) -> Path:
    import ray
    import torch

    game = find_game(args.game)
    run_dir = args.run_dir
    torch.manual_seed(args.seed)
    started_ray = connect_ray(args.num_cpus)
    checkpoint = (run_dir / "checkpoint").resolve()
    try:
        algorithm = build_config(args).build_algo()
        try:
            started = time.perf_counter()
            rows, refreshes = _iterate(algorithm, args, run_dir, checkpoint)
            seconds = time.perf_counter() - started
        finally:
            algorithm.stop()
    finally:
        if started_ray:
            ray.shutdown()
    last = rows[-1]
    summary = {
        "iterations": args.iterations,
        "timesteps": last["env_steps"],
        "train_seconds": round(seconds, 1),
        "env_steps_per_second": round(last["env_steps"] / seconds, 1),
        "legal_actions": last["legal_actions"],
        "illegal_actions": last["illegal_actions"],
        "snapshot_refreshes": refreshes,
        "final_evaluation": _evaluate(args, checkpoint),
    }
    card = json.dumps(_card(args, game.env_id, summary), indent=2, sort_keys=True, default=str)
    atomic_write(run_dir / CARD, card + "\n")
    return checkpoint


def _iterate(algorithm: Any, args: RllibTrainArgs, run_dir: Path, checkpoint: Path,
             ) -> tuple[list[dict[str, Any]], int]:
    """The training iterations, with progress, snapshots and checkpoints; returns the
    progress rows and how many snapshots were refreshed."""
    rows: list[dict[str, Any]] = []
    slots = snapshot_ids(args.snapshots)
    refreshes = 0
    if args.self_play:
        for slot in slots:
            _copy_into_snapshot(algorithm, slot)
    for iteration in range(1, args.iterations + 1):
        begin = time.perf_counter()
        result = algorithm.train()
        rows.append(_row(iteration, result, time.perf_counter() - begin))
        _write_progress(run_dir / "progress.csv", rows)
        if args.progress:
            row = rows[-1]
            print(f"rllib: iteration {iteration}/{args.iterations}: {row['env_steps']} env "
                  f"steps, {row['episodes']} episodes, {row['env_steps_per_second']} "
                  f"steps/s", file=sys.stderr)
        if args.self_play and iteration % args.snapshot_every == 0:
            _copy_into_snapshot(algorithm, slots[refreshes % len(slots)])
            refreshes += 1
        if iteration % args.save_every == 0:
            save_checkpoint(algorithm, checkpoint)
    save_checkpoint(algorithm, checkpoint)
    return rows, refreshes


def save_checkpoint(algorithm: Any, checkpoint: Path) -> None:
    """The algorithm's checkpoint folder, replaced whole: written beside it under a
    temporary name, then swapped in, so that a run cut off while saving leaves the
    previous checkpoint (as ``checkpoint`` or, between the two renames,
    ``.checkpoint.previous``)."""
    import shutil

    fresh = checkpoint.with_name(f".{checkpoint.name}.partial")
    previous = checkpoint.with_name(f".{checkpoint.name}.previous")
    for leftover in (fresh, previous):
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        algorithm.save_to_path(str(fresh))
        if checkpoint.exists():
            checkpoint.rename(previous)
        fresh.rename(checkpoint)
    except OSError as error:
        shutil.rmtree(fresh, ignore_errors=True)
        raise os_problem(checkpoint, error) from None
    shutil.rmtree(previous, ignore_errors=True)


def _write_progress(path: Path, rows: list[dict[str, Any]]) -> None:
    table = io.StringIO(newline="")
    writer = csv.DictWriter(table, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    atomic_write(path, table.getvalue())


def _evaluate(args: RllibTrainArgs, checkpoint: Path) -> dict[str, float]:
    """Win rate of the trained module (deterministic) against each evaluation opponent."""
    game = find_game(args.game)
    # The checkpoint this run has just written: unpickling it trusts only ourselves.
    policy = RllibPolicy.load(checkpoint, game=game, num_players=args.players,
                              options=args.options, trust_pickle=True)
    rates: dict[str, float] = {}
    for opponent in args.eval_opponents:
        result = evaluate(game, args.players, [policy, opponent], games=args.eval_games,
                          seed=10_000 + args.seed, workers=1, options=args.options)
        rates[f"win_rate_vs_{opponent}"] = round(result.agents[0].win_rate, 4)
    return rates


def _card(args: RllibTrainArgs, env_id: str, summary: Mapping[str, Any]) -> dict[str, Any]:
    settings = {key: value for key, value in asdict(args).items()
                if key not in ("game", "output", "run_name", "progress", "overwrite")}
    return {"game": env_id, "players": args.players, "options": args.options,
            "algorithm": "PPO (Ray RLlib, new API stack)", "backend": "rllib",
            "checkpoint": "checkpoint", "module": SHARED_MODULE, "settings": settings,
            **summary}
