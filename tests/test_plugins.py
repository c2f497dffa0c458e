"""One broken game plugin costs only its own game: the others register, and the
broken one is logged with its entry point named."""

from __future__ import annotations

import dataclasses
import logging
from importlib.metadata import EntryPoint, entry_points

import pytest

from cardgym import registration

GROUP = registration.ENTRY_POINT_GROUP


#: Another game object under a registered game's name.
TWIN = dataclasses.replace(registration.find_game("power_hungry_pets"))


def installed_plus(*extra: EntryPoint) -> list[EntryPoint]:
    return [*entry_points(group=GROUP), *extra]


@pytest.mark.parametrize(("point", "cause"), [
    (EntryPoint("broken", "cardgym_no_such_plugin.game:GAME", GROUP),
     "ModuleNotFoundError: No module named 'cardgym_no_such_plugin'"),
    (EntryPoint("not_a_game", "math:pi", GROUP), "TypeError: it is a float, not a "
                                                 "cardgym.game.Game"),
    (EntryPoint("twin", "tests.test_plugins:TWIN", GROUP), "ValueError: another game named "
                                                           "'power_hungry_pets' is registered"),
])
def test_a_broken_plugin_is_logged_and_the_other_games_register(
        point: EntryPoint, cause: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    expected = [game.name for game in registration._discover()]
    monkeypatch.setattr(registration, "entry_points",
                        lambda group: installed_plus(point) if group == GROUP else [])
    with caplog.at_level(logging.WARNING, logger="cardgym"):
        found = [game.name for game in registration._discover()]
    assert found == expected
    assert f"skipped the game plugin {point.name} = {point.value}" in caplog.text
    assert cause in caplog.text
    assert len(caplog.records) == 1
