"""Writing the library's files so that nothing is lost or half-written.

Every file cardgym writes (positions, records, pictures, policy files, model cards,
checkpoints, ``eval.csv``, a league) goes through here:

- :func:`atomic_output` / :func:`atomic_write`: the bytes go to a temporary name in the
  target's folder, are flushed to disk and renamed into place. A kill, a crash or a full
  disk leaves the old file or none, never half a file, and no temporary is left behind
  on an error.
- :func:`check_output_file` / :func:`check_output_folder`: what an output path may be,
  checked before any work starts. A symbolic link is refused (a planted link would
  redirect the write), so is an existing file or a non-empty folder unless the caller
  says ``overwrite``, a folder where a file is wanted and the reverse.
- Failures are :class:`OutputError`: one line naming the path and the cause
  (``cannot write runs/x/model.json: No space left on device``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from cardgym.errors import CardgymError

__all__ = ["OutputError", "atomic_output", "atomic_save", "atomic_write", "check_output_file",
           "check_output_folder", "file_digests", "os_problem", "partial_name"]

_CHUNK = 1 << 20

#: How a Rust writer words the system's error: ``(os error 28)`` or ``Os { code: 28``.
_RUST_OS_ERROR = re.compile(r"\(os error (\d+)\)|\bOs \{ code: (\d+)")


class OutputError(CardgymError, OSError):
    """An output path that cannot or may not be written: the message names the path
    and the cause, and nothing was left half-written."""


def os_problem(path: str | Path, error: OSError, doing: str = "write") -> OutputError:
    """``error`` as one line naming ``path`` and the cause."""
    cause = error.strerror or str(error) or type(error).__name__
    return OutputError(f"cannot {doing} {path}: {cause}")


def _os_error_within(error: BaseException) -> OSError | None:
    """The operating system's error that a writer reported inside its own exception,
    or ``None``.

    Writers written in Rust (safetensors' ``SafetensorError``) do not raise
    ``OSError``: they put the system's error into their message, as ``... (os error
    28)`` (Rust's ``std::io::Error``) or ``Os { code: 28, ... }`` (its debug form, in
    older versions). A full disk there is still a full disk, and gets the same one
    line as any other writer's.
    """
    if isinstance(error, OSError):
        return error
    if not isinstance(error, Exception):
        return None  # an interruption, an exit: never a file's fault
    found = _RUST_OS_ERROR.search(str(error))
    if found is None:
        return None
    code = int(found.group(1) or found.group(2))
    return OSError(code, os.strerror(code))


def partial_name(target: Path) -> Path:
    """The temporary name beside ``target`` that a write goes to first: hidden, unique
    to this process, and with the target's extension (writers that infer the format
    from it, or add it when missing, as Stable-Baselines3 does, see the same one)."""
    return target.with_name(f".{target.stem}.{os.getpid()}.partial{target.suffix}")


@contextlib.contextmanager
def atomic_output(path: str | Path, make_parents: bool = True) -> Iterator[Path]:
    """A temporary path to write instead of ``path``; renamed onto ``path`` when the
    block ends without an error, removed when it raises.

    Raises:
        OutputError: the folder cannot be made, or the file cannot be written or
            renamed (no room, no permission, a folder in its place), whether the
            writer raised ``OSError`` or carried the system's error in its own
            exception (safetensors); the message names ``path``.
    """
    target = Path(path)
    try:
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise os_problem(target.parent, error, "make the folder") from None
    if _kind(target) == "folder":
        raise OutputError(f"cannot write {target}: it is a folder; give a file name")
    partial = partial_name(target)
    try:
        yield partial
        _flush(partial)
        os.replace(partial, target)
    except OSError as error:
        partial.unlink(missing_ok=True)
        if isinstance(error, OutputError):
            raise
        raise os_problem(target, error) from None
    except BaseException as error:
        partial.unlink(missing_ok=True)
        within = _os_error_within(error)
        if within is not None:
            raise os_problem(target, within) from None
        raise


def atomic_write(path: str | Path, data: str | bytes, encoding: str = "utf-8") -> Path:
    """Write ``data`` (text or bytes) to ``path`` atomically; returns ``path``.

    Raises:
        OutputError: as :func:`atomic_output`.
    """
    target = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    with atomic_output(target) as partial:
        with open(partial, "wb") as handle:
            handle.write(payload)
    return target


def atomic_save(save: Callable[[Path], object], path: str | Path) -> Path:
    """``save(temporary)`` (any writer that takes a path: Pillow, safetensors, SB3),
    then rename onto ``path``; returns ``path``.

    Raises:
        OutputError: as :func:`atomic_output`.
    """
    target = Path(path)
    with atomic_output(target) as partial:
        save(partial)
    return target


def check_output_file(path: str | Path, what: str, overwrite: bool = False) -> Path:
    """``path`` if a file may be written there; checked before any work starts.

    Args:
        path: the file to be written.
        what: how the user named it (``"--record"``), to start the message with.
        overwrite: an existing file may be replaced.

    Raises:
        OutputError: a symbolic link, a folder, an existing file without
            ``overwrite``, or a parent that is a file.
    """
    target = Path(path)
    kind = _kind(target, what)
    if kind == "link":
        raise OutputError(f"{what}: {target} is a symbolic link; cardgym does not write "
                          "through links, give the real path")
    if kind == "folder":
        raise OutputError(f"{what}: {target} is a folder; give a file name")
    if kind == "other":
        raise OutputError(f"{what}: {target} is not a regular file (a device or a pipe); "
                          "give a file name")
    if kind == "file" and not overwrite:
        raise OutputError(f"{what}: {target} already exists; pass --overwrite to replace it, "
                          "or give another name")
    _check_parents(target.parent, what)
    return target


def check_output_folder(path: str | Path, what: str, overwrite: bool = False) -> Path:
    """``path`` if files may be written into it (made if missing); checked before any
    work starts.

    Raises:
        OutputError: a symbolic link, a file, or a folder that already holds
            something, without ``overwrite``.
    """
    target = Path(path)
    kind = _kind(target, what)
    if kind == "link":
        raise OutputError(f"{what}: {target} is a symbolic link; cardgym does not write "
                          "through links, give the real path")
    if kind in ("file", "other"):
        raise OutputError(f"{what}: {target} is a file; give a folder (made if missing)")
    if kind == "folder" and not overwrite and any(target.iterdir()):
        raise OutputError(f"{what}: {target} is not empty; pass --overwrite to write into "
                          "it, or give a new folder")
    _check_parents(target.parent, what)
    return target


def _check_parents(folder: Path, what: str) -> None:
    """The nearest existing ancestor of ``folder`` must be a folder."""
    for parent in (folder, *folder.parents):
        kind = _kind(parent, what)
        if kind in ("file", "other"):
            raise OutputError(f"{what}: {parent} is a file, so nothing can be written "
                              "under it")
        if kind is not None:
            return


def _kind(path: Path, what: str | None = None) -> str | None:
    """``"link"``, ``"folder"``, ``"file"``, ``"other"`` (a device, a pipe) or ``None``
    (nothing there) for ``path``, without following a link.

    Raises:
        OutputError: the path cannot be looked at (a name too long, no permission).
    """
    import stat

    try:
        mode = path.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        problem = os_problem(path, error, "use")
        raise OutputError(f"{what}: {problem}" if what else str(problem)) from None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    return "file" if stat.S_ISREG(mode) else "other"


def _flush(path: Path) -> None:
    """Put the file's bytes on disk before it is renamed into place (a power cut after
    the rename must not leave an empty file under the real name)."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return  # the writer wrote elsewhere (or nothing); the rename will say so
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def file_digests(files: Iterable[str | Path]) -> dict[str, str]:
    """The sha256 of each file's content, by path (what a run depends on, told apart
    by content rather than by name or time)."""
    return {str(path): _digest(Path(path)) for path in sorted({str(f) for f in files})}


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            sha.update(chunk)
    return sha.hexdigest()
