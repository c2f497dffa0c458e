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

With ``league`` (``--league``) opponents are drawn by prioritized fictitious
self-play instead of uniformly: every distinct spec and each of the latest
``league_size`` checkpoints is a member, drawn more often the less the learner beats
it (:mod:`agents.league`); the members and the learner's record against each go to
``league.json``, the model card and TensorBoard (``league/``). ``ent_coef_end``
(``--ent-coef-end``) moves the entropy coefficient linearly from ``ent_coef`` to it
over the run. Each checkpoint also holds the optimizer's state
(``step_N.optimizer.safetensors``), and the end of a run is a checkpoint too, so that
``resume`` (``--resume``) continues a run from its latest checkpoint, up to
``timesteps`` in all, without unpickling anything (:mod:`agents.resume`). A resumed run
deals from ``seed`` plus the steps already trained, so it is reproducible but not the
same games as one run of the whole length.

A run never writes outside ``OUTPUT`` (the run name is one folder name), and never
replaces the model of an earlier run unless ``overwrite`` (``--overwrite``) or
``resume`` says so.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.league import SELF, League, checkpoint_label
from agents.options import bind_options
from agents.policy import Policy
from agents.policy_file import check_network_size, save_policy_file
from agents.resume import (
    RESUME_SETTINGS,
    checkpoint_files,
    checkpoints_in,
    describe_incomplete,
    incomplete_checkpoints,
    read_eval,
    restore,
    save_optimizer,
)
from agents.resume import resume_point as find_resume_point
from agents.runs import (
    check_run_name,
    hold_run_folder,
    refuse_overwrite,
    remove_partial_files,
    run_folder,
)
from agents.sb3 import ModelPolicy
from agents.single_agent import OpponentPool, SingleAgentEnv
from cardgym.files import atomic_save, atomic_write, file_digests
from cardgym.progress import Progress
from cardgym.registration import BoundGame, find_game, short_name

__all__ = ["MAX_ENVS", "MAX_ROLLOUT_BYTES", "MAX_VECTOR", "MODEL_FILES", "PFSP_SELF",
           "RESUME_SETTINGS", "RUN_FILES", "TORCH_THREADS", "TrainArgs", "check_run_name",
           "compared_settings", "opponent_models", "refuse_overwrite", "resume_point",
           "run_folder", "start_network", "train", "win_rate"]


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
    #: The entropy coefficient at the end of the run, reached linearly from
    #: ``ent_coef`` (``--ent-coef-end``); ``None`` keeps ``ent_coef`` throughout.
    ent_coef_end: float | None = None
    net_arch: tuple[int, ...] = (256, 256)
    #: Draw opponents by prioritized fictitious self-play (``--league``,
    #: :mod:`agents.league`) instead of uniformly from ``opponents``.
    league: bool = False
    pfsp_power: float = 2.0
    pfsp_floor: float = 0.1
    #: ``each``: every kept checkpoint of the learner is a league member of its own;
    #: ``group``: they share one member's weight (``--pfsp-self``, :mod:`agents.league`).
    pfsp_self: str = "each"
    #: Checkpoints of the learner the ``self`` pool keeps: the latest 5, or with
    #: ``league`` the latest ``league_size``.
    league_size: int = 20
    #: The network a new run starts from instead of random weights (``--start-from``):
    #: ``baseline`` (the shipped network of the game and table size), or a policy file,
    #: an SB3 zip of ``cardgym train`` or a run folder (:func:`agents.baselines.network_file`).
    #: The optimizer starts afresh; a resumed run continues from its checkpoint instead.
    start_from: str | None = None
    #: Continue the run in ``run_dir`` from its latest checkpoint (``--resume``).
    resume: bool = False
    #: A progress bar with the time left, on stderr when it is a terminal.
    progress: bool = True
    tensorboard: bool = True
    verbose: int = 0
    overwrite: bool = False

    @property
    def envs(self) -> int:
        """Games stepped side by side: ``vector`` on the batched engine, else ``n_envs``."""
        return self.vector or self.n_envs

    @property
    def kept_checkpoints(self) -> int:
        """How many of the learner's latest checkpoints the ``self`` pool draws from."""
        return self.league_size if self.league else 5

    def table(self) -> BoundGame:
        """The game bound to ``players`` and ``options``: checked the first time
        (``OptionsError`` for bad ones), then kept while they stay the same."""
        key = (self.game, self.players, repr(sorted(self.options.items())))
        kept = self.__dict__.get("_table")
        if kept is None or kept[0] != key:
            kept = (key, bind_options(find_game(self.game), self.players, self.options))
            self.__dict__["_table"] = kept
        bound: BoundGame = kept[1]
        return bound

    @property
    def run_dir(self) -> Path:
        name = self.run_name or f"{short_name(find_game(self.game).env_id)}-{self.players}p-seed{self.seed}"
        return run_folder(self.output, name)


#: How the league counts the learner's checkpoints (``TrainArgs.pfsp_self``).
PFSP_SELF = ("each", "group")

#: The files of a finished sb3 run.
MODEL_FILES = ("model.zip", "model.safetensors", "model.json")

#: What an earlier run leaves in its folder (a finished one, or one that was stopped):
#: a new run there is refused unless it resumes the earlier one or overwrites it.
RUN_FILES = (*MODEL_FILES, "checkpoints", "league.json", "eval.csv")

#: PyTorch's threads in a run, pinned for its whole length (the batched engine's
#: first call would otherwise change them) and stated in the card.
TORCH_THREADS = 1

#: The most AEC environments a run steps (``n_envs``).
MAX_ENVS = 1024

#: The most games on the batched engine (``--vector``).
MAX_VECTOR = 1 << 16

#: The most memory one rollout's observations and masks may take.
MAX_ROLLOUT_BYTES = 4 << 30


def check_budget(args: TrainArgs) -> None:
    """Refuse sizes that cannot run or cannot be met, before anything is built or written.

    A run steps ``envs`` games side by side (one step moves every game on), updates
    the network after each rollout of ``n_steps`` steps per game, and trains exactly
    ``timesteps`` steps in all: the last rollout is cut short to end there.

    Raises:
        ValueError: ``n_envs`` or ``vector`` beyond :data:`MAX_ENVS` /
            :data:`MAX_VECTOR`; ``timesteps`` not a whole number of steps of the
            ``envs`` games; ``batch_size`` larger than a rollout; a rollout whose
            observations would take more than :data:`MAX_ROLLOUT_BYTES`; a ``net_arch``
            whose network would hold more parameters than a policy file loads
            (:data:`agents.policy_file.MAX_PARAMETERS`). The message says what is
            allowed.
    """
    if not 1 <= args.n_envs <= MAX_ENVS:
        raise ValueError(f"n_envs must be 1 to {MAX_ENVS}, got {args.n_envs}")
    if not 0 <= args.vector <= MAX_VECTOR:
        raise ValueError(f"vector must be 1 to {MAX_VECTOR} games (0: no batched engine), "
                         f"got {args.vector}")
    for name in ("timesteps", "n_steps", "batch_size", "n_epochs", "checkpoint_every",
                 "eval_every", "league_size"):
        if getattr(args, name) < 1:
            raise ValueError(f"{name} must be at least 1, got {getattr(args, name)}")
    envs = args.envs
    if args.timesteps % envs:
        below, above = args.timesteps // envs * envs, -(-args.timesteps // envs) * envs
        fits = f"{below} or {above}" if below else str(above)
        raise ValueError(f"timesteps must be a whole number of steps of the {envs} games "
                         f"played side by side (each step moves every game on): "
                         f"{args.timesteps} is not; use {fits}")
    rollout = args.n_steps * envs
    if args.batch_size > rollout:
        raise ValueError(f"batch_size {args.batch_size} is larger than one rollout "
                         f"(n_steps {args.n_steps} x {envs} games = {rollout} steps); use at "
                         f"most {rollout}, or raise n_steps")
    layout = args.table().layout
    per_step = 4 * layout.observation_spec.size + layout.num_actions + 6 * 4
    if rollout * per_step > MAX_ROLLOUT_BYTES:
        most = MAX_ROLLOUT_BYTES // per_step
        raise ValueError(f"n_steps {args.n_steps} x {envs} games = {rollout} steps per "
                         f"rollout would hold {rollout * per_step / 2**30:.1f} GiB of "
                         f"observations; at most {MAX_ROLLOUT_BYTES >> 30} GiB, that is "
                         f"{most} steps of this game: lower n_steps, n_envs or vector")
    check_network_size(args.net_arch, layout.observation_spec.size, layout.num_actions,
                       f"{short_name(args.game)} at {args.players} players")


def start_network(args: TrainArgs) -> Any:
    """The network ``args.start_from`` names, checked to fit the run's game, table
    size and ``net_arch``.

    Raises:
        ModelError: no such policy file, or one for another game or table size.
        ValueError: its hidden layers are not ``args.net_arch``; the message gives its own.
    """
    from agents.baselines import network_file
    from agents.policy_file import load_network

    bound = args.table()
    weights = network_file(str(args.start_from), bound.game, args.players)
    network = load_network(weights, bound)
    layers = tuple(int(units) for units in network.net_arch)
    if layers != tuple(args.net_arch):
        have, want = (" ".join(map(str, units)) for units in (layers, args.net_arch))
        raise ValueError(f"start_from {weights} has hidden layers {have}, the run {want}: "
                         f"train with net_arch {have}")
    return network


def _make_env(bound: BoundGame, opponents: Sequence[str], seed: int, keep: int = 5,
              pool: OpponentPool | None = None) -> Any:
    def build() -> SingleAgentEnv:
        env = SingleAgentEnv(bound, opponents=opponents, keep=keep, pool=pool)
        env.reset(seed=seed)
        return env

    return build


def _shared_pool(vec_env: Any) -> OpponentPool | None:
    """The opponent pool the envs of this process share (the batched env's, or the
    in-process vector env's of :func:`_training_envs`), or ``None`` (envs in worker
    processes)."""
    pool = getattr(vec_env, "pool", None)
    if isinstance(pool, OpponentPool):
        return pool
    envs = getattr(vec_env, "envs", None)
    return envs[0].pool if envs and isinstance(envs[0], SingleAgentEnv) else None


def _training_envs(args: TrainArgs, seed: int | None = None,
                   built: Mapping[str, Policy] | None = None) -> Any:
    """The learner's environments: ``n_envs`` single-agent envs (in this process or
    in workers), or ``vector`` games on the batched engine; seeded by ``seed``
    (default ``args.seed``). The envs of this process share one opponent pool, made
    with the policies ``built`` already."""
    seed = args.seed if seed is None else seed
    bound = args.table()
    if args.vector:
        from agents.vector_env import BatchedSelfPlayEnv

        return BatchedSelfPlayEnv(bound, args.vector, opponents=args.opponents, seed=seed,
                                  keep=args.kept_checkpoints, built=built)
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    if args.subprocess and args.n_envs > 1:
        # One env per worker process, each with its own pool.
        return SubprocVecEnv([_make_env(bound, args.opponents, seed + i, args.kept_checkpoints)
                              for i in range(args.n_envs)])
    # The envs of this process share one pool: each opponent built, each checkpoint
    # loaded, once.
    pool = OpponentPool(bound, list(args.opponents), keep=args.kept_checkpoints, built=built)
    return DummyVecEnv([_make_env(bound, args.opponents, seed + i, pool=pool)
                        for i in range(args.n_envs)])


def win_rate(model: Any, game: str | BoundGame, players: int | None, opponent: str,
             options: Mapping[str, Any] | None, games: int, seed: int,
             env: SingleAgentEnv | None = None) -> float:
    """Share of ``games`` the deterministic model wins (final reward > 0) against
    ``opponent`` in every other seat, the learner's seat drawn per game (``game`` a
    bound game, with ``players`` and ``options`` ``None``, or a game id with them).
    ``env``: a learner env against ``opponent`` alone to play in (reseeded per game,
    so kept from one evaluation to the next); ``None`` builds one."""
    policy = ModelPolicy(model.policy)
    if env is None:
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


def train(args: TrainArgs, built: Mapping[str, Policy] | None = None) -> Path:
    """Train and save a model; returns the path of ``model.zip`` (its policy file
    ``model.safetensors`` and card ``model.json`` beside it). ``built``: opponents'
    policies built already for ``args.table()`` (the command line's, made when it
    checked the specs), by spec, which the envs of this process use instead of building
    them again.

    The run holds its folder for its whole length (:func:`agents.runs.hold_run_folder`);
    every file is written whole under a temporary name and renamed into place, and a
    checkpoint's card is written last, so that a run cut off at any point leaves the
    checkpoints before it complete and ``resume`` continues from the latest of them.

    Raises:
        FileExistsError: the run folder holds an earlier run (a model, checkpoints, a
            league or evaluations), and neither ``args.overwrite`` nor ``args.resume``;
            nothing is written.
        RunInUseError: another run is writing into the folder.
        ModelError: ``start_from`` names no policy file of this game and table size.
        ValueError: a run name that would leave the output folder, sizes out of range
            (:func:`check_budget`), league settings out of range (``pfsp_power``,
            ``pfsp_floor``, ``pfsp_self``); with ``resume``, a run without a complete
            checkpoint, one already trained ``timesteps`` steps, or settings that
            differ from the run's.
        OutputError: a file of the run cannot be written (no room left, a file where
            a folder must be); the message names the path and the cause.
    """
    args.table()
    _check_league_settings(args)
    check_budget(args)
    # Loaded (and checked) before anything is written; copied in when the run starts.
    initial = start_network(args) if args.start_from is not None and not args.resume else None
    run_dir = args.run_dir
    # Checked before the folder is made, and again while it is held.
    _check_earlier_run(args)
    with hold_run_folder(run_dir):
        start = _check_earlier_run(args)
        remove_partial_files(run_dir)
        if start is None:
            _clear_earlier_run(run_dir)
        else:
            _drop_incomplete(run_dir, start[0])
        return _train(args, run_dir, start, built, initial)


def _check_earlier_run(args: TrainArgs) -> tuple[int, Path] | None:
    """Where a resumed run starts (``None`` for a new run), after refusing to start a
    new run over an earlier one without ``overwrite``."""
    if args.resume:
        return resume_point(args)
    refuse_overwrite(args.run_dir, RUN_FILES, args.overwrite, resumable=True)
    return None


def _drop_incomplete(run_dir: Path, steps: int) -> None:
    """Remove the checkpoints later than ``steps`` that were cut off while written,
    saying so: the resumed run writes them again when it gets there."""
    note = describe_incomplete(run_dir, after=steps)
    if note is None:
        return
    print(f"train: resuming from step_{steps}; {note}, skipped", file=sys.stderr)
    for later, checkpoint, _ in incomplete_checkpoints(run_dir):
        if later > steps:
            for path in checkpoint_files(checkpoint):
                path.unlink(missing_ok=True)


def _train(args: TrainArgs, run_dir: Path, start: tuple[int, Path] | None,
           built: Mapping[str, Policy] | None = None, initial: Any = None) -> Path:
    import torch

    game = find_game(args.game)
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    done = 0 if start is None else start[0]
    # A resumed run draws new deals: the seed moves on by the steps already trained.
    seed = args.seed + done
    torch.manual_seed(seed)
    torch.set_num_threads(TORCH_THREADS)
    vec_env = _training_envs(args, seed, built)
    vec_env.seed(seed)
    model = _exact_ppo()(
        "MlpPolicy", vec_env, learning_rate=args.learning_rate, n_steps=args.n_steps,
        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
        ent_coef=args.ent_coef, seed=seed, verbose=args.verbose, device="cpu",
        policy_kwargs={"net_arch": list(args.net_arch)},
        tensorboard_log=str(run_dir / "tb") if args.tensorboard else None,
    )
    if start is not None:
        restore(model, game, args.players, args.options, *start)
    elif initial is not None:
        model.policy.load_state_dict(initial.state_dict())
    opponents = _Opponents(args, vec_env, run_dir, resumed=start is not None)
    eval_path = run_dir / "eval.csv"
    eval_rows = read_eval(eval_path) if start is not None else []
    callbacks = _callbacks(args, game.env_id, run_dir, opponents, eval_rows, eval_path, done)
    started = time.perf_counter()
    with Progress(args.timesteps, f"train {short_name(game.env_id)}", "step",
                  enabled=args.progress) as bar:
        callbacks.append(_progress_callback(bar))
        model.learn(total_timesteps=args.timesteps - done, callback=callbacks,
                    tb_log_name="ppo", reset_num_timesteps=start is None)
    seconds = time.perf_counter() - started
    if not eval_rows or eval_rows[-1]["timesteps"] != model.num_timesteps:
        callbacks[0].evaluate(model.num_timesteps)
    vec_env.close()
    # The end of the run as a checkpoint too, so that --resume continues from here.
    _save_checkpoint(model, args, game.env_id, run_dir, model.num_timesteps)
    path = run_dir / "model.zip"
    atomic_save(model.save, path)
    summary: dict[str, Any] = {
        "train_seconds": round(seconds, 1),
        "env_steps_per_second": round((model.num_timesteps - done) / seconds, 1),
        "final_evaluation": eval_rows[-1]}
    if start is not None:
        summary["resumed_from"] = done
    if opponents.league is not None:
        opponents.save()
        summary["league"] = opponents.league.to_json()
    # The card last: a model with its card is whole.
    save_policy_file(model.policy, path, _card(args, game.env_id, model.num_timesteps, summary))
    return path


def _exact_ppo() -> Any:
    """MaskablePPO that trains exactly the steps it is asked for: the last rollout is
    cut short where the budget ends (SB3 would finish the whole rollout)."""
    from sb3_contrib import MaskablePPO

    class ExactBudgetPPO(MaskablePPO):  # type: ignore[misc]
        def collect_rollouts(self, env: Any, callback: Any, rollout_buffer: Any,
                             n_rollout_steps: int, use_masking: bool = True) -> bool:
            left = -(-(self._total_timesteps - self.num_timesteps) // env.num_envs)
            if 0 < left < n_rollout_steps:
                buffer_class: Any = self.rollout_buffer_class
                rollout_buffer = buffer_class(
                    left, self.observation_space, self.action_space, device=self.device,
                    gamma=self.gamma, gae_lambda=self.gae_lambda, n_envs=self.n_envs,
                    **self.rollout_buffer_kwargs)
                self.rollout_buffer = rollout_buffer
                n_rollout_steps = left
            return bool(super().collect_rollouts(env, callback, rollout_buffer,
                                                 n_rollout_steps, use_masking))

    return ExactBudgetPPO


def resume_point(args: TrainArgs) -> tuple[int, Path]:
    """The steps trained and the latest checkpoint of the run that ``args`` resumes.

    Raises:
        ValueError: the run has no checkpoint, has already trained ``args.timesteps``
            steps, or was trained with other settings (``RESUME_SETTINGS``).
    """
    return find_resume_point(args.run_dir, args.timesteps, compared_settings(args))


def compared_settings(args: TrainArgs) -> dict[str, Any]:
    """What a card's settings are compared with (:func:`agents.resume.card_differences`):
    ``args`` as a dict, with the content of its opponents' models."""
    return {**asdict(args), "opponent_models": opponent_models(args)}


def opponent_models(args: TrainArgs) -> dict[str, str]:
    """The content of the model files each of the run's fixed opponents reads: one
    sha256 per spec that reads any (over its files' digests, in order), by spec. A card
    keeps them: a resumed run must train against the same opponents."""
    from agents.specs import spec_files

    bound = args.table()
    models = {}
    for spec in dict.fromkeys(args.opponents):
        digests = file_digests(spec_files(spec, bound)) if spec != SELF else {}
        if digests:
            models[spec] = hashlib.sha256(" ".join(digests.values()).encode()).hexdigest()
    return models


def _clear_earlier_run(run_dir: Path) -> None:
    """Remove what an earlier run left in ``run_dir`` (a new run replaces it, with
    ``overwrite``): a later ``--resume`` must not continue from its checkpoints, nor
    the new run's ``self`` pool mix them in, nor its evaluations run on."""
    for _, checkpoint, _ in incomplete_checkpoints(run_dir):
        for path in checkpoint_files(checkpoint):
            path.unlink(missing_ok=True)
    for _, checkpoint in checkpoints_in(run_dir):
        for path in checkpoint_files(checkpoint):
            path.unlink(missing_ok=True)
    for name in ("league.json", "eval.csv"):
        (run_dir / name).unlink(missing_ok=True)


def _save_checkpoint(model: Any, args: TrainArgs, env_id: str, run_dir: Path,
                     steps: int) -> Path:
    """``checkpoints/step_N.zip`` with its optimizer state, policy file and, last, its
    card (:func:`agents.resume.checkpoint_files`), each written whole."""
    path = run_dir / "checkpoints" / f"step_{steps}.zip"
    atomic_save(model.save, path)
    save_optimizer(model.policy.optimizer, path)
    save_policy_file(model.policy, path, _card(args, env_id, steps, {}))
    return path


def _check_league_settings(args: TrainArgs) -> None:
    """Refuse league settings that are out of range before anything is written."""
    if args.pfsp_self not in PFSP_SELF:
        raise ValueError(f"pfsp_self must be one of {', '.join(PFSP_SELF)}, "
                         f"got {args.pfsp_self!r}")
    League(args.pfsp_power, args.pfsp_floor)  # raises ValueError naming the bad setting


class _Opponents:
    """The learner's checkpoints in the opponent pool, and the league that weights
    the pool's members (with ``args.league``)."""

    def __init__(self, args: TrainArgs, vec_env: Any, run_dir: Path, resumed: bool) -> None:
        self.vec_env = vec_env
        self.path = run_dir / "league.json"
        self.keep = args.kept_checkpoints
        self.fixed = list(dict.fromkeys(spec for spec in args.opponents if spec != SELF))
        self.uses_self = SELF in args.opponents
        self.checkpoints: list[Path] = []
        self.league: League | None = None
        if args.league:
            saved = self.path if resumed and self.path.is_file() else None
            self.league = (League.from_json(json.loads(saved.read_text())) if saved
                           else League(args.pfsp_power, args.pfsp_floor,
                                       group_self=args.pfsp_self == "group"))
            for label in self.fixed:
                self.league.add(label)
        if resumed:
            for _, path in checkpoints_in(run_dir)[-self.keep:]:
                self.add(path)
        self.push()

    def add(self, path: Path) -> None:
        """A new checkpoint joins the ``self`` pool (and the league)."""
        self.vec_env.env_method("add_checkpoint", str(path))
        self.checkpoints = (self.checkpoints + [path])[-self.keep:]
        if self.league is not None:
            selves = ([checkpoint_label(p.name) for p in self.checkpoints] if self.uses_self
                      else [])
            for label in selves:
                self.league.add(label)
            self.league.keep(self.fixed + selves)

    def push(self) -> None:
        """Send the league's weights to the envs."""
        if self.league is not None:
            self.vec_env.env_method("set_opponent_weights", self.league.weights())

    def save(self) -> None:
        if self.league is not None:
            atomic_write(self.path, json.dumps(self.league.to_json(), indent=2) + "\n")


def _callbacks(args: TrainArgs, env_id: str, run_dir: Path, opponents: _Opponents,
               eval_rows: list[dict[str, Any]], eval_path: Path, done: int) -> list[Any]:
    """The callbacks of a run: checkpoints and evaluation first, then the league's
    bookkeeping and the entropy schedule when asked for."""
    callbacks = [_self_play_callback(args, env_id, run_dir, opponents, eval_rows, eval_path,
                                     done), _pin_threads()]
    if opponents.league is not None:
        callbacks.append(_league_callback(opponents, opponents.league))
    if args.ent_coef_end is not None:
        callbacks.append(_entropy_schedule(args, args.ent_coef_end))
    return callbacks


def _self_play_callback(args: TrainArgs, env_id: str, run_dir: Path, opponents: _Opponents,
                        eval_rows: list[dict[str, Any]], eval_path: Path, done: int) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    def after(steps: int, every: int) -> int:
        return (steps // every + 1) * every

    eval_envs: dict[str, SingleAgentEnv] = {}

    class SelfPlayCallback(BaseCallback):  # type: ignore[misc]
        """Checkpoints into the opponent pool, and periodic evaluation."""

        def __init__(self) -> None:
            super().__init__()
            self.next_checkpoint = after(done, args.checkpoint_every)
            self.next_eval = after(done, args.eval_every)

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            if steps >= self.next_checkpoint:
                self.next_checkpoint = after(steps, args.checkpoint_every)
                path = _save_checkpoint(self.model, args, env_id, run_dir, steps)
                opponents.add(path)
                opponents.push()
                opponents.save()
            if steps >= self.next_eval:
                self.next_eval = after(steps, args.eval_every)
                self.evaluate(steps)
            return True

        def evaluate(self, steps: int) -> None:
            row: dict[str, Any] = {"timesteps": steps}
            for opponent in args.eval_opponents:
                # One env per opponent for the whole run, with the training envs'
                # policy for it when they have one: each opponent built once.
                env = eval_envs.get(opponent)
                if env is None:
                    shared = _shared_pool(self.training_env)
                    pool = OpponentPool(args.table(), [opponent],
                                        built=None if shared is None else shared.fixed)
                    env = eval_envs[opponent] = SingleAgentEnv(args.table(), pool=pool)
                rate = win_rate(self.model, args.table(), None, opponent, None,
                                args.eval_games, seed=10_000 + args.seed, env=env)
                row[f"win_rate_vs_{opponent}"] = round(rate, 4)
                self.logger.record(f"eval/win_rate_vs_{opponent}", rate)
            eval_rows.append(row)
            table = io.StringIO(newline="")
            writer = csv.DictWriter(table, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(eval_rows)
            atomic_write(eval_path, table.getvalue())

    return SelfPlayCallback()


def _league_callback(opponents: _Opponents, league: League) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class LeagueCallback(BaseCallback):  # type: ignore[misc]
        """Records every finished game in the league; after each rollout, sends the
        new weights to the envs and logs win rates and weights to TensorBoard."""

        def _on_step(self) -> bool:
            for finished, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                record = info.get("league") if finished else None
                if record is not None:
                    league.record(record["opponents"], record["return"])
            return True

        def _on_rollout_end(self) -> None:
            opponents.push()
            weights = league.weights()
            for label, rate in league.win_rates().items():
                self.logger.record(f"league/win_rate/{label}", rate)
                self.logger.record(f"league/weight/{label}", weights[label])

    return LeagueCallback()


def _entropy_schedule(args: TrainArgs, end: float) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class EntropySchedule(BaseCallback):  # type: ignore[misc]
        """The entropy coefficient, linear from ``ent_coef`` to ``end``."""

        def _on_rollout_start(self) -> None:
            progress = min(1.0, self.num_timesteps / args.timesteps)
            coefficient = args.ent_coef + (end - args.ent_coef) * progress
            self.model.ent_coef = coefficient  # type: ignore[attr-defined]
            self.logger.record("train/ent_coef", coefficient)

        def _on_step(self) -> bool:
            return True

    return EntropySchedule()


def _pin_threads() -> Any:
    """PyTorch on :data:`TORCH_THREADS` threads for the whole run: the batched engine's
    first call starts its thread pool, which would move PyTorch's count with it."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    def pin() -> None:
        if torch.get_num_threads() != TORCH_THREADS:
            torch.set_num_threads(TORCH_THREADS)

    class PinThreads(BaseCallback):  # type: ignore[misc]
        def _on_training_start(self) -> None:
            pin()

        def _on_rollout_end(self) -> None:
            pin()

        def _on_step(self) -> bool:
            return True

    return PinThreads()


def _progress_callback(bar: Progress) -> Any:
    """The learner's steps on a progress bar (stderr, on a terminal only)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class ProgressCallback(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            bar.update(self.num_timesteps - bar.done)
            return True

    return ProgressCallback()


def _card(args: TrainArgs, env_id: str, steps: int, extra: Mapping[str, Any]) -> dict[str, Any]:
    settings = {k: v for k, v in asdict(args).items()
                if k not in ("game", "output", "run_name", "overwrite")}
    return {"game": env_id, "players": args.players, "options": args.options,
            "algorithm": "MaskablePPO (sb3-contrib)", "timesteps": steps,
            "torch_threads": TORCH_THREADS,
            "settings": settings, "opponent_models": opponent_models(args), **extra}
