"""Exploding Kittens as a batched engine: many games held as arrays and advanced
together by compiled kernels (:mod:`cardgym.vector`), exactly as the reference engine
plays them, the Streaking Kittens expansion included."""

from cardgym.vector._numba import clear_stale_cache

clear_stale_cache(__file__)

from ek_env.batched.engine import Engine  # noqa: E402 (after the cache check)

__all__ = ["Engine"]
