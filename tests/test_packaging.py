"""Packaging metadata in the current form: installing prints no setuptools
deprecation warnings about ``project.license`` (issue 17, section 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

REPO = Path(__file__).resolve().parents[1]


def test_license_is_an_spdx_string_with_its_file() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"  # not the deprecated {text = ...} table
    files = project["project"]["license-files"]
    assert files and all((REPO / name).is_file() for name in files)
    assert "MIT License" in (REPO / files[0]).read_text()
    # PEP 639 license expressions need setuptools 77 or later.
    assert "setuptools>=77" in project["build-system"]["requires"]
