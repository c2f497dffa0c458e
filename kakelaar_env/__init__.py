"""Karel Kakelaar (docs/rules/karel_kakelaar.md) as PettingZoo AEC and parallel environments."""

from kakelaar_env.env import ENV_ID, env, raw_env
from kakelaar_env.game import GAME
from kakelaar_env.parallel import parallel_env

__all__ = ["ENV_ID", "GAME", "env", "parallel_env", "raw_env"]
