"""The command line's outputs and bounds: a bad output path is one line and exit 2
before any work, a full disk while writing is one line and exit 1 with nothing
half-written left, links are never written through, existing files and folders are
kept unless ``--overwrite``, and records, positions and counts that cannot be right
are refused."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from cardgym_cli import main

GAME = "karel_kakelaar"
EVAL = ["eval", GAME, "--agents", "random", "random", "--games", "2", "--workers", "1",
        "--no-progress"]


def one_record(folder: Path) -> Path:
    assert main([*EVAL, "--games", "1", "--record", str(folder)]) == 0
    return folder / "game-00000.json"


def error_of(capsys: pytest.CaptureFixture[str]) -> str:
    error = capsys.readouterr().err
    assert "Traceback" not in error
    return error


# --------------------------------------------------------------- eval --record


def test_eval_record_refuses_a_file_a_link_and_a_folder_holding_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("mine")
    assert main([*EVAL, "--record", str(a_file)]) == 2
    assert f"--record: {a_file} is a file; give a folder" in error_of(capsys)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "link"
    link.symlink_to(elsewhere)
    assert main([*EVAL, "--record", str(link)]) == 2
    assert "is a symbolic link; cardgym does not write through links" in error_of(capsys)
    assert not any(elsewhere.iterdir())

    folder = tmp_path / "records"
    one_record(folder)
    before = (folder / "game-00000.json").read_bytes()
    assert main([*EVAL, "--record", str(folder)]) == 2
    assert "is not empty; pass --overwrite" in error_of(capsys)
    assert (folder / "game-00000.json").read_bytes() == before
    assert a_file.read_text() == "mine"


def test_eval_record_with_overwrite_replaces_a_planted_link_not_its_target(
        tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    target = tmp_path / "precious.txt"
    target.write_text("not a record")
    (folder / "game-00000.json").symlink_to(target)
    assert main([*EVAL, "--record", str(folder), "--overwrite"]) == 0
    assert target.read_text() == "not a record"
    written = folder / "game-00000.json"
    assert not written.is_symlink() and json.loads(written.read_text())["moves"]


def test_a_full_disk_while_writing_records_is_one_line_exit_1_and_no_half_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgym.files

    def full(*_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cardgym.files.os, "replace", full)
    folder = tmp_path / "records"
    assert main([*EVAL, "--record", str(folder)]) == 1
    last = error_of(capsys).splitlines()[-1]
    assert last.startswith("cardgym: error: cannot write ") and "game-00000.json" in last
    assert last.endswith("No space left on device")
    assert not [path for path in folder.rglob("*") if path.is_file()]


# ------------------------------------------------------------ replay's outputs


@pytest.mark.parametrize(("make", "option", "message"), [
    (lambda p: p.mkdir(), "--position-out", "is a folder; give a file name"),
    (lambda p: p.write_text("mine"), "--position-out", "already exists; pass --overwrite"),
    (lambda p: p.write_text("mine"), "--gif", "already exists; pass --overwrite"),
    (lambda p: p.write_text("mine"), "--frames", "is a file; give a folder"),
    (lambda p: None, "--position-out", "File name too long"),
])
def test_replay_refuses_a_bad_output_path_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, option: str,
        message: str) -> None:
    record = one_record(tmp_path / "records")
    out = tmp_path / ("x" * 300 if message == "File name too long" else "out")
    make(out)
    capsys.readouterr()
    assert main(["replay", str(record), option, str(out)]) == 2
    error = error_of(capsys)
    assert message in error and option in error
    if message != "File name too long" and out.is_file():
        assert out.read_text() == "mine"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a system without /dev/full")
def test_replay_refuses_a_device_as_position_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = one_record(tmp_path / "records")
    assert main(["replay", str(record), "--position-out", "/dev/full", "--overwrite"]) == 2
    assert "is not a regular file (a device or a pipe)" in error_of(capsys)


def test_replay_position_out_with_overwrite_replaces_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = one_record(tmp_path / "records")
    out = tmp_path / "position.json"
    out.write_text("old")
    assert main(["replay", str(record), "--position-out", str(out), "--overwrite"]) == 0
    assert "scenario" in json.loads(out.read_text())


def test_play_record_is_checked_before_the_game_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    existing = tmp_path / "game.json"
    existing.write_text("an earlier game")
    monkeypatch.setattr("sys.stdin", None)  # the game must not start and ask
    assert main(["play", GAME, "--seed", "1", "--record", str(existing)]) == 2
    assert "already exists; pass --overwrite" in error_of(capsys)
    assert existing.read_text() == "an earlier game"


def test_train_output_that_is_a_file_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "runs"
    a_file.write_text("mine")
    assert main(["train", GAME, "--output", str(a_file), "--no-progress"]) == 2
    assert f"{a_file} is a file, so nothing can be written under it" in error_of(capsys)


# ------------------------------------------------------------- bad records


def test_a_record_with_returns_that_are_not_finite_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = one_record(tmp_path / "records")
    document = json.loads(record.read_text())
    for bad in ("NaN", "Infinity"):
        text = json.dumps(document).replace(
            json.dumps(document["result"]["returns"]),
            "[" + ", ".join([bad] * len(document["result"]["returns"])) + "]")
        record.write_text(text)
        capsys.readouterr()
        assert main(["replay", str(record), "--check"]) == 1
        assert bad in error_of(capsys)
    from cardgym.errors import DocumentError
    from cardgym.records import GameRecord

    document["result"]["returns"] = [float("nan")] * len(document["result"]["returns"])
    with pytest.raises(DocumentError, match="must list 3 finite numbers|finite numbers"):
        GameRecord.load(document)


def test_deeply_nested_records_and_positions_are_a_short_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nested = tmp_path / "nested.json"
    nested.write_text('{"kind": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert main(["replay", str(nested), "--check"]) == 1
    error = error_of(capsys)
    assert "nested" in error and len(error) < 400
    assert main(["play", GAME, "--position", str(nested)]) == 2
    error = error_of(capsys)
    assert "nested" in error and len(error.splitlines()[-1]) < 400


# ------------------------------------------------------------------ counts


@pytest.mark.parametrize(("argv", "message"), [
    (["--games", str(10**23)], "--games: must be a number of games from 1 to 10000000"),
    (["--workers", "100000"], "--workers: must be a number of processes from 1 to 256"),
])
def test_counts_that_would_hang_or_exhaust_memory_are_refused(
        capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main([*EVAL, *argv]) == 2
    assert message in error_of(capsys)
