"""The charts of the benchmarks notebook, drawn from the benchmark's rows.

The notebook only calls these (no logic lives only in a notebook), so the tests can
check what a chart draws against the data: which group, and so which colour, each
throughput row gets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.throughput import COMPARISONS, ENV, LEDUC, OPTION_ROWS
from cardgym.registration import games, library_games, short_name

__all__ = ["CARDGYM", "GROUP_COLOURS", "OTHER_GAMES", "PETTINGZOO", "LadderMatrix",
           "ThroughputBar", "draw_ladder", "draw_throughput", "env_group", "ladder_matrices",
           "throughput_bars"]

CARDGYM = "cardgym"
OTHER_GAMES = "other registered games"
PETTINGZOO = "PettingZoo classic"
GROUP_COLOURS: dict[str, str] = {CARDGYM: "tab:blue", OTHER_GAMES: "tab:green",
                                 PETTINGZOO: "tab:orange"}


def env_group(env_name: str) -> str:
    """The group of a throughput row by its ``env`` name: one of cardgym's own games
    (:func:`~cardgym.registration.library_games`: its short name, or the label of one
    of its :data:`~benchmarks.throughput.OPTION_ROWS` such as
    ``exploding_kittens+streaking``), a game registered from another distribution
    (the example game of ``examples/``), or one of PettingZoo's classic environments.

    Raises:
        ValueError: a name that is none of these.
    """
    own = {short_name(game.env_id) for game in library_games()}
    if env_name in own | {label for name, label, _ in OPTION_ROWS if name in own}:
        return CARDGYM
    if env_name in {short_name(game.env_id) for game in games()}:
        return OTHER_GAMES
    if env_name in COMPARISONS or env_name == LEDUC:
        return PETTINGZOO
    raise ValueError(f"throughput row {env_name!r} is neither a registered game nor one of "
                     f"PettingZoo's classic environments")


@dataclass(frozen=True)
class ThroughputBar:
    """One bar of the throughput chart."""

    label: str
    steps_per_second: float
    group: str

    @property
    def colour(self) -> str:
        return GROUP_COLOURS[self.group]


def throughput_bars(rows: Sequence[Mapping[str, Any]]) -> list[ThroughputBar]:
    """The bars of the throughput chart: the ``env()`` rows of
    :func:`benchmarks.throughput.table_rows` (or of ``throughput.csv``), in order."""
    return [ThroughputBar(f"{row['env']} {row['players']}p", float(row["steps_per_second"]),
                          env_group(str(row["env"])))
            for row in rows if row["variant"] == ENV]


def draw_throughput(ax: Any, rows: Sequence[Mapping[str, Any]]) -> list[ThroughputBar]:
    """Draw the throughput chart on a matplotlib ``Axes``; returns its bars."""
    bars = throughput_bars(rows)
    ax.barh([bar.label for bar in bars], [bar.steps_per_second for bar in bars],
            color=[bar.colour for bar in bars])
    ax.invert_yaxis()
    ax.set_xlabel("env.step calls per second (env(), random legal play)")
    shown = [f"{group} ({colour.removeprefix('tab:')})" for group, colour in GROUP_COLOURS.items()
             if any(bar.group == group for bar in bars)]
    ax.set_title(" and ".join([", ".join(shown[:-1]), *shown[-1:]] if len(shown) > 2 else shown)
                 + " card environments", fontsize=9)
    return bars


@dataclass(frozen=True)
class LadderMatrix:
    """The head-to-head matrix of one ladder setting: ``rates[i][j]`` is rung ``i``'s
    win rate in one seat against rung ``j`` (``nan`` on the diagonal)."""

    game: str
    players: int
    names: list[str]
    rates: list[list[float]]

    @property
    def even(self) -> float:
        return 1 / self.players


def ladder_matrices(rows: Sequence[Mapping[str, Any]]) -> list[LadderMatrix]:
    """One matrix per setting of ``ladder.csv``'s rows (:func:`benchmarks.ladder.ladder_rows`),
    rungs in ladder order, settings in the order of the rows."""
    out = []
    for game, players in dict.fromkeys((str(r["game"]), int(r["players"])) for r in rows):
        chosen = [r for r in rows if (str(r["game"]), int(r["players"])) == (game, players)]
        names = {int(r["rung"]): str(r["agent"]) for r in chosen}
        count = max(names)
        rates = [[float("nan")] * count for _ in range(count)]
        for r in chosen:
            rates[int(r["rung"]) - 1][int(r["opponent_rung"]) - 1] = float(r["win_rate"])
        out.append(LadderMatrix(game, players, [names[k] for k in range(1, count + 1)], rates))
    return out


def draw_ladder(axes: Sequence[Any], rows: Sequence[Mapping[str, Any]]) -> list[LadderMatrix]:
    """Draw each setting's matrix on its matplotlib ``Axes`` (as many as settings): the
    row rung's win rate against the column rung, blue above the even share and red
    below; returns the matrices."""
    matrices = ladder_matrices(rows)
    for ax, matrix in zip(axes, matrices, strict=True):
        ax.imshow(matrix.rates, cmap="RdBu", vmin=matrix.even - 0.5, vmax=matrix.even + 0.5)
        ticks = range(len(matrix.names))
        ax.set_xticks(ticks, matrix.names, rotation=40, ha="right", fontsize=7)
        ax.set_yticks(ticks, matrix.names, fontsize=7)
        for i, row in enumerate(matrix.rates):
            for j, rate in enumerate(row):
                if i != j:
                    ax.text(j, i, f"{rate:.2f}", ha="center", va="center", fontsize=6)
        ax.set_title(f"{matrix.game.replace('_', ' ')}, {matrix.players} players", fontsize=8)
    return matrices
