"""One ISMCTS search: the iterations that grow the trees from one state for one seat.

Each iteration determinises (the state resampled for the searching seat), walks
down the tree of the seat to act by selection until it expands one new action
(:mod:`agents.ismcts.tree`), plays on past the tree (:mod:`agents.ismcts.rollout`)
and backs the returns up every tree it walked. See :mod:`agents.ismcts` for the
algorithm and its settings.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from agents.engines import Engine
from agents.ismcts.network import PolicyNetwork
from agents.ismcts.reading import Reader
from agents.ismcts.rollout import BatchedPlayouts, CompiledPlayouts, Playouts, Prior
from agents.ismcts.settings import IsmctsSettings
from agents.ismcts.tree import (
    Node,
    backup,
    expand,
    expand_likeliest,
    follow,
    select,
    select_puct,
)

__all__ = ["Search"]


class Search:
    """The trees of one search and the iterations that grow them.

    Children are keyed ``(actor + n * pid) * num_actions + action``, where ``pid``
    numbers the actor's private key in this search (0: choices not split by it), or
    ``-1 - actor`` for a move hidden from the tree's owner.

    Args:
        engine: the game's engine adapter (its operations are read once, here).
        settings: the search settings.
        playouts: how to play on past the tree.
        prior: the heuristic prior, or ``None``.
        batched: batched playouts (``rollout=batched``), or ``None``.
        network: the policy network of ``prior=policy`` and ``value=policy``, or
            ``None``.
        reader: weighs each determinisation (``reading=...``), or ``None``.
        compiled: random playouts on the compiled rules (``engine=compiled``), or
            ``None``.

    Attributes:
        roots: the roots of the trees: one per seat (``tree=multi`` in a game with
            hidden moves), else the searching seat's alone.
        root_base: the key of the searching seat's action 0 at the root.
        iterations: iterations run so far.
    """

    def __init__(self, engine: Engine, settings: IsmctsSettings, playouts: Playouts,
                 prior: Prior | None, batched: BatchedPlayouts | None = None,
                 network: PolicyNetwork | None = None, reader: Reader | None = None,
                 compiled: CompiledPlayouts | None = None) -> None:
        self.engine = engine
        self.compiled = compiled
        self.settings = settings
        self.playouts = playouts
        self.batched = batched
        self.prior = prior
        self.guide = network if settings.prior == "policy" else None
        self.critic = network if settings.value == "policy" else None
        self._puct = settings.select == "puct"  # settings check: it comes with prior=policy
        self.reader = reader
        self._apply, self._is_over, self._to_act = engine.apply, engine.is_over, engine.to_act
        self._legal_mask, self._indices = engine.legal_mask, engine.indices
        self._returns, self._hidden_move = engine.returns, engine.hidden_move
        # Whether the search stops at the round's end / keeps a tree per seat / keeps
        # a seat's choices apart by what it holds.
        self._round_of = (engine.round_of if settings.horizon == "round"
                          and engine.round_value is not None else None)
        self.multi = settings.tree == "multi" and engine.hidden_move is not None
        self._private_key = engine.private_key if settings.split == "private" else None
        low, high = engine.reward_bounds
        self._offset, self._scale = low, 1.0 / (high - low)
        self._pids: dict[Hashable, int] = {}
        self._in_round: int | None = None
        self.roots: list[Node] = []
        self.root_base = 0
        self.iterations = 0

    def run(self, state: Any, seat: int, rng: np.random.Generator) -> Node:
        """Search from ``state`` (resampled for ``seat``, who is to act) until the
        budget is spent; returns the root of ``seat``'s tree."""
        engine, settings = self.engine, self.settings
        n, num_actions = engine.num_players, engine.num_actions
        self._in_round = self._round_of(state) if self._round_of is not None else None
        self.roots = [Node(s) for s in range(n)] if self.multi else [Node(seat)]
        if self._private_key is not None:
            self._pids[self._private_key(state, seat)] = 1
            self.root_base = (seat + n) * num_actions
        else:
            self.root_base = seat * num_actions
        limit = settings.iterations if settings.iterations is not None else math.inf
        deadline = (time.perf_counter() + settings.time if settings.time is not None
                    else math.inf)
        resample = engine.resample
        reader = self.reader
        if reader is not None:
            reader.start(rng)
        weight = 1.0
        while self.iterations < limit:
            if self.iterations and deadline != math.inf and time.perf_counter() >= deadline:
                break
            self.iterations += 1
            sim = resample(state, seat, rng)
            if reader is not None:
                weight = reader.weight(sim, seat)
            paths = self._descend(sim, rng, weight)
            backup(paths, self._value(sim, rng), self._offset, self._scale, weight)
        return self.roots[seat if self.multi else 0]

    def _descend(self, sim: Any, rng: np.random.Generator,
                 weight: float = 1.0) -> list[list[Node]]:
        """Selection and expansion, in the tree of the seat to act, playing the moves
        on ``sim``; returns each tree's path from its root."""
        is_over, round_of, in_round = self._is_over, self._round_of, self._in_round
        nodes = self.roots[:]
        paths = [[root] for root in self.roots]
        while not is_over(sim) and (round_of is None or round_of(sim) == in_round):
            actor = self._to_act(sim)
            mask = self._legal_mask(sim)
            legal = self._indices(mask)
            base = self._base(sim, actor)
            node = nodes[actor if self.multi else 0]
            if self._puct and len(legal) > 1:
                probs = self._probabilities(node, sim, actor, mask, base)
                action, chosen, new = select_puct(node, legal, base, actor,
                                                  self.settings.c, probs, weight)
            else:
                untried = [a for a in legal if base + a not in node.children]
                new = bool(untried)
                if self.guide is not None and len(legal) > 1:
                    probs = self._probabilities(node, sim, actor, mask, base)
                    if untried:
                        action, chosen = expand_likeliest(node, untried, probs, base, actor)
                    else:
                        action, chosen = select(node, legal, base, -1, self.settings.c,
                                                self.settings.w, weight, probs)
                else:
                    hint = self._hint(node, sim, actor, mask, base, legal, rng)
                    if untried:
                        action, chosen = expand(node, untried, hint, base, actor, rng)
                    else:
                        action, chosen = select(node, legal, base, hint, self.settings.c,
                                                self.settings.w, weight)
            self._follow(nodes, paths, sim, actor, action, chosen)
            self._apply(sim, action, rng)
            if new:
                break
        return paths

    def _base(self, sim: Any, actor: int) -> int:
        """The key of ``actor``'s action 0 here: by seat, and by what it privately
        holds in this determinisation when choices are split by it."""
        num_actions = self.engine.num_actions
        if self._private_key is None:
            return actor * num_actions
        secret = self._private_key(sim, actor)
        pid = self._pids.get(secret)
        if pid is None:
            pid = self._pids[secret] = len(self._pids) + 1
        return (actor + self.engine.num_players * pid) * num_actions

    def _hint(self, node: Node, sim: Any, actor: int, mask: int, base: int,
              legal: Sequence[int], rng: np.random.Generator) -> int:
        """The prior's suggestion at ``node`` as a child key, or ``-1`` for none. It is
        asked once per node and chooser (``base``: the seat, and with ``split=private``
        what it holds), in the determinisation that first reaches it."""
        if self.prior is None or len(legal) <= 1:
            return -1
        hints = node.hints
        if hints is None:
            hints = node.hints = {}
        hint: int = hints.get(base, -1)
        if hint < 0:
            hint = hints[base] = base + self.prior.suggest(sim, actor, mask, rng)
        return hint

    def _probabilities(self, node: Node, sim: Any, actor: int, mask: int,
                       base: int) -> Any:
        """The policy network's probabilities at ``node`` for the chooser ``base``,
        read once, in the determinisation that first reaches it."""
        assert self.guide is not None
        hints = node.hints
        if hints is None:
            hints = node.hints = {}
        probs = hints.get(base)
        if probs is None:
            probs = hints[base] = self.guide.probabilities(sim, actor, mask)
        return probs

    def _follow(self, nodes: list[Node], paths: list[list[Node]], sim: Any, actor: int,
                action: int, chosen: Node) -> None:
        """Move the trees down the move just chosen (before it is played on ``sim``)."""
        if not self.multi:
            nodes[0] = chosen
            paths[0].append(chosen)
            return
        # Every other seat's tree follows the move as that seat sees it: a hidden
        # move is one edge, whichever action it was.
        hidden = self._hidden_move(sim, action)  # type: ignore[misc]
        follow(nodes, paths, actor, chosen,
               -1 - actor if hidden else actor * self.engine.num_actions + action)

    def _value(self, sim: Any, rng: np.random.Generator) -> Sequence[float]:
        """The returns of ``sim`` once played on past the tree: to the end of the game,
        or of the round being searched (then valued by the engine's ``round_value``)."""
        if self._is_over(sim):
            return self._returns(sim)
        if self.critic is not None:
            return self.critic.values(sim)
        if self.batched is not None:
            return self.batched.value(sim)
        if self.compiled is not None:
            return self._compiled_value(sim)
        if self._round_of is not None:
            if self._round_of(sim) == self._in_round:
                self.playouts.to_round_end(sim, self._in_round, rng)  # type: ignore[arg-type]
            if self._is_over(sim):
                return self._returns(sim)
            return self.engine.round_value(sim)  # type: ignore[misc]
        self.playouts.to_end(sim, rng)
        return self._returns(sim)

    def _compiled_value(self, sim: Any) -> Sequence[float]:
        """:meth:`_value` with the playout on the compiled rules."""
        assert self.compiled is not None
        round_of = self._round_of
        if round_of is not None and round_of(sim) != self._in_round:
            return self.engine.round_value(sim)  # type: ignore[misc]
        return self.compiled.value(sim, round_of is not None)
