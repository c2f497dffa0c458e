"""The JSON Schema of a game's positions, generated from its position format
(:mod:`cardgym.position_format`), and the schema files in ``docs/positions/``;
the table of each game's keys in docs/positions.md, from the same declarations (what
each key holds and its default). ``python -m cardgym.position_schema`` rewrites them; a
test checks that they are current and that every position the games write validates
against its file.

A game's file covers every player count and every option preset the conformance kit
plays (an expansion that adds keys, say): the position of one config is valid
against one of its branches (``anyOf``), and the schema of a config alone is
``position_schema(game, config)``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgym.table_schema import LIBRARY_GAMES, write_schema_files

__all__ = ["KEYS_PAGE", "SCHEMA_FOLDER", "key_table", "position_schema", "schema_of",
           "schema_text", "with_key_tables", "write_key_tables", "write_schemas"]

JSON = dict[str, Any]

#: Where the library's position schema files live, from the repository's root.
SCHEMA_FOLDER = Path("docs") / "positions"
#: The page that shows each game's keys, from the repository's root.
KEYS_PAGE = Path("docs") / "positions.md"
#: Around each game's generated table in :data:`KEYS_PAGE`.
_BEGIN = "<!-- keys of {name}: python -m cardgym.position_schema writes this table -->"
_END = "<!-- end of the keys of {name} -->"


def position_schema(game: Any, config: Any) -> JSON:
    """The schema of the positions of ``game`` under ``config`` (without header)."""
    if game.position_format is None:
        raise ValueError(f"{game.title} declares no position format (Game.position_format)")
    schema: JSON = game.position_format(config).schema()
    return schema


def _configs(game: Any) -> list[Any]:
    """A config per player count and option preset (variant) of ``game``."""
    presets: list[dict[str, Any]] = [{}]
    presets += [dict(variant.preset) for variant in game.test_variants.values()]
    return [game.make_config(n, **preset) for preset in presets for n in game.player_counts]


def schema_of(game: Any) -> JSON:
    """The schema of every position of a registered game."""
    branches: list[JSON] = []
    for config in _configs(game):
        branch = position_schema(game, config)
        if branch not in branches:
            branches.append(branch)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cardgym.invalid/positions/{game.name}.schema.json",
        "title": f"{game.title} position",
        "description": (f"A {game.title} position as env.position() writes it: the "
                        "scenario that names everything (docs/positions.md). One branch "
                        "per player count and option preset whose keys or bounds differ."),
        "anyOf": branches,
    }


def schema_text(game: Any) -> str:
    """The schema as its file holds it: one line per branch."""
    schema = schema_of(game)
    branches = schema.pop("anyOf")
    head = json.dumps(schema, indent=1)[:-2]
    lines = ",\n  ".join(json.dumps(branch, separators=(",", ":")) for branch in branches)
    return f'{head},\n "anyOf": [\n  {lines}\n ]\n}}\n'


def key_table(game: Any) -> str:
    """A Markdown table of the game's keys in the order of its position format, each
    with what it holds and its default (from :class:`~cardgym.position_format.Key`),
    over every config of :func:`_configs` (an expansion's keys included)."""
    declared: dict[str, Any] = {}
    for config in sorted(_configs(game), key=lambda c: -len(game.position_format(c).keys)):
        for key in game.position_format(config).declared:
            declared.setdefault(key.name, key)
    rows = ["| key | value | default when left out |", "|---|---|---|"]
    for key in declared.values():
        if key.doc:
            cells = (f"`{key.name}`", key.doc, key.default or "-")
            rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"


def with_key_tables(page: str, names: Sequence[str]) -> str:
    """``page`` with the table between each named game's markers written anew."""
    from cardgym.registration import find_game

    for name in names:
        begin, end = _BEGIN.format(name=name), _END.format(name=name)
        head, found, rest = page.partition(begin + "\n")
        if not found or end not in rest:
            raise ValueError(f"{KEYS_PAGE} lacks the markers of {name}'s keys: {begin}")
        page = head + begin + "\n" + key_table(find_game(name)) + end + rest.partition(end)[2]
    return page


def write_key_tables(root: Path, names: Sequence[str]) -> Path:
    """Rewrite the named games' key tables in ``root / KEYS_PAGE``."""
    path = root / KEYS_PAGE
    path.write_text(with_key_tables(path.read_text(encoding="utf-8"), names), encoding="utf-8")
    return path


def write_schemas(root: Path, names: Sequence[str]) -> list[Path]:
    """Write ``SCHEMA_FOLDER/NAME.schema.json`` under ``root`` for each game named."""
    return write_schema_files(root / SCHEMA_FOLDER, names, schema_text)


if __name__ == "__main__":
    ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    for written in write_schemas(ROOT, LIBRARY_GAMES):
        print(written)
    print(write_key_tables(ROOT, LIBRARY_GAMES))
