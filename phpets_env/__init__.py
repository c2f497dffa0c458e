"""Power Hungry Pets (docs/rules/power_hungry_pets.md) as a PettingZoo AEC environment."""

from phpets_env.env import ENV_ID, env, raw_env
from phpets_env.game import GAME

__all__ = ["ENV_ID", "GAME", "env", "raw_env"]
