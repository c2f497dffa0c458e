"""What each seat may know with Streaking Kittens (docs/rules/README.md, §4), through the env.

The observation, the action mask and being asked at all are functions of a seat's
own information: a blind seat cannot see its unmarked cards, a kept kitten is not
shown, marked cards and blindness are public, Alter the Future's order and the card
a seat puts in with Garbage Collection are private.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ek_env import rules
from ek_env.encoding.encoding import encode, legal_action_mask
from ek_env.engine.invariants import check_invariants
from ek_env.engine.state import GAME_OVER, Config, Draw
from ek_env.info.view import PlayerView
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    FAVOR,
    KITTEN,
    MELON,
    NOPE,
    SHUFFLE,
    SKIP,
    TACO,
)
from tests.ek_env.streaking_helpers import (
    SK,
    STREAKING,
    act,
    agent,
    fields,
    legal_names,
    pass_env_window,
    senv,
    smake,
)


def snapshot(game: Any) -> dict[str, Any]:
    """Every seat's observation and mask, and who is to act."""
    out: dict[str, Any] = {"to_act": game.agent_selection}
    for seat in range(game.num_players):
        observed = game.observe(agent(seat))
        out[f"obs{seat}"] = observed["observation"].tobytes()
        out[f"mask{seat}"] = observed["action_mask"].tobytes()
    return out


def seat_view(game: Any, seat: int) -> tuple[bytes, bytes]:
    observed = game.observe(agent(seat))
    return observed["observation"].tobytes(), observed["action_mask"].tobytes()


# Pairs of hands for the blind seat 1: same size, different unmarked cards.
BLIND_HANDS = [
    (["taco_cat", "skip", "nope", "favor"], ["defuse", "attack", "beard_cat", "taco_cat"]),
    (["nope", "nope", "nope"], ["cattermelon", "cattermelon", "cattermelon"]),
    (["attack", "skip", "favor", "shuffle", "taco_cat"], ["defuse"] * 5),
    (["mark", "curse_of_the_cat_butt"], ["catomic_bomb", "super_skip"]),
]
OTHERS = (["skip", "see_the_future"], ["shuffle"])
DECK = ["taco_cat", "exploding_kitten", "beard_cat", "exploding_kitten"]


@pytest.mark.parametrize(("hand_a", "hand_b"), BLIND_HANDS)
def test_a_blind_seat_on_its_turn_sees_nothing_of_its_cards(hand_a: list[str],
                                                            hand_b: list[str]) -> None:
    games = [senv([OTHERS[0], hand, OTHERS[1]], DECK, first=1, blind=[1])
             for hand in (hand_a, hand_b)]
    assert snapshot(games[0]) == snapshot(games[1])
    assert legal_names(games[0]) == {"draw", "blind:play"}
    mine = fields(games[0], 1)
    assert not mine["my_hand"].any()
    assert mine["hand_sizes"][0] == len(hand_a)


@pytest.mark.parametrize(("hand_a", "hand_b"), BLIND_HANDS)
def test_a_blind_seat_is_asked_in_a_nope_window_whatever_it_holds(hand_a: list[str],
                                                                  hand_b: list[str]) -> None:
    games = [senv([OTHERS[0], hand, OTHERS[1]], DECK, first=0, blind=[1])
             for hand in (hand_a, hand_b)]
    for game in games:
        act(game, "play:skip")
    assert games[0].agent_selection == agent(1)
    assert snapshot(games[0]) == snapshot(games[1])
    assert legal_names(games[0]) == legal_names(games[1]) == {"blind:nope", "pass"}
    asked = [pass_env_window(game) for game in games]
    assert asked[0] == asked[1] == [1, 2, 0]
    assert snapshot(games[0]) == snapshot(games[1])


def test_a_held_kitten_does_not_change_a_blind_seats_view() -> None:
    # Kittens in play are public (one per player at setup, less those gone); where they
    # are is not: in the deck, or held beside the Streaking Kitten.
    a = senv([OTHERS[0], ["streaking_kitten", "exploding_kitten", "taco_cat"], OTHERS[1]],
             ["beard_cat", "exploding_kitten", "cattermelon"], first=1, blind=[1])
    b = senv([OTHERS[0], ["skip", "skip", "skip"], OTHERS[1]],
             ["exploding_kitten", "exploding_kitten", "cattermelon"], first=1, blind=[1])
    assert snapshot(a) == snapshot(b)


def test_a_blind_seat_sees_its_marked_cards_only() -> None:
    game = senv([OTHERS[0], ["taco_cat", "skip", "skip"], OTHERS[1]], DECK, first=1,
                blind=[1], marked_cards=[[], ["skip"], []])
    mine = fields(game, 1)["my_hand"]
    assert mine[SKIP] == 1 and mine.sum() == 1
    other = senv([OTHERS[0], ["beard_cat", "skip", "nope"], OTHERS[1]], DECK, first=1,
                 blind=[1], marked_cards=[[], ["skip"], []])
    assert snapshot(game) == snapshot(other)


def test_marked_cards_are_visible_to_every_seat() -> None:
    game = senv([["taco_cat"], ["beard_cat", "skip"], ["nope"]], DECK, first=0,
                marked_cards=[[], ["skip"], []])
    for seat in range(3):
        row = fields(game, seat)["marked"][(1 - seat) % 3]
        assert row[SKIP] == 1 and row.sum() == 1
    # Unmarked cards stay hidden: seat 2's view is the same if the other card differs.
    other = senv([["taco_cat"], ["attack", "skip"], ["nope"]], DECK, first=0,
                 marked_cards=[[], ["skip"], []])
    assert seat_view(game, 2) == seat_view(other, 2)
    assert seat_view(game, 0) == seat_view(other, 0)


def test_a_mark_played_in_the_env_shows_the_card_to_all() -> None:
    game = senv([["mark"], ["skip"], ["nope"]], DECK, first=0)
    act(game, "play:mark:+1")
    pass_env_window(game)
    for seat in range(3):
        row = fields(game, seat)["marked"][(1 - seat) % 3]
        assert row[SKIP] == 1


def test_blindness_is_public() -> None:
    game = senv([["curse_of_the_cat_butt"], ["skip"], ["nope"]], DECK, first=0)
    act(game, "play:curse_of_the_cat_butt:+2")
    pass_env_window(game)
    for seat in range(3):
        blind = fields(game, seat)["blind"]
        assert blind[(2 - seat) % 3] == 1 and blind.sum() == 1


def test_a_kept_kitten_is_invisible_to_the_other_seats() -> None:
    hands = [["streaking_kitten", "taco_cat"], ["nope"], ["favor"]]
    a = senv(hands, ["exploding_kitten", "beard_cat", "exploding_kitten"], first=0)
    b = senv(hands, ["beard_cat", "exploding_kitten", "exploding_kitten"], first=0)
    kittens_before = fields(a, 1)["kittens_in_deck"][0]
    for game in (a, b):
        act(game, "draw")
    assert a.game_state.hands[0][KITTEN] == 1 and b.game_state.hands[0][KITTEN] == 0
    for seat in (1, 2):
        assert seat_view(a, seat) == seat_view(b, seat)
    assert fields(a, 1)["kittens_in_deck"][0] == kittens_before
    assert fields(a, 0)["my_hand"][KITTEN] == 1  # the holder knows


def test_a_seat_that_saw_the_kitten_on_top_knows_who_keeps_it() -> None:
    # docs/rules/README.md: seat 1 saw the top card; when seat 0 draws it and it is not shown,
    # seat 1 still knows where it went. Seat 2 does not.
    state, rng = smake([[SK, TACO], [SKIP], [SKIP]], [KITTEN, TACO, KITTEN], first=0)
    state.known_deck[1] = [KITTEN]
    rules.apply(state, Draw(), rng)
    assert state.hands[0][KITTEN] == 1
    assert PlayerView(state, 1).known_hand(0)[KITTEN] == 1
    assert PlayerView(state, 2).known_hand(0)[KITTEN] == 0


ALTER_DECK = ["taco_cat", "exploding_kitten", "beard_cat", "cattermelon", "skip", "attack"]


def test_alter_the_future_order_is_known_to_its_player_only() -> None:
    orders = (["exploding_kitten", "taco_cat", "beard_cat", "cattermelon"],
              ["skip", "cattermelon", "beard_cat", "taco_cat"])
    games = []
    for order in orders:
        game = senv([["alter_the_future_5x"], ["nope"], ["favor"]], ALTER_DECK, first=0)
        act(game, "play:alter_the_future_5x")
        pass_env_window(game)
        cards_to_place = fields(game, 0)["alter_cards"]
        assert cards_to_place.sum() == 5
        assert not fields(game, 1)["alter_cards"].any()
        for card in order:
            act(game, f"alter:{card}")
        games.append(game)
    for seat in (1, 2):
        assert seat_view(games[0], seat) == seat_view(games[1], seat)
    assert seat_view(games[0], 0) != seat_view(games[1], 0)
    known0 = fields(games[0], 0)["known_deck"]
    assert known0[0][KITTEN] == 1 and known0[1][TACO] == 1


def test_alter_the_future_cards_are_hidden_from_the_others_while_placed() -> None:
    other_deck = ["attack", "skip", "cattermelon", "exploding_kitten", "taco_cat", "beard_cat"]
    games = []
    for deck in (ALTER_DECK, other_deck):
        game = senv([["alter_the_future_5x"], ["nope"], ["favor"]], deck, first=0)
        act(game, "play:alter_the_future_5x")
        pass_env_window(game)
        games.append(game)
    for seat in (1, 2):
        assert seat_view(games[0], seat) == seat_view(games[1], seat)


def test_the_card_put_in_by_garbage_collection_is_private() -> None:
    games = []
    for choice in ("taco_cat", "beard_cat"):
        game = senv([["garbage_collection", "skip"], ["taco_cat", "beard_cat"], ["cattermelon"]],
                    ["attack", "exploding_kitten", "favor"], first=0)
        act(game, "play:garbage_collection")
        pass_env_window(game)
        for name in ("garbage:skip", f"garbage:{choice}", "garbage:cattermelon"):
            act(game, name)
        games.append(game)
    for seat in (0, 2):
        assert seat_view(games[0], seat) == seat_view(games[1], seat)


def test_a_favor_received_blind_is_seen() -> None:
    game = senv([["favor"], ["attack"], ["nope"]], DECK, first=0, blind=[0])
    act(game, "blind:play")
    act(game, "target:+1")
    pass_env_window(game)
    act(game, "give:attack")
    mine = fields(game, 0)["my_hand"]
    assert mine[ATTACK] == 1 and mine.sum() == 1
    assert game.game_state.blind[0]


def test_mask_of_a_blind_seat_never_depends_on_its_cards_over_random_hands() -> None:
    # Random same-size hands for the blind seat: the whole table's view is unchanged.
    rng = np.random.default_rng(5)
    names = ["defuse", "attack", "skip", "favor", "shuffle", "see_the_future", "nope",
             "taco_cat", "cattermelon", "mark", "super_skip", "garbage_collection"]
    reference = None
    for _ in range(6):
        hand = [str(name) for name in rng.choice(names, size=4, replace=False)]
        game = senv([OTHERS[0], hand, OTHERS[1]], DECK, first=1, blind=[1])
        if reference is None:
            reference = snapshot(game)
        assert snapshot(game) == reference


# ------------------------------------------------- determinisation (search agents)


def _same_view(a: Any, b: Any, seat: int) -> bool:
    return bool(np.array_equal(encode(PlayerView(a, seat)), encode(PlayerView(b, seat))))


def test_resample_does_not_depend_on_where_a_held_kitten_is() -> None:
    # Seat 0 cannot tell A from B: seat 1's hand and the deck trade cards.
    a, _ = smake([[SKIP, FAVOR], [SK, KITTEN, TACO], [NOPE]], [BEARD, SKIP, MELON, KITTEN],
                 first=0)
    b, _ = smake([[SKIP, FAVOR], [BEARD, SKIP, MELON], [NOPE]], [SK, KITTEN, TACO, KITTEN],
                 first=0)
    assert _same_view(a, b, 0)
    for seed in range(6):
        ra = rules.resample_hidden(a, 0, np.random.default_rng(seed))
        rb = rules.resample_hidden(b, 0, np.random.default_rng(seed))
        assert ra == rb
        check_invariants(ra)
        assert _same_view(ra, a, 0)


def test_resample_for_a_blind_seat_deals_its_own_hand_anew() -> None:
    a, _ = smake([[SKIP, FAVOR], [ATTACK, TACO, MELON], [NOPE]], [BEARD, SHUFFLE, KITTEN],
                 first=1, blind=[1])
    b, _ = smake([[SKIP, FAVOR], [BEARD, SHUFFLE, MELON], [NOPE]], [ATTACK, TACO, KITTEN],
                 first=1, blind=[1])
    assert _same_view(a, b, 1)
    assert legal_action_mask(a) == legal_action_mask(b)
    hands = set()
    for seed in range(8):
        ra = rules.resample_hidden(a, 1, np.random.default_rng(seed))
        rb = rules.resample_hidden(b, 1, np.random.default_rng(seed))
        assert ra == rb
        assert _same_view(ra, a, 1)
        hands.add(tuple(ra.hands[1]))
    assert len(hands) > 1


@pytest.mark.parametrize("deck", [[], [TACO, BEARD, MELON]], ids=["empty deck", "deck all seen"])
def test_resample_with_a_secret_kitten_and_no_unseen_deck_card(deck: list[int]) -> None:
    # Seat 0 knows every card of the draw pile (there is none, or it saw them all); a
    # kitten is held with the Streaking Kitten by seat 1 (A) or seat 2 (B). Seat 0
    # cannot tell which, so its determinisation must not depend on it either (docs/rules/README.md; ek_env.info.hidden: "the deal depends only on the seat's information").
    a, _ = smake([[SKIP], [SK, KITTEN], [ATTACK, SHUFFLE]], deck, first=0)
    b, _ = smake([[SKIP], [ATTACK, SHUFFLE], [SK, KITTEN]], deck, first=0)
    for state in (a, b):
        state.known_deck[0] = list(deck)
    assert _same_view(a, b, 0)
    for seed in range(4):
        ra = rules.resample_hidden(a, 0, np.random.default_rng(seed))
        rb = rules.resample_hidden(b, 0, np.random.default_rng(seed))
        check_invariants(ra)
        assert _same_view(ra, a, 0)
        assert ra == rb


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_views_and_masks_depend_on_information_only(players: int) -> None:
    """Random expansion games: at every decision the seat to act sees the same
    observation and mask in a state resampled from its information; a blind seat is
    only offered blind moves."""
    from ek_env.engine.state import NOPE_WINDOW, PLAY, Pass
    from tests.ek_env.streaking_helpers import BlindNope, BlindPlay

    for game_seed in range(16):
        rng = np.random.default_rng(100 * players + game_seed)
        config = Config(num_players=players, hand_size=4, **STREAKING)
        state = rules.new_game(config, rng, None)
        for _ in range(600):
            if state.phase == GAME_OVER:
                break
            check_invariants(state)
            seat = state.to_act
            legal = rules.legal_moves(state)
            if state.blind[seat] and state.phase == PLAY:
                assert set(legal) <= {Draw(), BlindPlay()}
            if state.blind[seat] and state.phase == NOPE_WINDOW:
                assert set(legal) <= {BlindNope(), Pass()}
            other = rules.resample_hidden(state, seat, np.random.default_rng(game_seed))
            check_invariants(other)
            assert _same_view(other, state, seat)
            assert legal_action_mask(other) == legal_action_mask(state)
            watcher = int(rng.integers(players))  # and a seat that is not deciding
            other = rules.resample_hidden(state, watcher, np.random.default_rng(game_seed))
            assert _same_view(other, state, watcher)
            move = legal[int(rng.integers(len(legal)))]
            rules.apply(state, move, rng)


def test_a_blind_seat_sees_its_whole_hand_again_after_a_safe_draw() -> None:
    game = senv([["taco_cat", "skip", "nope"], ["attack"], ["favor"]],
                ["beard_cat", "exploding_kitten", "exploding_kitten"], first=0, blind=[0])
    assert fields(game, 0)["my_hand"].sum() == 0
    act(game, "draw")
    mine = fields(game, 0)["my_hand"]
    assert mine.sum() == 4 and mine[TACO] == mine[SKIP] == mine[NOPE] == mine[BEARD] == 1
    for seat in range(3):
        assert not fields(game, seat)["blind"].any()
