"""A full disk, staged where the bytes meet the file system.

- :func:`open_on_a_full_disk`: ``open`` whose files take no bytes: each write to the
  operating system fails with ``ENOSPC``, as it does on a full disk (the text layer
  buffers the bytes, so ``flush`` fails, and ``close`` tries them again and fails
  once more).
- :func:`safetensors_on_a_full_disk`: safetensors' ``save_file`` failing the way it
  does on a full disk: a ``SafetensorError`` carrying the system's error in its
  message (safetensors writes from Rust and never raises ``OSError``).
"""

from __future__ import annotations

import errno
import io
import os
from collections.abc import Callable
from typing import Any

#: The system's words for a full disk.
NO_SPACE = os.strerror(errno.ENOSPC)


class _FullFile(io.FileIO):
    """A real file that takes no bytes: every write fails as on a full disk."""

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, NO_SPACE)


def open_on_a_full_disk(file: Any, mode: str = "r", buffering: int = -1,
                        encoding: str | None = None, **_: Any) -> Any:
    """``open`` on a disk with no room left: the file opens (and can be locked,
    read, truncated), and every byte written to it fails with ``ENOSPC``."""
    raw = _FullFile(file, mode.replace("b", "").replace("t", ""))
    buffered: Any = (io.BufferedRandom(raw) if "+" in mode else
                     io.BufferedWriter(raw) if raw.writable() else io.BufferedReader(raw))
    return buffered if "b" in mode else io.TextIOWrapper(buffered, encoding=encoding)


def safetensors_on_a_full_disk() -> Callable[..., None]:
    """A stand-in for ``safetensors.torch.save_file`` that fails as it does when the
    disk is full (safetensors 0.5 and later word it so)."""
    from safetensors import SafetensorError

    def save_file(*_: Any, **__: Any) -> None:
        raise SafetensorError(f"Error while serializing: I/O error: {NO_SPACE} "
                              f"(os error {errno.ENOSPC})")

    return save_file
