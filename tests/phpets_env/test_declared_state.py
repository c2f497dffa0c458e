"""The Power Hungry Pets state's declarations are checked (cardgym.state.slot and
cardgym.testing.check_declared_state): a field declared public that a resample
changes is named."""

from __future__ import annotations

import dataclasses

import pytest

from cardgym import testing
from phpets_env.engine.state import State as PetsState
from tests.cardgym.kits import PHPETS


def test_a_field_declared_public_that_a_resample_changes_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = dict(PetsState.SPEC)
    spec["deck"] = dataclasses.replace(spec["deck"], hidden=False)
    monkeypatch.setattr(PetsState, "SPEC", spec)
    with pytest.raises(AssertionError, match=r"changed \['deck'\]"):
        testing.check_declared_state(PHPETS, 3, games=1)
