"""cardgym.files: writes are all or nothing, and output paths are checked before work."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cardgym.files import (
    OutputError,
    atomic_output,
    atomic_save,
    atomic_write,
    check_output_file,
    check_output_folder,
    partial_name,
)


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


def test_a_write_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "a.json"
    atomic_write(target, "old\n")
    atomic_write(target, b"new\n")
    assert target.read_text() == "new\n"
    assert leftovers(target.parent) == []


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    target.write_text("old")

    def half_then_fail(where: Path) -> None:
        where.write_text("half")
        raise RuntimeError("writer broke")

    with pytest.raises(RuntimeError, match="writer broke"):
        atomic_save(half_then_fail, target)
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_a_full_disk_is_one_line_naming_the_path(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "model.json"
    target.write_text("old")

    def no_room(source: object, destination: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", no_room)
    with pytest.raises(OutputError) as caught:
        atomic_write(target, "new")
    assert str(caught.value) == f"cannot write {target}: No space left on device"
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


class RustWriterError(Exception):
    """A writer's own exception, as safetensors raises it (not an ``OSError``)."""


@pytest.mark.parametrize("words", [
    "Error while serializing: I/O error: No space left on device (os error 28)",  # 0.5+
    'Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: '
    '"No space left on device" })',  # 0.4
])
def test_a_full_disk_inside_a_writers_own_exception_is_the_same_one_line(
        tmp_path: Path, words: str) -> None:
    target = tmp_path / "model.safetensors"
    target.write_text("old")

    def half_then_full(where: Path) -> None:
        where.write_text("half")
        raise RustWriterError(words)

    with pytest.raises(OutputError) as caught:
        atomic_save(half_then_full, target)
    assert str(caught.value) == f"cannot write {target}: {os.strerror(errno.ENOSPC)}"
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_a_writers_own_error_without_the_systems_goes_through_unchanged(
        tmp_path: Path) -> None:
    def refuse(where: Path) -> None:
        raise RustWriterError("Error while serializing: tensor is not contiguous")

    with pytest.raises(RustWriterError, match="not contiguous"):
        atomic_save(refuse, tmp_path / "model.safetensors")
    assert leftovers(tmp_path) == []


def test_dev_full_and_folders_are_refused_with_the_cause(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="it is a folder"):
        atomic_write(tmp_path, "x")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OutputError, match=r"cannot make the folder .*file"):
        atomic_write(blocker / "a.json", "x")
    with pytest.raises(OutputError, match="File name too long"):
        atomic_write(tmp_path / ("n" * 300), "x")


def test_the_temporary_keeps_the_extension_for_writers_that_add_one(tmp_path: Path) -> None:
    temporary = partial_name(tmp_path / "model.zip")
    assert temporary.suffix == ".zip" and temporary.name.startswith(".")
    with atomic_output(tmp_path / "model.zip") as partial:
        assert partial == temporary
        partial.write_bytes(b"zip")
    assert (tmp_path / "model.zip").read_bytes() == b"zip"


def test_a_killed_writer_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "big.bin"
    target.write_bytes(b"old")
    script = (
        "import sys, time\n"
        "from cardgym.files import atomic_output\n"
        f"with atomic_output({str(target)!r}) as partial:\n"
        "    with open(partial, 'wb') as handle:\n"
        "        handle.write(b'x' * 1000)\n"
        "        handle.flush()\n"
        "        print('writing', flush=True)\n"
        "        time.sleep(60)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "writing"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert target.read_bytes() == b"old"
    # The killed process's temporary remains, hidden; the real name is never partial.
    assert [name for name in os.listdir(tmp_path) if not name.startswith(".")] == ["big.bin"]


def test_output_files_refuse_links_folders_and_existing_files(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("precious")
    link = tmp_path / "link.json"
    link.symlink_to(elsewhere)
    with pytest.raises(OutputError, match="--record: .*symbolic link"):
        check_output_file(link, "--record", overwrite=True)
    with pytest.raises(OutputError, match="is a folder"):
        check_output_file(tmp_path, "--position-out")
    with pytest.raises(OutputError, match="already exists; pass --overwrite"):
        check_output_file(elsewhere, "--position-out")
    assert check_output_file(elsewhere, "--position-out", overwrite=True) == elsewhere
    with pytest.raises(OutputError, match="is a file, so nothing can be written under it"):
        check_output_file(elsewhere / "x" / "a.json", "--record")
    assert check_output_file(tmp_path / "new" / "a.json", "--record") == \
        tmp_path / "new" / "a.json"
    assert elsewhere.read_text() == "precious"


def test_output_folders_refuse_links_files_and_earlier_contents(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "records"
    link.symlink_to(real, target_is_directory=True)
    with pytest.raises(OutputError, match="symbolic link"):
        check_output_folder(link, "--record", overwrite=True)
    (real / "old.json").write_text("{}")
    with pytest.raises(OutputError, match="not empty; pass --overwrite"):
        check_output_folder(real, "--record")
    assert check_output_folder(real, "--record", overwrite=True) == real
    with pytest.raises(OutputError, match="is a file; give a folder"):
        check_output_folder(real / "old.json", "--frames")
    assert check_output_folder(tmp_path / "fresh", "--frames") == tmp_path / "fresh"
