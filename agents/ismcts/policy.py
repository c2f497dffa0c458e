"""The ISMCTS agent: a search policy that chooses the root action its search visited most."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.engines import Engine
from agents.ismcts.network import PolicyNetwork, load_model
from agents.ismcts.reading import Reader
from agents.ismcts.rollout import (
    BatchedPlayouts,
    CompiledPlayouts,
    MaskArrays,
    Playouts,
    Prior,
)
from agents.ismcts.search import Search
from agents.ismcts.settings import IsmctsSettings, SettingsError
from agents.ismcts.tree import Node
from agents.options import as_bound
from cardgym.registration import BoundGame, Game

__all__ = ["IsmctsPolicy"]


class IsmctsPolicy:
    """An ISMCTS agent for one game, table size and set of rule options.

    It is a :class:`~agents.policy.SearchPolicy`: the harness calls :meth:`act_in`
    with a state resampled for the seat to act. :meth:`act`, from an observation
    alone, cannot search and raises.

    Args:
        game: the game (entry, id or short name) or a bound game
            (:class:`~cardgym.game.BoundGame`, its options trusted).
        num_players: seats at the table (not with a bound game).
        options: rule options of the game (not with a bound game).
        settings: the search settings (default :class:`IsmctsSettings()`).
        model: the :class:`~agents.sb3.ModelPolicy` of ``prior=policy`` or
            ``value=policy``; default the one ``settings.model`` names.
    """

    def __init__(self, game: Game | BoundGame | str, num_players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 settings: IsmctsSettings | None = None, model: Any = None) -> None:
        self.settings = settings or IsmctsSettings()
        bound = as_bound(game, num_players, options)
        self.options = bound.options
        self.num_players = bound.num_players
        self.engine: Engine = Engine(bound)
        self.name = self.settings.label()
        heuristic = (self._heuristic() if "heuristic" in (self.settings.rollout,
                                                          self.settings.prior,
                                                          self.settings.reading) else None)
        arrays = MaskArrays(self.engine.num_actions)
        self._playouts = Playouts(self.engine,
                                  heuristic if self.settings.rollout == "heuristic" else None,
                                  arrays)
        self._prior = (Prior(self.engine, heuristic, arrays)
                       if self.settings.prior == "heuristic" else None)
        uses_playouts = self.settings.value == "rollout"
        self._batched = (self._batched_engine()
                         if self.settings.rollout == "batched" and uses_playouts else None)
        #: The rules random playouts run on: ``"compiled"`` or ``"python"`` (the
        #: ``engine`` setting, ``auto`` resolved for this game).
        self.playout_engine = self._playout_engine() if uses_playouts else "python"
        self._compiled = (self.engine.bound.make_batched(1)
                          if self.playout_engine == "compiled" else None)
        self._network: PolicyNetwork | None = None
        if self.settings.uses_model:
            loaded = model if model is not None else load_model(self.settings.model, self.engine)
            self._network = PolicyNetwork(self.engine, loaded.network, arrays,
                                          self.engine.reward_bounds)
        self._reader: Reader | None = None
        if self.settings.reading != "none":
            self._reader = self._make_reader(heuristic, arrays)
        self._root_base = 0
        #: Iterations run by the latest search (0 when the move was forced).
        self.last_iterations = 0
        #: Roots of the latest search's trees: one per seat (``tree=multi`` in a game
        #: with hidden moves), else the searching seat's alone.
        self.last_trees: list[Node] = []
        #: The searching seat's root of the latest search (``None`` when the move was
        #: forced): :meth:`root_visits` reads it.
        self.last_root: Node | None = None

    def _batched_engine(self) -> Any:
        """The game's batched engine with a row per playout (``rollout=batched``)."""
        game = self.engine.game
        if game.batched is None:
            from cardgym.vector import batched_games

            having = ", ".join(g.name for g in batched_games()) or "none"
            raise SettingsError(f"{game.title} has no batched engine for rollout=batched; "
                                f"games with one: {having}")
        if game.rounds is not None:
            if game.rounds.tokens_to_win(self.engine.config) is None:
                raise SettingsError("rollout=batched values a playout by the rewards to the "
                                    "end of the game; with rewards per round use "
                                    "rollout=random")
            if self.settings.horizon == "round":
                raise SettingsError("rollout=batched plays to the end of the game: use it with "
                                    "horizon=game")
        return self.engine.bound.make_batched(self.settings.playouts)

    def _playout_engine(self) -> str:
        """``compiled`` or ``python``, as the ``engine`` setting asks for random
        playouts (:class:`~agents.ismcts.rollout.CompiledPlayouts`); ``python`` for
        the other rollouts."""
        engine = self.settings.engine
        if self.settings.rollout != "random" or engine == "python":
            return "python"
        from cardgym.compiled import batched_problem

        problem = batched_problem(self.engine.game)
        if problem is None:
            return "compiled"
        if engine == "compiled":
            raise SettingsError(f"ismcts engine=compiled: {problem}; use engine=python "
                                "or engine=auto")
        return "python"

    def _make_reader(self, heuristic: Any, arrays: MaskArrays) -> Reader:
        game = self.engine.game
        if self.engine.hidden_choices is None:
            from cardgym.registration import games

            having = ", ".join(g.name for g in games() if g.hidden_choices is not None)
            raise SettingsError(f"reading={self.settings.reading}: {game.title} does not list "
                                "the hidden choices of its seats (the game contract's "
                                f"hidden_choices); games that do: {having or 'none'}")
        network = self._network if self.settings.reading == "policy" else None
        return Reader(self.engine, heuristic, network, self.settings.epsilon, arrays)

    def _heuristic(self) -> Any:
        game = self.engine.game
        if game.heuristic is None:
            settings = self.settings
            asking = [f"{key}=heuristic" for key, value in (
                ("prior", settings.prior), ("rollout", settings.rollout),
                ("reading", settings.reading)) if value == "heuristic"]
            instead = {"prior": "prior=none", "rollout": "rollout=random",
                       "reading": "reading=none"}
            change = [instead[setting.split("=")[0]] for setting in asking]
            default = " (prior=heuristic is the default)" if settings.prior == "heuristic" else ""
            raise SettingsError(f"{game.title} has no heuristic policy, which "
                                f"{' and '.join(asking)} needs{default}; pass "
                                f"{', '.join(change)}")
        return game.heuristic(self.engine.bound.config)

    # ------------------------------------------------------------ policy API

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        raise TypeError(
            "ismcts searches the game engine and needs a state resampled for the seat to "
            "act: call agents.policy.decide(policy, env, agent, observation, rng) (as "
            "evaluate, play and the single-agent env do), or policy.act_in(state, seat, rng)"
        )

    def act_in(self, state: Any, seat: int, rng: np.random.Generator) -> int:
        """The move of ``seat`` (to act in ``state``), searched from ``state``.

        ``state`` must carry only what ``seat`` may know in the sense that the caller
        resampled it for ``seat`` (``resample_hidden``); the search resamples it again
        for every iteration. With the same generator state, two states ``seat``
        cannot tell apart give the same move (the engines' ``resample_hidden`` deals
        from canonically ordered pools).
        """
        engine = self.engine
        if engine.is_over(state):
            raise ValueError("the game is over: there is no move to choose")
        if engine.to_act(state) != seat:
            raise ValueError(f"seat {seat} is not to act (seat {engine.to_act(state)} is)")
        legal = engine.legal_actions(state)
        if not legal:
            raise ValueError("no legal action in this state")
        if len(legal) == 1:
            self.last_iterations = 0
            self.last_root = None
            return legal[0]
        root = self.search(state, seat, rng)
        base = self._root_base
        best, best_key = legal[0], (-1.0, -math.inf, 0)
        for action in legal:
            child = root.children.get(base + action)
            if child is None:
                continue
            key = (child.visits, child.total / child.visits, -action)
            if key > best_key:
                best, best_key = action, key
        return best

    def search(self, state: Any, seat: int, rng: np.random.Generator) -> Node:
        """Run the search from ``state`` for ``seat``; returns the root of its tree."""
        batched = (BatchedPlayouts(self._batched, int(rng.integers(2**63)))
                   if self._batched is not None else None)
        compiled = (CompiledPlayouts(self.engine, self._compiled, int(rng.integers(2**63)))
                    if self._compiled is not None else None)
        search = Search(self.engine, self.settings, self._playouts, self._prior, batched,
                        self._network, self._reader, compiled)
        root = search.run(state, seat, rng)
        self.last_root = root
        self._root_base = search.root_base
        self.last_iterations = search.iterations
        self.last_trees = search.roots
        return root

    def root_visits(self) -> NDArray[np.float64] | None:
        """Visits of each action at the root of the latest search, indexed by action
        (zero for actions the search never tried); ``None`` when the latest move was
        forced (a single legal action: no search ran). Expert iteration
        (:mod:`agents.expert`) trains a network towards their shares."""
        root = self.last_root
        if root is None:
            return None
        visits = np.zeros(self.engine.num_actions, dtype=np.float64)
        base = self._root_base
        for key, child in root.children.items():
            action = key - base
            if 0 <= action < len(visits):
                visits[action] += child.visits
        return visits

    def __repr__(self) -> str:
        return f"IsmctsPolicy({self.engine.game.module}, {self.num_players}, {self.name!r})"
