"""benchmarks/serve_load.py runs at a tiny size against a real ``cardgym serve`` (the
load run and the soak) and writes its report; its figures are reported, never asserted
on timings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.serve_load import (
    REPORT,
    SOAK_HEADING,
    LoadReport,
    LoadSettings,
    SoakSettings,
    WaveResult,
    format_markdown,
    format_soak,
    main,
    measure,
    rss_kb,
    soak,
    write_report,
    write_soak,
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


def _load_report(rss_kb: int) -> LoadReport:
    """A load run's figures, made up (the report is what is checked)."""
    return LoadReport(LoadSettings(tables=1, seconds=1.0, waves=1),
                      [WaveResult(1, seconds=1.0, opened=1, finished=1, moves=10,
                                  rss_peak_kb=rss_kb, rss_after_kb=rss_kb)],
                      [(0.0, "before", 0, rss_kb)], rss_kb, 1.0, 1.0, 2.0, 0.5,
                      {"messages_per_second": 10.0, "message_burst": 30})


def test_a_tiny_soak_samples_the_servers_memory_and_keeps_the_load_figures(
        tmp_path: Path) -> None:
    # Two seconds of bots-only tables, the server's memory sampled every half second.
    report = soak(SoakSettings(minutes=2 / 60, tables=2, every=0.5))
    assert report.finished > 0
    assert report.pictures + report.pictures_missed == report.finished
    assert report.pictures > 0 and report.replays == report.finished
    assert not report.errors and report.refused_tables == 0
    samples = report.samples
    assert len(samples) >= 3                # before any table, every half second, the end
    assert samples[0].finished == 0 and samples[-1].finished == report.finished
    assert [sample.seconds for sample in samples] == sorted(sample.seconds
                                                            for sample in samples)
    assert all(sample.rss_kb > 0 for sample in samples)
    assert report.server_cpu_seconds > 0

    # Written into serve_load.md beside a load run's figures, each keeping the other's.
    results = tmp_path / "results"
    write_report(_load_report(1000), results)
    load_text = (results / REPORT).read_text()
    path = write_soak(report, results)
    assert path == results / REPORT
    text = path.read_text()
    assert text == load_text + "\n" + format_soak(report)
    section = text[text.index(SOAK_HEADING):]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == len(samples)
    assert f"{report.finished:,} tables in" in section
    assert "in the second half" in section
    write_report(_load_report(2000), results)          # a new load run keeps the soak
    again = path.read_text()
    assert again.startswith(format_markdown(_load_report(2000)))
    assert again.endswith(section)
    write_soak(report, results)                        # a new soak replaces its section
    assert path.read_text().count(SOAK_HEADING) == 1
    assert [p.name for p in results.iterdir()] == [REPORT]        # no partial file left


def test_rss_of_this_process() -> None:
    assert (rss_kb(os.getpid()) or 0) > 0
    assert rss_kb(2**22 + 12345) is None


@pytest.mark.parametrize("argv", [["--tables", "0"], ["--seconds", "0"], ["--waves", "0"],
                                  ["--idle", "-1"], ["--soak", "0"], ["--soak", "-5"],
                                  ["--soak", "1", "--every", "0"],
                                  ["--soak", "1", "--tables", "0"],
                                  ["--soak", "1", "--waves", "2"],
                                  ["--soak", "1", "--seconds", "60"]])
def test_bad_sizes_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
