"""The browser table under load: many tables at once on one ``cardgym serve``.

::

    python -m benchmarks.serve_load                               # 50 tables, 60 s
    python -m benchmarks.serve_load --tables 50 --seconds 60 --waves 3 \\
        --output benchmarks/results                               # serve_load.md

It starts ``cardgym serve`` as a subprocess (``python -m cardgym_cli serve --bot-delay 0``
on a free loopback port, records into a temporary folder), waits until it answers, and
opens ``--tables`` tables at once over loopback, as a lobby page does (``POST
/api/tables``). At each table seat 0 is a "human" played by this benchmark's websocket
client, who joins with its seat's token (sending an ``Origin`` as the server's own page
would) and plays uniformly random legal moves as fast as the server's rate limit lets one
connection (:class:`cardgym_web.hub.Limits`: a burst, then so many a second); the other
seats are ``heuristic`` bots. Table ``k`` plays the game ``GAMES[k mod 3]`` with 2, 3 or 4
players, so the three games and several sizes are mixed.

The run is ``--waves`` waves of ``--seconds / --waves`` seconds each. While a wave lasts,
a table that finishes is replaced by a new one; then every table plays to its end, the
server closes the finished tables once they have been idle ``--idle`` seconds, and the
wave ends when the server holds no table. Reported, per wave and in all:

* moves per second: every move, the human's and the bots', counted from the versions of
  the views the client receives, over the time tables were being played;
* latency per human move, p50 and p99: from sending a move to receiving the view of the
  next version, measured at the client (its own event loop included);
* the server's memory: its resident set (``VmRSS`` of ``/proc/PID/status``) sampled every
  second, before any table, at its peak, and after each wave's tables closed, which
  shows whether it stays flat as tables come and go; and the CPU time the server and the
  client used.

Server and client share the machine. Nothing here asserts on timings: the figures are
reported, in ``serve_load.md`` under ``--output`` (written atomically).

The soak (``--soak MINUTES``) asks another question: does the server's memory level off
over a long run of tables, or grow with every table? ::

    nice -n 10 python -m benchmarks.serve_load --soak 30 --output benchmarks/results

It starts the server as above (``--max-tables`` three times ``--tables``, so that
finished tables also give their places to new ones) and keeps ``--tables`` places busy
(default 4) for ``MINUTES``: each opens a bots-only table (``heuristic`` at every seat,
the games and sizes mixed as above), watches it to its end over a spectator's websocket,
fetches its final picture, and opens and views its record's replay, then opens the next. The
server's resident set is sampled every ``--every`` seconds (default 60), with the tables
finished so far. The figures go into the ``## Soak`` section of ``serve_load.md``, which
a load run keeps (and the soak keeps the load run's figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["GAMES", "SOAK_HEADING", "LoadReport", "LoadSettings", "SoakReport", "SoakSample",
           "SoakSettings", "WaveResult", "format_markdown", "format_soak", "main", "measure",
           "rss_kb", "soak", "write_report", "write_soak"]

#: The games mixed at the tables, table ``k`` playing ``GAMES[k % 3]``.
GAMES = ("power_hungry_pets", "exploding_kittens", "karel_kakelaar")
#: Player counts mixed at the tables (table ``k``: ``PLAYERS[(k // 3) % 3]``).
PLAYERS = (2, 3, 4)
#: The file written under ``--output``.
REPORT = "serve_load.md"
#: Rows of the memory timeline in the report at most.
TIMELINE_ROWS = 40
#: The soak's section of the report begins with this (and runs to the end of the file).
SOAK_HEADING = "## Soak"

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(frozen=True)
class LoadSettings:
    """What a run does.

    Attributes:
        tables: tables played at once.
        seconds: the whole run's time of play (waves included, drains not).
        waves: waves the run is cut into; tables are replaced within a wave only.
        idle: the server's ``--idle``: a finished table is closed after this long.
        seed: seeds the deals and the human's moves.
    """

    tables: int = 50
    seconds: float = 60.0
    waves: int = 3
    idle: float = 3.0
    seed: int = 0


@dataclass(frozen=True)
class SoakSettings:
    """What a soak does.

    Attributes:
        minutes: how long tables are opened (the last ones then play to their end).
        tables: places kept busy, each one bots-only table after another.
        every: seconds between two samples of the server's memory.
        idle: the server's ``--idle``.
        seed: seeds the deals.
    """

    minutes: float = 30.0
    tables: int = 4
    every: float = 60.0
    idle: float = 3.0
    seed: int = 0


@dataclass(frozen=True)
class SoakSample:
    """The server at one moment of a soak."""

    #: Seconds since the soak began.
    seconds: float
    #: Tables played to their end so far.
    finished: int
    #: Tables the server holds now (played and finished ones).
    open_tables: int
    #: The server's resident set, kB.
    rss_kb: int


@dataclass
class SoakReport:
    """A soak's figures."""

    settings: SoakSettings
    samples: list[SoakSample]
    finished: int = 0
    replays: int = 0
    pictures: int = 0
    #: Final pictures not drawn: the table was closed before they were asked for (idle
    #: after a stall, or closed to make room).
    pictures_missed: int = 0
    #: Tables refused (503) at the first try: the server was full.
    refused_tables: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    wall_seconds: float = 0.0
    server_cpu_seconds: float = 0.0

    def growth(self, first: SoakSample, last: SoakSample) -> tuple[float, float]:
        """The server's growth from ``first`` to ``last``: MB, and KiB per table
        finished meanwhile (0 when none was)."""
        grown = last.rss_kb - first.rss_kb
        tables = last.finished - first.finished
        return grown / 1024, grown / tables if tables else 0.0


@dataclass
class WaveResult:
    """One wave's figures."""

    number: int
    seconds: float = 0.0
    opened: int = 0
    finished: int = 0
    closed_early: int = 0
    moves: int = 0
    human_moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    refused_tables: int = 0
    rss_peak_kb: int = 0
    rss_after_kb: int = 0
    drain_seconds: float = 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0


@dataclass
class LoadReport:
    """A run's figures."""

    settings: LoadSettings
    waves: list[WaveResult]
    #: (seconds since the server answered, phase, open tables, RSS in kB).
    samples: list[tuple[float, str, int, int]]
    rss_before_kb: int
    server_cpu_seconds: float
    client_cpu_seconds: float
    wall_seconds: float
    startup_seconds: float
    limits: dict[str, float]

    @property
    def moves(self) -> int:
        return sum(wave.moves for wave in self.waves)

    @property
    def play_seconds(self) -> float:
        return sum(wave.seconds for wave in self.waves)

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.play_seconds if self.play_seconds > 0 else 0.0

    @property
    def latencies(self) -> list[float]:
        return [latency for wave in self.waves for latency in wave.latencies]

    @property
    def rss_peak_kb(self) -> int:
        return max((sample[3] for sample in self.samples), default=0)

    @property
    def rss_after_kb(self) -> int:
        return self.waves[-1].rss_after_kb if self.waves else 0


# ------------------------------------------------------------------ the server


def rss_kb(pid: int) -> int | None:
    """The resident set of process ``pid`` in kB (``VmRSS``), or ``None`` off Linux."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of process ``pid`` (all its threads), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A loopback port free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_json(url: str, body: Any = None, timeout: float = 60.0) -> tuple[int, Any]:
    """GET (or POST ``body`` as JSON) ``url``: the status and the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method="GET" if data is None else "POST",
        headers={} if data is None else {"Content-Type": "application/json"})
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return int(response.status), json.loads(response.read())
    except urllib.error.HTTPError as error:
        text = error.read()
        return int(error.code), json.loads(text) if text else None


def start_server(records: Path, port: int, log: Path, *, idle: float, max_tables: int,
                 connections: int) -> subprocess.Popen[bytes]:
    """``cardgym serve`` on ``port`` (bots without a pause, at most ``max_tables``
    tables, ``connections`` websockets in all and from this client), its output into
    ``log``."""
    command = [sys.executable, "-m", "cardgym_cli", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--bot-delay", "0", "--records", str(records),
               "--idle", f"{idle:g}", "--max-tables", str(max_tables),
               "--max-connections", str(connections),
               "--max-connections-per-client", str(connections)]
    with open(log, "wb") as output:
        return subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)


def wait_until_up(process: subprocess.Popen[bytes], base: str, log: Path,
                  timeout: float = 120.0) -> None:
    """Wait until the server answers ``GET /api/games``."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"cardgym serve exited with {process.returncode}: "
                               f"{log.read_text(errors='replace')[-2000:]}")
        with contextlib.suppress(OSError):
            if http_json(f"{base}/api/games", timeout=2.0)[0] == 200:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"cardgym serve did not answer within {timeout:g} s")
        time.sleep(0.1)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Interrupt the server (as Ctrl-C), kill it if it lingers."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ------------------------------------------------------------------ the client


class Pacer:
    """The client side of the server's rate limit: a token bucket a little slower than
    the server's (:class:`cardgym_web.hub.RateLimit`), so that no message is dropped."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate * 0.9
        self.burst = max(1.0, burst - 2.0)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    async def wait(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / self.rate)


class Run:
    """The client's state: the server's address, the waves, the samples."""

    def __init__(self, settings: LoadSettings, port: int, pid: int) -> None:
        from cardgym_web.hub import Limits

        self.settings = settings
        self.port = port
        self.pid = pid
        self.base = f"http://127.0.0.1:{port}"
        self.limits = Limits()
        self.rng = np.random.default_rng(settings.seed)
        self.start = time.monotonic()
        self.phase = "before"
        self.open_tables = 0
        self.samples: list[tuple[float, str, int, int]] = []
        self.wave = WaveResult(0)

    async def sample_memory(self) -> None:
        """Every second: the server's RSS and its open tables."""
        while True:
            status, answer = await asyncio.to_thread(http_json, f"{self.base}/api/tables")
            if status == 200:
                self.open_tables = len(answer["tables"])
            rss = rss_kb(self.pid)
            if rss is not None:
                self.samples.append((time.monotonic() - self.start, self.phase,
                                     self.open_tables, rss))
                self.wave.rss_peak_kb = max(self.wave.rss_peak_kb, rss)
            await asyncio.sleep(1.0)

    async def slot(self, index: int, deadline: float) -> None:
        """Table after table at seat ``index``'s place until ``deadline``."""
        game = GAMES[index % len(GAMES)]
        players = PLAYERS[(index // len(GAMES)) % len(PLAYERS)]
        rng = np.random.default_rng([self.settings.seed, self.wave.number, index])
        played = 0
        while played == 0 or time.monotonic() < deadline:
            body = {"game": game, "players": players,
                    "seats": ["human"] + ["heuristic"] * (players - 1),
                    "seed": int(rng.integers(2**62))}
            status, answer = await asyncio.to_thread(http_json, f"{self.base}/api/tables",
                                                     body)
            if status == 503:                     # the server is full: try again soon
                self.wave.refused_tables += 1
                if time.monotonic() > deadline:
                    return
                await asyncio.sleep(0.5)
                continue
            if status != 201:
                raise RuntimeError(f"POST /api/tables {body} answered {status}: {answer}")
            played += 1
            self.wave.opened += 1
            token = answer["links"]["0"].partition("token=")[2]
            await self.play(answer["table"], token, rng)

    async def play(self, table_id: str, token: str, rng: np.random.Generator) -> None:
        """Seat 0 of one table, to the end of its game."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed
        from websockets.typing import Origin

        pacer = Pacer(self.limits.messages_per_second, self.limits.message_burst)
        wave = self.wave
        version = 0
        #: The move sent and not yet answered: (its version, sent at, the message).
        pending: tuple[int, float, str] | None = None
        legal: list[dict[str, Any]] = []          # the latest view's moves for seat 0

        async def choose(websocket: Any) -> tuple[int, float, str]:
            choice = legal[int(rng.integers(len(legal)))]
            text = json.dumps({"type": "move", "action": choice["action"],
                               "version": version})
            await pacer.wait()
            sent = time.monotonic()
            await websocket.send(text)
            return version, sent, text

        try:
            async with connect(f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}",
                               origin=Origin(self.base), proxy=None, ping_interval=None,
                               open_timeout=60) as websocket:
                await pacer.wait()
                await websocket.send(json.dumps({"type": "join", "seat": 0, "token": token}))
                async for raw in websocket:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "closed":
                        wave.closed_early += 1
                        break
                    if kind == "error":               # none expected: counted, played on
                        wave.errors[message["code"]] += 1
                        if sum(wave.errors.values()) > 1000:
                            raise RuntimeError(f"the server keeps refusing: {message}")
                        if message["code"] == "flood":
                            await asyncio.sleep(0.2)
                        pending = await choose(websocket) if legal else None
                        continue
                    if kind != "view" or int(message["version"]) < version:
                        continue
                    version = int(message["version"])
                    if pending is not None and version > pending[0]:
                        wave.latencies.append(time.monotonic() - pending[1])
                        wave.human_moves += 1
                        pending = None
                    view = message["view"]
                    if view["over"]:
                        wave.finished += 1
                        break
                    legal = view["legal_moves"] if message["seat"] == 0 else []
                    if legal and pending is None:
                        pending = await choose(websocket)
        except (ConnectionClosed, OSError):
            wave.errors["connection lost"] += 1
        wave.moves += version

    async def wait_until_empty(self, timeout: float) -> None:
        """Until the server holds no table (the finished ones closed as idle)."""
        deadline = time.monotonic() + timeout
        while True:
            status, answer = await asyncio.to_thread(http_json, f"{self.base}/api/tables")
            if status == 200 and not answer["tables"]:
                self.open_tables = 0
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server still holds {len(answer['tables'])} tables "
                                   f"{timeout:g} s after the wave")
            await asyncio.sleep(0.25)

    async def run_wave(self, number: int, seconds: float) -> WaveResult:
        self.wave = WaveResult(number)
        self.phase = f"wave {number}"
        start = time.monotonic()
        await asyncio.gather(*(self.slot(index, start + seconds)
                               for index in range(self.settings.tables)))
        self.wave.seconds = time.monotonic() - start
        self.phase = f"closing {number}"
        drained = time.monotonic()
        await self.wait_until_empty(self.settings.idle * 4 + 60)
        self.wave.drain_seconds = time.monotonic() - drained
        self.wave.rss_after_kb = rss_kb(self.pid) or 0
        if self.wave.rss_after_kb:
            self.samples.append((time.monotonic() - self.start, self.phase, 0,
                                 self.wave.rss_after_kb))
        return self.wave


async def _measure(settings: LoadSettings, port: int, pid: int,
                   startup: float) -> LoadReport:
    run = Run(settings, port, pid)
    client_cpu = time.process_time()
    server_cpu = cpu_seconds(pid) or 0.0
    await asyncio.sleep(1.0)                       # let the server settle
    before = rss_kb(pid) or 0
    run.samples.append((time.monotonic() - run.start, "before", 0, before))
    sampler = asyncio.create_task(run.sample_memory())
    waves = []
    try:
        for number in range(1, settings.waves + 1):
            waves.append(await run.run_wave(number, settings.seconds / settings.waves))
        run.phase = "after"
        await asyncio.sleep(1.5)                   # one more sample or two
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
    return LoadReport(settings, waves, run.samples, before,
                      (cpu_seconds(pid) or 0.0) - server_cpu,
                      time.process_time() - client_cpu, time.monotonic() - run.start,
                      startup, {"messages_per_second": run.limits.messages_per_second,
                                "message_burst": run.limits.message_burst})


def measure(settings: LoadSettings) -> LoadReport:
    """Start a server, play the waves against it, stop it: the figures."""
    with tempfile.TemporaryDirectory(prefix="serve_load-") as folder:
        port = free_port()
        log = Path(folder) / "serve.log"
        started = time.monotonic()
        # Finished tables stay open until idle: room for them beside the played.
        process = start_server(Path(folder) / "records", port, log, idle=settings.idle,
                               max_tables=max(64, settings.tables * 20),
                               connections=max(256, settings.tables * 2))
        try:
            wait_until_up(process, f"http://127.0.0.1:{port}", log)
            startup = time.monotonic() - started
            return asyncio.run(_measure(settings, port, process.pid, startup))
        finally:
            stop_server(process)


# -------------------------------------------------------------------- the soak


class Soak:
    """The soak's client: its places, the samples and the counts."""

    def __init__(self, settings: SoakSettings, port: int, pid: int) -> None:
        self.settings = settings
        self.port = port
        self.pid = pid
        self.base = f"http://127.0.0.1:{port}"
        self.start = time.monotonic()
        self.report = SoakReport(settings, [])

    async def sample(self) -> None:
        """The server's memory and tables now, as one more sample."""
        status, answer = await asyncio.to_thread(http_json, f"{self.base}/api/tables")
        rss = rss_kb(self.pid)
        if rss is not None:
            self.report.samples.append(SoakSample(
                time.monotonic() - self.start, self.report.finished,
                len(answer["tables"]) if status == 200 else 0, rss))

    async def sample_every(self) -> None:
        """A sample every :attr:`SoakSettings.every` seconds, on the soak's clock."""
        number = 0
        while True:
            number += 1
            await asyncio.sleep(max(self.start + number * self.settings.every
                                    - time.monotonic(), 0.0))
            await self.sample()

    async def place(self, index: int, deadline: float) -> None:
        """Bots-only tables, one after another, until ``deadline``."""
        rng = np.random.default_rng([self.settings.seed, index])
        number = index
        while time.monotonic() < deadline:
            game = GAMES[number % len(GAMES)]
            players = PLAYERS[(number // len(GAMES)) % len(PLAYERS)]
            number += self.settings.tables
            body = {"game": game, "players": players, "seats": ["heuristic"] * players,
                    "seed": int(rng.integers(2**62))}
            status, answer = await asyncio.to_thread(http_json, f"{self.base}/api/tables",
                                                     body)
            if status == 503:                      # full: try again soon
                self.report.refused_tables += 1
                await asyncio.sleep(0.5)
                continue
            if status != 201:
                raise RuntimeError(f"POST /api/tables {body} answered {status}: {answer}")
            await self.watch(answer["table"])

    async def watch(self, table_id: str) -> None:
        """One table as a spectator's page sees it, to its end; then its picture and its
        record's replay."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed
        from websockets.typing import Origin

        report = self.report
        record = None
        try:
            async with connect(f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}",
                               origin=Origin(self.base), proxy=None, ping_interval=None,
                               open_timeout=60) as websocket:
                await websocket.send(json.dumps({"type": "join", "seat": None}))
                async for raw in websocket:
                    message = json.loads(raw)
                    if message["type"] != "view":
                        report.errors[message.get("code", message["type"])] += 1
                        break
                    if message["view"]["over"] and message["record"]:
                        record = message["record"]
                        break
        except (ConnectionClosed, OSError):
            report.errors["connection lost"] += 1
        if record is None:
            return
        report.finished += 1
        picture = await asyncio.to_thread(http_status,
                                          f"{self.base}/api/tables/{table_id}/picture")
        if picture == 200:
            report.pictures += 1
        elif picture == 404:
            report.pictures_missed += 1
        else:
            report.errors[f"picture {picture}"] += 1
        status, answer = await asyncio.to_thread(http_json, f"{self.base}/api/replays",
                                                 {"record": record})
        if status != 201:
            report.errors[f"replay {status}"] += 1
            return
        status, view = await asyncio.to_thread(
            http_json, f"{self.base}/api/replays/{answer['replay']}?seat=full")
        if status == 200:
            status, _ = await asyncio.to_thread(
                http_json, f"{self.base}/api/replays/{answer['replay']}?step={view['moves']}"
                           "&seat=full")
        if status == 200:
            report.replays += 1
        else:
            report.errors[f"replay view {status}"] += 1


async def _soak(settings: SoakSettings, port: int, pid: int) -> SoakReport:
    run = Soak(settings, port, pid)
    server_cpu = cpu_seconds(pid) or 0.0
    await asyncio.sleep(1.0)                       # let the server settle
    run.start = time.monotonic()
    await run.sample()                             # minute 0: before any table
    sampler = asyncio.create_task(run.sample_every())
    try:
        await asyncio.gather(*(run.place(index, run.start + settings.minutes * 60)
                               for index in range(settings.tables)))
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
    await run.sample()                             # the end
    run.report.wall_seconds = time.monotonic() - run.start
    run.report.server_cpu_seconds = (cpu_seconds(pid) or 0.0) - server_cpu
    return run.report


def soak(settings: SoakSettings) -> SoakReport:
    """Start a server, keep it busy with bots-only tables for the soak's minutes while
    sampling its memory, stop it: the figures."""
    with tempfile.TemporaryDirectory(prefix="serve_soak-") as folder:
        port = free_port()
        log = Path(folder) / "serve.log"
        # Room for the places' tables and twice as many finished ones: the one closed
        # to make room finished long before (its place has moved on).
        process = start_server(Path(folder) / "records", port, log, idle=settings.idle,
                               max_tables=settings.tables * 3,
                               connections=max(256, settings.tables * 2))
        try:
            wait_until_up(process, f"http://127.0.0.1:{port}", log)
            return asyncio.run(_soak(settings, port, process.pid))
        finally:
            stop_server(process)


def http_status(url: str, timeout: float = 60.0) -> int:
    """GET ``url`` and read its body: the status."""
    try:
        with _OPENER.open(url, timeout=timeout) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.read()
        return int(error.code)


# ------------------------------------------------------------------ the report


def _ms(values: Sequence[float], q: float) -> str:
    return f"{float(np.percentile(values, q)) * 1e3:.1f}" if values else "n/a"


def _mb(kb: int) -> str:
    return f"{kb / 1024:.1f}" if kb else "n/a"


def _wave_row(label: str, seconds: float, opened: int, finished: int, moves: int,
              human: int, latencies: Sequence[float], errors: Counter[str], peak: int,
              after: int) -> str:
    rate = moves / seconds if seconds > 0 else 0.0
    told = ", ".join(f"{code} {count}" for code, count in sorted(errors.items())) or "0"
    return (f"| {label} | {seconds:.1f} | {opened} | {finished} | {moves:,} | {rate:,.0f} | "
            f"{human:,} | {_ms(latencies, 50)} | {_ms(latencies, 99)} | {told} | "
            f"{_mb(peak)} | {_mb(after)} |")


def _timeline(samples: Sequence[tuple[float, str, int, int]]) -> list[str]:
    step = max(1, -(-len(samples) // TIMELINE_ROWS))
    chosen = list(samples[::step])
    if samples and chosen[-1] is not samples[-1]:
        chosen.append(samples[-1])
    peak = max(samples, key=lambda sample: sample[3]) if samples else None
    if peak is not None and peak not in chosen:
        chosen = sorted([*chosen, peak])
    lines = ["| t (s) | phase | open tables | server RSS (MB) |", "|---|---|---|---|"]
    lines += [f"| {t:.0f} | {phase} | {tables} | {_mb(rss)} |" for t, phase, tables, rss in chosen]
    return lines


def format_markdown(report: LoadReport) -> str:
    """``serve_load.md``: the machine, the settings and the figures."""
    settings = report.settings
    waves = report.waves
    errors: Counter[str] = Counter()
    for wave in waves:
        errors.update(wave.errors)
    lines = [
        "# The browser table under load", "",
        "`python -m benchmarks.serve_load` (benchmarks/serve_load.py): one `cardgym serve "
        "--bot-delay 0` and one client process on the same machine, over loopback. At each "
        "table seat 0 is a person played by the client's websocket (uniformly random legal "
        "moves, as fast as the server's rate limit lets one connection: "
        f"{report.limits['message_burst']:g} at once, then "
        f"{report.limits['messages_per_second']:g} a second), the other seats `heuristic`; "
        f"the tables mix {', '.join(GAMES)} at {', '.join(map(str, PLAYERS))} players. "
        "While a wave lasts a finished table is replaced by a new one; then every table "
        "plays to its end and the server closes it once idle. Moves count every move, the "
        "person's and the bots', from the views' versions, over the time tables were "
        "played; latency runs from sending a move to receiving the view of the next "
        "version, at the client. Figures are reported, never asserted.", "",
        "| machine | |", "|---|---|",
        f"| CPUs (`os.cpu_count()`) | {os.cpu_count()} |",
        f"| Python | {platform.python_version()} ({platform.python_implementation()}) |",
        f"| system | {platform.system()} {platform.release()} {platform.machine()} |", "",
        "| settings | |", "|---|---|",
        f"| tables at once | {settings.tables} |",
        f"| seconds of play | {settings.seconds:g} in {settings.waves} wave(s) of "
        f"{settings.seconds / settings.waves:g} |",
        f"| server | `--bot-delay 0 --idle {settings.idle:g}` (finished tables closed after "
        f"{settings.idle:g} s idle) |",
        f"| seed | {settings.seed} |", "",
        "| wave | seconds | tables opened | finished | moves | moves/s | person's moves | "
        "latency p50 (ms) | latency p99 (ms) | errors | server RSS peak (MB) | "
        "RSS after its tables closed (MB) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for wave in waves:
        lines.append(_wave_row(str(wave.number), wave.seconds, wave.opened, wave.finished,
                               wave.moves, wave.human_moves, wave.latencies, wave.errors,
                               wave.rss_peak_kb, wave.rss_after_kb))
    lines.append(_wave_row("**all**", report.play_seconds, sum(w.opened for w in waves),
                           sum(w.finished for w in waves), report.moves,
                           sum(w.human_moves for w in waves), report.latencies, errors,
                           report.rss_peak_kb, report.rss_after_kb))
    closed = sum(wave.closed_early for wave in waves)
    refused = sum(wave.refused_tables for wave in waves)
    wall = report.wall_seconds
    lines += [
        "",
        f"Server memory (RSS): {_mb(report.rss_before_kb)} MB before any table, "
        f"{_mb(report.rss_peak_kb)} MB at the peak, {_mb(report.rss_after_kb)} MB after the "
        f"last wave's tables closed (after each wave: "
        f"{', '.join(_mb(wave.rss_after_kb) for wave in waves)} MB).",
        f"CPU: the server used {report.server_cpu_seconds:.1f} s and the client "
        f"{report.client_cpu_seconds:.1f} s over {wall:.1f} s of wall time "
        f"({report.server_cpu_seconds / wall if wall else 0:.2f} and "
        f"{report.client_cpu_seconds / wall if wall else 0:.2f} cores on average). "
        f"The server answered {report.startup_seconds:.1f} s after it was started. "
        f"Tables closed before their end: {closed}; tables refused (503): {refused}; "
        f"the closing of each wave's last tables took "
        f"{', '.join(f'{wave.drain_seconds:.1f}' for wave in waves)} s.",
        "", "## Server memory over time", "", *_timeline(report.samples)]
    return "\n".join(lines) + "\n"


def format_soak(report: SoakReport) -> str:
    """The soak's section of ``serve_load.md``: the settings and a row per sample."""
    settings = report.settings
    samples = report.samples
    lines = [
        f"{SOAK_HEADING}: bots-only tables for {settings.minutes:g} minutes", "",
        f"`python -m benchmarks.serve_load --soak {settings.minutes:g} --tables "
        f"{settings.tables}` (benchmarks/serve_load.py): does the server's memory level "
        "off over a long run of tables? One `cardgym serve --bot-delay 0 --idle "
        f"{settings.idle:g} --max-tables {settings.tables * 3}` (finished tables give "
        f"their places to new ones) and one client: {settings.tables} places, each "
        "opening a bots-only table after another (`heuristic` at every seat, the games "
        "and sizes mixed as above), watching it to its end over a spectator's websocket, "
        "fetching its final picture, and opening and viewing its record's replay. The "
        f"server's resident set (`VmRSS`) sampled every {settings.every:g} s; "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, shared with other "
        "work. Figures are reported, never asserted.", "",
        "| minute | tables finished | open tables | server RSS (MB) | since the first "
        "sample (MB) | per table since the sample before (KiB) |",
        "|---|---|---|---|---|---|"]
    for before, sample in zip([None, *samples[:-1]], samples, strict=True):
        per_table = "" if before is None else (
            f"{report.growth(before, sample)[1]:.1f}" if sample.finished > before.finished
            else "-")
        lines.append(f"| {sample.seconds / 60:.1f} | {sample.finished:,} | "
                     f"{sample.open_tables} | {_mb(sample.rss_kb)} | "
                     f"{(sample.rss_kb - samples[0].rss_kb) / 1024:+.1f} | {per_table} |")
    errors = ", ".join(f"{code} {count}" for code, count in sorted(report.errors.items()))
    lines.append("")
    if len(samples) >= 3:
        first, middle, last = samples[0], samples[len(samples) // 2], samples[-1]
        whole, half_one, half_two = (report.growth(first, last),
                                     report.growth(first, middle),
                                     report.growth(middle, last))
        minutes = report.wall_seconds / 60
        lines.append(
            f"{report.finished:,} tables in {minutes:.1f} minutes "
            f"({report.finished / minutes if minutes else 0:,.0f} a minute); "
            f"{report.pictures:,} final pictures drawn ({report.pictures_missed} not, "
            f"their tables closed first), {report.replays:,} replays opened and viewed. "
            f"Server memory (RSS): {_mb(first.rss_kb)} MB before any table, "
            f"{_mb(last.rss_kb)} MB at the end ({whole[0]:+.1f} MB, {whole[1]:.1f} KiB a "
            f"table); in the first half of the samples {half_one[0]:+.1f} MB "
            f"({half_one[1]:.1f} KiB a table), in the second half {half_two[0]:+.1f} MB "
            f"({half_two[1]:.1f} KiB a table). The server used "
            f"{report.server_cpu_seconds:.0f} s of CPU. Tables refused (503) and tried "
            f"again: {report.refused_tables}; errors: {errors or 0}.")
    return "\n".join(lines) + "\n"


def _sections(path: Path) -> tuple[str, str]:
    """``serve_load.md`` at ``path`` cut in two: the load run's part and the soak's
    section (empty strings for a missing file or part)."""
    if not path.is_file():
        return "", ""
    text = path.read_text(encoding="utf-8")
    at = text.find(f"\n{SOAK_HEADING}")
    if text.startswith(SOAK_HEADING):
        return "", text
    if at < 0:
        return text, ""
    return text[:at + 1], text[at + 1:]


def _write_atomically(target: Path, text: str) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.parent / f".{target.name}.{os.getpid()}.partial"
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def write_report(report: LoadReport, output: Path) -> Path:
    """Write ``serve_load.md`` into ``output`` atomically, keeping the soak's section
    of the file there; its path."""
    target = output / REPORT
    _, soaked = _sections(target)
    return _write_atomically(target, format_markdown(report) + ("\n" + soaked if soaked else ""))


def write_soak(report: SoakReport, output: Path) -> Path:
    """Write the soak's section into ``serve_load.md`` under ``output`` atomically,
    replacing the one there and keeping the load run's figures; its path."""
    target = output / REPORT
    loaded, _ = _sections(target)
    return _write_atomically(target, (loaded.rstrip("\n") + "\n\n" if loaded else "")
                             + format_soak(report))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.serve_load",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=None,
                        help="tables at once (default 50; with --soak, 4)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds of play in all (default 60; not with --soak)")
    parser.add_argument("--waves", type=int, default=None,
                        help="waves the play is cut into; each ends with every table "
                             "finished and closed (default 3; not with --soak)")
    parser.add_argument("--idle", type=float, default=3.0,
                        help="the server's --idle: finished tables close after this many "
                             "seconds (default 3)")
    parser.add_argument("--soak", type=float, default=None, metavar="MINUTES",
                        help="instead of the load run, soak the server with bots-only "
                             "tables for this many minutes, sampling its memory")
    parser.add_argument("--every", type=float, default=60.0, metavar="SECONDS",
                        help="with --soak: seconds between two samples of the server's "
                             "memory (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    parser.add_argument("--output", type=Path, default=None,
                        help=f"write {REPORT} into this folder (a soak writes its section "
                             "of it)")
    args = parser.parse_args(argv)
    if args.soak is not None:
        if args.seconds is not None or args.waves is not None:
            parser.error("--seconds and --waves are the load run's; a soak runs --soak "
                         "MINUTES")
        tables = 4 if args.tables is None else args.tables
        if tables < 1 or not args.soak > 0 or not args.every > 0 or not args.idle > 0:
            parser.error("--tables must be >= 1, --soak, --every and --idle > 0")
        soaked = soak(SoakSettings(args.soak, tables, args.every, args.idle, args.seed))
        print(format_soak(soaked))
        if args.output is not None:
            print(f"wrote {write_soak(soaked, args.output)}")
        return 0
    given = {"tables": args.tables, "seconds": args.seconds, "waves": args.waves}
    settings = LoadSettings(**{name: value for name, value in given.items()
                               if value is not None}, idle=args.idle, seed=args.seed)
    if settings.tables < 1 or settings.waves < 1 or not settings.seconds > 0 \
            or not settings.idle > 0:
        parser.error("--tables and --waves must be >= 1, --seconds and --idle > 0")
    report = measure(settings)
    text = format_markdown(report)
    print(text)
    if args.output is not None:
        print(f"wrote {write_report(report, args.output)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
