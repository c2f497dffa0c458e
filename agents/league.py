"""A league of opponents sampled by prioritized fictitious self-play (PFSP).

``cardgym train --league`` trains the learner against a pool of members: the fixed
agents of ``--opponents`` (``random``, ``heuristic``, ``model:PATH``) and, when the
pool holds ``self``, every frozen checkpoint of the learner (the latest
``--league-size``). Each member keeps the learner's recent record against it: a game
counts 1 when the learner's return over the game is positive (a win), 0 when it is
negative and 1/2 when it is zero. The record decays, so that it follows the learner as
it improves: each new game against a member multiplies that member's earlier record by
``1 - 1/window``, and the record weighs roughly its last ``window`` games.

A member is drawn for an opponent seat with probability

    (1 - floor) * f(x_m) / sum_k f(x_k)  +  floor / M,     f(x) = (1 - x) ** power

where ``x_m`` is the learner's win rate against member ``m`` (its decayed record with
one game's worth of prior at 1/2, so that a new member starts at 1/2) and ``M`` the
number of members. Hard opponents, those the learner beats least, are drawn most
(AlphaStar's "hard" weighting, ``power`` 2 by default); ``floor`` keeps every member,
even one the learner always beats, in play. ``power`` 0 draws every member equally.

With ``group_self`` (``--pfsp-self group``) the learner's checkpoints (labels
``self:...``) count as one member in that formula, with the record of all their games
together; the group's share is then split among the checkpoints by the same weighting
without the floor. Otherwise each checkpoint is a member of its own, and twenty kept
checkpoints near an even record hold most of the draws between them: the fixed
opponents (the heuristic) get about one draw in twenty each.

The league lives in the training process: the envs report each finished game's
opponents and the learner's return in ``info["league"]``, the trainer records them
here, and it sends the weights back to the envs (``set_opponent_weights``) after every
rollout. :meth:`League.to_json` is what ``league.json`` in the run folder holds; a
resumed run reads it back with :meth:`League.from_json`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["League", "Member", "SELF", "checkpoint_label", "outcome_score"]

#: The opponent spec of the learner's own checkpoints, and the group their labels share.
SELF = "self"


def checkpoint_label(name: str) -> str:
    """The league and pool label of the learner's checkpoint ``name``: ``self:NAME``
    (``self:none`` stands in before the first checkpoint)."""
    return f"{SELF}:{name}"


def outcome_score(episode_return: float) -> float:
    """The learner's score in one game from its return: 1 win, 0.5 draw, 0 loss."""
    if episode_return > 0:
        return 1.0
    if episode_return < 0:
        return 0.0
    return 0.5


@dataclass
class Member:
    """One opponent of the league and the learner's record against it."""

    label: str
    #: Games recorded against this member, in all.
    games: int = 0
    #: The learner's score in them (wins plus half the draws), in all.
    score: float = 0.0
    #: The decayed record: recent games and recent score.
    recent_games: float = 0.0
    recent_score: float = 0.0

    def win_rate(self) -> float:
        """The learner's recent win rate against this member, 1/2 before any game."""
        return (self.recent_score + 0.5) / (self.recent_games + 1.0)


class League:
    """Members, their records, and PFSP weights.

    Args:
        power: exponent of the weighting ``(1 - x) ** power``; 0 draws uniformly.
        floor: share of draws spread evenly over all members, in [0, 1].
        window: roughly how many recent games against a member its win rate reflects.
        group_self: weigh the learner's checkpoints (``self:...``) as one member.

    Raises:
        ValueError: a negative or non-finite ``power``, a ``floor`` outside [0, 1],
            or a ``window`` below 1.
    """

    def __init__(self, power: float = 2.0, floor: float = 0.1, window: int = 500,
                 group_self: bool = False) -> None:
        if not (math.isfinite(power) and power >= 0):
            raise ValueError(f"power must be a finite number >= 0, got {power!r}")
        if not (math.isfinite(floor) and 0.0 <= floor <= 1.0):
            raise ValueError(f"floor must be in [0, 1], got {floor!r}")
        if window < 1:
            raise ValueError(f"window must be at least 1 game, got {window!r}")
        self.power = float(power)
        self.floor = float(floor)
        self.window = int(window)
        self.group_self = bool(group_self)
        self.members: dict[str, Member] = {}

    # ------------------------------------------------------------ members

    def add(self, label: str) -> Member:
        """The member ``label``, added with an empty record if it is new."""
        member = self.members.get(label)
        if member is None:
            member = self.members[label] = Member(label)
        return member

    def keep(self, labels: Iterable[str]) -> None:
        """Drop every member not in ``labels`` (checkpoints that left the pool)."""
        wanted = set(labels)
        for label in list(self.members):
            if label not in wanted:
                del self.members[label]

    def record(self, labels: Sequence[str], episode_return: float) -> None:
        """One finished game: the learner's return against the opponents ``labels``.
        Each distinct member at the table is credited once; labels that are not
        members (a checkpoint that has left the pool) are skipped."""
        score = outcome_score(episode_return)
        decay = 1.0 - 1.0 / self.window
        for label in dict.fromkeys(labels):
            member = self.members.get(label)
            if member is None:
                continue
            member.games += 1
            member.score += score
            member.recent_games = member.recent_games * decay + 1.0
            member.recent_score = member.recent_score * decay + score

    # ------------------------------------------------------------ weights

    def win_rates(self) -> dict[str, float]:
        """The learner's recent win rate against each member."""
        return {label: member.win_rate() for label, member in self.members.items()}

    def group_of(self, label: str) -> str:
        """The member ``label`` counts as in the weighting: ``self`` for a checkpoint
        of the learner when the league groups them, else the label itself."""
        if self.group_self and label.startswith(checkpoint_label("")):
            return SELF
        return label

    def weights(self) -> dict[str, float]:
        """Each member's probability of being drawn for an opponent seat (they sum to 1)."""
        if not self.members:
            return {}
        groups: dict[str, list[Member]] = {}
        for member in self.members.values():
            groups.setdefault(self.group_of(member.label), []).append(member)
        rates = {group: _pooled_win_rate(members) for group, members in groups.items()}
        shares = _pfsp(rates, self.power, self.floor)
        weights: dict[str, float] = {}
        for group, members in groups.items():
            within = _pfsp({m.label: m.win_rate() for m in members}, self.power, 0.0)
            for label, share in within.items():
                weights[label] = shares[group] * share
        return weights

    # ------------------------------------------------------------ saving

    def to_json(self) -> dict[str, Any]:
        """The league as plain data: settings, and per member its records and weight."""
        weights = self.weights()
        return {
            "sampling": "pfsp",
            "power": self.power, "floor": self.floor, "window": self.window,
            "group_self": self.group_self,
            "members": [
                {"label": m.label, "games": m.games, "score": round(m.score, 6),
                 "recent_games": round(m.recent_games, 6),
                 "recent_score": round(m.recent_score, 6),
                 "win_rate": round(m.win_rate(), 4), "weight": round(weights[m.label], 4)}
                for m in self.members.values()
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> League:
        """A league saved by :meth:`to_json`.

        Raises:
            ValueError: ``data`` is not a saved league (the message says what is missing).
        """
        try:
            league = cls(float(data["power"]), float(data["floor"]), int(data["window"]),
                         bool(data.get("group_self", False)))
            for row in data["members"]:
                member = league.add(str(row["label"]))
                member.games = int(row["games"])
                member.score = float(row["score"])
                member.recent_games = float(row["recent_games"])
                member.recent_score = float(row["recent_score"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a saved league (league.json): missing or malformed "
                             f"{error}") from None
        return league


def _pooled_win_rate(members: Sequence[Member]) -> float:
    """The learner's recent win rate against a group: all its members' games together,
    with one game's worth of prior at 1/2 (a single member's own win rate)."""
    games = sum(m.recent_games for m in members)
    score = sum(m.recent_score for m in members)
    return (score + 0.5) / (games + 1.0)


def _pfsp(rates: Mapping[str, float], power: float, floor: float) -> dict[str, float]:
    """PFSP draw probabilities from win rates: ``(1-floor)(1-x)^power/sum + floor/M``."""
    hardness = {label: (1.0 - rate) ** power for label, rate in rates.items()}
    total = sum(hardness.values())
    count = len(hardness)
    if total <= 0.0:  # the learner beats everyone: draw evenly
        return {label: 1.0 / count for label in hardness}
    return {label: (1.0 - floor) * value / total + floor / count
            for label, value in hardness.items()}
