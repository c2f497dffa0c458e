"""What each seat may know (docs/rules/README.md): pending bids are invisible to every other
seat until all are in; hands are public; observations are seat-relative."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from kakelaar_env import rules
from kakelaar_env.encoding.encoding import OBSERVATION_SPEC, encode
from kakelaar_env.engine.cards import parse_card
from kakelaar_env.info.view import PlayerView
from tests.kakelaar_env.helpers import fields, make_env, run_stage


def changed_fields(before: dict, after: dict) -> list[str]:
    return [name for name in before if not np.array_equal(before[name], after[name])]


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_seat_a_pending_bid_changes_nothing_in_seat_b_observation(num_players: int) -> None:
    """Seat 0 (the tractor holder) bids first. Whatever it bids, every other seat's
    observation, mask and turn are the same; against the moment before, only the
    public `to_act` moved on."""
    base = make_env(num_players, {"tractor": 0}, seed=4)
    others = range(1, num_players)
    before = {s: fields(base, s) for s in others}
    results = []
    for bid in ["c3", "c4", "c5", "c6", "c7"]:
        game = pickle.loads(pickle.dumps(base))
        game.step(game.action_index(f"bid:{'chicken_' + bid[1]}"))
        assert game.game_state.bids[0] == parse_card(bid)
        seen = {s: game.observe(f"player_{s}") for s in others}
        results.append((game.agent_selection, seen))
        for s in others:
            after = OBSERVATION_SPEC.unpack(seen[s]["observation"])
            assert changed_fields(before[s], after) == ["to_act"], (bid, s)
    first_agent, first_seen = results[0]
    for agent, seen in results[1:]:
        assert agent == first_agent
        for s in others:
            assert np.array_equal(seen[s]["observation"], first_seen[s]["observation"])
            assert np.array_equal(seen[s]["action_mask"], first_seen[s]["action_mask"])


def test_the_bidder_sees_its_own_pending_bid() -> None:
    game = make_env(3, {"tractor": 0})
    game.step(game.action_index("bid:chicken_6"))
    mine = fields(game, 0)
    assert mine["my_bid"][parse_card("c6")] == 1 and mine["my_bid"].sum() == 1
    assert mine["my_hand"][parse_card("c6")] == 1  # still in hand until the reveal
    assert fields(game, 1)["my_bid"].sum() == 0


def test_bids_are_revealed_together_when_the_last_is_in() -> None:
    game = make_env(3, {"tractor": 0, "deck_top": ["w8", "w5", "w1"]})
    game.step(game.action_index("bid:chicken_7"))
    game.step(game.action_index("bid:chicken_3"))
    assert fields(game, 2)["last_bids"].sum() == 0
    game.step(game.action_index("bid:chicken_4"))
    last = fields(game, 2)["last_bids"]
    assert last[1][parse_card("c7")] == 1 and last[2][parse_card("c3")] == 1
    assert last[0][parse_card("c4")] == 1


def test_resampling_hidden_information_changes_pending_bids_but_no_observation() -> None:
    game = make_env(4, {"tractor": 0}, seed=2)
    game.step(game.action_index("bid:chicken_3"))
    game.step(game.action_index("bid:chicken_7"))
    state = game.game_state
    rng = np.random.default_rng(0)
    seen_bids = set()
    for _ in range(40):
        other = rules.resample_hidden(state, 2, rng)
        seen_bids.add(tuple(other.bids))
        for view_seat in (2, 3):
            assert np.array_equal(encode(PlayerView(state, view_seat)),
                                  encode(PlayerView(other, view_seat)))
        assert other.deck != state.deck or other.removed != state.removed
    assert len(seen_bids) > 1  # seats 0 and 1's bids were dealt anew


def test_hands_are_public_and_observations_are_seat_relative() -> None:
    game = make_env(3, {"tractor": 0, "deck_top": ["w8", "w5", "w1"]})
    run_stage(game, {0: "c3", 1: "c7", 2: "c5"})  # seat 1 takes the 8, seat 2 the 5
    seen_by_2 = fields(game, 2)
    # From seat 2: +1 is seat 0, +2 is seat 1.
    assert seen_by_2["opponent_hands"][1][parse_card("w8")] == 1
    assert seen_by_2["opponent_hands"][0][parse_card("w1")] == 1
    assert seen_by_2["scores"].tolist() == [5, 1, 8, 0, 0]
    assert seen_by_2["hand_sizes"].tolist() == [5, 5, 5, 0, 0]
    assert seen_by_2["seat_present"].tolist() == [1, 1, 1, 0, 0]
    assert seen_by_2["discards"][2][parse_card("c7")] == 1
    seen_by_1 = fields(game, 1)
    assert seen_by_1["scores"].tolist() == [8, 5, 1, 0, 0]
    assert seen_by_1["my_hand"][parse_card("w8")] == 1


def test_unseen_cards_and_draw_pile_are_counts_only() -> None:
    game = make_env(4, {"tractor": 0}, seed=5)
    seen = fields(game, 0)
    state = game.game_state
    assert seen["draw_pile"][0] == 32
    assert seen["unseen"].sum() == 32 + 9  # the draw pile and the 9 removed cards
    assert seen["row"].sum() == 4
    shuffled = rules.resample_hidden(state, 0, np.random.default_rng(1))
    assert shuffled.deck != state.deck
    assert np.array_equal(encode(PlayerView(shuffled, 0)), encode(PlayerView(state, 0)))


@pytest.mark.parametrize(("first_holder", "round_", "expected_seat0", "expected_seat1"), [
    # (round-1 holder, round, tie ranks [me, other, robot] for seat 0 and for seat 1)
    (0, 1, [1, 2, 3], [2, 1, 3]),
    (0, 3, [2, 3, 1], [3, 2, 1]),
    (1, 3, [3, 2, 1], [2, 3, 1]),
    (1, 2, [1, 3, 2], [3, 1, 2]),
])
def test_two_player_tie_order_is_public_even_when_the_robot_holds_the_tractor(
    first_holder: int, round_: int, expected_seat0: list[int], expected_seat1: list[int]
) -> None:
    game = make_env(2, {"circle": [first_holder, 1 - first_holder, 2], "round": round_})
    for seat, expected in ((0, expected_seat0), (1, expected_seat1)):
        ranks = fields(game, seat)["tie_rank"]
        assert [int(ranks[0]), int(ranks[1]), int(ranks[5])] == expected
        assert not ranks[2:5].any()
