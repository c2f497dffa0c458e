"""What each seat knows (docs/rules/README.md), read through the observation's named fields.

Scenarios are played with engine moves; observations are read by field name from
``encode(PlayerView(state, seat))``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ek_env import rules
from ek_env.encoding.encoding import OBSERVATION_SPEC, encode
from ek_env.engine.cards import CARD_BY_NAME
from ek_env.engine.state import (
    INSERT,
    NOPE_WINDOW,
    Config,
    Draw,
    Give,
    Insert,
    NameCard,
    Nope,
    Pass,
    PlayCard,
    PlayPair,
    PlayThree,
    State,
)
from ek_env.info.view import PlayerView

C = CARD_BY_NAME


def start(hands: list[list[str]], deck: list[str], first: int = 0, seed: int = 0,
          **options: Any) -> tuple[State, np.random.Generator]:
    rng = np.random.default_rng(seed)
    config = Config(num_players=len(hands), **options)
    state = rules.new_game(config, rng, {"hands": hands, "deck": deck, "first_player": first})
    return state, rng


def obs(state: State, seat: int) -> dict[str, np.ndarray]:
    return OBSERVATION_SPEC.unpack(encode(PlayerView(state, seat)))


def known_deck(state: State, seat: int) -> dict[int, str]:
    """{depth: card name} of the deck positions ``seat``'s observation shows."""
    field = obs(state, seat)["known_deck"]
    names = {v: k for k, v in C.items()}
    return {int(d): names[int(k)] for d, k in zip(*np.nonzero(field), strict=True)}


def known_hand(state: State, seat: int, offset: int) -> dict[str, int]:
    """{card name: count} ``seat`` knows to be in the hand of the seat ``offset`` clockwise."""
    names = {v: k for k, v in C.items()}
    row = obs(state, seat)["known_hands"][offset - 1]
    return {names[k]: int(row[k]) for k in np.flatnonzero(row)}


def play_and_pass(state: State, rng: np.random.Generator, move: Any) -> None:
    """The turn holder plays ``move``; everybody passes the Nope window."""
    rules.apply(state, move, rng)
    if state.phase != NOPE_WINDOW:
        return
    while state.phase == NOPE_WINDOW:
        rules.apply(state, Pass(), rng)


DECK3 = ["taco_cat", "skip", "exploding_kitten", "attack", "favor"]


def test_see_the_future_shows_the_top_three_to_its_player_only() -> None:
    state, rng = start([["see_the_future"], ["nope"]], DECK3)
    play_and_pass(state, rng, PlayCard(C["see_the_future"]))
    assert known_deck(state, 0) == {0: "taco_cat", 1: "skip", 2: "exploding_kitten"}
    assert known_deck(state, 1) == {}


def test_known_depths_shift_up_when_the_top_card_is_drawn() -> None:
    state, rng = start([["see_the_future"], ["nope"]], DECK3)
    play_and_pass(state, rng, PlayCard(C["see_the_future"]))
    rules.apply(state, Draw(), rng)  # seat 0 draws the taco cat
    assert known_deck(state, 0) == {0: "skip", 1: "exploding_kitten"}


def test_a_card_drawn_from_a_known_top_is_known_in_the_drawers_hand() -> None:
    state, rng = start([["see_the_future", "skip"], ["nope"]], DECK3)
    play_and_pass(state, rng, PlayCard(C["see_the_future"]))
    play_and_pass(state, rng, PlayCard(C["skip"]))  # seat 1 is next and draws the taco cat
    rules.apply(state, Draw(), rng)
    assert known_hand(state, 0, 1) == {"taco_cat": 1}
    assert known_deck(state, 0) == {0: "skip", 1: "exploding_kitten"}


def test_a_shuffle_makes_known_depths_stale() -> None:
    state, rng = start([["see_the_future", "shuffle"], ["nope"]], DECK3)
    play_and_pass(state, rng, PlayCard(C["see_the_future"]))
    play_and_pass(state, rng, PlayCard(C["shuffle"]))
    assert known_deck(state, 0) == {}


def test_own_defuse_insertion_is_known_and_others_knowledge_goes_stale() -> None:
    hands = [["defuse"], ["see_the_future"], ["nope"]]
    deck = ["exploding_kitten", "taco_cat", "skip", "attack", "exploding_kitten"]
    state, rng = start(hands, deck, first=1)
    play_and_pass(state, rng, PlayCard(C["see_the_future"]))
    assert known_deck(state, 1) == {0: "exploding_kitten", 1: "taco_cat", 2: "skip"}
    rules.apply(state, Draw(), rng)  # seat 1 has no Defuse: it explodes on the kitten
    assert not state.alive[1] and state.turn_holder == 2
    rules.apply(state, Draw(), rng)  # seat 2 draws the taco cat
    rules.apply(state, Draw(), rng)  # seat 0 draws the skip
    rules.apply(state, Draw(), rng)  # seat 2 draws the attack
    rules.apply(state, Draw(), rng)  # seat 0 draws the last kitten and defuses it
    assert state.phase == INSERT
    rules.apply(state, Insert(0), rng)
    assert known_deck(state, 0) == {0: "exploding_kitten"}
    assert known_deck(state, 2) == {}


def test_insertion_by_another_player_makes_my_known_depths_stale() -> None:
    hands = [["see_the_future"], ["defuse"]]
    deck = ["skip", "exploding_kitten", "taco_cat", "attack"]
    state, rng = start(hands, deck)
    play_and_pass(state, rng, PlayCard(C["see_the_future"]))
    rules.apply(state, Draw(), rng)  # seat 0 draws the skip
    rules.apply(state, Draw(), rng)  # seat 1 draws the kitten and defuses it
    assert known_deck(state, 0) == {0: "taco_cat"}
    rules.apply(state, Insert(2), rng)
    assert known_deck(state, 0) == {}
    assert known_deck(state, 1) == {2: "exploding_kitten"}


def test_a_favor_is_seen_by_giver_and_receiver_only() -> None:
    hands = [["favor"], ["cattermelon", "beard_cat"], ["nope"]]
    deck = ["taco_cat", "exploding_kitten", "exploding_kitten"]
    state, rng = start(hands, deck)
    play_and_pass(state, rng, PlayCard(C["favor"], 1))
    rules.apply(state, Give(C["beard_cat"]), rng)
    assert state.hands[0][C["beard_cat"]] == 1
    assert known_hand(state, 1, 2) == {"beard_cat": 1}  # seat 1 knows seat 0 (2 clockwise)
    assert known_hand(state, 2, 1) == {}  # seat 2 saw a card move, not which
    assert known_hand(state, 0, 1) == {}


def test_a_stolen_card_is_known_to_thief_and_victim_and_lowers_the_victims_bound() -> None:
    hands = [["taco_cat", "taco_cat", "favor"], ["skip", "skip"], ["nope"]]
    deck = ["attack", "exploding_kitten", "exploding_kitten"]
    state, rng = start(hands, deck)
    play_and_pass(state, rng, PlayCard(C["favor"], 1))
    rules.apply(state, Give(C["skip"]), rng)
    play_and_pass(state, rng, PlayPair(C["taco_cat"], 1))  # steals the other skip
    assert state.hands[0][C["skip"]] == 2
    assert known_hand(state, 1, 2) == {"skip": 2}


def test_third_party_forgets_a_hand_after_an_unseen_card_leaves_it() -> None:
    hands = [["taco_cat", "taco_cat"], ["skip"], ["favor", "cattermelon", "cattermelon"]]
    deck = ["attack", "exploding_kitten", "exploding_kitten"]
    state, rng = start(hands, deck, first=2)
    play_and_pass(state, rng, PlayCard(C["favor"], 1))
    rules.apply(state, Give(C["skip"]), rng)  # seat 1 -> seat 2: seat 1 knows seat 2 has a skip
    assert known_hand(state, 1, 1) == {"skip": 1}
    rules.apply(state, Draw(), rng)  # seat 2's turn ends
    play_and_pass(state, rng, PlayPair(C["taco_cat"], 2))  # seat 0 steals from seat 2 unseen by 1
    assert known_hand(state, 1, 1) == {}


def test_three_of_a_kind_hands_over_the_named_card_in_public() -> None:
    hands = [["skip", "skip", "skip"], ["attack"], ["nope"]]
    deck = ["taco_cat", "exploding_kitten", "exploding_kitten"]
    state, rng = start(hands, deck)
    rules.apply(state, PlayThree(C["skip"], 1), rng)
    play_and_pass(state, rng, NameCard(C["attack"]))
    assert state.hands[0][C["attack"]] == 1
    assert known_hand(state, 2, 1) == {"attack": 1}  # seat 2 saw it go to seat 0
    assert known_hand(state, 1, 2) == {"attack": 1}


def test_pending_play_with_nope_count_and_opener_is_public() -> None:
    hands = [["attack"], ["nope"], ["nope"]]
    deck = ["taco_cat", "exploding_kitten", "exploding_kitten"]
    state, rng = start(hands, deck)
    rules.apply(state, PlayCard(C["attack"]), rng)
    rules.apply(state, Nope(), rng)  # seat 1 Nopes; seat 2 is asked next
    for seat in range(3):
        view = obs(state, seat)
        assert view["pending_play"].tolist() == [1, 0, 0, 0]
        assert view["pending_card"][C["attack"]] == 1
        assert view["nopes"][0] == 1
        assert view["window_opener"][(1 - seat) % 3] == 1
        assert view["to_act"][(2 - seat) % 3] == 1


@pytest.mark.parametrize("holds_nope", [True, False])
def test_every_living_player_is_asked_in_a_nope_window(holds_nope: bool) -> None:
    hands = [["attack"], ["nope"] if holds_nope else ["skip"], ["taco_cat"]]
    deck = ["taco_cat", "exploding_kitten", "exploding_kitten"]
    state, rng = start(hands, deck)
    rules.apply(state, PlayCard(C["attack"]), rng)
    asked = []
    while state.phase == NOPE_WINDOW:
        asked.append(state.to_act)
        rules.apply(state, Pass(), rng)
    assert asked == [1, 2, 0]


def test_hand_sizes_deck_and_kittens_are_public_and_hands_private() -> None:
    state, _ = start([["defuse", "skip"], ["nope"]], ["taco_cat", "exploding_kitten"])
    me, other = obs(state, 0), obs(state, 1)
    assert me["hand_sizes"][:2].tolist() == [2, 1] and other["hand_sizes"][:2].tolist() == [1, 2]
    assert me["deck_size"][0] == other["deck_size"][0] == 2
    assert me["kittens_in_deck"][0] == 1
    assert me["my_hand"][C["skip"]] == 1 and other["my_hand"][C["skip"]] == 0
    assert me["seat_present"].tolist() == [1, 1] + [0] * 7


def test_resampling_a_state_no_rule_reaches_raises_and_shows_nothing() -> None:
    # Seat 0 has seen the whole draw pile, yet seat 1 holds an Exploding Kitten, which
    # the base game never lets a hand keep. No deal of seat 0's hidden cards fits, so
    # resampling must fail loudly rather than hand back the true state.
    state, rng = start([["skip"], ["taco_cat"]], ["beard_cat", "cattermelon", "exploding_kitten"])
    state.deck.remove(C["exploding_kitten"])
    state.hands[1][C["exploding_kitten"]] += 1
    state.sizes[1] += 1
    state.known_deck[0] = state.deck[::-1]
    before = state.clone()
    with pytest.raises(ValueError, match="no deal of the 2 cards hidden from seat 0 fits"):
        rules.resample_hidden(state, 0, rng)
    assert state == before
