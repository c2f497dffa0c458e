"""Karel Kakelaar as a batched engine: N games as arrays, advanced by compiled
kernels (:mod:`cardgym.vector`). ``GAME.make_batched(num_games, num_players,
**options)`` builds one."""

from cardgym.vector._numba import clear_stale_cache

clear_stale_cache(__file__)

from kakelaar_env.batched.engine import Engine  # noqa: E402 (after the cache check)

__all__ = ["Engine"]
