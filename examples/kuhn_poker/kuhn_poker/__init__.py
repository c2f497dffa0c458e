"""Kuhn poker for cardgym: the example game of ``docs/adding-a-game.md``."""

from kuhn_poker.env import ENV_ID, env, raw_env
from kuhn_poker.game import GAME

__all__ = ["ENV_ID", "GAME", "env", "raw_env"]
