"""The Karel Kakelaar table view (cardgym.table, kakelaar_env.display.table), from the rules
(docs/rules/karel_kakelaar.md, "What a seat observes"): a committed bid, hen choice or
pick shows to its seat alone until the stage resolves, the others see only that it
was committed; hands and discard piles are public; the order of the draw pile and of
the robot's deck shows only in the full view."""

from __future__ import annotations

import json
import pickle
from typing import Any

import jsonschema
import numpy as np
import pytest

from cardgym.table_schema import schema
from kakelaar_env import env as make_env_plain
from kakelaar_env.display.table import FACES, TABLE, action_label
from kakelaar_env.engine.actions import ACTION_TABLE, PASS_INDEX
from kakelaar_env.engine.cards import BID_VALUE, TYPE_NAMES
from kakelaar_env.engine.state import GAME_OVER
from kakelaar_env.game import GAME
from tests.kakelaar_env.helpers import make_env, run_stage

VIEWERS: tuple[Any, ...] = (0, 1, 2, None, "full")
HEN_GAME = {"round": 2, "tractor": 0, "deck_top": ["w3", "w2", "w1"],
            "hands": [["hen", "c3", "c5", "c6", "c7"], ["hen", "c3", "c4", "c5", "c6"],
                      ["c3", "c4", "c5", "c6", "c7"]],
            "discards": [["c4", "w6", "w2"], [], []]}


def views(game: Any, viewers: tuple[Any, ...] = VIEWERS) -> dict[Any, dict[str, Any]]:
    return {viewer: game.table_view(viewer) for viewer in viewers}


def area(view: dict[str, Any], seat: int, name: str) -> dict[str, Any] | None:
    return next((a for a in view["seats"][seat]["areas"] if a["name"] == name), None)


def ids(cards: list[dict[str, Any] | None]) -> list[str | None]:
    return [None if card is None else card["id"] for card in cards]


def area_ids(view: dict[str, Any], seat: int, name: str) -> list[str | None]:
    """The cards of a seat's area (which must be there) as the view shows them."""
    found = area(view, seat, name)
    assert found is not None, f"seat {seat} has no area {name!r}"
    assert len(found["cards"]) == found["count"]
    return ids(found["cards"])


def named_pile(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in view["piles"] if p["name"] == name)


def test_a_committed_bid_shows_to_its_bidder_alone_until_every_bid_is_in() -> None:
    base = make_env(3, {"tractor": 0, "deck_top": ["w8", "w5", "w1"]})
    other = pickle.loads(pickle.dumps(base))
    base.step(base.action_index("bid:chicken_6"))  # seat 0 holds the tractor: first
    seen = views(base)
    mine = area(seen[0], 0, "bid")
    assert mine is not None and mine["count"] == 1 and ids(mine["cards"]) == ["chicken_6"]
    assert area_ids(seen["full"], 0, "bid") == ["chicken_6"]
    for viewer in (1, 2, None):
        theirs = area(seen[viewer], 0, "bid")
        assert theirs is not None and theirs["count"] == 1 and theirs["cards"] == [None], viewer
    for viewer in VIEWERS:
        assert seen[viewer]["seats"][0]["status"] == "bid in, face down"
        assert area(seen[viewer], 1, "bid") is None and area(seen[viewer], 2, "bid") is None
        # The bid stays in the bidder's hand until the reveal, as the rules say.
        assert "chicken_6" in ids(seen[viewer]["seats"][0]["hand"]["cards"])
    # Another bid changes the bidder's view (and the full one), nobody else's.
    other.step(other.action_index("bid:chicken_3"))
    changed = views(other)
    assert changed[0] != seen[0] and changed["full"] != seen["full"]
    for viewer in (1, 2, None):
        assert changed[viewer] == seen[viewer], viewer


def test_the_bids_are_public_once_the_last_is_in() -> None:
    game = make_env(3, {"tractor": 0, "deck_top": ["w8", "w5", "w1"]})
    run_stage(game, {0: "c6", 1: "c7", 2: "c3"})
    for viewer, view in views(game).items():
        assert [area_ids(view, seat, "discard") for seat in range(3)] == [
            ["chicken_6"], ["chicken_7"], ["chicken_3"]], viewer
        assert all(area(view, seat, "bid") is None for seat in range(3))
        # The highest bid took position 1, the next position 2.
        assert [seat["score"]["value"] for seat in view["seats"]] == [5, 8, 1]
        assert "chicken_6" not in ids(view["seats"][0]["hand"]["cards"])
    seat_1 = game.table_view(1)
    assert "Bids last revealed: player_0: Chicken 6; you: Chicken 7; player_2: Chicken 3" \
        in seat_1["notes"]
    assert "player_0 bid chicken_6 (revealed)" in [e["text"] for e in seat_1["events"]]


def test_every_viewer_sees_every_hand_and_discard_pile_face_up() -> None:
    hands = [["w3", "c4", "c6", "hen"], ["w8", "c3", "c5"], ["w2", "w2", "c5", "c7"]]
    game = make_env(3, {"round": 3, "tractor": 1, "hands": hands,
                        "discards": [["c3", "w1"], ["c4"], ["c3"]]})
    expected = [["worm_3", "chicken_4", "chicken_6", "hen"], ["worm_8", "chicken_3", "chicken_5"],
                ["worm_2", "worm_2", "chicken_5", "chicken_7"]]
    for viewer, view in views(game).items():
        assert [ids(seat["hand"]["cards"]) for seat in view["seats"]] == expected, viewer
        assert [seat["score"]["value"] for seat in view["seats"]] == [3, 8, 4]
        assert area_ids(view, 0, "discard") == ["worm_1", "chicken_3"]
        assert [seat["marks"] for seat in view["seats"]] == [[], ["tractor"], []]


def test_the_draw_pile_and_the_robot_deck_show_their_order_in_the_full_view_only() -> None:
    game = make_env(2, {"tractor": 0, "deck_top": ["w8", "w5", "w1", "w2", "w3", "w4"],
                        "robot_deck": ["c7", "c3", "c5"]})
    seen = views(game, (0, 1, None, "full"))
    full = seen["full"]
    assert ids(named_pile(full, "row")["cards"]) == ["worm_8", "worm_5", "worm_1"]
    assert ids(named_pile(full, "draw")["cards"])[:3] == ["worm_2", "worm_3", "worm_4"]
    robot = named_pile(full, "robot_deck")
    assert robot["count"] == 15 and ids(robot["cards"])[:3] == ["chicken_7", "chicken_3",
                                                                "chicken_5"]
    assert named_pile(full, "removed")["count"] == 18 and None not in named_pile(full, "removed")["cards"]
    for viewer in (0, 1, None):
        view = seen[viewer]
        assert ids(named_pile(view, "row")["cards"]) == ["worm_8", "worm_5", "worm_1"]
        for name, count in (("draw", 24), ("robot_deck", 15), ("removed", 18)):
            assert named_pile(view, name) == {**named_pile(view, name), "count": count,
                                              "cards": [None] * count}, (viewer, name)
        assert ("The robot's deck: 15 cards in a hidden order: Chicken 3 x3, Chicken 4 x3, "
                "Chicken 5 x3, Chicken 6 x3, Chicken 7 x3") in view["notes"]


def test_a_hen_choice_and_the_picks_show_to_their_seat_alone_until_revealed() -> None:
    game = make_env(3, HEN_GAME)
    run_stage(game, {0: "c3", 1: "c6", 2: "c7"})
    assert [m["label"] for m in game.table_view(0)["legal_moves"]] == ["play no mother hen",
                                                                      "play a mother hen"]
    game.step(game.action_index("hen:play"))  # seat 0, face down
    seen = views(game)
    assert "chose to play a mother hen (face down)" in seen[0]["seats"][0]["marks"]
    assert "chose to play a mother hen (face down)" in seen["full"]["seats"][0]["marks"]
    for viewer in (1, 2, None):
        assert "chose face down" in seen[viewer]["seats"][0]["marks"], viewer
        assert "played a mother hen" not in seen[viewer]["seats"][0]["marks"]
    game.step(game.action_index("hen:none"))  # seat 1: the hens are revealed
    for viewer, view in views(game).items():
        assert "played a mother hen" in view["seats"][0]["marks"], viewer
        assert "played a mother hen" not in view["seats"][1]["marks"]
    assert [m["label"] for m in game.table_view(0)["legal_moves"]] == [
        "take back Worm 2", "take back Worm 6", "take back Chicken 3", "take back Chicken 4"]
    game.step(game.action_index("take:worm_6"))
    seen = views(game)
    assert area_ids(seen[0], 0, "picks") == ["worm_6"]
    assert area_ids(seen["full"], 0, "picks") == ["worm_6"]
    for viewer in (1, 2, None):
        assert area_ids(seen[viewer], 0, "picks") == [None], viewer
        # The pick still lies in the discard pile, face up, as before.
        assert area_ids(seen[viewer], 0, "discard") == [
            "worm_2", "worm_6", "chicken_3", "chicken_4"]
    game.step(game.action_index("take:chicken_4"))  # the second pick reveals both
    for viewer, view in views(game).items():
        assert area(view, 0, "picks") is None
        assert area_ids(view, 0, "discard") == ["worm_2", "chicken_3"], viewer
        assert {"worm_6", "chicken_4"} <= set(ids(view["seats"][0]["hand"]["cards"]))


def test_the_moves_are_spoken_to_the_seat_to_act() -> None:
    game = make_env(3, {"tractor": 0, "hands": [["w5", "c3", "c7"], ["c3"], ["c4"]]})
    labels = {m["name"]: m["label"] for m in game.table_view(0)["legal_moves"]}
    assert labels == {"bid:worm_5": "bid Worm 5", "bid:chicken_3": "bid Chicken 3",
                      "bid:chicken_7": "bid Chicken 7"}
    assert game.table_view(1)["legal_moves"] == [] and game.table_view(None)["legal_moves"] == []
    state = game.game_state
    assert state is not None and action_label(state, PASS_INDEX) == "pass"


def test_the_end_of_the_game_names_the_winner() -> None:
    game = make_env(3, {"round": 9, "tractor": 0, "deck_top": ["w8", "w5", "w1"]})
    run_stage(game, {0: "c7", 1: "c6", 2: "c3"})
    view = game.table_view(0)
    assert view["over"] and view["phase"] == "game_over"
    assert view["status"] == "Game over after round 9: won by you"
    assert view["result"] == {"winners": ["player_0"], "returns": [1.0, -1.0, -1.0]}
    assert [seat["status"] for seat in view["seats"]] == ["won", "lost", "lost"]
    assert [seat["score"]["value"] for seat in view["seats"]] == [8, 5, 1]


def test_every_card_type_has_its_face() -> None:
    assert [face.id for face in FACES] == list(TYPE_NAMES)
    assert len({face.color for face in FACES}) == len(FACES)
    assert [face.value for face in FACES] == [*BID_VALUE[:13], None]
    bid_names = {name.split(":")[1] for name in ACTION_TABLE.names if ":" in name}
    assert bid_names - {"none", "play"} <= {face.id for face in FACES}
    assert FACES[TYPE_NAMES.index("chicken_5")].name == "Chicken 5"
    assert FACES[TYPE_NAMES.index("hen")].name == "Mother Hen"


def _random_game(num_players: int, seed: int) -> Any:
    """A random game's env, reset, and the generator choosing its moves."""
    game = make_env_plain(num_players=num_players)
    game.reset(seed=seed)
    return game, np.random.default_rng(seed)


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_every_view_of_random_games_fits_the_schema_and_is_json(num_players: int) -> None:
    """Every view is JSON at every step; the schema (slow to check) is checked at every
    eighth step and at the end."""
    validator = jsonschema.Draft202012Validator(
        schema(GAME.title, GAME.name, TABLE, GAME.player_counts))
    viewers = (*range(num_players), None, "full")
    validated = 0
    for seed in range(2):
        game, rng = _random_game(num_players, seed)
        step = 0
        while True:
            over = game.game_state.phase == GAME_OVER
            for viewer in viewers:
                view = game.table_view(viewer)
                assert json.loads(json.dumps(view)) == view
                if step % 8 == 0 or over:
                    validator.validate(view)
                    validated += 1
            if over:
                break
            game.step(int(rng.choice(game.legal_actions())))
            step += 1
    assert validated > 20


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_resampling_what_a_seat_cannot_see_leaves_its_view_and_the_spectators(
        num_players: int) -> None:
    changed = 0
    for seed in range(3):
        game, rng = _random_game(num_players, 10 + seed)
        unwrapped = game.unwrapped
        while game.game_state.phase != GAME_OVER:
            original = unwrapped.game_state
            spectator, full = game.table_view(None), game.table_view("full")
            for seat in range(num_players):
                mine = game.table_view(seat)
                for _ in range(3):
                    sample = GAME.resample_hidden(original, seat, rng)
                    unwrapped._replace_state(sample)
                    try:
                        assert game.table_view(seat) == mine, (seed, seat)
                        assert game.table_view(None) == spectator, (seed, seat)
                        changed += game.table_view("full") != full
                    finally:
                        unwrapped._replace_state(original)
            game.step(int(rng.choice(game.legal_actions())))
    assert changed > 0, "no sample changed the full view: the check could not fail"
