"""The pictures of the docs: a table of each game, the arena chart and the throughput
chart, into ``docs/images/`` (``make images``; ``make tables`` ends with it).

::

    python -m benchmarks.images                 # into docs/images/
    python -m benchmarks.images --output DIR    # somewhere else

Each table is a seeded game played by the game's heuristic at every seat up to a fixed
move, drawn from seat 0's view (``render_mode="rgb_array"``); the same seed draws the
same picture. The charts read ``benchmarks/results/arena_ratings.csv`` and
``throughput.csv`` (``make tables`` writes them), and need matplotlib (the
``notebooks`` extra).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from benchmarks.publish import read_csv
from cardgym.registration import find_game

__all__ = ["IMAGES", "TABLES", "TableShot", "draw_arena", "main", "table_picture",
           "write_images"]

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
RESULTS = ROOT / "benchmarks" / "results"
#: The arena chart's colour of each agent.
AGENT_COLOURS = {"random": "tab:gray", "heuristic": "tab:orange", "baseline": "tab:blue"}


@dataclass(frozen=True)
class TableShot:
    """A table to picture: a game, its table size and options, the seed, and how many
    moves the heuristics play before the picture."""

    game: str
    players: int
    moves: int
    seed: int = 0
    options: Mapping[str, Any] | None = None

    @property
    def file_name(self) -> str:
        return f"table-{self.game}.png"


#: The tables the README shows, one per game.
TABLES = (
    TableShot("power_hungry_pets", 4, moves=9, seed=2),
    TableShot("exploding_kittens", 4, moves=14, seed=1,
              options={"expansions": ("streaking",)}),
    TableShot("karel_kakelaar", 3, moves=16, seed=0),
)


def table_picture(shot: TableShot) -> NDArray[np.uint8]:
    """The picture of ``shot``: its game played by the heuristic at every seat for
    ``shot.moves`` moves (fewer if it ends), from seat 0's view."""
    game = find_game(shot.game)
    env = game.make_env(num_players=shot.players, render_mode="rgb_array", render_seat=0,
                        **dict(shot.options or {})).unwrapped
    env.reset(seed=shot.seed)
    if game.heuristic is None:
        raise ValueError(f"{game.title} has no heuristic to play its table picture")
    policy = game.heuristic(env.config)
    rng = np.random.default_rng(shot.seed)
    moves = 0
    while env.agents and moves < shot.moves:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        observation = env.observe(agent)
        env.step(int(policy.act(observation["observation"], observation["action_mask"], rng)))
        moves += 1
    return env.render()  # type: ignore[no-any-return]


def draw_arena(rows: Sequence[Mapping[str, str]]) -> Any:
    """The arena chart: per setting, each agent's win rate with its 95% interval beside
    the even share (a matplotlib figure)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = list(dict.fromkeys((row["game"], row["players"]) for row in rows))
    fig, axes = plt.subplots(1, len(settings), figsize=(2.1 * len(settings), 3.2),
                             sharey=True, squeeze=False)
    for ax, (game, players) in zip(axes[0], settings, strict=True):
        chosen = [row for row in rows if (row["game"], row["players"]) == (game, players)]
        chosen.sort(key=lambda row: row["agent"])
        rates = np.array([float(row["win_rate"]) for row in chosen])
        low = rates - np.array([float(row["ci_low"]) for row in chosen])
        high = np.array([float(row["ci_high"]) for row in chosen]) - rates
        x = np.arange(len(chosen))
        ax.bar(x, rates, yerr=[low, high], capsize=3,
               color=[AGENT_COLOURS.get(row["agent"], "tab:purple") for row in chosen])
        ax.axhline(1 / int(players), color="black", linestyle=":", linewidth=1)
        ax.set_xticks(x, [row["agent"] for row in chosen], rotation=35, fontsize=8)
        ax.set_title(f"{game.replace('_', ' ')}\n{players} players", fontsize=8)
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel("win share per seat-game (95% interval)", fontsize=8)
    fig.suptitle("Arena: random, heuristic and baseline at every setting "
                 "(dotted: the even share)", fontsize=9)
    fig.tight_layout()
    return fig


def _throughput_figure(rows: Sequence[Mapping[str, str]]) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from benchmarks.charts import draw_throughput, throughput_bars

    fig, ax = plt.subplots(figsize=(7, 0.25 * len(throughput_bars(rows)) + 1))
    draw_throughput(ax, rows)
    fig.tight_layout()
    return fig


def _ladder_figure(rows: Sequence[Mapping[str, str]]) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from benchmarks.charts import draw_ladder, ladder_matrices

    # One column per game, one row per table size of a game (two players first).
    matrices = ladder_matrices(rows)
    games = list(dict.fromkeys(matrix.game for matrix in matrices))
    places = []
    for matrix in matrices:
        sizes = sorted(m.players for m in matrices if m.game == matrix.game)
        places.append((sizes.index(matrix.players), games.index(matrix.game)))
    height = max(row for row, _ in places) + 1
    fig, axes = plt.subplots(height, len(games), figsize=(max(3.6 * len(games), 5.0),
                                                          4.2 * height), squeeze=False)
    draw_ladder([axes[row][column] for row, column in places], rows)
    for row in range(height):
        for column in range(len(games)):
            if (row, column) not in places:
                axes[row][column].set_axis_off()
    fig.suptitle("Ladder: win rate of the row rung against the column rung\n"
                 "(blue above the even share, red below)", fontsize=9)
    fig.tight_layout()
    return fig


def write_images(output: Path = IMAGES, results: Path = RESULTS,
                 tables: Sequence[TableShot] = TABLES) -> list[Path]:
    """Write the table pictures and the charts (the arena's, the throughput's, and the
    ladder's when ``results`` holds ``ladder.csv``) into ``output``; returns the files."""
    from PIL import Image

    output.mkdir(parents=True, exist_ok=True)
    written = []
    for shot in tables:
        path = output / shot.file_name
        Image.fromarray(table_picture(shot)).save(path, optimize=True)
        written.append(path)
    charts = [("arena.png", draw_arena(read_csv(results / "arena_ratings.csv"))),
              ("throughput.png", _throughput_figure(read_csv(results / "throughput.csv")))]
    if (results / "ladder.csv").is_file():
        charts.append(("ladder.png", _ladder_figure(read_csv(results / "ladder.csv"))))
    for name, figure in charts:
        figure.savefig(output / name, dpi=110)
        written.append(output / name)
        import matplotlib.pyplot as plt

        plt.close(figure)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.images", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=IMAGES,
                        help="folder for the pictures (default docs/images)")
    parser.add_argument("--results", type=Path, default=RESULTS,
                        help="folder of arena_ratings.csv and throughput.csv "
                             "(default benchmarks/results)")
    args = parser.parse_args(argv)
    for path in write_images(args.output, args.results):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
