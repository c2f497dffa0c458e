"""A base for game states kept in ``__slots__``: equality, pickling and cloning by field.

Each game's ``State`` lists its fields in ``__slots__`` and says in ``COPY`` how
``clone()`` copies the mutable ones; this base compares and pickles the fields and
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

from collections.abc import Callable, Mapping
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


class SlotState:
    """Equality, pickling and cloning over the fields in ``__slots__``."""

    __slots__ = ()
    TRANSIENT: ClassVar[tuple[str, ...]] = ()
    COPY: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
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
