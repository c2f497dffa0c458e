"""The ``cardgym`` command line.

Usage::

    cardgym demo                         # train MaskablePPO briefly, then evaluate it
    cardgym train power_hungry_pets --players 2 --timesteps 200000 --opponents heuristic self
    cardgym tournament --games 50 --env power_hungry_pets --players 3 4 --seed 7
    cardgym bench --seconds 2 --rounds 3 --output benchmarks/results
    cardgym arena --games 400 --output benchmarks/results --update-cards --write-readme
    cardgym eval exploding_kittens --players 4 --agents heuristic random --games 200
    cardgym play karel_kakelaar --players 3 --seat 0 --opponents heuristic --record game.json
    cardgym replay game.json --seat 0    # step through it: n, p, a move number, q
    cardgym replay game.json --gif game.gif   # pictures: --frames DIR, a PNG per move
    cardgym convert-model runs/old/model.zip --trust-pickle   # write model.safetensors
    cardgym docs exploding_kittens       # the env's documentation page
    python -m cardgym_cli --help

Each subcommand is one :class:`Command` in :data:`COMMANDS`: a name, a one-line help,
a function that adds its options to its parser and a function that runs it from the
parsed options and returns the exit status. A new subcommand (``arena``) is one more
entry; heavy imports (torch, the agents) stay inside the functions, loaded on first
call, so that ``cardgym --help`` stays fast.

Bad arguments (an unknown game, a player count no selected game supports, a size that
is not positive, a number that is not finite or out of its range, a run name that
would leave ``--output``, a run folder that already holds a model without
``--overwrite``) end with exit status 2 and an argparse-style message on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from agents.arguments import (
    DEFAULT_EVAL_GAMES,
    DEFAULT_EVAL_WORKERS,
    add_option_argument,
    add_trust_argument,
    check_specs,
    checked_table,
    trusted_specs,
)
from cardgym.arguments import (
    HelpFormatter,
    UsageError,
    add_progress_argument,
    game_count,
    game_name,
    non_negative_int,
    positive_int,
    worker_count,
)
from cardgym.files import OutputError, check_output_file, check_output_folder
from cardgym.progress import Progress
from cardgym.registration import GAMES, find_game, short_name

__all__ = ["COMMANDS", "Command", "build_parser", "main"]


def _configure_bench(parser: argparse.ArgumentParser) -> None:
    from benchmarks import throughput, vector_throughput

    throughput.add_arguments(parser)
    vector_throughput.add_arguments(parser)


def _run_bench(args: argparse.Namespace, out: TextIO) -> int:
    from benchmarks import throughput, vector_throughput

    if args.vector:
        return vector_throughput.run_namespace(args, out)
    if args.memory or args.train or args.batch_sizes != list(vector_throughput.BATCH_SIZES):
        raise UsageError("--batch-sizes, --memory and --train go with --vector")
    return throughput.run_namespace(args, out)


# ---------------------------------------------------------------- eval, play


def _configure_eval(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument("--vector", action="store_true",
                        help="play every game at once on the game's batched engine "
                             "(cardgym.vector), in this process: agents that act from "
                             "observations only (random, heuristic, baseline, model:PATH); "
                             "other deals than the AEC env's for the same seed")


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


def _run_eval(args: argparse.Namespace, out: TextIO) -> int:
    from agents.evaluate import agent_count_rule, evaluate, format_eval

    default = len(args.agents) if len(args.agents) > 2 else min(find_game(args.game).player_counts)
    game, count, options = checked_table(args, args.players, default)
    if len(args.agents) not in (2, count):
        raise UsageError(f"--agents: {agent_count_rule(count)}, not {len(args.agents)}")
    args.agents = trusted_specs(args.agents, getattr(args, "trust_pickle", False))
    check_specs(args.agents, game, count, options)
    if args.record is not None:
        output_path(args.record, "--record", args.overwrite, folder=True)
    if args.vector:
        from agents.evaluate.batched import can_batch

        if not can_batch(game, args.agents, 1, args.record):
            raise UsageError(
                f"--vector plays {game.title} on its batched engine, which needs one, agents "
                "that act from observations (not ismcts) and no --record"
                + ("" if game.batched is not None else f": {game.title} has none yet"))
    print(f"eval: {short_name(game.env_id)}, {count} players, {args.games} games, "
          f"{args.workers} worker(s) ...", file=sys.stderr)
    with Progress(args.games, "eval", "game", enabled=not args.no_progress) as bar:
        result = evaluate(game, count, args.agents, games=args.games, seed=args.seed,
                          workers=args.workers, options=options, progress=bar.update,
                          record_dir=args.record, vector=args.vector)
    print(format_eval(result), file=out)
    if args.record is not None:
        print(f"wrote {args.games * result.match_length} game records to {args.record}",
              file=out)
    return 0


def _configure_play(parser: argparse.ArgumentParser) -> None:
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


def _run_play(args: argparse.Namespace, out: TextIO) -> int:
    from agents.play import opponent_count_rule, play

    scenario = None
    if args.position is not None:
        game, count, options, scenario = _position_table(args)
    else:
        default = (len(args.opponents) + 1 if len(args.opponents) > 1
                   else min(find_game(args.game).player_counts))
        game, count, options = checked_table(args, args.players, default)
    if args.seat >= count:
        raise UsageError(f"--seat: {args.seat} is out of range; seats are 0..{count - 1}")
    if len(args.opponents) not in (1, count - 1):
        raise UsageError(f"--opponents: {opponent_count_rule(count)}, not "
                         f"{len(args.opponents)}")
    args.opponents = trusted_specs(args.opponents, getattr(args, "trust_pickle", False))
    check_specs(args.opponents, game, count, options)
    if args.record is not None:
        output_path(args.record, "--record", args.overwrite)
    seed = args.seed
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    return play(game, count, args.seat, args.opponents, seed=seed, options=options,
                input_stream=sys.stdin, output=out, scenario=scenario, record=args.record,
                ask_always=args.ask_always)


def _position_table(args: argparse.Namespace) -> tuple[Any, int, dict[str, Any], Any]:
    """The game, table size, options and scenario of ``--position``'s file.

    Raises:
        UsageError: the file does not read, is of another game, or ``--players`` or
            ``--option`` disagree with it.
    """
    from cardgym.documents import check_header, read_document
    from cardgym.errors import DocumentError
    from cardgym.positions import FORMAT, FORMAT_VERSION

    try:
        document = read_document(args.position, "position")
        game, count, options = check_header(document, FORMAT, FORMAT_VERSION)
    except DocumentError as error:
        raise UsageError(f"--position: {error}") from None
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
    return game, count, options, document["scenario"]


# -------------------------------------------------------------------- replay


def _configure_replay(parser: argparse.ArgumentParser) -> None:
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


def _run_replay(args: argparse.Namespace, out: TextIO) -> int:
    from cardgym.documents import write_document
    from cardgym.errors import DocumentError
    from cardgym.records import replay
    from cardgym.replay import frame, position_document, run

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
    return run(replayed, sys.stdin, out, args.seat, args.step)


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
    from pathlib import Path

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


# ---------------------------------------------------------------------- docs


def _configure_docs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=game_name, metavar="GAME",
                        help="game id or short name: "
                             + ", ".join(short_name(g.env_id) for g in GAMES))


def _run_docs(args: argparse.Namespace, out: TextIO) -> int:
    from cardgym.docs import doc_page

    print(doc_page(args.game), file=out)
    return 0


# ------------------------------------------------------------------- parsing


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """A command function imported on first call, so that ``cardgym --help`` stays light."""

    def call(*args: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(module), name)(*args)

    call.__name__ = name
    return call


@dataclass(frozen=True)
class Command:
    """One subcommand.

    Attributes:
        name: the word after ``cardgym``.
        help: one line for ``cardgym --help``.
        description: the paragraph at the top of ``cardgym NAME --help``.
        configure: adds the subcommand's options to its parser.
        run: runs it from the parsed options, writing results to the stream; returns
            the exit status. Raises :class:`UsageError` for bad argument combinations.
    """

    name: str
    help: str
    description: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]


COMMANDS: tuple[Command, ...] = (
    Command(
        "demo",
        "train a small MaskablePPO model on Power Hungry Pets and evaluate it",
        "Train MaskablePPO by self-play on two-player Power Hungry Pets for a short budget, "
        "then evaluate the model against the random and the heuristic agent (and the "
        "heuristic against random) and print the table. Needs the train extra.",
        _lazy("agents.commands", "configure_demo"),
        _lazy("agents.commands", "run_demo"),
    ),
    Command(
        "train",
        "train MaskablePPO by self-play on a game, or PPO on Ray RLlib (--backend rllib)",
        "Train MaskablePPO (sb3-contrib) on one seat of a game against an opponent pool "
        "(random, heuristic, saved models, and 'self': frozen checkpoints of the learner), "
        "with a progress bar, TensorBoard logs, periodic checkpoints and evaluation. "
        "Writes OUTPUT/GAME-Np-seedS/model.safetensors (the policy file), model.zip and "
        "the model card model.json. With "
        "--backend rllib, train PPO on Ray RLlib instead (every seat, env runners in "
        "parallel, locally or on the cluster RAY_ADDRESS names; needs the rllib extra).",
        _lazy("agents.commands", "configure_train"),
        _lazy("agents.commands", "run_train"),
    ),
    Command(
        "exploit",
        "how exploitable an agent is: the win rate of a best response trained against it",
        "Freeze an agent in every other seat, train a MaskablePPO best response against it "
        "for a stated budget (on the batched engine when it can be), play the response "
        "against it and print its win rate with the 95% Wilson interval; writes the "
        "response and exploit.json under OUTPUT. Needs the train extra.",
        _lazy("agents.commands", "configure_exploit"),
        _lazy("agents.commands", "run_exploit"),
    ),
    Command(
        "convert-model",
        "write the safe policy file (model.safetensors) of an SB3 model.zip",
        "Write the cardgym policy file of an SB3 MaskablePPO zip beside it (x.zip -> "
        "x.safetensors, and the network's description into the card x.json): tensors and "
        "JSON only, which model:PATH and baseline load without running any code. Reading "
        "the zip unpickles it, which runs any code it carries: pass --trust-pickle only for "
        "a file you trust. Needs the train extra.",
        _lazy("agents.commands", "configure_convert"),
        _lazy("agents.commands", "run_convert"),
    ),
    Command(
        "tournament",
        "seeded tournament of random agents on every game and player count",
        "Play a short seeded tournament of uniformly random legal agents on each registered "
        "game at each of its player counts, and print games played, mean steps per game, "
        "win share per seat and steps per second.",
        _lazy("cardgym_cli.tournament", "configure"),
        _lazy("cardgym_cli.tournament", "run"),
    ),
    Command(
        "arena",
        "seeded round-robin of agents: win rates with 95 percent intervals, OpenSkill ratings",
        "Play seeded round-robin tournaments among agents (random, heuristic, the shipped "
        "baseline models, model:PATH, ismcts) on every game at 2 and 4 players (2 and 5 for "
        "karel_kakelaar), seats rotated, and print standings (win rates with 95% Wilson "
        "intervals, OpenSkill ratings mu +- sigma) and head-to-head tables; optionally write "
        "them as Markdown and CSV, into the model cards and into README.md.",
        _lazy("benchmarks.arena", "configure"),
        _lazy("benchmarks.arena", "run"),
    ),
    Command(
        "bench",
        "throughput benchmark (benchmarks/throughput.py) beside PettingZoo's leduc_holdem_v4",
        "Measure steps per second of every registered environment under uniformly random "
        "legal play: env(), raw_env() and raw_env() in PettingZoo's standard wrapper chain, "
        "beside pettingzoo.classic.leduc_holdem_v4 when it is installed.",
        _configure_bench,
        _run_bench,
    ),
    Command(
        "eval",
        "win rates of agents against each other, with 95 percent confidence intervals",
        "Play seeded games of one game with the given agents, rotating seats game by game, "
        "and print each agent's win rate (match wins for Power Hungry Pets, with rounds won) "
        "with its 95% Wilson interval, and the win share per seat. Games are spread over "
        "worker processes; the result depends only on the seed.",
        _configure_eval,
        _run_eval,
    ),
    Command(
        "serve",
        "play and watch games in the browser: a table server with replays",
        "Serve the browser table: open a table of any game with a person or an agent at "
        "every seat (a link per person's seat, a spectator's link), watch bots play, and "
        "replay any game record move by move from any seat. Finished games' records go to "
        "--records. Listens on 127.0.0.1 (this machine only) unless --host says otherwise. "
        "Needs the web extra.",
        _lazy("cardgym_web.command", "configure"),
        _lazy("cardgym_web.command", "run"),
    ),
    Command(
        "docs",
        "print a game's documentation page (arguments, rules, observations, actions)",
        "Print the documentation page of a game's environment: the docstring of its env "
        "module (PACKAGE.env), in Markdown: its arguments and rule options, rewards, "
        "the observation and action tables, and its version history.",
        _configure_docs,
        _run_docs,
    ),
    Command(
        "play",
        "play a game in the terminal against bots",
        "Play one game at the terminal: you see the table from your seat only and your legal "
        "actions by number and name; bots play the other seats. Answer with a number or a "
        "name; 'help' lists the choices, 'quit' ends the game.",
        _configure_play,
        _run_play,
    ),
    Command(
        "replay",
        "step through a game record, from any seat's view or the full table",
        "Replay a game record (JSON) in the terminal: the table after each move, from one "
        "seat's view or the full table, with what happened as that seat saw it. Commands: "
        "Enter or n (next), p (previous), a move number, end, seat K, table, position (print "
        "the position as JSON), q. --print, --all, --position-out and --check run without "
        "questions. A record that no longer replays (another env version, an illegal move) "
        "ends with status 1 and says where it breaks.",
        _configure_replay,
        _run_replay,
    ),
)


def build_parser() -> argparse.ArgumentParser:
    """The ``cardgym`` parser with one subparser per entry of :data:`COMMANDS`."""
    from cardgym import __version__

    parser = argparse.ArgumentParser(
        prog="cardgym",
        description="Card-game environments for reinforcement learning (PettingZoo AEC).",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                       title="commands")
    for command in COMMANDS:
        sub = subparsers.add_parser(command.name, help=command.help,
                                    description=command.description, formatter_class=HelpFormatter)
        command.configure(sub)
        sub.set_defaults(run=command.run, command_parser=sub)
    return parser


def _exit_status(stop: SystemExit) -> int:
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: the arguments after the program name; ``None`` for ``sys.argv[1:]``.

    Returns:
        The exit status: 0 on success, 2 for bad arguments, 1 when a file cannot be
        written (no room left, no permission); the message is on stderr, one line.
    """
    parser = build_parser()
    args: Any = None
    try:
        args = parser.parse_args(argv)
        return int(args.run(args, sys.stdout))
    except UsageError as error:
        try:
            args.command_parser.error(str(error))
        except SystemExit as stop:
            return _exit_status(stop)
    except OutputError as error:  # a file could not be written: no room, no permission
        print(f"cardgym: error: {error}", file=sys.stderr)
        return 1
    except SystemExit as stop:
        return _exit_status(stop)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 2
