"""Python's ``sum`` of floats, step by step, for compiled code that must give the
same bits as Python code it mirrors (the games' batched heuristics).

``sum`` adds left to right from the integer 0; from Python 3.12 on it compensates
the rounding (Neumaier), so the kernels take :data:`COMPENSATED` and follow suit.
"""

from __future__ import annotations

import sys
from typing import Any, Final

import numpy as np

from cardgym.vector._numba import njit

__all__ = ["COMPENSATED", "sum_add", "sum_end"]

#: Python's ``sum`` of floats is compensated (Neumaier) from 3.12 on.
COMPENSATED: Final = sys.version_info >= (3, 12)


@njit
def sum_add(total: Any, comp: Any, started: Any, term: Any, compensated: Any) -> Any:
    """One step of ``sum`` over floats starting at the integer 0: (total, compensation,
    started) after adding ``term``."""
    if not started:
        return 0.0 + term, 0.0, True
    if not compensated:
        return total + term, comp, True
    t = total + term
    if abs(total) >= abs(term):
        comp += (total - t) + term
    else:
        comp += (term - t) + total
    return t, comp, True


@njit
def sum_end(total: Any, comp: Any, compensated: Any) -> Any:
    """The value ``sum`` returns after the last step."""
    if compensated and comp != 0.0 and np.isfinite(comp):
        return total + comp
    return total
