"""The journal of an evaluation's finished games (agents/evaluate/journal.py): a run
stopped, killed or asked again goes on where it stopped and gives the result of one
uninterrupted run; runs that differ in anything their games depend on never share a
file; a journal that cannot be read or written says so and plays nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from agents.baselines import baseline_policy_path
from agents.evaluate import EvalRequest, discard_journals, evaluate_many
from agents.evaluate.journal import JOURNAL_KIND, JournalError, RunJournal, run_key
from agents.options import as_bound
from agents.specs import spec_files
from cardgym.files import OutputError

KK = "karel_kakelaar"


def _request(games: int, seed: int = 5, agents: tuple[str, str] = ("heuristic", "random"),
             ) -> EvalRequest:
    return EvalRequest(KK, 2, list(agents), games, seed)


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("run-*.json"))


def test_a_journaled_run_gives_the_result_of_a_plain_one_and_keeps_every_game(
        tmp_path: Path) -> None:
    plain = evaluate_many([_request(10)], workers=1)[0]
    kept = evaluate_many([_request(10)], workers=1, journal=tmp_path)[0]
    assert kept.records == plain.records
    [file] = _files(tmp_path)
    data = json.loads(file.read_text())
    assert data["journal"] == JOURNAL_KIND
    assert [game["index"] for game in data["games"]] == list(range(10))
    assert data["key"]["agents"] == ["heuristic", "random"]


def test_a_longer_run_plays_only_the_games_the_journal_lacks(tmp_path: Path) -> None:
    # Asked for 4 games first, then for 10: the second call takes games 0-3 from the
    # journal (reported to the progress callback first) and plays 6.
    evaluate_many([_request(4)], workers=1, journal=tmp_path)
    calls: list[int] = []
    longer = evaluate_many([_request(10)], workers=1, progress=calls.append,
                           journal=tmp_path)[0]
    assert calls[0] == 4
    assert sum(calls) == 10
    assert longer.records == evaluate_many([_request(10)], workers=1)[0].records
    # Asked again, nothing is played: the progress reports all ten as found.
    again: list[int] = []
    evaluate_many([_request(10)], workers=2, progress=again.append, journal=tmp_path)
    assert again == [10]


def test_a_killed_run_goes_on_where_it_stopped(tmp_path: Path) -> None:
    # A process playing 6 games of a seeded search (about a second a game) is killed
    # with SIGKILL once its journal holds a batch; the same call again plays the rest
    # and gives what one uninterrupted run gives.
    journal = tmp_path / "journal"
    agents = ("ismcts:iterations=300", "random")
    script = textwrap.dedent(f"""
        from agents.evaluate import EvalRequest, evaluate_many
        evaluate_many([EvalRequest({KK!r}, 2, {list(agents)!r}, 6, 11)], workers=1,
                      journal={str(journal)!r})
    """)
    run = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 120
        while not _files(journal) and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.05)
        assert run.poll() is None, "the run ended before it could be killed"
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
    [file] = _files(journal)
    kept = len(json.loads(file.read_text())["games"])
    assert 0 < kept < 6
    calls: list[int] = []
    resumed = evaluate_many([_request(6, 11, agents)], workers=1, progress=calls.append,
                            journal=journal)[0]
    assert calls[0] == kept and sum(calls) == 6
    assert resumed.records == evaluate_many([_request(6, 11, agents)], workers=1)[0].records


def test_runs_that_differ_keep_files_of_their_own(tmp_path: Path) -> None:
    evaluate_many([_request(3, seed=1), _request(3, seed=2),
                   _request(3, seed=1, agents=("random", "heuristic"))],
                  workers=1, journal=tmp_path)
    assert len(_files(tmp_path)) == 3
    # Another rule option is another run too.
    options = EvalRequest(KK, 2, ["heuristic", "random"], 3, 1,
                          options={"reward": "score_difference"})
    evaluate_many([options], workers=1, journal=tmp_path)
    assert len(_files(tmp_path)) == 4


def test_a_run_folder_named_by_a_spec_is_read_through_its_policy_file(
        tmp_path: Path) -> None:
    bound = as_bound(KK, 2, None)
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(baseline_policy_path(KK, 2), run / "model.safetensors")
    for spec in (f"model:{run}", f"ismcts:iterations=5,prior=policy,model={run}"):
        assert spec_files(spec, bound) == [run / "model.safetensors"], spec


def test_a_changed_model_file_changes_the_key(tmp_path: Path) -> None:
    # The key holds the content of every model file a spec reads: the same path
    # with other bytes is another run.
    bound = as_bound(KK, 2, None)
    model = tmp_path / "net.safetensors"
    shutil.copyfile(baseline_policy_path(KK, 2), model)
    specs = [f"model:{model}", "random"]
    files = [path for spec in specs for path in spec_files(spec, bound)]
    assert files == [model]
    before = run_key(KK, 2, {}, specs, files, 0, 1, False)
    model.write_bytes(model.read_bytes() + b" ")
    after = run_key(KK, 2, {}, specs, files, 0, 1, False)
    assert before["models"] != after["models"]
    assert RunJournal.open(tmp_path, before).path != RunJournal.open(tmp_path, after).path


@pytest.mark.parametrize(("spec", "reads_baseline"), [
    ("baseline", True), ("ismcts:iterations=5,prior=policy", True),
    ("ismcts:iterations=5", False), ("heuristic", False), ("random", False)])
def test_spec_files_name_the_network_a_spec_plays(spec: str, reads_baseline: bool) -> None:
    bound = as_bound(KK, 2, None)
    expected = [baseline_policy_path(KK, 2)] if reads_baseline else []
    assert spec_files(spec, bound) == expected


def test_policy_objects_are_not_journaled(tmp_path: Path) -> None:
    from agents.policy import RandomPolicy

    request = EvalRequest(KK, 2, [RandomPolicy(), "heuristic"], 3, 0)
    [result] = evaluate_many([request], workers=1, journal=tmp_path)
    assert _files(tmp_path) == []
    assert result.journal is None
    assert discard_journals([result]) == 0


def test_a_result_names_the_journal_file_that_kept_its_games(tmp_path: Path) -> None:
    [kept] = evaluate_many([_request(3)], workers=1, journal=tmp_path)
    assert kept.journal is not None
    assert _files(tmp_path) == [kept.journal]
    assert len(json.loads(kept.journal.read_text())["games"]) == 3
    assert evaluate_many([_request(3)], workers=1)[0].journal is None


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "is not a journal"),
    (json.dumps({"journal": "something else"}), "is not a journal"),
    (json.dumps({"journal": JOURNAL_KIND, "version": 99, "key": {}, "games": []}),
     "version 99"),
    (json.dumps({"journal": JOURNAL_KIND, "version": 1, "key": {"other": 1}, "games": []}),
     "another run"),
])
def test_a_journal_that_cannot_be_read_is_refused_before_any_game(
        tmp_path: Path, content: str, message: str) -> None:
    # The run's file is found by playing one game of it; its content then replaced.
    path = _journal_file(tmp_path)
    path.write_text(content)
    calls: list[int] = []
    with pytest.raises(JournalError, match=message):
        evaluate_many([_request(3)], workers=1, progress=calls.append, journal=tmp_path)
    assert calls == []
    assert path.read_text() == content


def _journal_file(folder: Path) -> Path:
    """The journal file of ``_request``'s run in ``folder`` (one game played into it)."""
    path = evaluate_many([_request(1)], workers=1, journal=folder)[0].journal
    assert path is not None and path.parent == folder
    return path


def test_a_journal_game_with_missing_fields_is_refused(tmp_path: Path) -> None:
    path = _journal_file(tmp_path)
    key = json.loads(path.read_text())["key"]
    path.write_text(json.dumps({"journal": JOURNAL_KIND, "version": 1, "key": key,
                                "games": [{"index": 0}]}))
    with pytest.raises(JournalError, match="cannot be read"):
        evaluate_many([_request(3)], workers=1, journal=tmp_path)


def test_a_file_given_as_the_journal_folder_is_refused_before_any_game(
        tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("a file where the journal folder should be")
    calls: list[int] = []
    with pytest.raises(JournalError, match="taken is not a folder"):
        evaluate_many([_request(3)], workers=1, progress=calls.append, journal=blocker)
    assert calls == []
    assert blocker.read_text() == "a file where the journal folder should be"


def test_a_full_disk_stops_the_run_and_keeps_the_journal_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two games are kept; then every write fails as on a full disk: the run stops
    # with the error, the journal still holds its two games, and once there is room
    # the same call goes on from them.
    from agents.evaluate import journal as journal_module

    evaluate_many([_request(2)], workers=1, journal=tmp_path)
    [file] = _files(tmp_path)
    before = file.read_text()

    def full(path: Path, data: str) -> Path:
        raise OutputError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(journal_module, "atomic_write", full)
    with pytest.raises(OutputError, match="No space left"):
        evaluate_many([_request(6)], workers=1, journal=tmp_path)
    assert file.read_text() == before
    monkeypatch.undo()
    calls: list[int] = []
    resumed = evaluate_many([_request(6)], workers=1, progress=calls.append,
                            journal=tmp_path)[0]
    assert calls[0] == 2
    assert resumed.records == evaluate_many([_request(6)], workers=1)[0].records


def test_discarded_journals_are_gone_and_others_stay(tmp_path: Path) -> None:
    first, _ = evaluate_many([_request(2, seed=1), _request(2, seed=2)], workers=1,
                             journal=tmp_path)
    assert discard_journals([first]) == 1
    assert discard_journals([first]) == 0
    [left] = _files(tmp_path)
    assert json.loads(left.read_text())["key"]["seed"] == 2


def test_a_run_another_process_is_playing_into_the_folder_is_refused(
        tmp_path: Path) -> None:
    # While one process holds the run (here: this test, through a lock of its own),
    # the same run into the same folder is refused before any game, naming the holder;
    # another run shares the folder freely. Once let go, the run plays.
    path = _journal_file(tmp_path)
    before = path.read_text()
    holder = RunJournal.open(tmp_path, json.loads(before)["key"])
    calls: list[int] = []
    with holder.hold():
        with pytest.raises(JournalError, match=r"being played by another process \(process "
                           rf"{os.getpid()} "):
            evaluate_many([_request(3)], workers=1, progress=calls.append, journal=tmp_path)
        assert calls == [] and path.read_text() == before
        [other] = evaluate_many([_request(2, seed=9)], workers=1, journal=tmp_path)
        assert other.games == 2
    [played] = evaluate_many([_request(3)], workers=1, journal=tmp_path)
    assert played.games == 3
    # The same run twice in one call is no other process.
    assert len(evaluate_many([_request(3), _request(3)], workers=1, journal=tmp_path)) == 2
    assert discard_journals([played, other]) == 2
    assert list(tmp_path.iterdir()) == []


def test_a_batched_run_is_kept_whole_and_taken_whole(tmp_path: Path) -> None:
    # The batched engine plays a run's games together: the journal holds all of
    # them after one call, and the next call plays none.
    request = EvalRequest("power_hungry_pets", 2, ["random", "baseline"], 4, 0, vector=True)
    first = evaluate_many([request], workers=1, journal=tmp_path)[0]
    [file] = _files(tmp_path)
    assert json.loads(file.read_text())["key"]["engine"] == "batched"
    calls: list[int] = []
    again = evaluate_many([request], workers=1, progress=calls.append, journal=tmp_path)[0]
    assert calls == [4]
    assert again.records == first.records


def test_a_journaled_run_comes_back_in_small_batches(tmp_path: Path) -> None:
    # Without a journal one run of 80 games on one worker is four batches of 20; with
    # one, no batch holds more than JOURNAL_BATCH (10) games, so that a stop loses at
    # most that many per worker. The games are the same either way.
    from agents.evaluate.run import JOURNAL_BATCH

    plain: list[int] = []
    alone = evaluate_many([_request(80)], workers=1, progress=plain.append)[0]
    kept: list[int] = []
    journaled = evaluate_many([_request(80)], workers=1, progress=kept.append,
                              journal=tmp_path)[0]
    assert plain == [20, 20, 20, 20]
    assert kept == [JOURNAL_BATCH] * (80 // JOURNAL_BATCH)
    assert journaled.records == alone.records
