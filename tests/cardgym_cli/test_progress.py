"""Long commands show a progress bar with the time left on a terminal, and nothing
when their output is not one (issue 17, section 4)."""

from __future__ import annotations

import io
import sys

import pytest

from cardgym.progress import Progress, is_terminal
from cardgym_cli import main


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_with_the_time_left() -> None:
    pytest.importorskip("tqdm")
    stream = Terminal()
    with Progress(4, "eval", "game", stream=stream) as bar:
        bar.update(2)
        bar.update(2)
    text = stream.getvalue()
    assert "eval" in text and "4/4" in text
    assert "<" in text, "tqdm shows elapsed<remaining"


def test_without_tqdm_a_terminal_gets_a_plain_line_with_the_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    stream = Terminal()
    with Progress(4, "arena", "game", stream=stream) as bar:
        bar.update(1)
        assert "arena: 1/4 game, about" in stream.getvalue()
        assert "s left" in stream.getvalue()
        bar.update(3)
    assert "arena: 4/4 game" in stream.getvalue()


@pytest.mark.parametrize("enabled", [True, False])
def test_no_bar_when_the_stream_is_not_a_terminal_or_when_disabled(enabled: bool) -> None:
    stream = io.StringIO()
    assert not is_terminal(stream)
    with Progress(4, "bench", stream=stream, enabled=enabled) as bar:
        bar.update(4)
    assert stream.getvalue() == ""
    quiet = Terminal()
    with Progress(4, "bench", stream=quiet, enabled=False) as bar:
        bar.update(4)
    assert quiet.getvalue() == ""


def test_eval_off_a_terminal_prints_the_table_and_no_bar(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["eval", "power_hungry_pets", "--agents", "heuristic", "random",
                 "--games", "4", "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "heuristic" in captured.out
    assert "\r" not in captured.err and "game/s" not in captured.err and "%|" not in captured.err


def test_eval_counts_every_game_on_its_progress_callback() -> None:
    from agents.evaluate import evaluate

    counted: list[int] = []
    evaluate("power_hungry_pets", 2, ["random", "random"], games=7, workers=1,
             progress=counted.append)
    assert sum(counted) == 7 and len(counted) > 1


def test_bench_off_a_terminal_prints_round_lines_and_no_bar(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--seconds", "0.01", "--rounds", "1", "--env", "power_hungry_pets",
                 "--players", "2"]) == 0
    err = capsys.readouterr().err
    assert "bench: round 1/1 done" in err
    assert "\r" not in err and "measurement/s" not in err


def test_bench_on_a_terminal_draws_a_bar_over_every_measurement() -> None:
    pytest.importorskip("tqdm")
    from benchmarks import throughput

    args = throughput.Args(seconds=0.01, rounds=1, games=("power_hungry_pets",), players=(2,))
    stream = Terminal()
    throughput.run(args, progress=stream)
    subjects = len(throughput.build_subjects(args, throughput.load_leduc(),
                                             throughput.load_comparisons()))
    assert f"{subjects}/{subjects}" in stream.getvalue()
    assert "bench: round 1/1 done" in stream.getvalue()


def test_arena_off_a_terminal_draws_no_bar(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.arena import run_arena

    run_arena([("power_hungry_pets", 2)], ["random", "heuristic"], games=2, workers=1,
              show_progress=True)
    err = capsys.readouterr().err
    assert "\r" not in err and "game/s" not in err
