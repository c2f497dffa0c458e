"""No file the project ships names a folder of the machine it was made on: the model
cards' commands, the benchmark tables and the notebooks run from a clean clone, and
the shipped SB3 zips carry no training folder."""

from __future__ import annotations

import re
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Absolute folders of a machine: POSIX homes and scratch folders, macOS's and
#: Windows' user folders.
MACHINE_PATH = re.compile(
    r"(?<![\w.~-])/(?:tmp|work|home|root|Users|private/var|var/folders|mnt/data)/"
    r"|\b[A-Z]:\\\\(?:Users|work|tmp)\b")

#: Files whose content is not text to scan (pictures, tensors); zips are scanned
#: member by member.
BINARY = {".png", ".gif", ".jpg", ".safetensors", ".pth", ".pt", ".npz", ".npy"}


def shipped_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name]


def machine_paths(name: str, data: bytes) -> list[str]:
    text = data.decode("utf-8", errors="replace")
    return [f"{name}:{number}: {line.strip()[:160]}"
            for number, line in enumerate(text.splitlines(), 1) if MACHINE_PATH.search(line)]


def test_the_pattern_finds_machine_paths_and_leaves_project_paths() -> None:
    # Spelled in pieces, so that this file does not hold what it looks for.
    slash = "/"
    assert machine_paths("card", f'"command": "--scratch {slash}work/explore/group"'.encode())
    assert machine_paths("zip", f'"tensorboard_log": "{slash}tmp/runs/tb"'.encode())
    assert machine_paths("win", ('"C:' + "\\\\" + 'Users\\\\someone"').encode())
    assert not machine_paths("card", b'"command": "--scratch runs/group --output /dev/full"')
    assert not machine_paths("make", b"CHROMIUM ?= /usr/bin/chromium")


def test_no_shipped_file_names_a_folder_of_the_machine_it_was_made_on() -> None:
    found = []
    files = shipped_files()
    assert any(path.name == "model.json" for path in files), "the cards are shipped"
    for path in files:
        if path.suffix in BINARY or not path.is_file():
            continue
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                for member in archive.namelist():
                    if not member.endswith(".pth"):
                        found += machine_paths(f"{path.relative_to(ROOT)}!{member}",
                                               archive.read(member))
            continue
        found += machine_paths(str(path.relative_to(ROOT)), path.read_bytes())
    assert not found, "machine paths in shipped files:\n" + "\n".join(found[:20])


def test_recorded_commands_name_folders_a_clean_clone_has(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from benchmarks.publish import portable_command

    monkeypatch.chdir(tmp_path)
    scratch = Path("/") / "work" / "explore" / "group"
    command = portable_command("python benchmarks/train_baselines.py",
                               ["--scratch", str(scratch), "--output",
                                str(tmp_path / "runs" / "out"), "--games", "two words"])
    assert command == ("python benchmarks/train_baselines.py --scratch runs/group --output "
                       "runs/out --games 'two words'")
    assert not machine_paths("card", command.encode())
