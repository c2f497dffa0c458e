"""``cardgym replay``: step through a game record, print it, or draw it as pictures."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from cardgym.arguments import UsageError, non_negative_int
from cardgym_cli.outputs import add_overwrite_argument, output_path

__all__ = ["configure", "picture_size", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="FILE",
                        help="a game record (JSON), as cardgym play --record, eval --record "
                             "and arena --record write")
    parser.add_argument("--seat", type=non_negative_int, default=None, metavar="K",
                        help="view from seat K (what its observation is built from); "
                             "default the full table")
    parser.add_argument("--step", type=non_negative_int, default=0, metavar="N",
                        help="start at the position after N moves (default 0, the start)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--print", action="store_true",
                       help="print the position after --step moves and stop")
    shown.add_argument("--all", action="store_true",
                       help="print every position from --step to the end and stop")
    shown.add_argument("--position-out", default=None, metavar="OUT",
                       help="write the position after --step moves as a position file "
                            "(cardgym play --position OUT starts from it) and stop")
    shown.add_argument("--check", action="store_true",
                       help="only check that the record replays to its result")
    shown.add_argument("--frames", default=None, metavar="DIR",
                       help="write a picture (PNG) of every position from --step to the end "
                            "into DIR, move_0000.png first, and stop")
    shown.add_argument("--gif", default=None, metavar="FILE",
                       help="write an animated GIF of the positions from --step to the end "
                            "and stop")
    parser.add_argument("--size", type=picture_size, default=(1280, 800), metavar="WxH",
                        help="picture size for --frames and --gif (default 1280x800)")
    add_overwrite_argument(parser, "replace the --position-out or --gif file, or write "
                                   "--frames into a folder that already holds files")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from cardgym.documents import write_document
    from cardgym.errors import DocumentError
    from cardgym.records import replay
    from cardgym.replay import frame, position_document
    from cardgym.replay import run as step_through

    if args.position_out is not None:
        output_path(args.position_out, "--position-out", args.overwrite)
    if args.gif is not None:
        output_path(args.gif, "--gif", args.overwrite)
    if args.frames is not None:
        output_path(args.frames, "--frames", args.overwrite, folder=True)
    try:
        replayed = replay(args.record)
    except DocumentError as error:
        print(f"cardgym replay: {args.record}: {error}", file=sys.stderr)
        return 1
    total, players = len(replayed), replayed.record.num_players
    if args.step > total:
        raise UsageError(f"--step: the record has {total} moves; give 0..{total}")
    if args.seat is not None and args.seat >= players:
        raise UsageError(f"--seat: seats are 0..{players - 1}")
    if args.check:
        print(f"{args.record}: {replayed.game.env_id}, {players} players, {total} moves; "
              f"replays to its result (winners {list(replayed.record.winners)})", file=out)
        return 0
    if args.position_out is not None:
        if replayed.game.is_over(replayed.states[args.step]):
            raise UsageError("--position-out: the game is over after that move; give an "
                             "earlier --step")
        path = write_document(position_document(replayed, args.step), args.position_out)
        print(f"wrote {path}", file=out)
        return 0
    if args.frames is not None or args.gif is not None:
        return _replay_pictures(args, replayed, out)
    if args.print or args.all:
        last = total if args.all else args.step
        print("\n\n".join(frame(replayed, step, args.seat)
                           for step in range(args.step, last + 1)), file=out)
        return 0
    return step_through(replayed, sys.stdin, out, args.seat, args.step)


def picture_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` of a picture, each 320..4096 pixels."""
    width, _, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size; give WIDTHxHEIGHT, e.g. 1280x800") from None
    if not all(320 <= side <= 4096 for side in size):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be 320..4096 pixels")
    return size


def _replay_pictures(args: argparse.Namespace, replayed: Any, out: TextIO) -> int:
    """``cardgym replay --frames DIR`` or ``--gif FILE``."""

    from cardgym.replay_pictures import write_frames, write_gif

    target = Path(args.frames if args.frames is not None else args.gif)
    if args.gif is not None and not target.parent.is_dir():
        raise UsageError(f"--gif: the folder {target.parent} does not exist")
    try:
        if args.frames is not None:
            written = write_frames(replayed, target, args.seat, args.size, args.step)
            print(f"wrote {len(written)} pictures to {target}", file=out)
        else:
            print(f"wrote {write_gif(replayed, target, args.seat, args.size, args.step)}",
                  file=out)
    except OSError as error:
        print(f"cardgym replay: cannot write {target}: {error.strerror or error}",
              file=sys.stderr)
        return 1
    return 0
