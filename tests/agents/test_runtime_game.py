"""A game registered at run time (``register_game``) plays in worker processes too:
a game travels to a worker by reference, as its env module's game, not as an id the
worker's registry may not know."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from agents.engines import Engine
from agents.evaluate import evaluate
from cardgym import registration
from cardgym.game import game_of_env
from tests.agents.runtime_game import GAME


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """GAME registered for this test only (the registry as it was afterwards)."""
    monkeypatch.setattr(registration, "_REGISTERED", list(registration._REGISTERED))
    registration.register_game(GAME)


def test_a_game_pickles_as_its_env_modules_game() -> None:
    assert pickle.loads(pickle.dumps(GAME)) is GAME
    library = registration.find_game("power_hungry_pets")
    assert pickle.loads(pickle.dumps(library)) is library
    with pytest.raises(ValueError, match="plays kuhn_at_run_time, not other"):
        game_of_env(GAME.env_entry_point, "other")


def test_a_changed_copy_of_a_game_is_not_taken_for_the_original() -> None:
    copy = dataclasses.replace(GAME, max_steps=11)
    with pytest.raises(pickle.PicklingError):  # its functions include lambdas
        pickle.dumps(copy)


@pytest.mark.usefixtures("registered")
def test_an_evaluation_of_a_game_registered_at_run_time_runs_on_two_workers() -> None:
    one = evaluate("kuhn_at_run_time", 2, ["random", "heuristic"], games=12, workers=1)
    two = evaluate("kuhn_at_run_time", 2, ["random", "heuristic"], games=12, workers=2)
    assert two.game is GAME
    assert two.records == one.records and two.agents == one.agents


def test_the_search_engine_of_a_game_unknown_to_the_registry_pickles_with_its_game() -> None:
    # A worker process's registry may not know the game: the engine travels as its
    # bound game (the game by reference and the config), not as a name to look up.
    with pytest.raises(ValueError, match="unknown game 'kuhn_at_run_time'"):
        registration.find_game("kuhn_at_run_time")
    engine = Engine(GAME.bind(2))
    again = pickle.loads(pickle.dumps(engine))
    assert again.game is GAME and again.config == engine.config
    assert again.legal_actions(again.new_game(np.random.default_rng(0))) == \
        engine.legal_actions(engine.new_game(np.random.default_rng(0)))
