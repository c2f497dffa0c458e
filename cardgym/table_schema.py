"""The JSON Schema of a game's table views (:mod:`cardgym.table`), and the schema files
in ``docs/table-view/``: ``python -m cardgym.table_schema`` rewrites them; a test
checks that they are current and that every view validates against its schema.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cardgym.table import FORMAT, FULL, TableSpec

__all__ = ["SCHEMA_FOLDER", "schema", "schema_of", "schema_text", "write_schema_files", "write_schemas"]

JSON = dict[str, Any]

#: Where the library's schema files live, from the repository's root.
SCHEMA_FOLDER = Path("docs") / "table-view"


def schema(title: str, name: str, spec: TableSpec, player_counts: Sequence[int]) -> JSON:
    """The JSON Schema (draft 2020-12) of a game's table views."""
    # A card is one of the game's faces, exactly (an enum of objects: quick to check).
    faces = {"enum": [face.json() for face in spec.cards]}
    card_or_back = {"oneOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]}
    cards = {"type": "object", "additionalProperties": False, "required": ["count", "cards"],
             "properties": {"count": {"type": "integer", "minimum": 0},
                            "cards": {"type": "array", "items": card_or_back}}}
    pile_schema = {"type": "object", "additionalProperties": False,
                   "required": ["name", "label", "count", "cards"],
                   "properties": {"name": {"enum": list(spec.piles)},
                                  "label": {"type": "string"},
                                  "count": {"type": "integer", "minimum": 0},
                                  "cards": {"type": "array", "items": card_or_back}}}
    agent = {"type": "string", "pattern": "^player_[0-9]+$"}
    score = ({"type": "null"} if spec.score_label is None else
             {"type": "object", "additionalProperties": False, "required": ["label", "value"],
              "properties": {"label": {"const": spec.score_label},
                             "value": {"type": ["integer", "null"]}}})
    seat_schema = {
        "type": "object", "additionalProperties": False,
        "required": ["agent", "seat", "label", "you", "to_act", "status", "score", "hand",
                     "areas", "marks"],
        "properties": {
            "agent": agent, "seat": {"type": "integer", "minimum": 0},
            "label": {"type": "string"}, "you": {"type": "boolean"},
            "to_act": {"type": "boolean"}, "status": {"type": "string"},
            "score": score, "hand": {"$ref": "#/$defs/cards"},
            "areas": {"type": "array", "items": {"$ref": "#/$defs/pile"}},
            "marks": {"type": "array", "items": {"type": "string"}},
        },
    }
    move = {"type": "object", "additionalProperties": False,
            "required": ["action", "name", "label"],
            "properties": {"action": {"type": "integer", "minimum": 0},
                           "name": {"type": "string"}, "label": {"type": "string"}}}
    event = {"type": "object", "additionalProperties": False, "required": ["index", "text"],
             "properties": {"index": {"type": "integer", "minimum": 0},
                            "text": {"type": "string"}}}
    result = {"oneOf": [{"type": "null"}, {
        "type": "object", "additionalProperties": False, "required": ["winners", "returns"],
        "properties": {"winners": {"type": "array", "items": agent},
                       "returns": {"type": "array", "items": {"type": "number"}}}}]}
    low, high = min(player_counts), max(player_counts)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cardgym.invalid/table-view/{name}.schema.json",
        "title": f"{title} table view (format {FORMAT})",
        "description": (f"A {title} table as one seat, a spectator or the full view "
                        "knows it (cardgym.table)."),
        "type": "object", "additionalProperties": False,
        "required": ["format", "game", "title", "viewer", "seat", "num_players", "phase",
                     "status", "to_act", "over", "seats", "piles", "notes", "legal_moves",
                     "events", "event_count", "result"],
        "properties": {
            "format": {"const": FORMAT}, "game": {"const": name}, "title": {"const": title},
            "viewer": {"oneOf": [agent, {"enum": ["spectator", FULL]}]},
            "seat": {"type": ["integer", "null"], "minimum": 0},
            "num_players": {"type": "integer", "minimum": low, "maximum": high},
            "phase": {"enum": list(spec.phases)}, "status": {"type": "string"},
            "to_act": {"oneOf": [agent, {"type": "null"}]}, "over": {"type": "boolean"},
            "seats": {"type": "array", "minItems": low, "maxItems": high, "items": seat_schema},
            "piles": {"type": "array", "items": {"$ref": "#/$defs/pile"}},
            "notes": {"type": "array", "items": {"type": "string"}},
            "legal_moves": {"type": "array", "items": move},
            "events": {"type": "array", "items": event},
            "event_count": {"type": "integer", "minimum": 0},
            "result": result,
        },
        "$defs": {"card": faces, "cards": cards, "pile": pile_schema},
    }




def schema_of(game: Any) -> JSON:
    """The schema of a registered game's table views."""
    if game.table is None:
        raise ValueError(f"{game.title} has no table view (Game.table)")
    return schema(game.title, game.name, game.table, game.player_counts)


def schema_text(game: Any) -> str:
    """The schema as its file holds it."""
    return json.dumps(schema_of(game), indent=2) + "\n"


def write_schemas(root: Path, names: Sequence[str]) -> list[Path]:
    """Write ``SCHEMA_FOLDER/NAME.schema.json`` under ``root`` for each game named."""
    return write_schema_files(root / SCHEMA_FOLDER, names, schema_text)


def write_schema_files(folder: Path, names: Sequence[str],
                       text_of: Callable[[Any], str]) -> list[Path]:
    """Write ``folder/NAME.schema.json``, ``text_of(game)``, for each game named."""
    from cardgym.registration import find_game

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        path = folder / f"{name}.schema.json"
        path.write_text(text_of(find_game(name)))
        written.append(path)
    return written


#: The library's own games, whose schemas the docs publish.
LIBRARY_GAMES = ("power_hungry_pets", "exploding_kittens", "karel_kakelaar")


if __name__ == "__main__":
    for written in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "."), LIBRARY_GAMES):
        print(written)
