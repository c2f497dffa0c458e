"""cardgym: reinforcement-learning environments for card games.

Importing the package registers every environment with PettingZoo::

    import cardgym, pettingzoo
    env = pettingzoo.make("aec", "cardgym/power_hungry_pets-v1", num_players=4)
"""

from cardgym.errors import IllegalMoveError, OptionError, OrderError, ScenarioError
from cardgym.registration import GAMES, register_all

register_all()

__version__ = "0.1.0"
__all__ = ["GAMES", "IllegalMoveError", "OptionError", "OrderError", "ScenarioError", "__version__"]
