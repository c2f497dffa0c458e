"""Exploding Kittens (docs/rules/exploding_kittens.md) as a PettingZoo AEC environment."""

from ek_env.env import ENV_ID, env, raw_env
from ek_env.game import GAME

__all__ = ["ENV_ID", "GAME", "env", "raw_env"]
