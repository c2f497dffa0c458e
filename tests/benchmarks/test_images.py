"""``make images`` (benchmarks/images.py) makes the docs' pictures from the code: run
into a fresh folder, not read from what lies in docs/images/."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from benchmarks.images import RESULTS, TABLES, main, table_picture

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("images")
    assert main(["--output", str(output)]) == 0
    return output


def test_the_command_writes_a_table_of_each_game_and_both_charts(made: Path) -> None:
    from PIL import Image

    names = sorted(path.name for path in made.iterdir())
    charts = ["arena.png", "throughput.png"]
    if (RESULTS / "ladder.csv").is_file():  # the ladder's chart, once it has results
        charts.append("ladder.png")
    assert names == sorted([shot.file_name for shot in TABLES] + charts)
    for shot in TABLES:
        with Image.open(made / shot.file_name) as picture:
            assert picture.format == "PNG" and picture.size == (1280, 800)
            # The picture is the game drawn now, pixel for pixel.
            assert np.array_equal(np.asarray(picture.convert("RGB")), table_picture(shot))
    for chart in charts:
        with Image.open(made / chart) as picture:
            assert picture.format == "PNG" and min(picture.size) > 200


def test_each_table_shows_its_game_from_seat_0_mid_game() -> None:
    from cardgym.registration import find_game

    for shot in TABLES:
        game = find_game(shot.game)
        env = game.make_env(num_players=shot.players, **dict(shot.options or {})).unwrapped
        env.reset(seed=shot.seed)
        assert not np.array_equal(table_picture(shot), env.render_image(0)), (
            f"{shot.game}: the picture is of the start, not after {shot.moves} moves")


def test_the_readme_shows_every_picture() -> None:
    readme = (ROOT / "README.md").read_text()
    shown = set(re.findall(r"!\[[^\]]*\]\((docs/images/[^)]+)\)", readme))
    assert {f"docs/images/{shot.file_name}" for shot in TABLES} <= shown
    assert {"docs/images/arena.png", "docs/images/throughput.png"} <= shown
    if (RESULTS / "ladder.csv").is_file():
        assert "docs/images/ladder.png" in shown
    for path in shown:
        assert (ROOT / path).is_file(), f"the README shows {path}, which `make images` writes"
