"""``cardgym play``: a game at the terminal against bots (:mod:`agents.play`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

import numpy as np

from agents.arguments import (
    add_option_argument,
    add_trust_argument,
    check_specs,
    checked_table,
    trusted_specs,
)
from cardgym.arguments import UsageError, game_name, non_negative_int, positive_int
from cardgym.registration import GAMES, BoundGame, find_game, short_name
from cardgym_cli.outputs import add_overwrite_argument, output_path

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=game_name, metavar="GAME",
                        help="game id or short name: "
                             + ", ".join(short_name(g.env_id) for g in GAMES))
    parser.add_argument("--players", type=positive_int, default=None, metavar="N",
                        help="seats at the table; default the number of opponent specs plus "
                             "one when more than one is given, else the game's smallest count")
    parser.add_argument("--seat", type=non_negative_int, default=0, metavar="K",
                        help="your seat, 0..N-1")
    parser.add_argument("--opponents", nargs="+", default=["random"], metavar="SPEC",
                        help="one agent for every other seat, or one per other seat in seat "
                             "order: random, heuristic, baseline, model:PATH, rllib+pickle:PATH "
                             "or ismcts[:KEY=VALUE,...]")
    parser.add_argument("--seed", type=non_negative_int, default=None,
                        help="seed of the deal and the bots; default a fresh one, printed")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="write the game's record to FILE (JSON) once it is over; "
                             "cardgym replay FILE plays it back")
    add_overwrite_argument(parser, "replace the --record file if it exists")
    parser.add_argument("--position", default=None, metavar="FILE",
                        help="start from the position in FILE (a position file, as "
                             "cardgym replay's 'position' command or env.position() writes); "
                             "its game, players and options replace GAME and --option")
    parser.add_argument("--ask-always", action="store_true",
                        help="ask for every move, even when only one is legal (by default a "
                             "single legal move, such as passing in a Nope window without a "
                             "Nope, is played for you with one line saying so)")
    add_option_argument(parser)
    add_trust_argument(parser)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from agents.play import opponent_count_rule, play

    scenario = None
    if args.position is not None:
        bound, scenario = _position_table(args)
    else:
        default = (len(args.opponents) + 1 if len(args.opponents) > 1
                   else min(find_game(args.game).player_counts))
        bound, _ = checked_table(args, args.players, default)
    count = bound.num_players
    if args.seat >= count:
        raise UsageError(f"--seat: {args.seat} is out of range; seats are 0..{count - 1}")
    if len(args.opponents) not in (1, count - 1):
        raise UsageError(f"--opponents: {opponent_count_rule(count)}, not "
                         f"{len(args.opponents)}")
    args.opponents = trusted_specs(args.opponents, getattr(args, "trust_pickle", False))
    built = check_specs(args.opponents, bound)
    if args.record is not None:
        output_path(args.record, "--record", args.overwrite)
    seed = args.seed
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    return play(bound, count, args.seat, args.opponents, seed=seed,
                input_stream=sys.stdin, output=out, scenario=scenario, record=args.record,
                ask_always=args.ask_always, built=built)


def _position_table(args: argparse.Namespace) -> tuple[BoundGame, Any]:
    """The bound game (table size and options) and scenario of ``--position``'s file.

    Raises:
        UsageError: the file does not read, is of another game, or ``--players`` or
            ``--option`` disagree with it.
    """
    from cardgym.documents import read_document, read_header
    from cardgym.errors import DocumentError
    from cardgym.positions import FORMAT, FORMAT_VERSION

    try:
        document = read_document(args.position, "position")
        bound, _ = read_header(document, FORMAT, FORMAT_VERSION)
    except DocumentError as error:
        raise UsageError(f"--position: {error}") from None
    game, count = bound.game, bound.num_players
    if game is not find_game(args.game):
        raise UsageError(f"--position: the file is a position of {short_name(game.env_id)}, "
                         f"not {short_name(find_game(args.game).env_id)}")
    if args.players not in (None, count):
        raise UsageError(f"--position: the position has {count} players; leave --players out")
    if getattr(args, "option", None):
        raise UsageError("--position: the position file sets the rule options; leave "
                         "--option out")
    if "scenario" not in document:
        raise UsageError("--position: the file has no 'scenario'")
    return bound, document["scenario"]
