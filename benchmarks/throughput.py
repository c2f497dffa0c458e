"""Throughput of every registered environment under uniformly random legal play.

Usage::

    python benchmarks/throughput.py --seconds 2 --rounds 3 --output benchmarks/results
    cardgym bench --env power_hungry_pets --players 2 4

Each measurement plays whole episodes through the AEC API for ``--seconds``, resets
included::

    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else choose(obs["action_mask"])
        env.step(action)

A *step* is one ``env.step`` call, counted the same way for every environment (the
``None`` steps of finished agents included). Every environment gets the same cheap
random chooser (:class:`RandomLegalChooser`), so the loop's own cost is the same for
all. Each cardgym game is measured at each player count in three variants:

- ``env()``: what users get;
- ``raw_env()``: the bare environment;
- ``raw_env()+wrappers``: ``raw_env()`` in PettingZoo's standard chain
  (``TerminateIllegalWrapper(illegal_reward=-1)``, ``AssertOutOfBoundsWrapper``,
  ``OrderEnforcingWrapper``), to show what that chain costs per step;

plus ``env()`` with the rule options of :data:`OPTION_ROWS` (the Streaking Kittens
expansion, as ``exploding_kittens+streaking``); and with ``--split``, ``env()`` whose
observation encoder is replaced by a constant vector (:data:`NO_ENCODING`: what the
rules, the mask and the PettingZoo bookkeeping cost without the encoder; a diagnostic,
not something users get);

and, when ``pettingzoo.classic.leduc_holdem_v4`` imports (the ``bench`` extra), its
``env()`` as the reference of the ratio column, beside PettingZoo's other classic card
environments that import (:data:`COMPARISONS`: Texas Hold'em limit and no-limit, and
Hanabi, whose ``hanabi-learning-environment`` is part of ``pettingzoo[classic]``) as
comparison rows, two players each. Measurements are interleaved: every
round measures every subject once, in an order rotated from round to round, so machine
noise falls on all alike; the table reports the median over rounds, the best round and
the spread ``(max - min) / median``. Nothing here asserts on timings.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import gc
import importlib
import io
import math
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pettingzoo
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardgym.arguments import (
    HelpFormatter,
    UsageError,
    add_progress_argument,
    field_help,
    game_name,
    non_negative_int,
    positive_float,
    positive_int,
    select_settings,
    setting_seed,
)
from cardgym.progress import Progress
from cardgym.registration import Game, short_name

ENV = "env()"
PYTHON = 'env(engine="python")'
RAW = "raw_env()"
WRAPPED = "raw_env()+wrappers"
NO_ENCODING = "env() without encoding"
LEDUC = "leduc_holdem_v4"
#: Rule options that change what an env computes enough to be measured on their own:
#: ``(game short name, row label, options)``, measured as ``env()`` beside the game.
OPTION_ROWS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("exploding_kittens", "exploding_kittens+streaking", {"expansions": ("streaking",)}),
)
#: PettingZoo 1.27's other classic card environments, measured at two players.
COMPARISONS: tuple[str, ...] = ("texas_holdem_v4", "texas_holdem_no_limit_v6", "hanabi_v5")
WARMUP_EPISODES = 5


@dataclass
class Args:
    """Options of the benchmark (the command line mirrors these fields)."""

    seconds: float = field(default=1.0, metadata={
        "help": "time budget of one measurement; whole episodes are played until it runs out"})
    rounds: int = field(default=3, metadata={
        "help": "rounds of interleaved measurements; the table shows the median over rounds"})
    games: tuple[str, ...] = field(default=(), metadata={
        "help": "only these games (id or short name); default every registered game"})
    players: tuple[int, ...] = field(default=(), metadata={
        "help": "only these player counts; default every count each game supports"})
    seed: int = field(default=0, metadata={
        "help": "seed of the environments and of the random choices"})
    output: str | None = field(default=None, metadata={
        "help": "directory to write throughput.md and throughput.csv to (created if missing)"})
    split: bool = field(default=False, metadata={
        "help": "also measure each game's env() with its observation encoder replaced by a "
                "constant vector: what a step costs without the encoder"})


def _help(name: str) -> str:
    return field_help(Args, name)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options (the fields of :class:`Args`) to ``parser``."""
    defaults = Args()
    parser.add_argument("--seconds", type=positive_float, default=defaults.seconds,
                        help=_help("seconds"))
    parser.add_argument("--rounds", type=positive_int, default=defaults.rounds,
                        help=_help("rounds"))
    parser.add_argument("--env", dest="games", nargs="+", type=game_name, default=[],
                        metavar="GAME", help=_help("games"))
    parser.add_argument("--players", nargs="+", type=positive_int, default=[], metavar="N",
                        help=_help("players"))
    parser.add_argument("--seed", type=non_negative_int, default=defaults.seed,
                        help=_help("seed"))
    parser.add_argument("--output", default=None, metavar="DIR", help=_help("output"))
    parser.add_argument("--split", action="store_true", help=_help("split"))
    add_progress_argument(parser)


def args_from_namespace(namespace: argparse.Namespace) -> Args:
    """The :class:`Args` of parsed command-line options."""
    return Args(
        seconds=namespace.seconds,
        rounds=namespace.rounds,
        games=tuple(namespace.games),
        players=tuple(namespace.players),
        seed=namespace.seed,
        output=namespace.output,
        split=namespace.split,
    )


# ------------------------------------------------------------------ chooser


class RandomLegalChooser:
    """A uniformly random legal action from an action mask, cheap per call.

    Uniform numbers are drawn in batches from a seeded generator; a call costs one
    ``mask.nonzero()`` (a third of ``np.flatnonzero``'s cost on a 1-D mask) and a few
    Python operations, the same for every environment.

    Args:
        rng: the generator the choices come from.
        batch_size: uniforms drawn per refill.
    """

    def __init__(self, rng: np.random.Generator, batch_size: int = 4096) -> None:
        self._rng = rng
        self._batch_size = batch_size
        self._uniforms: list[float] = []
        self._position = 0

    def __call__(self, mask: NDArray[Any]) -> int:
        """A legal action index, uniformly at random.

        Args:
            mask: a 1-D array, nonzero where the action is legal.
        """
        legal = mask.nonzero()[0]
        count = len(legal)
        if not count:
            raise ValueError("the action mask has no legal action")
        position = self._position
        if position >= len(self._uniforms):
            self._uniforms = self._rng.random(self._batch_size).tolist()
            position = 0
        self._position = position + 1
        # A uniform in [0, 1) times count stays below count in floating point.
        return int(legal[int(self._uniforms[position] * count)])


# ---------------------------------------------------------------- subjects


@dataclass(frozen=True)
class Subject:
    """One thing measured: an environment factory at one player count in one variant."""

    env_name: str
    num_players: int
    variant: str
    make: Callable[[], AECEnv]
    seed: int
    reference: bool = False


def pettingzoo_chain(raw: AECEnv) -> AECEnv:
    """``raw`` in PettingZoo's standard wrapper chain, as PettingZoo's classic envs apply it."""
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _wrapped(raw_factory: Callable[[], AECEnv]) -> AECEnv:
    return pettingzoo_chain(raw_factory())


def game_factories(game: Game, num_players: int) -> dict[str, Callable[[], AECEnv]]:
    """Factories of the variants of a cardgym game, by variant label: ``env()`` (on
    the compiled rules where the game has them and numba is installed), then, where
    it does run compiled, ``env(engine="python")`` (the Python engine), then
    ``raw_env()`` and ``raw_env()`` in PettingZoo's wrapper chain.

    ``raw_env`` is looked up in the module of the game's entry point; a game without
    one is measured as ``env()`` only.
    """
    module_name, _, attribute = game.entry_point.partition(":")
    module = importlib.import_module(module_name)
    make = getattr(module, attribute or "env")
    factories: dict[str, Callable[[], AECEnv]] = {ENV: partial(make, num_players=num_players)}
    if getattr(factories[ENV]().unwrapped, "engine", "python") == "compiled":
        factories[PYTHON] = partial(make, num_players=num_players, engine="python")
    raw_class = getattr(module, "raw_env", None)
    if raw_class is not None:
        raw_factory = partial(raw_class, num_players=num_players)
        factories[RAW] = raw_factory
        factories[WRAPPED] = partial(_wrapped, raw_factory)
    return factories


def without_encoding(make: Callable[[], AECEnv]) -> AECEnv:
    """``make()`` with the observation encoder replaced by a vector of zeros of the
    observation's size and type, made afresh on every call as the encoder's vector is
    (the ``NO_ENCODING`` variant): the same games, the same masks, rewards and
    bookkeeping, without the cost of encoding."""
    env = make()
    raw: Any = env.unwrapped
    size = raw.observation_spec.size

    def constant(seat: int) -> NDArray[np.float32]:
        return np.zeros(size, dtype=np.float32)

    raw._game_encode = constant
    return env


def load_leduc() -> Callable[[], AECEnv] | None:
    """``pettingzoo.classic.leduc_holdem_v4.env``, or ``None`` when it does not import."""
    try:
        with warnings.catch_warnings():
            # PettingZoo 1.27 deprecates the module path in favour of its registry.
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic import leduc_holdem_v4
    except ImportError:
        return None
    factory: Callable[[], AECEnv] = leduc_holdem_v4.env
    return factory


#: What Gymnasium says when an env declares a float64 ``Box`` (PettingZoo's no-limit
#: Hold'em does): a fact of that env's spaces, not of anything measured here.
PRECISION_WARNING = r"(?s).*precision lowered by casting to float32"


def quietly_made(factory: Callable[[], AECEnv]) -> AECEnv:
    """``factory()`` without Gymnasium's float-precision warnings about its spaces."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=PRECISION_WARNING, category=UserWarning)
        return factory()


def load_comparisons(names: Sequence[str] = COMPARISONS) -> dict[str, Callable[[], AECEnv]]:
    """The ``env`` factories of those of PettingZoo's classic ``names`` that import;
    each builds its env without Gymnasium's float-precision warnings
    (:func:`quietly_made`)."""
    factories: dict[str, Callable[[], AECEnv]] = {}
    for name in names:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError:
            continue
        factories[name] = partial(quietly_made, module.env)
    return factories


def build_subjects(
    args: Args, leduc: Callable[[], AECEnv] | None,
    comparisons: dict[str, Callable[[], AECEnv]] | None = None,
) -> list[Subject]:
    """Everything to measure, in table order: the cardgym games, then the comparison
    environments, the leduc reference last.

    Raises:
        UsageError: an unknown game or a player count no selected game supports.
    """
    subjects = []
    for game, count in select_settings(args.games, args.players):
        seed = setting_seed(args.seed, game, count)
        factories = game_factories(game, count)
        for variant, make in factories.items():
            subjects.append(Subject(short_name(game.env_id), count, variant, make, seed))
        for name, label, options in OPTION_ROWS:
            if name == short_name(game.env_id):
                make = partial(factories[ENV].func, num_players=count, **options)  # type: ignore[attr-defined]
                subjects.append(Subject(label, count, ENV, make, seed))
        if args.split:  # the encoder is the Python engine's
            subjects.append(Subject(short_name(game.env_id), count, NO_ENCODING,
                                    partial(without_encoding, factories.get(PYTHON,
                                                                            factories[ENV])),
                                    seed))
    for name, make in (comparisons or {}).items():
        subjects.append(Subject(name, 2, ENV, make, args.seed))
    if leduc is not None:
        subjects.append(Subject(LEDUC, 2, ENV, leduc, args.seed, reference=True))
    return subjects


# ----------------------------------------------------------------- playing


@dataclass
class Run:
    """Counts of one timed run: ``env.step`` calls, whole episodes, seconds, and the
    decisions among the steps (a step with an action, not a finished agent's
    ``step(None)``)."""

    steps: int
    episodes: int
    seconds: float
    decisions: int = 0


def play(
    env: AECEnv,
    choose: Callable[[NDArray[Any]], int],
    seconds: float | None = None,
    seed: int | None = None,
    max_episodes: int | None = None,
) -> Run:
    """Play whole episodes of ``env`` until ``seconds`` have passed or ``max_episodes``.

    Args:
        env: any AEC environment whose observations hold an ``action_mask``.
        choose: picks an action from the mask of the agent to act.
        seconds: time budget, checked after each episode; ``None`` for no limit.
        seed: passed to the first ``reset``.
        max_episodes: stop after this many episodes; ``None`` for no limit. At least
            one episode is always played.

    Returns:
        Steps (``env.step`` calls), episodes and elapsed seconds, resets included.
    """
    if seconds is None and max_episodes is None:
        raise ValueError("give a time budget (seconds) or max_episodes")
    steps = 0
    decisions = 0
    episodes = 0
    last_episode = max_episodes if max_episodes is not None else -1
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else math.inf
    env.reset(seed=seed)
    while True:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(choose(obs["action_mask"]))
                decisions += 1
            steps += 1
        episodes += 1
        now = time.perf_counter()
        if now >= deadline or episodes == last_episode:
            return Run(steps, episodes, now - start, decisions)
        env.reset()


@dataclass
class Measurement:
    """All rounds of one subject."""

    subject: Subject
    runs: list[Run] = field(default_factory=list)

    @property
    def rates(self) -> list[float]:
        """Steps per second of each round."""
        return [run.steps / run.seconds for run in self.runs]

    @property
    def steps_per_second(self) -> float:
        """Median steps per second over rounds."""
        return statistics.median(self.rates)

    @property
    def decisions_per_second(self) -> float:
        """Median decisions per second over rounds."""
        return statistics.median(run.decisions / run.seconds for run in self.runs)

    @property
    def microseconds_per_step(self) -> float:
        """Microseconds per step at the median rate."""
        return 1e6 / self.steps_per_second

    @property
    def spread(self) -> float:
        """``(max - min) / median`` of the per-round rates."""
        rates = self.rates
        return (max(rates) - min(rates)) / statistics.median(rates)

    @property
    def steps_per_episode(self) -> float:
        """Mean steps per episode over all rounds."""
        return sum(r.steps for r in self.runs) / sum(r.episodes for r in self.runs)


@dataclass
class Report:
    """Every measurement of a benchmark run, and how it was run."""

    args: Args
    measurements: list[Measurement]
    leduc_available: bool

    @property
    def reference(self) -> Measurement | None:
        """The leduc_holdem_v4 env() measurement, when there is one."""
        return next((m for m in self.measurements if m.subject.reference), None)


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """Move every object alive now out of the garbage collector's reach while measuring.

    Each measurement starts with ``gc.collect()`` so that no run pays for the garbage of
    the one before. A full collection walks every tracked object of the process, which
    in a large process (a test session, a notebook) costs far more than a short
    measurement; frozen, the objects that predate the measurements are skipped and each
    collection walks only what the runs made.
    """
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _chooser(subject: Subject, *key: int) -> RandomLegalChooser:
    # Not the env's seed alone: gymnasium seeds the env's PCG64 the same way, which
    # would tie the choices to the deals.
    return RandomLegalChooser(np.random.default_rng([subject.seed, *key]))


def measure(
    subjects: Sequence[Subject], seconds: float, rounds: int, progress: TextIO | None = None,
    show_progress: bool = True,
) -> list[Measurement]:
    """Measure every subject ``rounds`` times, interleaved, after an untimed warm-up.

    ``progress`` gets a line per round and, when it is a terminal and
    ``show_progress``, a progress bar with the time left.

    In each round, every variant of a game at a player count starts from the same
    seeds, so all variants play the same games, the faster ones more of them.
    """
    envs = [subject.make() for subject in subjects]
    for env, subject in zip(envs, subjects, strict=True):
        play(env, _chooser(subject, 0), seed=subject.seed, max_episodes=WARMUP_EPISODES)
    measurements = [Measurement(subject) for subject in subjects]
    count = len(subjects)
    with frozen_heap(), Progress(rounds * count, "bench", "measurement", stream=progress,
                                 enabled=progress is not None and show_progress) as bar:
        for round_index in range(rounds):
            started = time.perf_counter()
            for offset in range(count):
                index = (round_index + offset) % count
                subject = subjects[index]
                choose = _chooser(subject, 1, round_index)
                gc.collect()
                run = play(envs[index], choose, seconds, seed=subject.seed + 1 + round_index)
                measurements[index].runs.append(run)
                bar.update()
            if progress is not None:
                bar.write(f"bench: round {round_index + 1}/{rounds} done, {count} measurements "
                          f"in {time.perf_counter() - started:.1f} s")
    return measurements


def run(args: Args, progress: TextIO | None = None, show_progress: bool = True) -> Report:
    """Run the benchmark described by ``args``.

    Raises:
        UsageError: an unknown game or a player count no selected game supports.
    """
    leduc = load_leduc()
    subjects = build_subjects(args, leduc, load_comparisons())
    return Report(args, measure(subjects, args.seconds, args.rounds, progress, show_progress),
                  leduc is not None)


# ----------------------------------------------------------------- output


def describe_machine() -> str:
    """One line naming the interpreter, the key libraries and the machine."""
    return (f"Python {platform.python_version()}, numpy {np.__version__}, pettingzoo "
            f"{pettingzoo.__version__}, {platform.system()} {platform.machine()}, "
            f"{os.cpu_count()} CPUs")


def table_rows(report: Report) -> list[dict[str, Any]]:
    """One dict per measurement with raw numbers (the CSV rows)."""
    reference = report.reference
    rows = []
    for m in report.measurements:
        rates = m.rates
        rows.append({
            "env": m.subject.env_name,
            "players": m.subject.num_players,
            "variant": m.subject.variant,
            "steps_per_second": m.steps_per_second,
            "microseconds_per_step": m.microseconds_per_step,
            "ratio_to_leduc_env": (m.steps_per_second / reference.steps_per_second
                                   if reference is not None else None),
            "decisions_per_second": m.decisions_per_second,
            "decision_ratio_to_leduc_env": (
                m.decisions_per_second / reference.decisions_per_second
                if reference is not None and reference.decisions_per_second > 0 else None),
            "steps_per_second_min": min(rates),
            "steps_per_second_max": max(rates),
            "spread": m.spread,
            "steps_per_episode": m.steps_per_episode,
            "rounds": len(m.runs),
            "seconds_per_round": report.args.seconds,
            "seed": report.args.seed,
        })
    return rows


def format_markdown(report: Report) -> str:
    """The results as Markdown: a heading line, the table and notes."""
    with_ratio = report.reference is not None
    header = ["env", "players", "variant", "steps/s", "µs/step"]
    header += ["vs leduc env()"] if with_ratio else []
    header += ["decisions/s"] + (["decisions vs leduc"] if with_ratio else [])
    header += ["best steps/s", "spread", "steps/episode"]
    lines = [
        f"Throughput under uniformly random legal play: median of {report.args.rounds} "
        f"interleaved rounds x {report.args.seconds:g} s per measurement, seed {report.args.seed}.",
        f"{describe_machine()}.",
        "",
        "| " + " | ".join(header) + " |",
        "|---|---:|---|" + "---:|" * (len(header) - 3),
    ]
    for row in table_rows(report):
        cells = [row["env"], str(row["players"]), row["variant"],
                 f"{row['steps_per_second']:,.0f}", f"{row['microseconds_per_step']:.1f}"]
        if with_ratio:
            cells.append(f"{row['ratio_to_leduc_env']:.2f}x")
        cells.append(f"{row['decisions_per_second']:,.0f}")
        if with_ratio:
            ratio = row["decision_ratio_to_leduc_env"]
            cells.append("-" if ratio is None else f"{ratio:.2f}x")
        cells += [f"{row['steps_per_second_max']:,.0f}", f"{100 * row['spread']:.0f}%",
                  f"{row['steps_per_episode']:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"A step is one env.step call, resets included. {WRAPPED} is raw_env() in "
                 "TerminateIllegalWrapper(illegal_reward=-1), AssertOutOfBoundsWrapper and "
                 "OrderEnforcingWrapper. steps/s is the median over rounds, best steps/s the "
                 "fastest round, spread = (max - min) / median. A decision is a step with "
                 "an action (not a finished agent's step(None))"
                 + ("; decisions vs leduc compares decisions per second." if with_ratio
                    else "."))
    if any(m.subject.variant == PYTHON for m in report.measurements):
        lines.append(f"env() plays on the game's compiled rules where it has them (engine="
                     f"\"auto\", numba installed); {PYTHON} is the same env on the Python "
                     "engine: the same games, step for step.")
    if any(m.subject.variant == NO_ENCODING for m in report.measurements):
        lines.append(f"{NO_ENCODING} (a diagnostic, --split) is the Python engine's env() "
                     "with its observation encoder replaced by a constant vector of zeros: "
                     "the same games, masks and rewards, so the gap to it is what encoding "
                     "costs and its own rate is a ceiling for any encoder.")
    others = [m.subject.env_name for m in report.measurements
              if m.subject.env_name in COMPARISONS]
    if others:
        lines.append(f"{', '.join(others)} and {LEDUC} are PettingZoo's classic environments "
                     "(env(), two players), played by the same loop and chooser.")
    if not report.leduc_available:
        lines.append("pettingzoo.classic.leduc_holdem_v4 is not installed (pip install -e "
                     "'.[bench]'), so there is no leduc_holdem_v4 row and no ratio column.")
    return "\n".join(lines) + "\n"


def format_csv(report: Report) -> str:
    """The results as CSV, raw numbers, one row per measurement."""
    rows = table_rows(report)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["env"],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def write_results(report: Report, directory: str | Path) -> list[Path]:
    """Write ``throughput.md`` and ``throughput.csv`` to ``directory``; return their paths."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    markdown = target / "throughput.md"
    table = target / "throughput.csv"
    markdown.write_text(format_markdown(report), encoding="utf-8")
    table.write_text(format_csv(report), encoding="utf-8")
    return [markdown, table]


# ------------------------------------------------------------------- entry


def run_namespace(namespace: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run from parsed options, print the table to ``out`` and write the files if asked.

    Raises:
        UsageError: an unknown game or a player count no selected game supports.
    """
    out = sys.stdout if out is None else out
    args = args_from_namespace(namespace)
    report = run(args, progress=sys.stderr,
                 show_progress=not getattr(namespace, "no_progress", False))
    print(format_markdown(report), file=out)
    if args.output is not None:
        for path in write_results(report, args.output):
            print(f"wrote {path}", file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv``, run the benchmark and return the exit status."""
    parser = argparse.ArgumentParser(
        prog="throughput.py",
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=HelpFormatter,
    )
    add_arguments(parser)
    namespace = parser.parse_args(argv)
    try:
        return run_namespace(namespace)
    except UsageError as error:
        parser.error(str(error))
    return 2


if __name__ == "__main__":
    sys.exit(main())
