"""The Exploding Kittens engine (docs/rules/exploding_kittens.md): new game, legal moves, apply, results.

No gymnasium or pettingzoo here. The engine speaks seats (ints). Its rules are the
legal action mask (:mod:`ek_env.legality`) and the action dispatch
(:mod:`ek_env.dispatch`); :func:`legal_moves` and :func:`apply` (which raises
:class:`~cardgym.errors.IllegalMoveError` without changing anything) are their
readable forms over the moves of :mod:`ek_env.moves`.
"""

from __future__ import annotations

from ek_env.dispatch import apply_action
from ek_env.hidden import resample_hidden
from ek_env.legality import apply, legal_action_indices, legal_action_mask, legal_moves
from ek_env.seats import next_alive, target_offsets
from ek_env.setup import new_game
from ek_env.state import GAME_OVER, State


def to_act(state: State) -> int:
    """The seat deciding now."""
    return state.to_act


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.phase == GAME_OVER


def returns(state: State) -> list[float]:
    """Rewards so far: -1 to each exploded seat, +1 to the winner once the game is over
    (none when the draw pile ran dry: the players left share a draw at 0)."""
    result = [0.0] * state.num_players
    for seat in state.eliminated:
        result[seat] = -1.0
    if state.phase == GAME_OVER and state.winner >= 0:
        result[state.winner] = 1.0
    return result


__all__ = [
    "apply", "apply_action", "is_over", "legal_action_indices", "legal_action_mask",
    "legal_moves", "new_game", "next_alive", "resample_hidden", "returns", "target_offsets",
    "to_act",
]
