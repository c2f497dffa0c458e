"""Power Hungry Pets' table view (phpets_env.display.table): what each viewer sees, from the
rules; and the kit's table-view checks catching a view that leaks or hides."""

from __future__ import annotations

import dataclasses
from typing import Any

import jsonschema
import numpy as np
import pytest

from cardgym import testing
from cardgym.table import FULL, hand, pile
from cardgym.table_schema import schema_of
from cardgym.testing import GameKit
from phpets_env.display.table import FACES, TABLE, table_view
from phpets_env.env import raw_env as PhpetsEnv
from phpets_env.game import GAME as PHPETS_GAME
from tests.cardgym.kits import PHPETS
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    JUGGLER,
    SHIELD,
    SNAKE,
    TRAPPER,
    make_env,
    step_name,
)


def test_schema_refuses_a_view_with_a_card_of_another_game() -> None:
    env = PhpetsEnv(num_players=2)
    env.reset(seed=0)
    view = env.table_view(0)
    view["seats"][0]["hand"]["cards"][0] = {"id": "defuse", "name": "Defuse", "value": None}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(view, schema_of(PHPETS_GAME))


# ---------------------------------------------------- the checks can fail


def _leaky_kit(view: Any) -> GameKit:
    game = dataclasses.replace(PHPETS_GAME, table=dataclasses.replace(TABLE, view=view))
    leaky_env = type("LeakyEnv", (PhpetsEnv,), {"game": game})
    return dataclasses.replace(PHPETS, make_env=leaky_env, game=game)


def _spectator_sees_seat_0(state: Any, viewer: Any) -> dict[str, Any]:
    part = table_view(state, viewer)
    if viewer is None:
        full = table_view(state, FULL)
        part["seats"][0]["hand"] = full["seats"][0]["hand"]
    return part


def _seat_sees_the_top_card(state: Any, viewer: Any) -> dict[str, Any]:
    part = table_view(state, viewer)
    if isinstance(viewer, int) and state.deck:
        from phpets_env.engine.cards import CARD_VALUES

        top = FACES[CARD_VALUES[state.deck[-1]]]
        part["piles"][0] = pile("draw", "draw pile", [top], len(state.deck))
    return part


@pytest.mark.parametrize("leaky", [_spectator_sees_seat_0, _seat_sees_the_top_card])
def test_the_leak_test_catches_a_leaky_table_view(leaky: Any) -> None:
    with pytest.raises(AssertionError, match="table view.*depend on hidden information"):
        testing.check_no_leaks(_leaky_kit(leaky), 3, games=3)


def _spectator_sees_the_depth(state: Any, viewer: Any) -> dict[str, Any]:
    """Writes where Mouse Trapper put the card back (a secret) into the spectator's notes."""
    part = table_view(state, viewer)
    if viewer is None:
        part["notes"].append(f"pile: {state.deck}")
    return part


def _views_without_the_record(state: Any, viewer: Any) -> dict[str, Any]:
    """The spectator's view without rows or tokens; public plays reach no view but
    through the record, which the game below keeps empty."""
    part = table_view(state, viewer)
    if viewer is None:
        part = {"phase": "play", "status": "", "notes": [], "piles": [],
                "seats": [{"status": "", "score": None, "hand": hand(()), "areas": [],
                           "marks": []} for _ in part["seats"]]}
    return part


def test_the_choice_check_catches_a_secret_reaching_the_spectator() -> None:
    with pytest.raises(AssertionError, match="seen by the spectator, not party to it"):
        testing.check_private_choices(_leaky_kit(_spectator_sees_the_depth), 2, games=20)


def test_the_choice_check_catches_a_public_choice_missing_from_the_views() -> None:
    """Without the record in words, which Crystal Bowl guess missed reaches no table
    view (the observation still has it): the public check must say so."""
    kit = _leaky_kit(_views_without_the_record)
    assert kit.game is not None
    silent = dataclasses.replace(kit.game, log=lambda state: [])
    env = type("SilentEnv", (PhpetsEnv,), {"game": silent})
    kit = dataclasses.replace(kit, make_env=env, game=silent)
    with pytest.raises(AssertionError, match="cannot tell the public choices .* apart: its "
                                             "table views are identical"):
        testing.check_public_choices(kit, 2, games=5)


# ------------------------------------------------ what each viewer sees


def _ids(cards: list[Any]) -> list[Any]:
    return [None if card is None else card["value"] for card in cards]


def test_mouse_trapper_the_card_and_its_depth_only_in_the_placers_view() -> None:
    """§ Mouse Trapper: the player looks at the top card and puts it back at a depth of
    their choice, unseen by the others."""
    game = make_env(3, {"hands": [TRAPPER, BUNNY, BOWL],
                        "deck_top": [SHIELD, SNAKE, DIGGER, JUGGLER], "first_player": 0})
    step_name(game, "play:mouse_trapper")
    held = next(p for p in game.table_view(0)["piles"] if p["name"] == "held")
    assert _ids(held["cards"]) == [SNAKE]
    for viewer in (1, None):
        held = next(p for p in game.table_view(viewer)["piles"] if p["name"] == "held")
        assert _ids(held["cards"]) == [None]
    labels = [move["label"] for move in game.table_view(0)["legal_moves"]]
    assert labels[:2] == ["put the card back on top", "put the card back with 1 card above it"]
    step_name(game, "mouse_trapper:depth=2")
    # Seat 1 drew Grave Digger: the pile is Jittery Juggler, Snake Sorcerer, ...
    draw = next(p for p in game.table_view(0)["piles"] if p["name"] == "draw")
    assert _ids(draw["cards"])[:2] == [None, SNAKE]
    assert set(_ids(draw["cards"])) == {None, SNAKE}
    for viewer in (1, 2, None):
        draw = next(p for p in game.table_view(viewer)["piles"] if p["name"] == "draw")
        assert set(_ids(draw["cards"])) == {None}
    full = next(p for p in game.table_view(FULL)["piles"] if p["name"] == "draw")
    assert _ids(full["cards"])[:2] == [JUGGLER, SNAKE]


def test_snake_sorcerer_the_shown_card_lies_face_up_for_everyone() -> None:
    """§ Snake Sorcerer: the chosen player puts their hand card face up and draws a new
    one, which only they know."""
    game = make_env(3, {"hands": [SNAKE, BUNNY, BOWL], "deck_top": [SHIELD, DIGGER, JUGGLER],
                        "first_player": 0})
    name = next(m["name"] for m in game.table_view(0)["legal_moves"]
                if m["label"] == "play Snake Sorcerer at player_1")
    step_name(game, name)
    for viewer in (0, 1, 2, None, FULL):
        seat = game.table_view(viewer)["seats"][1]
        assert _ids(seat["areas"][0]["cards"]) == [BUNNY]
    # Seat 1 drew Grave Digger for the shown card, then Jittery Juggler for its turn.
    assert _ids(game.table_view(1)["seats"][1]["hand"]["cards"]) == [DIGGER, JUGGLER]
    assert _ids(game.table_view(0)["seats"][1]["hand"]["cards"]) == [None, None]
    assert _ids(game.table_view(None)["seats"][1]["hand"]["cards"]) == [None, None]
    events = [event["text"] for event in game.table_view(0)["events"]]
    assert "you played Snake Sorcerer (5) at player_1, who showed Battle Bunny (3)" in events


def test_each_seat_sees_its_own_hand_others_as_backs_and_public_rows() -> None:
    game = make_env(3, {"hands": [SHIELD, BUNNY, BOWL], "deck_top": [TRAPPER, DIGGER],
                        "first_player": 0})
    view = game.table_view(1)
    assert [seat["label"] for seat in view["seats"]] == ["player_0", "player_1 (you)", "player_2"]
    assert _ids(view["seats"][1]["hand"]["cards"]) == [BUNNY]
    assert _ids(view["seats"][0]["hand"]["cards"]) == [None, None]
    assert view["seats"][0]["to_act"] and view["to_act"] == "player_0"
    assert view["legal_moves"] == []
    step_name(game, "play:shell_shield")
    for viewer in (0, 1, 2, None, FULL):
        seat = game.table_view(viewer)["seats"][0]
        assert _ids(seat["areas"][0]["cards"]) == [SHIELD]
        assert seat["marks"] == ["protected"]
    spectator = game.table_view(None)
    assert spectator["viewer"] == "spectator" and spectator["seat"] is None
    assert all(set(_ids(s["hand"]["cards"])) == {None} for s in spectator["seats"])
    assert _ids(game.table_view(FULL)["seats"][0]["hand"]["cards"]) == [TRAPPER]


def test_a_finished_match_names_its_winner_in_every_view() -> None:
    env = PhpetsEnv(num_players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while env.agents:
        agent = env.agent_selection
        env.step(None if env.terminations[agent] else int(rng.choice(env.legal_actions())))
    winners = [f"player_{s}" for s in sorted(env.game_state.match_winners)]
    for viewer in (0, 1, None, FULL):
        view = env.table_view(viewer)
        assert view["over"] and view["to_act"] is None and view["legal_moves"] == []
        assert view["result"]["winners"] == winners
        assert {s["status"] for s in view["seats"]} <= {"won the match", "lost the match"}
