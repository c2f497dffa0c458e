"""What the benchmarks notebook's throughput chart draws, checked against the data:
every row of cardgym's own games blue, every PettingZoo row orange (issue 17, section 4),
and a game registered from another distribution, such as the example, in a group of its
own (issue 35)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

from benchmarks.charts import (
    CARDGYM,
    OTHER_GAMES,
    PETTINGZOO,
    draw_throughput,
    env_group,
    throughput_bars,
)
from benchmarks.throughput import ENV
from cardgym.registration import GAMES, library_games, short_name

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "throughput.csv"


def rows() -> list[dict[str, str]]:
    with RESULTS.open() as handle:
        return list(csv.DictReader(handle))


def expected_group(env_name: str) -> str:
    """From the data alone: a row is PettingZoo's when PettingZoo ships a classic env
    of that name, and cardgym's when its name starts with a registered game."""
    if importlib.util.find_spec(f"pettingzoo.classic.{env_name}") is not None:
        return PETTINGZOO
    assert env_name.split("+")[0] in {short_name(game.env_id) for game in GAMES}, env_name
    own = {short_name(game.env_id) for game in library_games()}
    return CARDGYM if env_name.split("+")[0] in own else OTHER_GAMES


def test_every_row_of_the_published_table_is_in_its_own_group() -> None:
    pytest.importorskip("pettingzoo.classic")
    data = [row for row in rows() if row["variant"] == ENV]
    bars = throughput_bars(data)
    assert [bar.label for bar in bars] == [f"{row['env']} {row['players']}p" for row in data]
    assert [bar.group for bar in bars] == [expected_group(row["env"]) for row in data]
    streaking = [bar for bar in bars if bar.label.startswith("exploding_kittens+streaking")]
    assert streaking and {bar.group for bar in streaking} == {CARDGYM}
    assert {bar.group for bar in bars} == {CARDGYM, PETTINGZOO}


def test_the_chart_colours_each_bar_by_its_rows_group() -> None:
    pytest.importorskip("pettingzoo.classic")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    data = rows()
    figure, ax = plt.subplots()
    try:
        draw_throughput(ax, data)
        drawn = [(label.get_text(), patch.get_facecolor())
                 for label, patch in zip(ax.get_yticklabels(), ax.patches, strict=True)]
        title = ax.get_title()
    finally:
        plt.close(figure)
    colour = {CARDGYM: to_rgba("tab:blue"), PETTINGZOO: to_rgba("tab:orange")}
    expected = [(f"{row['env']} {row['players']}p", colour[expected_group(row["env"])])
                for row in data if row["variant"] == ENV]
    assert drawn == expected
    assert title == "cardgym (blue) and PettingZoo classic (orange) card environments"


def test_an_unknown_row_is_an_error_not_a_guess() -> None:
    with pytest.raises(ValueError, match="neither a registered game nor"):
        env_group("chess_v6")


def test_the_example_game_is_not_counted_among_cardgyms_own() -> None:
    """Kuhn poker is registered from its own distribution (examples/kuhn_poker): a
    chart that measures it shows it apart from the library's games, in green."""
    assert [game.name for game in library_games()] == [
        "exploding_kittens", "karel_kakelaar", "power_hungry_pets"]
    assert env_group("kuhn_poker") == OTHER_GAMES
    assert env_group("karel_kakelaar") == CARDGYM
    assert env_group("exploding_kittens+streaking") == CARDGYM


def test_a_chart_with_the_example_game_says_so_in_its_title() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    data = [{"env": name, "players": 2, "variant": ENV, "steps_per_second": 1000.0}
            for name in ("karel_kakelaar", "kuhn_poker", "leduc_holdem_v4")]
    figure, ax = plt.subplots()
    try:
        bars = draw_throughput(ax, data)
        colours = [patch.get_facecolor() for patch in ax.patches]
        title = ax.get_title()
    finally:
        plt.close(figure)
    assert [bar.group for bar in bars] == [CARDGYM, OTHER_GAMES, PETTINGZOO]
    assert colours == [to_rgba("tab:blue"), to_rgba("tab:green"), to_rgba("tab:orange")]
    assert title == ("cardgym (blue), other registered games (green) and PettingZoo classic "
                     "(orange) card environments")


# ------------------------------------------------------------------- ladder


def _ladder_row(game: str, players: int, rung: int, opponent: int, rate: float) -> dict[str, str]:
    names = {1: "random", 2: "heuristic", 3: "network"}
    return {"game": game, "players": str(players), "rung": str(rung), "agent": names[rung],
            "opponent_rung": str(opponent), "opponent": names[opponent], "win_rate": str(rate)}


def test_the_ladder_chart_draws_each_settings_matrix_from_its_rows() -> None:
    import math

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from benchmarks.charts import draw_ladder

    rows = [_ladder_row("karel_kakelaar", 2, i, j, round(0.1 * i + 0.01 * j, 2))
            for i in (1, 2, 3) for j in (1, 2, 3) if i != j]
    rows += [_ladder_row("karel_kakelaar", 5, 2, 1, 0.4), _ladder_row("karel_kakelaar", 5, 1, 2, 0.1)]
    fig, axes = plt.subplots(1, 2)
    try:
        matrices = draw_ladder(list(axes), rows)
        assert [(m.game, m.players) for m in matrices] == [("karel_kakelaar", 2),
                                                           ("karel_kakelaar", 5)]
        two = matrices[0]
        assert two.names == ["random", "heuristic", "network"]
        assert two.rates[2][0] == 0.31 and two.rates[0][2] == 0.13
        assert all(math.isnan(two.rates[k][k]) for k in range(3))
        assert matrices[1].names == ["random", "heuristic"] and matrices[1].even == 0.2
        # Each off-diagonal cell is written on the picture as the rate in the rows.
        texts = sorted(text.get_text() for text in axes[0].texts)
        assert texts == sorted(f"{float(row['win_rate']):.2f}" for row in rows[:6])
    finally:
        plt.close(fig)


def test_the_ladder_picture_puts_each_game_in_a_column_and_each_table_size_in_a_row() -> None:
    import matplotlib.pyplot as plt

    from benchmarks.images import _ladder_figure

    pair = [(1, 2, 0.7), (2, 1, 0.3)]
    rows = [_ladder_row(game, players, i, j, rate)
            for game, players in (("exploding_kittens", 2), ("karel_kakelaar", 2),
                                  ("karel_kakelaar", 5))
            for i, j, rate in pair]
    fig = _ladder_figure(rows)
    try:
        grid = [[ax.get_title() if ax.axison else None for ax in fig.axes[r * 2:r * 2 + 2]]
                for r in range(2)]
        assert grid == [["exploding kittens, 2 players", "karel kakelaar, 2 players"],
                        [None, "karel kakelaar, 5 players"]]
    finally:
        plt.close(fig)
