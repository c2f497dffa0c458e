"""Who won a finished game, rounds won within a match, and confidence intervals.

- Power Hungry Pets: an episode is a *match* of rounds; the winners are
  ``game_state.match_winners`` (several when they reach the token target together).
  :class:`RoundTally` counts the rounds each seat won along the way.
- Exploding Kittens: the last seat not exploded, ``game_state.winner``.
- Karel Kakelaar: ``game_state.winners``, the seats with the most worms (ties on
  worms broken by fewer hand cards; still tied: all of them, whatever ``final_tie``
  says about their rewards).
"""

from __future__ import annotations

import math
from typing import Any

from cardgym.registration import GameEntry

__all__ = ["RoundTally", "has_rounds", "wilson_interval", "winners"]


def winners(game: GameEntry, env: Any) -> frozenset[int]:
    """The seats that won the finished game in ``env`` (empty while it is not over)."""
    state = env.game_state
    if state is None:
        raise ValueError("the environment has not been reset")
    if game.module == "phpets_env":
        return frozenset(state.match_winners)
    if game.module == "ek_env":
        from ek_env.state import NOBODY

        return frozenset() if state.winner == NOBODY else frozenset({state.winner})
    if game.module == "kakelaar_env":
        return frozenset(state.winners)
    raise ValueError(f"no rule for the winners of {game.env_id}; add it to agents.outcomes")


def has_rounds(game: GameEntry) -> bool:
    """Whether an episode of ``game`` is a match of several rounds."""
    return game.module == "phpets_env"


class RoundTally:
    """Rounds won per seat within one match, updated after every ``env.step``.

    A Power Hungry Pets round ends when the round number moves on or the match ends;
    ``game_state.round_winners`` then holds that round's winners (possibly none).
    For games without rounds the tally stays empty.
    """

    def __init__(self, game: GameEntry, env: Any) -> None:
        self.active = has_rounds(game)
        self.wins = [0] * env.num_players
        self.rounds = 0
        self._round = env.game_state.round_number if self.active else 0
        self._over = False
        self._match_over = -1
        if self.active:
            from phpets_env.state import MATCH_OVER

            self._match_over = MATCH_OVER

    def update(self, env: Any) -> None:
        """Call after each ``env.step``."""
        if not self.active or self._over:
            return
        state = env.game_state
        over = state.phase == self._match_over
        if over or state.round_number != self._round:
            self.rounds += 1
            for seat in state.round_winners:
                self.wins[seat] += 1
            self._round = state.round_number
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
