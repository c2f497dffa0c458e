"""Observation specs: one flat float32 vector made of named fields.

A game declares its fields once, in order; the spec gives each field's offset
and shape, the exact ``Box`` bounds, named views into an observation buffer, and
the Markdown table of the env's documentation page. Tests read observations by
field name through :meth:`ObservationSpec.unpack`, never through magic offsets.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray


@dataclass(frozen=True)
class Field:
    """One named field of an observation.

    Attributes:
        name: field name, e.g. ``"my_hand"``.
        shape: the field's shape; the flat vector stores it in C order.
        low: lower bound of every element.
        high: upper bound of every element.
        description: what the field holds, for the docs table.
    """

    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    description: str

    @property
    def size(self) -> int:
        size = 1
        for dim in self.shape:
            size *= dim
        return size


class ObservationSpec:
    """An ordered set of named fields laid out in one flat float32 vector."""

    def __init__(self, fields: Iterable[Field]) -> None:
        self.fields: tuple[Field, ...] = tuple(fields)
        self.offsets: dict[str, int] = {}
        offset = 0
        for field in self.fields:
            if field.name in self.offsets:
                raise ValueError(f"duplicate observation field {field.name!r}")
            self.offsets[field.name] = offset
            offset += field.size
        self.size: int = offset
        self._by_name = {field.name: field for field in self.fields}
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for field in self.fields:
            start = self.offsets[field.name]
            low[start : start + field.size] = field.low
            high[start : start + field.size] = field.high
        self.low: NDArray[np.float32] = low
        self.high: NDArray[np.float32] = high
        self._box: spaces.Box | None = None

    def __getitem__(self, name: str) -> Field:
        return self._by_name[name]

    def offset(self, name: str) -> int:
        """Index of the first element of a field in the flat vector."""
        return self.offsets[name]

    def slice(self, name: str) -> slice:
        """The slice of the flat vector a field occupies."""
        start = self.offsets[name]
        return slice(start, start + self._by_name[name].size)

    def box(self) -> spaces.Box:
        """The exact ``Box`` of the flat observation vector: a new one each call (its
        own bounds and generator). Gymnasium's ``Box`` builds a text summary of its
        bounds when it is made, tens of milliseconds for thousands of floats, so the
        first one is built and the others are copies of it."""
        if self._box is None:
            self._box = spaces.Box(self.low.copy(), self.high.copy(), dtype=np.float32)
        return copy.deepcopy(self._box)

    def zeros(self) -> NDArray[np.float32]:
        """An all-zero observation buffer."""
        return np.zeros(self.size, dtype=np.float32)

    def unpack(self, vector: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """Named views of a flat observation, each in its field's shape."""
        if vector.shape != (self.size,):
            raise ValueError(f"expected an observation of shape ({self.size},), got {vector.shape}")
        return {
            field.name: vector[self.slice(field.name)].reshape(field.shape) for field in self.fields
        }

    def markdown(self) -> str:
        """The layout as a Markdown table: offset range, name, shape, bounds, meaning."""
        lines = ["| offsets | field | shape | range | meaning |", "|---|---|---|---|---|"]
        for field in self.fields:
            start = self.offsets[field.name]
            end = start + field.size - 1
            shape = "x".join(str(d) for d in field.shape)
            lines.append(
                f"| {start}..{end} | `{field.name}` | {shape} | "
                f"{_fmt(field.low)}..{_fmt(field.high)} | {field.description} |"
            )
        return "\n".join(lines)


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
