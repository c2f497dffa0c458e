"""Run folders of the training commands: where a run writes, and what it may replace.

Both backends (:mod:`agents.train`, :mod:`agents.rllib.train`) write one run into
``OUTPUT/NAME/``. The name is one plain folder name, so that a run never writes
outside ``OUTPUT``; and a run never replaces the files of an earlier run in the same
folder unless it is told to (``overwrite``, ``--overwrite``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath

from cardgym.arguments import UsageError

__all__ = ["check_run_folder", "check_run_name", "refuse_overwrite", "run_folder"]


def check_run_name(name: str) -> str:
    """``name`` if it is one plain folder name, which keeps a run inside its output folder.

    Raises:
        ValueError: an empty name, ``.`` or ``..``, a path separator or an absolute
            path (POSIX or Windows); the message says what is allowed.
    """
    if (not name or name in (".", "..") or "/" in name or "\\" in name
            or PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute()):
        raise ValueError(f"must be one folder name (no '/', '..' or absolute path; the run "
                         f"goes under the output folder), got {name!r}")
    return name


def run_folder(output: str | Path, name: str) -> Path:
    """``output/name``, after :func:`check_run_name`.

    Raises:
        ValueError: ``name`` would leave ``output``.
    """
    try:
        return Path(output) / check_run_name(name)
    except ValueError as error:
        raise ValueError(f"run_name {error}") from None


def refuse_overwrite(run_dir: Path, names: Sequence[str], overwrite: bool) -> None:
    """Raise ``FileExistsError`` naming the files of an earlier run in ``run_dir``,
    unless ``overwrite``."""
    existing = [name for name in names if (run_dir / name).exists()]
    if existing and not overwrite:
        raise FileExistsError(f"{run_dir} already holds a run ({', '.join(existing)}); pass "
                              "--overwrite (overwrite=True) to replace it, or choose another "
                              "--run-name or --output")


def check_run_folder(run_dir: Path, names: Sequence[str], overwrite: bool) -> None:
    """:func:`refuse_overwrite` for the command line: raise :class:`UsageError` if
    ``run_dir`` holds an earlier run and not ``overwrite``, before anything starts."""
    try:
        refuse_overwrite(run_dir, names, overwrite)
    except FileExistsError as error:
        raise UsageError(str(error)) from None
