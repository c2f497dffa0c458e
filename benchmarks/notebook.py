"""What the benchmarks notebook decides outside its cells: how much it plays, and
where it writes.

The notebook writes its tables into a folder of the user's, never beside the code:
``$CARDGYM_RESULTS`` when it is set, else ``results`` in the working directory (at
the ``small`` size, a new temporary folder, so that a quick run does not overwrite
full-size results). The repository's own tables under ``benchmarks/results/``, the
model cards and the README's copies change only when asked: ``make tables``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["RESULTS_VARIABLE", "SIZES", "SIZE_VARIABLE", "NotebookSize", "notebook_size",
           "results_folder"]

#: The environment variable that picks the size (``small`` or ``full``).
SIZE_VARIABLE = "CARDGYM_NOTEBOOK_SIZE"
#: The environment variable that names the folder the notebook writes into.
RESULTS_VARIABLE = "CARDGYM_RESULTS"


@dataclass(frozen=True)
class NotebookSize:
    """How much the notebook plays: games per pairing of the arena, seconds and rounds
    per throughput measurement, worker processes; and for the ladder, games per
    pairing, the search rungs' seconds per move and the first-seat self-play games."""

    name: str
    games: int
    seconds: float
    rounds: int
    workers: int
    ladder_games: int
    ladder_times: tuple[float, ...]
    first_seat_games: int


#: ``full`` plays the published sizes (about as long as ``make tables``); ``small``
#: (what the tests set) a few games and a moment per measurement.
SIZES = {size.name: size for size in (
    NotebookSize("small", 3, 0.02, 1, 1, 2, (0.002, 0.004), 4),
    NotebookSize("full", 400, 1.0, 3, 2, 200, (0.064, 0.128), 1000))}


def notebook_size(environ: Mapping[str, str] = os.environ) -> NotebookSize:
    """The size ``$CARDGYM_NOTEBOOK_SIZE`` names (default ``full``).

    Raises:
        ValueError: a name other than ``small`` or ``full``.
    """
    name = environ.get(SIZE_VARIABLE, "full")
    if name not in SIZES:
        raise ValueError(f"{SIZE_VARIABLE} must be {' or '.join(SIZES)}, got {name!r}")
    return SIZES[name]


def results_folder(size: NotebookSize, environ: Mapping[str, str] = os.environ,
                   cwd: str | Path | None = None) -> Path:
    """The folder the notebook writes its tables into, as an absolute path:
    ``$CARDGYM_RESULTS`` (relative to ``cwd``, default the working directory), else
    ``results`` in ``cwd`` at the full size and a new temporary folder at the small
    one. Never the repository's ``benchmarks/results/`` unless the variable names it."""
    base = Path.cwd() if cwd is None else Path(cwd)
    named = environ.get(RESULTS_VARIABLE)
    if named:
        return (base / named).resolve()
    if size.name == "small":
        return Path(tempfile.mkdtemp(prefix="cardgym-benchmarks-"))
    return (base / "results").resolve()
