"""Checks every game's ``Config`` runs on its rule options.

Each game keeps its options in a frozen dataclass ``Config`` whose ``__post_init__``
checks them with these functions, so that a bad option gets the same
:class:`~cardgym.errors.OptionError` message in every game: what was given and what
is allowed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.errors import OptionError

__all__ = ["check_choice", "check_num_players"]


def check_choice(name: str, value: object, allowed: tuple[object, ...]) -> None:
    """Raise :class:`OptionError` unless ``value`` is one of ``allowed``.

    Booleans and numbers are kept apart (``True == 1`` in Python): a boolean option
    takes only ``True`` or ``False``, and any other option refuses them.
    """
    is_flag = isinstance(allowed[0], bool)
    if value not in allowed or isinstance(value, bool) != is_flag:
        raise OptionError(
            f"{name}={value!r} is not a valid option; allowed: {', '.join(map(repr, allowed))}"
        )


def check_num_players(config: Any, title: str, low: int, high: int) -> None:
    """Check ``config.num_players`` (a frozen dataclass field) is an int in
    ``low..high``; a numpy integer is taken and stored as a Python ``int``.

    Args:
        config: the game's ``Config`` instance, from its ``__post_init__``.
        title: the game's name, for the message (``"Power Hungry Pets"``).
        low, high: the smallest and largest player counts.
    """
    value = config.num_players
    if isinstance(value, np.integer):  # numpy integers are welcome too
        value = int(value)
        object.__setattr__(config, "num_players", value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise OptionError(
            f"num_players={value!r} is not allowed; {title} takes {low} to {high} players"
        )
