"""The pages of the browser table in a real browser: Chromium headless, driven by
Playwright, against the real app under uvicorn (the fixtures of conftest.py).

A whole game of each title is played by clicking moves (each table opened through the
lobby's form), two people sit at one table in two browsers, a seat's page is reloaded,
and a replay is stepped through. Every websocket frame the seats' and spectators' pages
receive is checked against the truth the server held at that version (taken through
``hub.on_move``): the frame's view is that viewer's table view, every face-up card it
shows is where the full view has it, every count agrees, and no frame carries a field
the messages do not document (no state, no token).

Every wait is an explicit Playwright wait for a condition, never a timed assertion.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema
import numpy as np
import pytest
from playwright.sync_api import BrowserContext, Page, WebSocket, expect

from benchmarks.serve_pictures import (
    WAIT_MS,
    RunningServer,
    finished_record,
    get_json,
    open_table,
    play_move,
    post_json,
    random_choice,
    wait_for_picture,
    wait_for_turn,
)
from cardgym.records import replay
from cardgym.registration import find_game
from cardgym.table import FULL
from cardgym.table_schema import schema_of
from cardgym_web.table import WebTable

expect.set_options(timeout=WAIT_MS)

GAMES = ("power_hungry_pets", "exploding_kittens", "karel_kakelaar")
#: A seed per game: the table's deal and bots, and the person's moves (drawn with it).
SEEDS = {"power_hungry_pets": 3, "exploding_kittens": 7, "karel_kakelaar": 2}
#: Moves a page may click in one game before the test calls the game endless.
MOVE_CAP = 400
#: The fields of each message the server sends (docs/serve.md, cardgym_web.app).
MESSAGE_FIELDS = {
    "view": {"type", "table", "version", "seat", "out", "view", "seats", "record"},
    "error": {"type", "code", "message"},
    "pong": {"type"},
    "closed": {"type", "table", "message"},
}
SEAT_FIELDS = {"seat", "agent", "player"}
#: Chromium's picture of the table, as the server draws it.
PICTURE_SIZE = (1280, 800)


# ------------------------------------------------------------- the server's truth


@dataclass(frozen=True)
class Snapshot:
    """A table at one version as the server held it."""

    full: dict[str, Any]
    spectator: dict[str, Any]
    #: Each person's seat's own view (the spectator's for a seat out of the game).
    seats: dict[int, dict[str, Any]]
    out: dict[int, bool]
    specs: tuple[str, ...]
    tokens: tuple[str, ...]


def _plain(value: Any) -> Any:
    """``value`` as a browser receives it (JSON and back)."""
    return json.loads(json.dumps(value))


class Truth:
    """The snapshots ``hub.on_move`` takes, by table and version (the hook runs in the
    server's thread, under the table's lock)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.snapshots: dict[tuple[str, int], Snapshot] = {}

    def record(self, table: WebTable) -> None:
        env = table.env
        seats, out = {}, {}
        for seat in table.tokens:
            out[seat] = env.possible_agents[seat] not in env.agents and not table.over
            seats[seat] = _plain(env.table_view(None if out[seat] else seat))
        snapshot = Snapshot(_plain(env.table_view(FULL)), _plain(env.table_view(None)), seats,
                            out, tuple(table.seats), tuple(table.tokens.values()))
        with self.lock:
            self.snapshots[(table.table_id, table.version)] = snapshot

    def at(self, table_id: str, version: int) -> Snapshot:
        with self.lock:
            snapshot = self.snapshots.get((table_id, version))
        assert snapshot is not None, \
            f"hub.on_move never saw table {table_id} at version {version}"
        return snapshot


@pytest.fixture(scope="module")
def truth(served: RunningServer) -> Iterator[Truth]:
    """Snapshots of every table opened while the module runs."""
    taken = Truth()
    hub = served.server.hub
    previous, hub.on_move = hub.on_move, taken.record
    yield taken
    hub.on_move = previous


# ------------------------------------------------------------------ the frames


class Frames:
    """Every frame a page receives on its tables' websockets, reloads included."""

    def __init__(self, page: Page, viewer: int | None) -> None:
        self.viewer = viewer
        self.texts: list[str] = []
        self.sockets = 0
        page.on("websocket", self._opened)

    def _opened(self, socket: WebSocket) -> None:
        if "/ws/tables/" in socket.url:
            self.sockets += 1
            socket.on("framereceived", self._received)

    def _received(self, payload: str | bytes) -> None:
        self.texts.append(payload if isinstance(payload, str) else payload.decode())

    def versions(self) -> list[int]:
        return [message["version"] for message in map(json.loads, self.texts)
                if message.get("type") == "view"]

    def wait_for(self, page: Page, version: int) -> None:
        """Wait until the frame of ``version`` has been received (Playwright hands events
        over while a call of it runs)."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while version not in self.versions():
            assert time.monotonic() < deadline, \
                f"no frame of version {version} arrived; versions: {self.versions()}"
            page.wait_for_timeout(20)


@cache
def _validator(game: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema_of(find_game(game)))


def _card(card: Mapping[str, Any]) -> str:
    return json.dumps(card, sort_keys=True)


def _check_pile(shown: Mapping[str, Any], true: Mapping[str, Any], where: str) -> None:
    assert (shown["name"], shown["count"], len(shown["cards"])) == \
        (true["name"], true["count"], len(true["cards"])), where
    for index, card in enumerate(shown["cards"]):
        if card is not None:
            assert card == true["cards"][index], \
                f"{where}: card {index} is shown as {card}, but it is {true['cards'][index]}"


def check_cards(view: Mapping[str, Any], full: Mapping[str, Any]) -> None:
    """Every face-up card of ``view`` is where the full view has it, and every count
    agrees: a hand's face-up cards are cards that hand holds, a pile's or an area's
    are the cards at their places."""
    assert len(view["seats"]) == len(full["seats"])
    for shown, true in zip(view["seats"], full["seats"], strict=True):
        where = f"{view['viewer']}'s view of {shown['agent']}"
        hand, held = shown["hand"], true["hand"]
        assert hand["count"] == held["count"] == len(hand["cards"]) == len(held["cards"]), where
        face_up = Counter(_card(card) for card in hand["cards"] if card is not None)
        extra = face_up - Counter(_card(card) for card in held["cards"] if card is not None)
        assert not extra, f"{where}: shows {sorted(extra)} in the hand, which it does not hold"
        assert len(shown["areas"]) == len(true["areas"]), where
        for area, true_area in zip(shown["areas"], true["areas"], strict=True):
            _check_pile(area, true_area, f"{where}, {area['name']}")
    # The full view may show more piles (cards out of the game, face down to all).
    true_piles = {pile["name"]: pile for pile in full["piles"]}
    for pile in view["piles"]:
        assert pile["name"] in true_piles, f"the full view has no {pile['name']} pile"
        _check_pile(pile, true_piles[pile["name"]],
                    f"{view['viewer']}'s view of the {pile['name']} pile")


def check_frames(frames: Frames, truth: Truth, table_id: str, game: str) -> list[int]:
    """Check every frame ``frames`` holds (see the module's docstring); the versions
    of its views."""
    assert frames.texts, "the page received no frame"
    versions = []
    for text in frames.texts:
        message = json.loads(text)
        assert isinstance(message, dict) and message.get("type") in MESSAGE_FIELDS, text[:200]
        assert set(message) == MESSAGE_FIELDS[message["type"]], \
            f"undocumented fields in a {message['type']} frame: {sorted(message)}"
        if message["type"] != "view":
            continue
        assert message["table"] == table_id and message["seat"] == frames.viewer
        snapshot = truth.at(table_id, message["version"])
        for token in snapshot.tokens:
            assert token not in text, "a frame carries a seat's token"
        viewer = frames.viewer
        out = viewer is not None and snapshot.out[viewer]
        assert message["out"] == out
        expected = snapshot.spectator if viewer is None or out else snapshot.seats[viewer]
        assert message["view"] == expected, \
            f"version {message['version']}: the view is not {viewer}'s view on the server"
        _validator(game).validate(message["view"])
        check_cards(message["view"], snapshot.full)
        if viewer is None:
            assert message["view"]["legal_moves"] == []
        assert [set(entry) for entry in message["seats"]] == [SEAT_FIELDS] * len(snapshot.specs)
        assert [entry["player"] for entry in message["seats"]] == list(snapshot.specs)
        assert message["record"] is None or isinstance(message["record"], str)
        versions.append(message["version"])
    return versions


# ------------------------------------------------------------------- the pages


def open_through_lobby(page: Page, base_url: str, game: str, seed: int) -> tuple[str, str]:
    """Open a 2-player table of ``game`` (a person at seat 0, the heuristic at seat 1)
    with the lobby's form and follow seat 0's link: the table's id and the spectator's
    link."""
    page.goto(base_url + "/")
    page.select_option("#game", game)
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "heuristic")
    page.fill("#seed", str(seed))
    page.click("#open")
    seat_link = page.locator('#link-list a[data-link="0"]')
    expect(seat_link).to_be_visible()
    expect(page.locator('#link-list a[data-link="1"]')).to_have_count(0)  # a bot's seat
    spectator = page.locator('#link-list a[data-link="spectator"]').get_attribute("href")
    assert spectator is not None
    seat_link.click()
    page.wait_for_url("**/table/*#seat=0&token=*")
    table_id = urllib.parse.urlsplit(page.url).path.rsplit("/", 1)[-1]
    assert spectator == f"/table/{table_id}"
    return table_id, spectator


def wait_for_version(page: Page, version: int) -> None:
    page.wait_for_function("(v) => document.body.dataset.version === v", arg=str(version))


def version_of(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def move_names(page: Page) -> list[str]:
    return [str(name) for name in page.locator("#moves button.move").evaluate_all(
        "buttons => buttons.map((button) => button.dataset.name)")]


def play_to_the_end(page: Page, rng: np.random.Generator) -> int:
    """Click moves until the page shows the game over, each once the picture of the
    version shown has loaded; the moves clicked."""
    moves = 0
    while wait_for_turn(page):
        wait_for_picture(page)
        play_move(page, random_choice(rng))
        moves += 1
        assert moves < MOVE_CAP, f"the game went on past {MOVE_CAP} moves"
    return moves


def winners_text(view: Mapping[str, Any]) -> str:
    """The result line a page shows for ``view`` at the end."""
    labels = {seat["agent"]: seat["label"] for seat in view["seats"]}
    winners = [labels[agent] for agent in view["result"]["winners"]]
    return f"Winners: {', '.join(winners)}." if winners else "Nobody wins."


# ------------------------------------------------------------------- the tests


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_from_the_lobby_to_the_replay(
        game: str, served: RunningServer, truth: Truth,
        new_context: Callable[[], BrowserContext]) -> None:
    """A person opens the table in the lobby, plays it to its end by clicking moves
    against the heuristic while a spectator watches from another browser; both pages'
    frames hold nothing either may not know; the page shows the winners and links the
    replay of the record the server wrote."""
    page = new_context().new_page()
    seat_frames = Frames(page, 0)
    table_id, spectator_link = open_through_lobby(page, served.url, game, SEEDS[game])
    watcher = new_context().new_page()
    watcher_frames = Frames(watcher, None)
    watcher.goto(served.url + spectator_link)
    expect(watcher.locator("#who")).to_have_text("watching (public information only)")
    table = served.server.hub.table(table_id)
    assert (table.game.name, table.seats, table.seed) == (game, ["human", "heuristic"],
                                                          SEEDS[game])

    moves = play_to_the_end(page, np.random.default_rng(SEEDS[game]))
    assert moves > 0
    final = version_of(page)
    wait_for_version(watcher, final)
    expect(watcher.locator("#moves button")).to_have_count(0)
    wait_for_picture(page)
    wait_for_picture(watcher)
    snapshot = truth.at(table_id, final)
    assert snapshot.full["over"] and snapshot.full["result"]["winners"]
    seat_frames.wait_for(page, final)
    watcher_frames.wait_for(watcher, final)
    for frames in (seat_frames, watcher_frames):
        versions = check_frames(frames, truth, table_id, game)
        assert versions[-1] == final and frames.sockets == 1
        if frames is seat_frames:
            assert len(versions) > moves

    expect(page.locator("#result-box")).to_be_visible()
    expect(page.locator("#result")).to_have_text(winners_text(snapshot.seats[0]))
    expect(watcher.locator("#result")).to_have_text(winners_text(snapshot.spectator))
    record = table.record_name
    assert record is not None and (served.records / record).is_file()
    views = [message for message in map(json.loads, seat_frames.texts)
             if message["type"] == "view"]
    assert views[-1]["record"] == record
    played = replay(served.records / record)
    assert played.game.name == game and len(played) == final
    assert list(played.record.players) == ["human", "heuristic"]

    link = page.locator("#replay-link")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url("**/replay/*")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    expect(page.locator("#total")).to_have_text(str(final))
    expect(page.locator("#title")).to_contain_text(find_game(game).title)


def test_two_people_at_one_table(served: RunningServer, truth: Truth,
                                 new_context: Callable[[], BrowserContext]) -> None:
    """Two people, each in their own browser with their own seat's link, play a whole
    game; at every version the page of the seat to act offers exactly its legal moves
    and the other page none."""
    game = "power_hungry_pets"
    opened = open_table(served.url, game, ["human", "human"], seed=5)
    table_id = opened["table"]
    pages: dict[int, Page] = {}
    frames: dict[int, Frames] = {}
    for seat in (0, 1):
        pages[seat] = new_context().new_page()
        frames[seat] = Frames(pages[seat], seat)
        pages[seat].goto(served.url + opened["links"][str(seat)])
        expect(pages[seat].locator("#who")).to_have_text(f"you are player_{seat}")
    rng = np.random.default_rng(5)
    moves = Counter[int]()
    version = 0
    while True:
        for page in pages.values():
            wait_for_version(page, version)
        snapshot = truth.at(table_id, version)
        if snapshot.full["over"]:
            break
        acting = next(seat["seat"] for seat in snapshot.full["seats"] if seat["to_act"])
        assert snapshot.full["to_act"] == f"player_{acting}"
        other = pages[1 - acting]
        expect(other.locator("#moves button")).to_have_count(0)
        expect(other.locator("#moves .waiting")).to_have_text(f"Waiting for player_{acting}.")
        legal = [move["name"] for move in snapshot.seats[acting]["legal_moves"]]
        assert legal and wait_for_turn(pages[acting])
        assert move_names(pages[acting]) == legal
        played_on, _ = play_move(pages[acting], random_choice(rng))
        assert played_on == version
        moves[acting] += 1
        version += 1
        assert version < MOVE_CAP
    assert moves[0] >= 3 and moves[1] >= 3, moves
    for seat, page in pages.items():
        expect(page.locator("#result")).to_have_text(winners_text(snapshot.seats[seat]))
        frames[seat].wait_for(page, version)
        assert check_frames(frames[seat], truth, table_id, game) == list(range(version + 1))


def test_a_reload_rejoins_the_same_seat(served: RunningServer, truth: Truth,
                                        new_context: Callable[[], BrowserContext]) -> None:
    """Reloading a seat's page joins the same seat at the same version, with the same
    moves, which can still be played."""
    game = "karel_kakelaar"
    opened = open_table(served.url, game, ["human", "heuristic"], seed=11)
    table_id = opened["table"]
    page = new_context().new_page()
    frames = Frames(page, 0)
    page.goto(served.url + opened["links"]["0"])
    rng = np.random.default_rng(11)
    assert wait_for_turn(page)
    play_move(page, random_choice(rng))
    assert wait_for_turn(page)
    version, names = version_of(page), move_names(page)
    expect(page.locator("#who")).to_have_text("you are player_0")

    page.reload()
    wait_for_version(page, version)
    expect(page.locator("#who")).to_have_text("you are player_0")
    expect(page.locator("#connection")).to_have_text("connected")
    assert wait_for_turn(page) and move_names(page) == names
    played_on, _ = play_move(page, random_choice(rng))
    assert played_on == version
    assert wait_for_turn(page)
    assert version_of(page) > version
    frames.wait_for(page, version_of(page))
    assert frames.sockets == 2
    versions = check_frames(frames, truth, table_id, game)
    assert versions.count(version) == 2          # once before the reload, once after


REPLAY_SHOWN = """([step, query]) => {
    const img = document.getElementById("picture");
    return document.body.dataset.step === step && img.complete && img.naturalWidth > 0
        && (img.dataset.loaded || "").endsWith(`/picture?${query}`);
}"""


def test_a_replay_steps_forward_and_back(served: RunningServer,
                                         new_context: Callable[[], BrowserContext]) -> None:
    """The replay page of a finished game: forward, back, a move number, the end, the
    start, another viewer and the arrow keys; each shows that step's status and move
    and loads its picture."""
    record = finished_record(served, "exploding_kittens", 2, seed=4)
    opened = post_json(f"{served.url}/api/replays", {"record": record})
    api = f"{served.url}/api/replays/{opened['replay']}"
    total = len(replay(served.records / record))
    assert total > 8
    page = new_context().new_page()
    page.goto(served.url + opened["link"])
    pictures: list[str] = []

    def shows(step: int, viewer: str = "full") -> None:
        query = f"step={step}&seat={viewer}"
        page.wait_for_function(REPLAY_SHOWN, arg=[str(step), query])
        message = get_json(f"{api}?{query}")
        expect(page.locator("#status")).to_have_text(message["view"]["status"])
        move = message["move"]
        expect(page.locator("#move")).to_have_text(
            "The start of the game." if move is None
            else f"Move {step}: player_{move['seat']} played {move['action']}.")
        expect(page.locator("#step")).to_have_value(str(step))
        size = page.evaluate("() => [document.getElementById('picture').naturalWidth, "
                             "document.getElementById('picture').naturalHeight]")
        assert tuple(size) == PICTURE_SIZE
        pictures.append(str(page.get_attribute("#picture", "src")))

    shows(0)
    expect(page.locator("#total")).to_have_text(str(total))
    page.click("#forward")
    shows(1)
    page.click("#forward")
    shows(2)
    page.click("#back")
    shows(1)
    page.fill("#step", "7")
    page.press("#step", "Enter")
    shows(7)
    page.click("#last")
    shows(total)
    page.click("#first")
    shows(0)
    page.select_option("#viewer", "1")
    shows(0, "1")
    page.click("#forward")
    shows(1, "1")
    page.select_option("#viewer", "spectator")
    shows(1, "spectator")
    page.click("#forward")
    shows(2, "spectator")
    page.keyboard.press("ArrowLeft")
    shows(1, "spectator")
    assert len(set(pictures)) == len(pictures)   # a new picture each time
