"""The agent ladder (benchmarks/ladder.py): rungs, the step up from each rung, the
matrix, the first seat, the files and the README table, and bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from agents.evaluate import EvalResult, GameOutcome, evaluate, match_game_seed
from benchmarks import arena_report, ladder
from benchmarks.ladder import FirstSeat, LadderSetting, Rung, first_seat, run_ladder, rungs
from cardgym.registration import find_game

PETS = find_game("power_hungry_pets")

#: Quick rungs for played ladders: searches on an iteration budget, so that the games
#: do not depend on the machine's speed.
QUICK = [Rung("random", "random"), Rung("heuristic", "heuristic"),
         Rung("ISMCTS 4 iterations", "ismcts:iterations=4"), Rung("network", "baseline")]


@pytest.fixture(scope="module")
def played() -> LadderSetting:
    return run_ladder([(PETS, 2)], QUICK, games=6, first_seat_games=8, seed=3, workers=1)[0]


# --------------------------------------------------------------------- rungs


def test_the_default_rungs_climb_from_random_to_guided_search() -> None:
    chosen = rungs()
    assert [rung.name for rung in chosen] == [
        "random", "heuristic", "ISMCTS 64 ms", "ISMCTS 128 ms", "network",
        "guided ISMCTS 128 ms"]
    assert [rung.spec for rung in chosen] == [
        "random", "heuristic", "ismcts:time=0.064", "ismcts:time=0.128", "baseline",
        "ismcts:time=0.128,prior=policy,value=policy,select=puct,c=1.5"]


def test_search_rungs_are_ordered_by_time_and_the_guided_one_takes_the_longest() -> None:
    chosen = rungs([0.5, 0.03])
    assert [rung.spec for rung in chosen[2:4]] == ["ismcts:time=0.03", "ismcts:time=0.5"]
    assert chosen[-1].spec.startswith("ismcts:time=0.5,")


@pytest.mark.parametrize(("times", "message"), [
    ([], "at least one time"), ([0.0], "above 0"), ([-1.0], "above 0"),
    ([0.1, 0.1], "must differ")])
def test_bad_times_say_what_is_allowed(times: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rungs(times)


# ------------------------------------------------------------------ first seat


def _result(records: list[GameOutcome]) -> EvalResult:
    return EvalResult(game=PETS, num_players=2, specs=["random", "random"], agents=[],
                      games=len(records), seed=0, seat_wins=[0, 0], steps=0, rounds=0,
                      records=records)


def test_the_first_seat_wins_when_it_is_among_the_winners() -> None:
    records = [GameOutcome(0, (0, 1), (0,), 1, (1, 0), first=0),
               GameOutcome(1, (1, 0), (0,), 1, (1, 0), first=1),
               GameOutcome(2, (0, 1), (1,), 1, (1, 0), first=1),
               GameOutcome(3, (0, 1), (0, 1), 1, (1, 0), first=0)]
    seat = first_seat("random", _result(records))
    assert (seat.games, seat.wins) == (4, 3)
    assert seat.rate == 0.75
    low, high = seat.interval
    assert low < 0.75 < high


def test_games_that_do_not_know_their_first_seat_are_refused() -> None:
    with pytest.raises(ValueError, match="batched engine"):
        first_seat("random", _result([GameOutcome(0, (0, 1), (0,), 1, (1, 0))]))


def test_evaluation_records_the_seat_that_acted_first() -> None:
    result = evaluate(PETS, 2, ["random", "random"], games=6, seed=11, workers=1)
    env = PETS.make_env(num_players=2)
    for record in result.records:
        env.reset(seed=match_game_seed(11, record.index, 0))
        assert record.first == env.possible_agents.index(env.agent_selection)
    assert {record.first for record in result.records} == {0, 1}  # a random first player


# --------------------------------------------------------------- a played ladder


def test_each_pair_of_rungs_meets_and_the_two_player_matrix_adds_up(
        played: LadderSetting) -> None:
    count = len(QUICK)
    for i in range(count):
        for j in range(count):
            if i == j:
                continue
            mine, theirs = played.head_to_head(i, j), played.head_to_head(j, i)
            assert mine is not None and theirs is not None
            assert mine.seat_games == theirs.seat_games == 6
            # A match of rounds has one winner: what one rung wins, the other loses.
            assert mine.wins + theirs.wins == 6


def test_told_apart_means_the_interval_leaves_out_the_even_share(
        played: LadderSetting) -> None:
    verdicts = []
    for i in range(1, len(QUICK)):
        result = played.head_to_head(i, i - 1)
        assert result is not None
        low, high = result.interval
        assert played.told_apart(i, i - 1) == (low > 0.5 or high < 0.5)
        verdicts.append(played.told_apart(i, i - 1))
    # The heuristic against random, 6 matches: its interval leaves out one half only
    # if it won (or lost) nearly all of them.
    heuristic = played.head_to_head(1, 0)
    assert heuristic is not None
    assert verdicts[0] == (heuristic.wins >= 6 or heuristic.wins == 0)


def test_the_report_shows_each_step_up_the_matrix_and_the_first_seat(
        played: LadderSetting) -> None:
    text = ladder.format_markdown([played], workers=1, command="python -m benchmarks.ladder",
                                  seconds=90)
    assert "### power_hungry_pets, 2 players" in text
    assert "Command: `python -m benchmarks.ladder`. Wall time of that command: 2 min." in text
    step = played.head_to_head(1, 0)
    assert step is not None
    low, high = step.interval
    assert (f"| 2 | heuristic (`heuristic`) | {step.win_rate:.3f} ({low:.2f}-{high:.2f}) |"
            in text)
    assert "| rung | vs random | vs heuristic | vs ISMCTS 4 iterations | vs network |" in text
    assert "| power_hungry_pets | 2 | 0.500 | random | 8 |" in text
    assert "| power_hungry_pets | 2 | 0.500 | heuristic | 8 |" in text
    assert [seat.games for seat in played.first_seat] == [8, 8]


def test_files_hold_every_pairing_and_the_readme_table_every_step(
        played: LadderSetting, tmp_path: Path) -> None:
    paths = ladder.write_results([played], tmp_path / "out", workers=1)
    assert [path.name for path in paths] == ["ladder.md", "ladder.csv",
                                             "ladder_first_seat.csv"]
    with paths[1].open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(QUICK) * (len(QUICK) - 1)
    for row in rows:
        result = played.head_to_head(int(row["rung"]) - 1, int(row["opponent_rung"]) - 1)
        assert result is not None and int(row["wins"]) == result.wins
    with paths[2].open(newline="") as handle:
        seats = list(csv.DictReader(handle))
    assert [(row["agent"], row["games"]) for row in seats] == [("random", "8"),
                                                              ("heuristic", "8")]
    table = ladder.readme_table(tmp_path / "out").splitlines()
    assert len(table) == 2 + len(QUICK) - 1  # header, rule, one row per step up
    assert table[2].startswith("| power_hungry_pets | 2 | 2 | heuristic | ")
    readme = tmp_path / "README.md"
    begin, end = arena_report.MARKERS["ladder"]
    readme.write_text(f"intro\n{begin}\nold\n{end}\noutro\n", encoding="utf-8")
    ladder.write_readme(readme, tmp_path / "out")
    assert readme.read_text(encoding="utf-8") == (
        f"intro\n{begin}\n" + "\n".join(table) + f"\n{end}\noutro\n")


@pytest.fixture(scope="module")
def kakelaar() -> LadderSetting:
    return run_ladder([(find_game("karel_kakelaar"), 2)], QUICK, games=4, first_seat_games=4,
                      seed=5, workers=1)[0]


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_second_setting_written_later_keeps_the_first(
        played: LadderSetting, kakelaar: LadderSetting, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    ladder.write_results([played], folder, workers=1, command="first", seconds=60)
    ladder.write_results([kakelaar], folder, workers=2, command="second", seconds=120)
    text = (folder / "ladder.md").read_text(encoding="utf-8")
    sections = ladder.read_sections(text)
    assert list(sections) == ["karel_kakelaar 2p", "power_hungry_pets 2p"]
    assert "Command: `first`. Wall time of that command: 1 min." in sections[
        "power_hungry_pets 2p"]
    assert "Command: `second`. Wall time of that command: 2 min." in sections[
        "karel_kakelaar 2p"]
    assert text.count("## Agent ladder") == 1
    rows = _rows(folder / "ladder.csv")
    count = len(QUICK) * (len(QUICK) - 1)
    assert [row["game"] for row in rows] == ["karel_kakelaar"] * count + [
        "power_hungry_pets"] * count
    seats = _rows(folder / "ladder_first_seat.csv")
    assert [(row["game"], row["games"]) for row in seats] == [
        ("karel_kakelaar", "4"), ("karel_kakelaar", "4"),
        ("power_hungry_pets", "8"), ("power_hungry_pets", "8")]
    steps = ladder.readme_table(folder).splitlines()[2:]
    assert len(steps) == 2 * (len(QUICK) - 1)


def test_a_setting_played_again_replaces_its_earlier_result(
        played: LadderSetting, kakelaar: LadderSetting, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    ladder.write_results([played, kakelaar], folder, workers=1, command="both")
    ladder.write_results([played], folder, workers=1, command="again")
    sections = ladder.read_sections((folder / "ladder.md").read_text(encoding="utf-8"))
    assert "`again`" in sections["power_hungry_pets 2p"]
    assert "`both`" in sections["karel_kakelaar 2p"]
    rows = _rows(folder / "ladder.csv")
    assert len(rows) == 2 * len(QUICK) * (len(QUICK) - 1)
    assert len(_rows(folder / "ladder_first_seat.csv")) == 4
    # Written twice, the files are the same: nothing is added twice.
    before = {name: (folder / name).read_text() for name in
              ("ladder.md", "ladder.csv", "ladder_first_seat.csv")}
    ladder.write_results([played], folder, workers=1, command="again")
    assert {name: (folder / name).read_text() for name in before} == before


def test_a_report_without_setting_markers_keeps_nothing(
        played: LadderSetting, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "ladder.md").write_text("## Agent ladder\n\n### karel_kakelaar, 2 players\n",
                                      encoding="utf-8")
    ladder.write_results([played], folder, workers=1)
    assert list(ladder.read_sections((folder / "ladder.md").read_text())) == [
        "power_hungry_pets 2p"]


def test_without_results_the_readme_table_names_the_command(tmp_path: Path) -> None:
    assert "make tables" in ladder.readme_table(tmp_path)


def test_the_readme_shows_the_current_ladder_table() -> None:
    text = arena_report.README.read_text(encoding="utf-8")
    table = ladder.readme_table()
    assert arena_report.readme_with_tables(text, {"ladder": table}) == text, \
        "README ladder table is stale: run python -m benchmarks.ladder --write-readme"


# ----------------------------------------------------------------- bad input


def test_a_table_size_without_a_baseline_network_is_refused() -> None:
    with pytest.raises(ValueError, match="no baseline network at 3 players"):
        run_ladder([(PETS, 3)], QUICK, games=2, first_seat_games=0)


@pytest.mark.parametrize(("games", "first", "message"), [
    (0, 0, "games per pairing"), (2, -1, "first-seat games")])
def test_bad_sizes_are_refused(games: int, first: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_ladder([(PETS, 2)], QUICK, games=games, first_seat_games=first)


@pytest.mark.parametrize(("argv", "message"), [
    (["--times", "0.1", "0.1"], "must differ"),
    (["--env", "power_hungry_pets", "--players", "3"], "no baseline network"),
    (["--times", "0"], "--times"),
    (["--env", "no_such_game"], "no_such_game")])
def test_the_command_line_says_what_is_wrong(argv: list[str], message: str,
                                             capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        ladder.main([*argv, "--output", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_first_seat_rate_has_its_interval() -> None:
    seat = FirstSeat("heuristic", games=100, wins=60)
    low, high = seat.interval
    assert seat.rate == 0.6 and 0.5 < low < 0.6 < high < 0.7


# ------------------------------------------------------------------- journal


def test_a_ladder_played_again_with_its_journal_plays_no_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every game of the first call is kept; the second call (one worker: the games
    # would be played in this process) takes them all from the journal.
    import agents.evaluate.run

    first = run_ladder([(PETS, 2)], QUICK, games=2, first_seat_games=2, seed=4, workers=1,
                       journal=tmp_path)

    def no_game(batch: object) -> None:
        raise AssertionError("a game was played again")

    monkeypatch.setattr(agents.evaluate.run, "play_games", no_game)
    again = run_ladder([(PETS, 2)], QUICK, games=2, first_seat_games=2, seed=4, workers=1,
                       journal=tmp_path)[0]
    assert [result.records for _, _, result in again.setting.runs] == [
        result.records for _, _, result in first[0].setting.runs]
    assert again.first_seat == first[0].first_seat


def test_discarding_removes_this_ladders_journal_and_keeps_another(tmp_path: Path) -> None:
    played = [run_ladder([(PETS, 2)], QUICK, games=1, first_seat_games=1, seed=seed,
                         workers=1, journal=tmp_path) for seed in (4, 5)]
    files = sorted(tmp_path.glob("run-*.json"))
    pairings = len(QUICK) * (len(QUICK) - 1) // 2
    per_ladder = pairings + len(ladder.FIRST_SEAT_AGENTS)
    assert len(files) == 2 * per_ladder
    removed = ladder.discard_journal(played[0])
    assert removed == per_ladder
    left = [json.loads(path.read_text())["key"]["seed"] for path in tmp_path.glob("run-*")]
    assert len(left) == per_ladder
    assert 4 not in left


def test_the_command_line_removes_its_journal_once_the_results_are_written(
        tmp_path: Path) -> None:
    journal = tmp_path / "journal"
    code = ladder.main(["--env", "karel_kakelaar", "--players", "2", "--games", "1",
                        "--times", "0.002", "--first-seat-games", "1", "--workers", "1",
                        "--no-progress", "--output", str(tmp_path / "out"),
                        "--journal", str(journal)])
    assert code == 0
    assert (tmp_path / "out" / "ladder.csv").is_file()
    assert journal.is_dir() and list(journal.iterdir()) == []


def test_a_file_given_as_the_journal_is_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "taken"
    taken.write_text("not a folder")
    with pytest.raises(SystemExit) as stop:
        ladder.main(["--env", "karel_kakelaar", "--players", "2", "--games", "1",
                     "--first-seat-games", "0", "--workers", "1", "--no-progress",
                     "--output", str(tmp_path / "out"), "--journal", str(taken)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--journal: the journal" in err and "is not a folder" in err
    assert not (tmp_path / "out").exists()
