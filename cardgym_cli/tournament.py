"""``cardgym tournament``: a seeded tournament of random agents on every game.

Each (game, player count) table plays its games with uniformly random legal agents
through ``env()``, seeded from the run's seed and the table alone, and the table of
win shares per seat and speed is printed. A quick check that every environment
plays whole games, and a first look at seat advantages.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from cardgym.arguments import (
    game_count,
    game_name,
    non_negative_int,
    positive_int,
    select_settings,
    setting_seed,
)
from cardgym.registration import Game, short_name

DEFAULT_GAMES = 300


@dataclass
class TableResult:
    """Outcome of a run of random-agent games at one table.

    Attributes:
        game: the registered game.
        num_players: seats at the table.
        games: games played.
        steps: ``env.step`` calls over all games.
        wins: games won per seat (a seat wins when its return is positive).
        seconds: wall time of the games, resets and choices included.
    """

    game: Game
    num_players: int
    games: int
    steps: int
    wins: list[int]
    seconds: float

    @property
    def steps_per_game(self) -> float:
        """Mean ``env.step`` calls per game."""
        return self.steps / self.games

    @property
    def steps_per_second(self) -> float:
        """Steps per second of wall time."""
        return self.steps / self.seconds if self.seconds > 0 else math.inf


def play_table(game: Game, num_players: int, num_games: int, seed: int) -> TableResult:
    """Play ``num_games`` games of uniformly random legal play through ``env()``.

    The environment and the agents' generator are seeded from ``seed`` once; later
    games continue both generators, so the whole run is reproducible from ``seed``.
    """
    import pettingzoo

    from benchmarks.throughput import RandomLegalChooser

    env = pettingzoo.make("aec", game.env_id, num_players=num_players)
    env_seed, agent_seed = np.random.SeedSequence(seed).generate_state(2)
    choose = RandomLegalChooser(np.random.default_rng(int(agent_seed)))
    seat_of = {agent: seat for seat, agent in enumerate(env.possible_agents)}
    wins = [0] * num_players
    steps = 0
    start = time.perf_counter()
    env.reset(seed=int(env_seed))
    for played in range(num_games):
        if played:
            env.reset()
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            env.step(None if terminated or truncated else choose(obs["action_mask"]))
            steps += 1
        for agent, total in returns.items():
            if total > 0:
                wins[seat_of[agent]] += 1
    seconds = time.perf_counter() - start
    return TableResult(game, num_players, num_games, steps, wins, seconds)


def format_tables(results: Sequence[TableResult]) -> str:
    """The demo table in Markdown: one row per table, win share per seat, speed last."""
    seats = max((r.num_players for r in results), default=0)
    header = ["game", "players", "games", "steps/game"]
    header += [f"seat {seat}" for seat in range(seats)] + ["steps/s"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in results:
        shares = [f"{w / r.games:.3f}" for w in r.wins] + ["-"] * (seats - r.num_players)
        row = [short_name(r.game.env_id), str(r.num_players), str(r.games),
               f"{r.steps_per_game:.1f}", *shares, f"{r.steps_per_second:,.0f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=game_count, default=DEFAULT_GAMES, metavar="N",
                        help="games per table (game and player count)")
    parser.add_argument("--env", nargs="+", type=game_name, default=[], metavar="GAME",
                        help="only these games (id or short name); default every registered game")
    parser.add_argument("--players", nargs="+", type=positive_int, default=[], metavar="N",
                        help="only these player counts; default every count each game supports")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the whole run")


def run(args: argparse.Namespace, out: TextIO) -> int:
    settings = select_settings(args.env, args.players)
    print(f"Random agents: {args.games} games per table, seed {args.seed}. A seat wins a game "
          "when its return is positive; a game may have several winners.\n", file=out)
    results = []
    for game, count in settings:
        print(f"tournament: {short_name(game.env_id)}, {count} players ...", file=sys.stderr)
        results.append(play_table(game, count, args.games, setting_seed(args.seed, game, count)))
    print(format_tables(results), file=out)
    return 0
