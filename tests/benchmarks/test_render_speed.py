"""benchmarks/render_speed.py runs at a tiny size and writes its table; bad sizes are
refused (its figures are reported in notes and docs, never asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.render_speed import SETTINGS, main


def test_the_benchmark_measures_every_setting_and_writes_its_table(tmp_path: Path,
                                                                  capsys) -> None:
    assert main(["--seconds", "0.01", "--rounds", "1", "--pictures", "1",
                 "--output", str(tmp_path)]) == 0
    table = (tmp_path / "render.md").read_text()
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert [tuple(row.split(" | ")[:2]) for row in rows[1:]] == [
        (f"| {game}", str(players)) for game, players in SETTINGS]
    assert "render.md" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--seconds", "0"], ["--rounds", "0"], ["--pictures", "0"]])
def test_bad_sizes_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
