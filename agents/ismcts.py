"""Information-set Monte Carlo tree search over the game engines (``ismcts`` agents).

ISMCTS with determinisation (Cowling, Powley and Whitehouse, *Information Set Monte
Carlo Tree Search*, IEEE TCIAIG 2012), for every game, table size and rule option,
through :mod:`agents.engines`: single-observer (one tree) or multiple-observer (one
tree per seat, for games with hidden moves), with an optional prior from the game's
heuristic policy (progressive bias, Chaslot et al. 2008).

One search chooses one move of the ``seat`` to act, from a state the harness has
already resampled for that seat (:func:`agents.policy.decide`; the search never sees
the true state). Each iteration:

1. *determinise*: ``resample_hidden(state, seat, rng)``: everything ``seat`` cannot
   know is dealt anew (one clone per iteration; the moves below act on it in place);
2. *select*: from the root, while every action legal in this determinisation has a
   child, take the child maximising ``mean + c * sqrt(ln(availability) / visits)``
   among the legal ones (plus ``w / (visits + 1)`` for the prior's suggestion),
   then count one availability for each of them (the availability counts of the
   paper: a child is only compared when it could be played). The tree is the acting
   seat's own (multiple observers) or the one tree;
3. *expand*: add one untried legal action: the prior's suggestion if untried, else
   one drawn at random;
4. *play out* to the end of the game (episode), or, in a match of rounds with
   ``horizon=round``, to the end of the round being played, valued by the engine's
   ``round_value`` (the chance to win the match from the tokens, every coming round
   taken as even): uniformly random legal actions, or the game's heuristic policy
   (:data:`agents.specs.HEURISTICS`) at every seat, fed each seat's own observation;
5. *back up* the game's final returns (``rules.returns``), one value per seat,
   scaled into ``[0, 1]`` with the engine's reward bounds: each node adds the value
   of the seat that chose the action leading to it.

Tree nodes are keyed by ``(seat to act, action index)``, so that a path along which
different determinisations hand the move to different seats keeps their statistics
apart; with ``split=private`` also by what the acting seat holds in this
determinisation (the engine's ``private_key``), so that each seat, opponents
included, chooses as someone who knows its own cards rather than by statistics
pooled over every hand the determinisations dealt it. With ``tree=multi`` every seat
has its own tree; the other trees follow each move as their owner sees it: a move
hidden from them (the engine's ``hidden_move``: a bid face down, where a card is put
back) is one edge whatever it was, so an opponent's choices in the tree cannot
depend on it. The prior's suggestion is computed once per node and private key,
from the acting seat's observation in the determinisation that first reaches it. Chance inside a move (a shuffle, a random steal, the deal of the next round)
is drawn afresh in every iteration. The move returned is the root action visited
most (ties: the higher mean, then the lower index); a single legal action is
returned without searching.

Settings (spec ``ismcts:key=value,...``; see :func:`parse_settings`):

- ``iterations`` (default 1000): iterations per move;
- ``time``: seconds per move; with ``time`` alone the search stops on the clock
  only, with both on whichever comes first. A clock makes the choice depend on the
  machine's speed: only iteration budgets are reproducible;
- ``c`` (default 0.7): the exploration constant, for rewards in ``[0, 1]``;
- ``rollout`` (default ``random``): ``random`` or ``heuristic``;
- ``prior`` (default ``heuristic``) and ``w`` (default 1): the progressive bias;
  ``prior=none`` for plain UCB;
- ``horizon`` (default ``round``): ``round`` or ``game`` (matters in Power Hungry
  Pets only, with its default ``reward=match``);
- ``tree`` (default ``multi``): ``multi`` or ``single``;
- ``split`` (default ``private``): ``private`` or ``none``.

``ismcts:prior=none,horizon=game,tree=single,split=none`` is the plain
single-observer algorithm.

All randomness comes from the generator passed to :meth:`IsmctsPolicy.act_in`, so
that with an iteration budget a seeded evaluation replays exactly.

Known limits: with ``tree=single`` the tree holds the opponents' moves as if the
searching seat saw them, so moves that stay hidden until later (a bid face down in
Karel Kakelaar, where the kitten goes back in Exploding Kittens, a Mouse Trapper
placement) are answered in the tree by opponents who know them (``tree=multi``
removes this, at the price of merging, in each tree, whatever the hidden move later
reveals); the opponents' private knowledge is only what ``resample_hidden`` keeps
of it; and no determinisation is weighted by what the opponents' past moves suggest
about their cards. In
Exploding Kittens with three or more players that is not quite a function of the
searching seat's information: ``resample_hidden`` caps the other seats' lower bounds
on each other's hands against the new deal, so a sample's bounds still reflect the
true ones. Random rollouts never read them (the game's moves do not depend on them),
so with ``rollout=random`` and ``prior=none`` the move depends only on what the seat
may know in every game; heuristic rollouts and priors read them through the other
seats' observations.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.engines import Engine, engine_for
from cardgym.aec import mask_to_array
from cardgym.registration import GameEntry

__all__ = ["ROLLOUTS", "IsmctsPolicy", "IsmctsSettings", "parse_settings"]

ROLLOUTS = ("random", "heuristic")
PRIORS = ("none", "heuristic")
HORIZONS = ("round", "game")
TREES = ("multi", "single")
SPLITS = ("private", "none")
_CHOICES = {"rollout": ROLLOUTS, "prior": PRIORS, "horizon": HORIZONS, "tree": TREES,
            "split": SPLITS}
_KEYS = ("iterations", "time", "c", "rollout", "prior", "w", "horizon", "tree", "split")
_USAGE = ("ismcts settings are key=value pairs separated by commas: iterations=N (N >= 1), "
          "time=SECONDS (> 0), c=X (>= 0), rollout=random|heuristic, prior=none|heuristic, "
          "w=X (>= 0), horizon=round|game, tree=multi|single, split=private|none; "
          "e.g. ismcts:iterations=200,c=0.7,prior=none")


class SettingsError(ValueError):
    """An ``ismcts`` setting that does not parse or is out of range."""


@dataclass(frozen=True)
class IsmctsSettings:
    """Budget and behaviour of one search (see the module docstring).

    Attributes:
        iterations: iterations per move, or ``None`` for the time budget alone.
        time: seconds per move, or ``None`` for the iteration budget alone.
        c: the UCB exploration constant (rewards scaled into ``[0, 1]``).
        rollout: ``"random"`` or ``"heuristic"``.
        prior: ``"heuristic"``: the game's heuristic policy suggests one action at
            each tree node, tried first and favoured by a progressive bias
            ``w / (visits + 1)``; ``"none"``: plain UCB.
        w: the weight of that bias (rewards scaled into ``[0, 1]``).
        horizon: ``"round"``: in a match of rounds, an iteration ends when the round
            being played ends, valued by the engine's ``round_value``; ``"game"``:
            it plays the match out. Games of one round ignore it.
        tree: ``"multi"``: one tree per seat, in which a move hidden from that seat
            (the engine's ``hidden_move``) is a single edge; ``"single"``: one tree
            for the searching seat, in which every move is seen.
        split: ``"private"``: a seat's choices are kept apart by what it privately
            holds (the engine's ``private_key``, e.g. its hand), so that every seat,
            opponents included, chooses knowing its own cards; ``"none"``: a seat's
            statistics are shared over every hand the determinisations gave it.
    """

    iterations: int | None = 1000
    time: float | None = None
    c: float = 0.7
    rollout: str = "random"
    prior: str = "heuristic"
    w: float = 1.0
    horizon: str = "round"
    tree: str = "multi"
    split: str = "private"

    def __post_init__(self) -> None:
        if self.iterations is None and self.time is None:
            raise SettingsError("ismcts needs a budget: iterations=N or time=SECONDS")
        if self.iterations is not None and (
                isinstance(self.iterations, bool) or not isinstance(self.iterations, int)
                or self.iterations < 1):
            raise SettingsError(f"ismcts iterations must be an integer >= 1, got "
                                f"{self.iterations!r}")
        if self.time is not None and not (math.isfinite(self.time) and self.time > 0):
            raise SettingsError(f"ismcts time must be a number of seconds > 0, got {self.time!r}")
        if not (math.isfinite(self.c) and self.c >= 0):
            raise SettingsError(f"ismcts c must be a number >= 0, got {self.c!r}")
        if not (math.isfinite(self.w) and self.w >= 0):
            raise SettingsError(f"ismcts w must be a number >= 0, got {self.w!r}")
        for key, allowed in _CHOICES.items():
            value = getattr(self, key)
            if value not in allowed:
                raise SettingsError(f"ismcts {key} must be one of {', '.join(allowed)}, got "
                                    f"{value!r}")

    def label(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.time is not None:
            parts.append(f"time={self.time:g}")
        parts += [f"c={self.c:g}", f"rollout={self.rollout}", f"prior={self.prior}"]
        if self.prior != "none":
            parts.append(f"w={self.w:g}")
        parts += [f"horizon={self.horizon}", f"tree={self.tree}", f"split={self.split}"]
        return "ismcts:" + ",".join(parts)


def parse_settings(argument: str) -> IsmctsSettings:
    """Settings from the text after ``ismcts:``, e.g. ``iterations=200,c=0.7``.

    An empty argument gives the defaults. ``time`` without ``iterations`` searches on
    the clock alone.

    Raises:
        SettingsError: an unknown key, a repeated key, a value that does not parse or
            is out of range; the message says what is allowed.
    """
    values: dict[str, str] = {}
    for item in (part.strip() for part in argument.split(",")):
        if not item:
            continue
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not key or not raw:
            raise SettingsError(f"ismcts setting {item!r} is not of the form key=value; "
                                f"{_USAGE}")
        if key not in _KEYS:
            raise SettingsError(f"unknown ismcts setting {key!r}; {_USAGE}")
        if key in values:
            raise SettingsError(f"ismcts setting {key!r} is given more than once")
        values[key] = raw
    kwargs: dict[str, Any] = {}
    if "iterations" in values:
        try:
            kwargs["iterations"] = int(values["iterations"])
        except ValueError:
            raise SettingsError(f"ismcts iterations must be an integer >= 1, got "
                                f"{values['iterations']!r}") from None
    elif "time" in values:
        kwargs["iterations"] = None
    for key in ("time", "c", "w"):
        if key in values:
            try:
                kwargs[key] = float(values[key])
            except ValueError:
                raise SettingsError(f"ismcts {key} must be a number, got "
                                    f"{values[key]!r}") from None
    for key in _CHOICES:
        if key in values:
            kwargs[key] = values[key]
    return IsmctsSettings(**kwargs)


class _Node:
    """Statistics of one action in the tree, from the view of the seat that chose it."""

    __slots__ = ("children", "visits", "avails", "total", "seat", "hints")

    def __init__(self, seat: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avails = 1
        self.total = 0.0
        self.seat = seat
        #: The prior policy's suggestion per seat choosing here (key into children).
        self.hints: dict[int, int] | None = None


class IsmctsPolicy:
    """An ISMCTS agent for one game, table size and set of rule options.

    It is a :class:`~agents.policy.SearchPolicy`: the harness calls :meth:`act_in`
    with a state resampled for the seat to act. :meth:`act`, from an observation
    alone, cannot search and raises.

    Args:
        game: the game (entry, id or short name).
        num_players: seats at the table.
        options: rule options of the game.
        settings: the search settings (default :class:`IsmctsSettings()`).
    """

    def __init__(self, game: GameEntry | str, num_players: int,
                 options: Mapping[str, Any] | None = None,
                 settings: IsmctsSettings | None = None) -> None:
        self.settings = settings or IsmctsSettings()
        self.options = dict(options or {})
        self.num_players = num_players
        self.engine: Engine = engine_for(game, num_players, self.options)
        self.name = self.settings.label()
        self._arrays: dict[int, NDArray[np.int8]] = {}
        self._rollout_policy: Any = None
        self._prior_policy: Any = None
        if self.settings.rollout == "heuristic" or self.settings.prior == "heuristic":
            heuristic = self._heuristic()
            if self.settings.rollout == "heuristic":
                self._rollout_policy = heuristic
            if self.settings.prior == "heuristic":
                self._prior_policy = heuristic
        # Whether the search stops at the round's end / keeps a tree per seat.
        self._by_round = (self.settings.horizon == "round"
                          and self.engine.round_value is not None)
        self._multi = self.settings.tree == "multi" and self.engine.hidden_move is not None
        self._split = self.settings.split == "private" and self.engine.private_key is not None
        self._root_base = 0
        lo, hi = self.engine.reward_bounds
        self._offset, self._scale = lo, 1.0 / (hi - lo)
        #: Iterations run by the latest search (0 when the move was forced).
        self.last_iterations = 0
        #: Roots of the latest search's trees: one per seat (``tree=multi`` in a game
        #: with hidden moves), else the searching seat's alone.
        self.last_trees: list[_Node] = []

    def _heuristic(self) -> Any:
        from agents.specs import HEURISTICS, _load

        target = HEURISTICS.get(self.engine.game.module)
        if target is None:
            raise SettingsError(f"no heuristic policy for {self.engine.game.env_id}")
        return _load(target)(self.num_players, self.options)

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
            return legal[0]
        root = self.search(state, seat, rng)
        base = self._root_base
        best, best_key = legal[0], (-1, -math.inf, 0)
        for action in legal:
            child = root.children.get(base + action)
            if child is None:
                continue
            key = (child.visits, child.total / child.visits, -action)
            if key > best_key:
                best, best_key = action, key
        return best

    # ------------------------------------------------------------ the search

    def search(self, state: Any, seat: int, rng: np.random.Generator) -> _Node:
        """Run the search from ``state`` for ``seat``; returns the root of its tree."""
        engine = self.engine
        settings = self.settings
        resample, apply, is_over = engine.resample, engine.apply, engine.is_over
        to_act, legal_mask, indices = engine.to_act, engine.legal_mask, engine.indices
        returns = engine.returns
        num_actions = engine.num_actions
        c = settings.c
        offset, scale = self._offset, self._scale
        log, sqrt = math.log, math.sqrt
        heuristic = self._rollout_policy is not None
        prior = self._prior_policy
        w = settings.w
        round_of = engine.round_of if self._by_round else None
        in_round = round_of(state) if round_of is not None else None
        multi = self._multi
        hidden_move = engine.hidden_move
        private_key = engine.private_key if self._split else None
        # Children of a node are keyed ``(actor + n * pid) * num_actions + action``,
        # where ``pid`` numbers the actor's private key (0: not split), or
        # ``-1 - actor`` for a move hidden from the tree's owner.
        pids: dict[Any, int] = {}
        n = engine.num_players
        limit = settings.iterations if settings.iterations is not None else math.inf
        deadline = (time.perf_counter() + settings.time if settings.time is not None
                    else math.inf)
        # One tree per seat (multiple observers), else one tree: ``trees[0]``.
        roots = [_Node(s) for s in range(n)] if multi else [_Node(seat)]
        if private_key is not None:
            pids[private_key(state, seat)] = 1
            self._root_base = (seat + n) * num_actions
        else:
            self._root_base = seat * num_actions
        done = 0
        while done < limit:
            if done and deadline != math.inf and time.perf_counter() >= deadline:
                break
            done += 1
            sim = resample(state, seat, rng)
            nodes = roots[:]
            paths = [[root] for root in roots]
            # Selection and expansion, in the tree of the seat to act.
            while not is_over(sim) and (round_of is None or round_of(sim) == in_round):
                actor = to_act(sim)
                mask = legal_mask(sim)
                legal = indices(mask)
                if private_key is None:
                    base = actor * num_actions
                else:
                    secret = private_key(sim, actor)
                    pid = pids.get(secret)
                    if pid is None:
                        pid = pids[secret] = len(pids) + 1
                    base = (actor + n * pid) * num_actions
                node = nodes[actor if multi else 0]
                children = node.children
                hint = -1
                if prior is not None and len(legal) > 1:
                    hints = node.hints
                    if hints is None:
                        hints = node.hints = {}
                    hint = hints.get(actor, -1)
                    if hint < 0:
                        hint = hints[actor] = base + self._suggest(sim, actor, mask, rng)
                untried = [a for a in legal if base + a not in children]
                expanded = bool(untried)
                if expanded:
                    if hint >= 0 and hint - base in untried:
                        action = hint - base
                    elif len(untried) > 1:
                        action = untried[int(rng.random() * len(untried))]
                    else:
                        action = untried[0]
                    chosen = children[base + action] = _Node(actor)
                else:
                    best = -math.inf
                    for a in legal:
                        child = children[base + a]
                        value = (child.total / child.visits
                                 + c * sqrt(log(child.avails) / child.visits))
                        if base + a == hint:
                            value += w / (child.visits + 1)
                        if value > best:
                            best, chosen = value, child
                            action = a
                    for a in legal:
                        children[base + a].avails += 1
                if multi:
                    # Every other seat's tree follows the move as that seat sees it:
                    # a hidden move is one edge, whichever action it was.
                    key = (-1 - actor if hidden_move(sim, action)  # type: ignore[misc]
                           else actor * num_actions + action)
                    for other in range(n):
                        if other == actor:
                            nodes[other] = chosen
                        else:
                            followed = nodes[other].children
                            step = followed.get(key)
                            if step is None:
                                step = followed[key] = _Node(actor)
                            nodes[other] = step
                        paths[other].append(nodes[other])
                else:
                    nodes[0] = chosen
                    paths[0].append(chosen)
                apply(sim, action, rng)
                if expanded:
                    break
            # Playout (to the end of the game, or of the round being searched).
            if is_over(sim):
                values = returns(sim)
            elif round_of is not None:
                if round_of(sim) == in_round:
                    self._playout_round(sim, in_round, rng)
                values = returns(sim) if is_over(sim) else engine.round_value(sim)  # type: ignore[misc]
            else:
                if heuristic:
                    self._heuristic_playout(sim, rng)
                else:
                    engine.random_playout(sim, rng)
                values = returns(sim)
            # Backup: each node gets the value of the seat that chose the move to it.
            reward = [(value - offset) * scale for value in values]
            for path in paths:
                for node in path:
                    node.visits += 1
                    node.total += reward[node.seat]
        self.last_iterations = done
        self.last_trees = roots
        return roots[seat if multi else 0]

    def _suggest(self, state: Any, seat: int, mask: int, rng: np.random.Generator) -> int:
        """The prior policy's action for ``seat`` (to act in ``state``), from its
        observation there."""
        array = self._arrays.get(mask)
        if array is None:
            if len(self._arrays) >= 4096:
                self._arrays.clear()
            array = self._arrays[mask] = mask_to_array(mask, self.engine.num_actions)
        return int(self._prior_policy.act(self.engine.observe(state, seat), array, rng))

    def _heuristic_playout(self, state: Any, rng: np.random.Generator,
                           in_round: int | None = None) -> None:
        """Heuristic play at every seat until the game ends (or, with ``in_round``,
        until the engine's round number is no longer ``in_round``)."""
        engine = self.engine
        policy = self._rollout_policy
        num_actions = engine.num_actions
        is_over, legal_mask, apply = engine.is_over, engine.legal_mask, engine.apply
        to_act, observe = engine.to_act, engine.observe
        round_of = engine.round_of if in_round is not None else None
        arrays = self._arrays
        while not is_over(state) and (round_of is None or round_of(state) == in_round):
            mask = legal_mask(state)
            if mask & (mask - 1) == 0:  # one legal action: no need to ask
                apply(state, mask.bit_length() - 1, rng)
                continue
            array = arrays.get(mask)
            if array is None:
                array = arrays[mask] = mask_to_array(mask, num_actions)
            seat = to_act(state)
            apply(state, policy.act(observe(state, seat), array, rng), rng)

    def _playout_round(self, state: Any, in_round: int, rng: np.random.Generator) -> None:
        """Play (random or heuristic rollout) until round ``in_round`` ends."""
        if self._rollout_policy is not None:
            self._heuristic_playout(state, rng, in_round)
            return
        engine = self.engine
        is_over, legal_mask, apply, indices = (engine.is_over, engine.legal_mask,
                                               engine.apply, engine.indices)
        round_of = engine.round_of
        assert round_of is not None
        while not is_over(state) and round_of(state) == in_round:
            legal = indices(legal_mask(state))
            apply(state, legal[int(rng.random() * len(legal))], rng)

    def __repr__(self) -> str:
        return f"IsmctsPolicy({self.engine.game.module}, {self.num_players}, {self.name!r})"
