"""Batched engines and the vector env: thousands of games in one call.

:func:`make` builds a :class:`VectorEnv` (``reset(seed)``, ``step(actions)`` over
arrays, automatic reset) on a game's :class:`BatchedEngine`, which holds the games
as arrays and steps them with compiled kernels (numba, ``pip install
"cardgym[vector]"``). Games name their engine in their contract
(``Game.batched``); :func:`batched_games` lists them. docs/vector.md has the
details, the figures and what a game needs to get one.
"""

from cardgym.vector.engine import BatchedEngine
from cardgym.vector.env import VectorEnv, batched_games, make

__all__ = ["BatchedEngine", "VectorEnv", "batched_games", "make"]
