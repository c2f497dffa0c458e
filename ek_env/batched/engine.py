"""The batched Exploding Kittens engine: :class:`Engine`.

A row holds one game in two arrays (:mod:`~ek_env.batched.layout`): ``small``
(``int8``: counts per kind, the draw pile, seats, flags, what each seat knows) and
``wide`` (``int32``: owed turns, turns played and the ring of recent events). Each
method is one kernel call (:mod:`~ek_env.batched.kernels`), but :meth:`Engine.export`
and :meth:`Engine.load`, which the row format packs (``layout.ROW_FORMAT``) and
:mod:`~ek_env.batched.convert` completes with the log.

The kernels draw from each row's stream exactly as the reference engine draws from
:class:`~cardgym.chance.GameRandom` (the deal's two shuffles and first player, a
Shuffle, the random card of a pair's steal, and the expansion's blind turn-ups,
marks, Catomic Bomb and Garbage Collection shuffles), so a row plays the game the
reference plays from the same stream state.

Two rules keep the cold compile short (numba optimizes each compiled function with
everything it calls, and compiles a function again for each new argument type): the
kernels call the rules in a flat tree (the reference's ``explode`` and ``carry_on``,
which call each other, are a loop here), and every function is called with one
argument type per position: ``int64`` scalars (constants are ``np.int64``, not
Python ints, which numba types as literals; flags are ``np.bool_``), ``int8`` and
``int32`` row views. Even so the first use compiles for about 80 s on one core (the
step kernel, which holds every rule, most of it); later processes load the kernels
from numba's cache in a second or two.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.vector.engine import BatchedEngine
from ek_env.batched import kernels
from ek_env.batched.convert import export_log, load_log
from ek_env.batched.layout import ROW_FORMAT, options_of
from ek_env.engine.state import State
from ek_env.game import GAME

__all__ = ["Engine"]


class Engine(BatchedEngine):
    """``num_games`` Exploding Kittens games of one rule set (``config``)."""

    game = GAME
    row_format = ROW_FORMAT
    small: NDArray[np.int8]
    wide: NDArray[np.int32]

    def _allocate(self) -> None:
        self.options = options_of(self.config)
        # The kernels, serial in an engine of one row.
        (self._deal_kernel, self._step_kernel, self._legal_kernel, self._observe_kernel,
         self._playout_kernel) = map(self._kernel, (kernels.deal, kernels.step, kernels.legal,
                                                    kernels.observe, kernels.playout))
        self._masks = np.empty((self.num_games, self.num_actions), np.int8)

    def _deal(self, rows: NDArray[np.bool_]) -> None:
        self._deal_kernel(self.small, self.wide, self.options, rows, self.to_act, self.rewards,
                          self.returns, self.lengths, self.done, self.over, self.rng,
                          self.chance)

    def _step(self, actions: NDArray[np.int64], autoreset: bool) -> None:
        self._step_kernel(self.small, self.wide, self.options, actions, autoreset, self.to_act,
                          self.rewards, self.returns, self.lengths, self.done, self.over,
                          self.final_returns, self.final_lengths, self.rng, self.chance)

    def _observe(self, seats: NDArray[np.int64], obs: NDArray[np.float32],
                 masks: NDArray[np.int8]) -> None:
        self._observe_kernel(self.small, self.wide, self.options, seats, obs, masks)

    def _legal(self, masks: NDArray[np.int8]) -> None:
        self._legal_kernel(self.small, self.options, masks)

    def _playout(self, limit: int, round_end: bool, left: NDArray[np.int64]) -> None:
        self._playout_kernel(self.small, self.wide, self.options, np.int64(limit), self._masks,
                             self.to_act, self.rewards, self.returns, self.lengths, self.done,
                             self.over, self.final_returns, self.final_lengths, self.rng,
                             self.chance, left)

    def _export_rest(self, rows: dict[str, NDArray[Any]], state: State) -> None:
        """The log: the newest events, secrets included."""
        export_log(rows["wide"], state)

    def _load_rest(self, rows: dict[str, NDArray[Any]], state: State) -> None:
        load_log(rows["wide"], state)
