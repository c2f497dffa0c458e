"""Agents by name: the specs the command line, the arena and the tests accept.

A spec is ``kind`` or ``kind:arguments``:

- ``random``: :class:`~agents.policy.RandomPolicy`;
- ``heuristic``: the game's hand-written policy (``GAME.heuristic``);
- ``model:PATH`` (or just a path ending in ``.safetensors`` or ``.zip``): a MaskablePPO
  model saved by ``cardgym train``, played from its policy file (PATH names the
  ``.safetensors`` file, the ``.zip`` beside it or the run folder; :mod:`agents.policy_file`,
  needs the ``train`` extra);
- ``baseline``: the shipped model of the game at this player count,
  ``models/GAME-Np/model.safetensors`` (:mod:`agents.baselines`; needs the ``train`` extra);
- ``rllib:PATH``: the ``shared`` module of an RLlib checkpoint written by ``cardgym train
  --backend rllib`` (the run folder or its ``checkpoint/``; :mod:`agents.rllib.policy`,
  needs the ``rllib`` extra), which loads only by unpickling, so only as ``rllib+pickle:PATH``;
- ``ismcts`` or ``ismcts:key=value,...``: information-set Monte Carlo tree search
  (:class:`~agents.ismcts.IsmctsPolicy`), e.g. ``ismcts:iterations=200,c=0.7,rollout=heuristic``
  or ``ismcts:time=0.5`` (settings: :func:`agents.ismcts.parse_settings`);

Model files are data, never code, unless the user says otherwise: ``model:PATH`` and
``baseline`` load only the policy file (tensors and JSON). Whatever must be unpickled
(an SB3 zip with no policy file beside it, an RLlib checkpoint) needs the ``+pickle``
opt-in in its kind, ``model+pickle:PATH`` or ``rllib+pickle:PATH``, which the command
line's ``--trust-pickle`` writes for you (:func:`trust_pickle`); unpickling runs any
code the file carries. ``baseline`` never unpickles, wherever ``CARDGYM_MODELS`` points.

Every error says what was wrong and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.baselines import baseline_path, baseline_policy_path, baseline_settings
from agents.ismcts import IsmctsPolicy, parse_settings
from agents.options import as_bound
from agents.policy import Policy, RandomPolicy
from agents.policy_file import PickleRefusedError, resolve_model_path, weights_path
from agents.rllib.policy import RllibPolicy
from agents.sb3 import ModelPolicy
from cardgym.registration import BoundGame, Game, short_name

KINDS = ("random", "heuristic", "model:PATH", "baseline", "rllib+pickle:PATH",
         "ismcts[:KEY=VALUE,...]", "model+pickle:PATH")
#: The suffix of a kind that may unpickle its file (``model+pickle``, ``rllib+pickle``).
PICKLE = "+pickle"
#: Paths given as a whole spec, read as ``model:PATH``.
MODEL_SUFFIXES = (".safetensors", ".zip")


class AgentSpecError(ValueError):
    """An agent spec that names no known agent, or a model that cannot be used."""


def make_heuristic(bound: BoundGame) -> Policy:
    """The game's hand-written policy (its ``GAME.heuristic``)."""
    game = bound.game
    if game.heuristic is None:
        raise AgentSpecError(f"{game.title} has no heuristic policy; agents: "
                             + ", ".join(kind for kind in KINDS if kind != "heuristic"))
    return game.heuristic(bound.config)  # type: ignore[no-any-return]


def policy_of(spec: str, bound: BoundGame, built: Mapping[str, Policy] | None = None) -> Policy:
    """The policy of ``spec`` for ``bound``: the one in ``built`` (made earlier, when the
    spec was checked, say), else made now."""
    if built and spec in built:
        return built[spec]
    return make_policy(spec, bound)


def trust_pickle(spec: str) -> str:
    """``spec`` allowed to unpickle its file: ``model:P`` -> ``model+pickle:P``,
    ``rllib:P`` -> ``rllib+pickle:P``, a bare ``P.zip`` -> ``model+pickle:P.zip``;
    every other spec (``baseline`` among them) is returned as it is."""
    text = spec.strip()
    kind, colon, argument = text.partition(":")
    if colon and kind in ("model", "rllib"):
        return f"{kind}{PICKLE}:{argument}"
    if text.endswith(MODEL_SUFFIXES) and kind not in ("model", "rllib", "ismcts", f"model{PICKLE}",
                                                         f"rllib{PICKLE}"):
        return f"model{PICKLE}:{text}"
    return spec


def make_policy(spec: str, game: Game | BoundGame, num_players: int | None = None,
                options: Mapping[str, Any] | None = None) -> Policy:
    """The policy a spec names, for a bound game (:class:`~cardgym.game.BoundGame`,
    its options trusted), or for ``game`` with ``num_players`` and rule ``options``
    (checked first).

    Raises:
        AgentSpecError: an unknown spec, or a model file that is missing or needs
            unpickling without the ``+pickle`` opt-in; ``ModelError`` (also a
            ``ValueError``) for a model that does not fit the game; ``OptionsError``
            for bad options.
    """
    bound = as_bound(game, num_players, options)
    game, num_players, options = bound.game, bound.num_players, bound.options
    text = spec.strip()
    kind, _, argument = text.partition(":")
    trusted = kind in (f"model{PICKLE}", f"rllib{PICKLE}")
    kind = kind.removesuffix(PICKLE) if trusted else kind
    if text.endswith(MODEL_SUFFIXES) and kind not in ("model", "rllib", "ismcts"):
        kind, argument = "model", text
    if kind == "random" and not argument:
        return RandomPolicy()
    if kind == "heuristic" and not argument:
        return make_heuristic(bound)
    if kind == "baseline" and not argument:
        return _baseline(bound)
    if kind == "model":
        if not argument:
            raise AgentSpecError("model needs a path: model:PATH (the model.safetensors, "
                                 "model.zip or run folder written by cardgym train)")
        path = Path(argument)
        if not path.exists() and not weights_path(path).is_file():
            raise AgentSpecError(f"model file {str(path)!r} does not exist")
        try:
            return ModelPolicy.load(path, game=bound, trust_pickle=trusted)
        except PickleRefusedError as error:
            raise AgentSpecError(str(error)) from None
    if kind == "rllib":
        if not argument:
            raise AgentSpecError("rllib needs a path: rllib+pickle:PATH (a run folder or "
                                 "checkpoint written by cardgym train --backend rllib)")
        return RllibPolicy.load(argument, game=game, num_players=num_players, options=options,
                                trust_pickle=trusted)
    if kind == "ismcts":
        try:
            settings = parse_settings(argument)
            return IsmctsPolicy(bound, settings=settings)
        except ValueError as error:
            raise AgentSpecError(str(error)) from None
    raise AgentSpecError(f"unknown agent {spec!r}; agents: {', '.join(KINDS)}")


def spec_files(spec: str, bound: BoundGame) -> list[Path]:
    """The files the policy of ``spec`` reads at ``bound``'s table, those that exist:
    the policy file (and SB3 zip) of ``baseline``, ``model:PATH`` or an ``ismcts``
    search's ``model=``, every file of an ``rllib`` checkpoint; none for the others.
    What a spec plays depends on these files' contents and on the spec alone.

    Raises:
        AgentSpecError: an ``ismcts`` spec with bad settings; ``ModelError`` (also a
            ``ValueError``) for a model path that names no model.
    """
    text = spec.strip()
    kind, _, argument = text.partition(":")
    kind = kind.removesuffix(PICKLE)
    if text.endswith(MODEL_SUFFIXES) and kind not in ("model", "rllib", "ismcts"):
        kind, argument = "model", text
    paths: list[Path] = []
    if kind == "baseline" and not argument:
        paths = [baseline_policy_path(bound.game, bound.num_players)]
    elif kind == "model" and argument:
        weights, archive = resolve_model_path(argument)
        paths = [weights] if archive is None else [weights, archive]
    elif kind == "rllib" and argument:
        root = Path(argument)
        paths = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
    elif kind == "ismcts":
        try:
            settings = parse_settings(argument)
        except ValueError as error:
            raise AgentSpecError(str(error)) from None
        if settings.uses_model and settings.model == "baseline":
            paths = [baseline_policy_path(bound.game, bound.num_players)]
        elif settings.uses_model:
            weights, archive = resolve_model_path(settings.model)
            paths = [weights] if archive is None else [weights, archive]
    return [path for path in paths if path.is_file()]


def _baseline(bound: BoundGame) -> Policy:
    """The shipped model, from its policy file only (never its zip, whatever the opt-in)."""
    game, num_players = bound.game, bound.num_players
    path = baseline_policy_path(game, num_players)
    if not path.is_file():
        archive = baseline_path(game, num_players)
        if archive.is_file():
            raise AgentSpecError(
                f"the baseline for {short_name(game.env_id)} with {num_players} players has "
                f"no policy file {path}, only {archive}, which loads only by unpickling, and "
                f"unpickling runs any code the file carries; baselines load only policy files, "
                f"whatever --trust-pickle says. To convert the zip, if you trust it: cardgym "
                f"convert-model {archive} --trust-pickle"
            )
        shipped = ", ".join(f"{short_name(g.env_id)} {n}p" for g, n in baseline_settings()
                            if baseline_policy_path(g, n).is_file()) or "none"
        raise AgentSpecError(f"no baseline model for {short_name(game.env_id)} with "
                             f"{num_players} players ({path} does not exist); baselines "
                             f"shipped: {shipped}")
    return ModelPolicy.load(path, game=bound)
