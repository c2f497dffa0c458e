"""The end of a Karel Kakelaar game: worms in hand, winners and rewards
(docs/rules/karel_kakelaar.md)."""

from __future__ import annotations

from kakelaar_env.engine.cards import WORM_VALUE
from kakelaar_env.engine.state import GAME_OVER, State


def scores(state: State) -> list[int]:
    """Worm total in each seat's hand."""
    return [sum(c * v for c, v in zip(hand, WORM_VALUE, strict=True)) for hand in state.hands]


def final_winners(state: State) -> tuple[int, ...]:
    """Seats with the most worms in hand; tie: fewest hand cards; still tied: all of them."""
    totals = scores(state)
    sizes = [sum(hand) for hand in state.hands]
    best = max((totals[s], -sizes[s]) for s in range(state.num_players))
    return tuple(s for s in range(state.num_players) if (totals[s], -sizes[s]) == best)


def returns(state: State) -> list[float]:
    """Final rewards per seat once the game is over (docs/rules/karel_kakelaar.md);
    zeros before.

    ``win_loss``: +1 to each winner, -1 to every other player (with
    ``final_tie="draw"`` and several winners, 0 to each of them). ``score_difference``:
    own worm total minus the mean of the other players' totals.
    """
    n = state.num_players
    if state.phase != GAME_OVER:
        return [0.0] * n
    if state.config.reward == "score_difference":
        totals = scores(state)
        whole = sum(totals)
        return [totals[s] - (whole - totals[s]) / (n - 1) for s in range(n)]
    winners = state.winners
    best = 0.0 if len(winners) > 1 and state.config.final_tie == "draw" else 1.0
    return [best if s in winners else -1.0 for s in range(n)]
