"""The Kuhn poker table view (cardgym.table, kuhn_poker.table), from the rules: each
seat sees its own card face up and the other's face down until a showdown shows both;
a fold shows nothing; the third card stays out of play face down; every chip put in
is public."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import jsonschema
import numpy as np
import pytest
from kuhn_poker import GAME, env
from kuhn_poker.table import TABLE

from cardgym.table_schema import schema

VIEWERS: tuple[Any, ...] = (0, 1, None, "full")
#: Every line of betting, to the end of the hand.
LINES = [["check", "check"], ["bet", "call"], ["bet", "fold"], ["check", "bet", "call"],
         ["check", "bet", "fold"]]
DEALS = [[a, b] for a in ("jack", "queen", "king") for b in ("jack", "queen", "king") if a != b]


def hand_of(cards: list[str], moves: Sequence[str] = (), **options: Any) -> Any:
    """An env dealt ``cards`` (seat 0's, seat 1's) after ``moves``."""
    game = env(**options)
    game.reset(options={"scenario": {"cards": cards}})
    for name in moves:
        game.step(game.action_index(name))
    return game


def cards_seen(view: dict[str, Any]) -> list[str | None]:
    """Each seat's card as the view shows it (None: face down)."""
    out = []
    for seat in view["seats"]:
        assert seat["hand"]["count"] == 1
        card = seat["hand"]["cards"][0]
        out.append(None if card is None else card["id"])
    return out


def out_of_play(view: dict[str, Any]) -> list[str | None]:
    (heap,) = view["piles"]
    assert heap["name"] == "out" and heap["count"] == 1
    return [None if card is None else card["id"] for card in heap["cards"]]


def test_my_card_is_face_up_and_the_other_face_down_while_betting() -> None:
    game = hand_of(["king", "jack"], ["check"])
    assert cards_seen(game.table_view(0)) == ["king", None]
    assert cards_seen(game.table_view(1)) == [None, "jack"]
    assert cards_seen(game.table_view(None)) == [None, None]
    assert cards_seen(game.table_view("full")) == ["king", "jack"]
    assert "player_1 holds the Jack or the Queen" in game.table_view(0)["notes"]
    assert "player_0 holds the Queen or the King" in game.table_view(1)["notes"]
    assert [out_of_play(game.table_view(v)) for v in VIEWERS] == [[None], [None], [None],
                                                                  ["queen"]]


@pytest.mark.parametrize("line", [["check", "check"], ["bet", "call"], ["check", "bet", "call"]])
def test_a_showdown_shows_both_cards_to_everyone(line: list[str]) -> None:
    game = hand_of(["queen", "king"], line)
    for viewer in VIEWERS:
        view = game.table_view(viewer)
        assert cards_seen(view) == ["queen", "king"], viewer
        assert view["over"] and view["phase"] == "over"
        assert view["result"]["winners"] == ["player_1"]
        assert out_of_play(view) == (["jack"] if viewer == "full" else [None])
    chips = 2 if "call" in line else 1
    status = game.table_view(1)["status"]
    assert status == f"Over: you win {chips} chip{'s' * (chips > 1)} at the showdown"
    assert [s["status"] for s in game.table_view(None)["seats"]] == [
        f"lost {chips} chip{'s' * (chips > 1)}", f"won {chips} chip{'s' * (chips > 1)}"]


def test_a_fold_shows_no_card() -> None:
    game = hand_of(["jack", "king"], ["bet", "fold"])
    assert cards_seen(game.table_view(0)) == ["jack", None]
    assert cards_seen(game.table_view(1)) == [None, "king"]
    assert cards_seen(game.table_view(None)) == [None, None]
    view = game.table_view(None)
    assert view["status"] == "Over: player_0 wins 1 chip after a fold"
    assert [s["marks"] for s in view["seats"]] == [[], ["folded"]]
    assert [s["status"] for s in view["seats"]] == ["won 1 chip", "lost 1 chip"]


@pytest.mark.parametrize(("ante", "moves", "chips"), [
    (1, [], [1, 1]), (1, ["bet"], [2, 1]), (1, ["check", "bet", "call"], [2, 2]),
    (2, ["bet"], [3, 2]), (2, ["bet", "fold"], [3, 2])])
def test_the_chips_put_in_are_each_seats_score(ante: int, moves: list[str],
                                                 chips: list[int]) -> None:
    game = hand_of(["jack", "queen"], moves, ante=ante)
    for viewer in VIEWERS:
        view = game.table_view(viewer)
        assert [s["score"] for s in view["seats"]] == [
            {"label": "chips put in", "value": c} for c in chips]
        assert view["notes"][0].startswith(f"The pot holds {sum(chips)} chips")


def test_the_moves_are_labelled_for_the_seat_to_act() -> None:
    game = hand_of(["jack", "queen"])
    assert [m["label"] for m in game.table_view(0)["legal_moves"]] == ["check", "bet 1 chip"]
    assert game.table_view(1)["legal_moves"] == []
    game.step(game.action_index("bet"))
    assert [m["label"] for m in game.table_view(1)["legal_moves"]] == ["call", "fold"]
    assert game.table_view(0)["status"] == "Betting: player_1 to act"
    assert [s["status"] for s in game.table_view(0)["seats"]] == ["bet 1 chip", "no move yet"]


def test_every_view_of_every_hand_fits_the_schema_and_is_json() -> None:
    validator = jsonschema.Draft202012Validator(
        schema(GAME.title, GAME.name, TABLE, GAME.player_counts))
    checked = 0
    for cards in DEALS:
        for line in LINES:
            for end in range(len(line) + 1):
                game = hand_of(cards, line[:end])
                for viewer in VIEWERS:
                    view = game.table_view(viewer)
                    validator.validate(view)
                    assert json.loads(json.dumps(view)) == view
                    checked += 1
    assert checked == len(DEALS) * sum(len(line) + 1 for line in LINES) * len(VIEWERS)


def test_resampling_what_a_seat_cannot_see_leaves_its_view_and_the_spectators() -> None:
    rng = np.random.default_rng(0)
    changed = 0
    for seed in range(30):
        game = env()
        game.reset(seed=seed)
        unwrapped = game.unwrapped
        while not unwrapped.game_state.over:
            original = unwrapped.game_state
            spectator, full = game.table_view(None), game.table_view("full")
            for seat in (0, 1):
                mine = game.table_view(seat)
                for _ in range(3):
                    unwrapped._replace_state(GAME.resample_hidden(original, seat, rng))
                    try:
                        assert game.table_view(seat) == mine, (seed, seat)
                        assert game.table_view(None) == spectator, (seed, seat)
                        changed += game.table_view("full") != full
                    finally:
                        unwrapped._replace_state(original)
            game.step(int(rng.choice(game.legal_actions())))
    assert changed > 0, "no sample changed the full view: the check could not fail"
