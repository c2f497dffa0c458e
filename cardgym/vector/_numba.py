"""numba, or an error that says how to install it.

The batched engines compile their kernels with numba (``pip install
"cardgym[vector]"``); the rest of the library does not need it.
"""

from __future__ import annotations

import sys
import types
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
           "serial", "start_threads"]

_HERE = Path(__file__).resolve().parent
_started = False


@njit_parallel
def _touch(out: Any) -> None:
    for i in prange(out.shape[0]):
        out[i] = i


_SERIAL: dict[Any, Any] = {}


def serial(kernel: Any) -> Any:
    """The serial twin of a parallel kernel (:data:`njit_parallel`): the same Python
    function compiled without numba's parallel loops (``prange`` runs as ``range``),
    for an engine of one row (an env's, a search's), where a parallel launch costs
    more than the row's work. Cached on disk under its own name (the kernel's name
    with ``_serial``), beside the parallel one; a kernel that is not parallel is
    returned as it is."""
    if not getattr(kernel, "targetoptions", {}).get("parallel"):
        return kernel
    twin = _SERIAL.get(kernel)
    if twin is None:
        py = kernel.py_func
        function = types.FunctionType(py.__code__, py.__globals__, f"{py.__name__}_serial",
                                      py.__defaults__, py.__closure__)
        function.__qualname__ = f"{py.__qualname__}_serial"
        function.__module__ = py.__module__
        function.__doc__ = py.__doc__
        twin = _SERIAL[kernel] = njit(function)
    return twin


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

