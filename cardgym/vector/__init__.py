"""Batched engines and the vector env: thousands of games in one call.

:func:`make` builds a :class:`VectorEnv` (``reset(seed)``, ``step(actions)`` over
arrays, automatic reset) on a game's :class:`BatchedEngine`, which holds the games
as arrays and steps them with compiled kernels (numba, ``pip install
"cardgym[vector]"``). Games name their engine in their contract
(``Game.batched``); :func:`batched_games` lists them. docs/vector.md has the
details, the figures and what a game needs to get one.

:func:`make_single_agent` builds a :class:`LearnerVectorEnv`, a
``gymnasium.vector.VectorEnv`` in which a learner holds one seat of every game and
opponent policies play the others in batches (docs/vector.md, "Training on the
batched engine").
"""

from cardgym.vector.engine import BatchedEngine
from cardgym.vector.env import VectorEnv, batched_games, make
from cardgym.vector.learner import LearnerVectorEnv, make_single_agent

__all__ = ["BatchedEngine", "LearnerVectorEnv", "VectorEnv", "batched_games", "make",
           "make_single_agent"]
