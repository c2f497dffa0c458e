"""The command line's game records and positions: ``eval --record``, ``arena --record``,
``play --record`` and ``--position``, and ``cardgym replay``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from benchmarks.arena import run_arena
from cardgym import positions
from cardgym.records import GameRecord, replay
from cardgym_cli import main

GAME = "karel_kakelaar"


class CyclingAnswers(io.StringIO):
    """A player who answers 0, 1, 2, ... in turn: the game asks again after an illegal
    answer, so every decision is reached within one cycle of the action indices."""

    def __init__(self, actions: int) -> None:
        super().__init__()
        self.actions = actions
        self.count = 0

    def readline(self, size: int | None = -1) -> str:
        self.count += 1
        return f"{self.count % self.actions}\n"


def test_eval_writes_a_record_of_every_game_and_each_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "records"
    assert main(["eval", GAME, "--agents", "heuristic", "random", "--games", "3",
                 "--workers", "1", "--no-progress", "--record", str(folder)]) == 0
    assert "wrote 3 game records" in capsys.readouterr().out
    files = sorted(folder.glob("*.json"))
    assert [f.name for f in files] == ["game-00000.json", "game-00001.json", "game-00002.json"]
    for number, path in enumerate(files):
        record = GameRecord.load(path)
        assert record.env_id == "cardgym/karel_kakelaar-v2"
        # Seats rotate game by game: game 1 has the heuristic at seat 1.
        assert record.players[number % 2] == "heuristic"
        assert main(["replay", str(path), "--check"]) == 0
        assert "replays to its result" in capsys.readouterr().out


def test_arena_writes_one_folder_per_pairing(tmp_path: Path) -> None:
    run_arena([(GAME, 2)], ["random", "heuristic"], games=2, workers=1,
              record_dir=str(tmp_path))
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    # Two players: each pair once, in label order.
    assert files == ["karel_kakelaar-2p/heuristic-vs-random/game-00000.json",
                     "karel_kakelaar-2p/heuristic-vs-random/game-00001.json"]
    assert all(replay(tmp_path / f).record.moves for f in files)


def test_replay_prints_views_and_writes_a_position_play_starts_from(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "records"
    assert main(["eval", GAME, "--agents", "random", "random", "--games", "1",
                 "--workers", "1", "--no-progress", "--record", str(folder)]) == 0
    path = folder / "game-00000.json"
    moves = len(GameRecord.load(path).moves)
    capsys.readouterr()
    assert main(["replay", str(path), "--all", "--seat", "1"]) == 0
    text = capsys.readouterr().out
    assert text.count("seat 1's view") == moves + 1
    assert "Game over: winners" in text
    assert main(["replay", str(path), "--step", "4", "--print"]) == 0
    assert capsys.readouterr().out.startswith(f"move 4/{moves}: seat ")
    middle = tmp_path / "middle.json"
    assert main(["replay", str(path), "--step", "4", "--position-out", str(middle)]) == 0
    env = positions.load(middle)
    assert env.game_state == replay(path).states[4]
    # Play on from that position as seat 0, and record the rest of the game.
    monkeypatch.setattr("sys.stdin", CyclingAnswers(env.action_space("player_0").n))
    rest = tmp_path / "rest.json"
    assert main(["play", GAME, "--position", str(middle), "--seed", "3", "--record",
                 str(rest), "--opponents", "heuristic"]) == 0
    assert "Record written to" in capsys.readouterr().out
    record = GameRecord.load(rest)
    assert record.scenario == json.loads(middle.read_text())["scenario"]
    assert record.players == ("human", "heuristic")
    assert replay(rest).states[0] == env.game_state


@pytest.mark.parametrize(("argv", "message"), [
    (["--step", "9999"], "--step: the record has"),
    (["--seat", "7"], "--seat: seats are 0..1"),
])
def test_replay_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     argv: list[str], message: str) -> None:
    assert main(["eval", GAME, "--agents", "random", "random", "--games", "1", "--workers", "1",
                 "--no-progress", "--record", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "game-00000.json"), *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_record_that_does_not_replay_exits_1_saying_where(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", GAME, "--agents", "random", "random", "--games", "1", "--workers", "1",
                 "--no-progress", "--record", str(tmp_path)]) == 0
    path = tmp_path / "game-00000.json"
    data = json.loads(path.read_text())
    data["moves"][2][1] = "bid:chicken_9"
    path.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(path), "--check"]) == 1
    assert "move 3: 'bid:chicken_9' is not an action of cardgym/karel_kakelaar-v2" in (
        capsys.readouterr().err)
    assert main(["replay", str(tmp_path / "absent.json")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_play_refuses_a_position_of_another_game_or_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = positions.load({"format": "cardgym-position", "format_version": 1,
                          "env_id": "cardgym/karel_kakelaar-v2", "num_players": 3,
                          "options": {}, "scenario": {}})
    path = positions.save(env, tmp_path / "start.json")
    assert main(["play", "power_hungry_pets", "--position", str(path)]) == 2
    assert "the file is a position of karel_kakelaar, not power_hungry_pets" in (
        capsys.readouterr().err)
    assert main(["play", GAME, "--position", str(path), "--players", "2"]) == 2
    assert "the position has 3 players" in capsys.readouterr().err
    assert main(["play", GAME, "--position", str(tmp_path / "absent.json")]) == 2
    assert "no such file" in capsys.readouterr().err
