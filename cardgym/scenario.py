"""Readers of scenario values shared by every game: each checks one value and raises
:class:`~cardgym.errors.ScenarioError` naming where it stands (``where``: the key,
``hands[1]``, ...), what was wrong and what is allowed. A game's scenario module
reads its keys with them and its own card parser (docs/positions.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard, TypeVar

import numpy as np

from cardgym.documents import MAX_DEPTH
from cardgym.errors import ScenarioError, shorten
from cardgym.record import NONE

T = TypeVar("T")

__all__ = ["check_depth", "is_list", "read_card", "read_cards", "read_flag", "read_int",
           "read_mapping", "read_name", "read_per_seat", "read_seat", "read_seats"]


def is_list(value: object) -> TypeGuard[Sequence[Any]]:
    """Whether ``value`` is a list of items: a list, a tuple or an array, not a string
    or a mapping."""
    return (isinstance(value, (Sequence, np.ndarray))
            and not isinstance(value, (str, bytes, Mapping)))


def check_depth(scenario: object) -> None:
    """Refuse a scenario with lists and mappings nested deeper than
    :data:`~cardgym.documents.MAX_DEPTH` levels (the scenario itself the first), before
    any reader walks it or puts it in a message: no game's scenario comes near (a
    position file's is at most as deep), and one nested thousands deep would end in a
    ``RecursionError``. Walked without recursion, so the check itself cannot overflow.

    Raises:
        ScenarioError: naming the key whose value is too deep and the limit.
    """
    if isinstance(scenario, Mapping):
        tops: list[tuple[object, object]] = list(scenario.items())
        depth = 2
    else:
        tops, depth = [(None, scenario)], 1
    for key, top in tops:
        stack = [(top, depth)]
        while stack:
            item, level = stack.pop()
            if isinstance(item, Mapping):
                children: Any = item.values()
            elif is_list(item) and not (isinstance(item, np.ndarray) and item.dtype != object):
                children = item
            else:
                continue
            if level > MAX_DEPTH:
                where = "the scenario" if key is None else f"the scenario's {shorten(key)}"
                raise ScenarioError(f"{where} is nested too deeply: a scenario holds at most "
                                    f"{MAX_DEPTH} levels of lists and mappings, itself the "
                                    "first")
            stack.extend((child, level + 1) for child in children)


def read_int(value: object, where: str, low: int, high: int) -> int:
    """An integer ``low..high`` (numpy integers welcome; a bool is not one)."""
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
            or not low <= value <= high):
        raise ScenarioError(f"{where} must be an integer {low}..{high}, got {shorten(value)}")
    return int(value)


def read_seat(value: object, where: str, n: int, optional: bool = False) -> int:
    """A seat ``0..n-1``; with ``optional``, ``None`` gives :data:`~cardgym.record.NONE`."""
    if value is None and optional:
        return NONE
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
            or not 0 <= value < n):
        raise ScenarioError(f"{where} must be a seat 0..{n - 1}"
                            + (" or null" if optional else "") + f", got {shorten(value)}")
    return int(value)


def read_seats(value: object, where: str, n: int, distinct: bool = True) -> list[int]:
    """A list of seats ``0..n-1``, each at most once when ``distinct``."""
    if not is_list(value):
        raise ScenarioError(f"{where} must be a list of seats 0..{n - 1}, got {shorten(value)}")
    seats = [read_seat(seat, f"{where}[{i}]", n) for i, seat in enumerate(value)]
    if distinct and len(set(seats)) != len(seats):
        raise ScenarioError(f"{where} names a seat twice: {seats}")
    return seats


def read_flag(value: object, where: str) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ScenarioError(f"{where} must be true or false, got {shorten(value)}")
    return bool(value)


def read_name(value: object, where: str, names: Sequence[str]) -> int:
    """The index of ``value`` among ``names`` (a phase, a kind of play, ...)."""
    if not isinstance(value, str) or value not in names:
        raise ScenarioError(f"{where} must be one of {', '.join(names)}, got {shorten(value)}")
    return list(names).index(value)


def read_mapping(value: object, where: str, keys: Sequence[str]) -> Mapping[str, Any]:
    """A mapping with no keys but ``keys``."""
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where} must be a mapping with keys {', '.join(keys)}, "
                            f"got {shorten(value)}")
    unknown = sorted(str(key) for key in set(value) - set(keys))
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {unknown}; allowed: {', '.join(keys)}")
    return value


def read_card(value: object, where: str, parse: Callable[[Any], int]) -> int:
    """One card, by the game's ``parse`` (which raises ``ValueError`` saying what the
    cards are)."""
    if isinstance(value, np.integer):
        value = int(value)
    try:
        return int(parse(value))
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from None


def read_cards(value: object, where: str, parse: Callable[[Any], int]) -> list[int]:
    """A list of cards, each by ``parse``."""
    if not is_list(value):
        raise ScenarioError(f"{where} must be a list of cards, got {shorten(value)}")
    return [read_card(item, f"{where}[{i}]", parse) for i, item in enumerate(value)]


def read_per_seat(value: object, where: str, n: int, read: Callable[[object, str], T],
                  what: str, unit: str = "seats") -> list[T]:
    """One entry per seat, each ``read(item, where[seat])``; ``what`` says what an
    entry is (``"list of cards"``), for the error; ``unit`` what the entries stand for
    (``"participants"`` where a robot player has one too)."""
    if not is_list(value) or len(value) != n:
        raise ScenarioError(f"{where} must hold one {what} for each of the {n} {unit}, "
                            f"got {shorten(value)}")
    return [read(item, f"{where}[{seat}]") for seat, item in enumerate(value)]
