"""``cardgym soup``: a policy file whose weights are the mean of others' (:mod:`agents.soup`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from agents.soup import average_policies
from cardgym.arguments import UsageError, positive_float
from cardgym.files import OutputError, check_output_folder
from cardgym_cli.train import require_train_extra

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("output", type=Path, metavar="OUT",
                        help="a new or empty folder to write model.safetensors and model.json "
                             "into; it plays as model:OUT")
    parser.add_argument("models", type=Path, nargs="+", metavar="MODEL",
                        help="run folders or .safetensors policy files, at least two, of the "
                             "same network for the same game, player count and options")
    parser.add_argument("--weights", type=positive_float, nargs="+", default=None, metavar="W",
                        help="one positive weight per MODEL, normalised (default: equal)")
    parser.add_argument("--overwrite", action="store_true",
                        help="write into an OUT that already holds files")


def run(args: argparse.Namespace, out: TextIO) -> int:
    require_train_extra()
    try:
        check_output_folder(args.output, "OUT", args.overwrite)
    except OutputError as error:
        raise UsageError(str(error)) from None
    try:
        path = average_policies(args.models, args.output, args.weights, args.overwrite)
    except ValueError as error:  # ModelError: nothing was written
        raise UsageError(str(error)) from None
    print(f"wrote {path} and {path.with_suffix('.json')}: the mean of {len(args.models)} "
          "policy files", file=out)
    return 0
