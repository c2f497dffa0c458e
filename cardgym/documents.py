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

from cardgym.errors import DocumentError, OptionError, shorten
from cardgym.files import atomic_write
from cardgym.game import BoundGame, Game
from cardgym.registration import find_game

__all__ = ["MAX_DEPTH", "check_header", "check_depth", "env_version", "header", "jsonable", "options_of",
           "parse_json", "read_document", "write_document"]

#: The deepest nesting of lists and objects a document may have. The library's own
#: documents stay under 10 levels; a deeper one is refused before anything walks it.
MAX_DEPTH = 32


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


def header(kind: str, version: int, game: Game, config: Any,
           env_version: int | None = None) -> dict[str, Any]:
    """The fields every document starts with; ``env_id`` names ``env_version`` (the
    env version the document was made in, by default the game's newest), and so the
    stream its games were dealt from."""
    env_id = game.env_id if env_version is None else game.env_id_of(env_version)
    return {"format": kind, "format_version": version, "env_id": env_id,
            "num_players": config.num_players, "options": options_of(config)}


def env_version(document: Mapping[str, Any], game: Game) -> int | None:
    """The env version of ``game`` a document's ``env_id`` names, if the game keeps
    it (``None``: an env version this cardgym no longer has)."""
    for version in game.versions:
        if document.get("env_id") == game.env_id_of(version):
            return version
    return None


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
        check_depth(source, f"the {kind}")
        return dict(source)
    path = Path(source)
    if not path.is_file():
        raise DocumentError(f"{path}: no such file (a {kind} file, JSON)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DocumentError(f"{path}: cannot read the {kind} file ({error})") from None
    data = parse_json(text, str(path), f"{kind} file")
    if not isinstance(data, dict):
        raise DocumentError(f"{path}: a {kind} file holds one JSON object, got "
                            f"{type(data).__name__}")
    return data


def parse_json(text: str, what: str, kind: str = "document") -> Any:
    """The JSON value of ``text``, as strict JSON: no ``NaN`` or ``Infinity``, nesting
    at most :data:`MAX_DEPTH` deep.

    Args:
        text: the JSON text.
        what: where it comes from, to start an error message with
            (``"runs/x/model.json"``).
        kind: what it should be (``"record file"``), for the messages.

    Raises:
        DocumentError: not JSON, a non-finite number, or nested too deep.
    """
    def refuse(constant: str) -> Any:
        raise DocumentError(f"{what}: the {kind} holds {constant}, which JSON does not "
                            "allow; numbers must be finite")

    try:
        data = json.loads(text, parse_constant=refuse)
    except RecursionError:
        raise DocumentError(f"{what}: the {kind} is nested too deeply (at most {MAX_DEPTH} "
                            "levels of lists and objects)") from None
    except json.JSONDecodeError as error:
        raise DocumentError(f"{what}: not a JSON {kind} ({error})") from None
    check_depth(data, f"{what}: the {kind}")
    return data


def check_depth(value: Any, what: str) -> None:
    """Refuse a value with lists and mappings nested deeper than :data:`MAX_DEPTH`
    (walked without recursion, so the check itself cannot overflow).

    Raises:
        DocumentError: naming ``what`` and the limit.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            raise DocumentError(f"{what} is nested too deeply (at most {MAX_DEPTH} levels "
                                "of lists and objects)")
        stack.extend((child, depth + 1) for child in children)


def check_header(document: Mapping[str, Any], kind: str, version: int,
                 same_env: bool = True) -> tuple[Game, int, dict[str, Any]]:
    """The game, player count and rule options (as the document gives them) a
    document names, each checked (:func:`read_header`, which gives the bound game)."""
    bound, options = read_header(document, kind, version, same_env)
    return bound.game, bound.num_players, options


def read_header(document: Mapping[str, Any], kind: str, version: int,
                same_env: bool = True) -> tuple[BoundGame, dict[str, Any]]:
    """The game a document names, bound once to its player count and rule options,
    and the options as the document gives them.

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
        raise DocumentError(f"not a {kind} document: its 'format' is {shorten(found)}")
    layout = document.get("format_version")
    if isinstance(layout, bool) or not isinstance(layout, int) or not 1 <= layout <= version:
        raise DocumentError(f"{kind} format_version {shorten(layout)} is not one this cardgym reads "
                            f"(1..{version}); a newer cardgym may read it")
    env_id = document.get("env_id")
    if not isinstance(env_id, str):
        raise DocumentError(f"'env_id' must be a string such as 'cardgym/NAME-v1', got "
                            f"{shorten(env_id)}")
    name = env_id.removeprefix("cardgym/").rpartition("-v")[0] or env_id
    try:
        game = find_game(name)
    except ValueError as error:
        raise DocumentError(f"'env_id' {shorten(env_id)}: {error}") from None
    if same_env and env_version(document, game) is None:
        kept = ", ".join(map(game.env_id_of, game.versions))
        raise DocumentError(
            f"this {kind} was made for {env_id}; this cardgym has {kept}, whose "
            f"actions or observations differ; it cannot be read here")
    num_players = document.get("num_players")
    if num_players not in game.player_counts or isinstance(num_players, bool):
        raise DocumentError(f"'num_players' {shorten(num_players)} is not a table size of "
                            f"{game.title}; allowed: {', '.join(map(str, game.player_counts))}")
    options = document.get("options", {})
    if not isinstance(options, Mapping):
        raise DocumentError(f"'options' must be a mapping of rule options, got {shorten(options)}")
    try:
        bound = game.bind(num_players, options)
    except OptionError as error:
        raise DocumentError(f"'options': {error}") from None
    return bound, dict(options)
