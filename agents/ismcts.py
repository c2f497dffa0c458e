"""Information-set Monte Carlo tree search over the game engines (``ismcts`` agents).

Single-observer ISMCTS with determinisation (SO-ISMCTS, Cowling, Powley and
Whitehouse, *Information Set Monte Carlo Tree Search*, IEEE TCIAIG 2012), for every
game, table size and rule option, through :mod:`agents.engines`.

One search chooses one move of the ``seat`` to act, from a state the harness has
already resampled for that seat (:func:`agents.policy.decide`; the search never sees
the true state). Each iteration:

1. *determinise*: ``resample_hidden(state, seat, rng)``: everything ``seat`` cannot
   know is dealt anew (one clone per iteration; the moves below act on it in place);
2. *select*: from the root, while every action legal in this determinisation has a
   child, take the child maximising ``mean + c * sqrt(ln(availability) / visits)``
   among the legal ones, then count one availability for each of them (the
   availability counts of the paper: a child is only compared when it could be
   played);
3. *expand*: add one untried legal action, drawn at random;
4. *play out* to the end of the game (episode): uniformly random legal actions, or
   the game's heuristic policy (:data:`agents.specs.HEURISTICS`) at every seat, fed
   each seat's own observation;
5. *back up* the game's final returns (``rules.returns``), one value per seat,
   scaled into ``[0, 1]`` with the engine's reward bounds: each node adds the value
   of the seat that chose the action leading to it.

Tree nodes are keyed by ``(seat to act, action index)``, so that a path along which
different determinisations hand the move to different seats keeps their statistics
apart. Chance inside a move (a shuffle, a random steal, the deal of the next round)
is drawn afresh in every iteration. The move returned is the root action visited
most (ties: the higher mean, then the lower index); a single legal action is
returned without searching.

Settings (spec ``ismcts:key=value,...``; see :func:`parse_settings`):

- ``iterations`` (default 1000): iterations per move;
- ``time``: seconds per move; with ``time`` alone the search stops on the clock
  only, with both on whichever comes first. A clock makes the choice depend on the
  machine's speed: only iteration budgets are reproducible;
- ``c`` (default 0.7): the exploration constant, for rewards in ``[0, 1]``;
- ``rollout`` (default ``random``): ``random`` or ``heuristic``.

All randomness comes from the generator passed to :meth:`IsmctsPolicy.act_in`, so
that with an iteration budget a seeded evaluation replays exactly.

Known limits of the single-observer variant: the tree holds the opponents' moves as
if the searching seat saw them, so moves that stay hidden until later (a bid face
down in Karel Kakelaar, where the kitten goes back in Exploding Kittens, a Mouse
Trapper placement) are answered in the tree by opponents who know them; and the
opponents' private knowledge is only what ``resample_hidden`` keeps of it. In
Exploding Kittens with three or more players that is not quite a function of the
searching seat's information: ``resample_hidden`` caps the other seats' lower bounds
on each other's hands against the new deal, so a sample's bounds still reflect the
true ones. Random rollouts never read them (the game's moves do not depend on them),
so with ``rollout=random`` the move depends only on what the seat may know in every
game; heuristic rollouts read them through the other seats' observations.
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
_KEYS = ("iterations", "time", "c", "rollout")
_USAGE = ("ismcts settings are key=value pairs separated by commas: iterations=N (N >= 1), "
          "time=SECONDS (> 0), c=X (>= 0), rollout=random|heuristic; "
          "e.g. ismcts:iterations=200,c=0.7,rollout=heuristic")


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
    """

    iterations: int | None = 1000
    time: float | None = None
    c: float = 0.7
    rollout: str = "random"

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
        if self.rollout not in ROLLOUTS:
            raise SettingsError(f"ismcts rollout must be one of {', '.join(ROLLOUTS)}, got "
                                f"{self.rollout!r}")

    def label(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.time is not None:
            parts.append(f"time={self.time:g}")
        parts += [f"c={self.c:g}", f"rollout={self.rollout}"]
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
    for key in ("time", "c"):
        if key in values:
            try:
                kwargs[key] = float(values[key])
            except ValueError:
                raise SettingsError(f"ismcts {key} must be a number, got "
                                    f"{values[key]!r}") from None
    if "rollout" in values:
        kwargs["rollout"] = values["rollout"]
    return IsmctsSettings(**kwargs)


class _Node:
    """Statistics of one action in the tree, from the view of the seat that chose it."""

    __slots__ = ("children", "visits", "avails", "total", "seat")

    def __init__(self, seat: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avails = 1
        self.total = 0.0
        self.seat = seat


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
        self._rollout_policy: Any = None
        if self.settings.rollout == "heuristic":
            from agents.specs import HEURISTICS, _load

            target = HEURISTICS.get(self.engine.game.module)
            if target is None:
                raise SettingsError(f"no heuristic policy for {self.engine.game.env_id}")
            self._rollout_policy = _load(target)(num_players, self.options)
        lo, hi = self.engine.reward_bounds
        self._offset, self._scale = lo, 1.0 / (hi - lo)
        #: Iterations run by the latest search (0 when the move was forced).
        self.last_iterations = 0

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
        base = seat * engine.num_actions
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
        """Run the search from ``state`` for ``seat``; returns the root of the tree."""
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
        limit = settings.iterations if settings.iterations is not None else math.inf
        deadline = (time.perf_counter() + settings.time if settings.time is not None
                    else math.inf)
        root = _Node(seat)
        done = 0
        while done < limit:
            if done and deadline != math.inf and time.perf_counter() >= deadline:
                break
            done += 1
            sim = resample(state, seat, rng)
            node = root
            path = [root]
            # Selection and expansion.
            while not is_over(sim):
                actor = to_act(sim)
                legal = indices(legal_mask(sim))
                base = actor * num_actions
                children = node.children
                untried = [a for a in legal if base + a not in children]
                if untried:
                    action = untried[int(rng.random() * len(untried))] if len(untried) > 1 \
                        else untried[0]
                    child = _Node(actor)
                    children[base + action] = child
                    apply(sim, action, rng)
                    path.append(child)
                    break
                chosen = None
                best = -math.inf
                for a in legal:
                    child = children[base + a]
                    value = (child.total / child.visits
                             + c * sqrt(log(child.avails) / child.visits))
                    if value > best:
                        best, chosen = value, child
                        action = a
                for a in legal:
                    children[base + a].avails += 1
                node = chosen  # type: ignore[assignment]
                apply(sim, action, rng)
                path.append(node)
            # Playout.
            if not is_over(sim):
                if heuristic:
                    self._heuristic_playout(sim, rng)
                else:
                    engine.random_playout(sim, rng)
            # Backup.
            reward = [(value - offset) * scale for value in returns(sim)]
            for node in path:
                node.visits += 1
                node.total += reward[node.seat]
        self.last_iterations = done
        return root

    def _heuristic_playout(self, state: Any, rng: np.random.Generator) -> None:
        engine = self.engine
        policy = self._rollout_policy
        num_actions = engine.num_actions
        is_over, legal_mask, apply = engine.is_over, engine.legal_mask, engine.apply
        to_act, observe = engine.to_act, engine.observe
        arrays: dict[int, NDArray[np.int8]] = {}
        while not is_over(state):
            mask = legal_mask(state)
            if mask & (mask - 1) == 0:  # one legal action: no need to ask
                apply(state, mask.bit_length() - 1, rng)
                continue
            array = arrays.get(mask)
            if array is None:
                array = arrays[mask] = mask_to_array(mask, num_actions)
            seat = to_act(state)
            apply(state, policy.act(observe(state, seat), array, rng), rng)

    def __repr__(self) -> str:
        return f"IsmctsPolicy({self.engine.game.module}, {self.num_players}, {self.name!r})"
