"""A base for game states kept in ``__slots__``: equality, pickling and cloning by field.

A game declares its state once, one line per field (:func:`slot`)::

    class State(SlotState):
        config: Config = slot("config")
        deck: list[int] = slot("cards", mutable=True, hidden=True, json="deck", init=[])
        hands: list[list[int]] = slot("cards", per_seat=True, mutable=True, hidden=True,
                                      json="hands", init=each_seat([]))

and the base makes the rest from it: ``__slots__``, an ``__init__(config)`` that sets
every field to its ``init``, how ``clone()`` copies each field (from ``mutable`` and
``per_seat``), which fields are caches (``cache=...``), and :attr:`SlotState.SPEC`,
the declarations by name, which the conformance kit reads (a resample may change only
``hidden`` fields; a position writes a key for each field with a ``json`` name).

A class may still spell ``__slots__``, ``COPY`` and ``TRANSIENT`` by hand (a game
outside this repository, say): this base compares and pickles the fields and
writes the ``clone`` method of each subclass once, as straight-line code (as fast as
a hand-written one). Slots named in ``TRANSIENT`` (caches) are neither compared nor
pickled, come back as ``None`` from a pickle, and start as ``None`` in a clone
unless ``COPY`` names them.

``COPY`` kinds: ``"copy"`` (a flat list or bytearray, copied with ``[:]``),
``"nested"`` (a list of lists, each copied), ``"optional"`` (a flat list or
``None``), ``"share"`` (kept as it is; for a transient cache that a clone may keep).
Every other field is shared with the clone, so it must be immutable (an int, a
tuple, a frozen object); the conformance kit checks that a clone shares no mutable
object with its original (:func:`cardgym.testing.check_clones`).
"""

from __future__ import annotations

import copy as _copy
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

_COPIES = {
    "copy": "self.{0}[:]",
    "nested": "[item[:] for item in self.{0}]",
    "optional": "None if self.{0} is None else self.{0}[:]",
    "share": "self.{0}",
}


def _make_clone(cls: type) -> Callable[[Any], Any]:
    """``cls.clone``, generated from its slots, ``COPY`` and ``TRANSIENT``."""
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    copy: Mapping[str, str] = cls.COPY  # type: ignore[attr-defined]
    transient: tuple[str, ...] = cls.TRANSIENT  # type: ignore[attr-defined]
    unknown = sorted(set(copy) - set(slots))
    if unknown:
        raise TypeError(f"{cls.__name__}.COPY names no slot: {', '.join(unknown)}")
    kinds = sorted(set(copy.values()) - set(_COPIES))
    if kinds:
        raise TypeError(f"{cls.__name__}.COPY kinds {kinds} are not among {sorted(_COPIES)}")
    lines = ["def clone(self):", "    other = new(cls)"]
    for name in slots:
        if name in copy:
            value = _COPIES[copy[name]].format(name)
        else:
            value = "None" if name in transient else f"self.{name}"
        lines.append(f"    other.{name} = {value}")
    lines.append("    return other")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # noqa: S102 (code built from the class's own slot names)
    clone: Callable[[Any], Any] = namespace["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone.__doc__ = "An independent copy: the mutable fields copied as ``COPY`` says."
    return clone


#: What a cache field's clone holds: nothing (``None``), the same object, or a copy of
#: a list that may be ``None``.
CACHE_KINDS = ("drop", "share", "optional")


@dataclass(frozen=True)
class Field:
    """The declaration of one state field (see :func:`slot`)."""

    name: str
    kind: str
    per_seat: bool = False
    mutable: bool = False
    hidden: bool = False
    json: str | None = None
    init: Any = None
    cache: str | None = None
    doc: str = ""

    @property
    def copy(self) -> str | None:
        """How ``clone()`` copies it (a kind of ``COPY``), or ``None``: shared."""
        if self.cache is not None:
            return {"drop": None, "share": "share", "optional": "optional"}[self.cache]
        if self.mutable and self.per_seat:
            return "nested"
        if self.mutable or self.per_seat:
            return "copy"
        return None


def slot(kind: str, *, per_seat: bool = False, mutable: bool = False, hidden: bool = False,
         json: str | None = None, init: Any = None, cache: str | None = None,
         doc: str = "") -> Any:
    """Declare a state field, as the value of its annotated name in the class body.

    Args:
        kind: what it holds, in words the positions and tools share: ``"config"``
            (the rules; set from ``__init__``'s argument), ``"int"``, ``"flag"``,
            ``"seat"``, ``"card"``, ``"cards"``, ``"counts"``, ``"bits"``,
            ``"log"``, ``"phase"`` and so on.
        per_seat: one entry per seat (a list).
        mutable: its value (each entry, with ``per_seat``) is changed in place, so a
            clone copies it: ``[:]`` for a list or bytearray, each entry so for a list
            per seat. Otherwise the value is shared with a clone and must be immutable.
        hidden: some seat may not know it (a resample for search may change it);
            every other field is known to every seat.
        json: its key in a position (``None``: not written as it is).
        init: its value in a new state: a constant (copied when mutable or per seat)
            or a function of the config (:func:`each_seat` makes one).
        cache: not game state but a cache: neither compared nor pickled; in a clone,
            ``"drop"`` (``None``), ``"share"`` (the same object) or ``"optional"``
            (a copy of a list that may be ``None``).
        doc: what it means, where the name does not say.
    """
    if cache is not None and cache not in CACHE_KINDS:
        raise TypeError(f"cache must be one of {', '.join(CACHE_KINDS)}, got {cache!r}")
    return Field("", kind, per_seat, mutable, hidden, json, init, cache, doc)


@dataclass(frozen=True)
class _EachSeat:
    """An ``init`` of one entry per seat (see :func:`each_seat`)."""

    entry: Any

    def __call__(self, config: Any) -> list[Any]:
        entry = self.entry
        if callable(entry):
            return [entry(config) for _ in range(config.num_players)]
        return [_copy.copy(entry) for _ in range(config.num_players)]


def each_seat(entry: Any) -> Callable[[Any], list[Any]]:
    """An ``init`` of one entry per seat: a copy of ``entry``, or ``entry(config)``."""
    return _EachSeat(entry)


_SEQUENCES = (list, bytearray)


def _initial_code(declared: Field, name: str) -> str:
    """The expression of a field's value in a new state, for the generated
    ``__init__``, with the field's ``init`` bound to ``name``: ``config`` itself for
    the ``"config"`` field; ``init(config)`` for a function; a copy of a constant that
    is mutable or per seat (one per seat for :func:`each_seat`); the constant itself
    otherwise."""
    init = declared.init
    if declared.kind == "config":
        return "config"
    if isinstance(init, _EachSeat):
        entry = init.entry
        if callable(entry):
            return f"[{name}.entry(config) for _ in range(config.num_players)]"
        if isinstance(entry, _SEQUENCES):
            return f"[{name}.entry[:] for _ in range(config.num_players)]"
        if isinstance(entry, (int, float, str, bytes, tuple, type(None))):
            return f"[{name}.entry] * config.num_players"
        return f"{name}(config)"
    if callable(init):
        return f"{name}(config)"
    if declared.mutable or declared.per_seat:
        return f"{name}[:]" if isinstance(init, _SEQUENCES) else f"copy({name})"
    return name


def _make_initialise(cls: type) -> Callable[[Any, Any], None]:
    """``cls._initialise(self, config)``: every declared field set to its initial
    value (:func:`_initial_code`), as straight-line code."""
    spec: Mapping[str, Field] = cls.SPEC  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"copy": _copy.copy}
    lines = ["def _initialise(self, config):"]
    for index, (key, declared) in enumerate(spec.items()):
        name = f"init_{index}"
        namespace[name] = declared.init
        lines.append(f"    self.{key} = {_initial_code(declared, name)}")
    if len(lines) == 1:
        lines.append("    pass")
    source = "\n".join(lines)
    exec(source, namespace)  # noqa: S102 (code built from the class's own field names)
    initialise: Callable[[Any, Any], None] = namespace["_initialise"]
    initialise.__qualname__ = f"{cls.__qualname__}._initialise"
    initialise.__doc__ = f"A new state of ``config``: each field its ``init``.\n\n{source}"
    return initialise


class _Declared(type):
    """Turns the :func:`slot` declarations of a class body into ``__slots__``,
    ``COPY``, ``TRANSIENT`` and ``SPEC``."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> _Declared:
        declared = {key: value for key, value in namespace.items() if isinstance(value, Field)}
        if declared:
            if "__slots__" in namespace:
                raise TypeError(f"{name} declares its fields with slot() and spells "
                                "__slots__ too: declare them one way")
            spec = {}
            for key, value in declared.items():
                del namespace[key]
                spec[key] = dataclasses.replace(value, name=key)
            namespace["__slots__"] = tuple(spec)
            namespace["SPEC"] = spec
            namespace["COPY"] = {key: f.copy for key, f in spec.items() if f.copy is not None}
            namespace["TRANSIENT"] = tuple(key for key, f in spec.items() if f.cache is not None)
        return super().__new__(mcs, name, bases, namespace, **kwargs)


class SlotState(metaclass=_Declared):
    """Equality, pickling and cloning over the fields in ``__slots__``."""

    __slots__ = ()
    TRANSIENT: ClassVar[tuple[str, ...]] = ()
    COPY: ClassVar[Mapping[str, str]] = {}
    #: The declared fields by name (empty for a class that spells ``__slots__``).
    SPEC: ClassVar[Mapping[str, Field]] = {}

    def __init__(self, config: Any) -> None:
        """A new state of ``config``: every declared field set to its ``init``, in
        order (a class that spells ``__slots__`` writes its own ``__init__``)."""
        self._initialise(config)  # type: ignore[attr-defined]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("SPEC"):
            initialise = _make_initialise(cls)
            cls._initialise = initialise  # type: ignore[attr-defined]
            if "__init__" not in cls.__dict__:
                cls.__init__ = initialise  # type: ignore[assignment,method-assign]
        if "__slots__" in cls.__dict__ and "clone" not in cls.__dict__:
            cls.clone = _make_clone(cls)  # type: ignore[method-assign,assignment]

    def clone(self) -> Any:
        """An independent copy (generated per subclass; see the module)."""
        raise NotImplementedError

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        """The slots that make up the game state."""
        cached: tuple[str, ...] | None = cls.__dict__.get("_fields")
        if cached is None:
            slots: tuple[str, ...] = cls.__slots__  # type: ignore[assignment]
            cached = tuple(name for name in slots if name not in cls.TRANSIENT)
            cls._fields = cached  # type: ignore[attr-defined]
        return cached

    def drop_caches(self) -> None:
        """Forget every cache field (``TRANSIENT``: set to ``None``, as a pickle round
        trip leaves them), so that nothing derived from the fields before an edit by
        hand survives it."""
        for name in self.TRANSIENT:
            setattr(self, name, None)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.fields())

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.fields()}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)
        for name in self.TRANSIENT:
            setattr(self, name, None)


class PublicMemo:
    """A view's cache of one state's public facts, laid out once for every seat.

    A game's encoder lays out the public facts of a state once and every seat's
    observation of that state reads them (:meth:`public_memo`, :meth:`store_public_memo`).
    The layout is kept in the state's ``memo`` field (declared ``slot("cache",
    cache="drop")``, so a clone or a pickle drops it) beside a *stamp* of the state
    (:meth:`memo_stamp`): a number that changes whenever a public fact may have changed
    (the length of the record, a version counter). A layout stored at another stamp is
    never read. The view class keeps the state in ``_state``.
    """

    __slots__ = ()
    _state: Any

    def memo_stamp(self) -> int:
        """A number that changes whenever a public fact of the state may change."""
        raise NotImplementedError

    def public_memo(self) -> object | None:
        """What :meth:`store_public_memo` stored at the state's current stamp, else
        ``None``."""
        memo = self._state.memo
        if memo is not None and memo[0] == self.memo_stamp():
            return memo[1]
        return None

    def store_public_memo(self, data: object) -> None:
        """Keep ``data`` (public facts only, the same for every seat) for every view of
        the state until its stamp changes."""
        self._state.memo = (self.memo_stamp(), data)

