"""Errors raised by cardgym environments and engines."""

from __future__ import annotations

import reprlib

#: How a value appears in an error message: long lists, dicts and strings cut short,
#: deep nesting shown as ``...`` (an error about a huge value stays one readable line).
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict, _SHORT.maxset = 3, 6, 6, 6, 6
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 60, 60, 40


def shorten(value: object) -> str:
    """``repr(value)`` cut to a readable length, for error messages."""
    return _SHORT.repr(value)


class CardgymError(Exception):
    """Base class of every error cardgym raises on purpose."""


class IllegalMoveError(CardgymError, ValueError):
    """A move or action that is not legal in the current state.

    The state is left exactly as it was before the call.
    """


class ScenarioError(CardgymError, ValueError):
    """A malformed scenario passed to ``reset(options={"scenario": ...})``."""


class DocumentError(CardgymError, ValueError):
    """A position or game-record file that cannot be read, or a record that no
    longer replays (:mod:`cardgym.positions`, :mod:`cardgym.records`)."""


class OptionError(CardgymError, ValueError):
    """An unknown rule option or an option value outside the allowed set."""


class ViewerError(CardgymError, ValueError):
    """A table view or picture asked for a viewer that is not at the table: not a
    seat, ``"full"`` or ``None`` (the spectator), or a seat that has left the game."""


class OrderError(CardgymError, RuntimeError):
    """An environment method called out of order (e.g. ``step`` before ``reset``)."""


class GameOverError(OrderError, KeyError):
    """``last()`` (or another per-agent query) after every agent has finished.

    Also a ``KeyError``: PettingZoo's own environments raise a bare ``KeyError``
    there, so code written for them keeps working.
    """

    def __str__(self) -> str:  # KeyError's own __str__ would quote the message
        return str(self.args[0]) if self.args else ""
