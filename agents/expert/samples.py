"""What expert iteration learns from: the searching seat's decisions, each with the
search's visit shares and the seat's return at the end of its game.

A file of samples is a NumPy ``.npz`` archive of four arrays (nothing pickled: it is
read with ``allow_pickle=False``) written whole or not at all:

- ``observations`` (``float32``, ``N x D``): the seat's observation when it chose;
- ``masks`` (``int8``, ``N x A``): its legal actions;
- ``visits`` (``float32``, ``N x A``): the share of the search's root visits each
  action got (rows sum to 1, zero outside the mask);
- ``returns`` (``float32``, ``N``): the seat's return over the whole game (the
  value target).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from cardgym.files import atomic_write

__all__ = ["SampleError", "Samples"]

_FIELDS = ("observations", "masks", "visits", "returns")


class SampleError(ValueError):
    """A samples file that is missing, unreadable or does not fit the game."""


@dataclass
class Samples:
    """Decisions of searching seats (see the module)."""

    observations: NDArray[np.float32]
    masks: NDArray[np.int8]
    visits: NDArray[np.float32]
    returns: NDArray[np.float32]

    def __post_init__(self) -> None:
        count = len(self.observations)
        if not (len(self.masks) == len(self.visits) == len(self.returns) == count):
            raise SampleError(f"sample arrays disagree on the number of samples: "
                              f"{[len(getattr(self, name)) for name in _FIELDS]}")
        if self.masks.shape != self.visits.shape:
            raise SampleError(f"masks {self.masks.shape} and visits {self.visits.shape} "
                              "must have the same shape")

    def __len__(self) -> int:
        return len(self.observations)

    @classmethod
    def empty(cls, observation_size: int, num_actions: int) -> Samples:
        """No samples, with the shapes of a game's observation and action table."""
        return cls(np.zeros((0, observation_size), np.float32),
                   np.zeros((0, num_actions), np.int8),
                   np.zeros((0, num_actions), np.float32), np.zeros(0, np.float32))

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        """The samples of ``parts`` one after another (at least one part)."""
        if not parts:
            raise SampleError("join needs at least one set of samples")
        return cls(*(np.concatenate([getattr(part, name) for part in parts])
                     for name in _FIELDS))

    def save(self, path: str | Path) -> Path:
        """Write the samples to ``path`` (an ``.npz`` file), whole or not at all."""
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **{name: getattr(self, name) for name in _FIELDS})
        return atomic_write(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path, observation_size: int, num_actions: int) -> Samples:
        """The samples in ``path``, checked against the game's sizes.

        Raises:
            SampleError: no such file, not an archive of the four arrays, arrays of
                the wrong type or shape, or values out of range (a visit share
                outside the mask, rows not summing to 1, a value that is not finite).
        """
        where = Path(path)
        if not where.is_file():
            raise SampleError(f"no samples file {where}")
        try:
            with np.load(where, allow_pickle=False) as archive:
                missing = [name for name in _FIELDS if name not in archive.files]
                if missing:
                    raise SampleError(f"{where} lacks the arrays {missing}; a samples file "
                                      f"holds {list(_FIELDS)}")
                arrays = {name: archive[name] for name in _FIELDS}
        except SampleError:
            raise
        except (OSError, ValueError) as error:
            raise SampleError(f"cannot read samples from {where}: {error}") from None
        expected = {"observations": (np.float32, 2, observation_size),
                    "masks": (np.int8, 2, num_actions), "visits": (np.float32, 2, num_actions),
                    "returns": (np.float32, 1, None)}
        for name, (dtype, ndim, width) in expected.items():
            array = arrays[name]
            if array.dtype != dtype or array.ndim != ndim or (
                    width is not None and array.shape[1] != width):
                shape = f"N x {width}" if width is not None else "N"
                raise SampleError(f"{where}: {name} must be {np.dtype(dtype).name} of shape "
                                  f"{shape}, got {array.dtype} {array.shape}")
        samples = cls(**arrays)
        samples.check(str(where))
        return samples

    def check(self, where: str = "samples") -> None:
        """Raise :class:`SampleError` unless every value is in range."""
        for name in ("observations", "visits", "returns"):
            if not np.isfinite(getattr(self, name)).all():
                raise SampleError(f"{where}: {name} holds values that are not finite")
        if not np.isin(self.masks, (0, 1)).all():
            raise SampleError(f"{where}: masks must hold 0 and 1 only")
        if (self.visits < 0).any() or (self.visits[self.masks == 0] != 0).any():
            raise SampleError(f"{where}: visit shares must be 0 or more, and 0 outside "
                              "the mask")
        sums = self.visits.sum(axis=1)
        if len(sums) and not np.allclose(sums, 1.0, atol=1e-4):
            raise SampleError(f"{where}: each sample's visit shares must sum to 1")
