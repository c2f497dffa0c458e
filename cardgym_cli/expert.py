"""``cardgym expert``: expert iteration, a network trained from the search it guides
(:mod:`agents.expert`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from agents.arguments import add_option_argument
from agents.options import parse_options
from cardgym.arguments import (
    UsageError,
    game_count,
    game_name,
    non_negative_int,
    positive_float,
    positive_int,
    worker_count,
)
from cardgym.registration import GAMES, find_game, short_name
from cardgym_cli.train import require_train_extra

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    from agents.expert import ExpertSettings

    defaults = ExpertSettings(game="")
    parser.add_argument("game", type=game_name, metavar="GAME",
                        help="game id or short name: "
                             + ", ".join(short_name(g.env_id) for g in GAMES))
    parser.add_argument("--players", type=positive_int, default=defaults.num_players,
                        metavar="N", help="seats at the table")
    parser.add_argument("--start", default=defaults.start_model, metavar="MODEL",
                        help="the network of the first iteration: baseline (the shipped one "
                             "at this table size) or the path of a policy file or run folder")
    parser.add_argument("--search", default=defaults.search, metavar="SETTINGS",
                        help="the search's ismcts settings (without model=: the run's own "
                             "network guides it)")
    parser.add_argument("--opponents", nargs="+", default=list(defaults.opponents),
                        metavar="SPEC",
                        help="the league the search plays: agent specs, and 'start' and "
                             "'latest' for the start network and the one guiding the search")
    parser.add_argument("--iterations", type=positive_int, default=defaults.iterations,
                        metavar="K", help="iterations (more than a stopped run had: it goes on)")
    parser.add_argument("--games", type=game_count, default=defaults.games, metavar="G",
                        help="games the search plays per iteration")
    parser.add_argument("--window", type=positive_int, default=defaults.window, metavar="W",
                        help="the network learns from the samples of the last W iterations")
    parser.add_argument("--epochs", type=positive_int, default=defaults.epochs)
    parser.add_argument("--batch-size", type=positive_int, default=defaults.batch_size)
    parser.add_argument("--learning-rate", type=positive_float, default=defaults.learning_rate)
    parser.add_argument("--value-weight", type=float, default=defaults.value_weight)
    parser.add_argument("--temperature", type=float, default=defaults.temperature,
                        help="the policy learns the visit shares raised to 1/T; 0: the "
                             "search's move alone, 1: the shares themselves")
    parser.add_argument("--eval-games", type=game_count, default=defaults.eval_games,
                        metavar="E", help="games of each new network against the heuristic")
    parser.add_argument("--seed", type=non_negative_int, default=defaults.seed)
    parser.add_argument("--workers", type=worker_count, default=2, metavar="W",
                        help="processes for the games (the results do not depend on it)")
    parser.add_argument("--output", type=Path, default=Path("runs"), metavar="DIR",
                        help="the run goes to DIR/expert-GAME-Np-seedS/ (resumed when it "
                             "is there with the same settings)")
    add_option_argument(parser)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from agents.expert import ExpertSettings, RunError, run_expert

    require_train_extra()
    game = find_game(args.game)
    try:
        settings = ExpertSettings(
            game=game.env_id, num_players=args.players, options=parse_options(args.option),
            start_model=args.start, search=args.search, opponents=tuple(args.opponents),
            iterations=args.iterations, games=args.games, window=args.window,
            epochs=args.epochs, batch_size=args.batch_size, learning_rate=args.learning_rate,
            value_weight=args.value_weight, temperature=args.temperature,
            eval_games=args.eval_games, seed=args.seed)
    except (RunError, ValueError) as error:
        raise UsageError(str(error)) from None
    folder = args.output / f"expert-{game.name}-{args.players}p-seed{args.seed}"

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    try:
        curve = run_expert(settings, folder, args.workers, report=say)
    except (RunError, ValueError) as error:
        raise UsageError(str(error)) from None
    last = curve[-1]
    say(f"wrote {folder}/model.safetensors (iteration {last['iteration']}: "
        f"{last['eval_win_rate']:.3f} against the heuristic over {last['eval_games']} games); "
        f"the curve is {folder}/curve.csv")
    return 0
