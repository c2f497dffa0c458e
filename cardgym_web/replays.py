"""Replays in the browser: a game record played again, viewed move by move.

A replay comes from a record the server wrote (a finished table's, by its file name
in the records folder) or from a record a browser uploads. Either is checked move by
move on the way in (:func:`cardgym.records.replay`); a record that does not replay is
refused with the reason. The store holds a bounded number of replays, the oldest
dropped first.

An uploaded record's text is bounded before it is replayed: every string in it (a
player's label, an action's name, an option's value, a key) is at most
:data:`MAX_TEXT` characters, so that no upload makes the server hold or send back a
long text in each view of its replay.

A record holds the whole game (its seed deals every card), so its replay shows any
seat's view or the full table: whoever has the record file knows all of it already.
"""

from __future__ import annotations

import re
import secrets
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

from cardgym.errors import DocumentError
from cardgym.records import Replay, replay
from cardgym.registration import short_name
from cardgym.table import FULL, state_view
from cardgym_web.errors import WebError

__all__ = ["MAX_TEXT", "RECORD_NAME", "ReplayStore", "long_text", "replay_viewer"]

#: A record file name the server wrote (no folder, no dots but the suffix's).
RECORD_NAME = re.compile(r"^[A-Za-z0-9_-]{1,120}\.json$")
#: The longest text (in characters) an uploaded record may hold in any one string. The
#: games write 40 at most (an env id, an action's name); a player's label is an agent
#: (``ismcts:time=1``, ``model:PATH``).
MAX_TEXT = 256


def long_text(document: object, limit: int) -> tuple[str, int] | None:
    """The first string in ``document`` (values and keys, in document order) longer
    than ``limit`` characters, and its length; ``None`` if there is none. The string
    is named by its field: ``players[1]``, ``scenario.hands``, ``a key of options``.
    The document is walked without recursion."""
    queue: deque[tuple[str, object]] = deque([("", document)])
    while queue:
        path, value = queue.popleft()
        if isinstance(value, str):
            if len(value) > limit:
                return path, len(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and len(key) > limit:
                    return (f"a key of {path}" if path else "a top-level key"), len(key)
                queue.append((f"{path}.{key}" if path else str(key), item))
        elif isinstance(value, list):
            queue.extend((f"{path}[{index}]", item) for index, item in enumerate(value))
    return None


def replay_viewer(text: object, num_players: int) -> int | str | None:
    """A replay's viewer from a query value: a seat number, ``full`` or ``spectator``.

    Raises:
        WebError: anything else.
    """
    if text in (None, "", FULL):
        return FULL
    if text == "spectator":
        return None
    if isinstance(text, str) and text.isdigit() and int(text) < num_players:
        return int(text)
    raise WebError("bad_seat", f"seat must be full, spectator or a seat number "
                               f"0..{num_players - 1}, not {str(text)[:20]!r}")


def _is_record(path: Path) -> bool:
    """Whether ``path`` may be a record of the server: a file, not a link."""
    return path.is_file() and not path.is_symlink()


class ReplayStore:
    """The replays a server holds.

    Args:
        records: the folder of the server's own records.
        capacity: replays held at once.
        max_text: the longest string an uploaded record may hold.
    """

    def __init__(self, records: Path, capacity: int, max_text: int = MAX_TEXT) -> None:
        self.records = records
        self.capacity = capacity
        self.max_text = max_text
        self._replays: OrderedDict[str, Replay] = OrderedDict()

    def record_names(self) -> list[str]:
        """The server's record files, newest first."""
        if not self.records.is_dir():
            return []
        files = [path for path in self.records.glob("*.json")
                 if RECORD_NAME.match(path.name) and _is_record(path)]
        return [path.name for path in sorted(files, key=lambda path: path.stat().st_mtime,
                                             reverse=True)]

    def open_record(self, name: object) -> str:
        """A replay of the server's record ``name``; its id.

        Raises:
            WebError: not a record of this server, or one that does not replay.
        """
        # The one file is looked at, not the folder listed: a server that has run
        # for days holds thousands of records.
        if not isinstance(name, str) or not RECORD_NAME.match(name) \
                or not _is_record(self.records / name):
            raise WebError("no_record", f"{str(name)[:80]!r} is not a record of this server; "
                                        "GET /api/records lists them", status=404)
        return self._add(self.records / name)

    def open_document(self, document: object) -> str:
        """A replay of an uploaded record (its JSON document); its id.

        Raises:
            WebError: not a record, a string in it longer than :attr:`max_text`, or a
                record that does not replay.
        """
        if not isinstance(document, dict):
            raise WebError("bad_record", "the upload must be a game record: one JSON object, "
                                         "as cardgym play --record writes")
        found = long_text(document, self.max_text)
        if found is not None:
            field_name, length = found
            shown = field_name if len(field_name) <= 80 else field_name[:77] + "..."
            raise WebError("bad_record", f"text in an uploaded record is at most "
                                         f"{self.max_text:,} characters; {shown} "
                                         f"holds {length:,}")
        return self._add(document)

    def _add(self, source: Path | dict[str, Any]) -> str:
        try:
            played = replay(source)
        except DocumentError as error:
            raise WebError("bad_record", f"the record does not replay: {error}") from None
        replay_id = secrets.token_urlsafe(9)
        self._replays[replay_id] = played
        while len(self._replays) > self.capacity:
            self._replays.popitem(last=False)
        return replay_id

    def get(self, replay_id: object) -> Replay:
        """The replay ``replay_id``.

        Raises:
            WebError: no such replay (never opened, or dropped for newer ones).
        """
        played = self._replays.get(replay_id) if isinstance(replay_id, str) else None
        if played is None:
            raise WebError("no_replay", "no such replay (it was never opened, or the server "
                                        "dropped it for newer ones); open it again", status=404)
        return played

    def view(self, replay_id: object, step: object, viewer: object) -> dict[str, Any]:
        """The ``replay`` message: the table view after ``step`` moves from ``viewer``.

        Raises:
            WebError: no such replay, a step out of range, a bad viewer.
        """
        played = self.get(replay_id)
        total = len(played)
        if isinstance(step, str) and step.isdigit():
            step = int(step)
        if step is None:
            step = 0
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= total:
            raise WebError("bad_step", f"step must be 0..{total} (moves made), not "
                                       f"{str(step)[:20]!r}")
        record = played.record
        who = replay_viewer(viewer, record.num_players)
        view = state_view(played.game, played.config, played.states[step], who)
        return {"type": "replay", "replay": replay_id, "game": played.game.name,
                "title": played.game.title, "short": short_name(played.game.env_id),
                "num_players": record.num_players, "players": list(record.players),
                "step": step, "moves": total, "viewer": who,
                "move": None if step == 0 else {"seat": record.moves[step - 1][0],
                                                "action": record.moves[step - 1][1]},
                "view": view}
