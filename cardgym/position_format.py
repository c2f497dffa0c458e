"""A game's position format, declared once: how each key of a position is written from
a state, read back with its type, shape and bounds checked, and described as JSON
Schema (docs/positions.md).

A game lists its keys in order, each with a *codec* (a value's spelling in JSON)::

    FORMAT = (
        Key("round", lambda c: Integer(1, MAX_ROUND)),
        Key("hands", lambda c: PerSeat(c.num_players, Cards(card_codec(c)), "list of cards")),
        Key("pending", lambda c: Group({"kind": Name(KINDS), "nopes": Integer(0, 99)},
                                       nullable=True)),
        ...
    )

and the state's declarations (:func:`cardgym.state.slot`) name the key each field is
written under (``json="hands"``; a member of a group as ``json="pending.kind"``).
:class:`PositionFormat` binds the keys to a config and the state class, checks that
every field with a ``json`` name has its key (and each key its fields), and gives:

- :meth:`~PositionFormat.write`: a state as a position (the key's field through its
  codec; a group's members, or ``None`` when a ``nullable`` group's fields all hold
  their initial values; or the key's own ``source`` reading the whole state);
- :meth:`~PositionFormat.read`: the keys present in a scenario, each checked and
  turned into values (cards as the game's numbers; a group's members left out
  hold their fields' values in a new state), every error a
  :class:`~cardgym.errors.ScenarioError` naming where it stands (``hands[1][0]``),
  what was wrong and what is allowed; what the values mean together (is the position
  one the rules can reach? what is dealt at random?) stays with the game;
- :meth:`~PositionFormat.schema`: the JSON Schema of the positions ``write`` gives.
"""

from __future__ import annotations

import copy as _copy
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardgym.errors import ScenarioError, shorten
from cardgym.record import NONE, log_from_json, log_to_json
from cardgym.scenario import (
    is_list,
    read_card,
    read_flag,
    read_int,
    read_mapping,
    read_name,
    read_per_seat,
    read_seat,
    read_seats,
)

JSON = dict[str, Any]

__all__ = ["Cards", "Codec", "Counts", "Flag", "Group", "Integer", "Key", "Name", "OneCard",
           "OptionalFlag", "PerSeat", "PositionFormat", "Record", "Seat", "Seats",
           "SeatsWhere", "ValueBits", "Verbatim"]


class Codec:
    """One value's spelling in a position: ``write`` (engine value to JSON types),
    ``read`` (JSON back to a checked value; ``where`` names it in errors) and
    ``schema`` (JSON Schema of what ``write`` gives)."""

    def write(self, value: Any) -> Any:
        raise NotImplementedError

    def read(self, raw: object, where: str) -> Any:
        raise NotImplementedError

    def schema(self) -> JSON:
        raise NotImplementedError


def _or_null(schema: JSON) -> JSON:
    return {"oneOf": [schema, {"type": "null"}]}


@dataclass(frozen=True)
class Integer(Codec):
    """An integer ``low..high``."""

    low: int
    high: int

    def write(self, value: Any) -> int:
        return int(value)

    def read(self, raw: object, where: str) -> int:
        return read_int(raw, where, self.low, self.high)

    def schema(self) -> JSON:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Seat(Codec):
    """A seat ``0..n-1``; ``optional``: :data:`~cardgym.record.NONE` as ``null``."""

    n: int
    optional: bool = False

    def write(self, value: Any) -> int | None:
        return None if self.optional and value == NONE else int(value)

    def read(self, raw: object, where: str) -> int:
        return read_seat(raw, where, self.n, self.optional)

    def schema(self) -> JSON:
        seat = {"type": "integer", "minimum": 0, "maximum": self.n - 1}
        return _or_null(seat) if self.optional else seat


@dataclass(frozen=True)
class Seats(Codec):
    """A list of seats, each at most once when ``distinct``."""

    n: int
    distinct: bool = True

    def write(self, value: Any) -> list[int]:
        return [int(seat) for seat in value]

    def read(self, raw: object, where: str) -> list[int]:
        return read_seats(raw, where, self.n, self.distinct)

    def schema(self) -> JSON:
        return {"type": "array", "uniqueItems": self.distinct,
                "items": {"type": "integer", "minimum": 0, "maximum": self.n - 1}}


@dataclass(frozen=True)
class SeatsWhere(Codec):
    """Per-seat flags written as the list of seats whose flag is ``flag`` (read back as
    that list, distinct and sorted)."""

    n: int
    flag: bool = True

    def write(self, value: Any) -> list[int]:
        return [seat for seat, held in enumerate(value) if bool(held) == self.flag]

    def read(self, raw: object, where: str) -> list[int]:
        return sorted(read_seats(raw, where, self.n))

    def schema(self) -> JSON:
        return Seats(self.n).schema()


class Flag(Codec):
    """``true`` or ``false``."""

    def write(self, value: Any) -> bool:
        return bool(value)

    def read(self, raw: object, where: str) -> bool:
        return read_flag(raw, where)

    def schema(self) -> JSON:
        return {"type": "boolean"}


class OptionalFlag(Codec):
    """``true``, ``false`` or ``null`` (:data:`~cardgym.record.NONE`): a choice that
    may not be made yet."""

    def write(self, value: Any) -> bool | None:
        return None if value == NONE else bool(value)

    def read(self, raw: object, where: str) -> int:
        return NONE if raw is None else int(read_flag(raw, where))

    def schema(self) -> JSON:
        return _or_null({"type": "boolean"})


@dataclass(frozen=True)
class Name(Codec):
    """One of ``names``, kept as its index (a phase, a kind of play)."""

    names: tuple[str, ...]

    def write(self, value: Any) -> str:
        return self.names[value]

    def read(self, raw: object, where: str) -> int:
        return read_name(raw, where, self.names)

    def schema(self) -> JSON:
        return {"enum": list(self.names)}


@dataclass(frozen=True)
class OneCard(Codec):
    """One card, written by its name. ``names`` are the cards' names by number,
    ``parse`` reads a card (raising ``ValueError`` that says what the cards are), and
    ``value`` turns the engine's card into the number named (identity by default: a
    game that keeps physical ids maps them to values). ``none``: the engine's number
    for "no card", written ``null``; ``None``: a card is required. ``only``: the card
    numbers allowed here (``None``: every card), ``rule`` the rule that says so, for
    the error."""

    names: tuple[str, ...]
    parse: Callable[[Any], int]
    value: Callable[[int], int] | None = None
    none: int | None = None
    only: frozenset[int] | None = None
    rule: str = ""

    def write(self, value: Any) -> str | None:
        if self.none is not None and value == self.none:
            return None
        return self.names[value if self.value is None else self.value(value)]

    def read(self, raw: object, where: str) -> int:
        if raw is None and self.none is not None:
            return self.none
        card = read_card(raw, where, self.parse)
        if self.only is not None and card not in self.only:
            raise ScenarioError(f"{where} is {self.names[card]}; {self.rule}")
        return card

    def optional(self, none: int = NONE) -> OneCard:
        """The same card, or ``null`` for ``none``."""
        return dataclasses.replace(self, none=none)

    def among(self, cards: Iterable[int], rule: str) -> OneCard:
        """The same card, one of ``cards`` only, as ``rule`` says."""
        return dataclasses.replace(self, only=frozenset(cards), rule=rule)

    def schema(self) -> JSON:
        names = [name for number, name in enumerate(self.names)
                 if self.only is None or number in self.only]
        card = {"enum": names}
        return card if self.none is None else _or_null(card)


@dataclass(frozen=True)
class Cards(Codec):
    """A list of cards; ``top_first``: the engine keeps it top last (a pile), the
    position top first. Read back in the position's order. ``null_empty``: ``null``
    reads as the empty list."""

    card: OneCard
    top_first: bool = False
    null_empty: bool = False

    def write(self, value: Any) -> list[Any]:
        cards = reversed(value) if self.top_first else value
        return [self.card.write(card) for card in cards]

    def read(self, raw: object, where: str) -> list[int]:
        if raw is None and self.null_empty:
            return []
        if not is_list(raw):
            raise ScenarioError(f"{where} must be a list of cards, got {shorten(raw)}")
        return [self.card.read(item, f"{where}[{i}]") for i, item in enumerate(raw)]

    def schema(self) -> JSON:
        cards = {"type": "array", "items": self.card.schema()}
        return _or_null(cards) if self.null_empty else cards


@dataclass(frozen=True)
class Counts(Codec):
    """A count per card, written as the list of its cards in card order (read back as
    that list of cards)."""

    card: OneCard

    def write(self, value: Any) -> list[Any]:
        return [self.card.write(card) for card, count in enumerate(value) for _ in range(count)]

    def read(self, raw: object, where: str) -> list[int]:
        return Cards(self.card).read(raw, where)

    def schema(self) -> JSON:
        return {"type": "array", "items": self.card.schema()}


@dataclass(frozen=True)
class ValueBits(Codec):
    """A bit mask over card numbers, written as the list of the cards whose bit is set
    (read back as the mask)."""

    card: OneCard
    size: int

    def write(self, value: Any) -> list[Any]:
        return [self.card.names[card] for card in range(self.size) if value >> card & 1]

    def read(self, raw: object, where: str) -> int:
        mask = 0
        for card in Cards(self.card).read(raw, where):
            mask |= 1 << card
        return mask

    def schema(self) -> JSON:
        return {"type": "array", "uniqueItems": True, "items": self.card.schema()}


@dataclass(frozen=True)
class PerSeat(Codec):
    """One entry per seat (``count`` entries), each by ``item``; ``what`` says what an
    entry is, for errors (``"list of cards"``), and ``unit`` what the entries stand for
    (``"participants"`` where a robot player has one too)."""

    count: int
    item: Codec
    what: str
    unit: str = "seats"

    def write(self, value: Any) -> list[Any]:
        return [self.item.write(entry) for entry in value]

    def read(self, raw: object, where: str) -> list[Any]:
        return read_per_seat(raw, where, self.count, self.item.read, self.what, self.unit)

    def schema(self) -> JSON:
        return {"type": "array", "minItems": self.count, "maxItems": self.count,
                "items": self.item.schema()}


@dataclass(frozen=True)
class Record(Codec):
    """The public record (:func:`cardgym.record.log_to_json`), with the game's event
    names."""

    event_names: tuple[str, ...]

    def write(self, value: Any) -> list[JSON]:
        return log_to_json(value, self.event_names)

    def read(self, raw: object, where: str) -> list[Any]:
        return log_from_json(raw, self.event_names, where)

    def schema(self) -> JSON:
        number = {"type": "integer"}
        return {"type": "array", "items": {
            "type": "object", "required": ["actor", "what"],
            "properties": {"actor": number, "what": {"enum": list(self.event_names)},
                           "target": number, "card": number, "result": number,
                           "secret": number, "seen_by": number}}}


@dataclass(frozen=True)
class Verbatim(Codec):
    """A value the game writes in JSON types itself (its ``source`` does) and reads
    itself, against the rest of the position (what each seat knows, say); the codec
    holds its schema."""

    shape: JSON

    def write(self, value: Any) -> Any:
        return value

    def read(self, raw: object, where: str) -> Any:
        return raw

    def schema(self) -> JSON:
        return self.shape


@dataclass(frozen=True)
class Group(Codec):
    """A mapping of named members, each its own codec; ``nullable``: written ``null``
    when every member holds its initial value (nothing under way)."""

    members: Mapping[str, Codec]
    nullable: bool = False

    def write(self, value: Any) -> JSON | None:
        return {name: codec.write(value[name]) for name, codec in self.members.items()}

    def read(self, raw: object, where: str) -> JSON | None:
        if raw is None and self.nullable:
            return None
        data = read_mapping(raw, where, tuple(self.members))
        return {name: self.members[name].read(data[name], f"{where}.{name}")
                for name in self.members if name in data}

    def schema(self) -> JSON:
        group = {"type": "object", "additionalProperties": False,
                 "properties": {name: codec.schema() for name, codec in self.members.items()}}
        return _or_null(group) if self.nullable else group


@dataclass(frozen=True)
class Key:
    """One key of a position: its ``codec`` for a config, when the key exists
    (``when(config)``; always by default), and where its value comes from: by default
    the state fields declared with its name (one field, or a group's members);
    ``source(state)`` for a value the codec writes from the whole state (what a seat
    knows, say). ``read_only`` keys are read from scenarios but never written.

    ``doc`` says what the value means and ``default`` what a scenario that leaves the
    key out gets (Markdown, for people): the one statement of them, from which
    docs/positions.md shows each game's keys (:func:`cardgym.position_schema.key_table`).
    A read-only key another key's doc speaks of (an old name) may have none."""

    name: str
    codec: Callable[[Any], Codec]
    when: Callable[[Any], bool] | None = None
    source: Callable[[Any], Any] | None = None
    read_only: bool = False
    doc: str = ""
    default: str = ""


@dataclass
class _Bound:
    key: Key
    codec: Codec
    fields: tuple[str, ...] = ()
    members: tuple[tuple[str, str], ...] = ()
    initial: tuple[Any, ...] = field(default=())


class PositionFormat:
    """A game's :class:`Key` list bound to one config and its state class."""

    def __init__(self, keys: Sequence[Key], state_class: Any, config: Any) -> None:
        self.config = config
        spec = state_class.SPEC
        by_key: dict[str, list[str]] = {}
        for name, declared in spec.items():
            if declared.json is not None:
                by_key.setdefault(declared.json.split(".")[0], []).append(name)
        names = [key.name for key in keys]
        missing = sorted(set(by_key) - set(names))
        if missing:
            raise TypeError(f"{state_class.__name__} writes fields under position keys "
                            f"{missing} that the format does not list")
        blank = None
        self._keys: list[_Bound] = []
        for key in keys:
            if key.when is not None and not key.when(config):
                continue
            bound = _Bound(key, key.codec(config))
            fields = tuple(by_key.get(key.name, ()))
            if key.source is None and not key.read_only:
                if isinstance(bound.codec, Group):
                    bound.members = tuple((spec[f].json.split(".", 1)[1], f) for f in fields)
                    if sorted(m for m, _ in bound.members) != sorted(bound.codec.members):
                        raise TypeError(f"position key {key.name!r}: the fields declared "
                                        f"under it {[m for m, _ in bound.members]} are not "
                                        f"its members {list(bound.codec.members)}")
                    blank = state_class(config) if blank is None else blank
                    bound.initial = tuple(getattr(blank, f) for _, f in bound.members)
                elif len(fields) != 1:
                    raise TypeError(f"position key {key.name!r} needs one state field "
                                    f"declared with json={key.name!r} or a source; "
                                    f"declared: {fields}")
            bound.fields = fields
            self._keys.append(bound)
        #: Every key a scenario may hold under this config, in the order written.
        self.keys: tuple[str, ...] = tuple(b.key.name for b in self._keys)
        #: Their declarations, in the same order.
        self.declared: tuple[Key, ...] = tuple(b.key for b in self._keys)
        self._codecs = {b.key.name: b.codec for b in self._keys}
        self._bound = {b.key.name: b for b in self._keys}

    def codec(self, key: str) -> Codec:
        """The codec of ``key``."""
        return self._codecs[key]

    def write(self, state: Any) -> JSON:
        """``state`` as a position: every key but the read-only ones, in order."""
        data: JSON = {}
        for bound in self._keys:
            key = bound.key
            if key.read_only:
                continue
            if key.source is not None:
                data[key.name] = bound.codec.write(key.source(state))
            elif bound.members:
                values = tuple(getattr(state, f) for _, f in bound.members)
                nullable = isinstance(bound.codec, Group) and bound.codec.nullable
                data[key.name] = (None if nullable and values == bound.initial else
                                  bound.codec.write({m: v for (m, _), v in
                                                     zip(bound.members, values, strict=True)}))
            else:
                data[key.name] = bound.codec.write(getattr(state, bound.fields[0]))
        return data

    def check_keys(self, scenario: object, hint: Callable[[list[str]], str] | None = None,
                   ) -> Mapping[str, Any]:
        """``scenario`` as a mapping holding none but this format's keys; ``hint``
        adds to the error for unknown keys (which option they need, say)."""
        if not isinstance(scenario, Mapping):
            raise ScenarioError(f"a scenario must be a mapping with keys {self.keys}, "
                                f"got {shorten(scenario)}")
        unknown = sorted(str(key) for key in set(scenario) - set(self.keys))
        if unknown:
            extra = hint(unknown) if hint is not None else ""
            raise ScenarioError(f"unknown scenario keys {unknown}; allowed: "
                                f"{', '.join(self.keys)}{extra}")
        return scenario

    def read(self, scenario: Mapping[str, Any], key: str, default: Any = None) -> Any:
        """``scenario[key]`` checked and read by its codec; ``default`` when absent. A
        group of state fields comes back with every member: one the scenario leaves
        out holds its field's value in a new state."""
        if key not in scenario:
            return default
        value = self._codecs[key].read(scenario[key], key)
        bound = self._bound[key]
        if value is not None and bound.members:
            value = {member: value[member] if member in value else _copy.copy(initial)
                     for (member, _), initial in zip(bound.members, bound.initial,
                                                     strict=True)}
        return value

    def schema(self) -> JSON:
        """The JSON Schema of the positions :meth:`write` gives (every written key
        required)."""
        written = [b for b in self._keys if not b.key.read_only]
        return {"type": "object", "additionalProperties": False,
                "required": [b.key.name for b in written],
                "properties": {b.key.name: b.codec.schema() for b in written}}
