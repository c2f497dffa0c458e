"""Scenarios: round 1 dealt as given, and malformed scenarios rejected clearly."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardgym.errors import ScenarioError
from phpets_env import env as make_plain_env
from phpets_env.engine.cards import NUM_CARDS, Card
from phpets_env.engine.state import Config, State
from phpets_env.positions.scenario import apply_scenario
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    HERMIT,
    JUGGLER,
    KING,
    NOT_A_PET,
    ROBOVAC,
    SHIELD,
    SNAKE,
    TRAPPER,
    aside_value,
    deck_top_first,
    hand,
    make_env,
    new,
    values,
)

# Two players: the 16 cards left after two hands, the set-aside card and the two
# face-up cards, in a chosen order (top first).
FULL_DECK_2P = [SNAKE, BOWL, TRAPPER, BUNNY, SHIELD, BOWL, DIGGER, BOWL, TRAPPER, BUNNY, SHIELD,
                BOWL, SNAKE, TRAPPER, BUNNY, BOWL]


def test_full_scenario_places_every_card() -> None:
    state, _ = new(2, {"hands": [KING, ROBOVAC], "set_aside": HERMIT,
                       "face_up": [NOT_A_PET, JUGGLER], "deck": FULL_DECK_2P, "first_player": 1})
    assert state.round_start == 1 == state.to_act
    assert hand(state, 0) == [KING]
    assert hand(state, 1) == [ROBOVAC, FULL_DECK_2P[0]]  # seat 1 drew the top card
    assert deck_top_first(state) == FULL_DECK_2P[1:]
    assert aside_value(state) == HERMIT
    assert values(state.face_up) == [NOT_A_PET, JUGGLER]
    assert state.round_number == 1 and state.tokens == [0, 0]


def test_deck_top_fixes_the_top_and_deals_the_rest_at_random() -> None:
    scenario = {"hands": [BOWL, BOWL, BOWL], "deck_top": [SNAKE, HERMIT, KING], "first_player": 2}
    piles = set()
    for seed in range(5):
        state, _ = new(3, scenario, seed=seed)
        assert hand(state, 2) == [BOWL, SNAKE]
        assert deck_top_first(state)[:2] == [HERMIT, KING]
        places = [*state.deck, state.aside, *(c for h in state.hands for c in h)]
        assert sorted(places) == list(range(NUM_CARDS))
        piles.add(tuple(deck_top_first(state)[2:]))
    assert len(piles) > 1  # the cards below the given top are shuffled


def test_a_whole_deck_deals_the_places_left_out_from_the_cards_left() -> None:
    """With ``deck`` (the whole pile) the hands and set-aside cards left out are dealt
    from the five cards the pile does not hold."""
    state, _ = new(2, {"deck": FULL_DECK_2P, "first_player": 0})
    assert deck_top_first(state) == FULL_DECK_2P[1:]
    unnamed = sorted([KING, ROBOVAC, HERMIT, NOT_A_PET, JUGGLER])
    held = [*values(state.hands[0][:1]), *values(state.hands[1]), aside_value(state),
            *values(state.face_up)]
    assert sorted(held) == unnamed


def test_a_short_deck_is_the_whole_pile_once_every_card_has_a_place() -> None:
    """A scenario may give a pile shorter than a new round's: the rows hold the rest."""
    state, _ = new(2, {"hands": [KING, ROBOVAC], "set_aside": HERMIT,
                       "face_up": [NOT_A_PET, JUGGLER], "deck": [SNAKE, BOWL],
                       "rows": [FULL_DECK_2P[2:9], FULL_DECK_2P[9:]], "first_player": 1})
    assert hand(state, 1) == [ROBOVAC, SNAKE] and deck_top_first(state) == [BOWL]
    assert values(state.rows[0]) == FULL_DECK_2P[2:9]


def test_tokens_scenario_key() -> None:
    state, _ = new(4, {"tokens": [1, 0, 1, 1]})
    assert state.tokens == [1, 0, 1, 1]
    assert state.token_supply == 4


@pytest.mark.parametrize("name", [1, Card.CRYSTAL_BOWL, "crystal_bowl", "Crystal Bowl",
                                  "Glazen Bol", np.int64(1)])
def test_cards_by_value_or_name(name: Any) -> None:
    state, _ = new(2, {"hands": [name, KING], "deck_top": [name], "first_player": 0})
    assert hand(state, 0) == [BOWL, BOWL]


BAD: list[tuple[str, int, dict[str, Any], str]] = [
    ("unknown key", 2, {"hand": [KING, BOWL]}, "unknown scenario keys"),
    ("not a mapping", 2, [KING, BOWL], "mapping"),
    ("too few hands", 3, {"hands": [KING, BOWL]}, "one hand for each of the 3 seats"),
    ("too many hands", 2, {"hands": [KING, BOWL, BOWL]}, "one hand for each of the 2 seats"),
    ("two cards in a hand", 2, {"hands": [[KING, BOWL], BOWL]}, "exactly one card"),
    ("unknown card", 2, {"hands": [KING, "dragon"]}, "unknown card 'dragon'"),
    ("too many copies", 2, {"hands": [KING, KING]}, "card 10 2 times; the deck has 1"),
    ("too many copies over keys", 3,
     {"hands": [SNAKE, BOWL, BOWL], "deck_top": [SNAKE], "set_aside": SNAKE}, "card 5 3 times"),
    ("first_player too large", 3, {"first_player": 3}, "first_player must be a seat 0..2"),
    ("first_player negative", 3, {"first_player": -1}, "first_player must be a seat 0..2"),
    ("first_player not an int", 3, {"first_player": "0"}, "first_player must be a seat 0..2"),
    ("first_player a bool", 3, {"first_player": True}, "first_player must be a seat 0..2"),
    ("tokens at the target", 2, {"tokens": [3, 0]}, "won at 3"),
    ("tokens at the target, 4p", 4, {"tokens": [0, 2, 0, 0]}, "won at 2"),
    ("tokens wrong length", 3, {"tokens": [1, 1]}, "tokens must list 3 counts"),
    ("tokens negative", 2, {"tokens": [-1, 0]}, "tokens must list 2 counts"),
    ("tokens not a list", 2, {"tokens": 2}, "tokens must list 2 counts"),
    ("cards left without a place", 2, {"hands": [KING, BOWL], "set_aside": BOWL,
                                       "face_up": [BOWL, BOWL], "deck": [SNAKE]},
     "'deck' is the whole draw pile, so every card needs a place: the scenario names 6 of "
     "the 21 cards and leaves 0 places"),
    ("too few cards for the places left", 2, {"deck": FULL_DECK_2P + [KING]},
     "'deck' is the whole draw pile, so every card needs a place"),
    ("deck and deck_top", 2, {"deck": FULL_DECK_2P, "deck_top": [BOWL]}, "not both"),
    ("face_up with three players", 3, {"face_up": [BOWL, BOWL]}, "face_up must hold 0 cards"),
    ("one face_up card", 2, {"face_up": [BOWL]}, "face_up must hold 2 cards"),
    ("deck_top longer than the pile", 2,
     {"deck_top": [BOWL] * 5 + [TRAPPER] * 3 + [BUNNY] * 3 + [SHIELD] * 2 + [SNAKE] * 2
      + [DIGGER, JUGGLER]}, "16"),
]


@pytest.mark.parametrize(("num_players", "scenario", "message"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_bad_scenario_raises_a_helpful_error(
    num_players: int, scenario: Any, message: str
) -> None:
    with pytest.raises(ScenarioError, match=message):
        new(num_players, scenario)


def test_a_scenario_is_checked_whole_before_anything_is_dealt() -> None:
    state, rng = State(Config(num_players=3)), np.random.default_rng(0)
    before = state.clone()
    # The hands are fine; the tokens, checked last, are not.
    with pytest.raises(ScenarioError, match="tokens must list 3 counts"):
        apply_scenario(state, {"hands": [KING, BOWL, BOWL], "tokens": [9, 0, 0]}, rng)
    assert state == before
    assert rng.random() == np.random.default_rng(0).random()  # no randomness drawn


def test_failed_env_reset_raises_and_a_good_reset_still_works() -> None:
    game = make_plain_env(num_players=3)
    with pytest.raises(ScenarioError, match="one hand for each of the 3 seats"):
        game.reset(seed=0, options={"scenario": {"hands": [KING]}})
    game = make_env(3, {"hands": [KING, BOWL, BOWL], "first_player": 1})
    assert game.agent_selection == "player_1"
