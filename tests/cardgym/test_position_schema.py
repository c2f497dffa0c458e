"""The position schemas generated from each game's position format
(cardgym.position_schema): every position a game writes fits its published file and
its config's schema, a broken one does not, and the files are current."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest

from cardgym import testing
from cardgym.position_schema import (
    KEYS_PAGE,
    SCHEMA_FOLDER,
    key_table,
    position_schema,
    schema_text,
    with_key_tables,
)
from cardgym.registration import find_game
from cardgym.table_schema import LIBRARY_GAMES
from cardgym.testing import GameKit
from tests.cardgym.kits import KITS, configurations

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [(kit, n) for kit, n in configurations() if kit.game.position_format is not None]
IDS = [f"{kit.name}-{n}p" for kit, n in CONFIGS]
#: Positions are validated at every this-many-th step of a game, times the option sets.
STRIDE = 6


def _published(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        json.loads((ROOT / SCHEMA_FOLDER / f"{name}.schema.json").read_text()))


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_every_position_fits_the_published_schema_and_its_configs(kit: GameKit,
                                                                   num_players: int) -> None:
    """Positions along a random game under each option set, and at its end, fit the
    game's published file and the schema of their own config."""
    published = _published(kit.game.name)
    checked = 0
    for index, options in enumerate(kit.option_sets):
        env = kit.make_env(num_players=num_players, **options)
        own = jsonschema.Draft202012Validator(position_schema(kit.game, env.unwrapped.config))
        steps = 0

        def check(env: Any, own: jsonschema.Draft202012Validator = own) -> None:
            nonlocal checked, steps
            steps += 1
            if steps % (STRIDE * len(kit.option_sets)) == 1:
                position = json.loads(json.dumps(env.position()))
                own.validate(position)
                published.validate(position)
                checked += 1

        testing.play_episode(env, np.random.default_rng(index), seed=index, each_step=check,
                             max_steps=kit.max_steps)
        own.validate(env.position())
        published.validate(env.position())
    assert checked > 0


def _position(name: str, num_players: int = 2, **options: Any) -> dict[str, Any]:
    env = find_game(name).make_env(num_players=num_players, **options)
    env.reset(seed=4)
    position: dict[str, Any] = json.loads(json.dumps(env.position()))
    return position


@pytest.mark.parametrize(("name", "key", "value"), [
    ("power_hungry_pets", "hands", [["king_cat", "not_a_card"], ["crystal_bowl"]]),
    ("power_hungry_pets", "to_act", 2),
    ("power_hungry_pets", "phase", "bidding"),
    ("exploding_kittens", "hands", [["defuse"]]),
    ("exploding_kittens", "pending", {"kind": "pair", "nopes": "two"}),
    ("karel_kakelaar", "bids", ["worm_99", None]),
    ("karel_kakelaar", "hen_choices", [True, "yes"]),
])
def test_a_position_with_a_broken_value_does_not_fit(name: str, key: str, value: Any) -> None:
    position = _position(name)
    assert _published(name).is_valid(position)
    position[key] = value
    assert not _published(name).is_valid(position)


@pytest.mark.parametrize("name", LIBRARY_GAMES)
def test_a_position_with_a_key_missing_or_unknown_does_not_fit(name: str) -> None:
    position = _position(name)
    missing = dict(position)
    missing.pop("log")
    assert not _published(name).is_valid(missing)
    assert not _published(name).is_valid({**position, "colour": "red"})


def test_an_expansion_key_fits_only_the_expansions_branch() -> None:
    """Exploding Kittens' base-game positions hold no Streaking Kittens key: its schema
    refuses one; the expansion's positions hold them all."""
    game = find_game("exploding_kittens")
    base = _position("exploding_kittens")
    streaking = _position("exploding_kittens", expansions=("streaking",))
    assert {"alter", "garbage", "blind", "marked", "explode_queue"} <= set(streaking)
    assert not {"alter", "garbage", "blind", "marked", "explode_queue"} & set(base)
    base_schema = jsonschema.Draft202012Validator(position_schema(game, game.make_config(2)))
    assert base_schema.is_valid(base)
    assert not base_schema.is_valid({**base, "blind": []})


@pytest.mark.parametrize("name", LIBRARY_GAMES)
def test_published_position_schemas_are_current(name: str) -> None:
    """docs/positions/NAME.schema.json is what the code writes
    (python -m cardgym.position_schema rewrites them)."""
    kit = next(kit for kit in KITS if kit.name == name)
    path = ROOT / SCHEMA_FOLDER / f"{name}.schema.json"
    assert path.read_text() == schema_text(kit.game), (
        f"{path} is stale: run python -m cardgym.position_schema")
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_the_key_tables_of_docs_positions_are_current() -> None:
    """Each game's table of keys in docs/positions.md is what its position format
    declares (python -m cardgym.position_schema rewrites them)."""
    page = (ROOT / KEYS_PAGE).read_text()
    assert with_key_tables(page, LIBRARY_GAMES) == page, (
        f"{KEYS_PAGE} is stale: run python -m cardgym.position_schema")


@pytest.mark.parametrize("name", LIBRARY_GAMES)
def test_every_key_a_position_writes_says_what_it_holds_and_its_default(name: str) -> None:
    # The table shows one row per documented key; every key a position writes is one.
    game = find_game(name)
    table = key_table(game)
    written = {key for config in [game.make_config(n) for n in game.player_counts]
               for key in game.position_format(config).declared if not key.read_only}
    for key in written:
        assert key.doc and key.default, f"{name}: key {key.name!r} lacks its doc or default"
        cells = (key.doc.replace("|", "\\|"), key.default.replace("|", "\\|"))
        assert f"| `{key.name}` | {cells[0]} | {cells[1]} |" in table


def test_a_page_without_a_games_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="lacks the markers of power_hungry_pets"):
        with_key_tables("# no tables here\n", ["power_hungry_pets"])


def test_a_game_without_a_position_format_has_no_schema() -> None:
    game = dataclasses.replace(find_game(LIBRARY_GAMES[0]), position_format=None)
    with pytest.raises(ValueError, match="declares no position format"):
        position_schema(game, game.make_config(2))
