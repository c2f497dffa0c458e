"""numba, or an error that says how to install it.

The batched engines compile their kernels with numba (``pip install
"cardgym[vector]"``); the rest of the library does not need it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

try:
    import numba
except ImportError as error:  # pragma: no cover - the project's install includes it
    raise ImportError(
        "cardgym.vector needs numba, which is not installed; install it with "
        "pip install \"cardgym[vector]\" (or pip install numba)"
    ) from error

#: Compile once per machine: numba keeps the compiled kernels in ``__pycache__``.
njit = numba.njit(cache=True, nogil=True)
#: The same, for kernels that loop over the games with ``numba.prange``.
njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
prange = numba.prange
#: The most threads a kernel may use on this machine (numba's NUMBA_NUM_THREADS).
MAX_THREADS: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]

__all__ = ["MAX_THREADS", "clear_stale_cache", "njit", "njit_parallel", "numba", "prange",
           "start_threads"]

_HERE = Path(__file__).resolve().parent
_started = False


@njit_parallel
def _touch(out: Any) -> None:
    for i in prange(out.shape[0]):
        out[i] = i


def start_threads() -> None:
    """Start numba's thread pool once per process, leaving PyTorch's thread count
    as it was.

    numba's OpenMP threading layer starts with a kernel's first parallel launch and
    sets OpenMP's thread count to every core; PyTorch reads the same setting, so a
    process that pinned PyTorch to one thread (training does) would find it on every
    core after its first batched step. The engines call this when they are made:
    the pool starts here, and PyTorch's count, if PyTorch is loaded, is put back.
    """
    global _started
    if _started:
        return
    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch is not None else None
    _touch(np.zeros(2, np.int64))
    if torch is not None and torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    _started = True


def clear_stale_cache(package_file: str) -> None:
    """Drop numba's cached kernels of a batched engine's package when one of its
    modules, or of :mod:`cardgym.vector`, is newer than them.

    numba checks a cached kernel against the file that defines it only, but a kernel
    compiles in the functions it calls from the package's other modules (and the
    random draws of :mod:`cardgym.vector.random`): after an edit there, the cache
    would load the old code. Call it in the package's ``__init__`` before importing
    the kernels, with ``__file__``. A cache that cannot be read or removed is left
    to numba.
    """
    folder = Path(package_file).resolve().parent
    cache = folder / "__pycache__"
    try:
        sources = [*folder.glob("*.py"), *_HERE.glob("*.py")]
        newest = max(path.stat().st_mtime for path in sources)
        stale = [path for path in cache.glob("*.nbi") if path.stat().st_mtime < newest]
        for index in stale:
            for data in cache.glob(f"{index.name[:-len('.nbi')]}.*.nbc"):
                data.unlink()
            index.unlink()
    except (OSError, ValueError):
        return

