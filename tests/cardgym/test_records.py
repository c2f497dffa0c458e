"""Game records and position files of every registered game (cardgym.records,
cardgym.positions, cardgym.replay)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardgym import positions
from cardgym.errors import DocumentError
from cardgym.game import Game
from cardgym.records import GameRecord, Recorder, replay
from cardgym.registration import games
from cardgym.replay import frame, position_document, run
from cardgym.testing import random_action

GAMES = games()
IDS = [game.name for game in GAMES]


def played(game: Game, num_players: int, seed: int) -> tuple[GameRecord, list[Any]]:
    """A random game's record, and the state before each move and at the end."""
    env = game.make_env(num_players=num_players)
    env.reset(seed=seed)
    recorder = Recorder(env, seed, players=[f"random-{s}" for s in range(num_players)])
    rng = np.random.default_rng(seed)
    states = [env.game_state.clone()]
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else random_action(obs["action_mask"], rng)
        recorder.step(action)
        env.step(action)
        if action is not None:
            states.append(env.game_state.clone())
    return recorder.record(), states


def edited(record: GameRecord, **changes: Any) -> dict[str, Any]:
    data = record.to_json()
    data.update(changes)
    return data


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_saved_record_replays_through_the_same_states(game: Game, tmp_path: Path) -> None:
    for num_players in game.player_counts[:2]:
        record, states = played(game, num_players, seed=3)
        path = record.save(tmp_path / f"{num_players}.json")
        loaded = GameRecord.load(path)
        assert loaded == GameRecord.load(json.loads(path.read_text()))
        assert loaded.moves == record.moves and loaded.winners == record.winners
        again = replay(path)
        assert len(again.states) == len(states) == len(record.moves) + 1
        assert all(a == b for a, b in zip(again.states, states, strict=True))
        assert game.is_over(again.states[-1]) and not game.is_over(again.states[-2])
        assert loaded.options == {k: json.loads(json.dumps(v))
                                  for k, v in game.option_defaults().items()}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_record_that_no_longer_replays_says_where_it_breaks(game: Game) -> None:
    num_players = game.player_counts[0]
    record, _ = played(game, num_players, seed=5)
    moves = [list(move) for move in record.moves]
    seat, name = moves[0]
    cases = [
        ([[seat, "no_such_action"], *moves[1:]], "move 1: 'no_such_action' is not an action of"),
        ([[(seat + 1) % num_players, name], *moves[1:]], f"move 1: seat {seat} is to act"),
        (moves[:-1], "is not over; the record is cut short"),
        ([*moves, moves[-1]], f"move {len(moves) + 1}: the game is already over"),
    ]
    for changed, message in cases:
        with pytest.raises(DocumentError, match=message):
            replay(edited(record, moves=changed))
    wrong = {"returns": list(record.returns), "winners": [s for s in range(num_players)
                                                          if s not in record.winners]}
    with pytest.raises(DocumentError, match="the replay ends with winners"):
        replay(edited(record, result=wrong))
    older = game.env_id.replace(f"-v{game.version}", f"-v{game.version + 7}")
    with pytest.raises(DocumentError, match=f"made by {older} and does not replay on this "
                                            f"cardgym's {game.env_id}: move 1"):
        replay(edited(record, env_id=older, moves=[[seat, "no_such_action"], *moves[1:]]))


def test_an_illegal_move_in_a_record_names_the_legal_ones() -> None:
    """The first move of a game replaced by a move legal at no point of the start."""
    game = GAMES[0]
    record, _ = played(game, game.player_counts[0], seed=1)
    env = game.make_env(num_players=record.num_players)
    env.reset(seed=record.seed)
    illegal = next(name for i, name in enumerate(env.action_table.names)
                   if i not in env.legal_actions())
    seat = record.moves[0][0]
    with pytest.raises(DocumentError, match=f"move 1: '{illegal}' is not legal there; legal: "):
        replay(edited(record, moves=[[seat, illegal], *[list(m) for m in record.moves[1:]]]))


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "cardgym-position"}, "not a cardgym-record document"),
    ({"format_version": 99}, "format_version 99 is not one this cardgym reads"),
    ({"env_id": "cardgym/chess-v1"}, "unknown game 'chess'"),
    ({"num_players": 99}, "'num_players' 99 is not a table size"),
    ({"seed": -1}, "'seed' must be a non-negative integer"),
    ({"moves": [[0]]}, r"moves\[0\] must be \[seat"),
    ({"result": {"returns": []}}, "'result' must be"),
    ({"options": {"no_such_option": 1}}, "'options': .*no_such_option"),
])
def test_a_malformed_record_is_refused_naming_the_field(change: dict[str, Any],
                                                        message: str) -> None:
    record, _ = played(GAMES[0], GAMES[0].player_counts[0], seed=2)
    with pytest.raises(DocumentError, match=message):
        replay(edited(record, **change))


def test_a_missing_or_broken_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="no such file"):
        GameRecord.load(tmp_path / "absent.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(DocumentError, match="not a JSON record file"):
        GameRecord.load(broken)
    broken.write_text("[1, 2]")
    with pytest.raises(DocumentError, match="holds one JSON object, got list"):
        positions.load(broken)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_viewer_steps_forward_and_back_from_any_seat(game: Game) -> None:
    num_players = game.player_counts[0]
    record, states = played(game, num_players, seed=4)
    replayed = replay(record)
    out = io.StringIO()
    k = min(3, len(record.moves))
    commands = (f"n\nn\np\nseat 1\n{k}\ntable\nend\nn\n0\np\nseat 9\nfly\n"
                "1\nposition\nend\nposition\nq\n")
    assert run(replayed, io.StringIO(commands), out) == 0
    text = out.getvalue()
    shown = [frame(replayed, step, seat) for step, seat in
             [(0, None), (1, None), (2, None), (1, None), (1, 1), (k, 1), (k, None),
              (len(record.moves), None), (0, None)]]
    position = 0
    for expected in shown:  # every frame, in order
        found = text.find(expected, position)
        assert found >= 0, f"frame missing:\n{expected}"
        position = found + len(expected)
    assert "the game is over (p goes back)" in text
    assert "this is the start (n goes on)" in text
    assert f"seats are 0..{num_players - 1}" in text
    assert "unknown command 'fly'" in text
    start = text.index('{\n "format": "cardgym-position"')
    written, _ = json.JSONDecoder().raw_decode(text, start)
    assert written == position_document(replayed, 1)
    assert "the game is over here; a position is taken before the end" in text
    assert frame(replayed, 1, 0) != frame(replayed, 1, None)  # the seat's view hides cards
    mover, name = record.moves[0]
    assert f"move 1/{len(record.moves)}: seat {mover} chose {name}" in frame(replayed, 1, 0)
    assert f"Game over: winners {list(record.winners)}" in shown[-2]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_position_file_taken_from_a_replay_sets_up_the_same_state(game: Game,
                                                                    tmp_path: Path) -> None:
    num_players = game.player_counts[-1]
    record, states = played(game, num_players, seed=6)
    replayed = replay(record)
    step = len(record.moves) // 2
    path = tmp_path / "middle.json"
    path.write_text(json.dumps(position_document(replayed, step)))
    env = positions.load(path, seed=1)
    expected = states[step]
    if game.canonical_state is not None:
        expected = game.canonical_state(expected)
    assert env.game_state == expected
    assert positions.document(env) == json.loads(path.read_text())
    positions.save(env, tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text()) == json.loads(path.read_text())


def test_a_position_file_of_another_env_version_is_refused(tmp_path: Path) -> None:
    game = GAMES[0]
    env = game.make_env(num_players=game.player_counts[0])
    env.reset(seed=0)
    document = positions.document(env)
    document["env_id"] = game.env_id.replace(f"-v{game.version}", f"-v{game.version + 1}")
    kept = ", ".join(game.env_ids)
    with pytest.raises(DocumentError, match=f"made for {document['env_id']}; this cardgym has "
                                            f"{kept}"):
        positions.load(document)
    del document["scenario"]
    document["env_id"] = game.env_id
    with pytest.raises(DocumentError, match="a position file needs 'scenario'"):
        positions.load(document)
