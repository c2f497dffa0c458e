"""``cardgym eval``: win rates of agents against each other (:mod:`agents.evaluate`)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from agents.arguments import (
    DEFAULT_EVAL_GAMES,
    DEFAULT_EVAL_WORKERS,
    add_option_argument,
    add_trust_argument,
    check_specs,
    checked_table,
    trusted_specs,
)
from agents.evaluate import evaluate
from cardgym.arguments import (
    UsageError,
    add_progress_argument,
    game_count,
    game_name,
    non_negative_int,
    positive_int,
    worker_count,
)
from cardgym.progress import Progress
from cardgym.registration import GAMES, find_game, short_name
from cardgym_cli.outputs import add_overwrite_argument, output_path

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=game_name, metavar="GAME",
                        help="game id or short name: "
                             + ", ".join(short_name(g.env_id) for g in GAMES))
    parser.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                        help="one agent per seat, or two: the first against the second in "
                             "every other seat. A spec is random, heuristic, baseline, "
                             "model:PATH, rllib+pickle:PATH or ismcts[:KEY=VALUE,...]")
    parser.add_argument("--players", type=positive_int, default=None, metavar="N",
                        help="seats at the table; default the number of agents when more "
                             "than two, else the game's smallest player count")
    parser.add_argument("--games", type=game_count, default=DEFAULT_EVAL_GAMES, metavar="G",
                        help="games to play (agents rotate seats game by game)")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="seed of the run; each game is seeded from it and its number")
    parser.add_argument("--workers", type=worker_count, default=DEFAULT_EVAL_WORKERS,
                        metavar="W", help="processes (the result does not depend on it)")
    add_progress_argument(parser)
    add_option_argument(parser)
    add_trust_argument(parser)
    parser.add_argument("--record", default=None, metavar="DIR",
                        help="write a game record of every game into DIR (game-NNNNN.json; "
                             "a new or empty folder unless --overwrite); cardgym replay "
                             "plays one back")
    add_overwrite_argument(parser, "write --record into a folder that already holds files, "
                                   "replacing records of the same names")
    parser.add_argument("--journal", default=None, metavar="DIR",
                        help="keep every finished game in DIR, so that the same command "
                             "after a stop or crash plays only the games still missing; "
                             "this run's file there is removed once the result is printed")
    parser.add_argument("--vector", action="store_true",
                        help="play every game at once on the game's batched engine "
                             "(cardgym.vector), in this process: agents that act from "
                             "observations only (random, heuristic, baseline, model:PATH); "
                             "other deals than the AEC env's for the same seed")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from agents.evaluate import agent_count_rule, discard_journals, format_eval
    from agents.evaluate.journal import JournalError

    default = len(args.agents) if len(args.agents) > 2 else min(find_game(args.game).player_counts)
    bound, _ = checked_table(args, args.players, default)
    game, count = bound.game, bound.num_players
    if len(args.agents) not in (2, count):
        raise UsageError(f"--agents: {agent_count_rule(count)}, not {len(args.agents)}")
    args.agents = trusted_specs(args.agents, getattr(args, "trust_pickle", False))
    if args.record is not None:
        output_path(args.record, "--record", args.overwrite, folder=True)
    if args.vector:
        from agents.evaluate.batched import can_batch

        if not can_batch(game, args.agents, 1, args.record):
            raise UsageError(
                f"--vector plays {game.title} on its batched engine, which needs one, agents "
                "that act from observations (not ismcts) and no --record"
                + ("" if game.batched is not None else f": {game.title} has none yet"))
    # The agents are built once here, to check them, and played with in this process.
    built = check_specs(args.agents, bound)
    print(f"eval: {short_name(game.env_id)}, {count} players, {args.games} games, "
          f"{args.workers} worker(s) ...", file=sys.stderr)
    with Progress(args.games, "eval", "game", enabled=not args.no_progress) as bar:
        try:
            result = evaluate(bound, count, args.agents, games=args.games, seed=args.seed,
                              workers=args.workers, progress=bar.update,
                              record_dir=args.record, vector=args.vector,
                              built=[built[spec] for spec in args.agents],
                              journal=args.journal)
        except JournalError as error:
            raise UsageError(f"--journal: {error}") from None
    print(format_eval(result), file=out)
    discard_journals([result])
    if args.record is not None:
        print(f"wrote {args.games * result.match_length} game records to {args.record}",
              file=out)
    return 0
