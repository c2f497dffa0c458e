"""``cardgym replay FILE --frames DIR`` and ``--gif FILE``: a picture per position of
a game record, from the table view of the seat asked for (or the full table)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cardgym.records import replay
from cardgym.replay_pictures import frame_image
from cardgym_cli import main


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    assert main(["eval", "power_hungry_pets", "--players", "3", "--agents", "heuristic",
                 "random", "random", "--games", "1", "--workers", "1", "--no-progress",
                 "--record", str(folder)]) == 0
    return folder / "game-00000.json"


def test_frames_writes_a_picture_of_every_position_from_the_step(record: Path,
                                                                   tmp_path: Path) -> None:
    replayed = replay(record)
    total = len(replayed)
    target = tmp_path / "frames"
    assert main(["replay", str(record), "--frames", str(target), "--seat", "1", "--step",
                 "2", "--size", "640x400"]) == 0
    files = sorted(target.iterdir())
    assert [path.name for path in files] == [f"move_{step:04d}.png"
                                             for step in range(2, total + 1)]
    with Image.open(files[0]) as first:
        assert first.size == (640, 400)
        assert np.array_equal(np.asarray(first.convert("RGB")),
                              frame_image(replayed, 2, 1, (640, 400)))
    # Seat 1's view differs from the full table's at the same position.
    assert not np.array_equal(frame_image(replayed, 2, 1, (640, 400)),
                              frame_image(replayed, 2, None, (640, 400)))


def test_gif_writes_an_animation_of_the_game(record: Path, tmp_path: Path, capsys) -> None:
    total = len(replay(record))
    target = tmp_path / "game.gif"
    assert main(["replay", str(record), "--gif", str(target), "--size", "480x320"]) == 0
    assert f"wrote {target}" in capsys.readouterr().out
    with Image.open(target) as gif:
        assert gif.format == "GIF" and gif.size == (480, 320)
        assert gif.n_frames == total + 1
    assert [path.name for path in tmp_path.iterdir()] == ["game.gif"]  # nothing left over


@pytest.mark.parametrize(("flags", "message"), [
    (["--frames", "{file}"], "is a file; give a folder"),
    (["--gif", "{folder}"], "is a folder; give a file name"),
    (["--gif", "{folder}/missing/game.gif"], "does not exist"),
    (["--gif", "{folder}/game.gif", "--size", "12x7"], "must be 320..4096 pixels"),
    (["--gif", "{folder}/game.gif", "--size", "big"], "is not a size"),
    (["--frames", "{folder}/f", "--gif", "{folder}/g.gif"], "not allowed with argument"),
    (["--frames", "{folder}/f", "--seat", "3"], "seats are 0..2"),
])
def test_bad_picture_arguments_are_refused_and_write_nothing(
        record: Path, tmp_path: Path, capsys, flags: list[str], message: str) -> None:
    (tmp_path / "file.txt").write_text("x")
    before = sorted(tmp_path.rglob("*"))
    argv = [flag.format(file=tmp_path / "file.txt", folder=tmp_path) for flag in flags]
    try:
        status = main(["replay", str(record), *argv])
    except SystemExit as stop:  # argparse's own checks
        status = stop.code
    assert status == 2
    assert message in capsys.readouterr().err
    assert sorted(tmp_path.rglob("*")) == before
