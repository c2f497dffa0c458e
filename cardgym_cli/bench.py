"""``cardgym bench``: the throughput benchmarks (:mod:`benchmarks.throughput`, and
:mod:`benchmarks.vector_throughput` with ``--vector``)."""

from __future__ import annotations

import argparse
from typing import TextIO

from cardgym.arguments import UsageError

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    from benchmarks import throughput, vector_throughput

    throughput.add_arguments(parser)
    vector_throughput.add_arguments(parser)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from benchmarks import throughput, vector_throughput

    if args.vector:
        return vector_throughput.run_namespace(args, out)
    if args.memory or args.train or args.batch_sizes != list(vector_throughput.BATCH_SIZES):
        raise UsageError("--batch-sizes, --memory and --train go with --vector")
    return throughput.run_namespace(args, out)
