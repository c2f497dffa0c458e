"""Karel Kakelaar as a batched engine: N games as arrays, advanced by compiled
kernels (:mod:`cardgym.vector`). ``GAME.make_batched(num_games, num_players,
**options)`` builds one."""

from kakelaar_env.batched.engine import Engine

__all__ = ["Engine"]
