"""The batched Karel Kakelaar engine: many games as rows of one byte matrix.

Each game is a row of ``board`` (:mod:`kakelaar_env.batched.layout`); the rules run
in compiled kernels (:mod:`kakelaar_env.batched.kernels`), one call per deal, step,
observation and mask for every row at once. Observations and masks equal the AEC
env's (``kakelaar_env.env``) bit for bit; :meth:`Engine.export` and
:meth:`Engine.load` move a game to and from the reference engine's ``State``.

All randomness is at the deal (the pile shuffled and trimmed, the tractor holder,
the robot deck), so ``chance`` moves only when a row is dealt.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from cardgym.game import Game
from cardgym.vector.engine import BatchedEngine
from kakelaar_env.batched.convert import export_record, load_record
from kakelaar_env.batched.kernels import (
    DEAL,
    STEP,
    STEP_AUTORESET,
    play_rows,
    playout,
    stage_rows,
    view_rows,
)
from kakelaar_env.batched.layout import CURSOR, NUM_ASKED, ROW_FORMAT
from kakelaar_env.engine.cards import HEN, NUM_HENS
from kakelaar_env.engine.state import Config, State
from kakelaar_env.game import GAME

__all__ = ["Engine"]


class Engine(BatchedEngine):
    """``num_games`` games of Karel Kakelaar with one rule set (see
    :class:`~cardgym.vector.engine.BatchedEngine`)."""

    game: ClassVar[Game] = GAME
    row_format = ROW_FORMAT
    config: Config
    board: NDArray[np.int8]

    def _allocate(self) -> None:
        config = self.config
        # The 45 worms and mother hens in type order, shuffled at each deal.
        self.pile = np.array([t for t, count in enumerate(config.worm_counts)
                              for _ in range(count)] + [HEN] * NUM_HENS, np.int8)
        self._reward = 1 if config.reward == "score_difference" else 0
        self._final_tie = 1 if config.final_tie == "draw" else 0
        # What the mask-only kernel call takes in place of observations (never written).
        self._no_obs = np.empty((1, self.obs_dim), np.float32)
        self._play_rows, self._view_rows = self._kernel(play_rows), self._kernel(view_rows)
        self._stage_rows = self._kernel(stage_rows)
        self._playout_kernel = self._kernel(playout)
        self._masks = np.empty((self.num_games, self.num_actions), np.int8)

    def _deal(self, rows: NDArray[np.bool_]) -> None:
        self._play(rows.astype(np.int64), DEAL)

    def _step(self, actions: NDArray[np.int64], autoreset: bool) -> None:
        self._play(actions, STEP_AUTORESET if autoreset else STEP)

    def _play(self, actions: NDArray[np.int64], mode: int) -> None:
        self._play_rows(self.board, actions, mode, self.num_players, self.pile, self._reward,
                  self._final_tie, self.to_act, self.rewards, self.returns, self.lengths,
                  self.done, self.over, self.final_returns, self.final_lengths, self.chance,
                  self.rng)

    def _playout(self, limit: int, round_end: bool, left: NDArray[np.int64]) -> None:
        # One game, no rounds: the game's end is the round's.
        self._playout_kernel(self.board, np.int64(limit), self.num_players, self.pile,
                             self._reward, self._final_tie, self._masks, self._no_obs,
                             self.to_act, self.rewards, self.returns, self.lengths, self.done,
                             self.over, self.final_returns, self.final_lengths, self.chance,
                             self.rng, left)

    def _observe(self, seats: NDArray[np.int64], obs: NDArray[np.float32],
                 masks: NDArray[np.int8]) -> None:
        self._view_rows(self.board, seats, self.num_players, True, obs, masks)

    def _legal(self, masks: NDArray[np.int8]) -> None:
        self._view_rows(self.board, self.to_act, self.num_players, False, self._no_obs, masks)

    def observe_stage(self, rows: NDArray[np.int64], seats: NDArray[np.int64],
                      obs: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
        """What a step of the parallel env (:mod:`kakelaar_env.parallel`) shows each
        seat: for each ``k``, into ``obs[k]`` the observation of seat ``seats[k]`` in
        row ``rows[k]``, and into ``masks[k]`` its legal actions in the current stage,
        whether or not it is the seat to act (the single move ``hen:none`` or ``pass``
        for a seat with nothing to commit in it; all zero once the game is over). A
        row may be named once per seat."""
        self._stage_rows(self.board, rows, seats, self.num_players, obs, masks)

    def to_commit(self, i: int) -> int:
        """How many seats are still to commit in the current stage of row ``i``: the
        decisions until it resolves (0 once the game is over)."""
        row = self.board[self._row(i)]
        return int(row[NUM_ASKED]) - int(row[CURSOR])

    def _export_rest(self, rows: dict[str, NDArray[Any]], state: State) -> None:
        export_record(rows["board"], state)

    def _load_rest(self, rows: dict[str, NDArray[Any]], state: State) -> None:
        load_record(rows["board"], state)
