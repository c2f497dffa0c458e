"""An expert-iteration run: search, learn from the search, search again with what was
learnt, in a run folder that a stopped run resumes from.

Iteration ``k`` (from 1):

1. **play**: the search, guided by the network of iteration ``k - 1`` (the start
   model at ``k = 1``), plays ``games`` games against the league
   (:mod:`agents.expert.play`); its decisions are kept in ``iteration-K/samples.npz``;
2. **learn**: that network is trained on the samples of the last ``window``
   iterations (:mod:`agents.expert.fit`) and saved as ``iteration-K/model.safetensors``
   with its card;
3. **measure**: the new network alone plays ``eval_games`` games against the
   heuristic on a seed the play never uses; the row goes into ``curve.csv``.

Before iteration 1 the start network is measured the same way: row 0 of the curve.

Each step's file is written whole or not at all, and ``run.json`` (the settings and
the steps done) after it; a run started again with the same settings goes on from
the first step not done, and refuses other settings, naming them. ``model.safetensors``
at the top of the folder is always the newest network.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from agents.expert.fit import Epoch, FitSettings, fit, losses
from agents.expert.play import Batch, BatchResult, merge, play_batch
from agents.expert.samples import Samples
from cardgym.errors import shorten
from cardgym.files import atomic_write

__all__ = ["ExpertSettings", "RunError", "check_run", "run_expert"]

#: Added to the run seed for the measuring games, so that they never repeat a play game.
EVAL_SEED_OFFSET = 1_000_003
#: How much play each worker process takes at a time.
GAMES_PER_BATCH = 8


class RunError(ValueError):
    """A run folder that holds another run, or a run that cannot start."""


@dataclass(frozen=True)
class ExpertSettings:
    """Everything that decides an expert-iteration run (kept in ``run.json`` and the
    cards)."""

    game: str
    num_players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    start_model: str = "baseline"
    search: str = "iterations=200,prior=policy,value=policy,select=puct,c=1.5"
    opponents: tuple[str, ...] = ("heuristic", "start", "latest")
    iterations: int = 4
    games: int = 200
    window: int = 2
    epochs: int = 4
    batch_size: int = 256
    learning_rate: float = 1e-4
    value_weight: float = 0.5
    temperature: float = 0.0
    eval_games: int = 400
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("num_players", "iterations", "games", "window", "eval_games"):
            if getattr(self, name) < 1:
                raise RunError(f"{name} must be 1 or more, got {getattr(self, name)}")
        if self.seed < 0:
            raise RunError(f"seed must be 0 or more, got {self.seed}")
        if "model=" in self.search:
            raise RunError("the search's model is the run's own network; leave model= out of "
                           f"--search (got {self.search!r})")
        if not self.opponents:
            raise RunError("the league needs at least one opponent")
        self.fit_settings()  # checks the learning settings

    def fit_settings(self) -> FitSettings:
        try:
            return FitSettings(self.epochs, self.batch_size, self.learning_rate,
                               self.value_weight, self.temperature)
        except ValueError as error:
            raise RunError(str(error)) from None

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["opponents"] = list(self.opponents)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExpertSettings:
        known = {f.name for f in fields(cls)}
        values = {key: value for key, value in data.items() if key in known}
        values["opponents"] = tuple(values.get("opponents", ()))
        return cls(**values)


# ---------------------------------------------------------------- the folder


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RunError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict):
        raise RunError(f"{path} must hold a JSON object")
    return data


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    atomic_write(path, json.dumps(dict(data), indent=2, sort_keys=True) + "\n")


def _differences(stored: ExpertSettings, wanted: ExpertSettings) -> list[str]:
    old, new = stored.as_json(), wanted.as_json()
    # More iterations than before only lengthen the run.
    return [f"{key}: {old[key]!r} in the folder, {new[key]!r} now" for key in old
            if key != "iterations" and old[key] != new[key]]


def _open_run(folder: Path, settings: ExpertSettings) -> dict[str, Any]:
    """The run's record (``run.json``), new or resumed."""
    record_path = folder / "run.json"
    if record_path.is_file():
        record = _read_json(record_path)
        try:
            stored = ExpertSettings.from_json(record.get("settings", {}))
        except (TypeError, RunError) as error:
            raise RunError(f"{record_path} holds settings that do not read: {error}") from None
        changed = _differences(stored, settings)
        if changed:
            raise RunError(f"{folder} holds another run; its settings differ: "
                           + "; ".join(changed) + ". Use another folder, or the same settings "
                           "to resume")
        record["settings"] = settings.as_json()
        return record
    if folder.exists() and any(folder.iterdir()):
        raise RunError(f"{folder} is not empty and holds no run.json; give an empty or new "
                       "folder")
    folder.mkdir(parents=True, exist_ok=True)
    record = {"settings": settings.as_json(), "done": {}, "curve": []}
    _write_json(record_path, record)
    return record


# ---------------------------------------------------------------- the steps


def _model_spec(path: Path | str) -> str:
    return f"model:{path}"


def _league(settings: ExpertSettings, start: str, latest: str) -> tuple[str, ...]:
    """The opponents' specs: ``start`` and ``latest`` stand for the start network and
    the network that guides this iteration's search."""
    names = {"start": start, "latest": latest}
    return tuple(names.get(spec, spec) for spec in settings.opponents)


def _play(settings: ExpertSettings, iteration: int, guide: str, league: tuple[str, ...],
          workers: int) -> BatchResult:
    from agents.evaluate.pool import chunks, run_in_processes
    from agents.options import as_bound

    bound = as_bound(settings.game, settings.num_players, settings.options)
    seed = int(np.random.SeedSequence([settings.seed, iteration]).generate_state(1)[0])
    search = f"ismcts:{settings.search},model={guide}"
    pieces = max(workers, -(-settings.games // GAMES_PER_BATCH))
    batches = [Batch(bound.game.env_id, settings.num_players, dict(bound.options), search,
                     league, games, seed)
               for games in chunks(settings.games, pieces)]
    return merge(list(run_in_processes(play_batch, batches, workers)))


def _window(folder: Path, iteration: int, window: int, sizes: tuple[int, int]) -> Samples:
    parts = [Samples.load(folder / f"iteration-{k:03d}" / "samples.npz", *sizes)
             for k in range(max(1, iteration - window + 1), iteration + 1)]
    return Samples.join(parts)


def _measure(settings: ExpertSettings, model: Path, workers: int) -> dict[str, Any]:
    from agents.evaluate import evaluate

    result = evaluate(settings.game, settings.num_players, [_model_spec(model), "heuristic"],
                      settings.eval_games, settings.seed + EVAL_SEED_OFFSET, workers,
                      options=settings.options)
    mine = result.agents[0]
    low, high = mine.interval
    return {"games": result.games, "wins": mine.wins, "win_rate": mine.win_rate,
            "ci_low": low, "ci_high": high}


CURVE_FIELDS = ("iteration", "samples", "search_games", "search_wins", "policy_loss_before",
                "policy_loss_after", "value_loss_before", "value_loss_after",
                "eval_games", "eval_win_rate", "eval_ci_low", "eval_ci_high", "seconds")


def _curve_csv(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(CURVE_FIELDS), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: row.get(key, "") for key in CURVE_FIELDS})
    return buffer.getvalue()


def run_expert(settings: ExpertSettings, folder: str | Path, workers: int = 2,
               report: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Run (or resume) expert iteration in ``folder``; returns the curve, a row per
    iteration done.

    Raises:
        RunError: the folder holds another run, or is not empty without being a run; or
            settings the run would refuse once started (:func:`check_run`), before
            anything is made.
        RunInUseError: another process is running in the folder.
    """

    from agents.runs import hold_run_folder

    root = Path(folder)
    check_run(settings)
    record = _open_run(root, settings)
    with hold_run_folder(root):  # a second run in this folder is refused while this one runs
        return _iterate(settings, root, record, workers, report)


def check_run(settings: ExpertSettings) -> None:
    """Refuse what the run would refuse once started, before its folder is made: the
    table and rule options, a start network that is missing or does not fit the game,
    search settings that do not build a search, and league specs that do not build an
    agent. Each is built once here, as the run builds it (the start network standing for
    ``latest`` too), and thrown away: a refused run leaves nothing behind.

    Raises:
        RunError: naming the setting and what is wrong with it.
    """
    from agents.options import as_bound
    from agents.specs import make_policy

    try:
        bound = as_bound(settings.game, settings.num_players, settings.options)
    except ValueError as error:
        raise RunError(str(error)) from None
    start = _start_path(settings, bound)
    model = _model_spec(start)
    try:
        make_policy(model, bound)
    except ValueError as error:  # a ModelError: a network for another game or table
        raise RunError(f"start model {settings.start_model!r}: {error}") from None
    checks = [("search settings", settings.search, f"ismcts:{settings.search},model={start}")]
    checks += [("opponent", spec, built)
               for spec, built in zip(settings.opponents, _league(settings, model, model),
                                      strict=True)]
    for what, given, spec in checks:
        try:
            make_policy(spec, bound)
        except (ValueError, ImportError) as error:
            raise RunError(f"{what} {shorten(given)}: {error}") from None


def _iterate(settings: ExpertSettings, root: Path, record: dict[str, Any], workers: int,
             report: Callable[[str], None] | None) -> list[dict[str, Any]]:
    from agents.model_card import read_card
    from agents.options import as_bound
    from agents.policy_file import save_policy_file
    from agents.sb3 import ModelPolicy

    say = report or (lambda text: None)
    bound = as_bound(settings.game, settings.num_players, settings.options)
    start = _start_path(settings, bound)
    sizes = (bound.layout.observation_spec.size, bound.layout.num_actions)
    done: dict[str, list[str]] = record.setdefault("done", {})
    curve: list[dict[str, Any]] = record.setdefault("curve", [])
    if "measure" not in done.setdefault("0", []):
        say(f"the start network plays {settings.eval_games} games against the heuristic")
        began = time.perf_counter()
        measured = _measure(settings, start, workers)
        row0: dict[str, Any] = {"iteration": 0}
        row0.update(eval_games=measured["games"], eval_win_rate=measured["win_rate"],
                    eval_ci_low=measured["ci_low"], eval_ci_high=measured["ci_high"],
                    seconds=time.perf_counter() - began)
        done["0"].append("measure")
        _save_record(root, record, curve, row0)
    for iteration in range(1, settings.iterations + 1):
        step = done.setdefault(str(iteration), [])
        here = root / f"iteration-{iteration:03d}"
        guide = start if iteration == 1 else root / f"iteration-{iteration - 1:03d}" / \
            "model.safetensors"
        began = time.perf_counter()
        row: dict[str, Any] = next((r for r in curve if r["iteration"] == iteration),
                                   {"iteration": iteration})
        if "play" not in step:
            say(f"iteration {iteration}: the search plays {settings.games} games")
            league = _league(settings, _model_spec(start), _model_spec(guide))
            played = _play(settings, iteration, str(guide), league, workers)
            here.mkdir(parents=True, exist_ok=True)
            played.samples.save(here / "samples.npz")
            row.update(samples=len(played.samples), search_games=sum(played.games),
                       search_wins=sum(played.wins))
            step.append("play")
            _save_record(root, record, curve, row)
        model_path = here / "model.safetensors"
        if "learn" not in step:
            samples = _window(root, iteration, settings.window, sizes)
            say(f"iteration {iteration}: learning from {len(samples)} decisions")
            policy = ModelPolicy.load(guide, game=bound)
            network = policy.network
            before = losses(network, samples, settings.temperature)
            epochs = fit(network, samples, settings.fit_settings(),
                         np.random.default_rng([settings.seed, iteration]))
            after = losses(network, samples, settings.temperature)
            card = dict(read_card(guide) or {})
            card.update(_card(settings, iteration, len(samples), epochs))
            save_policy_file(network, model_path, card)
            row.update(policy_loss_before=before.policy_loss, policy_loss_after=after.policy_loss,
                       value_loss_before=before.value_loss, value_loss_after=after.value_loss)
            step.append("learn")
            _save_record(root, record, curve, row)
        if "measure" not in step:
            say(f"iteration {iteration}: the new network plays {settings.eval_games} games "
                "against the heuristic")
            measured = _measure(settings, model_path, workers)
            row.update(eval_games=measured["games"], eval_win_rate=measured["win_rate"],
                       eval_ci_low=measured["ci_low"], eval_ci_high=measured["ci_high"])
            row["seconds"] = row.get("seconds", 0.0) + time.perf_counter() - began
            step.append("measure")
            _save_record(root, record, curve, row)
            _publish_latest(root, model_path)
            say(f"iteration {iteration}: {measured['win_rate']:.3f} "
                f"({measured['ci_low']:.3f}-{measured['ci_high']:.3f}) against the heuristic")
    return sorted(curve, key=lambda row: int(row["iteration"]))


def _start_path(settings: ExpertSettings, bound: Any) -> Path:
    from agents.baselines import network_file
    from agents.policy_file import ModelError

    try:
        return network_file(settings.start_model, bound.game, settings.num_players)
    except ModelError as error:
        raise RunError(str(error)) from None


def _card(settings: ExpertSettings, iteration: int, samples: int,
          epochs: list[Epoch]) -> dict[str, Any]:
    return {"algorithm": "expert iteration (ISMCTS visit shares and returns, "
                         "agents.expert) from a MaskablePPO network",
            "expert_iteration": {"settings": settings.as_json(), "iteration": iteration,
                                 "samples": samples,
                                 "epochs": [asdict(epoch) for epoch in epochs]}}


def _save_record(root: Path, record: dict[str, Any], curve: list[dict[str, Any]],
                 row: dict[str, Any]) -> None:
    if row not in curve:
        curve.append(row)
        curve.sort(key=lambda entry: int(entry["iteration"]))
    _write_json(root / "run.json", record)
    atomic_write(root / "curve.csv", _curve_csv(curve))


def _publish_latest(root: Path, model_path: Path) -> None:
    """Copy the newest network and its card to the top of the run folder."""
    from agents.model_card import card_path

    # The weights first, the card last: a policy file with its card is whole.
    atomic_write(root / "model.safetensors", model_path.read_bytes())
    atomic_write(root / "model.json", card_path(model_path).read_bytes())
