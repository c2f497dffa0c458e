"""The browser table's server (cardgym_web) through Starlette's test client: every
refusal of a websocket message or an HTTP request, each checked to change nothing;
replays, pictures, idle tables, bots, and the ``cardgym serve`` command.

Every refusal is an ``error`` message (or an HTTP body) with a stable ``code`` and a
sentence naming what is allowed; "nothing changed" is checked on the server itself:
each open table's version, position (``cardgym.positions.document``) and moves made.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import shutil
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardgym import positions
from cardgym.records import replay
from cardgym.registration import find_game
from cardgym.table import FULL, state_view
from cardgym_cli import main
from cardgym_web import hub as hub_module
from cardgym_web.app import (
    CLOSE_FULL,
    CLOSE_NO_TABLE,
    CLOSE_REFUSED,
    FLOOD_CLOSE,
    Server,
    Settings,
    create_app,
)
from cardgym_web.command import _is_loopback
from cardgym_web.command import run as serve_run
from cardgym_web.errors import WebError
from cardgym_web.hub import Limits, RateLimit
from cardgym_web.replays import MAX_TEXT
from cardgym_web.seats import server_spec
from cardgym_web.table import WebTable

REPO = Path(__file__).resolve().parents[2]
PETS = "power_hungry_pets"
#: A table of two people: nothing moves unless a test moves.
TWO_PEOPLE: dict[str, Any] = {"game": PETS, "players": 2, "seats": ["human", "human"],
                              "seed": 7}
Snapshot = dict[str, tuple[int, str, int, str | None]]


# ------------------------------------------------------------------ the server


class Harness:
    """A test client with its server, and the helpers the tests share."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.server: Server = client.app.state.server  # type: ignore[attr-defined]

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a coroutine function on the app's event loop."""
        return self.client.portal.call(function, *args)  # type: ignore[union-attr]

    def open(self, **body: Any) -> tuple[str, dict[int, str]]:
        """Open a table (two people by default): its id and the seats' tokens."""
        response = self.client.post("/api/tables", json={**TWO_PEOPLE, **body})
        assert response.status_code == 201, response.text
        data = response.json()
        tokens = {int(seat): link.split("token=")[1] for seat, link in data["links"].items()
                  if seat != "spectator"}
        return data["table"], tokens

    def table(self, table_id: str) -> WebTable:
        return self.server.hub.table(table_id)

    def wait(self, table_id: str, ready: Callable[[WebTable], bool]) -> WebTable:
        return self.call(self.server.hub.wait_for, table_id, ready)

    def snapshot(self) -> Snapshot:
        """What a refusal must not change: per open table its version, its position,
        the moves recorded and its record."""
        return {table.table_id: (table.version,
                                 json.dumps(positions.document(table.env), sort_keys=True),
                                 len(table.recorder.moves), table.record_name)
                for table in self.server.hub.tables()}

    def listed(self) -> list[str]:
        return [entry["table"] for entry in self.client.get("/api/tables").json()["tables"]]


@pytest.fixture
def make_harness(tmp_path: Path) -> Iterator[Callable[..., Harness]]:
    """Start servers: ``make_harness(models=..., origins=..., **limits)``."""
    clients: list[TestClient] = []

    def make(models: Path | None = None, origins: tuple[str, ...] = (),
             **limits: Any) -> Harness:
        settings = Settings(records=tmp_path / "records", models=models,
                            limits=Limits(**{"bot_delay": 0.0, **limits}),
                            allowed_origins=origins)
        client = TestClient(create_app(settings))
        client.__enter__()
        clients.append(client)
        return Harness(client)

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def harness(make_harness: Callable[..., Harness]) -> Harness:
    return make_harness()


def legal(table: WebTable) -> list[int]:
    return [int(action) for action in table.env.legal_actions()]


def send(socket: Any, message: Any) -> None:
    socket.send_text(message if isinstance(message, str) else json.dumps(message))


def refused(socket: Any, message: Any, code: str) -> str:
    """Send ``message``; the error's sentence (its code checked)."""
    send(socket, message)
    reply = socket.receive_json()
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    return str(reply["message"])


def join(socket: Any, seat: int | None, token: str | None = None) -> dict[str, Any]:
    send(socket, {"type": "join", "seat": seat, "token": token})
    reply = socket.receive_json()
    assert reply["type"] == "view", reply
    return dict(reply)


def move(socket: Any, table: WebTable, action: int | str | None = None) -> dict[str, Any]:
    """Play a legal move (the first one by default); the next view."""
    version = table.version
    send(socket, {"type": "move", "action": legal(table)[0] if action is None else action,
                  "version": version})
    reply = socket.receive_json()
    assert reply["type"] == "view" and reply["version"] == version + 1, reply
    return dict(reply)


def still_works(socket: Any) -> None:
    """The connection still answers after a refusal."""
    send(socket, {"type": "ping"})
    assert socket.receive_json() == {"type": "pong"}


@pytest.fixture
def seated(harness: Harness) -> Iterator[tuple[Harness, WebTable, Any, Any, int]]:
    """A two-person table with both seats joined: (harness, table, socket of the seat
    to act, socket of the other seat, the seat to act)."""
    table_id, tokens = harness.open()
    table = harness.table(table_id)
    acting = table.to_act
    assert acting is not None
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as first, \
            harness.client.websocket_connect(f"/ws/tables/{table_id}") as second:
        join(first, acting, tokens[acting])
        join(second, 1 - acting, tokens[1 - acting])
        yield harness, table, first, second, acting


# --------------------------------------------------------------- websocket: join


def test_a_wrong_token_is_refused_and_names_the_seat(harness: Harness) -> None:
    table_id, tokens = harness.open()
    before = harness.snapshot()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        text = refused(socket, {"type": "join", "seat": 0, "token": tokens[1]}, "bad_token")
        assert "not seat 0's" in text and "link" in text
        # Not joined: a move is refused as from nobody.
        assert "join the table first" in refused(
            socket, {"type": "move", "action": 0, "version": 0}, "not_joined")
        still_works(socket)
    assert harness.snapshot() == before


@pytest.mark.parametrize("token", [None, "", 12345, ["x"]])
def test_a_missing_token_is_refused(harness: Harness, token: object) -> None:
    table_id, _ = harness.open()
    before = harness.snapshot()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        message: dict[str, Any] = {"type": "join", "seat": 1}
        if token is not None:
            message["token"] = token
        assert "seat 1 needs its token" in refused(socket, message, "bad_token")
    assert harness.snapshot() == before


def test_a_bots_seat_cannot_be_taken(harness: Harness) -> None:
    table_id, tokens = harness.open(seats=["human", "heuristic"])
    table = harness.wait(table_id, lambda t: t.to_act == 0)   # the bot waits for seat 0
    assert set(tokens) == {0}
    before = harness.snapshot()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        text = refused(socket, {"type": "join", "seat": 1, "token": tokens[0]}, "bad_seat")
        assert "played by heuristic" in text and "seat null" in text
        # Watching it is fine.
        assert join(socket, None)["seat"] is None
    assert harness.snapshot() == before and table.to_act == 0


@pytest.mark.parametrize("seat", [2, -1, 99, "0", 1.0, True, [0]])
def test_a_seat_out_of_range_is_refused_and_names_the_seats(harness: Harness,
                                                            seat: object) -> None:
    table_id, tokens = harness.open()
    before = harness.snapshot()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        text = refused(socket, {"type": "join", "seat": seat, "token": tokens[0]}, "bad_seat")
        assert "0..1" in text and "null" in text
    assert harness.snapshot() == before


def closed_with(socket: Any, code: int) -> str:
    """The websocket is closed now, with ``code``: its reason. (A ping is sent first:
    an open websocket answers it, and the test fails instead of waiting.)"""
    send(socket, {"type": "ping"})
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == code, (closed.value.code, closed.value.reason)
    return str(closed.value.reason)


def test_a_websocket_to_a_table_that_does_not_exist_is_closed_with_the_reason(
        harness: Harness) -> None:
    harness.open()
    before = harness.snapshot()
    with harness.client.websocket_connect("/ws/tables/no-such-table") as socket:
        send(socket, {"type": "ping"})              # never answered: told at once
        error = socket.receive_json()
        assert error["type"] == "error" and error["code"] == "no_table"
        assert "no open table 'no-such-table'" in error["message"]
        assert "no open table 'no-such-table'" in closed_with(socket, CLOSE_NO_TABLE)
    assert harness.snapshot() == before
    assert harness.client.get("/api/tables/no-such-table/picture").status_code == 404
    assert harness.server.open_connections == 0 and not harness.server.connections


def test_a_move_before_joining_is_refused(harness: Harness) -> None:
    table_id, _ = harness.open()
    table = harness.table(table_id)
    before = harness.snapshot()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        text = refused(socket, {"type": "move", "action": legal(table)[0], "version": 0},
                       "not_joined")
        assert '"type": "join"' in text
    assert harness.snapshot() == before


def test_join_with_unknown_fields_is_refused(harness: Harness) -> None:
    table_id, tokens = harness.open()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        text = refused(socket, {"type": "join", "seat": 0, "token": tokens[0], "as": "admin"},
                       "bad_request")
        assert "'as'" in text and "fields: type, seat, token" in text
        refused(socket, {"type": "move", "action": 0, "version": 0}, "not_joined")


# -------------------------------------------------------------- websocket: moves


def test_a_move_from_a_seat_not_to_act_is_refused(seated: tuple[Any, ...]) -> None:
    harness, table, first, second, acting = seated
    before = harness.snapshot()
    text = refused(second, {"type": "move", "action": legal(table)[0], "version": 0},
                   "not_your_turn")
    assert f"seat {acting} (player_{acting}) is to act" in text
    assert harness.snapshot() == before
    move(first, table)                          # the seat to act still plays


def test_a_spectator_does_not_move(seated: tuple[Any, ...]) -> None:
    harness, table, first, _, _ = seated
    with harness.client.websocket_connect(f"/ws/tables/{table.table_id}") as watcher:
        assert join(watcher, None)["seat"] is None
        before = harness.snapshot()
        text = refused(watcher, {"type": "move", "action": legal(table)[0], "version": 0},
                       "not_your_turn")
        assert "spectator does not move" in text
        assert harness.snapshot() == before
        move(first, table)
        assert watcher.receive_json()["version"] == 1   # and still watches


def test_a_stale_version_is_refused(seated: tuple[Any, ...]) -> None:
    harness, table, first, second, acting = seated
    move(first, table)
    assert second.receive_json()["version"] == 1
    # Whoever is to act now, a move chosen on version 0 is stale.
    socket = {acting: first, 1 - acting: second}[table.to_act]
    before = harness.snapshot()
    for stale in (0, 2, 10**9, -1):
        text = refused(socket, {"type": "move", "action": legal(table)[0], "version": stale},
                       "stale")
        assert f"on version {stale}" in text and "at version 1" in text
    assert harness.snapshot() == before


@pytest.mark.parametrize("version", [None, "0", 0.0, True, [0]])
def test_a_version_that_is_not_an_integer_is_refused(seated: tuple[Any, ...],
                                                     version: object) -> None:
    harness, table, first, _, _ = seated
    before = harness.snapshot()
    message: dict[str, Any] = {"type": "move", "action": legal(table)[0]}
    if version is not None:
        message["version"] = version
    assert "'version'" in refused(first, message, "bad_message")
    assert harness.snapshot() == before


def test_an_illegal_action_by_index_is_refused_and_the_legal_ones_named(
        seated: tuple[Any, ...]) -> None:
    harness, table, first, _, _ = seated
    names = table.env.action_table.names
    illegal = min(set(range(len(names))) - set(legal(table)))
    before = harness.snapshot()
    text = refused(first, {"type": "move", "action": illegal, "version": 0}, "illegal_move")
    assert f"{illegal} is not a legal move now" in text
    assert all(names[action] in text for action in legal(table))
    assert harness.snapshot() == before
    move(first, table)


def test_an_illegal_action_by_name_is_refused(seated: tuple[Any, ...]) -> None:
    harness, table, first, _, _ = seated
    names = table.env.action_table.names
    illegal = names[min(set(range(len(names))) - set(legal(table)))]
    before = harness.snapshot()
    text = refused(first, {"type": "move", "action": illegal, "version": 0}, "illegal_move")
    assert f"{illegal!r} is not a legal move now; legal: " in text
    text = refused(first, {"type": "move", "action": "fly:away", "version": 0}, "illegal_move")
    assert "'fly:away' is not an action of Power Hungry Pets" in text
    assert harness.snapshot() == before
    move(first, table, names[legal(table)[0]])      # a legal name is played


@pytest.mark.parametrize("action", [None, 1.5, 0.0, True, [0], {"a": 0}, -1, 10**6])
def test_an_action_that_is_not_an_index_or_a_name_is_refused(seated: tuple[Any, ...],
                                                             action: object) -> None:
    harness, table, first, _, _ = seated
    before = harness.snapshot()
    message: dict[str, Any] = {"type": "move", "version": 0}
    if action is not None:
        message["action"] = action
    text = refused(first, message, "bad_message")
    assert f"action index 0..{len(table.env.action_table.names) - 1} or an action name" in text
    assert harness.snapshot() == before


# ---------------------------------------------------------- websocket: messages


@pytest.mark.parametrize("text", ["{nope", "", "move 3", '{"type": "move",'])
def test_malformed_json_is_refused(seated: tuple[Any, ...], text: str) -> None:
    harness, _, first, _, _ = seated
    before = harness.snapshot()
    assert "not JSON" in refused(first, text, "bad_json")
    assert harness.snapshot() == before
    still_works(first)


@pytest.mark.parametrize("message", [[{"type": "ping"}], ["move", 0, 0], "null", 3,
                                     '"ping"', {"kind": "move"}, {"type": 1}])
def test_a_message_that_is_not_an_object_with_a_type_is_refused(seated: tuple[Any, ...],
                                                                message: object) -> None:
    harness, _, first, _, _ = seated
    before = harness.snapshot()
    text = refused(first, message if isinstance(message, str) else json.dumps(message),
                   "bad_message")
    assert "JSON object with a 'type': join, move or ping" in text
    assert harness.snapshot() == before


def test_an_unknown_message_type_is_refused(seated: tuple[Any, ...]) -> None:
    harness, _, first, _, _ = seated
    before = harness.snapshot()
    text = refused(first, {"type": "resign"}, "bad_message")
    assert "unknown message type 'resign'; types: join, move, ping" in text
    assert harness.snapshot() == before


def test_a_move_with_unknown_fields_is_refused(seated: tuple[Any, ...]) -> None:
    harness, table, first, _, _ = seated
    before = harness.snapshot()
    text = refused(first, {"type": "move", "action": legal(table)[0], "version": 0,
                           "seat": 1}, "bad_request")
    assert "unknown field(s) 'seat'; fields: type, action, version" in text
    assert harness.snapshot() == before


def test_an_oversized_message_is_refused(seated: tuple[Any, ...]) -> None:
    harness, table, first, _, _ = seated
    limit = harness.server.limits.max_message_bytes
    before = harness.snapshot()
    # A legal move, but padded past the limit: refused for its size alone.
    message = {"type": "move", "action": legal(table)[0], "version": 0, "pad": "x" * limit}
    assert f"over the limit of {limit} bytes" in refused(first, message, "too_large")
    assert harness.snapshot() == before
    move(first, table)


def nested(depth: int, inner: str = "0") -> str:
    """JSON arrays nested ``depth`` deep around ``inner``."""
    return "[" * depth + inner + "]" * depth


def test_a_deeply_nested_message_is_refused_and_the_connection_goes_on(
        seated: tuple[Any, ...], caplog: pytest.LogCaptureFixture) -> None:
    harness, table, first, _, _ = seated
    limit = harness.server.limits.max_json_depth
    before = harness.snapshot()
    # The review's message: 2,000 [ and 2,000 ] (4 KB, under the size limit).
    text = refused(first, "[" * 2000 + "]" * 2000, "bad_json")
    assert f"nests arrays and objects more than {limit} deep; the limit is {limit}" in text
    refused(first, '{"type": "ping", "pad": ' + nested(limit) + "}", "bad_json")  # limit + 1
    assert harness.snapshot() == before
    # At the limit it is read as JSON; brackets inside a string are text (escaped
    # quotes and backslashes in it too).
    send(first, '{"type": "ping", "pad": ' + nested(limit - 1) + "}")
    assert first.receive_json() == {"type": "pong"}
    send(first, json.dumps({"type": "ping", "pad": '"\\' + "[{" * 1000, "x": ['"]']}))
    assert first.receive_json() == {"type": "pong"}
    move(first, table)
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


def test_a_binary_message_is_read_as_text(seated: tuple[Any, ...]) -> None:
    _, _, first, _, _ = seated
    first.send_bytes(b'{"type": "ping"}')
    assert first.receive_json() == {"type": "pong"}


# ------------------------------------------------------------- websocket: floods


class FrozenClock:
    """``time`` for cardgym_web.hub: monotonic stands still until moved on."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_the_rate_limit_allows_a_burst_then_refills(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FrozenClock()
    monkeypatch.setattr(hub_module, "time", clock)
    limit = RateLimit(rate=2.0, burst=3)
    assert [limit.allow() for _ in range(5)] == [True, True, True, False, False]
    clock.now += 0.25                       # half a token
    assert not limit.allow()
    clock.now += 0.25                       # one token
    assert limit.allow() and not limit.allow()
    clock.now += 100                        # refilled to the burst, no more
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]


def test_a_flood_is_refused_then_play_goes_on_after_the_refill(
        make_harness: Callable[..., Harness], monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FrozenClock()
    monkeypatch.setattr(hub_module, "time", clock)
    harness = make_harness(message_burst=3, messages_per_second=2.0)
    table_id, tokens = harness.open()
    table = harness.table(table_id)
    acting = table.to_act
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        join(socket, acting, tokens[acting])                        # 1 of 3
        send(socket, {"type": "ping"})                              # 2
        send(socket, {"type": "ping"})                              # 3
        send(socket, {"type": "move", "action": legal(table)[0], "version": 0})  # dropped
        send(socket, {"type": "ping"})                              # dropped, silently
        assert socket.receive_json() == {"type": "pong"}
        assert socket.receive_json() == {"type": "pong"}
        flood = socket.receive_json()
        assert flood["type"] == "error" and flood["code"] == "flood"
        assert "at most 3 at once and 2 a second" in flood["message"]
        assert table.version == 0                                   # the move was dropped
        clock.now += 0.5                                            # one token back
        still_works(socket)                                         # the next reply: pong
        clock.now += 10
        move(socket, table)                                         # play goes on


def test_a_connection_that_keeps_flooding_is_closed(
        make_harness: Callable[..., Harness], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "time", FrozenClock())
    harness = make_harness(message_burst=1, messages_per_second=1.0)
    table_id, _ = harness.open()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        still_works(socket)
        for _ in range(FLOOD_CLOSE):
            send(socket, {"type": "ping"})
        # Told at the first refusal and every tenth, then closed.
        codes = [socket.receive_json()["code"] for _ in range(1 + FLOOD_CLOSE // 10)]
        assert codes == ["flood"] * (1 + FLOOD_CLOSE // 10)
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1008
    assert harness.listed() == [table_id]


# ------------------------------------------------------------ websocket: origins


@pytest.mark.parametrize("origin", ["http://evil.example", "null",
                                    "http://testserver.evil.example", "http://evil.example:80"])
def test_a_websocket_from_another_site_is_refused_and_closed(harness: Harness,
                                                             origin: str) -> None:
    table_id, tokens = harness.open()
    before = harness.snapshot()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}",
                                          headers={"origin": origin}) as socket:
        reply = socket.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_origin"
        assert origin in reply["message"] and "this server's own page" in reply["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1008
    assert harness.snapshot() == before
    assert not any(harness.server.hub._tables[table_id].listeners)


@pytest.mark.parametrize("headers", [{"origin": "http://testserver"},
                                     {"origin": "https://TESTSERVER"}, {}])
def test_the_servers_own_origin_and_no_origin_are_accepted(harness: Harness,
                                                          headers: dict[str, str]) -> None:
    table_id, tokens = harness.open()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}", headers=headers) as socket:
        assert join(socket, 0, tokens[0])["seat"] == 0


def test_an_allowed_origin_is_accepted(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(origins=("http://localhost:5173",))
    table_id, tokens = harness.open()
    with harness.client.websocket_connect(
            f"/ws/tables/{table_id}", headers={"origin": "http://localhost:5173"}) as socket:
        assert join(socket, 1, tokens[1])["seat"] == 1
    with harness.client.websocket_connect(
            f"/ws/tables/{table_id}", headers={"origin": "http://localhost:5174"}) as socket:
        assert socket.receive_json()["code"] == "bad_origin"


# ---------------------------------------------------------- websocket: how many


def client_from(harness: Harness, address: str) -> TestClient:
    """A test client of the same server (its event loop) whose websockets come from
    another client address."""
    other = TestClient(harness.client.app, client=(address, 40000))
    other.portal = harness.client.portal
    return other


def test_websockets_are_capped_per_client_address(
        make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_connections_per_client=2)
    table_id, _ = harness.open()
    url = f"/ws/tables/{table_id}"
    with harness.client.websocket_connect(url) as one, \
            harness.client.websocket_connect(url) as two:
        join(one, None)
        join(two, None)
        with harness.client.websocket_connect(url) as third:
            send(third, {"type": "ping"})           # never answered: told at once
            error = third.receive_json()
            assert error["type"] == "error" and error["code"] == "too_many_connections"
            assert "your address holds this server's limit of 2 websockets" in \
                error["message"]
            assert "limit of 2 websockets" in closed_with(third, CLOSE_FULL)
        # Another address is not held up by this one's.
        with client_from(harness, "192.0.2.7").websocket_connect(url) as elsewhere:
            assert join(elsewhere, None)["seat"] is None
            assert harness.server.connections == {"testclient": 2, "192.0.2.7": 1}
    # Closed websockets give their places back.
    with harness.client.websocket_connect(url) as again:
        assert join(again, None)["seat"] is None
    assert harness.server.open_connections == 0 and not harness.server.connections
    assert not harness.server.hub._tables[table_id].listeners


def test_websockets_are_capped_per_server(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_connections=2)
    table_id, _ = harness.open()
    url = f"/ws/tables/{table_id}"
    with client_from(harness, "192.0.2.1").websocket_connect(url) as one, \
            client_from(harness, "192.0.2.2").websocket_connect(url) as two:
        join(one, None)
        join(two, None)
        with client_from(harness, "192.0.2.3").websocket_connect(url) as third:
            send(third, {"type": "ping"})
            error = third.receive_json()
            assert error["type"] == "error" and error["code"] == "too_many_connections"
            assert "the server holds its limit of 2 websockets; try again later" in \
                error["message"]
            closed_with(third, CLOSE_FULL)
        still_works(one)
    assert harness.server.open_connections == 0


def test_a_websocket_that_does_not_join_in_time_is_closed(
        make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(join_seconds=0.0)
    table_id, _ = harness.open()
    before = harness.snapshot()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        error = socket.receive_json()
        assert error["type"] == "error" and error["code"] == "join_timeout"
        assert "joins its table within 0 seconds" in error["message"]
        assert '"seat": null' in error["message"]
        assert "joins its table" in closed_with(socket, CLOSE_REFUSED)
    assert harness.snapshot() == before
    assert harness.server.open_connections == 0


# -------------------------------------------------------------- HTTP: new tables


def _models(tmp_path: Path) -> Path:
    """A models folder offering one real policy file (and its card)."""
    models = tmp_path / "models"
    models.mkdir()
    source = REPO / "models" / f"{PETS}-2p"
    shutil.copy(source / "model.safetensors", models / "pets.safetensors")
    shutil.copy(source / "model.json", models / "pets.json")
    return models


BAD_TABLES: list[tuple[dict[str, Any], str, list[str]]] = [
    ({"game": "chess"}, "bad_game", ["unknown game 'chess'", "power_hungry_pets",
                                     "exploding_kittens", "karel_kakelaar"]),
    ({"game": 3}, "bad_request", ["'game' must name a game", "karel_kakelaar"]),
    ({"game": PETS, "options": {"speed": 2}}, "bad_options",
     ["unknown option 'speed'", "robovac", "final_tie"]),
    ({"game": PETS, "options": {"robovac": "sometimes"}}, "bad_options",
     ["robovac='sometimes'", "'dethrone', 'duel_only'"]),
    ({"game": PETS, "options": ["robovac"]}, "bad_request", ["'options' must be an object"]),
    ({"game": PETS, "players": 7}, "bad_options", ["2..6 players, not 7"]),
    ({"game": "karel_kakelaar", "players": 1}, "bad_options", ["2..5 players, not 1"]),
    ({"game": PETS, "players": "2"}, "bad_request", ["'players' must be one of [2, 3, 4, 5, 6]"]),
    ({"game": PETS, "players": 2, "seats": ["human"]}, "bad_request",
     ["'seats' has 1 entries; the table has 2 seats"]),
    ({"game": PETS, "players": 2, "seats": "human,human"}, "bad_request",
     ["'seats' must be a list of 2 agents"]),
    ({"game": PETS, "players": 3, "seats": ["human", "heuristic", "heuristic", "random"]},
     "bad_request", ["has 4 entries; the table has 3 seats"]),
    ({"game": PETS, "seats": ["human", 7]}, "bad_agent", ["seat 1: give an agent as a string"]),
    ({"game": PETS, "seats": ["human", "alphazero"]}, "bad_agent",
     ["unknown agent 'alphazero'", "random, heuristic, baseline"]),
    ({"game": PETS, "seats": ["human", "model+pickle:x"]}, "bad_agent",
     ["seat 1: model+pickle loads a pickled file", "never does", "model:NAME"]),
    ({"game": PETS, "seats": ["rllib+pickle:x", "human"]}, "bad_agent",
     ["seat 0: rllib+pickle loads a pickled file"]),
    ({"game": PETS, "seats": ["human", "rllib:x"]}, "bad_agent", ["pickled file"]),
    ({"game": PETS, "seats": ["human", "model:../../etc/passwd"]}, "bad_agent",
     ["offers no model files", "--models DIR"]),
    ({"game": PETS, "seats": ["human", "model:/abs/path"]}, "bad_agent",
     ["offers no model files"]),
    ({"game": PETS, "seats": ["human", "ismcts:prior=policy,model=/etc/passwd"]}, "bad_agent",
     ["offers no model files"]),
    ({"game": PETS, "seats": ["human", "ismcts:time=60"]}, "bad_agent",
     ["time=60 is over this server's limit of 5 seconds per move"]),
    ({"game": PETS, "seats": ["human", "ismcts:iterations=999999"]}, "bad_agent",
     ["iterations=999999 is over this server's limit of 5000", "time=SECONDS"]),
    ({"game": PETS, "seats": ["human", "ismcts:time=nan"]}, "bad_agent", ["time must be"]),
    ({"game": PETS, "seats": ["human", "ismcts:depth=3"]}, "bad_agent",
     ["unknown ismcts setting 'depth'"]),
    ({"game": PETS, "seed": -1}, "bad_request", ["'seed' must be a non-negative integer"]),
    ({"game": PETS, "seed": "7"}, "bad_request", ["'seed' must be a non-negative integer"]),
    ({"game": PETS, "seed": 2**63}, "bad_request", ["'seed' must be a non-negative integer"]),
    ({"game": PETS, "seed": True}, "bad_request", ["'seed' must be a non-negative integer"]),
    ({"game": PETS, "seed": 1.5}, "bad_request", ["'seed' must be a non-negative integer"]),
    ({"game": PETS, "table": "mine"}, "bad_request",
     ["unknown field(s) 'table'", "fields: game, players, options, seats, seed, position"]),
    ({"game": PETS, "position": [1]}, "bad_position", ["a position file's JSON object"]),
    ({"game": PETS, "position": {"format": "cardgym-record"}}, "bad_position",
     ["not a cardgym-position document"]),
    ({"position": {"format": "cardgym-position", "format_version": 1,
                   "env_id": "cardgym/chess-v1", "num_players": 2, "options": {}}},
     "bad_position", ["chess"]),
]


@pytest.mark.parametrize(("body", "code", "words"), BAD_TABLES,
                         ids=[f"{code}-{index}" for index, (_, code, _) in
                              enumerate(BAD_TABLES)])
def test_a_bad_table_request_is_refused_and_says_what_is_allowed(
        harness: Harness, body: dict[str, Any], code: str, words: list[str]) -> None:
    response = harness.client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["type"] == "error" and error["code"] == code, error
    for word in words:
        assert word in error["message"], error["message"]
    assert harness.listed() == [] and harness.snapshot() == {}


@pytest.mark.parametrize("spec", ["model:../../etc/passwd", "model:/abs/path",
                                  "model:../models/pets.safetensors", "model:pets.json",
                                  "model:ABSOLUTE", "ismcts:prior=policy,model=/etc/passwd"])
def test_with_a_models_folder_only_its_names_are_offered(
        make_harness: Callable[..., Harness], tmp_path: Path, spec: str) -> None:
    models = _models(tmp_path)
    harness = make_harness(models=models)
    spec = spec.replace("ABSOLUTE", str(models / "pets.safetensors"))
    response = harness.client.post("/api/tables", json={"game": PETS,
                                                        "seats": ["human", spec]})
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "bad_agent"
    assert "is not a model file this server offers; offered: pets.safetensors" in \
        error["message"]
    assert harness.listed() == []


def test_an_offered_model_sits_at_a_table(make_harness: Callable[..., Harness],
                                          tmp_path: Path) -> None:
    harness = make_harness(models=_models(tmp_path))
    assert harness.client.get("/api/games").json()["models"] == ["pets.safetensors"]
    table_id, tokens = harness.open(seats=["human", "model:pets.safetensors"])
    table = harness.table(table_id)
    assert table.seats[1] == f"model:{tmp_path / 'models' / 'pets.safetensors'}"
    assert list(tokens) == [0]
    # Of another game: refused when the table is built, with the reason.
    other = tmp_path / "models" / "kittens.safetensors"
    shutil.copy(REPO / "models" / "exploding_kittens-2p" / "model.safetensors", other)
    shutil.copy(REPO / "models" / "exploding_kittens-2p" / "model.json",
                other.with_suffix(".json"))
    response = harness.client.post("/api/tables", json={
        "game": PETS, "seats": ["human", "model:kittens.safetensors"]})
    assert response.status_code == 400
    assert "trained on cardgym/exploding_kittens" in response.json()["message"]
    assert harness.listed() == [table_id]


def test_a_search_with_a_huge_playout_budget_is_refused() -> None:
    # Checked on the spec alone: a table would set the search thinking.
    with pytest.raises(WebError) as refused:
        server_spec("ismcts:rollout=batched,horizon=game,playouts=1000000,time=0.1", None)
    assert refused.value.code == "bad_agent"
    assert "playouts" in refused.value.message


def test_a_search_on_iterations_alone_gets_the_time_limit_too() -> None:
    assert server_spec("ismcts:iterations=100", None) == "ismcts:iterations=100,time=5"


def test_a_body_that_is_not_json_by_type_is_refused(harness: Harness) -> None:
    response = harness.client.post("/api/tables", content=json.dumps(TWO_PEOPLE),
                                   headers={"content-type": "text/plain"})
    assert response.status_code == 415
    assert response.json()["code"] == "bad_request"
    assert "Content-Type: application/json" in response.json()["message"]
    response = harness.client.post("/api/tables", data={"game": PETS})   # a form
    assert response.status_code == 415
    assert harness.listed() == []


@pytest.mark.parametrize("body", [b"{nope", b"", b"\xff\xfe", b'{"game": "power_hungry_pets"',
                                  b"[1, 2]", b'"power_hungry_pets"', b"null"])
def test_a_body_that_is_not_a_json_object_is_refused(harness: Harness, body: bytes) -> None:
    response = harness.client.post("/api/tables", content=body,
                                   headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "bad_json"
    assert "not JSON" in error["message"] or "one JSON object" in error["message"]
    assert harness.listed() == []


@pytest.mark.parametrize("route", ["/api/tables", "/api/replays"])
@pytest.mark.parametrize("body", ["[" * 100_000 + "]" * 100_000,
                                  '{"a": ' * 100_000 + "0" + "}" * 100_000,
                                  '{"game": "power_hungry_pets", "seats": ' + nested(40) + "}"],
                         ids=["arrays-100000", "objects-100000", "a-field-40"])
def test_a_deeply_nested_body_is_refused(harness: Harness, route: str, body: str,
                                         caplog: pytest.LogCaptureFixture) -> None:
    response = harness.client.post(route, content=body.encode(),
                                   headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["code"] == "bad_json"
    assert error["message"] == "the body nests arrays and objects more than 32 deep; the " \
                               "limit is 32"
    assert harness.listed() == [] and not harness.server.replays._replays
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


def test_an_oversized_body_is_refused_by_its_length(
        make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_upload_bytes=1000)
    body = json.dumps({**TWO_PEOPLE, "options": {"pad": "x" * 2000}}).encode()
    response = harness.client.post("/api/tables", content=body,
                                   headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert f"the body is {len(body)} bytes; the limit is 1000" in response.json()["message"]
    assert harness.listed() == []


def test_an_oversized_body_is_refused_while_it_streams(
        make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_upload_bytes=1000)
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:       # no Content-Length: chunked
        yield b'{"game": "power_hungry_pets", "pad": "'
        for _ in range(100):
            sent.append(1)
            yield b"x" * 100
        yield b'"}'

    response = harness.client.post("/api/tables", content=chunks(),
                                   headers={"content-type": "application/json"})
    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert "over the limit of 1000 bytes" in response.json()["message"]
    assert harness.listed() == []


def test_too_many_tables_are_refused(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_tables=2)
    opened = [harness.open()[0], harness.open()[0]]
    before = harness.snapshot()
    response = harness.client.post("/api/tables", json=TWO_PEOPLE)
    assert response.status_code == 503
    error = response.json()
    assert error["code"] == "too_many_tables"
    assert "limit of 2 tables" in error["message"]
    assert harness.snapshot() == before and harness.listed() == opened
    assert harness.client.get("/api/tables").json()["max_tables"] == 2


def test_tables_opened_at_once_keep_to_the_limit(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_tables=2)
    game = find_game(PETS)

    def build(table_id: str) -> WebTable:
        threading.Event().wait(0.05)            # building takes time (a model loads)
        return WebTable(table_id, game, 2, {}, ["human", "human"], 1)

    async def open_five() -> list[Any]:
        return await asyncio.gather(*(harness.server.hub.open(build) for _ in range(5)),
                                    return_exceptions=True)

    results = harness.call(open_five)
    made = [result for result in results if isinstance(result, WebTable)]
    assert len(made) == 2 and len(harness.listed()) == 2
    assert {getattr(result, "code", None) for result in results if result not in made} == \
        {"too_many_tables"}


def _position(game_name: str, players: int, moves: int, seed: int = 1) -> dict[str, Any]:
    """The position file of a game of random moves, ``moves`` moves in."""
    env = find_game(game_name).make_env(num_players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(env.legal_actions())))
    return positions.document(env)


@pytest.mark.parametrize("game_name", [PETS, "exploding_kittens", "karel_kakelaar"])
def test_a_table_starts_from_a_position_file(harness: Harness, game_name: str) -> None:
    document = _position(game_name, 3, 6)
    table_id, tokens = harness.open(game=None, players=None, seed=None, position=document,
                                    seats=["human", "human", "human"])
    table = harness.table(table_id)
    assert table.version == 0 and table.num_players == 3
    assert positions.document(table.env) == document
    acting = table.to_act
    assert acting is not None
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        view = join(socket, acting, tokens[acting])["view"]
        assert view == json.loads(json.dumps(table.env.table_view(acting)))
        assert view["legal_moves"]


def test_a_bad_position_is_refused(harness: Harness) -> None:
    document = _position(PETS, 2, 4)
    cases = [
        ({"game": "karel_kakelaar", "position": document}, "bad_request",
         "the position is of power_hungry_pets, not 'karel_kakelaar'"),
        ({"players": 3, "position": document}, "bad_request",
         "the position has 2 players, not 3"),
        ({"position": {key: value for key, value in document.items() if key != "scenario"}},
         "bad_position", "no 'scenario' object"),
        ({"position": {**document, "scenario": "deal"}}, "bad_position", "'scenario' object"),
        ({"position": {**document, "scenario": _position("karel_kakelaar", 2, 4)["scenario"]}},
         "bad_request", "unknown scenario keys ['bids'"),
        ({"position": {**document, "scenario": {**document["scenario"], "hands": "xyz"}}},
         "bad_request", "hands must hold one hand for each of the 2 seats"),
        ({"position": {**document, "num_players": 9}}, "bad_position",
         "'num_players' 9 is not a table size of Power Hungry Pets; allowed: 2, 3, 4, 5, 6"),
        ({"position": {**document, "options": {"robovac": "never"}}}, "bad_position",
         "allowed: 'dethrone', 'duel_only'"),
        ({"position": {**document, "env_id": "cardgym/power_hungry_pets-v0"}}, "bad_position",
         "made for cardgym/power_hungry_pets-v0"),
    ]
    for body, code, words in cases:
        response = harness.client.post("/api/tables", json={"seats": ["human", "human"], **body})
        assert response.status_code == 400, (body, response.text)
        assert response.json()["code"] == code, response.json()
        assert words in response.json()["message"], response.json()
    assert harness.listed() == []


# ------------------------------------------------------------------- replays


def _finished(harness: Harness, seed: int = 5) -> tuple[str, WebTable]:
    """A bots-only table played to the end: its record's name and the table."""
    table_id, tokens = harness.open(seats=["heuristic", "random"], seed=seed)
    assert tokens == {}
    table = harness.wait(table_id, lambda t: t.record_name is not None)
    assert table.over and table.record_name is not None
    return table.record_name, table


def test_bots_play_a_whole_table_and_its_record_is_written(harness: Harness) -> None:
    name, table = _finished(harness)
    path = harness.server.settings.records / name
    assert path.is_file() and name.endswith(f"-{table.table_id}.json")
    played = replay(path)
    assert len(played) == table.version
    assert list(played.record.players) == ["heuristic", "random"]
    assert harness.client.get("/api/records").json()["records"] == [name]
    # The finished table is listed with its record until it closes.
    [entry] = harness.client.get("/api/tables").json()["tables"]
    assert entry["over"] and entry["record"] == name and "token" not in json.dumps(entry)
    with harness.client.websocket_connect(f"/ws/tables/{table.table_id}") as socket:
        message = join(socket, None)
        assert message["record"] == name and message["view"]["over"]
        assert "spectator does not move" in refused(socket, {"type": "move", "action": 0,
                                                  "version": table.version}, "not_your_turn")


def test_a_replay_of_a_record_shows_each_state_as_state_view_does(harness: Harness) -> None:
    name, _ = _finished(harness)
    response = harness.client.post("/api/replays", json={"record": name})
    assert response.status_code == 201
    replay_id = response.json()["replay"]
    assert response.json()["link"] == f"/replay/{replay_id}"
    played = replay(harness.server.settings.records / name)
    steps = sorted({0, 1, len(played) // 2, len(played)})
    for step in steps:
        for seat, viewer in (("0", 0), ("1", 1), ("full", FULL), ("spectator", None),
                             (None, FULL)):
            query = f"?step={step}" + ("" if seat is None else f"&seat={seat}")
            message = harness.client.get(f"/api/replays/{replay_id}{query}").json()
            assert message["step"] == step and message["moves"] == len(played)
            expected = state_view(played.game, played.config, played.states[step], viewer)
            assert message["view"] == json.loads(json.dumps(expected)), (step, seat)
    assert harness.client.get(f"/api/replays/{replay_id}").json()["step"] == 0
    picture = harness.client.get(f"/api/replays/{replay_id}/picture?step=1&seat=0")
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")


def test_an_uploaded_record_is_replayed(harness: Harness) -> None:
    name, _ = _finished(harness)
    document = json.loads((harness.server.settings.records / name).read_text())
    response = harness.client.post("/api/replays", json={"document": document})
    assert response.status_code == 201
    message = harness.client.get(f"/api/replays/{response.json()['replay']}?step=2").json()
    assert message["move"] == {"seat": document["moves"][1][0],
                               "action": document["moves"][1][1]}


def test_an_uploaded_record_with_a_long_text_is_refused_and_names_the_field(
        harness: Harness) -> None:
    name, _ = _finished(harness)
    document = json.loads((harness.server.settings.records / name).read_text())
    limit = MAX_TEXT
    cases = [
        # The review's upload: a 1.9 MB player's name.
        ({**document, "players": ["heuristic", "x" * 1_900_000]},
         f"text in an uploaded record is at most {limit} characters; players[1] holds "
         "1,900,000"),
        ({**document, "options": {**document["options"], "o" * (limit + 1): 1}},
         f"a key of options holds {limit + 1}"),
        ({**document, "moves": [*document["moves"][:3], [0, "m" * 5000]]},
         "moves[3][1] holds 5,000"),
    ]
    for bad, words in cases:
        response = harness.client.post("/api/replays", json={"document": bad})
        assert response.status_code == 400
        assert response.json()["code"] == "bad_record"
        assert words in response.json()["message"], response.json()
    assert harness.server.replays._replays == {}
    # At the limit, a label is a label.
    label = "h" * limit
    response = harness.client.post("/api/replays",
                                   json={"document": {**document,
                                                      "players": ["heuristic", label]}})
    assert response.status_code == 201, response.text
    view = harness.client.get(f"/api/replays/{response.json()['replay']}").json()
    assert view["players"] == ["heuristic", label]


def test_a_record_that_does_not_replay_is_refused(harness: Harness) -> None:
    name, table = _finished(harness)
    document = json.loads((harness.server.settings.records / name).read_text())
    names = table.env.action_table.names
    changed = json.loads(json.dumps(document))
    seat, action = changed["moves"][2]
    changed["moves"][2] = [seat, next(other for other in names if other != action)]
    cut = {**document, "moves": document["moves"][:-1]}
    not_an_action = json.loads(json.dumps(document))
    not_an_action["moves"][0][1] = "fly:away"
    for bad, words in ((changed, "does not replay"), (cut, "cut short"),
                       (not_an_action, "'fly:away' is not an action"),
                       ({**document, "format": "cardgym-position"}, "does not replay"),
                       ([document], "one JSON object")):
        response = harness.client.post("/api/replays", json={"document": bad})
        assert response.status_code == 400
        assert response.json()["code"] == "bad_record", response.json()
        assert words in response.json()["message"], response.json()
    assert harness.server.replays._replays == {}


@pytest.mark.parametrize("record", ["../records/NAME", "../../etc/passwd", "/etc/passwd",
                                    "NAME/..", "./NAME", "x.json", 5, None, "", "NAME.gz"])
def test_a_record_name_that_is_not_a_record_of_the_server_is_refused(
        harness: Harness, record: object) -> None:
    name, _ = _finished(harness)
    if isinstance(record, str):
        record = record.replace("NAME", name)
    response = harness.client.post("/api/replays", json={"record": record})
    assert response.status_code == 404
    assert response.json()["code"] == "no_record"
    assert "GET /api/records lists them" in response.json()["message"]


@pytest.mark.parametrize("body", [{}, {"record": "a.json", "document": {}}, {"replay": 1}])
def test_a_replay_request_needs_one_of_record_or_document(harness: Harness,
                                                           body: dict[str, Any]) -> None:
    response = harness.client.post("/api/replays", json=body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert "record" in response.json()["message"] and "document" in response.json()["message"]


def test_a_replay_view_out_of_range_or_of_a_bad_seat_is_refused(harness: Harness) -> None:
    name, table = _finished(harness)
    replay_id = harness.client.post("/api/replays", json={"record": name}).json()["replay"]
    moves = table.version
    for query, code, words in ((f"step={moves + 1}", "bad_step", f"step must be 0..{moves}"),
                               ("step=-1", "bad_step", f"0..{moves}"),
                               ("step=x", "bad_step", "not 'x'"),
                               ("step=", "bad_step", f"0..{moves}"),
                               ("seat=2", "bad_seat", "full, spectator or a seat number 0..1"),
                               ("seat=-1", "bad_seat", "0..1"),
                               ("seat=everyone", "bad_seat", "not 'everyone'")):
        response = harness.client.get(f"/api/replays/{replay_id}?{query}")
        assert response.status_code == 400, query
        assert response.json()["code"] == code and words in response.json()["message"], query
        picture = harness.client.get(f"/api/replays/{replay_id}/picture?{query}")
        assert picture.status_code == 400 and picture.json()["code"] == code
    response = harness.client.get("/api/replays/nope?step=0")
    assert response.status_code == 404 and response.json()["code"] == "no_replay"


def test_the_oldest_replays_are_dropped(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_replays=2)
    name, _ = _finished(harness)
    ids = [harness.client.post("/api/replays", json={"record": name}).json()["replay"]
           for _ in range(3)]
    assert harness.client.get(f"/api/replays/{ids[0]}").status_code == 404
    assert all(harness.client.get(f"/api/replays/{i}").status_code == 200 for i in ids[1:])


# ------------------------------------------------------------------- pictures


def test_a_seats_picture_needs_its_token(harness: Harness) -> None:
    table_id, tokens = harness.open(seats=["human", "heuristic"])
    url = f"/api/tables/{table_id}/picture"
    for headers in ({}, {"x-seat-token": ""}, {"x-seat-token": "nope"}):
        response = harness.client.get(f"{url}?seat=0", headers=headers)
        assert response.status_code == 403
        assert response.json()["code"] == "bad_token"
    assert harness.client.get(f"{url}?seat=1").json()["code"] == "bad_seat"   # a bot's
    assert harness.client.get(f"{url}?seat=5").json()["code"] == "bad_seat"
    assert harness.client.get(f"{url}?seat=one").json()["code"] == "bad_request"
    response = harness.client.get(f"{url}?seat=0", headers={"x-seat-token": tokens[0]})
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.headers["cache-control"] == "no-store"
    assert response.content.startswith(b"\x89PNG\r\n\x1a\n")


def test_the_spectators_picture_needs_no_token(harness: Harness) -> None:
    table_id, tokens = harness.open()
    url = f"/api/tables/{table_id}/picture"
    spectator = harness.client.get(url)
    assert spectator.status_code == 200 and spectator.content.startswith(b"\x89PNG")
    assert harness.client.get(f"{url}?seat=spectator").content == spectator.content
    seat = harness.client.get(f"{url}?seat=0", headers={"x-seat-token": tokens[0]})
    assert seat.content != spectator.content              # the seat sees its own hand


# ------------------------------------------------------------------ lifecycle


def test_a_reconnect_with_the_same_token_rejoins_the_same_seat(harness: Harness) -> None:
    table_id, tokens = harness.open()
    table = harness.table(table_id)
    acting = table.to_act
    assert acting is not None
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        join(socket, acting, tokens[acting])
        first = move(socket, table)
    assert not harness.server.hub._tables[table_id].listeners      # it left
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        again = join(socket, acting, tokens[acting])
        assert again == first and again["seat"] == acting
        other = 1 - acting
        if table.to_act == acting:
            move(socket, table)
        else:
            assert refused(socket, {"type": "move", "action": legal(table)[0],
                                    "version": table.version}, "not_your_turn")
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        assert join(socket, other, tokens[other])["seat"] == other


def test_a_whole_game_between_two_people_each_sees_only_their_own_view(
        harness: Harness) -> None:
    views: dict[int, dict[Any, Any]] = {}

    def on_move(table: WebTable) -> None:
        views[table.version] = {seat: json.loads(json.dumps(table.env.table_view(seat)))
                                for seat in (0, 1, None)}

    harness.server.hub.on_move = on_move
    table_id, tokens = harness.open(seed=11)
    table = harness.table(table_id)
    rng = np.random.default_rng(0)
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as zero, \
            harness.client.websocket_connect(f"/ws/tables/{table_id}") as one, \
            harness.client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        sockets = {0: zero, 1: one, None: watcher}
        for seat, socket in sockets.items():
            message = join(socket, seat, tokens.get(seat) if seat is not None else None)
            assert message["view"] == views[0][seat]
        while not table.over:
            acting = table.to_act
            assert acting is not None
            send(sockets[acting], {"type": "move", "version": table.version,
                                   "action": int(rng.choice(legal(table)))})
            for seat, socket in sockets.items():
                message = socket.receive_json()
                assert message["type"] == "view" and message["seat"] == seat
                assert message["view"] == views[message["version"]][seat]
        assert message["record"] == table.record_name is not None
        assert "the game is over" in refused(zero, {"type": "move", "action": 0,
                                                    "version": table.version}, "game_over")
    assert replay(harness.server.settings.records / table.record_name).record.players == \
        ("human", "human")


def test_idle_tables_are_closed_and_their_listeners_told(
        make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(idle_seconds=60.0)
    idle_id, _ = harness.open()
    busy_id, _ = harness.open()
    with harness.client.websocket_connect(f"/ws/tables/{idle_id}") as socket:
        join(socket, None)
        harness.table(idle_id).touched -= 61         # a minute without a move or a join
        assert harness.call(harness.server.hub.close_idle) == [idle_id]
        closed = socket.receive_json()
        assert closed["type"] == "closed" and closed["table"] == idle_id
        assert "idle" in closed["message"]
        assert harness.listed() == [busy_id]
        # Nothing more to do there: the websocket is closed after the message.
        assert closed_with(socket, 1000) == "the table is closed"
    assert harness.call(harness.server.hub.close_idle) == []


def test_a_table_slow_to_build_is_idle_from_when_it_opens(
        make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(idle_seconds=60.0)
    game = find_game(PETS)

    def build(table_id: str) -> WebTable:
        table = WebTable(table_id, game, 2, {}, ["human", "human"], 1)
        table.touched -= 61                 # as if building it took a minute (a model loads)
        return table

    table = harness.call(harness.server.hub.open, build)
    assert harness.call(harness.server.hub.close_idle) == []
    assert harness.listed() == [table.table_id]


def test_a_closed_table_is_freed(harness: Harness) -> None:
    tables = []
    for seats in (["human", "human"], ["heuristic", "random"]):
        table_id, tokens = harness.open(seats=seats)
        table = harness.table(table_id)
        if tokens:
            with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                acting = table.to_act
                assert acting is not None
                join(socket, acting, tokens[acting])
                move(socket, table)
        else:
            harness.wait(table_id, lambda t: t.record_name is not None)
        tables.append(weakref.ref(table))
        del table
        harness.call(harness.server.hub.close, table_id, "closed by the test")
    gc.collect()
    assert [table() for table in tables] == [None, None]


def test_finished_tables_make_room_for_new_ones(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(max_tables=2)
    hub = harness.server.hub
    names, ids = [], []
    for seed in (5, 6):                               # two bots-only games, played out
        name, table = _finished(harness, seed)
        harness.wait(table.table_id, lambda t: hub._tables[t.table_id].finished is not None)
        names.append(name)
        ids.append(table.table_id)
    with harness.client.websocket_connect(f"/ws/tables/{ids[0]}") as watcher:
        assert join(watcher, None)["record"] == names[0]
        third, _ = harness.open()                     # not refused: the oldest one goes
        closed = watcher.receive_json()
        assert closed["type"] == "closed" and closed["table"] == ids[0]
        assert closed["message"] == (
            "the game is over and the table was closed to make room for a new one; its "
            f"record {names[0]} stays and can be replayed")
        closed_with(watcher, 1000)
    assert harness.listed() == [ids[1], third]
    # Its record stays, and replays.
    assert sorted(harness.client.get("/api/records").json()["records"]) == sorted(names)
    response = harness.client.post("/api/replays", json={"record": names[0]})
    assert response.status_code == 201
    # A table still played is never closed for room: at the limit again, refused.
    fourth, _ = harness.open()                        # the second finished one goes
    assert harness.listed() == [third, fourth]
    response = harness.client.post("/api/tables", json=TWO_PEOPLE)
    assert response.status_code == 503 and response.json()["code"] == "too_many_tables"
    assert harness.listed() == [third, fourth]


def test_the_reaper_closes_a_table_idle_for_a_tiny_while(
        make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(idle_seconds=0.3)
    table_id, _ = harness.open()
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        join(socket, None)
        closed = socket.receive_json()            # no move, no join: the reaper closes it
        assert closed["type"] == "closed" and closed["table"] == table_id
    assert harness.listed() == []


def test_a_bot_thinking_long_does_not_hold_up_another_table(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    thinking, release = threading.Event(), threading.Event()
    think = WebTable.bot_action

    def slow_bot(table: WebTable) -> int:
        # The search bot's first move waits until the other table is answered.
        if not thinking.is_set():
            events.append("thinking")
            thinking.set()
            assert release.wait(10)
            events.append("thought")
        return think(table)

    monkeypatch.setattr(WebTable, "bot_action", slow_bot)
    slow_id, _ = harness.open(seats=["ismcts:time=1", "ismcts:time=1"])
    assert thinking.wait(10)
    table_id, tokens = harness.open()                 # while the search thinks
    table = harness.table(table_id)
    acting = table.to_act
    assert acting is not None
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        join(socket, acting, tokens[acting])
        move(socket, table)
        events.append("answered")
    release.set()
    harness.wait(slow_id, lambda t: t.version >= 1)
    assert events == ["thinking", "answered", "thought"]
    harness.call(harness.server.hub.close, slow_id, "done")


def test_a_bot_that_fails_closes_its_table_and_says_why(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(table: WebTable) -> int:
        raise RuntimeError("out of cheese")

    table_id, tokens = harness.open(seats=["human", "heuristic"])
    harness.wait(table_id, lambda t: t.to_act == 0)
    monkeypatch.setattr(WebTable, "bot_action", broken)
    with harness.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        message = join(socket, 0, tokens[0])
        while message["type"] == "view":        # play until the bot is to act
            if message["view"]["legal_moves"]:
                send(socket, {"type": "move", "version": message["version"],
                              "action": message["view"]["legal_moves"][0]["action"]})
            message = socket.receive_json()
        assert message["type"] == "closed" and message["table"] == table_id
        assert "the bot at seat 1 failed (RuntimeError: out of cheese)" in message["message"]
    assert harness.listed() == []


# ------------------------------------------------------------------- the command


def _serve_args(tmp_path: Path, *argv: str) -> argparse.Namespace:
    from cardgym_cli import build_parser

    return build_parser().parse_args(["serve", "--records", str(tmp_path / "records"), *argv])


def test_serve_refuses_a_models_path_that_is_not_a_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--models", str(tmp_path / "missing"),
                 "--records", str(tmp_path / "records")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--models" in err and "is not a folder" in err


def test_serve_refuses_records_that_is_a_file(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records.json"
    records.write_text("{}")
    assert main(["serve", "--records", str(records)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--records" in err and "is a file" in err


@pytest.mark.parametrize("argv", [["--port", "70000"], ["--max-tables", "0"],
                                  ["--idle", "-1"], ["--bot-delay", "soon"]])
def test_serve_refuses_bad_numbers(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *argv]) == 2
    assert "cardgym serve: error" in capsys.readouterr().err


def test_serve_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--records", "--models", "--max-tables", "--idle",
                   "--bot-delay", "--allow-origin"):
        assert option in out


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.0.0.53", True), ("::1", True), ("localhost", True),
    ("0.0.0.0", False), ("::", False), ("192.168.1.20", False), ("example.com", False),
    ("", False)])
def test_is_loopback(host: str, loopback: bool) -> None:
    assert _is_loopback(host) is loopback


@pytest.mark.parametrize(("host", "words"), [
    ("127.0.0.1", "listening for this machine only"),
    ("0.0.0.0", "listening for EVERY machine that can reach this address")])
def test_serve_says_who_it_listens_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       host: str, words: str) -> None:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append(
        {"app": app, **kwargs}))
    out = io.StringIO()
    args = _serve_args(tmp_path, "--host", host, "--port", "8123", "--max-tables", "5",
                       "--allow-origin", "http://localhost:5173")
    assert serve_run(args, out) == 0
    line = out.getvalue()
    assert line.count("\n") == 1
    assert line.startswith(f"cardgym serve: http://{host}:8123/ - {words}")
    [call] = calls
    assert call["host"] == host and call["port"] == 8123
    server = call["app"].state.server
    assert server.limits.max_tables == 5 and server.limits.bot_delay == 0.4
    assert server.settings.allowed_origins == ("http://localhost:5173",)
    assert call["ws_max_size"] >= server.limits.max_message_bytes


def test_a_server_on_loopback_answers_its_loopback_names_only(tmp_path: Path) -> None:
    from cardgym_web.command import LOOPBACK_NAMES

    app = create_app(Settings(records=tmp_path, allowed_hosts=LOOPBACK_NAMES))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/tables").status_code == 200
        rebound = client.get("/api/tables", headers={"host": "attacker.example:8000"})
        assert rebound.status_code == 400
        assert client.get("/api/tables", headers={"host": "localhost:8000"}).status_code == 200
