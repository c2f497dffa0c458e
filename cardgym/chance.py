"""The game's chance: one random stream that every engine of a game draws from.

A game's shuffles, deals and random seats come from one SplitMix64 stream: 64 bits
of state, advanced by a constant and mixed into each output. The Python engines
draw from it through :class:`GameRandom`, the compiled kernels
(:mod:`cardgym.vector.random`) through the same arithmetic on a row's state, and
each draw is defined once, here, so that a seed names one game everywhere: the AEC
env, the parallel env, a row of a batched engine, the continuation of a position.

- ``seed_state(s)`` is the stream's state for seed ``s`` (numpy's ``SeedSequence``
  spreads the seed's bits), the state a batched engine reset with ``seed=s`` gives
  its row 0; ``seed_states(s, n)`` gives rows ``0..n-1``.
- ``integers(n)`` (``below``): the high 32 bits of the next output times ``n``,
  shifted down 32 bits: a uniform integer in ``0..n-1`` (bias under ``n / 2**32``).
- ``random()``: the high 32 bits of the next output over ``2**32``, so that
  ``int(random() * n)`` equals ``integers(n)``.
- ``shuffle(x)``: Fisher-Yates from the end, ``j = integers(k + 1)`` for ``k`` from
  ``len(x) - 1`` down to 1, swapping ``x[k]`` and ``x[j]``; ``permutation(x)``: a
  shuffled copy (of ``0..x-1`` for an integer).
- ``choice(n)``: ``integers(n)`` (of a sequence: its element at that index); with
  ``size`` and ``replace=False``, the first ``size`` entries of ``permutation``.

Search resampling, heuristics and agents keep numpy generators of their own: they
are not the game's chance. Env version 1 of the library's games dealt from numpy's
PCG64 generator; those versions stay registered and deal as they did
(:mod:`cardgym.aec`). This module needs numpy alone (not numba).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, Final, TypeVar, overload

import numpy as np
from gymnasium.error import Error as SeedError
from gymnasium.utils import seeding
from numpy.typing import NDArray

__all__ = ["GOLDEN", "MIX1", "MIX2", "PCG64", "SPLITMIX64", "STREAMS", "Chance", "GameRandom",
           "SplitMix64", "copy_generator", "new_generator", "seed_state", "seed_states"]

#: SplitMix64's increment and its two mixing multipliers.
GOLDEN: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB
_MASK: Final = (1 << 64) - 1

#: The streams an env can deal from: the shared SplitMix64 stream, and numpy's
#: PCG64 generator (env version 1 of the library's games).
SPLITMIX64: Final = "splitmix64"
PCG64: Final = "pcg64"
STREAMS: Final = (SPLITMIX64, PCG64)

T = TypeVar("T")


def _check_seed(seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")


def seed_states(seed: int | None, count: int) -> NDArray[np.uint64]:
    """The stream states of ``count`` games from ``seed`` (fresh entropy for
    ``None``): row ``i``'s state is the same for every ``count`` above ``i``, and row
    0's is :func:`seed_state` of ``seed``."""
    _check_seed(seed)
    return np.random.SeedSequence(seed).generate_state(count, np.uint64).astype(np.uint64)


def seed_state(seed: int | None) -> int:
    """The stream's state for ``seed`` (fresh entropy for ``None``)."""
    return int(seed_states(seed, 1)[0])


class SplitMix64:
    """The stream's bits: a 64-bit state advanced by :data:`GOLDEN` per output.

    ``state`` reads and sets it as numpy's bit generators do
    (``{"bit_generator": "SplitMix64", "state": {"state": int}}``), so code that
    saves and restores ``generator.bit_generator.state`` works for both streams."""

    __slots__ = ("value",)

    def __init__(self, state: int) -> None:
        #: The 64-bit state (an ``int``).
        self.value = int(state) & _MASK

    @property
    def state(self) -> Mapping[str, Any]:
        return {"bit_generator": "SplitMix64", "state": {"state": self.value}}

    @state.setter
    def state(self, value: Mapping[str, Any]) -> None:
        if (not isinstance(value, Mapping) or value.get("bit_generator") != "SplitMix64"
                or not isinstance(value.get("state"), Mapping)
                or not isinstance(value["state"].get("state"), int)):
            raise ValueError("a SplitMix64 state is {'bit_generator': 'SplitMix64', "
                             f"'state': {{'state': int}}}}, got {value!r}"[:300])
        self.value = value["state"]["state"] & _MASK

    def next_u64(self) -> int:
        """The next 64 bits."""
        self.value = z = (self.value + GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * MIX1) & _MASK
        z = ((z ^ (z >> 27)) * MIX2) & _MASK
        return z ^ (z >> 31)


class GameRandom:
    """The game's generator on the shared stream: the draws a game's engine makes
    (``integers``, ``random``, ``permutation``, ``shuffle``, ``choice``), each
    drawing as the compiled kernels draw (see the module), with the parts of
    numpy's ``Generator`` interface they need.

    Args:
        state: the stream's 64-bit state (:func:`seed_state` of a seed).
    """

    __slots__ = ("bit_generator",)

    def __init__(self, state: int) -> None:
        #: The stream (numpy's name for a generator's source of bits).
        self.bit_generator = SplitMix64(state)

    @classmethod
    def from_seed(cls, seed: int | None) -> GameRandom:
        """The generator of the game seeded ``seed`` (fresh entropy for ``None``)."""
        return cls(seed_state(seed))

    @property
    def state(self) -> int:
        """The stream's 64-bit state now."""
        return self.bit_generator.value

    def __repr__(self) -> str:
        return f"GameRandom(state={self.bit_generator.value:#018x})"

    def _below(self, n: int) -> int:
        return ((self.bit_generator.next_u64() >> 32) * n) >> 32

    def integers(self, low: int, high: int | None = None) -> int:
        """A uniform integer in ``0..low-1`` (``integers(n)``), or in
        ``low..high-1``; the range must hold 1 to ``2**32 - 1`` integers."""
        start, stop = (0, int(low)) if high is None else (int(low), int(high))
        n = stop - start
        if not 0 < n < 1 << 32:
            raise ValueError(f"integers draws from 1 to 2**32 - 1 integers, got the range "
                             f"{start}..{stop - 1}")
        return start + self._below(n)

    def random(self) -> float:
        """A float in ``[0, 1)`` with 32 random bits."""
        return (self.bit_generator.next_u64() >> 32) / 4294967296.0

    def shuffle(self, x: MutableSequence[Any] | NDArray[Any]) -> None:
        """Shuffle ``x`` in place (a list or a one-dimensional array)."""
        below = self._below
        for k in range(len(x) - 1, 0, -1):
            j = below(k + 1)
            x[k], x[j] = x[j], x[k]

    @overload
    def permutation(self, x: int) -> NDArray[np.int64]: ...

    @overload
    def permutation(self, x: Sequence[Any] | NDArray[Any]) -> NDArray[Any]: ...

    def permutation(self, x: int | Sequence[Any] | NDArray[Any]) -> NDArray[Any]:
        """``0..x-1`` shuffled (an integer), or a shuffled copy of ``x`` as an array."""
        if isinstance(x, (int, np.integer)):
            order: list[Any] = list(range(int(x)))
            self.shuffle(order)
            return np.array(order, np.int64)
        values = np.array(x)
        order = list(range(len(values)))
        self.shuffle(order)
        return values[order]

    def choice(self, a: int | Sequence[T], size: int | None = None,
               replace: bool = True) -> Any:
        """One entry of ``a`` (of ``0..a-1`` for an integer) drawn uniformly; with
        ``size``, that many as an array: drawn one by one with ``replace``, else the
        first ``size`` of :meth:`permutation`."""
        count = int(a) if isinstance(a, (int, np.integer)) else len(a)
        if count < 1:
            raise ValueError("choice needs at least one entry to choose from")
        pool = None if isinstance(a, (int, np.integer)) else np.array(a)
        if size is None:
            index = self._below(count)
            return index if pool is None else pool[index]
        if not replace and size > count:
            raise ValueError(f"cannot choose {size} of {count} entries without replacement")
        picks = (np.array([self._below(count) for _ in range(size)], np.int64) if replace
                 else self.permutation(count)[:size])
        return picks if pool is None else pool[picks]


#: A game's generator: the shared stream, or numpy's (env version 1, search
#: resampling, agents). Engine functions take either.
Chance = np.random.Generator | GameRandom


def copy_generator(rng: Chance) -> Chance:
    """An independent generator at ``rng``'s state, which draws what ``rng`` would
    draw next: a :class:`GameRandom` on the same stream state (apart from any
    engine's row it reads), or a copy of a numpy ``Generator``."""
    if isinstance(rng, GameRandom):
        return GameRandom(rng.state)
    return copy.deepcopy(rng)


def new_generator(stream: str, seed: int | None) -> tuple[Chance, int]:
    """A game generator on ``stream`` (:data:`STREAMS`) for ``seed``, and the seed it
    stands for (the entropy drawn for ``None``, as Gymnasium's ``np_random`` gives)."""
    if stream == PCG64:
        generator, used = seeding.np_random(seed)
        return generator, int(used)
    if stream != SPLITMIX64:
        raise ValueError(f"unknown stream {stream!r}; streams: {', '.join(STREAMS)}")
    if seed is not None and not (isinstance(seed, int) and seed >= 0):
        # The seeds Gymnasium's seeding takes, refused in its words.
        raise SeedError(f"Seed must be a python integer, actual type: {type(seed)}"
                    if not isinstance(seed, int) else
                    f"Seed must be greater or equal to zero, actual value: {seed}")
    sequence = np.random.SeedSequence(seed)
    used = int(sequence.entropy)  # type: ignore[arg-type]
    return GameRandom(int(sequence.generate_state(1, np.uint64)[0])), used
