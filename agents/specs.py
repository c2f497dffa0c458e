"""Agents by name: the specs the command line, the arena and the tests accept.

A spec is ``kind`` or ``kind:arguments``:

- ``random``: :class:`~agents.policy.RandomPolicy`;
- ``heuristic``: the game's hand-written policy (:data:`HEURISTICS`);
- ``model:PATH`` (or just a path ending in ``.zip``): a MaskablePPO model saved by
  ``cardgym train`` (needs the ``train`` extra);
- ``baseline``: the shipped model of the game at this player count,
  ``models/GAME-Np/model.zip`` (:mod:`agents.baselines`; needs the ``train`` extra);
- ``rllib:PATH``: the ``shared`` module of an RLlib checkpoint written by ``cardgym train
  --backend rllib`` (the run folder or its ``checkpoint/``; :mod:`agents.rllib.policy`,
  needs the ``rllib`` extra);
- ``ismcts`` or ``ismcts:key=value,...``: information-set Monte Carlo tree search
  (:class:`~agents.ismcts.IsmctsPolicy`), e.g. ``ismcts:iterations=200,c=0.7,rollout=heuristic``
  or ``ismcts:time=0.5`` (settings: :func:`agents.ismcts.parse_settings`);

Every error says what was wrong and what is allowed.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.policy import Policy, RandomPolicy
from cardgym.registration import GameEntry, short_name

#: The heuristic policy class of each game, by game module.
HEURISTICS: dict[str, str] = {
    "phpets_env": "agents.heuristics.phpets:PhpetsHeuristic",
    "ek_env": "agents.heuristics.ek:EkHeuristic",
    "kakelaar_env": "agents.heuristics.kakelaar:KakelaarHeuristic",
}

KINDS = ("random", "heuristic", "model:PATH", "baseline", "rllib:PATH",
         "ismcts[:KEY=VALUE,...]")


class AgentSpecError(ValueError):
    """An agent spec that names no known agent, or a model that cannot be used."""


def _load(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def make_policy(spec: str, game: GameEntry, num_players: int,
                options: Mapping[str, Any] | None = None) -> Policy:
    """The policy a spec names, for ``game`` with ``num_players`` and rule ``options``."""
    options = dict(options or {})
    text = spec.strip()
    kind, _, argument = text.partition(":")
    if text.endswith(".zip") and kind not in ("model",):
        kind, argument = "model", text
    if kind == "random" and not argument:
        return RandomPolicy()
    if kind == "heuristic" and not argument:
        target = HEURISTICS.get(game.module)
        if target is None:
            raise AgentSpecError(f"no heuristic policy for {game.env_id}")
        return _load(target)(num_players, options)  # type: ignore[no-any-return]
    if kind == "baseline" and not argument:
        from agents.baselines import baseline_path, baseline_settings

        path = baseline_path(game, num_players)
        if not path.is_file():
            shipped = ", ".join(f"{short_name(g.env_id)} {n}p" for g, n in baseline_settings()
                                if baseline_path(g, n).is_file()) or "none"
            raise AgentSpecError(f"no baseline model for {short_name(game.env_id)} with "
                                 f"{num_players} players ({path} does not exist); baselines "
                                 f"shipped: {shipped}")
        kind, argument = "model", str(path)
    if kind == "model":
        if not argument:
            raise AgentSpecError("model needs a path: model:PATH (a .zip saved by cardgym train)")
        path = Path(argument)
        if not path.is_file():
            raise AgentSpecError(f"model file {str(path)!r} does not exist")
        from agents.sb3 import ModelPolicy

        return ModelPolicy.load(path, game=game, num_players=num_players, options=options)
    if kind == "rllib":
        if not argument:
            raise AgentSpecError("rllib needs a path: rllib:PATH (a run folder or checkpoint "
                                 "written by cardgym train --backend rllib)")
        from agents.rllib.policy import RllibPolicy

        return RllibPolicy.load(argument, game=game, num_players=num_players, options=options)
    if kind == "ismcts":
        from agents.ismcts import IsmctsPolicy, parse_settings

        try:
            settings = parse_settings(argument)
            return IsmctsPolicy(game, num_players, options, settings)
        except ValueError as error:
            raise AgentSpecError(str(error)) from None
    raise AgentSpecError(f"unknown agent {spec!r}; agents: {', '.join(KINDS)}")
