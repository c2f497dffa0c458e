"""A base for game states kept in ``__slots__``: equality and pickling by field.

Each game's ``State`` lists its fields in ``__slots__`` and writes its own fast
``clone()``; this base compares and pickles those fields. Slots named in
``TRANSIENT`` (caches) are neither compared nor pickled, and come back as ``None``.
"""

from __future__ import annotations

from typing import Any, ClassVar


class SlotState:
    """Equality and pickling over the fields in ``__slots__`` (less ``TRANSIENT``)."""

    __slots__ = ()
    TRANSIENT: ClassVar[tuple[str, ...]] = ()

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
