"""The README's quick-start snippet runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quick_start_snippet_runs(capsys) -> None:
    text = README.read_text()
    section = text.split("## Quick start", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(snippet, "README quick start", "exec"), {})
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[0].startswith("player_")
    final = eval(printed[-1])
    assert set(final) == {f"player_{i}" for i in range(4)}
    assert sorted(set(final.values())) in ([-1.0, 1.0], [1.0])


def test_vector_snippet_runs(capsys) -> None:
    text = README.read_text()
    section = text.split("## Many games at once", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(snippet, "README vector example", "exec"), {})
    printed = capsys.readouterr().out.strip().splitlines()
    finished = int(printed[-1].split()[0])
    assert printed[-1].endswith("games finished")
    # 200 decisions per row of 3-player games: every row finished at least one game.
    assert finished >= 1024


def test_seeing_a_game_snippet_runs(capsys) -> None:
    text = README.read_text()
    section = text.split("## Seeing a game", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(snippet, "README seeing a game", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("(800, 1280, 3) Round 1")
