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
    cardgym soup runs/soup runs/fine-tune-a runs/fine-tune-b   # average two networks
    cardgym docs exploding_kittens       # the env's documentation page
    python -m cardgym_cli --help

Each subcommand is one :class:`Command` in :data:`COMMANDS`: a name, a one-line help,
a description and the module that writes it, one module per command
(``cardgym_cli/eval.py`` for ``cardgym eval``; ``arena`` and ``serve`` are written by
:mod:`benchmarks.arena` and :mod:`cardgym_web.command`): its ``configure(parser)`` adds
its options, its ``run(args, out)`` runs it and returns the exit status. A new
subcommand is one more module and one more entry; heavy imports (torch, Ray) stay
inside the functions, so that ``cardgym --help`` stays fast.

Bad arguments (an unknown game, a player count no selected game supports, a size that
is not positive, a number that is not finite or out of its range, a run name that
would leave ``--output``, a run folder that already holds a model without
``--overwrite``) end with exit status 2 and an argparse-style message on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from cardgym.arguments import HelpFormatter, UsageError
from cardgym.files import OutputError

__all__ = ["COMMANDS", "Command", "build_parser", "main"]

@dataclass(frozen=True)
class Command:
    """One subcommand, written in its own module.

    Attributes:
        name: the word after ``cardgym``.
        help: one line for ``cardgym --help``.
        description: the paragraph at the top of ``cardgym NAME --help``.
        module: the module that writes it: ``configure(parser)`` adds its options,
            ``run(args, out)`` runs it from the parsed options, writing results to
            ``out``, and returns the exit status (raising :class:`UsageError` for bad
            argument combinations). Imported when the parser is built; heavy imports
            (torch, Ray) stay inside its functions.
    """

    name: str
    help: str
    description: str
    module: str

    def configure(self, parser: argparse.ArgumentParser) -> None:
        """Add the subcommand's options to its parser."""
        self._module().configure(parser)

    def run(self, args: argparse.Namespace, out: TextIO) -> int:
        """Run the subcommand; its exit status."""
        return int(self._module().run(args, out))

    def _module(self) -> Any:
        return importlib.import_module(self.module)


COMMANDS: tuple[Command, ...] = (
    Command(
        "demo",
        "train a small MaskablePPO model on Power Hungry Pets and evaluate it",
        "Train MaskablePPO by self-play on two-player Power Hungry Pets for a short budget, "
        "then evaluate the model against the random and the heuristic agent (and the "
        "heuristic against random) and print the table. Needs the train extra.",
        "cardgym_cli.demo",
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
        "cardgym_cli.train",
    ),
    Command(
        "exploit",
        "how exploitable an agent is: the win rate of a best response trained against it",
        "Freeze an agent in every other seat, train a MaskablePPO best response against it "
        "for a stated budget (on the batched engine when it can be), play the response "
        "against it and print its win rate with the 95% Wilson interval; writes the "
        "response and exploit.json under OUTPUT. Needs the train extra.",
        "cardgym_cli.exploit",
    ),
    Command(
        "expert",
        "expert iteration: a network trained from the search it guides",
        "Expert iteration from a MaskablePPO network: the network-guided ISMCTS plays games "
        "against a league, the network learns the search's choices (its root visit shares) "
        "and the results, and guides the next iteration's search. Each iteration measures "
        "the new network against the heuristic; the run folder (samples, a network per "
        "iteration, curve.csv, run.json) resumes where a stopped run ended. Needs the train "
        "extra.",
        "cardgym_cli.expert",
    ),
    Command(
        "convert-model",
        "write the safe policy file (model.safetensors) of an SB3 model.zip",
        "Write the cardgym policy file of an SB3 MaskablePPO zip beside it (x.zip -> "
        "x.safetensors, and the network's description into the card x.json): tensors and "
        "JSON only, which model:PATH and baseline load without running any code. Reading "
        "the zip unpickles it, which runs any code it carries: pass --trust-pickle only for "
        "a file you trust. Needs the train extra.",
        "cardgym_cli.convert_model",
    ),
    Command(
        "soup",
        "a policy file whose weights are the mean of other policy files' weights",
        "Average the weights of policy files of the same network (same game, player count, "
        "rule options and layers), equally or by --weights, into OUT/model.safetensors with "
        "its card, which names every ingredient by path and sha256; it plays as model:OUT. "
        "Networks fine-tuned from one parent average well (a model soup); networks trained "
        "apart do not. Nothing is unpickled. Needs the train extra.",
        "cardgym_cli.soup",
    ),
    Command(
        "tournament",
        "seeded tournament of random agents on every game and player count",
        "Play a short seeded tournament of uniformly random legal agents on each registered "
        "game at each of its player counts, and print games played, mean steps per game, "
        "win share per seat and steps per second.",
        "cardgym_cli.tournament",
    ),
    Command(
        "arena",
        "seeded round-robin of agents: win rates with 95 percent intervals, OpenSkill ratings",
        "Play seeded round-robin tournaments among agents (random, heuristic, the shipped "
        "baseline models, model:PATH, ismcts) on every game at 2 and 4 players (2 and 5 for "
        "karel_kakelaar), seats rotated, and print standings (win rates with 95% Wilson "
        "intervals, OpenSkill ratings mu +- sigma) and head-to-head tables; optionally write "
        "them as Markdown and CSV, into the model cards and into README.md.",
        "benchmarks.arena",
    ),
    Command(
        "bench",
        "throughput benchmark (benchmarks/throughput.py) beside PettingZoo's leduc_holdem_v4",
        "Measure steps per second of every registered environment under uniformly random "
        "legal play: env(), raw_env() and raw_env() in PettingZoo's standard wrapper chain, "
        "beside pettingzoo.classic.leduc_holdem_v4 when it is installed.",
        "cardgym_cli.bench",
    ),
    Command(
        "eval",
        "win rates of agents against each other, with 95 percent confidence intervals",
        "Play seeded games of one game with the given agents, rotating seats game by game, "
        "and print each agent's win rate (match wins for Power Hungry Pets, with rounds won) "
        "with its 95% Wilson interval, and the win share per seat. Games are spread over "
        "worker processes; the result depends only on the seed.",
        "cardgym_cli.eval",
    ),
    Command(
        "serve",
        "play and watch games in the browser: a table server with replays",
        "Serve the browser table: open a table of any game with a person or an agent at "
        "every seat (a link per person's seat, a spectator's link), watch bots play, and "
        "replay any game record move by move from any seat. Finished games' records go to "
        "--records. Listens on 127.0.0.1 (this machine only) unless --host says otherwise. "
        "Needs the web extra.",
        "cardgym_web.command",
    ),
    Command(
        "docs",
        "print a game's documentation page (arguments, rules, observations, actions)",
        "Print the documentation page of a game's environment: the docstring of its env "
        "module (PACKAGE.env), in Markdown: its arguments and rule options, rewards, "
        "the observation and action tables, and its version history.",
        "cardgym_cli.docs",
    ),
    Command(
        "play",
        "play a game in the terminal against bots",
        "Play one game at the terminal: you see the table from your seat only and your legal "
        "actions by number and name; bots play the other seats. Answer with a number or a "
        "name; 'help' lists the choices, 'quit' ends the game.",
        "cardgym_cli.play",
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
        "cardgym_cli.replay",
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
