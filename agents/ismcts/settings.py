"""The settings of an ISMCTS agent: the text after ``ismcts:`` in an agent spec.

What each setting does, and its default, is told in :mod:`agents.ismcts`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["ENGINES", "HORIZONS", "PRIORS", "READINGS", "ROLLOUTS", "SELECTS", "SPLITS", "TREES",
           "VALUES", "IsmctsSettings", "SettingsError", "parse_settings"]

ROLLOUTS = ("random", "heuristic", "batched")
PRIORS = ("none", "heuristic", "policy")
VALUES = ("rollout", "policy")
READINGS = ("none", "heuristic", "policy")
HORIZONS = ("round", "game")
TREES = ("multi", "single")
SPLITS = ("private", "none")
SELECTS = ("ucb", "puct")
ENGINES = ("auto", "compiled", "python")
_CHOICES = {"select": SELECTS, "rollout": ROLLOUTS, "engine": ENGINES, "prior": PRIORS,
            "value": VALUES,
            "reading": READINGS, "horizon": HORIZONS, "tree": TREES, "split": SPLITS}
_KEYS = ("iterations", "time", "c", "select", "rollout", "engine", "playouts", "prior", "w", "value",
         "reading", "epsilon", "model", "horizon", "tree", "split")
_USAGE = ("ismcts settings are key=value pairs separated by commas: iterations=N (N >= 1), "
          "time=SECONDS (> 0), c=X (>= 0), select=ucb|puct (puct with prior=policy), "
          "rollout=random|heuristic|batched, engine=auto|compiled|python (with "
          "rollout=random), playouts=K (K >= 1, "
          "with rollout=batched), prior=none|heuristic|policy, "
          "w=X (>= 0), value=rollout|policy, reading=none|heuristic|policy, epsilon=X "
          "(in (0, 1), with reading=heuristic), model=baseline|PATH (with prior, value or "
          "reading policy), horizon=round|game, tree=multi|single, split=private|none; "
          "e.g. ismcts:iterations=200,c=0.7,prior=none")


class SettingsError(ValueError):
    """An ``ismcts`` setting that does not parse or is out of range."""


#: The prior's weight ``w`` when none is given (the only one ``select=puct`` accepts,
#: since it does not use it).
_DEFAULT_W = 1.0


@dataclass(frozen=True)
class IsmctsSettings:
    """Budget and behaviour of one search (see :mod:`agents.ismcts`).

    Attributes:
        iterations: iterations per move, or ``None`` for the time budget alone.
        time: seconds per move, or ``None`` for the iteration budget alone.
        c: the exploration constant of the selection (rewards scaled into ``[0, 1]``).
        select: ``"ucb"``: a child's score is ``mean + c * sqrt(ln(availability) /
            visits)``, plus the prior's bias (``w``), every legal action tried once
            first; ``"puct"`` (with ``prior=policy``): ``mean + c * p * sqrt(N) / (1 +
            visits)``, ``p`` the network's probability and ``N`` the visits of the
            legal actions at the node, so that an action the network finds unlikely
            may never be tried (``w`` does not apply).
        rollout: ``"random"``, ``"heuristic"`` or ``"batched"`` (``playouts`` random
            playouts at once on the game's batched engine, their mean returns the
            value; to the end of the game: with ``horizon=game`` in a match of rounds).
        engine: the rules ``rollout=random`` plays on: ``"compiled"``, the game's
            batched engine (:mod:`cardgym.vector`), one playout in one compiled call
            from the determinisation loaded into a row; ``"python"``, the game's
            Python engine; ``"auto"``, the compiled rules where the game has them
            and numba is installed, else Python. The two draw their random moves
            from different streams (both seeded from the search's generator), so
            the same seed searches differently on each.
        playouts: playouts per iteration with ``rollout=batched``.
        prior: ``"heuristic"``: the game's heuristic policy suggests one action at
            each tree node, tried first and favoured by a progressive bias
            ``w / (visits + 1)``; ``"policy"``: the network of ``model`` gives every
            legal action a probability ``p``, the likeliest untried action is tried
            first and each is favoured by ``w * p / (visits + 1)``; ``"none"``: plain
            UCB.
        w: the weight of that bias (rewards scaled into ``[0, 1]``).
        value: ``"rollout"``: an iteration is valued by playing on (``rollout``);
            ``"policy"``: by the value head of ``model``, each seat's estimated
            return from its own observation, at the node the iteration expanded.
        reading: ``"heuristic"`` or ``"policy"``: each determinisation is weighed by
            how likely that model of the other seats makes the choices it gives them
            (the game's ``hidden_choices``; :mod:`agents.ismcts.reading`);
            ``"none"``: every determinisation counts the same.
        epsilon: with ``reading=heuristic``, the chance the model gives the moves
            the heuristic would not make, spread evenly over them.
        model: the network of the ``policy`` settings: ``baseline``
            (the shipped model of the game and table size) or the path of a model
            written by ``cardgym train``.
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
    select: str = "ucb"
    rollout: str = "random"
    engine: str = "auto"
    playouts: int = 16
    prior: str = "heuristic"
    w: float = _DEFAULT_W
    value: str = "rollout"
    reading: str = "none"
    epsilon: float = 0.1
    model: str = "baseline"
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
        if isinstance(self.playouts, bool) or not isinstance(self.playouts, int) \
                or self.playouts < 1:
            raise SettingsError(f"ismcts playouts must be an integer >= 1, got "
                                f"{self.playouts!r}")
        if not (math.isfinite(self.c) and self.c >= 0):
            raise SettingsError(f"ismcts c must be a number >= 0, got {self.c!r}")
        if not (math.isfinite(self.w) and self.w >= 0):
            raise SettingsError(f"ismcts w must be a number >= 0, got {self.w!r}")
        for key, allowed in _CHOICES.items():
            value = getattr(self, key)
            if value not in allowed:
                raise SettingsError(f"ismcts {key} must be one of {', '.join(allowed)}, got "
                                    f"{value!r}")
        if self.engine != "auto" and self.rollout != "random":
            raise SettingsError(f"ismcts engine={self.engine} goes with rollout=random "
                                "(rollout=batched plays on the compiled rules, "
                                "rollout=heuristic on the Python engine)")
        if self.select == "puct" and self.prior != "policy":
            raise SettingsError("ismcts select=puct weighs the actions by a policy's "
                                "probabilities: it goes with prior=policy")
        if self.select == "puct" and self.w != _DEFAULT_W:
            raise SettingsError(f"ismcts w={self.w:g} goes with select=ucb: with select=puct "
                                "the exploration constant c weighs the prior")
        if not self.model:
            raise SettingsError("ismcts model must be baseline or the path of a model")
        if not (math.isfinite(self.epsilon) and 0 < self.epsilon < 1):
            raise SettingsError(f"ismcts epsilon must be a number in (0, 1), got "
                                f"{self.epsilon!r}")

    @property
    def uses_model(self) -> bool:
        """Whether the search reads a policy network (``prior`` or ``value`` policy)."""
        return "policy" in (self.prior, self.value, self.reading)

    def label(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.time is not None:
            parts.append(f"time={self.time:g}")
        parts.append(f"c={self.c:g}")
        if self.select != "ucb":
            parts.append(f"select={self.select}")
        parts.append(f"rollout={self.rollout}")
        if self.engine != "auto":
            parts.append(f"engine={self.engine}")
        if self.rollout == "batched":
            parts.append(f"playouts={self.playouts}")
        parts.append(f"prior={self.prior}")
        if self.prior != "none" and self.select == "ucb":
            parts.append(f"w={self.w:g}")
        if self.value != "rollout":
            parts.append(f"value={self.value}")
        if self.reading != "none":
            parts.append(f"reading={self.reading}")
        if self.reading == "heuristic":
            parts.append(f"epsilon={self.epsilon:g}")
        if self.uses_model:
            parts.append(f"model={self.model}")
        parts += [f"horizon={self.horizon}", f"tree={self.tree}", f"split={self.split}"]
        return "ismcts:" + ",".join(parts)


def _integer(values: dict[str, str], key: str) -> int:
    try:
        return int(values[key])
    except ValueError:
        raise SettingsError(f"ismcts {key} must be an integer >= 1, got "
                            f"{values[key]!r}") from None


def _pairs(argument: str) -> dict[str, str]:
    """The ``key=value`` pairs of a settings text, each key known and given once."""
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
    return values


def parse_settings(argument: str) -> IsmctsSettings:
    """Settings from the text after ``ismcts:``, e.g. ``iterations=200,c=0.7``.

    An empty argument gives the defaults. ``time`` without ``iterations`` searches on
    the clock alone.

    Raises:
        SettingsError: an unknown key, a repeated key, a value that does not parse or
            is out of range; the message says what is allowed.
    """
    values = _pairs(argument)
    kwargs: dict[str, Any] = {}
    if "iterations" in values:
        kwargs["iterations"] = _integer(values, "iterations")
    elif "time" in values:
        kwargs["iterations"] = None
    if "playouts" in values:
        if values.get("rollout") != "batched":
            raise SettingsError("ismcts playouts=K goes with rollout=batched")
        kwargs["playouts"] = _integer(values, "playouts")
    for key in ("time", "c", "w", "epsilon"):
        if key in values:
            try:
                kwargs[key] = float(values[key])
            except ValueError:
                raise SettingsError(f"ismcts {key} must be a number, got "
                                    f"{values[key]!r}") from None
    for key in _CHOICES:
        if key in values:
            kwargs[key] = values[key]
    if "model" in values and "policy" not in (values.get("prior"), values.get("value"),
                                              values.get("reading")):
        raise SettingsError("ismcts model=... goes with prior=policy, value=policy or "
                            "reading=policy")
    if "w" in values and values.get("select") == "puct":
        raise SettingsError("ismcts w=... goes with select=ucb: with select=puct the "
                            "exploration constant c weighs the prior")
    if "epsilon" in values and values.get("reading") != "heuristic":
        raise SettingsError("ismcts epsilon=... goes with reading=heuristic")
    if "model" in values:
        kwargs["model"] = values["model"]
    return IsmctsSettings(**kwargs)
