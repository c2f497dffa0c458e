"""The batched engine's compiled kernels: each loops over the rows (``prange``) and
calls the row functions of :mod:`~phpets_env.batched.plays`,
:mod:`~phpets_env.batched.turns`, :mod:`~phpets_env.batched.legal` and
:mod:`~phpets_env.batched.encode`.

Every kernel takes the engine's state arrays (``small``, ``wide``) and the option
vector, then what it reads and writes of the bookkeeping (see
:mod:`cardgym.vector.engine`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit, njit_parallel, prange
from cardgym.vector.random import random_legal
from phpets_env.batched.encode import encode
from phpets_env.batched.layout import (
    ACTION_KIND,
    MATCH_WINNERS,
    NUM_MATCH_WINNERS,
    NUM_ROUND_WINNERS,
    OPT_PLAYERS,
    OPT_REWARD,
    OVER_PHASE,
    PHASE,
    PLAY_CARD,
    PLAY_PHASE,
    REWARD_ROUND,
    ROUND_NUMBER,
    ROUND_WINNERS,
    TO_ACT,
)
from phpets_env.batched.legal import fill_mask
from phpets_env.batched.plays import follow_up, play
from phpets_env.batched.turns import end_round, end_turn, new_match


@njit_parallel
def deal(small: Any, wide: Any, opts: Any, rows: Any, to_act: Any, rewards: Any, returns: Any,
         lengths: Any, done: Any, over: Any, rng: Any, chance: Any) -> Any:
    """New matches in the rows where ``rows`` is set."""
    for i in prange(rows.shape[0]):
        row = np.int64(i)  # one type for the row index, in and out of the parallel loop
        if rows[row]:
            new_match(small[row], wide[row], opts, rng, chance, row)
            to_act[row] = small[row, TO_ACT]
            rewards[row, :] = 0.0
            returns[row, :] = 0.0
            lengths[row] = 0
            done[row] = False
            over[row] = False


@njit_parallel
def step(small: Any, wide: Any, opts: Any, actions: Any, autoreset: Any, to_act: Any,
         rewards: Any, returns: Any, lengths: Any, done: Any, over: Any, final_returns: Any,
         final_lengths: Any, rng: Any, chance: Any) -> Any:
    """One decision in every row that is not over (``actions[row]`` of the seat to
    act), with the rewards and the bookkeeping; with ``autoreset`` a match that ends
    is followed by a new one in the same row."""
    for i in prange(actions.shape[0]):
        row = np.int64(i)  # one type for the row index, in and out of the parallel loop
        _step_row(small, wide, opts, row, actions[row], autoreset, to_act, rewards, returns,
                  lengths, done, over, final_returns, final_lengths, rng, chance)


@njit
def _step_row(small: Any, wide: Any, opts: Any, row: Any, action: Any, autoreset: Any,
              to_act: Any, rewards: Any, returns: Any, lengths: Any, done: Any, over: Any,
              final_returns: Any, final_lengths: Any, rng: Any, chance: Any) -> Any:
    """:func:`step` in row ``row``."""
    by_round = opts[OPT_REWARD] == REWARD_ROUND
    rewards[row, :] = 0.0
    done[row] = False
    if over[row]:
        return
    s, w = small[row], wide[row]
    round_before = w[ROUND_NUMBER]
    if ACTION_KIND[action] == PLAY_CARD:
        play(s, w, opts, action, rng, chance, row)
    else:
        follow_up(s, w, action)
    if s[PHASE] == PLAY_PHASE:
        winners = end_turn(s, w, opts)
        if winners >= 0:
            end_round(s, w, opts, winners, rng, chance, row)
    ended = s[PHASE] == OVER_PHASE
    if ended or (by_round and w[ROUND_NUMBER] != round_before):
        _reward(s, opts, by_round, rewards[row], returns[row])
    lengths[row] += 1
    to_act[row] = s[TO_ACT]
    if ended:
        done[row] = True
        final_returns[row, :] = returns[row, :]
        final_lengths[row] = lengths[row]
        if autoreset:
            new_match(s, w, opts, rng, chance, row)
            to_act[row] = s[TO_ACT]
            returns[row, :] = 0.0
            lengths[row] = 0
        else:
            over[row] = True


@njit_parallel
def playout(small: Any, wide: Any, opts: Any, limit: Any, round_end: Any, masks: Any,
            to_act: Any, rewards: Any, returns: Any, lengths: Any, done: Any, over: Any,
            final_returns: Any, final_lengths: Any, rng: Any, chance: Any,
            left: Any) -> Any:
    """Random legal play in every row that is not over, each row to the end of its
    match (or, with ``round_end``, of the round it is in) in one call: the steps of
    :func:`step` without automatic reset, each action drawn as
    :func:`cardgym.vector.random.random_actions` draws it (``masks``: a scratch row
    of legal actions per row). ``left[row]``: the steps the row had left of ``limit``
    when it stopped, ``-1`` where it did not stop within ``limit``."""
    n = opts[OPT_PLAYERS]
    no_reset = np.bool_(False)  # not a literal: one signature for _step_row
    for i in prange(masks.shape[0]):
        row = np.int64(i)
        w = wide[row]
        start_round = w[ROUND_NUMBER]
        steps = limit
        while not over[row] and not (round_end and w[ROUND_NUMBER] != start_round):
            if steps == 0:
                break
            fill_mask(small[row], n, masks[row])
            action = random_legal(masks[row], rng, row)
            _step_row(small, wide, opts, row, action, no_reset, to_act, rewards, returns, lengths,
                      done, over, final_returns, final_lengths, rng, chance)
            steps -= 1
        stopped = over[row] or (round_end and w[ROUND_NUMBER] != start_round)
        left[row] = steps if stopped else -1


@njit
def _reward(s: Any, opts: Any, by_round: Any, rewards: Any, returns: Any) -> Any:
    """The rewards of a step that ended a round (rules.STEP_REWARDS): +1 to each winner
    of the round with ``reward="round"``, else (the match is over) of the match; -1
    to every other seat."""
    first = ROUND_WINNERS if by_round else MATCH_WINNERS
    count = s[NUM_ROUND_WINNERS if by_round else NUM_MATCH_WINNERS]
    for seat in range(opts[OPT_PLAYERS]):
        rewards[seat] = -1.0
    for k in range(count):
        rewards[s[first + k]] = 1.0
    for seat in range(opts[OPT_PLAYERS]):
        returns[seat] += rewards[seat]


@njit_parallel
def legal(small: Any, opts: Any, masks: Any) -> Any:
    """The legal actions of the seat to act in every row."""
    n = opts[OPT_PLAYERS]
    for row in prange(masks.shape[0]):
        fill_mask(small[row], n, masks[row])


@njit_parallel
def observe(small: Any, wide: Any, opts: Any, seats: Any, obs: Any, masks: Any) -> Any:
    """Row ``row``'s observation of ``seats[row]``, and its legal actions if it is to
    act (else zeros)."""
    n = opts[OPT_PLAYERS]
    for row in prange(seats.shape[0]):
        s = small[row]
        seat = seats[row]
        encode(s, wide[row], opts, seat, obs[row])
        if s[TO_ACT] == seat:
            fill_mask(s, n, masks[row])
        else:
            masks[row, :] = 0
