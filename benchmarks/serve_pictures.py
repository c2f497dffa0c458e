"""Screenshots of the browser table (``cardgym serve``) for the docs, into
``docs/images/``.

::

    python -m benchmarks.serve_pictures                 # into docs/images/
    python -m benchmarks.serve_pictures --output DIR    # somewhere else

A real server (the app of ``cardgym serve``, under uvicorn in a thread, on a free port
of 127.0.0.1, bots without their pause) and a real browser: Chromium headless, driven
by Playwright for Python, which never downloads a browser here. It runs
``$CARDGYM_CHROMIUM`` (the Makefile sets it), else ``/usr/bin/chromium`` (``make browser``
installs Debian's). For each game a table opens with a person at seat 0 and heuristics at
the other seats, on a fixed seed; the person plays a few moves by clicking them on the
page, then the page is taken at 1280x800 (``serve-GAME.png``). Then the lobby
(``serve-lobby.png``) and a replay of a finished game (``serve-replay.png``). Each file is
written under a temporary name and renamed, so that a picture is whole or absent.

The tests of the pages (``tests/cardgym_web/``) use the same server and browser helpers:
:func:`running_server`, :func:`launch_chromium`, :func:`wait_for_turn`,
:func:`play_move`, :func:`wait_for_picture`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright, ViewportSize

    from cardgym_web.app import Server
    from cardgym_web.hub import Limits

__all__ = ["CHROMIUM_ARGS", "IMAGES", "SHOTS", "VIEWPORT", "BrowserMissing", "RunningServer",
           "TableShot", "chromium_path", "finished_record", "get_json", "launch_chromium", "main",
           "open_table", "play_move", "post_json", "random_choice", "running_server",
           "take_pictures", "wait_for_picture", "wait_for_turn"]

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
#: The environment variable naming the Chromium binary (the Makefile exports it).
CHROMIUM_ENV = "CARDGYM_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
#: Headless, no sandbox (containers), and nothing fetched from the network by Chromium.
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync")
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
#: Milliseconds any one wait of a page may take.
WAIT_MS = 30_000

#: True once the page offers its seat's moves, or the game is over.
TURN_OR_OVER = """() => document.body.dataset.over === "true"
    || document.querySelector("#moves button.move:not([disabled])") !== null"""
#: True once the page shows a version other than ``v`` or offers its moves again (a
#: refused move re-enables them).
AFTER_MOVE = """(v) => document.body.dataset.version !== v
    || document.querySelector("#moves button.move:not([disabled])") !== null"""
#: True once ``#picture`` shows the picture of the page's current version.
PICTURE_SHOWN = """() => {
    const img = document.getElementById("picture");
    const loaded = img.dataset.loaded;
    if (!loaded || !img.complete || img.naturalWidth === 0) return false;
    const version = new URL(loaded, window.location.href).searchParams.get("v");
    return version === document.body.dataset.version;
}"""


class BrowserMissing(RuntimeError):
    """No Chromium binary where the tests and the screenshots look for one."""


# ------------------------------------------------------------------ the server


@dataclass(frozen=True)
class RunningServer:
    """A server running in a thread: its base URL (no trailing slash), its state
    (``app.state.server``: the hub, the replays) and its records folder."""

    url: str
    server: Server
    records: Path


@contextlib.contextmanager
def running_server(records: Path, limits: Limits | None = None,
                   startup_seconds: float = 30.0) -> Iterator[RunningServer]:
    """The app of ``cardgym serve`` under uvicorn in a background thread, on a free port
    of 127.0.0.1, until the block ends; bots move without a pause unless ``limits``
    say otherwise.

    Raises:
        RuntimeError: the server did not start, or did not stop.
    """
    import uvicorn

    from cardgym_web.app import Settings, create_app
    from cardgym_web.hub import Limits

    limits = limits if limits is not None else Limits(bot_delay=0.0)
    app = create_app(Settings(records=records, limits=limits))
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on",
                            ws_max_size=limits.max_message_bytes * 4,
                            timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]},
                              name=f"cardgym-serve-{port}", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + startup_seconds
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the server stopped while starting (see the log above)")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start in {startup_seconds:g} s")
            time.sleep(0.01)
        yield RunningServer(f"http://127.0.0.1:{port}", app.state.server, records)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listening.close()
        if thread.is_alive():
            raise RuntimeError("the server did not stop in 30 s")


def get_json(url: str) -> Any:
    """GET ``url``; the response's JSON."""
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.loads(response.read())


def post_json(url: str, body: Mapping[str, Any]) -> Any:
    """POST ``body`` as JSON; the response's JSON."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def open_table(base_url: str, game: str, seats: Sequence[str], seed: int,
               options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Open a table through the API: ``{"table": ID, "links": {seat or spectator: path}}``."""
    return dict(post_json(f"{base_url}/api/tables", {
        "game": game, "players": len(seats), "seats": list(seats), "seed": seed,
        "options": dict(options or {})}))


# ----------------------------------------------------------------- the browser


def chromium_path() -> str:
    """The Chromium binary to drive: ``$CARDGYM_CHROMIUM``, else ``/usr/bin/chromium``.

    Raises:
        BrowserMissing: there is none; the message says how to get one.
    """
    named = os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM
    found = shutil.which(named)
    if found is None:
        raise BrowserMissing(
            f"Chromium is not at {named!r} (from ${CHROMIUM_ENV}, default {DEFAULT_CHROMIUM}): "
            f"run `make browser` to install Debian's chromium, or set {CHROMIUM_ENV} to a "
            "Chromium or Chrome binary. Playwright never downloads a browser here.")
    return found


def launch_chromium(playwright: Playwright) -> Browser:
    """Chromium headless (:func:`chromium_path`), with :data:`CHROMIUM_ARGS`.

    Raises:
        BrowserMissing: no Chromium binary.
    """
    return playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                      args=list(CHROMIUM_ARGS))


def wait_for_turn(page: Page, timeout: float = WAIT_MS) -> bool:
    """Wait until a table's page offers its seat's moves (``True``) or shows the game
    over (``False``)."""
    page.wait_for_function(TURN_OR_OVER, timeout=timeout)
    return bool(page.evaluate("document.body.dataset.over !== 'true'"))


def play_move(page: Page, choose: Callable[[Sequence[str]], int],
              timeout: float = WAIT_MS) -> tuple[int, str]:
    """Click one of the moves a table's page offers (it must offer some:
    :func:`wait_for_turn`), ``choose(names)`` its index among the buttons, and wait
    until the page has moved on; the version the move was chosen on and its name."""
    version = str(page.evaluate("document.body.dataset.version"))
    buttons = page.locator("#moves button.move")
    names = [str(name) for name in
             buttons.evaluate_all("buttons => buttons.map((button) => button.dataset.name)")]
    index = choose(names)
    buttons.nth(index).click(timeout=timeout)
    page.wait_for_function(AFTER_MOVE, arg=version, timeout=timeout)
    return int(version), names[index]


def wait_for_picture(page: Page, timeout: float = WAIT_MS) -> None:
    """Wait until a table's page shows the picture of the version it shows."""
    page.wait_for_function(PICTURE_SHOWN, timeout=timeout)


def random_choice(rng: np.random.Generator) -> Callable[[Sequence[str]], int]:
    """A chooser for :func:`play_move`: a move drawn uniformly with ``rng``."""
    return lambda names: int(rng.integers(len(names)))


# ---------------------------------------------------------------- the pictures


@dataclass(frozen=True)
class TableShot:
    """A table to take: a game, its players (a person at seat 0, heuristics at the
    others), the seed, and how many moves the person plays first."""

    game: str
    players: int
    seed: int
    moves: int

    @property
    def file_name(self) -> str:
        return f"serve-{self.game}.png"


#: A table of each game, mid-game.
SHOTS = (
    TableShot("power_hungry_pets", 3, seed=4, moves=2),
    TableShot("exploding_kittens", 3, seed=2, moves=3),
    TableShot("karel_kakelaar", 3, seed=1, moves=4),
)
#: The finished game the replay picture shows (all heuristics), and its step.
REPLAY = TableShot("power_hungry_pets", 3, seed=6, moves=0)
REPLAY_STEP = 9


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` under a temporary name beside ``path``, then rename it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _table_picture(page: Page, base_url: str, shot: TableShot) -> bytes:
    opened = open_table(base_url, shot.game, ["human"] + ["heuristic"] * (shot.players - 1),
                        shot.seed)
    page.goto(base_url + opened["links"]["0"])
    rng = np.random.default_rng(shot.seed)
    for _ in range(shot.moves):
        if not wait_for_turn(page):
            break
        play_move(page, random_choice(rng))
    wait_for_turn(page)
    wait_for_picture(page)
    return page.screenshot()


def _lobby_picture(page: Page, base_url: str) -> bytes:
    page.goto(base_url + "/")
    page.locator("#game option").first.wait_for(state="attached")
    page.select_option("#game", "exploding_kittens")
    page.select_option("#players", "3")
    page.locator("#tables li a").first.wait_for()
    page.locator("#records button").first.wait_for()
    return page.screenshot()


def _replay_picture(page: Page, base_url: str, record: str) -> bytes:
    opened = post_json(f"{base_url}/api/replays", {"record": record})
    page.goto(base_url + opened["link"])
    page.wait_for_function("() => document.body.dataset.step === '0'")
    page.fill("#step", str(REPLAY_STEP))
    page.press("#step", "Enter")
    page.select_option("#viewer", "0")
    page.wait_for_function(
        """(step) => {
            const img = document.getElementById("picture");
            return document.body.dataset.step === step && img.complete && img.naturalWidth > 0
                && (img.dataset.loaded || "").endsWith(`?step=${step}&seat=0`);
        }""", arg=str(REPLAY_STEP))
    return page.screenshot()


def finished_record(running: RunningServer, game: str, players: int, seed: int,
                    timeout: float = 60.0) -> str:
    """The name of the record of a game the heuristics play to its end at a table of
    ``running`` (in its records folder).

    Raises:
        TimeoutError: the game did not end in ``timeout`` seconds.
    """
    opened = open_table(running.url, game, ["heuristic"] * players, seed)
    deadline = time.monotonic() + timeout
    while True:
        table = running.server.hub.table(opened["table"])
        if table.record_name is not None:
            return table.record_name
        if time.monotonic() > deadline:
            raise TimeoutError(f"the bots' game at table {opened['table']} did not end in "
                               f"{timeout:g} s")
        time.sleep(0.02)


def take_pictures(output: Path = IMAGES, shots: Sequence[TableShot] = SHOTS) -> list[Path]:
    """Take the pictures into ``output`` (made if missing); the files written."""
    from playwright.sync_api import sync_playwright

    chromium_path()  # before anything starts: say at once that there is no browser
    output.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = output / name
        _write_atomically(path, data)
        written.append(path)
        print(f"wrote {path}", flush=True)

    with tempfile.TemporaryDirectory(prefix="serve_pictures-") as folder, \
            running_server(Path(folder)) as running, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
            context.set_default_timeout(WAIT_MS)
            page = context.new_page()
            record = finished_record(running, REPLAY.game, REPLAY.players, REPLAY.seed)
            for shot in shots:
                save(shot.file_name, _table_picture(page, running.url, shot))
            save("serve-lobby.png", _lobby_picture(page, running.url))
            save("serve-replay.png", _replay_picture(page, running.url, record))
            context.close()
        finally:
            browser.close()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.serve_pictures",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=IMAGES,
                        help="folder for the pictures (default docs/images)")
    args = parser.parse_args(argv)
    try:
        take_pictures(args.output)
    except BrowserMissing as error:
        parser.exit(2, f"{parser.prog}: {error}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
