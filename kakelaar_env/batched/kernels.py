"""The batched Karel Kakelaar kernels: every row advanced or observed in one compiled
call, the rows shared out over the cores.

Two kernels serve the engine (fewer kernels compile faster): :func:`play_rows` deals
or steps, :func:`view_rows` writes observations and masks, or masks alone; a third,
:func:`stage_rows`, writes what a step of the parallel env shows each seat. Rule
options arrive as plain ints: ``n`` players, ``reward`` (0 ``win_loss``, 1
``score_difference``), ``final_tie`` (0 ``shared``, 1 ``draw``), and ``pile``, the 45
worms and mother hens of the ``worm_counts`` option in type order (shuffled at each
deal). The bookkeeping arrays are the engine's (:mod:`cardgym.vector.engine`).
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

from cardgym.vector._numba import njit, njit_parallel, prange
from cardgym.vector.random import random_legal
from kakelaar_env.batched.encode import observe
from kakelaar_env.batched.flow import commit, deal, is_over
from kakelaar_env.batched.layout import (
    ASKED,
    CURRENT,
    CURSOR,
    GAME_OVER,
    HEN_STAGE,
    NUM_ASKED,
    PHASE,
)
from kakelaar_env.batched.scoring import returns
from kakelaar_env.batched.turns import legal
from kakelaar_env.engine.actions import HEN_NONE_INDEX, PASS_INDEX

#: What :func:`play_rows` does: one decision in every row not over, the same with a
#: new game dealt where one ends, or a new game where ``actions[row]`` is not zero.
STEP: Final = 0
STEP_AUTORESET: Final = 1
DEAL: Final = 2


@njit
def _new_game(board: NDArray[np.int8], row: int, n: int, pile: NDArray[np.int8],
              to_act: NDArray[np.int64], returns_: NDArray[np.float32],
              lengths: NDArray[np.int64], over: NDArray[np.bool_],
              chance: NDArray[np.int64], rng: NDArray[np.uint64]) -> None:
    """Deal row ``row`` a new game; its returns and length restart (the step's
    rewards and ``done`` are the caller's)."""
    b = board[row]
    deal(b, n, pile, rng, row)
    to_act[row] = b[CURRENT]
    returns_[row, :] = 0.0
    lengths[row] = 0
    over[row] = False
    chance[row] += 1


@njit
def _play_row(board: NDArray[np.int8], row: int, action: int, mode: int, n: int,
              pile: NDArray[np.int8], reward: int, final_tie: int,
              to_act: NDArray[np.int64], rewards: NDArray[np.float32],
              returns_: NDArray[np.float32], lengths: NDArray[np.int64],
              done: NDArray[np.bool_], over: NDArray[np.bool_],
              final_returns: NDArray[np.float32], final_lengths: NDArray[np.int64],
              chance: NDArray[np.int64], rng: NDArray[np.uint64]) -> None:
    """:func:`play_rows` in one row."""
    if mode == DEAL and action == 0:
        return
    rewards[row, :] = 0.0
    done[row] = False
    if mode == DEAL:
        _new_game(board, row, n, pile, to_act, returns_, lengths, over, chance, rng)
        return
    if over[row] or action < 0:  # a finished game, or a row held back (no legal action)
        return
    b = board[row]
    commit(b, n, action)
    lengths[row] += 1
    to_act[row] = b[CURRENT]
    if not is_over(b):
        return
    returns(b, n, reward, final_tie, rewards[row])
    for seat in range(n):
        returns_[row, seat] += rewards[row, seat]
        final_returns[row, seat] = returns_[row, seat]
    done[row] = True
    final_lengths[row] = lengths[row]
    if mode == STEP_AUTORESET:
        _new_game(board, row, n, pile, to_act, returns_, lengths, over, chance, rng)
    else:
        over[row] = True


@njit_parallel
def play_rows(board: NDArray[np.int8], actions: NDArray[np.int64], mode: int, n: int,
              pile: NDArray[np.int8], reward: int, final_tie: int,
              to_act: NDArray[np.int64], rewards: NDArray[np.float32],
              returns_: NDArray[np.float32], lengths: NDArray[np.int64],
              done: NDArray[np.bool_], over: NDArray[np.bool_],
              final_returns: NDArray[np.float32], final_lengths: NDArray[np.int64],
              chance: NDArray[np.int64], rng: NDArray[np.uint64]) -> None:
    """Deal or step every row as ``mode`` says (:data:`STEP`, :data:`STEP_AUTORESET`,
    :data:`DEAL`). A step does nothing in a row that is over or whose action is
    negative (no reward; random actions are -1 where nothing is legal); a row whose
    game ends keeps its final returns and length in ``final_*`` and, with automatic
    reset, is dealt a new game at once (``done`` set, ``rewards`` the final step's)."""
    for row in prange(board.shape[0]):
        # The row as int64: numba types a prange index as uint64 inside the parallel
        # loop and int64 outside, which would compile every callee twice.
        _play_row(board, np.int64(row), actions[row], mode, n,  # type: ignore[arg-type]
                  pile, reward, final_tie, to_act, rewards, returns_, lengths, done, over,
                  final_returns, final_lengths, chance, rng)


@njit
def _view_row(b: NDArray[np.int8], seat: int, n: int, with_obs: bool, obs: NDArray[np.float32],
              mask: NDArray[np.int8]) -> None:
    """:func:`view_rows` in one row ``b``."""
    if with_obs:
        observe(b, n, seat, obs)
    if b[NUM_ASKED] > 0 and b[CURRENT] == seat:
        legal(b, seat, mask)
    else:
        mask[:] = 0


@njit_parallel
def view_rows(board: NDArray[np.int8], seats: NDArray[np.int64], n: int, with_obs: bool,
              obs: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
    """Row ``i``'s mask of seat ``seats[i]`` (all zero unless that seat is to act in a
    game not over) and, ``with_obs``, its observation (without, ``obs`` is a scratch
    row that is not written)."""
    for row in prange(board.shape[0]):
        _view_row(board[row], seats[row], n, with_obs, obs[row] if with_obs else obs[0],
                  masks[row])


@njit_parallel
def playout(board: NDArray[np.int8], limit: int, n: int, pile: NDArray[np.int8], reward: int,
            final_tie: int, masks: NDArray[np.int8], no_obs: NDArray[np.float32], to_act: NDArray[np.int64],
            rewards: NDArray[np.float32], returns_: NDArray[np.float32],
            lengths: NDArray[np.int64], done: NDArray[np.bool_], over: NDArray[np.bool_],
            final_returns: NDArray[np.float32], final_lengths: NDArray[np.int64],
            chance: NDArray[np.int64], rng: NDArray[np.uint64],
            left: NDArray[np.int64]) -> None:
    """Random legal play in every row that is not over, each to the end of its game in
    one call: the steps of :func:`play_rows` without automatic reset, each action
    drawn as :func:`cardgym.vector.random.random_actions` draws it (``masks``: a
    scratch row of legal actions per row; ``no_obs``: as :func:`view_rows` takes it
    without observations). ``left[row]``: the steps the row had left of
    ``limit`` when its game ended, ``-1`` where it did not end within ``limit``."""
    mode = np.int64(STEP)  # not a literal: one signature for _play_row
    with_obs = np.bool_(False)  # and for _view_row
    for i in prange(board.shape[0]):
        row = np.int64(i)  # type: ignore[assignment]
        b = board[row]
        steps = limit
        while not over[row] and steps > 0:
            mask = masks[row]
            _view_row(b, to_act[row], n, with_obs, no_obs[0], mask)  # type: ignore[arg-type]
            action = random_legal(mask, rng, row)
            _play_row(board, row, action, mode, n, pile, reward,  # type: ignore[arg-type]
                      final_tie, to_act, rewards, returns_, lengths, done, over, final_returns,
                      final_lengths, chance, rng)
            steps -= 1
        left[row] = steps if over[row] else -1


@njit
def stage_legal(b: NDArray[np.int8], seat: int, mask: NDArray[np.int8]) -> None:
    """``seat``'s legal actions in the current stage of row ``b`` into ``mask`` when it
    is still to commit in the stage (in ``asked[cursor:]``), whether or not it is the
    seat to act now; else all zero
    (:func:`kakelaar_env.engine.legality.legal_mask_for`)."""
    for k in range(b[CURSOR], b[NUM_ASKED]):
        if b[ASKED + k] == seat:
            legal(b, seat, mask)
            return
    mask[:] = 0


@njit
def _stage_row(b: NDArray[np.int8], seat: int, n: int, obs: NDArray[np.float32],
               mask: NDArray[np.int8]) -> None:
    """:func:`stage_rows` for one seat of row ``b``."""
    observe(b, n, seat, obs)
    stage_legal(b, seat, mask)
    phase = b[PHASE]
    if phase != GAME_OVER and not mask.any():
        mask[HEN_NONE_INDEX if phase == HEN_STAGE else PASS_INDEX] = 1


@njit_parallel
def stage_rows(board: NDArray[np.int8], rows: NDArray[np.int64], seats: NDArray[np.int64],
               n: int, obs: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
    """For each ``k``: the observation of seat ``seats[k]`` in row ``rows[k]`` into
    ``obs[k]``, and into ``masks[k]`` its legal actions in a step of the parallel env
    (:func:`kakelaar_env.engine.legality.parallel_mask`): its choices when it is still
    to commit in the current stage, else the single move ``hen:none`` in the hen stage
    and ``pass`` in the others; all zero once the game is over. A row may appear
    more than once (every seat of one game)."""
    for k in prange(seats.shape[0]):
        _stage_row(board[rows[k]], seats[k], n, obs[k], masks[k])
