"""Command-line arguments about agents, rule options and runs, shared by the
``cardgym`` command line, the agents' commands and the benchmark scripts."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agents.runs import check_run_name
from cardgym.arguments import UsageError
from cardgym.registration import BoundGame, find_game

if TYPE_CHECKING:
    from agents.policy import Policy

__all__ = [
    "DEFAULT_EVAL_GAMES",
    "DEFAULT_EVAL_WORKERS",
    "TRUST_HELP",
    "add_option_argument",
    "add_trust_argument",
    "check_specs",
    "checked_table",
    "run_name",
    "trusted_specs",
]


def run_name(text: str) -> str:
    """An argparse type: one folder name, so that a run stays inside ``--output``
    (:func:`agents.runs.check_run_name`)."""
    try:
        return check_run_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


DEFAULT_EVAL_GAMES = 100


DEFAULT_EVAL_WORKERS = 2


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of the game, e.g. attack_stacking=stack "
                             "(repeat for several); values are Python literals, true/false, "
                             "or plain text")


def checked_table(args: argparse.Namespace, num_players: int | None,
                  default_players: int) -> tuple[BoundGame, dict[str, Any]]:
    """The game of ``eval``/``play``/``train``/``exploit`` bound to its player count and
    rule options (``--option``), the command's one check of them; and the options as
    given (what run settings and reports record)."""
    from agents.options import bind_options, parse_options

    game = find_game(args.game)
    count = default_players if num_players is None else num_players
    try:
        options = parse_options(args.option)
        return bind_options(game, count, options), options
    except ValueError as error:
        raise UsageError(str(error)) from None


TRUST_HELP = ("let model:PATH load an SB3 zip that has no model.safetensors beside it, and "
              "rllib:PATH load an RLlib checkpoint; both are unpickled, and unpickling runs any "
              "code the file carries, so use it only for files you trust (the same as the "
              "specs model+pickle:PATH and rllib+pickle:PATH). baseline never unpickles")


def add_trust_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trust-pickle", action="store_true", help=TRUST_HELP)


def trusted_specs(specs: Sequence[str], trust: bool) -> list[str]:
    """The agent specs, with unpickling allowed for each when ``trust`` (``--trust-pickle``)."""
    if not trust:
        return list(specs)
    from agents.specs import trust_pickle

    return [trust_pickle(spec) for spec in specs]


def check_specs(specs: Sequence[str], bound: BoundGame) -> dict[str, Policy]:
    """Every agent spec built into its policy (each distinct spec once), or
    :class:`UsageError` naming the first that does not build."""
    from agents.specs import make_policy

    built: dict[str, Policy] = {}
    for spec in dict.fromkeys(specs):
        try:
            built[spec] = make_policy(spec, bound)
        except ValueError as error:  # AgentSpecError, a model that does not fit
            raise UsageError(f"agent {spec!r}: {error}") from None
        except ImportError as error:
            raise UsageError(f"agent {spec!r} is not available: {error}") from None
    return built
