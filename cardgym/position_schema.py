"""The JSON Schema of a game's positions, generated from its position format
(:mod:`cardgym.position_format`), and the schema files in ``docs/positions/``:
``python -m cardgym.position_schema`` rewrites them; a test checks that they are
current and that every position the games write validates against its file.

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

__all__ = ["SCHEMA_FOLDER", "position_schema", "schema_of", "schema_text", "write_schemas"]

JSON = dict[str, Any]

#: Where the library's position schema files live, from the repository's root.
SCHEMA_FOLDER = Path("docs") / "positions"


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


def write_schemas(root: Path, names: Sequence[str]) -> list[Path]:
    """Write ``SCHEMA_FOLDER/NAME.schema.json`` under ``root`` for each game named."""
    return write_schema_files(root / SCHEMA_FOLDER, names, schema_text)


if __name__ == "__main__":
    for written in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "."), LIBRARY_GAMES):
        print(written)
