"""The batched engine's compiled kernels: each loops over the rows (``prange``) and
calls the row functions of :mod:`~ek_env.batched.setup`, :mod:`~ek_env.batched.plays`,
:mod:`~ek_env.batched.window`, :mod:`~ek_env.batched.explosions`,
:mod:`~ek_env.batched.transfers`, the expansion's :mod:`~ek_env.batched.blind`,
:mod:`~ek_env.batched.future` and :mod:`~ek_env.batched.garbage`, and
:mod:`~ek_env.batched.legal` and :mod:`~ek_env.batched.encode`.

Every kernel takes the engine's state arrays (``small``, ``wide``) and the option
vector, then what it reads and writes of the bookkeeping (see
:mod:`cardgym.vector.engine`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit, njit_parallel, prange
from cardgym.vector.random import random_legal
from ek_env.batched.blind import blind_nope, blind_play, choose_target
from ek_env.batched.encode import encode
from ek_env.batched.explosions import draw, insert
from ek_env.batched.future import alter
from ek_env.batched.garbage import garbage
from ek_env.batched.layout import (
    A_ALTER,
    A_BLIND_NOPE,
    A_BLIND_PLAY,
    A_CHOOSE,
    A_DRAW,
    A_FIVE,
    A_GARBAGE,
    A_GARBAGE_MARKED,
    A_GIVE,
    A_GIVE_MARKED,
    A_INSERT,
    A_NAME,
    A_NOPE,
    A_PAIR,
    A_PASS,
    A_SINGLE,
    A_TAKE,
    A_TARGET,
    A_THREE,
    ELIMINATED,
    ELIMINATED_LEN,
    GAME_OVER_PHASE,
    OPT_PLAYERS,
    OPT_STREAKING,
    PAIR,
    PHASE,
    SPECS,
    THREE,
    TO_ACT,
    TURN_HOLDER,
    WINNER,
)
from ek_env.batched.legal import fill_mask
from ek_env.batched.plays import choose_five, name_card, play_card, play_combo, play_five
from ek_env.batched.setup import new_game
from ek_env.batched.transfers import give, take
from ek_env.batched.window import nope, passed, resolve


@njit_parallel
def deal(small: Any, wide: Any, opts: Any, rows: Any, to_act: Any, rewards: Any, returns: Any,
         lengths: Any, done: Any, over: Any, rng: Any, chance: Any) -> None:
    """New games in the rows where ``rows`` is set."""
    for i in prange(rows.shape[0]):
        row = np.int64(i)  # one type for the row index, in and out of the parallel loop
        if rows[row]:
            new_game(small[row], wide[row], opts, rng, chance, row)
            to_act[row] = small[row, TO_ACT]
            rewards[row, :] = 0.0
            returns[row, :] = 0.0
            lengths[row] = 0
            done[row] = False
            over[row] = False


@njit_parallel
def step(small: Any, wide: Any, opts: Any, actions: Any, autoreset: Any, to_act: Any,
         rewards: Any, returns: Any, lengths: Any, done: Any, over: Any, final_returns: Any,
         final_lengths: Any, rng: Any, chance: Any) -> None:
    """One decision in every row that is not over (``actions[row]`` of the seat to
    act), with the rewards and the bookkeeping; with ``autoreset`` a game that ends
    is followed by a new one in the same row."""
    for i in prange(actions.shape[0]):
        row = np.int64(i)
        _step_row(small, wide, opts, row, actions[row], autoreset, to_act, rewards, returns,
                  lengths, done, over, final_returns, final_lengths, rng, chance)


@njit
def _step_row(small: Any, wide: Any, opts: Any, row: Any, action: Any, autoreset: Any,
              to_act: Any, rewards: Any, returns: Any, lengths: Any, done: Any, over: Any,
              final_returns: Any, final_lengths: Any, rng: Any, chance: Any) -> None:
    """:func:`step` in row ``row``."""
    rewards[row, :] = 0.0
    done[row] = False
    if over[row]:
        return
    s, w = small[row], wide[row]
    out_before = np.int64(s[ELIMINATED_LEN])
    kind = SPECS[opts[OPT_STREAKING], action, 0]
    if kind <= A_NAME:
        _turn_holder_move(s, w, opts, action, rng, chance, row)
    else:
        _answer(s, w, opts, action, rng, chance, row)
    ended = _reward(s, opts, out_before, rewards[row], returns[row])
    lengths[row] += 1
    to_act[row] = s[TO_ACT]
    if ended:
        done[row] = True
        final_returns[row, :] = returns[row, :]
        final_lengths[row] = lengths[row]
        if autoreset:
            new_game(s, w, opts, rng, chance, row)
            to_act[row] = s[TO_ACT]
            returns[row, :] = 0.0
            lengths[row] = 0
        else:
            over[row] = True


@njit
def _turn_holder_move(s: Any, w: Any, opts: Any, action: Any, rng: Any, chance: Any,
                      row: Any) -> None:
    """The turn holder draws, plays (a single card, a pair, three of a kind, five
    different), or goes on with its play (a kind for five different, a card named)."""
    setup = opts[OPT_STREAKING]
    kind, card, offset = SPECS[setup, action, 0], SPECS[setup, action, 1], SPECS[setup, action, 2]
    target = np.int64(-1)
    if offset:
        target = (np.int64(s[TURN_HOLDER]) + offset) % opts[OPT_PLAYERS]
    if kind == A_DRAW:
        draw(s, w, opts, rng, chance, row)
    elif kind == A_SINGLE:
        play_card(s, w, opts, card, target)
    elif kind == A_PAIR:
        play_combo(s, w, opts, PAIR, card, target)
    elif kind == A_THREE:
        play_combo(s, w, opts, THREE, card, target)
    elif kind == A_FIVE:
        play_five(s)
    elif kind == A_CHOOSE:
        choose_five(s, w, opts, card)
    elif kind == A_NAME:
        name_card(s, w, opts, card)


@njit
def _answer(s: Any, w: Any, opts: Any, action: Any, rng: Any, chance: Any, row: Any) -> None:
    """The other decisions: Nope or pass in a window, a card given to a Favor, a
    defused kitten put back, a card taken from the discard pile, and the
    expansion's."""
    setup = opts[OPT_STREAKING]
    kind, card, depth = SPECS[setup, action, 0], SPECS[setup, action, 1], SPECS[setup, action, 3]
    if kind == A_NOPE:
        nope(s, w, opts)
    elif kind == A_PASS:
        passed(s, w, opts, np.int64(s[TO_ACT]), rng, chance, row)
    elif kind == A_GIVE or kind == A_GIVE_MARKED:
        give(s, w, opts, card, kind == A_GIVE_MARKED, rng, chance, row)
    elif kind == A_INSERT:
        # a blind seat's kitten may have exploded while it tried to Nope: the window
        # it interrupted may close now
        if insert(s, w, opts, depth, rng, chance, row):
            resolve(s, w, opts, rng, chance, row)
    elif kind == A_TAKE:
        take(s, w, opts, card)
    else:
        _streaking_move(s, w, opts, action, rng, chance, row)


@njit
def _streaking_move(s: Any, w: Any, opts: Any, action: Any, rng: Any, chance: Any,
                    row: Any) -> None:
    """The expansion's decisions: a blind play or Nope, the target of a turned-up
    card, a card placed for Alter the Future, a card put in for Garbage Collection."""
    kind, card, offset = SPECS[1, action, 0], SPECS[1, action, 1], SPECS[1, action, 2]
    if kind == A_BLIND_PLAY:
        blind_play(s, w, opts, rng, chance, row)
    elif kind == A_BLIND_NOPE:
        blind_nope(s, w, opts, rng, chance, row)
    elif kind == A_TARGET:
        choose_target(s, w, opts, (np.int64(s[TURN_HOLDER]) + offset) % opts[OPT_PLAYERS])
    elif kind == A_ALTER:
        alter(s, w, opts, card)
    elif kind == A_GARBAGE or kind == A_GARBAGE_MARKED:
        garbage(s, w, opts, card, kind == A_GARBAGE_MARKED, rng, chance, row)


@njit
def _reward(s: Any, opts: Any, out_before: Any, rewards: Any, returns: Any) -> Any:
    """The rewards of a step (rules.STEP_REWARDS): -1 to each seat that exploded in
    it, +1 to the winner when the game ended; returns whether it ended."""
    for k in range(out_before, s[ELIMINATED_LEN]):
        rewards[s[ELIMINATED + k]] = -1.0
    ended = s[PHASE] == GAME_OVER_PHASE
    if ended and s[WINNER] >= 0:
        rewards[s[WINNER]] = 1.0
    for seat in range(opts[OPT_PLAYERS]):
        returns[seat] += rewards[seat]
    return ended


@njit_parallel
def playout(small: Any, wide: Any, opts: Any, limit: Any, masks: Any, to_act: Any,
            rewards: Any, returns: Any, lengths: Any, done: Any, over: Any,
            final_returns: Any, final_lengths: Any, rng: Any, chance: Any, left: Any) -> None:
    """Random legal play in every row that is not over, each row to the end of its
    game in one call: the steps of :func:`step` without automatic reset, each action
    drawn as :func:`cardgym.vector.random.random_actions` draws it (``masks``: a
    scratch row of legal actions per row). ``left[row]``: the steps the row had left
    of ``limit`` when it stopped, ``-1`` where it did not stop within ``limit``."""
    no_reset = np.bool_(False)  # not a literal: one signature for _step_row
    for i in prange(masks.shape[0]):
        row = np.int64(i)
        steps = limit
        while not over[row] and steps > 0:
            fill_mask(small[row], opts, masks[row])
            action = np.int64(random_legal(masks[row], rng, row))
            _step_row(small, wide, opts, row, action, no_reset, to_act, rewards, returns,
                      lengths, done, over, final_returns, final_lengths, rng, chance)
            steps -= 1
        left[row] = steps if over[row] else -1


@njit_parallel
def legal(small: Any, opts: Any, masks: Any) -> None:
    """The legal actions of the seat to act in every row."""
    for i in prange(masks.shape[0]):
        row = np.int64(i)
        fill_mask(small[row], opts, masks[row])


@njit_parallel
def observe(small: Any, wide: Any, opts: Any, seats: Any, obs: Any, masks: Any) -> None:
    """Row ``row``'s observation of ``seats[row]``, and its legal actions if it is to
    act (else zeros)."""
    for i in prange(seats.shape[0]):
        row = np.int64(i)
        s = small[row]
        seat = np.int64(seats[row])
        encode(s, wide[row], opts, seat, obs[row])
        if s[TO_ACT] == seat:
            fill_mask(s, opts, masks[row])
        else:
            masks[row, :] = 0
