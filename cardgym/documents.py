"""JSON documents of the library: positions and game records, and what they share.

Every document is one JSON object that starts with ``"format"`` (what it is:
``"cardgym-position"`` or ``"cardgym-record"``), ``"format_version"`` (of that
layout) and ``"env_id"`` (the game and its env version, ``cardgym/NAME-vN``),
then ``"num_players"`` and ``"options"``: every rule option of the game, so that a
document means the same thing after a default changes. Reading one checks each of
these and says what is wrong: a file that is not JSON, another kind of document, a
newer layout, an unknown game, a game whose env version moved on.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardgym.errors import DocumentError, OptionError
from cardgym.files import atomic_write
from cardgym.game import Game
from cardgym.registration import find_game

__all__ = ["check_header", "header", "jsonable", "options_of", "read_document",
           "write_document"]


def jsonable(value: Any) -> Any:
    """``value`` with tuples as lists and numpy scalars as Python numbers, the types
    JSON keeps (a dict's keys must already be strings)."""
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    return value


def options_of(config: Any) -> dict[str, Any]:
    """Every rule option of a game's ``Config`` (all fields but ``num_players``), as
    JSON types."""
    return {field.name: jsonable(getattr(config, field.name))
            for field in dataclasses.fields(config) if field.name != "num_players"}


def header(kind: str, version: int, game: Game, config: Any) -> dict[str, Any]:
    """The fields every document starts with."""
    return {"format": kind, "format_version": version, "env_id": game.env_id,
            "num_players": config.num_players, "options": options_of(config)}


def write_document(document: Mapping[str, Any], path: str | Path) -> Path:
    """Write ``document`` as indented JSON (folders made as needed); the path written.

    The text goes to a temporary file beside ``path`` first and is renamed into place,
    so that an interrupted write leaves the old file or none, never half a document.
    """
    return atomic_write(path, json.dumps(document, indent=1, allow_nan=False) + "\n")


def read_document(source: str | Path | Mapping[str, Any], kind: str) -> dict[str, Any]:
    """A document from a file (or the mapping itself), as a dict of JSON types.

    Raises:
        DocumentError: the file is missing or not a JSON object.
    """
    if isinstance(source, Mapping):
        return dict(source)
    path = Path(source)
    if not path.is_file():
        raise DocumentError(f"{path}: no such file (a {kind} file, JSON)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DocumentError(f"{path}: not a JSON {kind} file ({error})") from None
    if not isinstance(data, dict):
        raise DocumentError(f"{path}: a {kind} file holds one JSON object, got "
                            f"{type(data).__name__}")
    return data


def check_header(document: Mapping[str, Any], kind: str, version: int,
                 same_env: bool = True) -> tuple[Game, int, dict[str, Any]]:
    """The game, player count and rule options a document names, each checked.

    Args:
        document: the document.
        kind: the ``format`` it must have.
        version: the newest ``format_version`` this library reads.
        same_env: refuse a document made for another env version of the game
            (else the caller tries it and says so if it fails).

    Raises:
        DocumentError: naming the field that is wrong and what is allowed.
    """
    found = document.get("format")
    if found != kind:
        raise DocumentError(f"not a {kind} document: its 'format' is {found!r}")
    layout = document.get("format_version")
    if isinstance(layout, bool) or not isinstance(layout, int) or not 1 <= layout <= version:
        raise DocumentError(f"{kind} format_version {layout!r} is not one this cardgym reads "
                            f"(1..{version}); a newer cardgym may read it")
    env_id = document.get("env_id")
    if not isinstance(env_id, str):
        raise DocumentError(f"'env_id' must be a string such as 'cardgym/NAME-v1', got "
                            f"{env_id!r}")
    name = env_id.removeprefix("cardgym/").rpartition("-v")[0] or env_id
    try:
        game = find_game(name)
    except ValueError as error:
        raise DocumentError(f"'env_id' {env_id!r}: {error}") from None
    if same_env and game.env_id != env_id:
        raise DocumentError(
            f"this {kind} was made for {env_id}; this cardgym has {game.env_id}, whose "
            f"actions or observations differ; it cannot be read here")
    num_players = document.get("num_players")
    if num_players not in game.player_counts or isinstance(num_players, bool):
        raise DocumentError(f"'num_players' {num_players!r} is not a table size of "
                            f"{game.title}; allowed: {', '.join(map(str, game.player_counts))}")
    options = document.get("options", {})
    if not isinstance(options, Mapping):
        raise DocumentError(f"'options' must be a mapping of rule options, got {options!r}")
    try:
        game.make_config(num_players, **options)
    except (OptionError, TypeError) as error:
        raise DocumentError(f"'options': {error}") from None
    return game, num_players, dict(options)
