"""Power Hungry Pets as a batched engine: many matches held as arrays and advanced
together by compiled kernels (:mod:`cardgym.vector`), exactly as the reference engine
plays them."""

from cardgym.vector._numba import clear_stale_cache

clear_stale_cache(__file__)

from phpets_env.batched.engine import Engine  # noqa: E402 (after the cache check)

__all__ = ["Engine"]
