"""The notebooks run top to bottom at their reduced size, and are stored without outputs."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_both_notebooks_are_there() -> None:
    assert [path.name for path in NOTEBOOKS] == ["benchmarks.ipynb", "quickstart.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(not cell.outputs and cell.execution_count is None for cell in code), \
        f"{path.name} has outputs; strip them before committing"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_notebook_runs_top_to_bottom_at_small_size(path: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDGYM_NOTEBOOK_SIZE", "small")
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError naming the failing cell
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in code)
    first = "".join(output.get("text", "") for output in code[0].outputs)
    assert first.startswith("size small"), first
