"""The Exploding Kittens engine (docs/rules/exploding_kittens.md): new game, legal moves, apply, results.

No gymnasium or pettingzoo here. The engine speaks seats (ints). Its rules are the
legal action mask (:mod:`ek_env.legality`) and the action dispatch
(:mod:`ek_env.dispatch`); :func:`legal_moves` and :func:`apply` (which raises
:class:`~cardgym.errors.IllegalMoveError` without changing anything) are their
readable forms over the moves of :mod:`ek_env.moves`.
"""

from __future__ import annotations

from cardgym.game import StepOutcome, StepRewards
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


def _seats_out(state: State) -> int:
    return len(state.eliminated)


def _step_outcome(state: State, out_before: int) -> StepOutcome | None:
    """-1 to each seat that explodes, at once (it leaves the game); +1 to the winner
    when the game ends."""
    out = state.eliminated[out_before:]
    if not out and state.phase != GAME_OVER:
        return None
    rewards = [0.0] * state.num_players
    for seat in out:
        rewards[seat] = -1.0
    if state.phase == GAME_OVER:
        if state.winner >= 0:
            rewards[state.winner] = 1.0
        return StepOutcome(rewards, game_over=True)
    return StepOutcome(rewards, finished=tuple(out))


#: The reward rule: an exploded seat's -1 when it explodes.
STEP_REWARDS = StepRewards(_seats_out, _step_outcome)


__all__ = [
    "STEP_REWARDS", "apply", "apply_action", "is_over", "legal_action_indices", "legal_action_mask",
    "legal_moves", "new_game", "next_alive", "resample_hidden", "returns", "target_offsets",
    "to_act",
]
