"""numba, or an error that says how to install it.

The batched engines compile their kernels with numba (``pip install
"cardgym[vector]"``); the rest of the library does not need it.
"""

from __future__ import annotations

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

__all__ = ["MAX_THREADS", "njit", "njit_parallel", "numba", "prange"]
