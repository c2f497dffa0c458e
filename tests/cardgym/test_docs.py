"""The docs tables in each env's docstring are generated and must be current."""

from __future__ import annotations

import importlib

import pytest

from cardgym.docs import env_modules, expected_source
from cardgym.registration import find_game


@pytest.mark.parametrize("module_name", env_modules())
def test_docstring_tables_are_current(module_name: str) -> None:
    path, source, expected = expected_source(module_name)
    assert source == expected, f"{path}: tables are stale; run `python -m cardgym.docs`"


@pytest.mark.parametrize("module_name", env_modules())
def test_docstring_documents_every_action_and_field(module_name: str) -> None:
    module = importlib.import_module(module_name)
    doc = module.__doc__
    game = find_game(module_name.partition(".")[0])
    layout = game.layout(game.make_config(game.player_counts[0]))
    for field in layout.observation_spec.fields:
        assert f"`{field.name}`" in doc
    table = layout.action_table
    assert f"`{table.names[0]}`" in doc and f"`{table.names[-1]}`" in doc
