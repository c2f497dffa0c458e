"""Who won a finished game, rounds won within a match, and confidence intervals.

Winners come from the game's contract (``game.winners``: several seats when they
share the win); :class:`RoundTally` counts the rounds each seat won along the way in
games played as a match of rounds (``game.rounds``).
"""

from __future__ import annotations

import math
from typing import Any

from cardgym.game import Game

__all__ = ["RoundTally", "has_rounds", "wilson_interval", "winners"]


def winners(game: Game, env: Any) -> frozenset[int]:
    """The seats that won the finished game in ``env`` (empty while it is not over)."""
    state = env.game_state
    if state is None:
        raise ValueError("the environment has not been reset")
    if not game.is_over(state):
        return frozenset()
    return game.winners(state)


def has_rounds(game: Game) -> bool:
    """Whether an episode of ``game`` is a match of several rounds."""
    return game.rounds is not None


class RoundTally:
    """Rounds won per seat within one match, updated after every ``env.step``.

    A round ends when the round number moves on or the match ends; the game's
    ``rounds.round_winners`` then holds that round's winners (possibly none). For
    games without rounds the tally stays empty.
    """

    def __init__(self, game: Game, env: Any) -> None:
        self.game = game
        self.rounds_of = game.rounds
        self.active = game.rounds is not None
        self.wins = [0] * env.num_players
        self.rounds = 0
        self._round = game.rounds.round_of(env.game_state) if game.rounds is not None else 0
        self._over = False

    def update(self, env: Any) -> None:
        """Call after each ``env.step``."""
        rounds = self.rounds_of
        if rounds is None or self._over:
            return
        state = env.game_state
        over = self.game.is_over(state)
        number = rounds.round_of(state)
        if over or number != self._round:
            self.rounds += 1
            for seat in rounds.round_winners(state):
                self.wins[seat] += 1
            self._round = number
            self._over = over


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate: ``(low, high)``, 95% for ``z=1.96``.

    With no games the interval is ``(0.0, 1.0)``.
    """
    if games < 0 or not 0 <= wins <= games:
        raise ValueError(f"need 0 <= wins <= games, got wins={wins}, games={games}")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denominator = 1.0 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / games + z2 / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
