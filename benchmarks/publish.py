"""How the table scripts hand over a Markdown table: printed, and written under
``--output`` when one is given."""

from __future__ import annotations

from pathlib import Path

__all__ = ["publish"]


def publish(text: str, output: Path | None, name: str) -> Path | None:
    """Print ``text`` and write it to ``output/name`` (the folder made if need be);
    returns the file written, or ``None`` without ``output``."""
    print(text)
    if output is None:
        return None
    output.mkdir(parents=True, exist_ok=True)
    path = output / name
    path.write_text(text, encoding="utf-8")
    return path
