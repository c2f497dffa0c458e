"""Rounds: distribution by rank, every tie through the tractor, the robot chicken,
bidding nothing, and the tractor moving on."""

from __future__ import annotations

import numpy as np
import pytest

from kakelaar_env.engine.cards import parse_card
from kakelaar_env.engine.state import BID, HEN_STAGE
from tests.kakelaar_env.helpers import fields, hand, make_env, names, pile, run_stage

ROW5 = ["w8", "w7", "w6", "w5", "w4"]


def test_highest_bid_takes_position_one_and_so_on() -> None:
    game = make_env(3, {"tractor": 0, "deck_top": ["w8", "w5", "w1"]})
    asked = run_stage(game, {0: "c3", 1: "c7", 2: "c5"})
    state = game.game_state
    assert asked == [0, 1, 2]
    assert "worm_8" in hand(state, 1) and "worm_5" in hand(state, 2) and "worm_1" in hand(state, 0)
    assert pile(state, 0) == ["chicken_3"] and pile(state, 1) == ["chicken_7"]
    assert "chicken_7" not in hand(state, 1)
    # The bids are public once revealed: seat 2 sees seat 1's bid as its opponent +2.
    last = fields(game, 2)["last_bids"]
    assert last[2][parse_card("c7")] == 1 and last[0][parse_card("c5")] == 1


def test_worms_bid_with_their_value_above_and_below_chickens() -> None:
    game = make_env(3, {"round": 2, "tractor": 1, "hands": [["w8", "c3"], ["w1", "c7"], ["c4"]],
                        "deck_top": ["w6", "w5", "w4"]})
    run_stage(game, {2: "c4", 0: "w8", 1: "w1"})  # round 2: seat 1 holds the tractor
    state = game.game_state
    assert hand(state, 0) == names("w6", "c3")
    assert hand(state, 2) == names("w5")
    assert hand(state, 1) == names("w4", "c7")
    assert pile(state, 0) == names("w8") and pile(state, 1) == names("w1")


# (players, tractor holder, bids by seat, expected ranking of seats)
TIES = [
    (3, 0, ["c5", "c5", "c5"], [0, 1, 2]),
    (3, 1, ["c5", "c5", "c5"], [1, 2, 0]),
    (3, 2, ["c5", "c5", "c5"], [2, 0, 1]),
    (4, 0, ["c3", "c4", "c6", "c6"], [2, 3, 1, 0]),  # 2 is nearer to the holder than 3
    (4, 3, ["c3", "c6", "c6", "c4"], [1, 2, 3, 0]),
    (4, 2, ["c3", "c6", "c4", "c6"], [3, 1, 2, 0]),  # wraps: from 2 clockwise, 3 before 1
    (4, 1, ["c6", "c6", "c5", "c5"], [1, 0, 2, 3]),  # the holder ranks first among equals
    (5, 4, ["c7", "c7", "c3", "c7", "c7"], [4, 0, 1, 3, 2]),
    (5, 2, ["c4", "c4", "c4", "c4", "c4"], [2, 3, 4, 0, 1]),
]


@pytest.mark.parametrize(("num_players", "holder", "bids", "ranking"), TIES)
def test_ties_rank_by_closeness_to_the_tractor_clockwise(
    num_players: int, holder: int, bids: list[str], ranking: list[int]
) -> None:
    row = ROW5[:num_players]
    game = make_env(num_players, {"tractor": holder, "deck_top": row})
    asked = run_stage(game, dict(enumerate(bids)))
    assert asked == [(holder + k) % num_players for k in range(num_players)]
    state = game.game_state
    for position, seat in enumerate(ranking):
        assert state.hands[seat][parse_card(row[position])] == 1, (seat, row[position])


# Two players: (round-1 holder, start round, bids of seats 0 and 1, robot bid, ranking of
# participants, the robot being "R"). The circle is first holder, other player, robot.
ROBOT_TIES = [
    (0, 1, ["c5", "c5"], "c5", [0, 1, "R"]),
    (1, 1, ["c5", "c5"], "c5", [1, 0, "R"]),
    (0, 2, ["c5", "c5"], "c5", [1, "R", 0]),
    (0, 3, ["c5", "c5"], "c5", ["R", 0, 1]),  # rounds 3, 6, 9: the robot holds the tractor
    (1, 3, ["c5", "c5"], "c5", ["R", 1, 0]),
    (1, 6, ["c4", "c6"], "c6", ["R", 1, 0]),
    (0, 9, ["c6", "c3"], "c3", [0, "R", 1]),
]


@pytest.mark.parametrize(("first", "start", "bids", "robot", "ranking"), ROBOT_TIES)
def test_two_players_ties_with_the_robot(
    first: int, start: int, bids: list[str], robot: str, ranking: list[object]
) -> None:
    game = make_env(2, {"circle": [first, 1 - first, 2], "round": start,
                        "deck_top": ["w8", "w5", "w2"],
                        "robot_deck": [robot]})
    run_stage(game, dict(enumerate(bids)))
    state = game.game_state
    row = ["w8", "w5", "w2"]
    for position, who in enumerate(ranking):
        card = parse_card(row[position])
        if who == "R":
            assert state.robot_won == [card]
        else:
            assert state.hands[who][card] == 1
    assert state.robot_discard[-1] == parse_card(robot)


def test_the_robot_wins_a_card_and_it_leaves_the_game() -> None:
    game = make_env(2, {"tractor": 0, "deck_top": ["w8", "w5", "w2"], "robot_deck": ["c7", "c3"]})
    before = fields(game, 0)
    assert before["robot_remaining"].tolist() == [3, 3, 3, 3, 3]
    run_stage(game, {0: "c3", 1: "c4"})
    state = game.game_state
    assert state.robot_won == [parse_card("w8")]
    assert all(state.hands[s][parse_card("w8")] == 0 for s in (0, 1))
    assert hand(state, 1).count("worm_5") == 1 and hand(state, 0).count("worm_2") == 1
    seen = fields(game, 1)
    assert seen["robot_remaining"].tolist() == [3, 3, 3, 3, 2]  # one chicken_7 revealed
    assert seen["last_bids"][5][parse_card("c7")] == 1  # row 5: the robot
    # Nobody holds a hen, so round 2 has begun: only its new row left the unseen cards.
    assert seen["round"][0] == 2
    assert before["unseen"].sum() - seen["unseen"].sum() == 3


def test_two_player_tractor_goes_first_holder_other_robot() -> None:
    for first in (0, 1):
        game = make_env(2, {"tractor": first})
        rng = np.random.default_rng(first)
        holders: dict[int, int] = {}
        for _ in game.agent_iter():
            _, _, terminated, _, _ = game.last()
            if terminated:
                game.step(None)
                continue
            state = game.game_state
            if state.phase == BID:
                holders.setdefault(state.round, state.circle[state.tractor])
            game.step(int(rng.choice(game.legal_actions())))
        assert [holders[r] for r in range(1, 10)] == [first, 1 - first, 2] * 3


def test_tractor_moves_one_seat_clockwise_each_round() -> None:
    game = make_env(4, {"tractor": 2})
    seen = []
    for _ in range(3):
        seen.append(int(np.flatnonzero(fields(game, 0)["tractor"])[0]))
        run_stage(game, {s: next(c for c in ("c3", "c4", "c5", "c6", "c7", "w1", "w2", "w3", "w4",
                                              "w5", "w6", "w7", "w8")
                                  if game.game_state.hands[s][parse_card(c)]) for s in range(4)})
        while game.game_state.phase == HEN_STAGE:
            run_stage(game, {s: "hen:none" for s in range(4)})
    assert seen == [2, 3, 0]  # relative to seat 0 = absolute here


def test_a_seat_without_a_card_to_bid_bids_nothing_and_takes_the_last_card() -> None:
    # Seat 1 holds only a mother hen (possible through a scenario): it is not asked,
    # ranks below every bid and takes the last card of the row.
    game = make_env(3, {"tractor": 1, "hands": [["c3"], ["hen"], ["c4"]],
                        "deck_top": ["w8", "w5", "w2"]})
    asked = run_stage(game, {0: "c3", 2: "c4"})
    state = game.game_state
    assert asked == [2, 0]
    assert hand(state, 2) == names("w8") and hand(state, 0) == names("w5")
    assert hand(state, 1) == names("w2", "hen")
    assert fields(game, 0)["last_bids"][1].sum() == 0  # seat 1 (+1 from seat 0) bid nothing
