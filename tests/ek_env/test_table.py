"""The Exploding Kittens table view (ek_env.display.table, cardgym.table): the table as a seat,
the spectator and the full view know it (docs/rules/exploding_kittens.md, "What a seat
observes").

Scenarios are played with engine moves (tests.ek_env.helpers) and read through
``TABLE.view``, or through the env's ``table_view`` where the env's part (agent names,
legal moves and their labels) matters.
"""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import numpy as np
import pytest

from cardgym.table import FULL
from cardgym.table_schema import schema
from ek_env import env as make_env
from ek_env.display.table import PILES, TABLE
from ek_env.encoding.encoding import ACTION_TABLE
from ek_env.engine.cards import CARD_NAMES, Card
from ek_env.engine.state import (
    GAME_OVER,
    GARBAGE,
    GIVE,
    INSERT,
    PHASE_NAMES,
    Alter,
    Draw,
    Garbage,
    Give,
    Insert,
    NameCard,
    Nope,
    PlayCard,
    PlayThree,
)
from ek_env.game import GAME
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
    FUTURE,
    KITTEN,
    MELON,
    NOPE,
    SHUFFLE,
    SKIP,
    TACO,
    apply,
    make,
    pass_window,
)
from tests.ek_env.streaking_helpers import ALTER_CARD, GC, act, pass_env_window, senv

NAMES = CARD_NAMES


def ids(cards: list[Any]) -> list[str | None]:
    """Card ids of a hand's or pile's cards (``None`` face down)."""
    return [None if card is None else card["id"] for card in cards]


def seat_hand(view: dict[str, Any], seat: int) -> list[str | None]:
    return ids(view["seats"][seat]["hand"]["cards"])


def pile_of(view: dict[str, Any], name: str) -> dict[str, Any] | None:
    found = [entry for entry in view["piles"] if entry["name"] == name]
    assert len(found) <= 1, f"two piles named {name!r}"
    return found[0] if found else None


def draw_pile(view: dict[str, Any]) -> list[str | None]:
    entry = pile_of(view, "draw")
    assert entry is not None
    return ids(entry["cards"])


# ------------------------------------------------------------- the cards


def test_every_card_kind_has_a_face_with_its_action_name_and_a_distinct_colour() -> None:
    faces = TABLE.cards
    assert [face.id for face in faces] == list(CARD_NAMES)
    assert len(faces) == len(Card)
    assert all(face.value is None for face in faces)
    colours = [face.color for face in faces]
    assert all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in colours)
    assert len(set(colours)) == len(colours)
    assert TABLE.face("rainbow_ralphing_cat").name == "Rainbow-Ralphing Cat"
    assert TABLE.face("curse_of_the_cat_butt").name == "Curse of the Cat Butt"
    kitten = TABLE.face("exploding_kitten").color
    defuse = TABLE.face("defuse").color
    red, green = int(kitten[1:3], 16), int(kitten[3:5], 16)
    assert red > green + 60  # the kitten is red-ish
    assert int(defuse[3:5], 16) > int(defuse[1:3], 16) + 60  # the Defuse green-ish
    assert TABLE.phases == PHASE_NAMES
    assert TABLE.score_label is None


# ------------------------------------------------------------ the base game


def test_see_the_future_shows_the_top_three_to_its_player_only() -> None:
    deck = [TACO, KITTEN, ATTACK, SKIP, KITTEN, BEARD]
    state, rng = make([[FUTURE, SKIP], [NOPE], [MELON]], deck, first=0)
    apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    mine = TABLE.view(state, 0)
    assert draw_pile(mine) == [NAMES[TACO], NAMES[KITTEN], NAMES[ATTACK], None, None, None]
    for viewer in (1, 2, None):
        assert draw_pile(TABLE.view(state, viewer)) == [None] * 6
    assert draw_pile(TABLE.view(state, FULL)) == [NAMES[c] for c in deck]
    # A draw moves what player_0 knows up by one, for the next seat's view too.
    apply(state, Draw(), rng)
    assert draw_pile(TABLE.view(state, 0)) == [NAMES[KITTEN], NAMES[ATTACK], None, None, None]
    assert NAMES[TACO] in seat_hand(TABLE.view(state, 0), 0)


def test_a_shuffle_makes_the_seen_cards_unknown_again() -> None:
    state, rng = make([[FUTURE, SHUFFLE], [NOPE], [MELON]],
                      [TACO, KITTEN, ATTACK, SKIP, KITTEN], first=0)
    apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    assert draw_pile(TABLE.view(state, 0))[:3] == [NAMES[TACO], NAMES[KITTEN], NAMES[ATTACK]]
    apply(state, PlayCard(SHUFFLE), rng)
    pass_window(state, rng)
    assert draw_pile(TABLE.view(state, 0)) == [None] * 5


def test_a_favor_gift_is_known_to_giver_and_receiver_only() -> None:
    state, rng = make([[FAVOR, SKIP], [TACO, BEARD], [MELON, NOPE]],
                      [ATTACK, KITTEN, SKIP, KITTEN], first=0)
    apply(state, PlayCard(FAVOR, 1), rng)
    pass_window(state, rng)
    assert state.phase == GIVE and state.to_act == 1
    apply(state, Give(TACO), rng)
    receiver = TABLE.view(state, 0)
    assert seat_hand(receiver, 0) == [NAMES[SKIP], NAMES[TACO]]
    assert seat_hand(receiver, 1) == [None]  # what the giver kept is unknown
    giver = TABLE.view(state, 1)
    # The giver knows the Taco Cat is in player_0's hand, and nothing else of it.
    assert seat_hand(giver, 0) == [NAMES[TACO], None]
    assert seat_hand(giver, 1) == [NAMES[BEARD]]
    third = TABLE.view(state, 2)
    assert seat_hand(third, 0) == [None, None]
    assert seat_hand(third, 1) == [None]
    spectator = TABLE.view(state, None)
    assert [seat_hand(spectator, s) for s in range(3)] == [[None] * 2, [None], [None] * 2]


def test_three_of_a_kind_shows_the_card_to_all_seats_and_a_miss_is_noted() -> None:
    state, rng = make([[TACO, TACO, TACO, BEARD, BEARD, BEARD], [DEFUSE, SKIP], [MELON]],
                      [ATTACK, KITTEN, SKIP, KITTEN], first=0)
    apply(state, PlayThree(TACO, 1), rng)
    apply(state, NameCard(DEFUSE), rng)
    pass_window(state, rng)
    for seat in (1, 2):
        assert seat_hand(TABLE.view(state, seat), 0) == [NAMES[DEFUSE], None, None, None]
    apply(state, PlayThree(BEARD, 2), rng)
    apply(state, NameCard(ATTACK), rng)
    pass_window(state, rng)
    for viewer in (0, 1, None, FULL):
        assert "player_2 holds no Attack" in TABLE.view(state, viewer)["notes"]
    assert not any("holds no" in note for note in TABLE.view(state, 2)["notes"])


def test_the_spectator_sees_counts_and_public_piles_only() -> None:
    state, rng = make([[FUTURE, SKIP, TACO], [NOPE, ATTACK], [MELON]],
                      [TACO, KITTEN, ATTACK, SKIP, KITTEN], first=0, discard=[SHUFFLE])
    apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    view = TABLE.view(state, None)
    assert [seat["hand"]["count"] for seat in view["seats"]] == [2, 2, 1]
    assert all(card is None for seat in view["seats"] for card in seat["hand"]["cards"])
    assert draw_pile(view) == [None] * 5
    discard = pile_of(view, "discard")
    assert discard is not None
    assert sorted(map(str, ids(discard["cards"]))) == sorted([NAMES[SHUFFLE], NAMES[FUTURE]])
    assert "2 Exploding Kittens in the draw pile" in view["notes"]


def test_the_full_view_shows_every_hand_and_the_deck_in_order() -> None:
    hands = [[FUTURE, SKIP, TACO], [NOPE, ATTACK], [MELON]]
    deck = [TACO, KITTEN, ATTACK, SKIP, KITTEN]
    state, _ = make(hands, deck, first=1)
    view = TABLE.view(state, FULL)
    for seat, cards in enumerate(hands):
        assert seat_hand(view, seat) == [NAMES[c] for c in sorted(cards)]
    assert draw_pile(view) == [NAMES[c] for c in deck]
    box = pile_of(view, "box")
    assert box is not None and box["count"] > 0  # the unused kittens and Defuses
    assert pile_of(TABLE.view(state, 0), "box") is None
    assert view["status"] == "player_1's turn: playing cards or drawing"


def test_a_defused_kitten_is_shown_waiting_and_its_depth_known_to_its_player_only() -> None:
    state, rng = make([[DEFUSE, SKIP], [NOPE], [MELON]], [KITTEN, TACO, ATTACK, KITTEN, BEARD],
                      first=0)
    apply(state, Draw(), rng)
    assert state.phase == INSERT
    for viewer in (0, 1, None, FULL):
        view = TABLE.view(state, viewer)
        waiting = pile_of(view, "put_back")
        assert waiting is not None and ids(waiting["cards"]) == [NAMES[KITTEN]]
        assert "putting a kitten back" in view["seats"][0]["marks"]
    labels = {move["name"]: move["label"] for move in _env_at(state).table_view(0)["legal_moves"]}
    assert labels["insert:depth=0"] == "put the kitten back on top"
    assert labels["insert:depth=3"] == "put the kitten back with 3 cards above it"
    assert labels["insert:depth=4"] == "put the kitten back at the bottom (with 4 cards above it)"
    apply(state, Insert(2), rng)
    assert draw_pile(TABLE.view(state, 0)) == [None, None, NAMES[KITTEN], None, None]
    assert draw_pile(TABLE.view(state, 1)) == [None] * 5


def _env_at(state: Any) -> Any:
    """An env holding ``state`` (a clone)."""
    env = make_env(num_players=state.num_players, **_options(state))
    env.reset(seed=0)
    env.unwrapped._replace_state(state.clone())
    return env


def _options(state: Any) -> dict[str, Any]:
    return {"expansions": state.config.expansions} if state.config.streaking else {}


def test_the_turn_holder_and_owed_turns_are_marked_for_everyone() -> None:
    state, rng = make([[ATTACK], [NOPE], [MELON]], [TACO, KITTEN, SKIP, KITTEN], first=0)
    apply(state, PlayCard(ATTACK), rng)
    pass_window(state, rng)
    for viewer in (0, 1, 2, None):
        view = TABLE.view(state, viewer)
        assert view["seats"][1]["marks"] == ["turn holder", "owes 2 turns", "attacked"]
        assert view["seats"][0]["marks"] == []
    assert TABLE.view(state, 1)["status"].startswith("Your turn (2 turns owed, attacked)")
    assert TABLE.view(state, 2)["status"].startswith("player_1's turn (2 turns owed, attacked)")


def test_the_pending_play_and_its_nopes_are_in_the_notes() -> None:
    state, rng = make([[FAVOR, SKIP], [NOPE, TACO], [MELON]], [ATTACK, KITTEN, SKIP, KITTEN],
                      first=0)
    apply(state, PlayCard(FAVOR, 2), rng)
    view = TABLE.view(state, 2)
    assert "player_0 plays Favor at you" in view["notes"]
    assert "targeted" in view["seats"][2]["marks"]
    assert TABLE.view(state, 0)["notes"][1] == "you play Favor at player_2"
    assert state.to_act == 1
    env = _env_at(state)
    labels = {move["name"]: move["label"] for move in env.table_view(1)["legal_moves"]}
    assert labels == {"nope": "Nope player_0's play", "pass": "pass (no Nope)"}
    assert env.table_view(0)["legal_moves"] == []  # not to act: no moves
    apply(state, Nope(), rng)
    assert TABLE.view(state, None)["notes"][1] == (
        "player_0 plays Favor at player_2; 1 Nope so far, the last by player_1: "
        "the play is stopped unless Noped again")


def test_action_labels_name_the_seats_clockwise_from_the_actor() -> None:
    env = make_env(num_players=4)
    env.reset(seed=0, options={"scenario": {
        "hands": [["skip"], ["favor", "taco_cat", "taco_cat"], ["nope"], ["beard_cat"]],
        "deck": ["attack", "exploding_kitten", "skip", "exploding_kitten", "exploding_kitten"],
        "first_player": 1}})
    labels = {move["name"]: move["label"] for move in env.table_view("player_1")["legal_moves"]}
    assert labels["play:favor:+1"] == "play Favor at player_2"
    assert labels["play:favor:+3"] == "play Favor at player_0"
    assert labels["pair:taco_cat:+2"] == ("play a pair of Taco Cat against player_3 "
                                          "(take a random card)")
    assert labels["draw"] == "draw a card"
    act(env, "play:favor:+3")
    while env.table_view(None)["phase"] != PHASE_NAMES[GIVE]:
        act(env, "pass")
    gift = {move["name"]: move["label"] for move in env.table_view(0)["legal_moves"]}
    assert gift == {"give:skip": "give Skip to player_1"}
    full = env.table_view("full")
    assert full["legal_moves"] == env.table_view(0)["legal_moves"]


def test_bad_viewers_and_actions_are_refused_with_what_is_allowed() -> None:
    state, _ = make([[SKIP], [NOPE]], [TACO, KITTEN])
    bad: list[Any] = [2, -1, "player_0", True, 1.0]
    for viewer in bad:
        with pytest.raises(ValueError, match="None for the spectator"):
            TABLE.view(state, viewer)
    assert TABLE.action_label is not None
    with pytest.raises(ValueError, match="not an action index"):
        TABLE.action_label(state, 10_000)
    with pytest.raises(ValueError, match="not legal now"):
        TABLE.action_label(state, ACTION_TABLE.index("nope"))


def test_a_finished_game_says_who_won_and_who_exploded() -> None:
    env = make_env(num_players=2)
    env.reset(seed=0, options={"scenario": {"hands": [["skip"], ["taco_cat"]],
                                            "deck": ["exploding_kitten", "attack"],
                                            "first_player": 0}})
    act(env, "draw")  # no Defuse: player_0 explodes
    for viewer in (0, 1, None, "full"):
        view = env.table_view(viewer)
        assert view["over"] and view["phase"] == PHASE_NAMES[GAME_OVER]
        assert [seat["status"] for seat in view["seats"]] == ["exploded", "won"]
        assert view["result"] == {"winners": ["player_1"], "returns": [-1.0, 1.0]}
    assert env.table_view(1)["status"] == "Game over: you won"
    assert env.table_view(0)["status"] == "Game over: player_1 won"


# ------------------------------------------------------- Streaking Kittens


def test_a_blind_seat_sees_only_its_marked_cards_and_everyone_sees_the_marks() -> None:
    game = senv([["skip"], ["taco_cat", "skip", "beard_cat"], ["nope"]],
                ["attack", "exploding_kitten", "taco_cat", "exploding_kitten",
                 "exploding_kitten"],
                first=0, blind=[1], marked_cards=[[], ["beard_cat"], []])
    own = game.table_view(1)
    assert seat_hand(own, 1) == [NAMES[BEARD], None, None]
    assert "blind" in own["seats"][1]["marks"]
    assert any(note.startswith("you are blind") for note in own["notes"])
    for viewer in (0, 2, None):
        view = game.table_view(viewer)
        assert seat_hand(view, 1) == [NAMES[BEARD], None, None]
        assert view["seats"][1]["marks"] == ["blind"]
        areas = view["seats"][1]["areas"]
        assert [(a["name"], ids(a["cards"])) for a in areas] == [("marked", [NAMES[BEARD]])]
    full = game.table_view("full")
    assert seat_hand(full, 1) == [NAMES[SKIP], NAMES[TACO], NAMES[BEARD]]


def test_a_blind_seat_sees_the_card_it_receives_on_a_favor() -> None:
    game = senv([["favor"], ["attack"], ["nope"]],
                ["taco_cat", "exploding_kitten", "beard_cat", "exploding_kitten",
                 "exploding_kitten"], first=0, blind=[0])
    act(game, "blind:play")
    labels = {m["name"]: m["label"] for m in game.table_view(0)["legal_moves"]}
    assert labels["target:+1"] == "aim your turned-up Favor at player_1"
    assert "your turned-up Favor awaits its target" in game.table_view(0)["notes"]
    act(game, "target:+1")
    pass_env_window(game)
    assert {m["label"] for m in game.table_view(1)["legal_moves"]} == {"give Attack to player_0"}
    act(game, "give:attack")
    assert seat_hand(game.table_view(0), 0) == [NAMES[ATTACK]]
    assert seat_hand(game.table_view(2), 0) == [None]


def test_a_mark_shows_the_card_to_every_seat_and_the_spectator() -> None:
    game = senv([["mark"], ["skip"], ["nope"]],
                ["taco_cat", "exploding_kitten", "beard_cat", "exploding_kitten",
                 "exploding_kitten"], first=0)
    labels = {m["name"]: m["label"] for m in game.table_view(0)["legal_moves"]}
    assert labels["play:mark:+1"] == "play Mark at player_1"
    act(game, "play:mark:+1")
    pass_env_window(game)
    for viewer in (0, 1, 2, None, "full"):
        areas = game.table_view(viewer)["seats"][1]["areas"]
        assert [ids(a["cards"]) for a in areas] == [[NAMES[SKIP]]]
        assert seat_hand(game.table_view(viewer), 1) == [NAMES[SKIP]]


def test_alter_the_future_cards_are_shown_to_the_reordering_seat_only() -> None:
    deck = [TACO, KITTEN, BEARD, MELON, SKIP, ATTACK, KITTEN, KITTEN]
    state, rng = make([[ALTER_CARD], [NOPE], [FAVOR]], deck, first=0,
                      expansions=("streaking",))
    apply(state, PlayCard(ALTER_CARD), rng)
    pass_window(state, rng)
    apply(state, Alter(KITTEN), rng)
    mine = TABLE.view(state, 0)
    placed, left = pile_of(mine, "alter_placed"), pile_of(mine, "alter_left")
    assert placed is not None and ids(placed["cards"]) == [NAMES[KITTEN]]
    assert left is not None and sorted(map(str, ids(left["cards"]))) == sorted(
        NAMES[c] for c in (TACO, BEARD, MELON, SKIP))
    assert draw_pile(mine) == [None] * 3
    for viewer in (1, 2, None):
        view = TABLE.view(state, viewer)
        assert pile_of(view, "alter_placed") is None and pile_of(view, "alter_left") is None
        assert "player_0 reorders the top cards of the draw pile (Alter the Future 5x)" \
            in view["notes"]
    full = TABLE.view(state, FULL)
    assert pile_of(full, "alter_left") is not None
    env = _env_at(state)
    labels = {m["name"]: m["label"] for m in env.table_view(0)["legal_moves"]}
    assert labels["alter:taco_cat"] == "put Taco Cat 2nd from the top"
    for card in (TACO, BEARD, MELON):
        apply(state, Alter(card), rng)
    expected = [NAMES[c] for c in (KITTEN, TACO, BEARD, MELON, SKIP)] + [None] * 3
    assert draw_pile(TABLE.view(state, 0)) == expected
    assert draw_pile(TABLE.view(state, 1)) == [None] * 8


def test_garbage_collection_shows_how_many_cards_went_in_and_the_marked_ones() -> None:
    state, rng = make([[GC, SKIP, TACO], [BEARD, MELON], [NOPE, ATTACK]],
                      [ATTACK, KITTEN, FAVOR, KITTEN, KITTEN], first=0,
                      expansions=("streaking",), marked=[[], [MELON], []])
    apply(state, PlayCard(GC), rng)
    pass_window(state, rng)
    apply(state, Garbage(SKIP), rng)
    apply(state, Garbage(MELON, True), rng)
    assert state.phase == GARBAGE and state.to_act == 2
    for viewer in (0, 1, 2, None):
        view = TABLE.view(state, viewer)
        put_in = pile_of(view, "garbage")
        assert put_in is not None and ids(put_in["cards"]) == [None, NAMES[MELON]]
        assert view["seats"][2]["marks"] == ["to put a card in"]
    full = pile_of(TABLE.view(state, FULL), "garbage")
    assert full is not None and ids(full["cards"]) == [NAMES[SKIP], NAMES[MELON]]
    env = _env_at(state)
    labels = {m["name"]: m["label"] for m in env.table_view(2)["legal_moves"]}
    assert labels == {"garbage:attack": "put Attack into the draw pile",
                      "garbage:nope": "put Nope into the draw pile"}


def test_a_held_kitten_is_counted_with_the_draw_pile_and_shown_only_in_full() -> None:
    hands = [["streaking_kitten", "taco_cat"], ["nope"], ["favor"]]
    game = senv(hands, ["exploding_kitten", "beard_cat", "exploding_kitten"], first=0)
    note = "2 Exploding Kittens in the draw pile or held in hands"
    assert note in game.table_view(None)["notes"]
    act(game, "draw")  # kept thanks to the Streaking Kitten, unseen: the count stays
    for viewer in (0, 1, None):
        assert note in game.table_view(viewer)["notes"]
    assert NAMES[KITTEN] in seat_hand(game.table_view(0), 0)
    assert NAMES[KITTEN] in seat_hand(game.table_view("full"), 0)
    assert seat_hand(game.table_view(1), 0) == [None] * 3


def test_a_curse_makes_the_target_blind_for_every_viewer() -> None:
    game = senv([["curse_of_the_cat_butt"], ["skip", "taco_cat"], ["nope"]],
                ["attack", "exploding_kitten", "beard_cat", "exploding_kitten",
                 "exploding_kitten"], first=0)
    assert {m["label"] for m in game.table_view(0)["legal_moves"]} >= {
        "play Curse of the Cat Butt at player_1", "play Curse of the Cat Butt at player_2"}
    act(game, "play:curse_of_the_cat_butt:+1")
    pass_env_window(game)
    for viewer in (0, 1, 2, None):
        assert "blind" in game.table_view(viewer)["seats"][1]["marks"]
    assert seat_hand(game.table_view(1), 1) == [None, None]


# ----------------------------------------------- random games: schema and leaks


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    assert GAME.table is not None
    checker = jsonschema.Draft202012Validator(
        schema(GAME.title, GAME.name, GAME.table, GAME.player_counts))
    checker.check_schema(checker.schema)
    return checker


def _consistent(view: dict[str, Any]) -> None:
    """What the schema cannot say: every hand and pile lists ``count`` cards."""
    for seat in view["seats"]:
        assert len(seat["hand"]["cards"]) == seat["hand"]["count"]
        for area in seat["areas"]:
            assert len(area["cards"]) == area["count"] and area["name"] in PILES
    for entry in view["piles"]:
        assert len(entry["cards"]) == entry["count"] and entry["name"] in PILES


def _counts(view: dict[str, Any]) -> tuple[Any, ...]:
    """What every viewer sees alike: hand sizes, pile sizes, statuses, marks, notes but
    the viewer's own words, the phase."""
    piles = {entry["name"]: entry["count"] for entry in view["piles"]
             if not entry["name"].startswith("alter") and entry["name"] != "box"}
    seats = [(seat["hand"]["count"], seat["status"], seat["marks"], seat["areas"])
             for seat in view["seats"]]
    return view["phase"], piles, seats, len(view["events"])


def _play(num_players: int, options: dict[str, Any], seed: int, each_step: Any) -> int:
    env = make_env(num_players=num_players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        each_step(env, steps)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        steps += 1
    each_step(env, -1)  # the finished game
    return steps


# Validating a view against the schema takes a few milliseconds per card shown (tens
# of them at a large table), so every view is built, checked for its counts and
# written as JSON at every step, and validated at the first and last steps (every
# viewer) and every ``stride`` steps (one viewer in turn).
@pytest.mark.parametrize("options", [{}, {"expansions": ("streaking",)}],
                         ids=["base", "streaking"])
@pytest.mark.parametrize(("num_players", "games", "stride"), [(2, 2, 4), (5, 1, 6), (9, 1, 15)])
def test_views_of_random_games_follow_the_schema_and_are_json(
        validator: jsonschema.Draft202012Validator, options: dict[str, Any],
        num_players: int, games: int, stride: int) -> None:
    validated: set[str] = set()

    def each_step(env: Any, step: int) -> None:
        viewers: list[Any] = [None, FULL]
        viewers += [s for s, a in enumerate(env.possible_agents) if a in env.agents]
        turn = viewers[step // stride % len(viewers)]
        public = _counts(env.table_view(None))
        for viewer in viewers:
            view = env.table_view(viewer)
            assert json.loads(json.dumps(view)) == view
            _consistent(view)
            assert _counts(view) == public, f"{view['viewer']} and the spectator disagree"
            if step in (0, -1) or (step % stride == 0 and viewer == turn):
                validator.validate(view)
                validated.add(view["viewer"])

    for seed in range(games):
        _play(num_players, options, seed, each_step)
    assert validated == {"spectator", "full", *(f"player_{s}" for s in range(num_players))}


@pytest.mark.parametrize("options", [{}, {"expansions": ("streaking",)}],
                         ids=["base", "streaking"])
@pytest.mark.parametrize("num_players", [2, 4])
def test_resampling_hidden_cards_changes_no_seat_view_nor_the_spectators(
        options: dict[str, Any], num_players: int) -> None:
    """The leak self-check: whatever a seat cannot know, dealt anew, leaves its table
    view and the spectator's as they were."""
    sample_rng = np.random.default_rng(7)
    changed = 0

    def each_step(env: Any, step: int) -> None:
        nonlocal changed
        if step < 0:
            return
        raw = env.unwrapped
        original = raw.game_state
        spectator = raw._table_view(None)
        for seat in range(num_players):
            seen = raw._table_view(seat)
            for _ in range(2):
                sample = GAME.resample_hidden(original, seat, sample_rng)
                changed += sample != original
                raw._replace_state(sample)
                try:
                    assert raw._table_view(seat) == seen, f"seat {seat}'s view leaks"
                    assert raw._table_view(None) == spectator, "the spectator's view leaks"
                finally:
                    raw._replace_state(original)

    for seed in range(2):
        _play(num_players, options, 100 + seed, each_step)
    assert changed > 0  # the check could fail
