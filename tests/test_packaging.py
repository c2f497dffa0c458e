"""Packaging metadata in the current form: installing prints no setuptools
deprecation warnings about ``project.license`` (issue 17, section 4), and every
library a user installs is one the code uses (issue 35)."""

from __future__ import annotations

import importlib.metadata
import json
import re
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


#: Declared libraries the code uses without importing them, and what for.
USED_WITHOUT_IMPORT = {
    "tensorboard": "Stable-Baselines3 writes cardgym train's TensorBoard logs through it",
    "ipykernel": "the kernel nbclient runs the notebooks on",
    "nbmake": "a pytest plugin: pytest --nbmake notebooks",
    "websockets": "uvicorn serves the browser table's websockets with it",
}
#: The folders whose Python files (and notebooks) count as the code.
CODE = ("cardgym", "cardgym_cli", "cardgym_web", "phpets_env", "ek_env", "kakelaar_env",
        "agents", "benchmarks", "tests", "examples", "notebooks")


def declared_libraries(project: dict) -> dict[str, str]:
    """Each library of the dependencies and of every extra but ``dev`` (the tools
    the Makefile runs), by distribution name, with the group that declares it."""
    groups = {"dependencies": project["dependencies"],
              **{name: specs for name, specs in project["optional-dependencies"].items()
                 if name != "dev"}}
    found = {}
    for group, specs in groups.items():
        for spec in specs:
            name = re.match(r"[A-Za-z0-9_.-]+", spec)
            assert name is not None, spec
            found.setdefault(name.group(0).lower(), group)
    return found


def import_names(distribution: str) -> set[str]:
    """The top-level modules a distribution installs (its own name when it is not
    installed here)."""
    names = {module for module, owners in importlib.metadata.packages_distributions().items()
             if distribution in {owner.lower() for owner in owners}}
    return names or {distribution.replace("-", "_")}


def imported_modules() -> set[str]:
    """The top-level modules the code imports, from its ``import`` statements."""
    sources = []
    for folder in CODE:
        sources += [path.read_text(encoding="utf-8") for path in (REPO / folder).rglob("*.py")]
        for notebook in (REPO / folder).rglob("*.ipynb"):
            cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
            sources += ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    pattern = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)
    return {name for source in sources for name in pattern.findall(source)}


def test_every_declared_library_is_imported_by_the_code() -> None:
    """A library in the dependencies or an extra is one the code imports, or one of
    :data:`USED_WITHOUT_IMPORT` (each with its use); ``rich`` in the ``train`` extra
    was neither."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    imported = imported_modules()
    unused = [f"{name} ({group})" for name, group in declared_libraries(project).items()
              if name not in USED_WITHOUT_IMPORT and not import_names(name) & imported]
    assert not unused, f"declared but imported nowhere: {', '.join(unused)}"


def test_the_libraries_used_without_import_are_declared() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert set(USED_WITHOUT_IMPORT) <= set(declared_libraries(project))
