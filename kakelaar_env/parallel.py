"""Karel Kakelaar as a PettingZoo ``ParallelEnv``: one step per stage, every agent acts.

In each step every live agent sends an action: the seats with a decision in the
current stage (bid, play a hen or not, take a card back) their choice, the others
their single legal move (``hen:none`` in the hen stage, ``pass`` otherwise). The
step commits the choices in the engine's order and resolves the stage; since a
stage's commits are hidden until it resolves, this is the same game as the AEC env
(the same state, public record and observations). ``render()`` shows one seat's view
by default, as the AEC env does (``render_seat="full"`` for everything), and ends
with what happened in the last step, as that seat saw it; with ``render_mode="human"``
``reset()`` and ``step()`` print it by themselves. ``reset(options={"scenario":
{...}})`` sets up any position, as in the AEC env (the same ``new_game``; a position
in the middle of a stage keeps the commits made so far, and the next step asks the
seats still to commit). ``engine`` chooses the rules the game is played by, as in the
AEC env: by default (``"auto"``) the compiled rules where numba is installed, one
kernel call showing every seat its observation and mask and one per commit, or the
Python engine (``"python"``); both play the same games, step for step, and show the
same table. See :mod:`kakelaar_env.env` for options, scenarios, observations (the
public record included), actions and rewards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cardgym.aec import RENDER_FPS, RENDER_MODES
from cardgym.parallel import CardGameParallelEnv, Observation, StepResult
from kakelaar_env.engine.cards import DEFAULT_WORM_COUNTS
from kakelaar_env.engine.legality import apply_action, parallel_mask
from kakelaar_env.engine.state import Config, State
from kakelaar_env.game import GAME

__all__ = ["Observation", "ParallelKakelaar", "StepResult", "parallel_env"]


class ParallelKakelaar(CardGameParallelEnv[State]):
    """Karel Kakelaar parallel environment; arguments as :func:`kakelaar_env.env.raw_env`
    (``render_seat``: a seat, ``None`` for the seat whose commit is next, or ``"full"``
    for everything; ``engine``: ``"auto"``, ``"compiled"`` or ``"python"``, see
    :class:`cardgym.parallel.CardGameParallelEnv`)."""

    game = GAME
    metadata: ClassVar[dict[str, Any]] = {
        "name": "karel_kakelaar_v2",
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "is_parallelizable": True,
    }
    # The batched engine shows a stage (``Engine.observe_stage``: every seat's
    # ``parallel_mask``), and ``_play_stage`` plays on the table too.
    plays_compiled = True

    def __init__(
        self,
        num_players: int = 2,
        worm_counts: Sequence[int] = DEFAULT_WORM_COUNTS,
        reward: str = "win_loss",
        final_tie: str = "shared",
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
        version: int | None = None,
        engine: str = "auto",
    ) -> None:
        self.config = Config(num_players, worm_counts, reward, final_tie)  # type: ignore[arg-type]
        # A numpy integer is taken as an int.
        super().__init__(self.config.num_players, render_mode, render_seat, illegal_action,
                         version, engine)

    def _stage_mask(self, seat: int) -> int:
        return parallel_mask(self.game_state, seat)  # type: ignore[arg-type]

    def _play_stage(self, chosen: list[int]) -> None:
        # The stage's commits are hidden until it resolves: committing them in the
        # engine's order is the same game as the AEC env's.
        table = self._table
        if table is not None:  # the same commits in the row: one kernel step each
            for _ in range(table.engine.to_commit(0)):  # type: ignore[attr-defined]
                table.apply(chosen[table.to_act()])
            return
        state: State = self.game_state  # type: ignore[assignment]
        phase, version = state.phase, state.version
        while state.phase == phase and state.version == version:
            apply_action(state, chosen[state.current])


def parallel_env(**kwargs: Any) -> ParallelKakelaar:
    """Karel Kakelaar as a ``ParallelEnv`` (same arguments as ``env()``)."""
    return ParallelKakelaar(**kwargs)
