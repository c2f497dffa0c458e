"""ISMCTS iterations per move on a time budget, random playouts on each engine.

Usage::

    python -m benchmarks.search_speed                               # 2 players, 128 ms
    python -m benchmarks.search_speed --env karel_kakelaar --players 2 5 --positions 50
    python -m benchmarks.search_speed --output benchmarks/results   # writes search_speed.md

For each game and table size, ``--positions`` positions are taken from seeded random
games (a random number of random moves into a game, the seat to act with a choice
to make, the state resampled for it as the harness does). At each position one
search per playout engine runs on the clock (``ismcts:time=T,engine=E``, the other
settings the defaults), the engines one after the other, so that the machine's load
falls on both alike; the table gives the mean iterations per move of each engine and
their ratio. Games without compiled rules have the Python row alone. Times depend on
the machine and its load; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.engines import Engine, engine_for
from agents.ismcts import IsmctsPolicy, parse_settings
from benchmarks.publish import publish
from cardgym.arguments import game_name, positive_float, positive_int
from cardgym.compiled import batched_problem
from cardgym.registration import find_game, games

__all__ = ["Row", "format_table", "main", "measure"]

#: The engines compared, in the order they search each position.
ENGINES = ("python", "compiled")


@dataclass(frozen=True)
class Row:
    game: str
    players: int
    budget: float
    positions: int
    #: Mean iterations per move, by engine (the engines the game has).
    iterations: dict[str, float]

    @property
    def ratio(self) -> float | None:
        """Compiled over Python, where the game has both."""
        if set(ENGINES) <= set(self.iterations):
            return self.iterations["compiled"] / self.iterations["python"]
        return None


def positions(engine: Engine, count: int, seed: int) -> list[tuple[object, int]]:
    """``count`` positions of random games, each with its seat to act (who has more
    than one legal action), resampled for that seat."""
    rng = np.random.default_rng(seed)
    found: list[tuple[object, int]] = []
    while len(found) < count:
        state = engine.new_game(rng)
        depth = int(rng.integers(0, 30))
        for _ in range(depth):
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))], rng)
        if engine.is_over(state) or len(engine.legal_actions(state)) < 2:
            continue
        seat = engine.to_act(state)
        found.append((engine.resample(state, seat, rng), seat))
    return found


def measure(game: str, players: int, budget: float = 0.128, count: int = 20,
            seed: int = 0) -> Row:
    """One row of the table."""
    entry = find_game(game)
    engine = engine_for(entry, players)
    names = [name for name in ENGINES
             if name == "python" or batched_problem(entry) is None]
    policies = {name: IsmctsPolicy(engine.bound, settings=parse_settings(
        f"time={budget},engine={name}")) for name in names}
    totals = dict.fromkeys(names, 0)
    rng = np.random.default_rng(seed)
    for policy in policies.values():  # compile and warm up before the clock counts
        state, seat = positions(engine, 1, seed + 1)[0]
        policy.act_in(state, seat, rng)
    for state, seat in positions(engine, count, seed):
        for name, policy in policies.items():
            policy.act_in(state, seat, rng)
            totals[name] += policy.last_iterations
    return Row(entry.name, players, budget, count,
               {name: totals[name] / count for name in names})


def format_table(rows: Sequence[Row]) -> str:
    lines = [
        "## ISMCTS iterations per move",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}. "
        "`python -m benchmarks.search_speed`: the default search (`ismcts:time=T`, random "
        "playouts, heuristic prior) from positions of seeded random games, each position "
        "searched by both playout engines one after the other; mean iterations per move.",
        "",
        "| game | players | budget | positions | Python engine | compiled rules | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        compiled = row.iterations.get("compiled")
        ratio = row.ratio
        lines.append(
            f"| {row.game} | {row.players} | {row.budget * 1000:g} ms | {row.positions} | "
            f"{row.iterations['python']:,.0f} | "
            f"{'-' if compiled is None else f'{compiled:,.0f}'} | "
            f"{'-' if ratio is None else f'{ratio:.2f}x'} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.search_speed",
        description="ISMCTS iterations per move on a time budget, random playouts on the "
                    "Python engine and on the compiled rules.")
    parser.add_argument("--env", nargs="+", type=game_name, default=None,
                        help="games (default: every registered game)")
    parser.add_argument("--players", nargs="+", type=positive_int, default=[2],
                        help="table sizes (default: 2)")
    parser.add_argument("--time", type=positive_float, default=0.128,
                        help="seconds per move (default: 0.128)")
    parser.add_argument("--positions", type=positive_int, default=20,
                        help="positions per game and table size (default: 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the positions")
    parser.add_argument("--output", type=Path, default=None,
                        help="folder to write search_speed.md into")
    args = parser.parse_args(argv)
    names = args.env or [entry.name for entry in games()]
    rows = []
    for name in names:
        entry = find_game(name)
        for players in args.players:
            if players not in entry.player_counts:
                continue
            row = measure(name, players, args.time, args.positions, args.seed)
            rows.append(row)
            print(format_table([row]).splitlines()[-1], file=sys.stderr, flush=True)
    publish(format_table(rows), args.output, "search_speed.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
