"""Exploding Kittens (RULES.md §3) as a PettingZoo AEC environment."""

from ek_env.env import ENV_ID, env, raw_env

__all__ = ["ENV_ID", "env", "raw_env"]
