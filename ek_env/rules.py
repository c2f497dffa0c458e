"""The Exploding Kittens engine (docs/rules/exploding_kittens.md): new game, legal moves, apply, results.

No gymnasium or pettingzoo here. The engine speaks seats (ints). Its rules are the
legal action mask (:mod:`ek_env.engine.legality`) and the action dispatch
(:mod:`ek_env.engine.dispatch`); :func:`legal_moves` and :func:`apply` (which raises
:class:`~cardgym.errors.IllegalMoveError` without changing anything) are their
readable forms over the moves of :mod:`ek_env.engine.moves`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgym.chance import Chance
from cardgym.game import StepOutcome, StepRewards
from ek_env.engine.dispatch import apply_action
from ek_env.engine.legality import apply, legal_action_indices, legal_action_mask, legal_moves
from ek_env.engine.seats import next_alive, target_offsets
from ek_env.engine.setup import deal
from ek_env.engine.state import GAME_OVER, Config, State
from ek_env.info.hidden import resample_hidden
from ek_env.positions.scenario import read_scenario


def new_game(config: Config, rng: Chance,
             scenario: Mapping[str, Any] | None = None) -> State:
    """Set up a game (docs/rules/exploding_kittens.md), or the position a scenario describes
    (:mod:`ek_env.positions.scenario`; :func:`ek_env.positions.position.position` writes
    one). A scenario draws from ``rng`` only for the turn holder, when it names none.

    Raises:
        ScenarioError: the scenario is not one the game can be in; ``rng`` is left as
            it was.
    """
    if scenario is None:
        return deal(config, rng)
    saved = rng.bit_generator.state
    try:
        return read_scenario(config, scenario, rng)
    except Exception:
        rng.bit_generator.state = saved
        raise


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
