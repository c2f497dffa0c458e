"""benchmarks/search_speed.py runs at a tiny size and writes its table: a row per game
and table size, with the compiled column where the game has compiled rules; bad sizes
are refused (its figures are reported in notes and docs, never asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.search_speed import main

pytest.importorskip("numba")


def test_the_benchmark_searches_on_each_engine_and_writes_its_table(tmp_path: Path,
                                                                    capsys) -> None:
    assert main(["--env", "karel_kakelaar", "exploding_kittens", "--players", "2", "6",
                 "--time", "0.002", "--positions", "2", "--output", str(tmp_path)]) == 0
    table = (tmp_path / "search_speed.md").read_text()
    rows = [line.split(" | ") for line in table.splitlines()
            if line.startswith("| ") and "---" not in line][1:]
    # Karel Kakelaar has no 6-player table; Exploding Kittens no compiled rules (yet).
    assert [(row[0], row[1]) for row in rows] == [
        ("| karel_kakelaar", "2"), ("| exploding_kittens", "2"), ("| exploding_kittens", "6")]
    kakelaar, kittens = rows[0], rows[1]
    assert float(kakelaar[4].replace(",", "")) >= 1 and float(kakelaar[5].replace(",", "")) >= 1
    assert kakelaar[6].endswith("x |")
    assert kittens[5] == "-" and kittens[6] == "- |"
    assert capsys.readouterr().out.startswith("## ISMCTS iterations per move")


@pytest.mark.parametrize("argv", [["--time", "0"], ["--positions", "0"], ["--players", "-1"]])
def test_bad_sizes_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
