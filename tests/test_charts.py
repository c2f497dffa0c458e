"""What the benchmarks notebook's throughput chart draws, checked against the data:
every cardgym row blue, every PettingZoo row orange (issue 17, section 4)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

from benchmarks.charts import CARDGYM, PETTINGZOO, draw_throughput, env_group, throughput_bars
from benchmarks.throughput import ENV
from cardgym.registration import GAMES, short_name

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "throughput.csv"


def rows() -> list[dict[str, str]]:
    with RESULTS.open() as handle:
        return list(csv.DictReader(handle))


def expected_group(env_name: str) -> str:
    """From the data alone: a row is PettingZoo's when PettingZoo ships a classic env
    of that name, and cardgym's when its name starts with a registered game."""
    if importlib.util.find_spec(f"pettingzoo.classic.{env_name}") is not None:
        return PETTINGZOO
    assert env_name.split("+")[0] in {short_name(game.env_id) for game in GAMES}, env_name
    return CARDGYM


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
    with pytest.raises(ValueError, match="neither a cardgym game nor"):
        env_group("chess_v6")
