"""The process pool an evaluation's batches run on, and how the games are cut into batches.

Workers are started with ``spawn`` and end with their parent, however it ends.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

__all__ = ["chunks", "run_in_processes"]

Job = TypeVar("Job")
Result = TypeVar("Result")


def chunks(count: int, pieces: int) -> list[range]:
    """``range(count)`` in up to ``pieces`` consecutive slices."""
    parts = min(count, pieces)
    bounds = [count * k // parts for k in range(parts + 1)]
    return [range(bounds[k], bounds[k + 1]) for k in range(parts)]


def run_in_processes(work: Callable[[Job], Result], jobs: Sequence[Job],
                     workers: int) -> Iterator[Result]:
    """``work(job)`` for every job, in the order of ``jobs``, as each becomes ready.

    With one worker, or one job, the jobs run in this process, one by one; otherwise
    on up to ``workers`` worker processes. ``work`` must be a module-level function
    and the jobs picklable.
    """
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            yield work(job)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context,
                             initializer=_exit_with_parent) as pool:
        yield from pool.map(work, jobs)


def _exit_with_parent() -> None:
    """Worker initializer: end this worker process when its parent process ends.

    A parent stopped by a signal (``kill``, a job scheduler's time limit) runs no
    clean-up, and its pool's workers would play on to the end of their current
    chunk of games, which can take many minutes for search agents. A daemon thread
    waits on the parent's sentinel and ends the worker as soon as it fires.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=wait, name="exit-with-parent", daemon=True).start()
