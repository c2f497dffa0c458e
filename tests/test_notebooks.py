"""The notebooks run top to bottom at their reduced size without showing a warning, and
are stored without outputs; the benchmarks notebook writes into a folder of the user's,
never into the repository's ``benchmarks/results/`` (issue 35)."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from benchmarks.notebook import SIZES, notebook_size, results_folder
from benchmarks.throughput import COMPARISONS, LEDUC, OPTION_ROWS
from cardgym.registration import library_games, short_name

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
BENCHMARKS = REPO / "notebooks" / "benchmarks.ipynb"
#: The repository's own tables, which only ``make tables`` rewrites.
PACKAGE_RESULTS = REPO / "benchmarks" / "results"


def test_both_notebooks_are_there() -> None:
    assert [path.name for path in NOTEBOOKS] == ["benchmarks.ipynb", "quickstart.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(not cell.outputs and cell.execution_count is None for cell in code), \
        f"{path.name} has outputs; strip them before committing"


# ------------------------------------------------------------ where it writes


def test_at_full_size_the_benchmarks_go_to_results_in_the_working_directory(
        tmp_path: Path) -> None:
    folder = results_folder(SIZES["full"], environ={}, cwd=tmp_path)
    assert folder == tmp_path / "results"
    assert not folder.is_relative_to(REPO / "benchmarks")


def test_cardgym_results_names_the_folder_relative_to_the_working_directory(
        tmp_path: Path) -> None:
    for size in SIZES.values():
        assert results_folder(size, {"CARDGYM_RESULTS": "mine"}, tmp_path) == tmp_path / "mine"
        assert results_folder(size, {"CARDGYM_RESULTS": str(tmp_path / "abs")}, REPO) \
            == tmp_path / "abs"


def test_at_small_size_the_benchmarks_go_to_a_new_temporary_folder(tmp_path: Path) -> None:
    first = results_folder(SIZES["small"], environ={}, cwd=tmp_path)
    second = results_folder(SIZES["small"], environ={}, cwd=tmp_path)
    assert first != second and first.is_dir() and not any(first.iterdir())
    assert not first.is_relative_to(tmp_path) and not first.is_relative_to(REPO)


def test_an_unknown_size_names_the_sizes() -> None:
    assert notebook_size({}) == SIZES["full"]
    assert notebook_size({"CARDGYM_NOTEBOOK_SIZE": "small"}) == SIZES["small"]
    with pytest.raises(ValueError, match="CARDGYM_NOTEBOOK_SIZE must be small or full, "
                                         "got 'huge'"):
        notebook_size({"CARDGYM_NOTEBOOK_SIZE": "huge"})


# ------------------------------------------------------------------ running them


@dataclass
class Executed:
    """A notebook run at the small size in a working directory of its own, with
    ``CARDGYM_RESULTS=my-results``."""

    notebook: nbformat.NotebookNode
    work: Path
    package_before: dict[str, bytes]
    package_after: dict[str, bytes]

    @property
    def code(self) -> list[nbformat.NotebookNode]:
        return [cell for cell in self.notebook.cells if cell.cell_type == "code"]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` and its subfolders, by relative path."""
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module", params=NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def executed(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> Executed:
    path: Path = request.param
    work = tmp_path_factory.mktemp(path.stem)
    notebook = nbformat.read(path, as_version=4)
    before = snapshot(PACKAGE_RESULTS)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDGYM_NOTEBOOK_SIZE", "small")
        patch.setenv("CARDGYM_RESULTS", "my-results")
        client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(work)}})
        client.execute()  # raises CellExecutionError naming the failing cell
    return Executed(notebook, work, before, snapshot(PACKAGE_RESULTS))


@pytest.mark.slow
def test_notebook_runs_top_to_bottom_at_small_size(executed: Executed) -> None:
    assert all(cell.execution_count is not None for cell in executed.code)
    first = "".join(output.get("text", "") for output in executed.code[0].outputs)
    assert first.startswith("size small"), first


@pytest.mark.slow
def test_notebook_shows_no_warnings(executed: Executed) -> None:
    """Nothing reaches a cell's stderr: PettingZoo's no-limit Hold'em warned about
    its float precision in the throughput cell."""
    shown = [(index, output["text"]) for index, cell in enumerate(executed.code)
             for output in cell.outputs
             if output.get("output_type") == "stream" and output.get("name") == "stderr"]
    assert shown == []


@pytest.mark.slow
@pytest.mark.parametrize("executed", [BENCHMARKS], ids=["benchmarks"], indirect=True)
def test_the_benchmarks_notebook_writes_into_the_users_folder_only(
        executed: Executed) -> None:
    results = executed.work / "my-results"
    assert sorted(path.name for path in results.iterdir()) == [
        "arena.csv", "arena.md", "arena_ratings.csv", "ladder.csv", "ladder.md",
        "ladder_first_seat.csv", "throughput.csv", "throughput.md"]
    first = "".join(output.get("text", "") for output in executed.code[0].outputs)
    assert first.rstrip().endswith(f"results to {results}")
    assert executed.package_after == executed.package_before, \
        "the notebook changed benchmarks/results/; only make tables may"


@pytest.mark.slow
@pytest.mark.parametrize("executed", [BENCHMARKS], ids=["benchmarks"], indirect=True)
def test_the_benchmarks_notebook_measures_cardgyms_own_games(executed: Executed) -> None:
    """The example game (Kuhn poker, registered from examples/) is not one of the
    library's games, so the throughput table and chart leave it out."""
    with (executed.work / "my-results" / "throughput.csv").open() as handle:
        measured = {row["env"] for row in csv.DictReader(handle)}
    own = {short_name(game.env_id) for game in library_games()}
    expected = own | {label for _, label, _ in OPTION_ROWS}
    assert own <= measured and "kuhn_poker" not in measured
    assert measured <= expected | set(COMPARISONS) | {LEDUC}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_every_cell_has_a_unique_id(path: Path) -> None:
    """nbformat 4.5 gives every cell an id; a cell without one is a validation warning
    now and an error in later nbformat versions."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    ids = [cell.get("id") for cell in cells]
    assert None not in ids, f"cells without an id: {[i for i, x in enumerate(ids) if x is None]}"
    assert len(set(ids)) == len(ids)
