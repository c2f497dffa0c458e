"""Karel Kakelaar (RULES.md §5) as PettingZoo AEC and parallel environments."""

from kakelaar_env.env import ENV_ID, env, raw_env
from kakelaar_env.parallel import parallel_env

__all__ = ["ENV_ID", "env", "parallel_env", "raw_env"]
