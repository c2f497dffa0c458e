"""The search trees of ISMCTS: their nodes, and the steps that walk and grow them.

A node holds the statistics of one action, from the view of the seat that chose
it. Its children are keyed by integers that the search makes
(:class:`~agents.ismcts.search.Search`): ``base + action`` for an action of the seat
to act, where ``base`` tells the acting seat (and what it privately holds) apart, or
a key of its own for a move that the tree's owner does not see. Every step here
takes the keys as given.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["Node", "backup", "expand", "expand_likeliest", "follow", "select", "select_puct"]


class Node:
    """Statistics of one action in the tree, from the view of the seat that chose it."""

    __slots__ = ("children", "visits", "avails", "total", "seat", "hints")

    def __init__(self, seat: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits: float = 0
        self.avails: float = 1
        self.total = 0.0
        self.seat = seat
        #: The prior's suggestion (a key into children) or its probabilities over the
        #: actions, per chooser here: by the base key of the seat to act and what it
        #: privately holds (see :class:`~agents.ismcts.search.Search`).
        self.hints: dict[int, Any] | None = None


def expand(node: Node, untried: Sequence[int], hint: int, base: int, actor: int,
           rng: np.random.Generator) -> tuple[int, Node]:
    """Add a child for one untried action of ``actor``: the prior's suggestion
    (the key ``hint``, or ``-1`` for none) when it is untried, else one drawn at
    random. Returns the action and the new child."""
    if hint >= 0 and hint - base in untried:
        action = hint - base
    elif len(untried) > 1:
        action = untried[int(rng.random() * len(untried))]
    else:
        action = untried[0]
    chosen = node.children[base + action] = Node(actor)
    return action, chosen


def expand_likeliest(node: Node, untried: Sequence[int], probs: NDArray[np.float64],
                     base: int, actor: int) -> tuple[int, Node]:
    """Add a child for the untried action of ``actor`` that the prior's
    probabilities ``probs`` favour most (the lowest index on ties)."""
    action = _likeliest(untried, probs)
    chosen = node.children[base + action] = Node(actor)
    return action, chosen


def _likeliest(actions: Sequence[int], probs: NDArray[np.float64]) -> int:
    """The action of ``actions`` that ``probs`` favour most, the lowest on ties."""
    return max(actions, key=lambda a: (probs[a], -a))


def select(node: Node, legal: Sequence[int], base: int, hint: int, c: float,
           w: float, weight: float = 1.0,
           probs: NDArray[np.float64] | None = None) -> tuple[int, Node]:
    """The child of ``node`` that maximises ``mean + c * sqrt(ln(availability) / visits)``
    among the legal actions (every one has a child), plus the prior's bias: ``w /
    (visits + 1)`` for its suggestion ``hint`` or, given a policy's probabilities
    ``probs``, ``w * p / (visits + 1)`` for every action; the first such on ties. Then
    one availability (of the iteration's ``weight``) is counted for each legal child:
    each could have been played here.

    Returns the action and its child.
    """
    children = node.children
    log, sqrt = math.log, math.sqrt
    action = legal[0]
    chosen = children[base + action]
    best = -math.inf
    for a in legal:
        child = children[base + a]
        value = child.total / child.visits + c * sqrt(log(child.avails) / child.visits)
        if probs is not None:
            value += w * probs[a] / (child.visits + 1)
        elif base + a == hint:
            value += w / (child.visits + 1)
        if value > best:
            best, chosen = value, child
            action = a
    for a in legal:
        children[base + a].avails += weight
    return action, chosen


def select_puct(node: Node, legal: Sequence[int], base: int, actor: int, c: float,
                probs: NDArray[np.float64], weight: float = 1.0) -> tuple[int, Node, bool]:
    """The action of ``actor`` at ``node`` that maximises the PUCT score ``mean + c * p *
    sqrt(N) / (1 + visits)`` among the legal ones, ``p`` the prior's probability and
    ``N`` the visits of the legal children (how often this choice was made with them
    legal). An action without a child is valued at the visited ones' mean (or taken
    at once by its probability when none has a visit yet); choosing it adds its child
    (the expansion, with one availability). The first such on ties. One availability
    (of the iteration's ``weight``) is counted for each legal child there was, as in
    :func:`select`.

    Returns the action, its child and whether the child is new.
    """
    children = node.children
    tried = [children.get(base + a) for a in legal]
    visits = total = 0.0
    for child in tried:
        if child is not None:
            visits += child.visits
            total += child.total
    if visits <= 0:
        action = _likeliest(legal, probs)
        chosen = children.get(base + action)
    else:
        first = total / visits
        scale = c * math.sqrt(visits)
        action, chosen, best = legal[0], tried[0], -math.inf
        for a, child in zip(legal, tried, strict=True):
            if child is None:
                value = first + scale * probs[a]
            else:
                value = child.total / child.visits + scale * probs[a] / (1 + child.visits)
            if value > best:
                best, action, chosen = value, a, child
    for child in tried:
        if child is not None:
            child.avails += weight
    new = chosen is None
    if chosen is None:
        chosen = children[base + action] = Node(actor)
    return action, chosen, new


def follow(nodes: list[Node], paths: Sequence[list[Node]], actor: int, chosen: Node,
           key: int) -> None:
    """Move every tree down one move of ``actor``: the actor's own tree to ``chosen``,
    every other seat's to its child ``key`` (added when new), the move as that seat
    sees it. ``nodes`` and ``paths`` hold each tree's current node and path."""
    for other, current in enumerate(nodes):
        if other == actor:
            nodes[other] = chosen
        else:
            step = current.children.get(key)
            if step is None:
                step = current.children[key] = Node(actor)
            nodes[other] = step
        paths[other].append(nodes[other])


def backup(paths: Sequence[Sequence[Node]], values: Sequence[float], offset: float,
           scale: float, weight: float = 1.0) -> None:
    """Add one visit to every node on ``paths``, with the value (the game's return,
    mapped by ``(value - offset) * scale``) of the seat that chose the move to it; an
    iteration of ``weight`` (a weighed determinisation) adds that much of a visit."""
    reward = [(value - offset) * scale * weight for value in values]
    for path in paths:
        for node in path:
            node.visits += weight
            node.total += reward[node.seat]
