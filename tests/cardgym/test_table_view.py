"""The table view (cardgym.table) of every game: its schema, its published schema
files, its bad input, and the kit's checks catching a view that leaks or hides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest

from cardgym import testing
from cardgym.errors import OrderError, ViewerError
from cardgym.registration import find_game
from cardgym.table import FULL
from cardgym.table_schema import LIBRARY_GAMES, SCHEMA_FOLDER, schema_of, schema_text
from cardgym.testing import GameKit
from tests.cardgym.kits import KITS, configurations

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = configurations()
IDS = [f"{kit.name}-{n}p" for kit, n in CONFIGS]


#: The schema test validates views at every this-many-th step of its games, times the
#: number of option sets (a view takes milliseconds to validate): those of the seat to
#: act, the seat after it, the spectator and the full view; every view at the end.
STRIDE = 8


def _views(env: Any) -> list[dict[str, Any]]:
    """The view of every seat still in the game, the spectator's and the full view."""
    return [env.table_view(agent) for agent in env.agents] + [
        env.table_view(None), env.table_view(FULL)]


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_every_view_validates_against_the_game_schema(kit: GameKit, num_players: int) -> None:
    """Views of the seats, the spectator and the full table, along a random game under
    each option set and at its end, are JSON and fit the game's schema."""
    assert kit.game is not None and kit.game.table is not None
    validator = jsonschema.Draft202012Validator(schema_of(kit.game))
    checked = 0
    for index, options in enumerate(kit.option_sets):
        env = kit.make_env(num_players=num_players, **options)
        rng = np.random.default_rng(index)

        steps = 0

        def check(env: Any) -> None:
            nonlocal checked, steps
            steps += 1
            if steps % (STRIDE * len(kit.option_sets)):
                return
            acting = env.agent_name_mapping[env.agent_selection]
            after = env.possible_agents[(acting + 1) % num_players]
            viewers = [acting, after if after in env.agents else None, None, FULL]
            for view in map(env.table_view, viewers):
                validator.validate(json.loads(json.dumps(view)))
                assert view["num_players"] == num_players
                assert len(view["seats"]) == num_players
                for entry in view["seats"]:
                    assert len(entry["hand"]["cards"]) == entry["hand"]["count"]
                    for area in entry["areas"]:
                        assert len(area["cards"]) == area["count"]
                for heap in view["piles"]:
                    assert len(heap["cards"]) == heap["count"]
                checked += 1

        testing.play_episode(env, rng, seed=index, each_step=check, max_steps=kit.max_steps)
        final = _views(env)
        assert all(view["over"] and view["result"] is not None for view in final)
        for view in final:
            validator.validate(view)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("kit", KITS, ids=[kit.name for kit in KITS])
def test_legal_moves_are_the_acting_seats_alone(kit: GameKit) -> None:
    """The seat to act sees its legal moves, named and labelled; the other seats and
    the spectator see none; the full view lists the seat to act's."""
    env = kit.make_env(num_players=kit.player_counts[0])
    env.reset(seed=3)
    acting = env.agent_name_mapping[env.agent_selection]
    legal = env.legal_actions()
    mine = env.table_view(acting)
    assert [move["action"] for move in mine["legal_moves"]] == legal
    assert [move["name"] for move in mine["legal_moves"]] == [env.action_name(a) for a in legal]
    assert all(move["label"] for move in mine["legal_moves"])
    assert mine["to_act"] == env.agent_selection and mine["seats"][acting]["to_act"]
    others = [seat for seat in range(env.num_players) if seat != acting]
    assert all(env.table_view(seat)["legal_moves"] == [] for seat in others)
    assert env.table_view(None)["legal_moves"] == []
    assert [move["action"] for move in env.table_view(FULL)["legal_moves"]] == legal


@pytest.mark.parametrize("name", LIBRARY_GAMES)
def test_published_schemas_are_current(name: str) -> None:
    """docs/table-view/NAME.schema.json is what the code writes
    (python -m cardgym.table_schema rewrites them)."""
    kit = next(kit for kit in KITS if kit.name == name)
    path = ROOT / SCHEMA_FOLDER / f"{name}.schema.json"
    assert path.read_text() == schema_text(kit.game), (
        f"{path} is stale: run python -m cardgym.table_schema")
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text()))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("viewer", ["player_9", 5, -1, True, "spectator", 1.0, "Player_0"])
def test_a_viewer_not_at_the_table_is_refused(viewer: object) -> None:
    env = find_game("power_hungry_pets").raw_env(num_players=3)
    env.reset(seed=1)
    before = env.position()
    with pytest.raises(ViewerError, match="player_0, player_1, player_2.*None for the "
                                          "spectator, or 'full'"):
        env.table_view(viewer)  # type: ignore[arg-type]
    assert env.position() == before


def test_a_view_before_reset_is_an_order_error() -> None:
    with pytest.raises(OrderError, match="reset"):
        find_game("karel_kakelaar").raw_env(num_players=2).table_view(0)


def test_a_seat_that_left_a_game_that_goes_on_is_refused_then_allowed_at_the_end() -> None:
    """A seat out of the match for good has no view while the others play on; once the
    game is over every seat's final view is there."""
    game = find_game("exploding_kittens")
    env = game.raw_env(num_players=3)
    rng = np.random.default_rng(0)
    for seed in range(20):
        env.reset(seed=seed)
        gone_seen = False
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            env.step(int(rng.choice(env.legal_actions())))
            gone = [a for a in env.possible_agents if a not in env.agents]
            if gone and env.agents and not env._table_over():
                with pytest.raises(ViewerError, match="has left the game"):
                    env.table_view(gone[0])
                assert env.table_view(None)["viewer"] == "spectator"
                gone_seen = True
        assert env.table_view(0)["over"]
        if gone_seen:
            return
    pytest.fail("no seat left a 3-player game that went on in 20 games")
