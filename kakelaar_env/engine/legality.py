"""The rules of a Karel Kakelaar stage as actions: what is legal, and doing it.

The bit masks and :func:`apply_action` are the rules; the readable forms over
engine moves (:func:`legal_moves`, :func:`apply`) are derived from them through
the action table (:mod:`kakelaar_env.engine.actions`).
"""

from __future__ import annotations

from typing import Final, cast

from cardgym.actions import actions_of
from cardgym.chance import Chance
from cardgym.errors import IllegalMoveError
from kakelaar_env.engine.actions import (
    ACTION_SPECS,
    BID_CARD,
    HEN_NONE_INDEX,
    HEN_PLAY,
    HEN_PLAY_INDEX,
    MOVES,
    PASS_INDEX,
    TAKE_BASE,
    TAKE_CARD,
    move_to_action,
)
from kakelaar_env.engine.cards import NUM_BIDDABLE
from kakelaar_env.engine.flow import commit_bid, commit_hen, commit_take
from kakelaar_env.engine.state import BID, HEN_STAGE, PHASE_NAMES, Move, State
from kakelaar_env.engine.turns import must_play_hen

# bytes.translate table: a zero count -> "0", any other -> "1" (read as a binary number).
_BITS: Final = bytes([48] + [49] * 255)
# The engine move of each action but ``pass`` (the last), which no stage offers.
_MOVES: Final = cast(tuple[Move, ...], MOVES[:PASS_INDEX])


def stage_choices(state: State, seat: int) -> int:
    """The choices the current stage offers ``seat`` as a bit mask (bit i = action i),
    whether or not ``seat`` is still to commit: a biddable card in hand; a mother hen
    or not (only to play one with only hens in hand and a round to come); a card of
    the discard pile not yet picked."""
    phase = state.phase
    if phase == BID:
        # Bit t set for every biddable type t in hand (types 0..12 are actions 0..12).
        return int(state.hands[seat][NUM_BIDDABLE - 1 :: -1].translate(_BITS), 2)
    if phase == HEN_STAGE:
        if must_play_hen(state, seat):
            return 1 << HEN_PLAY_INDEX
        return 0b11 << HEN_NONE_INDEX
    left = state.discards[seat]
    if state.picks[seat]:
        left = left[:]
        for card in state.picks[seat]:
            left[card] -= 1
    return int(left[::-1].translate(_BITS), 2) << TAKE_BASE


def legal_mask_for(state: State, seat: int) -> int:
    """Legal actions of ``seat`` in the current stage as a bit mask (bit i = action i);
    0 when ``seat`` has nothing to decide (the AEC env does not ask it)."""
    if seat not in state.asked[state.cursor:]:
        return 0
    return stage_choices(state, seat)


def legal_action_mask(state: State) -> int:
    """Legal actions of the seat to act as a bit mask (0 once the game is over)."""
    if not state.asked:
        return 0
    return stage_choices(state, state.current)


def parallel_mask(state: State, seat: int) -> int:
    """``seat``'s legal actions in a parallel step: its decision if it has one, else
    the single move ``hen:none`` in the mother-hen stage and ``pass`` in the others."""
    mask = legal_mask_for(state, seat)
    if mask:
        return mask
    return 1 << (HEN_NONE_INDEX if state.phase == HEN_STAGE else PASS_INDEX)


def apply_action(state: State, action: int, rng: Chance | None = None) -> None:
    """Commit a legal action index of the seat to act (the fast path of the AEC env,
    the parallel env and the search; :func:`apply` is the checked one). Nothing after
    the deal is random: ``rng`` is taken for the layout's common signature and unused."""
    kind, card = ACTION_SPECS[action]
    if kind == BID_CARD:
        commit_bid(state, card)
    elif kind == TAKE_CARD:
        commit_take(state, card)
    else:
        commit_hen(state, kind == HEN_PLAY)


def legal_moves_for(state: State, seat: int) -> list[Move]:
    """The moves ``seat`` may commit in the current stage, in action-table order;
    empty when ``seat`` has nothing to decide in this stage."""
    return [_MOVES[action] for action in actions_of(legal_mask_for(state, seat))]


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act, in action-table order."""
    return [_MOVES[action] for action in actions_of(legal_action_mask(state))]


def apply(state: State, move: Move, rng: Chance | None = None) -> None:
    """Commit a legal move of the seat to act, in place (``rng`` is unused: the game
    draws no randomness after setup; it is accepted for a uniform engine interface).

    Raises:
        IllegalMoveError: naming the move and the stage; the state is unchanged.
    """
    if move not in legal_moves(state):
        raise IllegalMoveError(
            f"{move!r} is not legal for seat {state.current} in stage "
            f"{PHASE_NAMES[state.phase]!r} (round {state.round})"
        )
    apply_action(state, move_to_action(state, move))
