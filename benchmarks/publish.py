"""How the table scripts hand over a Markdown table: printed, and written under
``--output`` when one is given; and how they read back the CSV tables they wrote."""

from __future__ import annotations

import csv
import shlex
from collections.abc import Sequence
from pathlib import Path

from cardgym.files import atomic_write

__all__ = ["portable_command", "publish", "read_csv"]


def publish(text: str, output: Path | None, name: str) -> Path | None:
    """Print ``text`` and write it to ``output/name`` (the folder made if need be);
    returns the file written, or ``None`` without ``output``."""
    print(text)
    if output is None:
        return None
    return atomic_write(output / name, text)


def portable_command(program: str, argv: Sequence[str]) -> str:
    """The command line ``program argv`` as a card or a table records it, runnable from
    a clean clone: an absolute path inside the current folder is written relative to
    it, and one outside it (a scratch or output folder of the machine that ran it)
    as ``runs/NAME``, its last part under the clone's ``runs/``."""
    here = Path.cwd().resolve()
    words = []
    for word in argv:
        path = Path(word)
        if path.is_absolute():
            try:
                word = str(path.resolve().relative_to(here)) or "."
            except ValueError:
                word = str(Path("runs") / path.name)
        words.append(shlex.quote(word))
    return " ".join([program, *words]).strip()


def read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV table with a header line, each a dict of its column texts."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
