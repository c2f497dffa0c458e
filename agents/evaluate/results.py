"""The records of the games of an evaluation, and what each agent achieved over them.

Counting. A seat wins a game when it is among the game's winners
(:func:`agents.outcomes.winners`); shared wins count for every seat sharing. An
agent holding several seats (the second of two specs) is counted per seat: its
"seat-games" are games times seats held, and its win rate is wins per seat-game,
comparable with ``1 / num_players`` for every agent. (Its seats in one game are not
independent, so its interval is a little narrower than it should be.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.outcomes import wilson_interval
from cardgym.registration import Game

__all__ = ["AgentResult", "EvalResult", "GameOutcome", "summarise"]


@dataclass(frozen=True)
class GameOutcome:
    """One finished game.

    Attributes:
        index: the game's number in the run.
        agents: the agent entry (index into the spec list) at each seat.
        winners: the winning seats.
        steps: actions taken in the game (``env.step`` calls of seats still in it).
        moves: actions taken per seat.
        rounds: rounds played (games whose episode is a match of rounds), or games
            played in a best-of-N match; else 0.
        round_wins: rounds (or games of the match) won per seat.
        first: the seat to act first (the env's first agent after its reset; in a
            best-of-N match, in its first game); ``None`` where the game was played
            on a batched engine, which does not keep it.
    """

    index: int
    agents: tuple[int, ...]
    winners: tuple[int, ...]
    steps: int
    moves: tuple[int, ...]
    rounds: int = 0
    round_wins: tuple[int, ...] = ()
    first: int | None = None


@dataclass
class AgentResult:
    """What one agent entry achieved.

    Attributes:
        spec: the spec as given (its label for policies given as objects).
        seats: seats it held in each game.
        games: games played.
        wins: seats won over all games (shared wins count).
        moves: actions it took over all games and seats.
        rounds: rounds played over its seat-games (matches of rounds only).
        round_wins: rounds won.
    """

    spec: str
    seats: int
    games: int
    wins: int = 0
    moves: int = 0
    rounds: int = 0
    round_wins: int = 0

    @property
    def seat_games(self) -> int:
        return self.games * self.seats

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.seat_games)

    @property
    def moves_per_game(self) -> float:
        """Actions per seat-game."""
        return self.moves / self.seat_games if self.seat_games else math.nan

    @property
    def round_win_rate(self) -> float:
        return self.round_wins / self.rounds if self.rounds else math.nan


@dataclass
class EvalResult:
    """The outcome of :func:`agents.evaluate.evaluate`.

    Attributes:
        game: the game.
        num_players: seats at the table.
        specs: the agent specs as given (labels).
        agents: one result per spec, in the order given.
        games: games played.
        seed: the run's seed.
        seat_wins: games won per seat, whoever sat there.
        steps: actions over all games.
        rounds: rounds over all games (matches of rounds only).
        options: the rule options.
        records: every game, in order.
        seconds: wall time.
        match_length: games per match (1: each game stands alone).
        journal: the journal file that kept the run's games
            (:mod:`agents.evaluate.journal`), ``None`` for a run without one; remove it
            with :func:`agents.evaluate.discard_journals` once the result is kept.
    """

    game: Game
    num_players: int
    specs: list[str]
    agents: list[AgentResult]
    games: int
    seed: int
    seat_wins: list[int]
    steps: int
    rounds: int
    options: dict[str, Any] = field(default_factory=dict)
    records: list[GameOutcome] = field(default_factory=list)
    seconds: float = 0.0
    match_length: int = 1
    journal: Path | None = None

    @property
    def steps_per_game(self) -> float:
        return self.steps / self.games

    @property
    def seat_shares(self) -> list[float]:
        """Share of games won at each seat."""
        return [wins / self.games for wins in self.seat_wins]


def summarise(game: Game, num_players: int, labels: Sequence[str],
              spec_of_agent: Sequence[int], seed: int, options: dict[str, Any],
              records: list[GameOutcome], seconds: float, match_length: int = 1,
              journal: Path | None = None) -> EvalResult:
    """Count the games of one run.

    Args:
        game: the game.
        num_players: seats at the table.
        labels: one label per spec (:func:`agents.evaluate.agent_label`).
        spec_of_agent: the spec of each agent entry.
        seed: the run's seed.
        options: the rule options.
        records: every game of the run, in order.
        seconds: wall time.
        match_length: games per match.
        journal: the journal file that kept the games, if any.
    """
    results = [AgentResult(label, seats=spec_of_agent.count(i), games=len(records))
               for i, label in enumerate(labels)]
    seat_wins = [0] * num_players
    for record in records:
        for seat, agent in enumerate(record.agents):
            result = results[spec_of_agent[agent]]
            result.moves += record.moves[seat]
            if seat in record.winners:
                result.wins += 1
            if record.round_wins:
                result.rounds += record.rounds
                result.round_wins += record.round_wins[seat]
        for seat in record.winners:
            seat_wins[seat] += 1
    return EvalResult(
        game=game, num_players=num_players, specs=list(labels),
        agents=results, games=len(records), seed=seed, seat_wins=seat_wins,
        steps=sum(r.steps for r in records), rounds=sum(r.rounds for r in records),
        options=dict(options), records=records, seconds=seconds, match_length=match_length,
        journal=journal,
    )
