"""Progress bars for long commands: a bar with the time left on a terminal, nothing otherwise.

``train``, ``eval``, ``arena``, ``bench`` and ``demo`` count their work through one
:class:`Progress`. On a terminal it draws tqdm's bar (done/total, elapsed, the
estimate of the time left, the rate) on stderr; when the stream is not a terminal
(a file, a pipe, CI logs) it draws nothing, so logs hold only the results. Without
tqdm (it comes with the ``train`` extra) a terminal gets one plain line redrawn in
place.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Progress", "is_terminal"]


def is_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (default stderr) is an interactive terminal."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except ValueError:  # a closed stream
        return False


class Progress:
    """A progress bar over ``total`` units of work; a context manager.

    Args:
        total: units of work in all (steps, games, measurements).
        description: what is being done, shown before the bar.
        unit: the name of one unit.
        stream: where to draw; default stderr.
        enabled: ``False`` never draws (``--no-progress``); ``True`` draws only when
            ``stream`` is a terminal.
    """

    def __init__(self, total: int, description: str, unit: str = "it",
                 stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total
        self.description = description
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.done = 0
        self.active = enabled and total > 0 and is_terminal(self.stream)
        self._bar: Any = None
        self._started = time.perf_counter()
        if self.active:
            try:
                from tqdm import tqdm
            except ImportError:
                self._draw()
            else:
                self._bar = tqdm(total=total, desc=description, unit=unit, file=self.stream,
                                 dynamic_ncols=True, smoothing=0.1)

    def update(self, amount: int = 1) -> None:
        """Count ``amount`` more units as done."""
        self.done += amount
        if not self.active:
            return
        if self._bar is not None:
            self._bar.update(amount)
        else:
            self._draw()

    def write(self, line: str) -> None:
        """Print a line on the stream without breaking the bar."""
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(("\n" if self.active else "") + line, file=self.stream, flush=True)

    def close(self) -> None:
        if not self.active:
            return
        self.active = False
        if self._bar is not None:
            self._bar.close()
        else:
            print(file=self.stream, flush=True)

    def _draw(self) -> None:
        elapsed = time.perf_counter() - self._started
        left = ""
        if 0 < self.done < self.total:
            seconds = elapsed * (self.total - self.done) / self.done
            left = f", about {seconds:.0f} s left"
        print(f"\r{self.description}: {self.done}/{self.total} {self.unit}{left}   ",
              end="", file=self.stream, flush=True)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
