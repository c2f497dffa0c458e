"""``cardgym docs``: a game's documentation page."""

from __future__ import annotations

import argparse
from typing import TextIO

from cardgym.arguments import game_name
from cardgym.registration import GAMES, short_name

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=game_name, metavar="GAME",
                        help="game id or short name: "
                             + ", ".join(short_name(g.env_id) for g in GAMES))


def run(args: argparse.Namespace, out: TextIO) -> int:
    from cardgym.docs import doc_page

    print(doc_page(args.game), file=out)
    return 0
