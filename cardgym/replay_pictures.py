"""Pictures of a game record: a PNG per position and an animated GIF
(``cardgym replay FILE --frames DIR`` and ``--gif FILE``).

Each picture is the table view (:mod:`cardgym.table`) after a number of moves, from one
seat or the full table, drawn by :mod:`cardgym.picture`. Files are written under a
temporary name and renamed into place, so that an interrupted run leaves no
half-written picture.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.files import atomic_save
from cardgym.records import Replay
from cardgym.table import FULL, state_view, table_of

__all__ = ["frame_image", "frame_images", "write_frames", "write_gif"]

#: How long a GIF shows each position, in milliseconds (the last one three times as long).
GIF_MS = 900


def frame_image(replay: Replay, step: int, seat: int | None,
                size: tuple[int, int]) -> NDArray[np.uint8]:
    """The picture of the table after ``step`` moves from ``seat`` (``None``: the full
    table)."""
    from cardgym.picture import table_image

    game = replay.game
    viewer: Any = FULL if seat is None else seat
    view = state_view(game, replay.config, replay.states[step], viewer)
    return table_image(view, table_of(game), size)


def frame_images(replay: Replay, seat: int | None, size: tuple[int, int],
                 start: int = 0) -> Iterator[NDArray[np.uint8]]:
    """The pictures from the position after ``start`` moves to the end."""
    for step in range(start, len(replay) + 1):
        yield frame_image(replay, step, seat, size)


def write_frames(replay: Replay, folder: str | Path, seat: int | None,
                 size: tuple[int, int], start: int = 0) -> list[Path]:
    """A PNG per position, ``move_0000.png`` (the start) on, into ``folder`` (made if
    missing). Returns the files written.

    Raises:
        OutputError: the folder cannot be made or written (a file in its place, no
            room); the message names the path.
    """
    from PIL import Image

    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for step, image in enumerate(frame_images(replay, seat, size, start), start):
        path = target / f"move_{step:04d}.png"
        picture = Image.fromarray(image)

        def save(where: Path, picture: Image.Image = picture) -> None:
            picture.save(where, format="PNG", optimize=True)

        atomic_save(save, path)
        written.append(path)
    return written


def write_gif(replay: Replay, path: str | Path, seat: int | None, size: tuple[int, int],
              start: int = 0, duration_ms: int = GIF_MS) -> Path:
    """An animated GIF of the positions from ``start`` moves to the end, looping.

    Raises:
        OutputError: the file cannot be written; the message names the path.
    """
    from PIL import Image

    pictures = [Image.fromarray(image).quantize(colors=128, dither=Image.Dither.NONE)
                for image in frame_images(replay, seat, size, start)]
    durations = [duration_ms] * len(pictures)
    durations[-1] = 3 * duration_ms
    target = Path(path)
    atomic_save(lambda where: pictures[0].save(
        where, format="GIF", save_all=True, append_images=pictures[1:],
        duration=durations, loop=0, disposal=1), target)
    return target
