"""A game state's batched row, declared once: the columns each state field takes in a
batched engine's row arrays, and the packing of a state into a row and back.

A batched engine (:class:`~cardgym.vector.engine.BatchedEngine`) keeps each game as a
row of one or more integer arrays. Its layout lists, per array, the entries in column
order, each naming a field of the game's declared state
(:attr:`cardgym.state.SlotState.SPEC`)::

    ROW = RowFormat(State, seats=MAX_PLAYERS, arrays={
        "small": (np.int8, (Items("deck", NUM_CARDS), Count("deck"),
                            Value("aside"), Value("in_round", into=bool),
                            Own("ring", 70))),
        "wide": (np.int32, (Value("known"),)),
    }, unkept=("num_players",))

The entries:

- :class:`Value`: one column; a field per seat takes ``seats`` columns, one per seat.
- :class:`Items`: a list of up to ``room`` entries; a list per seat (a field declared
  ``per_seat`` and ``mutable``) takes ``seats * room`` columns, seat ``s``'s at
  ``s * room``.
- :class:`Count`: how many entries an :class:`Items` field holds (one column per seat
  for a list per seat).
- :class:`SeatBits`: a set of seats (a tuple) as one column of bits.
- :class:`Own`: columns the engine packs itself (an event ring, say), in its
  ``_export_rest`` / ``_load_rest``; named after a state field, that field counts as
  packed.

The format checks when it is made that every field of the state has an entry (or is
named ``unkept``: derived from the config, or rebuilt by the engine; the config and
caches need none), that entries name fields of the state, each once, and that each
:class:`Count` has its :class:`Items`. A new state field is then one entry here, or an
error at import naming it. Its kernels read the columns as module constants:
``DECK: Final = ROW.start("deck")``, ``DECK_LEN: Final = ROW.count("deck")``.

:meth:`RowFormat.export` and :meth:`RowFormat.load` move the packed fields between a
row and a state; the engine's base class calls them from ``export(i)`` and
``load(i, state)``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray

__all__ = ["Count", "Items", "Own", "RowFormat", "SeatBits", "Value"]


@dataclass(frozen=True)
class Value:
    """One column holding the field (``into`` makes it back: ``bool``, an enum);
    a field per seat takes one column per seat."""

    field: str
    into: Callable[[int], Any] = int


@dataclass(frozen=True)
class Items:
    """A list of up to ``room`` entries. How many are read back: its :class:`Count`
    entry's, else ``length(config)``, else ``room``. ``into`` makes the list back
    (``list``, ``tuple``, ``bytearray``, ``bytes``)."""

    field: str
    room: int
    into: Callable[[Any], Any] = list
    length: Callable[[Any], int] | None = None


@dataclass(frozen=True)
class Count:
    """The number of entries in the :class:`Items` field ``field``."""

    field: str


@dataclass(frozen=True)
class SeatBits:
    """A tuple of seats as one column: bit ``s`` set for seat ``s``."""

    field: str


@dataclass(frozen=True)
class Own:
    """``width`` columns that the engine packs itself; ``name`` may be a state field's."""

    field: str
    width: int = 1


Entry = Value | Items | Count | SeatBits | Own

_BYTES = (bytes, bytearray)
#: The struct code of each integer dtype a row array may have.
_STRUCT_CODES = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I",
                 "i8": "q", "u8": "Q"}


@dataclass(frozen=True)
class _Placed:
    """An entry at its place: array, first column, columns, and the field's shape."""

    entry: Entry
    array: str
    start: int
    width: int
    per_seat: bool  # one entry per seat (a Value), or one list per seat (Items, Count)


class RowFormat:
    """The columns of a game's state in the row arrays of its batched engine.

    Args:
        state_type: the game's state class, declared with :func:`cardgym.state.slot`.
        seats: the most seats a game has (per-seat fields take this many columns).
        arrays: per row array, in order: its dtype and its entries in column order.
        unkept: fields not in the row (derived from the config, or rebuilt by the
            engine's ``_export_rest``); the config and caches need not be named.

    Raises:
        TypeError: an entry names no field of the state or names one twice, a
            :class:`Count` has no :class:`Items`, a field has no entry, an entry
            does not suit its field (a :class:`Value` of a list per seat).
    """

    def __init__(self, state_type: type, seats: int,
                 arrays: Mapping[str, tuple[DTypeLike, Sequence[Entry]]],
                 unkept: Sequence[str] = ()) -> None:
        spec = getattr(state_type, "SPEC", None)
        if not spec:
            raise TypeError(f"{state_type.__name__} declares no fields with slot(): a row "
                            "format needs the declared state")
        self.state_type: type[Any] = state_type
        self.seats = seats
        self.dtypes = {name: np.dtype(dtype) for name, (dtype, _) in arrays.items()}
        wrong = [name for name, dtype in self.dtypes.items() if dtype.str[1:] not in _STRUCT_CODES]
        if wrong:
            raise TypeError(f"row arrays hold integers (int8 to uint64); {wrong} do not")
        self._places: dict[tuple[str, str], _Placed] = {}
        widths = {}
        for array, (_, entries) in arrays.items():
            column = 0
            for entry in entries:
                placed = self._place(entry, array, column, spec)
                key = ("count" if isinstance(entry, Count) else "", entry.field)
                if key in self._places:
                    what = "a count of" if key[0] else "an entry for"
                    raise TypeError(f"the row format has {what} {entry.field!r} twice")
                self._places[key] = placed
                column += placed.width
            widths[array] = column
        #: Columns per row array.
        self.widths: Mapping[str, int] = widths
        # A row's columns to bytes in one call (which refuses a value beyond its dtype).
        self._structs = {
            name: struct.Struct(f"={width}{_STRUCT_CODES[self.dtypes[name].str[1:]]}")
            for name, width in widths.items()}
        self._check_covered(spec, unkept)
        #: The entries a generic export and load pack (not the engine's own).
        self._packed = tuple(placed for placed in self._places.values()
                             if not isinstance(placed.entry, Own))
        #: The source of the generated export and load (see :meth:`_compile`).
        self.source = ""
        self._export: Callable[[Mapping[str, NDArray[Any]], Any], Any]
        self._load: Callable[[Any], dict[str, list[int]]]
        self._compile()

    def _place(self, entry: Entry, array: str, column: int, spec: Mapping[str, Any]) -> _Placed:
        declared = spec.get(entry.field)
        if declared is None:
            if isinstance(entry, Own):
                return _Placed(entry, array, column, entry.width, False)
            raise TypeError(f"the row format's {type(entry).__name__}({entry.field!r}) names "
                            f"no field of {self.state_type.__name__}")
        nested = declared.per_seat and declared.mutable
        if isinstance(entry, Value):
            if nested:
                raise TypeError(f"{entry.field!r} is a list per seat: pack it as Items")
            return _Placed(entry, array, column, self.seats if declared.per_seat else 1,
                           declared.per_seat)
        if isinstance(entry, Items):
            return _Placed(entry, array, column, entry.room * (self.seats if nested else 1),
                           nested)
        if isinstance(entry, Count):
            return _Placed(entry, array, column, self.seats if nested else 1, nested)
        if isinstance(entry, SeatBits):
            return _Placed(entry, array, column, 1, False)
        return _Placed(entry, array, column, entry.width, False)

    def _check_covered(self, spec: Mapping[str, Any], unkept: Sequence[str]) -> None:
        fields = {key[1] for key in self._places}
        for (kind, name), placed in self._places.items():
            if kind and ("", name) not in self._places:
                raise TypeError(f"the row format counts {name!r} but holds no Items of it")
            if isinstance(placed.entry, Count) and not isinstance(
                    self._places[("", name)].entry, Items):
                raise TypeError(f"the row format counts {name!r}, which it packs as "
                                f"{type(self._places[('', name)].entry).__name__}, not Items")
        wrong = sorted(set(unkept) - set(spec))
        if wrong:
            raise TypeError(f"unkept names no field of {self.state_type.__name__}: {wrong}")
        missing = [name for name, declared in spec.items()
                   if name not in fields and name not in unkept
                   and declared.kind != "config" and declared.cache is None]
        if missing:
            raise TypeError(f"the row format of {self.state_type.__name__} holds no entry for "
                            f"{', '.join(missing)}: add one (Value, Items, Count, SeatBits, "
                            "Own) or name it in unkept")

    # ------------------------------------------------------------ columns

    def start(self, field: str) -> int:
        """The first column of ``field``'s entry (an :class:`Own`'s name included)."""
        return self._at("", field).start

    def count(self, field: str) -> int:
        """The first column of ``field``'s :class:`Count`."""
        return self._at("count", field).start

    def _at(self, kind: str, field: str) -> _Placed:
        placed = self._places.get((kind, field))
        if placed is None:
            what = "count of" if kind else "entry for"
            raise KeyError(f"the row format holds no {what} {field!r}")
        return placed

    def allocate(self, num_games: int) -> dict[str, NDArray[Any]]:
        """Zeroed row arrays for ``num_games`` games, by name."""
        return {name: np.zeros((num_games, self.widths[name]), dtype)
                for name, dtype in self.dtypes.items()}

    # ------------------------------------------------------------ packing

    def export(self, rows: Mapping[str, NDArray[Any]], config: Any) -> Any:
        """A new state of ``config`` holding the packed fields of one row (``rows``:
        that row of each array, by name); the unkept fields keep their new-state
        values."""
        return self._export(rows, config)

    def load(self, rows: Mapping[str, NDArray[Any]], state: Any) -> None:
        """Put ``state``'s packed fields into one row (``rows``: that row of each array,
        by name); every other column is zeroed, for the engine's ``_load_rest``.

        Raises:
            ValueError: a list holds more entries than its room, or a value does not
                fit its column's dtype; the row is left as it was.
        """
        columns = self._load(state)
        packed = {}
        for name, row in columns.items():
            try:
                packed[name] = self._structs[name].pack(*row)
            except struct.error:
                raise ValueError(self._overflow(name, row)) from None
        for name, data in packed.items():
            rows[name][:] = np.frombuffer(data, self.dtypes[name])

    def _overflow(self, name: str, row: list[int]) -> str:
        info = np.iinfo(self.dtypes[name])
        for placed in self._places.values():
            if placed.array == name:
                for value in row[placed.start:placed.start + placed.width]:
                    if not info.min <= value <= info.max:
                        return (f"{placed.entry.field} holds {value}, which its "
                                f"{self.dtypes[name]} column cannot: {info.min}..{info.max}")
        return f"a value of the {name} row does not fit {self.dtypes[name]}"

    # The two functions above are generated from the entries as straight-line code
    # (as fast as hand-written packing): ``v_NAME`` is array NAME's row as a list,
    # ``a_NAME`` the array itself (for bytes), ``into_K`` and ``length_K`` entry K's.

    def _compile(self) -> None:
        namespace: dict[str, Any] = {"new": self.state_type, "too_long": _too_long}
        export = ["def export(rows, config):", "    state = new(config)",
                  "    n = config.num_players"]
        export += [f"    a_{name} = rows[{name!r}]\n    v_{name} = a_{name}.tolist()"
                   for name in self.dtypes]
        load = ["def load(state):"]
        load += [f"    v_{name} = [0] * {width}" for name, width in self.widths.items()]
        for index, placed in enumerate(self._packed):
            entry = placed.entry
            namespace[f"into_{index}"] = getattr(entry, "into", None)
            namespace[f"length_{index}"] = getattr(entry, "length", None)
            export += self._export_lines(index, placed)
            load += self._load_lines(index, placed)
        export.append("    return state")
        load.append("    return {" + ", ".join(f"{name!r}: v_{name}" for name in self.dtypes)
                    + "}")
        for lines in (export, load):
            exec("\n".join(lines), namespace)  # noqa: S102 (code built from the entries)
        self._export = namespace["export"]
        self._load = namespace["load"]
        self.source = "\n".join(export) + "\n\n" + "\n".join(load)

    def _export_lines(self, index: int, placed: _Placed) -> list[str]:
        entry, at, row = placed.entry, placed.start, f"v_{placed.array}"
        into = f"into_{index}"
        target = f"    state.{entry.field} = "
        if isinstance(entry, Count):
            return []
        if isinstance(entry, SeatBits):
            return [f"    bits = {row}[{at}]",
                    target + f"tuple(s for s in range({self.seats}) if bits >> s & 1)"]
        if isinstance(entry, Value):
            if not placed.per_seat:
                return [target + (f"{row}[{at}]" if entry.into is int else f"{into}({row}[{at}])")]
            if entry.into is int:
                return [target + f"{row}[{at}:{at} + n]"]
            return [target + f"[{into}(x) for x in {row}[{at}:{at} + n]]"]
        assert isinstance(entry, Items)
        count = self._places.get(("count", entry.field))
        room = entry.room
        if placed.per_seat:
            first = f"{at} + {room} * s"
            length = f"v_{count.array}[{count.start} + s]" if count is not None else str(room)
        else:
            first = str(at)
            length = (f"v_{count.array}[{count.start}]" if count is not None
                      else f"length_{index}(config)" if entry.length is not None else str(room))
        if entry.into in _BYTES:
            items = f"{into}(a_{placed.array}[{first}:{first} + {length}].tobytes())"
        elif entry.into is list:
            items = f"{row}[{first}:{first} + {length}]"
        else:
            items = f"{into}({row}[{first}:{first} + {length}])"
        if placed.per_seat:
            return [target + f"[{items} for s in range(n)]"]
        return [target + items]

    def _load_lines(self, index: int, placed: _Placed) -> list[str]:
        entry, at, row = placed.entry, placed.start, f"v_{placed.array}"
        name = entry.field
        value = f"state.{name}"
        if isinstance(entry, SeatBits):
            return [f"    {row}[{at}] = sum(1 << s for s in {value})"]
        if isinstance(entry, Value) and not placed.per_seat:
            return [f"    {row}[{at}] = {value}"]
        if isinstance(entry, Count) and not placed.per_seat:
            return [f"    {row}[{at}] = len({value})"]
        lines = [f"    value = {value}"]
        room = entry.room if isinstance(entry, Items) and not placed.per_seat else self.seats
        lines += [f"    if len(value) > {room}: too_long({name!r}, len(value), {room})"]
        if isinstance(entry, Value) or (isinstance(entry, Items) and not placed.per_seat):
            return lines + [f"    {row}[{at}:{at} + len(value)] = value"]
        if isinstance(entry, Count):
            return lines + [f"    {row}[{at}:{at} + len(value)] = [len(x) for x in value]"]
        assert isinstance(entry, Items)
        room = entry.room
        return lines + [
            "    for s, items in enumerate(value):",
            f"        if len(items) > {room}: too_long(f'{name}[{{s}}]', len(items), {room})",
            f"        {row}[{at} + {room} * s:{at} + {room} * s + len(items)] = items"]


def _too_long(what: str, length: int, room: int) -> None:
    raise ValueError(f"{what} holds {length} entries; a row has room for {room}")
