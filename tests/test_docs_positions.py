"""The scenarios shown in docs/positions.md set up their positions, and every game's
keys there are the keys its scenarios take."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardgym.registration import find_game

PAGE = Path(__file__).resolve().parent.parent / "docs" / "positions.md"
TEXT = PAGE.read_text(encoding="utf-8")
#: Each game's section: from its heading (``### Title (`name`...``) to the next.
SECTIONS = dict(re.findall(r"^### [^\n]*\(`(\w+)`[^\n]*\n(.*?)(?=^### |\Z)", TEXT,
                           re.MULTILINE | re.DOTALL))


def test_every_registered_game_with_positions_has_a_section() -> None:
    assert set(SECTIONS) == {"power_hungry_pets", "exploding_kittens", "karel_kakelaar",
                             "kuhn_poker"}


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_the_section_documents_every_scenario_key_of_the_game(name: str) -> None:
    rows = set(re.findall(r"^\| `(\w+)` \|", SECTIONS[name], re.MULTILINE))
    named = set(re.findall(r"`(\w+)`", SECTIONS[name]))
    keys = set(find_game(name).scenario_keys)
    assert keys <= named, f"keys never named: {sorted(keys - named)}"
    # Every key has a row of its own but an old name (Exploding Kittens' first_player).
    assert len(keys - rows) <= 1, f"keys without a row: {sorted(keys - rows)}"


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_the_sections_examples_set_up_their_positions(name: str) -> None:
    game = find_game(name)
    blocks = re.findall(r"```json\n(.*?)```", SECTIONS[name], re.DOTALL)
    inline = re.findall(r"`(\{\"cards\".*?\})`", SECTIONS[name])
    examples = [json.loads(block) for block in [*blocks, *inline]]
    assert examples, f"{name}: no example scenario"
    for scenario in examples:
        seats = len(scenario["hands"]) if "hands" in scenario else 2
        env = game.make_env(num_players=seats)
        env.reset(seed=0, options={"scenario": scenario})
        written = env.position()
        for key in ("round", "to_act", "phase", "eliminated", "tokens", "turn_holder"):
            if key in scenario:
                assert written[key] == scenario[key], f"{name}: {key} is not as the example says"
