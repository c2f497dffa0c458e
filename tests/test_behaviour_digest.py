"""Every game behaves as its stored digest says (issue 32: how the games are written
may change, what they do may not).

Each setting (kit, player count, option set) is played as
:mod:`cardgym.testing.digest` says at the stored file's sizes and compared part by
part with ``tests/data/behaviour_digests.json``. A change meant to change behaviour
rewrites the file with ``python -m benchmarks.behaviour_digest --write`` and says so.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from benchmarks.behaviour_digest import (
    STORED,
    all_settings,
    differences,
    digest_of,
    engines_of,
    read,
)
from cardgym.testing.digest import PARTS, behaviour_digest
from tests.cardgym.kits import PHPETS

try:
    import numba  # noqa: F401
except ImportError:  # the Python path alone (tests/test_without_numba.py)
    NUMBA = False
else:
    NUMBA = True

SIZES, DIGESTS = read(STORED)
SETTINGS = all_settings()
#: Each setting under each engine it is played by (one stored digest for all).
RUNS = [(key, kit, version, players, options, engine)
        for key, kit, version, players, options in SETTINGS
        for engine in engines_of(kit, version) if NUMBA or engine == "python"]


def test_every_setting_has_a_stored_digest_and_every_stored_one_a_setting() -> None:
    keys = {key for key, *_ in SETTINGS}
    assert sorted(keys - set(DIGESTS)) == [], (
        "settings without a stored digest: run python -m benchmarks.behaviour_digest --write")
    assert sorted(set(DIGESTS) - keys) == [], "stored digests of settings that are gone"


@pytest.mark.parametrize(("key", "kit", "version", "players", "options", "engine"), RUNS,
                         ids=[f"{key} {engine}" for key, *_, engine in RUNS])
def test_the_setting_behaves_as_its_stored_digest(key: str, kit: Any, version: int, players: int,
                                                   options: dict[str, Any], engine: str) -> None:
    found = digest_of(kit, version, players, options, SIZES, engine, batched=NUMBA)
    expected = DIGESTS[key]
    if engine != "python" or not NUMBA:  # the env's parts; the batched engine's come with
        # the Python run where numba is installed
        expected = {part: value for part, value in expected.items()
                    if not part.startswith("batched:")}
    assert differences({key: expected}, {key: found}) == []


def test_the_digest_is_the_same_for_the_same_seed_and_tells_seeds_apart() -> None:
    one = behaviour_digest(PHPETS, 3, {}, games=1, seed=5, stride=2)
    assert one == behaviour_digest(PHPETS, 3, {}, games=1, seed=5, stride=2)
    other = behaviour_digest(PHPETS, 3, {}, games=1, seed=6, stride=2)
    assert set(one) == set(PARTS)
    assert all(one[part] != other[part] for part in PARTS)


def test_the_digest_sees_a_changed_render() -> None:
    # A game whose text render differs in one character has another "renders" digest
    # and the same observations.
    game = PHPETS.game
    assert game is not None
    changed = dataclasses.replace(game, render=lambda state, seat: game.render(state, seat) + ".")

    def make_env(**kwargs: Any) -> Any:
        env = PHPETS.make_env(**kwargs)
        env.unwrapped.game = changed
        return env

    kit = dataclasses.replace(PHPETS, make_env=make_env)
    before = behaviour_digest(PHPETS, 2, {}, games=1)
    after = behaviour_digest(kit, 2, {}, games=1)
    assert before["observations"] == after["observations"]
    assert before["renders"] != after["renders"]
