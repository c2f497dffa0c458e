"""What the arena found: the ratings, each agent's standing, and the results of a setting.

:mod:`benchmarks.arena` plays the pairings and fills these in;
:mod:`benchmarks.arena_report` writes them out as tables, CSV files and model cards.

The standings are ranked by the column a reader compares first, the win rate (wins
per seat-game; ties by the OpenSkill ordinal, then by label): :func:`ranked`. The
ordinal's own order is kept beside it (:func:`ordinal_ranks`), since the two can
disagree on a short arena: the ratings follow the order the games were played in.
Where two agents' 95% intervals overlap, the games do not tell them apart
(:func:`not_separated`), and the tables say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agents.evaluate import AgentResult, EvalResult
from agents.outcomes import has_rounds, wilson_interval
from cardgym.registration import Game

__all__ = ["ORDINAL_Z", "Rating", "SettingResult", "Standing", "not_separated", "ordinal_ranks",
           "ranked"]

#: How many standard deviations below the mean the ranking ``ordinal`` sits.
ORDINAL_Z = 3.0


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating: mean skill ``mu``, its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a conservative skill estimate, for ranking."""
        return self.mu - ORDINAL_Z * self.sigma


@dataclass
class Standing:
    """One agent's results over every game of a setting."""

    label: str
    seat_games: int
    wins: int
    rating: Rating

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.seat_games)


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """``standings`` best first: by win rate, ties by ordinal, then by label."""
    return sorted(standings, key=lambda s: (-s.win_rate, -s.rating.ordinal, s.label))


def ordinal_ranks(standings: Sequence[Standing]) -> dict[str, int]:
    """Each agent's rank (1 = best) by the OpenSkill ordinal ``mu - 3 sigma`` alone,
    ties by win rate, then by label."""
    order = sorted(standings, key=lambda s: (-s.rating.ordinal, -s.win_rate, s.label))
    return {standing.label: rank for rank, standing in enumerate(order, start=1)}


def not_separated(standings: Sequence[Standing]) -> dict[str, list[str]]:
    """For each agent, the other agents whose 95% win-rate interval overlaps its own
    (best first): the games do not separate them, whatever their ranks."""
    order = ranked(standings)
    return {mine.label: [other.label for other in order
                         if other is not mine and _overlap(mine.interval, other.interval)]
            for mine in order}


def _overlap(first: tuple[float, float], second: tuple[float, float]) -> bool:
    return first[0] <= second[1] and second[0] <= first[1]


@dataclass
class SettingResult:
    """The arena at one game and table size.

    Attributes:
        game: the game.
        num_players: seats at the table.
        labels: the agents, in the order given.
        runs: ``(first, second, result)`` per pairing (indices into ``labels``).
        standings: one per agent, in the order given.
        games: games (or matches) per pairing.
        match_length: games per match (1 where games stand alone or for matches of rounds).
        seed: the arena seed.
    """

    game: Game
    num_players: int
    labels: list[str]
    runs: list[tuple[int, int, EvalResult]]
    standings: list[Standing]
    games: int
    match_length: int
    seed: int

    def head_to_head(self, agent: int, opponent: int) -> AgentResult | None:
        """``agent``'s results holding one seat against ``opponent`` in all the others."""
        for first, second, result in self.runs:
            if (first, second) == (agent, opponent):
                return result.agents[0]
            if self.num_players == 2 and (second, first) == (agent, opponent):
                return result.agents[1]
        return None

    def ranked(self) -> list[Standing]:
        """Standings best first, by win rate (:func:`ranked`)."""
        return ranked(self.standings)

    @property
    def unit(self) -> str:
        """What one game of a pairing is: a game, a match of rounds, a best-of-N match."""
        if has_rounds(self.game):
            return "match of rounds"
        return f"best-of-{self.match_length} match" if self.match_length > 1 else "game"
