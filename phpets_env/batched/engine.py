"""The batched Power Hungry Pets engine: :class:`Engine`, named by the game's contract
(``GAME.batched``).

A row holds one match in two arrays (:mod:`~phpets_env.batched.layout`): ``small``
(``int8``: cards by the reference's ids, seats, flags, the ring of recent events)
and ``wide`` (``int32``: what each seat knows, as bits over card ids, and counters).
Each method is one kernel call (:mod:`~phpets_env.batched.kernels`), but
:meth:`Engine.export` and :meth:`Engine.load` (:mod:`~phpets_env.batched.convert`).

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
from phpets_env.batched.convert import export_row, load_row
from phpets_env.batched.layout import SMALL_WIDTH, WIDE_WIDTH, options_of
from phpets_env.game import GAME
from phpets_env.state import MATCH_OVER, State

__all__ = ["Engine"]


class Engine(BatchedEngine):
    """``num_games`` Power Hungry Pets matches of one rule set (``config``)."""

    game = GAME
    row_fields = ("small", "wide")

    def _allocate(self) -> None:
        self.small = np.zeros((self.num_games, SMALL_WIDTH), np.int8)
        self.wide = np.zeros((self.num_games, WIDE_WIDTH), np.int32)
        self.options = options_of(self.config)

    def _deal(self, rows: NDArray[np.bool_]) -> None:
        kernels.deal(self.small, self.wide, self.options, rows, self.to_act, self.rewards,
                     self.returns, self.lengths, self.done, self.over, self.rng, self.chance)

    def _step(self, actions: NDArray[np.int64], autoreset: bool) -> None:
        kernels.step(self.small, self.wide, self.options, actions, autoreset, self.to_act,
                     self.rewards, self.returns, self.lengths, self.done, self.over,
                     self.final_returns, self.final_lengths, self.rng, self.chance)

    def _observe(self, seats: NDArray[np.int64], obs: NDArray[np.float32],
                 masks: NDArray[np.int8]) -> None:
        kernels.observe(self.small, self.wide, self.options, seats, obs, masks)

    def _legal(self, masks: NDArray[np.int8]) -> None:
        kernels.legal(self.small, self.options, masks)

    def export(self, i: int) -> State:
        """Match ``i`` as a reference state; its log holds the events the row keeps:
        the public events ``recent_moves`` reads and the newest turn-start draw."""
        i = self._row(i)
        return export_row(self.small[i], self.wide[i], self.config)

    def load(self, i: int, state: Any) -> None:
        """Put a reference state of this config into row ``i`` (bookkeeping restarted;
        ``over`` set if its match has ended)."""
        i = self._row(i)
        if not isinstance(state, State) or state.config != self.config:
            raise ValueError(f"load needs a Power Hungry Pets state of {self.config}")
        load_row(self.small[i], self.wide[i], state)
        self._loaded(i, state.to_act, state.phase == MATCH_OVER)
