"""The public record of a game: what happened at the table, as each seat saw it.

Every game keeps a log of :class:`Event` in its state, appended by the engine as
moves resolve: who did what, at whom, naming which card, with what result. Most of
an event is public (docs/rules/README.md: every announced choice, every card played face up,
every reveal); an event may also carry one *secret* detail (the card given to a
Favor, the depth a kitten went back to) that only the seats in ``seen_by`` saw.

Who reads the log, and how no reader sees a secret its seat did not see:

- each game's encoder writes the public part of the newest events (actor, what,
  target, card, result; never ``secret``) into the ``recent_moves`` field of the
  observation, through the game's ``PlayerView``;
- the narration (:meth:`cardgym.aec.CardGameEnv.narrate`: ``cardgym play`` and the
  ``ansi`` render) passes every event through :meth:`Event.as_seen_by` first;
- ``resample_hidden`` gives a search sample the log with :func:`blank_unseen`, so
  that a search reads only what its seat saw.

What an event's integer fields mean (``what`` codes, card ids or values) is each
game's own; a game names its codes and describes events in words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from cardgym.errors import ScenarioError, shorten

#: ``actor`` or ``target`` of an event that no seat did or received (a shuffle, a deal).
TABLE: Final = -1
#: An integer field with nothing in it.
NONE: Final = -1


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, in the game's own codes.

    Attributes:
        actor: the seat that acted, or :data:`TABLE`.
        what: the game's code for the kind of event.
        target: the seat the event was aimed at, or :data:`NONE`.
        card: a public card (kind or value, the game's own), e.g. the card played
            or named, or :data:`NONE`.
        result: a public result code (hit or miss, a count), or :data:`NONE`.
        secret: a detail only the seats in ``seen_by`` saw, or :data:`NONE`.
        seen_by: bit mask of the seats that saw ``secret`` (bit ``s`` for seat ``s``).
    """

    actor: int
    what: int
    target: int = NONE
    card: int = NONE
    result: int = NONE
    secret: int = NONE
    seen_by: int = 0

    def as_seen_by(self, seat: int) -> Event:
        """The event as ``seat`` saw it: the secret blanked unless ``seat`` saw it."""
        if self.secret == NONE or self.seen_by >> seat & 1:
            return self
        return replace(self, secret=NONE, seen_by=0)


def blank_unseen(log: Sequence[Event], seat: int,
                 blank: Callable[[Event], Event] | None = None) -> list[Event]:
    """A copy of ``log`` with every secret ``seat`` did not see blanked: the log of a
    state resampled for ``seat`` (search must not read what its seat did not see).

    Args:
        log: the record, oldest event first.
        seat: the seat the sample is for.
        blank: the event with its secret blanked, for a game that shares one object
            per distinct event (default: a new :class:`Event`).
    """
    make = blank or _blank
    return [event if event.secret == NONE or event.seen_by >> seat & 1 else make(event)
            for event in log]


def _blank(event: Event) -> Event:
    return Event(event.actor, event.what, event.target, event.card, event.result)


def events_as_seen_by(log: Sequence[Event], seat: int, start: int = 0) -> list[Event]:
    """The events of ``log`` from index ``start`` on, as ``seat`` saw them."""
    return [event.as_seen_by(seat) for event in log[start:]]


#: The integer fields of an event, in order, as a position writes them.
_FIELDS: Final = ("actor", "target", "card", "result", "secret", "seen_by")


def event_to_json(event: Event, names: Sequence[str]) -> dict[str, Any]:
    """``event`` as JSON types: ``{"what": NAME, "actor": ..., ...}``, the kind named
    by ``names[event.what]`` and every field left out that holds its default
    (:data:`NONE`, or 0 for ``seen_by``)."""
    data: dict[str, Any] = {"what": names[event.what]}
    for name in _FIELDS:
        value = getattr(event, name)
        if value != (0 if name == "seen_by" else NONE) or name == "actor":
            data[name] = value
    return data


def event_from_json(data: object, names: Sequence[str], where: str) -> Event:
    """The :class:`Event` that :func:`event_to_json` wrote.

    Raises:
        ScenarioError: naming ``where`` and what is wrong (an unknown kind or
            field, a field that is not an integer).
    """
    if not isinstance(data, Mapping) or "what" not in data or "actor" not in data:
        raise ScenarioError(
            f"{where} must be an event, a mapping with 'what' (one of the event names) and "
            f"'actor' (a seat, or {TABLE} for the table), got {shorten(data)}"
        )
    unknown = sorted(set(data) - {"what", *_FIELDS})
    if unknown:
        raise ScenarioError(f"{where}: unknown event fields {unknown}; allowed: what, "
                            f"{', '.join(_FIELDS)}")
    what = data["what"]
    if what not in names:
        raise ScenarioError(f"{where}: unknown event {shorten(what)}; events: {', '.join(names)}")
    values: dict[str, int] = {}
    for name in _FIELDS:
        value = data.get(name, 0 if name == "seen_by" else NONE)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScenarioError(f"{where}: {name} must be an integer, got {shorten(value)}")
        values[name] = value
    return Event(what=list(names).index(what), **values)


def log_to_json(log: Sequence[Event], names: Sequence[str]) -> list[dict[str, Any]]:
    """A whole record as JSON types (:func:`event_to_json` per event)."""
    return [event_to_json(event, names) for event in log]


def log_from_json(data: object, names: Sequence[str], where: str = "log") -> list[Event]:
    """The record :func:`log_to_json` wrote (a list of events).

    Raises:
        ScenarioError: ``data`` is not a list, or an event is malformed.
    """
    if isinstance(data, (str, bytes, Mapping)) or not isinstance(data, Sequence):
        raise ScenarioError(f"{shorten(where)} must be a list of events, got {shorten(data)}")
    return [event_from_json(item, names, f"{where}[{i}]") for i, item in enumerate(data)]


__all__ = ["NONE", "TABLE", "Event", "blank_unseen", "event_from_json", "event_to_json",
           "events_as_seen_by", "log_from_json", "log_to_json"]
