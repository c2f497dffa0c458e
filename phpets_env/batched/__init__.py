"""Power Hungry Pets as a batched engine: many matches held as arrays and advanced
together by compiled kernels (:mod:`cardgym.vector`), exactly as the reference engine
plays them."""

from phpets_env.batched.engine import Engine

__all__ = ["Engine"]
