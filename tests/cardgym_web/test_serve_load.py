"""benchmarks/serve_load.py runs at a tiny size against a real ``cardgym serve`` and
writes its report; its figures are reported, never asserted on timings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.serve_load import (
    REPORT,
    LoadSettings,
    format_markdown,
    main,
    measure,
    rss_kb,
    write_report,
)


def test_a_tiny_load_run_measures_moves_latency_and_memory(tmp_path: Path) -> None:
    report = measure(LoadSettings(tables=3, seconds=0.5, waves=1, idle=0.5))
    assert [wave.number for wave in report.waves] == [1]
    for wave in report.waves:
        assert wave.opened >= 3 and wave.finished == wave.opened
        assert wave.closed_early == 0 and not wave.errors
        assert wave.moves > wave.human_moves > 0 and wave.moves_per_second > 0
        assert len(wave.latencies) == wave.human_moves
        assert all(latency > 0 for latency in wave.latencies)
        assert wave.rss_peak_kb > 0 and wave.rss_after_kb > 0
    assert report.moves_per_second > 0
    assert report.rss_before_kb > 0 and report.rss_peak_kb >= report.rss_before_kb
    phases = {phase for _, phase, _, _ in report.samples}
    assert {"before", "wave 1", "closing 1"} <= phases
    assert all(rss > 0 for _, _, _, rss in report.samples)
    assert max(tables for _, _, tables, _ in report.samples) > 0
    assert report.samples[-1][2] == 0                    # every table closed at the end
    assert report.server_cpu_seconds > 0

    path = write_report(report, tmp_path / "results")
    assert path == tmp_path / "results" / REPORT
    assert [p.name for p in path.parent.iterdir()] == [REPORT]      # no partial file left
    text = path.read_text()
    assert text == format_markdown(report)
    assert f"| CPUs (`os.cpu_count()`) | {os.cpu_count()} |" in text
    assert "| tables at once | 3 |" in text and "## Server memory over time" in text
    [total] = [line for line in text.splitlines() if line.startswith("| **all** |")]
    cells = [cell.strip() for cell in total.strip("|").split("|")]
    assert float(cells[5].replace(",", "")) > 0                       # moves/s
    assert float(cells[7]) > 0 and float(cells[8]) >= float(cells[7])   # p50, p99


def test_rss_of_this_process() -> None:
    assert (rss_kb(os.getpid()) or 0) > 0
    assert rss_kb(2**22 + 12345) is None


@pytest.mark.parametrize("argv", [["--tables", "0"], ["--seconds", "0"], ["--waves", "0"],
                                  ["--idle", "-1"]])
def test_bad_sizes_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
