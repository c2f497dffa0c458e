"""Kuhn poker's batched engine: N hands as arrays, stepped by numba kernels.

The smallest example of :class:`cardgym.vector.BatchedEngine` (docs/vector.md): the
state of hand ``i`` is row ``i`` of three arrays, and each of ``_deal``, ``_step``,
``_observe`` and ``_legal`` is one kernel call over every row.

- ``cards[i]``: seat 0's card, seat 1's card, the card out of play;
- ``moves[i, :count[i]]``: the moves so far (``CHECK``, ``BET``, ``CALL``, ``FOLD``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.vector import BatchedEngine
from cardgym.vector._numba import clear_stale_cache, njit, njit_parallel, prange
from cardgym.vector.random import shuffle
from kuhn_poker.encoding import MAX_MOVES, OBSERVATION_SPEC
from kuhn_poker.game import GAME
from kuhn_poker.rules import BET, CALL, CHECK, FOLD, NUM_CARDS, State, apply_move

__all__ = ["Engine"]

clear_stale_cache(__file__)  # the kernels also compile in cardgym.vector.random's draws

_MOVES = OBSERVATION_SPEC.offset("moves")
_SHOWN = OBSERVATION_SPEC.offset("shown")
_TO_ACT = OBSERVATION_SPEC.offset("to_act")
_NUM_MOVES = 4


@njit
def _deal_row(i: int, cards: Any, count: Any, to_act: Any, rng: Any, chance: Any) -> None:
    for c in range(NUM_CARDS):
        cards[i, c] = c
    shuffle(cards[i], NUM_CARDS, rng, i)
    chance[i] += 1
    count[i] = 0
    to_act[i] = 0


@njit_parallel
def _deal(rows: Any, cards: Any, count: Any, to_act: Any, rng: Any, chance: Any,
          rewards: Any, returns: Any, lengths: Any, done: Any, over: Any) -> None:
    for i in prange(rows.shape[0]):
        if rows[i]:
            _deal_row(i, cards, count, to_act, rng, chance)
            rewards[i, :] = 0.0
            returns[i, :] = 0.0
            lengths[i] = 0
            done[i] = False
            over[i] = False


@njit_parallel
def _step(actions: Any, autoreset: bool, ante: int, cards: Any, moves: Any, count: Any,
          to_act: Any, rng: Any, chance: Any, rewards: Any, returns: Any, lengths: Any,
          done: Any, over: Any, final_returns: Any, final_lengths: Any) -> None:
    for i in prange(actions.shape[0]):
        rewards[i, :] = 0.0
        done[i] = False
        if over[i]:
            continue
        move = actions[i]
        actor = to_act[i]
        moves[i, count[i]] = move
        count[i] += 1
        lengths[i] += 1
        winner, chips = -1, 0
        if move == FOLD:
            winner, chips = 1 - actor, ante
        elif move == CALL:
            winner, chips = (1 if cards[i, 1] > cards[i, 0] else 0), ante + 1
        elif count[i] == 2 and moves[i, 0] == CHECK and moves[i, 1] == CHECK:
            winner, chips = (1 if cards[i, 1] > cards[i, 0] else 0), ante
        else:
            to_act[i] = 1 - actor
        if winner < 0:
            continue
        rewards[i, winner] = chips
        rewards[i, 1 - winner] = -chips
        for s in range(2):
            returns[i, s] += rewards[i, s]
            final_returns[i, s] = returns[i, s]
        final_lengths[i] = lengths[i]
        done[i] = True
        if autoreset:
            _deal_row(i, cards, count, to_act, rng, chance)
            returns[i, :] = 0.0
            lengths[i] = 0
        else:
            over[i] = True


@njit
def _mask_row(i: int, masks: Any, moves: Any, count: Any, over: Any) -> None:
    masks[i, :] = 0
    if over[i]:
        return
    if count[i] > 0 and moves[i, count[i] - 1] == BET:
        masks[i, CALL] = 1
        masks[i, FOLD] = 1
    else:
        masks[i, CHECK] = 1
        masks[i, BET] = 1


@njit_parallel
def _observe(seats: Any, obs: Any, masks: Any, cards: Any, moves: Any, count: Any,
             to_act: Any, over: Any) -> None:
    for i in prange(seats.shape[0]):
        seat = seats[i]
        obs[i, :] = 0.0
        obs[i, cards[i, seat]] = 1.0
        for k in range(count[i]):
            obs[i, _MOVES + k * _NUM_MOVES + moves[i, k]] = 1.0
        if over[i] and moves[i, count[i] - 1] != FOLD:
            obs[i, _SHOWN + cards[i, 1 - seat]] = 1.0
        acting = to_act[i] == seat and not over[i]
        obs[i, _TO_ACT] = 1.0 if acting else 0.0
        if acting:
            _mask_row(i, masks, moves, count, over)
        else:
            masks[i, :] = 0


@njit_parallel
def _legal(masks: Any, moves: Any, count: Any, over: Any) -> None:
    for i in prange(masks.shape[0]):
        _mask_row(i, masks, moves, count, over)


class Engine(BatchedEngine):
    """N hands of Kuhn poker (see the module)."""

    game = GAME
    row_fields = ("cards", "moves", "count")

    def _allocate(self) -> None:
        n = self.num_games
        self.cards = np.zeros((n, NUM_CARDS), np.int8)
        self.moves = np.zeros((n, MAX_MOVES), np.int8)
        self.count = np.zeros(n, np.int8)
        # The kernels, serial in an engine of one row.
        self._deal_kernel, self._step_kernel, self._observe_kernel, self._legal_kernel = map(
            self._kernel, (_deal, _step, _observe, _legal))

    def _deal(self, rows: NDArray[np.bool_]) -> None:
        self._deal_kernel(rows, self.cards, self.count, self.to_act, self.rng, self.chance,
                          self.rewards, self.returns, self.lengths, self.done, self.over)

    def _step(self, actions: NDArray[np.int64], autoreset: bool) -> None:
        self._step_kernel(actions, autoreset, self.config.ante, self.cards, self.moves,
                          self.count, self.to_act, self.rng, self.chance, self.rewards,
                          self.returns, self.lengths, self.done, self.over, self.final_returns,
                          self.final_lengths)

    def _observe(self, seats: NDArray[np.int64], obs: NDArray[np.float32],
                 masks: NDArray[np.int8]) -> None:
        self._observe_kernel(seats, obs, masks, self.cards, self.moves, self.count, self.to_act,
                             self.over)

    def _legal(self, masks: NDArray[np.int8]) -> None:
        self._legal_kernel(masks, self.moves, self.count, self.over)

    def export(self, i: int) -> State:
        state = State(self.config, [int(card) for card in self.cards[i]])
        for move in self.moves[i, :self.count[i]]:
            apply_move(state, int(move))
        return state

    def load(self, i: int, state: State) -> None:
        self.cards[i] = state.cards
        self.count[i] = len(state.moves)
        self.moves[i, :len(state.moves)] = state.moves
        self._loaded(i, state.to_act, state.over)
