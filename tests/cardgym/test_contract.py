"""Every registered game fulfils the game contract (cardgym.game), and the library reads
games only through it."""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

import pytest

from cardgym.game import REQUIRED, Game, Layout, check_game
from cardgym.registration import find_game, games, register_game

REPO = Path(__file__).resolve().parents[2]
GAMES = games()


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_registered_game_fulfils_the_contract(game: Game) -> None:
    assert check_game(game) == []


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_game_has_its_rules_page_or_is_an_outside_game(game: Game) -> None:
    if game.rules_page is None:
        assert not (REPO / game.module).is_dir(), f"{game.name} lives here: give it a rules page"
        return
    page = REPO / game.rules_page
    assert page.is_file(), f"{game.rules_page} is missing"
    assert game.title in page.read_text()


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_env_docstring_links_to_its_rules_page(game: Game) -> None:
    if game.rules_page is None:
        return
    import importlib

    module = importlib.import_module(game.env_entry_point.partition(":")[0])
    assert game.rules_page in (module.__doc__ or ""), f"{module.__name__} does not link it"


def test_a_game_missing_a_part_is_refused_and_names_it() -> None:
    game = find_game("power_hungry_pets")
    broken = dataclasses.replace(game, name="broken_pets", layout="not a function")
    problems = check_game(broken)
    assert any(p.startswith("layout must be callable") for p in problems), problems
    with pytest.raises(ValueError, match="broken_pets: not a complete game"):
        register_game(broken)
    assert all(g.name != "broken_pets" for g in games()), "a refused game stays out"


def test_a_game_whose_layout_is_not_a_layout_is_named() -> None:
    game = find_game("karel_kakelaar")
    real = game.layout(game.make_config(2))
    assert isinstance(real, Layout)
    broken = dataclasses.replace(game, name="tuple_layout", layout=lambda config: (1, 2))
    assert any("is not a cardgym.game.Layout" in p for p in check_game(broken))


def test_an_option_without_allowed_values_is_named() -> None:
    game = find_game("exploding_kittens")
    values = dict(game.option_values)
    del values["combos"]
    assert "option_values lacks combos" in check_game(
        dataclasses.replace(game, option_values=values))


def test_a_game_without_a_table_view_is_refused_and_told_what_to_give() -> None:
    game = find_game("power_hungry_pets")
    problems = check_game(dataclasses.replace(game, name="blind_pets", table=None))
    assert any(p.startswith("table is missing: give a cardgym.table.TableSpec")
               for p in problems), problems
    with pytest.raises(ValueError, match="blind_pets: not a complete game"):
        register_game(dataclasses.replace(game, name="blind_pets", table=None))
    wrong = check_game(dataclasses.replace(game, table={"view": None}))
    assert any("table must be a cardgym.table.TableSpec" in p for p in wrong), wrong


def test_every_required_part_is_checked() -> None:
    # A part added to the contract without a default must be one check_game looks at.
    assert {"new_game", "layout", "player_view", "resample_hidden", "choice_visibility",
            "winners", "invariants"} <= set(REQUIRED)


def test_registering_the_same_game_twice_is_harmless() -> None:
    game = find_game("karel_kakelaar")
    assert register_game(game) is game
    assert [g.name for g in games()].count("karel_kakelaar") == 1


def test_a_second_game_of_the_same_name_is_refused() -> None:
    game = find_game("karel_kakelaar")
    with pytest.raises(ValueError, match="another game named 'karel_kakelaar'"):
        register_game(dataclasses.replace(game, title="Another"))


SHARED = ["cardgym", "cardgym_cli", "cardgym_web", "agents", "benchmarks", "notebooks", "tests/cardgym"]


def test_no_shared_file_names_a_game_package() -> None:
    packages = {g.module for g in GAMES}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(packages))) + r")\b")
    found = subprocess.run(["git", "grep", "--untracked", "-n", "-E", pattern.pattern, "--", *SHARED],
                           cwd=REPO, capture_output=True, text=True, check=False).stdout
    assert found == "", f"shared files name a game package:\n{found}"


def test_the_contract_reads_in_the_groups_its_docstring_names() -> None:
    # Each part is declared under a "# group" comment and documented under the same
    # group's heading of the docstring, in the same order of groups.
    import inspect

    source = inspect.getsource(Game)
    declared: dict[str, str] = {}
    group = ""
    for line in source.splitlines():
        heading = re.fullmatch(r"    # (\w+)", line)
        if heading:
            group = heading.group(1)
        part = re.fullmatch(r"    (\w+): .*", line)
        if part and group:
            declared[part.group(1)] = group
    assert set(declared) == {f.name for f in dataclasses.fields(Game)}
    doc = Game.__doc__ or ""
    sections = re.findall(r"^    (\w+):\n(.*?)(?=^    \w+:\n|\Z)", doc, re.MULTILINE | re.DOTALL)
    documented = {name: title.lower() for title, text in sections
                  for name in re.findall(r"^        (\w+)(?:, (\w+))?:", text, re.MULTILINE)
                  for name in name if name}
    assert documented == declared
    assert [title.lower() for title, _ in sections] == list(dict.fromkeys(declared.values()))

