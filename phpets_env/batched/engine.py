"""The batched Power Hungry Pets engine: :class:`Engine`, named by the game's contract
(``GAME.batched``).

A row holds one match in two arrays (:mod:`~phpets_env.batched.layout`): ``small``
(``int8``: cards by the reference's ids, seats, flags, the ring of recent events)
and ``wide`` (``int32``: what each seat knows, as bits over card ids, and counters).
Each method is one kernel call (:mod:`~phpets_env.batched.kernels`), but
:meth:`Engine.export` and :meth:`Engine.load`, which the row format packs
(``layout.ROW_FORMAT``) and :mod:`~phpets_env.batched.convert` completes with the log.

Two rules keep the cold compile short (numba optimizes each compiled function with
everything it calls, and compiles a function again for each new argument type): the
kernels call the rules in a flat tree (a play or follow-up, then the end of the
turn, then the end of the round, each from the step kernel), and every function is
called with one argument type per position: ``int64`` scalars (constants are
``np.int64``, not Python ints, which numba types as literals), ``int8``/``int32`` row
views. A test checks that each compiled function has a single signature.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.vector.engine import BatchedEngine
from phpets_env.batched import kernels
from phpets_env.batched.convert import export_log, load_log
from phpets_env.batched.layout import ROW_FORMAT, options_of
from phpets_env.engine.state import State
from phpets_env.game import GAME

__all__ = ["Engine"]


class Engine(BatchedEngine):
    """``num_games`` Power Hungry Pets matches of one rule set (``config``)."""

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
        self._playout_kernel(self.small, self.wide, self.options, np.int64(limit), round_end,
                             self._masks, self.to_act, self.rewards, self.returns, self.lengths,
                             self.done, self.over, self.final_returns, self.final_lengths,
                             self.rng, self.chance, left)

    def _export_rest(self, rows: dict[str, NDArray[Any]], state: State) -> None:
        """The log: the public events ``recent_moves`` reads and the newest turn-start
        draw."""
        export_log(rows["small"], rows["wide"], state)

    def _load_rest(self, rows: dict[str, NDArray[Any]], state: State) -> None:
        load_log(rows["small"], rows["wide"], state)
