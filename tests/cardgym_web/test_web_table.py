"""One game at a web table (cardgym_web.table.WebTable), without the web: its seats and
tokens, the view each viewer gets, and every check of a move, each refusal leaving the
game as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardgym import positions
from cardgym.records import replay
from cardgym.registration import find_game
from cardgym_web.errors import WebError
from cardgym_web.table import SPECTATOR, WebTable, new_seed

PETS = find_game("power_hungry_pets")
KITTENS = find_game("exploding_kittens")


def people(game: Any = PETS, players: int = 2, seed: int = 3) -> WebTable:
    return WebTable("t1", game, players, {}, ["human"] * players, seed)


def state(table: WebTable) -> tuple[int, str, int]:
    return (table.version, json.dumps(positions.document(table.env), sort_keys=True),
            len(table.recorder.moves))


def refuse(table: WebTable, code: str, seat: int, action: object, version: object) -> str:
    before = state(table)
    with pytest.raises(WebError) as refused:
        table.move(seat, action, version)
    assert refused.value.code == code, refused.value.message
    assert state(table) == before
    return refused.value.message


def test_each_human_seat_has_its_own_secret_token() -> None:
    table = WebTable("t1", PETS, 3, {}, ["human", "heuristic", "human"], 3)
    assert set(table.tokens) == {0, 2} and table.tokens[0] != table.tokens[2]
    assert all(len(token) >= 24 for token in table.tokens.values())
    links = table.links()
    assert links == {"0": f"/table/t1#seat=0&token={table.tokens[0]}",
                     "2": f"/table/t1#seat=2&token={table.tokens[2]}",
                     SPECTATOR: "/table/t1"}
    # The lobby's summary holds no token and no card.
    summary = json.dumps(table.summary())
    assert not any(token in summary for token in table.tokens.values())
    assert summary.count("human") == 2 and "heuristic" in summary
    assert WebTable("t2", PETS, 3, {}, ["human"] * 3, 3).tokens[0] != table.tokens[0]


def test_a_viewer_needs_a_seat_of_a_person_and_its_token() -> None:
    table = WebTable("t1", PETS, 2, {}, ["human", "random"], 3)
    other = people()
    assert table.viewer(None, None) is None
    assert table.viewer(0, table.tokens[0]) == 0
    for seat, token, code in ((0, other.tokens[0], "bad_token"), (0, None, "bad_token"),
                              (0, table.tokens[0] + "x", "bad_token"),
                              (0, table.tokens[0][:-1], "bad_token"),
                              (1, table.tokens[0], "bad_seat"), (2, "x", "bad_seat"),
                              (-1, "x", "bad_seat"), (True, table.tokens[0], "bad_seat"),
                              ("0", table.tokens[0], "bad_seat")):
        with pytest.raises(WebError) as refused:
            table.viewer(seat, token)
        assert refused.value.code == code, (seat, token)
    with pytest.raises(WebError, match="token") as refused:
        table.viewer(0, "é")
    assert refused.value.status == 403


def test_each_viewer_gets_the_table_view_of_its_seat() -> None:
    table = people(KITTENS, 3)
    for viewer in (0, 1, 2, None):
        message = table.message(viewer)
        assert message["type"] == "view" and message["seat"] == viewer
        assert message["version"] == 0 and not message["out"]
        assert message["view"] == table.env.table_view(viewer)
        assert [seat["player"] for seat in message["seats"]] == ["human"] * 3
    hands = [table.message(seat)["view"]["seats"][seat]["hand"]["cards"] for seat in range(3)]
    spectator = table.message(None)["view"]
    assert all(card is None for seat in spectator["seats"] for card in seat["hand"]["cards"])
    assert all(card is not None for hand in hands for card in hand)


def test_a_view_is_made_once_per_version() -> None:
    table = people()
    first = table.message(0)
    assert table.message(0) is first
    seat = table.to_act
    assert seat is not None
    table.move(seat, int(table.env.legal_actions()[0]), 0)
    again = table.message(0)
    assert again is not first and again["version"] == 1 == table.version


def test_every_refused_move_leaves_the_game_as_it_was() -> None:
    table = people()
    seat = table.to_act
    assert seat is not None
    legal = [int(action) for action in table.env.legal_actions()]
    names = table.env.action_table.names
    illegal = min(set(range(len(names))) - set(legal))
    assert "seat" in refuse(table, "not_your_turn", 1 - seat, legal[0], 0)
    assert "version 0" in refuse(table, "stale", seat, legal[0], 1)
    assert "'version'" in refuse(table, "bad_message", seat, legal[0], "0")
    assert "'version'" in refuse(table, "bad_message", seat, legal[0], False)
    assert "legal:" in refuse(table, "illegal_move", seat, illegal, 0)
    assert "legal:" in refuse(table, "illegal_move", seat, names[illegal], 0)
    assert "not an action" in refuse(table, "illegal_move", seat, "x" * 1000, 0)
    for action in (None, 1.0, True, -1, len(names), [legal[0]]):
        assert f"0..{len(names) - 1}" in refuse(table, "bad_message", seat, action, 0)
    assert table.move(seat, names[legal[0]], 0) == legal[0]
    assert table.version == 1 and table.recorder.moves[-1] == (seat, names[legal[0]])


def test_no_move_after_the_game_is_over() -> None:
    table = people(seed=4)
    rng = np.random.default_rng(0)
    while not table.over:
        seat = table.to_act
        assert seat is not None
        table.move(seat, int(rng.choice(table.env.legal_actions())), table.version)
    assert table.to_act is None and not table.bot_to_act()
    assert "over" in refuse(table, "game_over", 0, 0, table.version)


def test_a_seat_out_of_a_game_that_goes_on_watches_the_spectators_view() -> None:
    rng = np.random.default_rng(1)
    for seed in range(20):
        table = people(KITTENS, 3, seed)
        while not table.over and len(table.env.agents) == 3:
            seat = table.to_act
            assert seat is not None
            table.move(seat, int(rng.choice(table.env.legal_actions())), table.version)
        if not table.over:
            break
    else:
        pytest.fail("no game of three left a seat out before its end")
    [gone] = [seat for seat in range(3) if table.env.possible_agents[seat] not in table.env.agents]
    message = table.message(gone)
    assert message["out"] and message["seat"] == gone
    assert message["view"] == table.env.table_view(None)
    assert not any(table.message(seat)["out"] for seat in range(3) if seat != gone)


def test_bots_play_and_the_record_is_saved(tmp_path: Path) -> None:
    table = WebTable("abc", PETS, 2, {}, ["heuristic", "random"], 9)
    assert table.tokens == {} and table.links() == {SPECTATOR: "/table/abc"}
    while table.bot_to_act():
        version = table.version
        table.play_bot(table.bot_action())
        assert table.version == version + 1
    assert table.over
    name = table.save_record(tmp_path / "records")
    assert re.fullmatch(r"\d{8}-\d{6}-power_hungry_pets-2p-abc\.json", name)
    assert table.record_name == name and table.message(None)["record"] == name
    assert [path.name for path in (tmp_path / "records").iterdir()] == [name]
    played = replay(tmp_path / "records" / name)
    assert len(played) == table.version and played.record.seed is not None
    # The same seed, the same game.
    twin = WebTable("abd", PETS, 2, {}, ["heuristic", "random"], 9)
    while twin.bot_to_act():
        twin.play_bot(twin.bot_action())
    assert twin.record().moves == table.record().moves


def test_a_table_starts_from_a_scenario() -> None:
    source = people(KITTENS, 2, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(5):
        seat = source.to_act
        assert seat is not None
        source.move(seat, int(rng.choice(source.env.legal_actions())), source.version)
    document = positions.document(source.env)
    table = WebTable("t9", KITTENS, 2, {}, ["human", "human"], 1, document["scenario"])
    assert table.version == 0
    assert positions.document(table.env) == document
    assert table.message(0)["view"]["seats"] == source.message(0)["view"]["seats"]


def test_new_seeds_differ() -> None:
    seeds = {new_seed() for _ in range(8)}
    assert len(seeds) == 8 and all(0 <= seed < 2**64 for seed in seeds)
