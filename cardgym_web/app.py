"""The web app: pages, a JSON API and a websocket per browser (Starlette).

Routes::

    GET  /                          the lobby: open a table, list tables and records
    GET  /table/{id}                a table's page (a seat's link adds #seat=K&token=T)
    GET  /replay/{id}               a replay's page
    GET  /static/...                the pages' CSS and JavaScript (shipped in the package)
    GET  /api/games                 games, player counts, rule options, agents
    GET  /api/tables                open tables (no token, no card)
    POST /api/tables                open a table -> {"table", "links"}
    GET  /api/tables/{id}/picture   the table as one viewer sees it, PNG (?seat=K with
                                    the X-Seat-Token header, or no seat: the spectator)
    GET  /api/records               the server's record files
    POST /api/replays               {"record": NAME} or {"document": {...}} -> {"replay"}
    GET  /api/replays/{id}          ?step=N&seat=K|full|spectator -> the view
    GET  /api/replays/{id}/picture  the same, as a PNG
    WS   /ws/tables/{id}            join a seat or watch, receive views, send moves

Websocket messages, browser to server (JSON objects, at most
:attr:`Limits.max_message_bytes`, at most :attr:`Limits.message_burst` at once)::

    {"type": "join", "seat": K, "token": "..."}    or  {"type": "join", "seat": null}
    {"type": "move", "action": A, "version": V}    (A an action index or name)
    {"type": "ping"}

and server to browser: ``view`` (:meth:`cardgym_web.table.WebTable.message`), ``error``
(``code`` and ``message``: nothing changed), ``pong``, ``closed``. A websocket whose
``Origin`` is not the server's own (or one given with ``--allow-origin``) is refused.

Websockets are bounded: :attr:`Limits.max_connections` at once on the server and
:attr:`Limits.max_connections_per_client` from one address; one more is told
``too_many_connections`` and closed (code 1013, try again later). A websocket is closed
with the reason as an ``error`` message and in its close frame when its table does not
exist (``no_table``, code 4404), when it has not joined within :attr:`Limits.join_seconds`
(``join_timeout``, 1008), and after ``closed`` when its table closes (1000).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import re
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from agents.options import OptionsError, check_options
from agents.specs import AgentSpecError
from cardgym.registration import Game, find_game, games, short_name
from cardgym.table import table_of
from cardgym_web.errors import WebError
from cardgym_web.hub import Hub, Limits, Listener, RateLimit
from cardgym_web.replays import ReplayStore
from cardgym_web.seats import AGENT_KINDS, check_seats, model_names
from cardgym_web.table import SPECTATOR, WebTable, new_seed

__all__ = ["Settings", "create_app"]

log = logging.getLogger("cardgym.serve")

STATIC = Path(str(files("cardgym_web") / "static"))
#: Picture size sent to browsers (the page scales it).
PICTURE_SIZE = (1280, 800)
#: Pictures kept drawn, per server.
PICTURE_CACHE = 256
#: Refusals in a row after which a flooding websocket is closed.
FLOOD_CLOSE = 50
#: Close codes: the table does not exist (an application's code, as HTTP's 404)...
CLOSE_NO_TABLE = 4404
#: ...a refusal (another site's page, a flood, no join in time)...
CLOSE_REFUSED = 1008
#: ...the server is full of websockets: try again later...
CLOSE_FULL = 1013
#: ...and the table closed (its websockets were told why in a ``closed`` message).
CLOSE_DONE = 1000

#: The depth check's view of a JSON text: its strings (whose brackets are text)...
_JSON_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
#: ...and everything else but brackets are dropped; each bracket left is a step in or out.
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_BRACKET_STEPS = np.zeros(256, dtype=np.int8)
_BRACKET_STEPS[[ord("["), ord("{")]] = 1
_BRACKET_STEPS[[ord("]"), ord("}")]] = -1


@dataclass
class Settings:
    """What a server is started with.

    Attributes:
        records: the folder finished games' records go to.
        models: the folder of policy files bots may load (``model:NAME``), or ``None``.
        limits: the bounds (:class:`~cardgym_web.hub.Limits`).
        allowed_origins: origins besides the server's own whose pages may open a
            websocket (``http://host:port``).
        allowed_hosts: the host names requests may name (the ``Host`` header); empty
            for any. A server on loopback allows its loopback names only, so that a
            page of another site cannot reach it through a rebound DNS name.
    """

    records: Path
    models: Path | None = None
    limits: Limits = field(default_factory=Limits)
    allowed_origins: Sequence[str] = ()
    allowed_hosts: Sequence[str] = ()


def _json_error(error: WebError) -> JSONResponse:
    return JSONResponse(error.to_json(), status_code=error.status)


def nests_deeper(text: str, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` deep in the JSON ``text``
    (``[[1]]`` nests 2 deep).

    Read without parsing: Python's parser recurses once per level, and a text nested
    thousands deep ends it in ``RecursionError``. The strings are dropped (their
    brackets are text), then everything but brackets, and the depth is the running
    sum of the brackets' steps, in a few passes of compiled code over the text (a 2 MB
    body in milliseconds, whatever its brackets). For a text that is not JSON the answer
    may be either: the parser refuses it after, at or before the first bracket out of
    place, so it never goes deeper than the sum says.
    """
    if text.count("[") + text.count("{") <= limit:      # the common case: no more brackets
        return False
    brackets = _NOT_BRACKETS.sub("", _JSON_STRINGS.sub("", text)).encode("ascii")
    steps = _BRACKET_STEPS[np.frombuffer(brackets, dtype=np.uint8)]
    return bool(np.cumsum(steps, dtype=np.int32).max(initial=0) > limit)


def parse_json(data: str | bytes, what: str, max_depth: int) -> Any:
    """``data`` parsed as JSON, where JSON enters the server (request bodies and
    websocket messages alike): its depth is checked first (:func:`nests_deeper`).

    Args:
        data: the text, or bytes in an encoding of JSON (UTF-8, -16 or -32).
        what: how the refusal names it ("the body", "the message").
        max_depth: the deepest nesting allowed (:attr:`Limits.max_json_depth`).

    Raises:
        WebError: ``bad_json``, not JSON or nested deeper than ``max_depth``.
    """
    try:
        text = data if isinstance(data, str) else \
            data.decode(json.detect_encoding(data), "surrogatepass")
    except UnicodeDecodeError as error:
        raise WebError("bad_json", f"{what} is not JSON: {error}") from None
    if nests_deeper(text, max_depth):
        raise WebError("bad_json", f"{what} nests arrays and objects more than {max_depth} "
                                   f"deep; the limit is {max_depth}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise WebError("bad_json", f"{what} is not JSON: {error}") from None


async def read_json(request: Request, limit: int, max_depth: int) -> dict[str, Any]:
    """The request's body as a JSON object, read up to ``limit`` bytes and nested at
    most ``max_depth`` deep.

    Raises:
        WebError: not JSON (by type or content), not an object, too large or too deep.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/json":
        raise WebError("bad_request", "send the body as JSON (Content-Type: application/json)",
                       status=415)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise WebError("too_large", f"the body is {int(declared)} bytes; the limit is {limit}",
                       status=413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise WebError("too_large", f"the body is over the limit of {limit} bytes",
                           status=413)
    data = parse_json(bytes(body), "the body", max_depth)
    if not isinstance(data, dict):
        raise WebError("bad_json", "the body must be one JSON object")
    return data


def _fields(body: Mapping[str, Any], allowed: Sequence[str]) -> None:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise WebError("bad_request", f"unknown field(s) {', '.join(map(repr, unknown))}; "
                                      f"fields: {', '.join(allowed)}")


def _options(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise WebError("bad_request", "'options' must be an object of rule options")
    # JSON has lists where the options take tuples (Exploding Kittens' expansions).
    return {key: tuple(item) if isinstance(item, list) else item for key, item in value.items()}


def game_catalogue(models: Path | None) -> dict[str, Any]:
    """What the lobby offers: every registered game with its player counts, its rule
    options (default and allowed values) and the agents."""
    entries = []
    for game in games():
        values = game.option_values
        entries.append({
            "name": game.name, "short": short_name(game.env_id), "title": game.title,
            "env_id": game.env_id, "player_counts": list(game.player_counts),
            "options": [{"name": name, "default": _jsonable(default),
                         "values": ([_jsonable(v) for v in values[name]]
                                    if isinstance(values.get(name), tuple) else None),
                         "help": values.get(name) if isinstance(values.get(name), str) else None}
                        for name, default in game.option_defaults().items()]})
    return {"games": entries, "agents": list(AGENT_KINDS), "models": model_names(models)}


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


class Server:
    """The app's state: the hub, the replays and the drawn pictures."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.hub = Hub(settings.limits, settings.records)
        self.replays = ReplayStore(settings.records, settings.limits.max_replays)
        self.pictures: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        #: Websockets open now, in all and by client address.
        self.open_connections = 0
        self.connections: Counter[str] = Counter()

    # --------------------------------------------------------------- api

    async def api_games(self, request: Request) -> Response:
        return JSONResponse(game_catalogue(self.settings.models))

    async def api_tables(self, request: Request) -> Response:
        return JSONResponse({"tables": [table.summary() for table in self.hub.tables()],
                             "max_tables": self.limits.max_tables})

    async def api_open(self, request: Request) -> Response:
        try:
            body = await read_json(request, self.limits.max_upload_bytes,
                                   self.limits.max_json_depth)
            table = await self.hub.open(self._builder(body))
        except WebError as error:
            return _json_error(error)
        return JSONResponse({"table": table.table_id, "links": table.links()}, status_code=201)

    def _builder(self, body: dict[str, Any]) -> Any:
        """Check a new table's request; a function that builds the table."""
        _fields(body, ("game", "players", "options", "seats", "seed", "position"))
        position = body.get("position")
        scenario = None
        if position is not None:
            game, count, options, scenario = _position(position)
            if body.get("game") not in (None, game.name, short_name(game.env_id)):
                raise WebError("bad_request", f"the position is of {game.name}, not "
                                              f"{str(body.get('game'))[:40]!r}")
            if body.get("players") not in (None, count):
                raise WebError("bad_request", f"the position has {count} players, not "
                                              f"{body.get('players')!r}")
        else:
            game = _game(body.get("game"))
            count = body.get("players", min(game.player_counts))
            if isinstance(count, bool) or not isinstance(count, int):
                raise WebError("bad_request", f"'players' must be one of "
                                              f"{list(game.player_counts)}")
            try:
                options = check_options(game, count, _options(body.get("options")))
            except OptionsError as error:
                raise WebError("bad_options", str(error)) from None
        seats = check_seats(body.get("seats", ["human"] + ["heuristic"] * (count - 1)), count,
                            self.settings.models)
        seed = body.get("seed")
        if seed is None:
            seed = new_seed()
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise WebError("bad_request", "'seed' must be a non-negative integer")

        def build(table_id: str) -> WebTable:
            try:
                return WebTable(table_id, game, count, options, seats, seed, scenario)
            except (AgentSpecError, OptionsError, ValueError) as error:
                raise WebError("bad_request", str(error)) from None

        return build

    async def api_picture(self, request: Request) -> Response:
        try:
            table = self.hub.table(request.path_params["table_id"])
            seat_text = request.query_params.get("seat")
            seat = None if seat_text in (None, "", SPECTATOR) else _int(seat_text, "seat")
            viewer = table.viewer(seat, request.headers.get("x-seat-token"))
            message = table.message(viewer)
            key = ("table", table.table_id, message["version"], viewer)
            png = await self._picture(key, message["view"], table.game)
        except WebError as error:
            return _json_error(error)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def _picture(self, key: tuple[Any, ...], view: dict[str, Any], game: Game) -> bytes:
        cached = self.pictures.get(key)
        if cached is not None:
            return cached
        png = await asyncio.to_thread(_png, view, game)
        self.pictures[key] = png
        while len(self.pictures) > PICTURE_CACHE:
            self.pictures.popitem(last=False)
        return png

    async def api_records(self, request: Request) -> Response:
        return JSONResponse({"records": self.replays.record_names()})

    async def api_replay_open(self, request: Request) -> Response:
        try:
            body = await read_json(request, self.limits.max_upload_bytes,
                                   self.limits.max_json_depth)
            _fields(body, ("record", "document"))
            if ("record" in body) == ("document" in body):
                raise WebError("bad_request", "give 'record' (a record of this server, by "
                                              "name) or 'document' (an uploaded record)")
            opened = (self.replays.open_record(body["record"]) if "record" in body
                      else await asyncio.to_thread(self.replays.open_document, body["document"]))
        except WebError as error:
            return _json_error(error)
        return JSONResponse({"replay": opened, "link": f"/replay/{opened}"}, status_code=201)

    async def api_replay(self, request: Request) -> Response:
        try:
            message = self.replays.view(request.path_params["replay_id"],
                                        request.query_params.get("step"),
                                        request.query_params.get("seat"))
        except WebError as error:
            return _json_error(error)
        return JSONResponse(message)

    async def api_replay_picture(self, request: Request) -> Response:
        try:
            replay_id = request.path_params["replay_id"]
            message = self.replays.view(replay_id, request.query_params.get("step"),
                                        request.query_params.get("seat"))
            played = self.replays.get(replay_id)
            key = ("replay", replay_id, message["step"], message["viewer"])
            png = await self._picture(key, message["view"], played.game)
        except WebError as error:
            return _json_error(error)
        return Response(png, media_type="image/png")

    # --------------------------------------------------------- websocket

    def origin_allowed(self, websocket: WebSocket) -> bool:
        """Whether the websocket comes from the server's own pages (or an allowed
        origin). A client that sends no ``Origin`` is not a browser page."""
        origin = websocket.headers.get("origin")
        if origin is None:
            return True
        if origin in self.settings.allowed_origins:
            return True
        host = websocket.headers.get("host", "")
        return urlsplit(origin).netloc.lower() == host.lower() and bool(host)

    def _connection_refusal(self, address: str) -> WebError | None:
        """Why one more websocket from ``address`` is refused, or ``None``."""
        if self.open_connections >= self.limits.max_connections:
            return WebError("too_many_connections", f"the server holds its limit of "
                                                    f"{self.limits.max_connections} websockets; "
                                                    "try again later", status=503)
        if self.connections[address] >= self.limits.max_connections_per_client:
            return WebError("too_many_connections", f"your address holds this server's limit "
                                                    f"of {self.limits.max_connections_per_client}"
                                                    " websockets; close another table's page, "
                                                    "or try again later", status=503)
        return None

    async def websocket(self, websocket: WebSocket) -> None:
        """A websocket: counted against the limits while it is open (the count is
        taken before the first ``await``, so that websockets opening at once cannot
        all pass the check)."""
        address = websocket.client.host if websocket.client is not None else "unknown"
        refusal = self._connection_refusal(address)
        if refusal is not None:
            await websocket.accept()
            await _refuse(websocket, refusal, CLOSE_FULL)
            return
        self.open_connections += 1
        self.connections[address] += 1
        try:
            await self._serve(websocket, websocket.path_params["table_id"])
        finally:
            self.open_connections -= 1
            self.connections[address] -= 1
            if self.connections[address] <= 0:
                del self.connections[address]

    async def _serve(self, websocket: WebSocket, table_id: str) -> None:
        """Check the websocket's origin and table, then answer its messages until it
        closes, its table closes, or it has not joined in time."""
        await websocket.accept()
        if not self.origin_allowed(websocket):
            origin = websocket.headers.get("origin", "")[:100]
            await _refuse(websocket, WebError(
                "bad_origin", f"a page of {origin} may not open this server's tables; open "
                              "the table from this server's own page"), CLOSE_REFUSED)
            return
        try:
            self.hub.table(table_id)
        except WebError as error:
            await _refuse(websocket, error, CLOSE_NO_TABLE)
            return

        connection = _Connection(websocket)
        limit = RateLimit(self.limits.messages_per_second, self.limits.message_burst)
        refused = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.join_seconds
        ended = asyncio.ensure_future(connection.ended.wait())
        try:
            while True:
                receiving = asyncio.ensure_future(websocket.receive())
                wait = None if connection.joined else max(deadline - loop.time(), 0.0)
                await asyncio.wait((receiving, ended), timeout=wait,
                                   return_when=asyncio.FIRST_COMPLETED)
                if ended.done() or not receiving.done():
                    receiving.cancel()
                    with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect):
                        await receiving
                    if ended.done():          # the table closed: told so, and done
                        await _close(websocket, CLOSE_DONE, "the table is closed")
                    else:
                        await _refuse(websocket, WebError(
                            "join_timeout", f"a websocket joins its table within "
                                            f"{self.limits.join_seconds:g} seconds: "
                                            '{"type": "join", "seat": K, "token": ...} or '
                                            '{"type": "join", "seat": null}'), CLOSE_REFUSED)
                    break
                raw = receiving.result()
                if raw["type"] == "websocket.disconnect":
                    break
                text = raw.get("text")
                if text is None:
                    text = (raw.get("bytes") or b"").decode("utf-8", "replace")
                if not limit.allow():
                    refused += 1
                    if refused == 1 or refused % 10 == 0:
                        await websocket.send_json(WebError(
                            "flood", f"too many messages: at most "
                                     f"{self.limits.message_burst} at once and "
                                     f"{self.limits.messages_per_second:g} a second; this one "
                                     "was dropped").to_json())
                    if refused >= FLOOD_CLOSE:
                        await _close(websocket, CLOSE_REFUSED, "too many messages")
                        break
                    continue
                refused = 0
                try:
                    reply = await self._handle(table_id, connection, text)
                except WebError as error:
                    if error.code == "no_table":    # it closed: nothing more to do here
                        await _refuse(websocket, error, CLOSE_NO_TABLE)
                        break
                    reply = error.to_json()
                if reply is not None:
                    await websocket.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            ended.cancel()
            self.hub.leave(table_id, connection.listener)

    async def _handle(self, table_id: str, connection: _Connection,
                      text: str) -> dict[str, Any] | None:
        if len(text.encode("utf-8")) > self.limits.max_message_bytes:
            raise WebError("too_large", f"the message is over the limit of "
                                        f"{self.limits.max_message_bytes} bytes")
        message = parse_json(text, "the message", self.limits.max_json_depth)
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise WebError("bad_message", "a message is a JSON object with a 'type': join, "
                                          "move or ping")
        kind = message["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "join":
            _fields(message, ("type", "seat", "token"))
            await self.hub.join(table_id, message.get("seat"), message.get("token"),
                                connection.listener)
            connection.joined = True
            return None
        if kind == "move":
            _fields(message, ("type", "action", "version"))
            await self.hub.move(table_id, connection.listener, message.get("action"),
                                message.get("version"))
            return None
        raise WebError("bad_message", f"unknown message type {kind[:30]!r}; types: join, move, "
                                      "ping")


class _Connection:
    """One browser's websocket as the hub sees it: :attr:`listener` sends it a message.
    The hub's ``closed`` message (its table closed) sets :attr:`ended`, and the
    websocket is closed after it."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.joined = False
        self.ended = asyncio.Event()
        #: One object for the hub's dict of listeners (a bound method is made anew at
        #: each attribute access).
        self.listener: Listener = self.send

    async def send(self, message: dict[str, Any]) -> None:
        try:
            await self.websocket.send_json(message)
        finally:
            if message.get("type") == "closed":
                self.ended.set()


#: A close frame's reason holds at most 123 bytes.
_REASON_BYTES = 123


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    """Close ``websocket`` with ``code`` and ``reason`` (cut to fit), unless it is
    closed already."""
    cut = reason.encode("utf-8")[:_REASON_BYTES].decode("utf-8", "ignore")
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.close(code=code, reason=cut)


async def _refuse(websocket: WebSocket, error: WebError, code: int) -> None:
    """Tell ``websocket`` why it is closed, as an ``error`` message and in its close
    frame, and close it."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_json(error.to_json())
    await _close(websocket, code, error.message)


SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' blob: data:; "
                                "connect-src 'self'; style-src 'self'; script-src 'self'; "
                                "frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _int(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 6:
        raise WebError("bad_request", f"{what} must be a non-negative integer, not {text[:20]!r}")
    return int(text)


def _game(name: object) -> Game:
    known = ", ".join(game.name for game in games())
    if not isinstance(name, str):
        raise WebError("bad_request", f"'game' must name a game: {known}")
    try:
        return find_game(name)
    except (KeyError, ValueError):
        raise WebError("bad_game", f"unknown game {name[:40]!r}; games: {known}") from None


def _position(document: object) -> tuple[Game, int, dict[str, Any], dict[str, Any]]:
    from cardgym.documents import check_header
    from cardgym.errors import DocumentError
    from cardgym.positions import FORMAT, FORMAT_VERSION

    if not isinstance(document, dict):
        raise WebError("bad_position", "'position' must be a position file's JSON object")
    try:
        game, count, options = check_header(document, FORMAT, FORMAT_VERSION)
    except DocumentError as error:
        raise WebError("bad_position", str(error)) from None
    scenario = document.get("scenario")
    if not isinstance(scenario, dict):
        raise WebError("bad_position", "the position has no 'scenario' object")
    return game, count, options, scenario


def _png(view: dict[str, Any], game: Game) -> bytes:
    from PIL import Image

    from cardgym.picture import table_image

    buffer = io.BytesIO()
    Image.fromarray(table_image(view, table_of(game), PICTURE_SIZE)).save(
        buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def create_app(settings: Settings) -> Starlette:
    """The web app for ``settings``; ``app.state.server`` holds its state (tests)."""
    server = Server(settings)

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers=SECURITY_HEADERS)
        return endpoint

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.hub.start()
        try:
            yield
        finally:
            await server.hub.stop()

    routes = [
        Route("/", page("index.html")),
        Route("/table/{table_id}", page("table.html")),
        Route("/replay/{replay_id}", page("replay.html")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/games", server.api_games),
        Route("/api/tables", server.api_tables, methods=["GET"]),
        Route("/api/tables", server.api_open, methods=["POST"]),
        Route("/api/tables/{table_id}/picture", server.api_picture),
        Route("/api/records", server.api_records),
        Route("/api/replays", server.api_replay_open, methods=["POST"]),
        Route("/api/replays/{replay_id}", server.api_replay),
        Route("/api/replays/{replay_id}/picture", server.api_replay_picture),
        WebSocketRoute("/ws/tables/{table_id}", server.websocket),
    ]
    middleware = ([Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts))]
                  if settings.allowed_hosts else [])
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.server = server
    return app
