"""The mixed-table benchmark: every seating of two agents at one table, and their shares."""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path

import pytest

from benchmarks import mixed_tables
from benchmarks.mixed_tables import Share, arrangements, main, mixed_table, told_apart
from cardgym.game import Game
from cardgym.registration import find_game


def test_two_of_four_sit_side_by_side_or_apart() -> None:
    assert arrangements(4) == ["ABBB", "AABB", "ABAB", "AAAB"]
    assert arrangements(5) == ["ABBBB", "AABBB", "ABABB", "AAABB", "AABAB", "AAAAB"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_seating_is_a_rotation_of_exactly_one_arrangement(players: int) -> None:
    found = arrangements(players)
    for seats in itertools.product("AB", repeat=players):
        seating = "".join(seats)
        if seating.count("A") in (0, players):
            continue
        rotations = {seating[i:] + seating[:i] for i in range(players)}
        assert len(rotations & set(found)) == 1, seating


def test_a_table_of_one_has_no_mix() -> None:
    with pytest.raises(ValueError, match="at least 2 players"):
        arrangements(1)


def test_shares_are_told_apart_only_when_their_intervals_do_not_overlap() -> None:
    assert told_apart(Share(300, 1000), Share(200, 1000))
    assert not told_apart(Share(300, 1000), Share(280, 1000))
    assert (Share(3, 10) + Share(4, 10)) == Share(7, 20)


def test_the_heuristic_stands_clear_of_random_at_every_mix(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    rows = mixed_table("karel_kakelaar", 5, "heuristic", "random", 20, 3, workers=1)
    assert [seating for seating, _, _ in rows] == arrangements(5)
    for seating, mine, theirs in rows:
        assert mine.seat_games == 20 * seating.count("A")
        assert theirs.seat_games == 20 * seating.count("B")
        assert mine.rate > theirs.rate, seating
    pooled_mine = sum((mine for _, mine, _ in rows), Share(0, 0))
    pooled_theirs = sum((theirs for _, _, theirs in rows), Share(0, 0))
    assert told_apart(pooled_mine, pooled_theirs)

    assert main(["--env", "karel_kakelaar", "--agent", "heuristic", "--against", "random",
                 "--games", "20", "--seed", "3", "--workers", "1",
                 "--output", str(tmp_path)]) == 0
    text = (tmp_path / "mixed_tables.md").read_text()
    table = [line for line in text.splitlines() if line.startswith("| ")][1:]
    assert [line.split(" | ")[0] for line in table] == (
        ["| " + " ".join(seating) for seating in arrangements(5)] + ["| all"])
    last = table[-1]
    assert last == (f"| all | {pooled_mine.text()} | {pooled_theirs.text()} | yes |")
    assert re.search(r"seeds 3 to 8", text)


def test_bad_input_is_refused_and_writes_nothing(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in ((["--env", "nope"], "unknown game 'nope'"),
                          (["--env", "karel_kakelaar", "--players", "9"], "2..5 players"),
                          (["--env", "karel_kakelaar", "--agent", "bogus"], "unknown agent"),
                          (["--env", "karel_kakelaar", "--players", "1"], "at least 2"),
                          (["--seed", "-1"], "an integer >= 0")):
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--games", "2", "--workers", "1", "--output", str(tmp_path)])
        assert stop.value.code == 2
        assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_game_without_a_baseline_needs_its_table_size(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bare = dataclasses.replace(find_game("karel_kakelaar"), baseline_players=())
    monkeypatch.setattr(mixed_tables, "find_game", lambda name: bare)
    with pytest.raises(SystemExit):
        main(["--env", "karel_kakelaar", "--games", "2"])
    assert "ships no baseline to take the table size from" in capsys.readouterr().err


def test_by_default_every_game_with_a_table_above_two_players_is_measured(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen = []

    def fake(game: Game, players: int, *rest: object) -> list[tuple[str, Share, Share]]:
        seen.append((game.name, players))
        return [(seating, Share(1, 2), Share(1, 2)) for seating in arrangements(players)]

    monkeypatch.setattr(mixed_tables, "mixed_table", fake)
    assert main(["--games", "2"]) == 0
    assert sorted(seen) == [("exploding_kittens", 4), ("karel_kakelaar", 5),
                            ("power_hungry_pets", 4)]
