"""Run folders of the training commands: where a run writes, what it may replace, and
who may write there.

Both backends (:mod:`agents.train`, :mod:`agents.rllib.train`) write one run into
``OUTPUT/NAME/``. The name is one plain folder name, so that a run never writes
outside ``OUTPUT``; a run never replaces the files of an earlier run in the same
folder unless it is told to (``overwrite``, ``--overwrite``), or continues it
(``resume``, ``--resume``); and one run at a time writes into a folder
(:func:`hold_run_folder`): a second is refused with the first one named.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import IO, Any

from cardgym.arguments import UsageError
from cardgym.errors import shorten
from cardgym.files import os_problem

__all__ = ["LOCK_FILE", "MAX_NAME_BYTES", "RunInUseError", "check_run_folder",
           "check_run_name", "earlier_run", "hold_lock", "hold_run_folder", "refuse_overwrite",
           "remove_partial_files", "run_folder"]

#: The longest folder name most file systems take (in bytes of UTF-8).
MAX_NAME_BYTES = 255

#: The file in a run folder that the run writing there holds locked.
LOCK_FILE = ".lock"


class RunInUseError(UsageError):
    """Another process is writing a run into the same folder."""


def check_run_name(name: str) -> str:
    """``name`` if it is one plain folder name, which keeps a run inside its output folder.

    Raises:
        ValueError: an empty name, ``.`` or ``..``, a path separator or an absolute
            path (POSIX or Windows), a control character, or a name longer than
            :data:`MAX_NAME_BYTES` bytes; the message says what is allowed.
    """
    if (not name or name in (".", "..") or "/" in name or "\\" in name
            or PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute()):
        raise ValueError(f"must be one folder name (no '/', '..' or absolute path; the run "
                         f"goes under the output folder), got {shorten(name)}")
    if any(ord(char) < 32 or ord(char) == 127 for char in name):
        raise ValueError(f"must be a printable folder name (no control characters such as "
                         f"a newline or a tab), got {shorten(name)}")
    size = len(name.encode("utf-8", "surrogateescape"))
    if size > MAX_NAME_BYTES:
        raise ValueError(f"must be at most {MAX_NAME_BYTES} bytes long (a file system's "
                         f"limit for one folder name), got {size}: {shorten(name)}")
    return name


def run_folder(output: str | Path, name: str) -> Path:
    """``output/name``, after :func:`check_run_name`.

    Raises:
        ValueError: ``name`` would leave ``output`` or cannot be a folder name.
    """
    try:
        return Path(output) / check_run_name(name)
    except ValueError as error:
        raise ValueError(f"run_name {error}") from None


def earlier_run(run_dir: Path, names: Sequence[str]) -> list[str]:
    """The ``names`` in ``run_dir`` that an earlier run left (files or folders)."""
    return [name for name in names
            if (run_dir / name).exists() or (run_dir / name).is_symlink()]


def refuse_overwrite(run_dir: Path, names: Sequence[str], overwrite: bool,
                     resumable: bool = False) -> None:
    """Raise ``FileExistsError`` naming what an earlier run left in ``run_dir``
    (:func:`earlier_run`), unless ``overwrite``. ``resumable``: the backend can
    continue a run (``--resume``), and the message offers it."""
    existing = earlier_run(run_dir, names)
    if existing and not overwrite:
        if resumable:
            advice = ("pass --resume (resume=True) to continue it, or --overwrite "
                      "(overwrite=True) to replace it")
        else:
            advice = ("pass --overwrite (overwrite=True) to replace it, or choose another "
                      "--run-name or --output")
        raise FileExistsError(f"{run_dir} already holds a run ({', '.join(existing)}); "
                              f"{advice}")


def check_run_folder(run_dir: Path, names: Sequence[str], overwrite: bool,
                     resumable: bool = False) -> None:
    """:func:`refuse_overwrite` for the command line: raise :class:`UsageError` if
    ``run_dir`` holds an earlier run and not ``overwrite``, before anything starts."""
    try:
        refuse_overwrite(run_dir, names, overwrite, resumable)
    except FileExistsError as error:
        raise UsageError(str(error)) from None


@contextmanager
def hold_run_folder(run_dir: Path) -> Iterator[Path]:
    """Make ``run_dir`` (and its parents) and hold it for this process while the
    ``with`` block runs: an exclusive lock on ``run_dir/.lock``, which names the
    holder (process, host, command, start).

    The lock is the operating system's (``flock``): it ends with the process that
    holds it, however that process ends, so a lock file left by a process that has
    died blocks nothing.

    Raises:
        RunInUseError: another process holds the folder; the message names it.
        OutputError: the folder cannot be made (a file in its place, no room, a
            name too long); the message names the path and the cause.
    """
    def in_use(holder: str) -> Exception:
        return RunInUseError(f"{run_dir} is in use by another run ({holder}); wait for it "
                             "to end or stop it, or choose another --run-name or --output")

    with hold_lock(run_dir / LOCK_FILE, in_use, "make the run folder"):
        yield run_dir


@contextmanager
def hold_lock(path: Path, in_use: Callable[[str], Exception],
              doing: str = "write") -> Iterator[None]:
    """Hold the file ``path`` locked for this process while the ``with`` block runs
    (made with its folder when missing), the holder (process, host, command, start)
    written into it; see :func:`hold_run_folder`.

    Raises:
        Exception: ``in_use(holder)`` when another process holds the lock, ``holder``
            saying who.
        OutputError: the file cannot be made (``doing`` says what for), or the holder
            cannot be written into it (no room left); the message names the path.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise os_problem(path.parent, error, doing) from None
    try:
        if not _lock(handle):
            raise in_use(_holder(handle))
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                     "command": " ".join(sys.argv),
                                     "started": time.strftime("%Y-%m-%d %H:%M:%S")}) + "\n")
            handle.flush()
        except OSError as error:
            raise os_problem(path, error) from None
        yield
    finally:
        _close(handle)  # closing the file releases the lock


def remove_partial_files(folder: Path) -> list[Path]:
    """Remove the temporary files (``.NAME.PID.partial...``) that writers killed
    while writing left in ``folder`` and below; returns them. Call it only while
    holding the folder (:func:`hold_run_folder`): no one else is writing there."""
    removed = []
    for path in folder.rglob(".*.partial*"):
        if path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _lock(handle: IO[str]) -> bool:
    """Take the lock on ``handle`` without waiting; False if another process has it."""
    if sys.platform == "win32":  # pragma: no cover - locks on Windows
        import msvcrt

        try:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _close(handle: IO[str]) -> None:
    """Close the lock file, which releases the lock. A holder that could not be written
    (a full disk) is still in the file's buffer, and closing tries to write it again:
    that second failure is not reported, the first one was (and the file is closed,
    its lock released, all the same)."""
    with contextlib.suppress(OSError):
        handle.close()


def _holder(handle: IO[str]) -> str:
    """Who holds the lock, as the holder wrote it into the lock file."""
    handle.seek(0)
    try:
        holder: Any = json.loads(handle.read() or "{}")
    except ValueError:
        holder = {}
    if not isinstance(holder, dict) or "pid" not in holder:
        return "a process that has not said which"
    return (f"process {holder.get('pid')} on {holder.get('host', '?')}, started "
            f"{holder.get('started', '?')}: {shorten(str(holder.get('command', '?')))}")
