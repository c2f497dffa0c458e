"""Power Hungry Pets (RULES.md §2) as a PettingZoo AEC environment."""

from phpets_env.env import ENV_ID, env, raw_env

__all__ = ["ENV_ID", "env", "raw_env"]
