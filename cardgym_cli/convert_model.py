"""``cardgym convert-model``: the safe policy file of an SB3 zip (:mod:`agents.policy_file`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from agents.policy_file import convert_model
from cardgym.arguments import UsageError, game_name, positive_int
from cardgym_cli.train import require_train_extra

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, metavar="PATH",
                        help="an SB3 MaskablePPO model.zip, or a run folder holding one")
    parser.add_argument("--trust-pickle", action="store_true",
                        help="unpickle the zip to read it; unpickling runs any code the file "
                             "carries, so only for a file you trust (required)")
    parser.add_argument("--game", type=game_name, default=None, metavar="GAME",
                        help="the game the model was trained on, when it has no card "
                             "model.json")
    parser.add_argument("--players", type=positive_int, default=None, metavar="N",
                        help="the player count it was trained for, when it has no card")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace a policy file that is already there")


def run(args: argparse.Namespace, out: TextIO) -> int:
    require_train_extra()
    try:
        path = convert_model(args.path, trust_pickle=args.trust_pickle, game=args.game,
                             num_players=args.players, overwrite=args.overwrite)
    except ValueError as error:  # ModelError, PickleRefusedError: nothing was written
        raise UsageError(str(error)) from None
    print(f"wrote {path} (and the policy section of {path.with_suffix('.json')})", file=out)
    return 0
