"""Output paths of the commands: refused before any work starts."""

from __future__ import annotations

import argparse

from cardgym.arguments import UsageError
from cardgym.files import OutputError, check_output_file, check_output_folder

__all__ = ["add_overwrite_argument", "output_path"]


def add_overwrite_argument(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--overwrite", action="store_true", help=text)


def output_path(path: str, what: str, overwrite: bool, folder: bool = False) -> None:
    """Refuse an output path before any work starts (a :class:`UsageError`): a link, a
    device, a file where a folder is asked for or the other way round, an existing
    file or a non-empty folder without ``--overwrite``, a name too long."""
    try:
        if folder:
            check_output_folder(path, what, overwrite)
        else:
            check_output_file(path, what, overwrite)
    except OutputError as error:
        raise UsageError(str(error)) from None
