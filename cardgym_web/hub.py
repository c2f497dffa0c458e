"""The tables of a server, the browsers watching them, and the bots' turns.

:class:`Hub` owns every :class:`~cardgym_web.table.WebTable`. Each table has a lock:
a move, a bot's move and a view are made one at a time per table, while tables run side
by side. A bot's thinking (a search can take seconds) runs in a worker thread
(:func:`asyncio.to_thread`), so that the event loop keeps serving every other table.
After each move the hub sends every browser at that table the view of its own seat
(or the spectator's), and nothing else.

The number of tables is bounded (:attr:`Limits.max_tables`); a table with no move and
no browser joining for :attr:`Limits.idle_seconds` is closed, its browsers told so. A
finished game's record is written into the records folder; its table stays open (its
browsers see the result) until it is idle, or until a new table needs its place: at the
limit, the table whose game ended longest ago is closed first (its record stays, and
replays).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgym_web.errors import WebError
from cardgym_web.table import WebTable

__all__ = ["Hub", "Limits", "Listener"]

log = logging.getLogger("cardgym.serve")

#: A browser's connection as the hub sees it: send a message (a JSON object).
Listener = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class Limits:
    """What the server holds at most, and how long it waits.

    Attributes:
        max_tables: tables open at once; a new one beyond is refused.
        idle_seconds: a table with no move and no browser for this long is closed.
        max_message_bytes: a websocket message larger than this is refused.
        max_upload_bytes: a request body (a new table with its position, a record to
            replay) larger than this is refused.
        messages_per_second: a browser's sustained message rate...
        message_burst: ...and the burst it may send at once, before a refusal.
        max_replays: uploaded records held for replay at once (the oldest go first).
        bot_delay: seconds a bot waits before each move, so that people can follow
            (0 for tests and load).
        max_json_depth: arrays and objects nested within each other in a request body
            or a websocket message, at most (checked before the JSON is parsed, whose
            recursion a deeper text would exhaust; a table's request with a position
            file, the deepest a page sends, nests 7 deep).
        max_connections: websockets open at once on the server; one more is refused.
        max_connections_per_client: websockets open at once from one client address
            (behind a proxy every browser has the proxy's address).
        join_seconds: a websocket that has not joined a table (as a seat or to watch)
            this long after it opened is closed.
    """

    max_tables: int = 64
    idle_seconds: float = 1800.0
    max_message_bytes: int = 4096
    max_upload_bytes: int = 2_000_000
    messages_per_second: float = 10.0
    message_burst: int = 30
    max_replays: int = 64
    bot_delay: float = 0.4
    max_json_depth: int = 32
    max_connections: int = 256
    max_connections_per_client: int = 32
    join_seconds: float = 10.0


class RateLimit:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Whether one more message may pass now (taking a token if so)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class _Seated:
    """A table with its lock, its listeners and its bot task."""

    def __init__(self, table: WebTable) -> None:
        self.table = table
        self.lock = asyncio.Lock()
        self.listeners: dict[Listener, int | None] = {}
        self.bots: asyncio.Task[None] | None = None
        #: When the game ended and its browsers had been told (record written): from
        #: then on the table may give its place to a new one.
        self.finished: float | None = None


class Hub:
    """Every table of a server.

    Args:
        limits: the bounds (:class:`Limits`).
        records: the folder finished games' records go to.
    """

    def __init__(self, limits: Limits, records: Path) -> None:
        self.limits = limits
        self.records = records
        self._tables: dict[str, _Seated] = {}
        self._reaper: asyncio.Task[None] | None = None
        #: Tables being built (counted against the limit while they are).
        self._opening = 0
        #: Called with each table after every move, before its browsers are told (tests).
        self.on_move: Callable[[WebTable], None] | None = None

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Begin closing idle tables."""
        if self._reaper is None:
            self._reaper = asyncio.create_task(self._reap())

    async def stop(self) -> None:
        """Stop every bot and the reaper."""
        tasks = [seated.bots for seated in self._tables.values() if seated.bots is not None]
        if self._reaper is not None:
            tasks.append(self._reaper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._reaper = None

    async def _reap(self) -> None:
        period = max(min(self.limits.idle_seconds / 4, 60.0), 0.05)
        while True:
            await asyncio.sleep(period)
            await self.close_idle()

    async def close_idle(self) -> list[str]:
        """Close every table idle for longer than the limit; their ids."""
        now = time.monotonic()
        idle = [table_id for table_id, seated in self._tables.items()
                if now - seated.table.touched > self.limits.idle_seconds]
        for table_id in idle:
            await self.close(table_id, "the table was idle and is closed")
        return idle

    async def close(self, table_id: str, reason: str) -> None:
        """Close a table: stop its bots and tell its browsers ``reason``."""
        seated = self._tables.pop(table_id, None)
        if seated is None:
            return
        if seated.bots is not None and seated.bots is not asyncio.current_task():
            seated.bots.cancel()
        message = {"type": "closed", "table": table_id, "message": reason}
        for listener in list(seated.listeners):
            with contextlib.suppress(Exception):
                await listener(message)
        seated.listeners.clear()
        log.info("closed table %s: %s", table_id, reason)

    # --------------------------------------------------------------- tables

    def tables(self) -> list[WebTable]:
        """The open tables, oldest first."""
        return [seated.table for seated in self._tables.values()]

    def table(self, table_id: object) -> WebTable:
        """The open table named ``table_id``.

        Raises:
            WebError: no such table (never made, or closed).
        """
        seated = self._tables.get(table_id) if isinstance(table_id, str) else None
        if seated is None:
            raise WebError("no_table", f"there is no open table {str(table_id)[:40]!r} (it was "
                                       "never made, or it was closed)", status=404)
        return seated.table

    async def open(self, build: Callable[[str], WebTable]) -> WebTable:
        """Make a table with ``build(table_id)`` (in a worker thread: loading a model
        takes time) and start its bots.

        Raises:
            WebError: the server holds its most tables already, none of them finished
                (a finished one is closed to make room: :meth:`_make_room`).
        """
        if self._full():
            await self.close_idle()
        await self._make_room()
        if self._full():
            raise WebError("too_many_tables", f"the server holds its limit of "
                                              f"{self.limits.max_tables} tables; wait for one "
                                              "to finish or close", status=503)
        table_id = secrets.token_urlsafe(9)
        self._opening += 1
        try:
            table = await asyncio.to_thread(build, table_id)
        finally:
            self._opening -= 1
        seated = _Seated(table)
        # Idle from now, not from when its building began: building can take longer
        # than the idle limit (a model loads, an engine compiles on a server's first
        # table), and the table would be closed before its link is even handed out.
        table.touched = time.monotonic()
        self._tables[table_id] = seated
        log.info("opened table %s: %s, %d players, seats %s", table_id, table.game.name,
                 table.num_players, ", ".join(table.seats))
        await self._after_move(seated)
        return table

    def _full(self) -> bool:
        return len(self._tables) + self._opening >= self.limits.max_tables

    async def _make_room(self) -> None:
        """At the limit, close finished tables, the game ended longest ago first, until
        there is room for one more. Their records were written when their games ended
        and stay in the records folder, so that they can still be replayed."""
        while self._full():
            finished = [(seated.finished, table_id) for table_id, seated in self._tables.items()
                        if seated.finished is not None]
            if not finished:
                return
            _, table_id = min(finished)
            record = self._tables[table_id].table.record_name
            kept = f"; its record {record} stays and can be replayed" if record else ""
            await self.close(table_id, "the game is over and the table was closed to make "
                                       f"room for a new one{kept}")

    # ------------------------------------------------------------ listeners

    async def join(self, table_id: object, seat: object, token: object,
                   listener: Listener) -> WebTable:
        """Seat ``listener`` at a table as ``seat`` (with its token) or as a spectator
        (``seat`` ``None``), and send it the view.

        Raises:
            WebError: no such table, a bad seat or token.
        """
        table = self.table(table_id)
        seated = self._tables[table.table_id]
        viewer = table.viewer(seat, token)
        seated.listeners[listener] = viewer
        table.touched = time.monotonic()
        async with seated.lock:
            message = table.message(viewer)
        await listener(message)
        return table

    def leave(self, table_id: str, listener: Listener) -> None:
        """Forget ``listener`` (its connection closed)."""
        seated = self._tables.get(table_id)
        if seated is not None:
            seated.listeners.pop(listener, None)
            seated.table.touched = time.monotonic()

    def viewer_of(self, table_id: str, listener: Listener) -> int | None:
        """The seat ``listener`` watches from (``None``: the spectator).

        Raises:
            WebError: no such table, or the listener has not joined it.
        """
        self.table(table_id)  # no such table: say so
        seated = self._tables[table_id]
        if listener not in seated.listeners:
            raise WebError("not_joined", "join the table first: {\"type\": \"join\", "
                                         "\"seat\": K, \"token\": ...}")
        return seated.listeners[listener]

    # ---------------------------------------------------------------- moves

    async def move(self, table_id: str, listener: Listener, action: object,
                   version: object) -> None:
        """A human's move from ``listener``'s seat.

        Raises:
            WebError: a spectator, or any refusal of :meth:`WebTable.move`.
        """
        seat = self.viewer_of(table_id, listener)
        if seat is None:
            raise WebError("not_your_turn", "a spectator does not move; open a seat's link "
                                            "to play")
        seated = self._tables[table_id]
        async with seated.lock:
            seated.table.move(seat, action, version)
        await self._after_move(seated)

    async def _after_move(self, seated: _Seated) -> None:
        """Tell the table's browsers, then let its bots play if one is to act."""
        await self._settle(seated)
        if seated.table.bot_to_act() and (seated.bots is None or seated.bots.done()):
            seated.bots = asyncio.create_task(self._run_bots(seated))

    async def _settle(self, seated: _Seated) -> None:
        """After a move: the record of a finished game, then every browser's view."""
        table = seated.table
        async with seated.lock:
            if self.on_move is not None:
                self.on_move(table)
            if table.over and table.record_name is None:
                try:
                    await asyncio.to_thread(table.save_record, self.records)
                except OSError as error:
                    log.error("table %s: the record could not be written to %s: %s",
                              table.table_id, self.records, error)
        await self._broadcast(seated)
        if table.over and seated.finished is None:
            seated.finished = time.monotonic()

    async def _broadcast(self, seated: _Seated) -> None:
        async with seated.lock:
            messages = [(listener, seated.table.message(viewer))
                        for listener, viewer in list(seated.listeners.items())]
        for listener, message in messages:
            try:
                await listener(message)
            except Exception:  # noqa: BLE001 - a closed connection: forget it
                seated.listeners.pop(listener, None)

    async def _run_bots(self, seated: _Seated) -> None:
        """Let the bots play while one is to act. A bot thinks in a worker thread and
        without the table's lock (thinking only reads the game, and no one else may
        move meanwhile), so that browsers joining the table are served at once."""
        table = seated.table
        while table.bot_to_act() and table.table_id in self._tables:
            if self.limits.bot_delay:
                await asyncio.sleep(self.limits.bot_delay)
            version = table.version
            try:
                action = await asyncio.to_thread(table.bot_action)
            except Exception as error:  # noqa: BLE001 - the table cannot go on
                log.exception("table %s: the bot at seat %s failed", table.table_id,
                              table.to_act)
                await self.close(table.table_id, f"the bot at seat {table.to_act} failed "
                                                  f"({type(error).__name__}: {error}); the "
                                                  "table is closed")
                return
            async with seated.lock:
                if table.version != version:
                    continue
                table.play_bot(action)
            await self._settle(seated)

    async def wait_for(self, table_id: str, ready: Callable[[WebTable], bool],
                       timeout: float = 30.0) -> WebTable:
        """Wait until ``ready(table)`` (tests and the load benchmark)."""
        deadline = time.monotonic() + timeout
        while True:
            table = self.table(table_id)
            if ready(table):
                return table
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {table_id} did not get ready in {timeout} s")
            await asyncio.sleep(0.01)

