"""Random numbers inside the batched kernels: one small generator per game.

Each game (row) of a batched engine has its own 64-bit generator state, advanced by
SplitMix64, so that a row's games depend on the seed and the row alone, not on the
batch size or on the other rows. :func:`seed_states` derives the states from a seed
through numpy's ``SeedSequence``; the kernels draw with :func:`next_u64`,
:func:`below` and :func:`shuffle`.

This is the game's stream of :mod:`cardgym.chance`, drawn as
:class:`cardgym.chance.GameRandom` draws it in Python: row 0 of an engine reset with
``seed=s`` deals the game that an env reset with ``seed=s`` deals.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.chance import GOLDEN, MIX1, MIX2, seed_states
from cardgym.vector._numba import njit, njit_parallel, prange

__all__ = ["below", "next_u64", "random_actions", "random_legal", "seed_states", "shuffle"]

_GOLDEN = np.uint64(GOLDEN)
_MIX1 = np.uint64(MIX1)
_MIX2 = np.uint64(MIX2)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit
def next_u64(states: NDArray[np.uint64], row: int) -> np.uint64:
    """The next 64 random bits of row ``row``'s generator (SplitMix64)."""
    z = states[row] + _GOLDEN
    states[row] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit
def below(states: NDArray[np.uint64], row: int, n: int) -> int:
    """A uniform integer in ``0..n-1`` from row ``row``'s generator (``n`` >= 1,
    below 2**32; the multiply-shift bias is under ``n / 2**32``)."""
    high = next_u64(states, row) >> _S32
    return int((high * np.uint64(n)) >> _S32)


@njit
def shuffle(values: NDArray[np.int8], count: int, states: NDArray[np.uint64], row: int) -> None:
    """Shuffle ``values[:count]`` in place (Fisher-Yates) with row ``row``'s generator."""
    for k in range(count - 1, 0, -1):
        j = below(states, row, k + 1)
        values[k], values[j] = values[j], values[k]


@njit
def random_legal(mask: NDArray[np.int8], states: NDArray[np.uint64], row: Any) -> int:
    """A uniformly random legal action (a set entry of ``mask``) drawn with row
    ``row``'s generator; ``-1``, drawing nothing, where none is legal. The one draw of
    :func:`random_actions` and of the games' playout kernels."""
    width = mask.shape[0]
    count = 0
    for a in range(width):
        count += mask[a] != 0
    if count == 0:
        return -1
    pick = below(states, row, np.int64(count))  # type: ignore[arg-type]
    for a in range(width):
        if mask[a] != 0:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit_parallel
def random_actions(masks: NDArray[np.int8], states: NDArray[np.uint64],
                   out: NDArray[np.int64]) -> None:
    """For every row, a uniformly random legal action (a set entry of ``masks[row]``)
    drawn with the row's generator into ``out[row]``; ``-1`` where none is legal."""
    for index in prange(masks.shape[0]):
        row = np.int64(index)  # prange indices are unsigned: one signature for below()
        out[row] = random_legal(masks[row], states, row)
