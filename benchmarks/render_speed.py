"""What seeing a game costs: the table view and the picture per game, and the step
time with and without a picture render mode asked (side by side, in one run).

::

    python -m benchmarks.render_speed                   # every game, 2 and 4 players
    python -m benchmarks.render_speed --seconds 0.2 --output benchmarks/results

Per setting: ``env.step`` calls per second under random legal play with
``render_mode=None`` and with ``render_mode="rgb_array"`` (``render()`` never called:
nothing may be drawn, so the two should match), alternated over ``--rounds`` rounds
and reported as medians; then microseconds per ``table_view`` of the seat to act and
milliseconds per picture (``render()``, 1280x800) over positions of those games.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardgym.registration import find_game

__all__ = ["SETTINGS", "RenderRow", "format_markdown", "main", "measure"]

#: (game, players) measured by default.
SETTINGS = (("power_hungry_pets", 2), ("power_hungry_pets", 4), ("exploding_kittens", 2),
            ("exploding_kittens", 4), ("karel_kakelaar", 2), ("karel_kakelaar", 4))


@dataclass(frozen=True)
class RenderRow:
    """One setting's figures."""

    game: str
    players: int
    steps_per_second: float
    steps_per_second_rgb_array: float
    view_microseconds: float
    picture_milliseconds: float


def _steps_per_second(env: Any, seconds: float, rng: np.random.Generator) -> float:
    """Random legal play for about ``seconds``; env.step calls per second."""
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                env.step(int(rng.choice(env.legal_actions())))
            steps += 1
    return steps / (time.perf_counter() - start)


def _positions(env: Any, count: int, rng: np.random.Generator) -> list[Any]:
    """``count`` positions of random games, the seat to act's view of each (as states)."""
    states: list[Any] = []
    seed = 0
    while len(states) < count:
        env.reset(seed=seed)
        seed += 1
        while env.agents and len(states) < count:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            states.append((env.game_state.clone(), env.agent_name_mapping[agent]))
            env.step(int(rng.choice(env.legal_actions())))
    return states


def measure(game_name: str, players: int, seconds: float, rounds: int,
            pictures: int) -> RenderRow:
    """The figures of one setting."""
    game = find_game(game_name)
    plain = game.make_env(num_players=players).unwrapped
    asked = game.make_env(num_players=players, render_mode="rgb_array").unwrapped
    plain_rates, asked_rates = [], []
    for index in range(rounds):
        plain_rates.append(_steps_per_second(plain, seconds, np.random.default_rng(index)))
        asked_rates.append(_steps_per_second(asked, seconds, np.random.default_rng(index)))
    positions = _positions(asked, pictures, np.random.default_rng(0))
    start = time.perf_counter()
    for state, seat in positions:
        asked._replace_state(state)
        asked._table_view(seat)
    view_time = (time.perf_counter() - start) / len(positions)
    start = time.perf_counter()
    for state, seat in positions:
        asked._replace_state(state)
        asked.render_image(seat)
    picture_time = (time.perf_counter() - start) / len(positions)
    return RenderRow(game_name, players, statistics.median(plain_rates),
                     statistics.median(asked_rates), view_time * 1e6, picture_time * 1e3)


def format_markdown(rows: Sequence[RenderRow], seconds: float, rounds: int) -> str:
    """The table of ``rows``."""
    lines = [f"Random legal play, median of {rounds} alternated rounds of {seconds:g} s; the "
             "table view of the seat to act and its picture (1280x800) over positions of "
             "those games.", "",
             "| game | players | steps/s, no render mode | steps/s, rgb_array (no render() "
             "call) | table view (µs) | picture (ms) |", "|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row.game} | {row.players} | {row.steps_per_second:,.0f} | "
                     f"{row.steps_per_second_rgb_array:,.0f} | {row.view_microseconds:,.0f} | "
                     f"{row.picture_milliseconds:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.render_speed",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="seconds per round of play (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds (default 3)")
    parser.add_argument("--pictures", type=int, default=40,
                        help="positions drawn per setting (default 40)")
    parser.add_argument("--output", type=Path, default=None,
                        help="also write render.md into this folder")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.pictures < 1:
        parser.error("--seconds must be > 0, --rounds and --pictures >= 1")
    rows = [measure(game, players, args.seconds, args.rounds, args.pictures)
            for game, players in SETTINGS]
    text = format_markdown(rows, args.seconds, args.rounds)
    print(text)
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / "render.md").write_text("# Seeing a game: what it costs\n\n" + text)
        print(f"wrote {args.output / 'render.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
