"""End of the game: worms in hand score; ties go to fewer hand cards, then final_tie;
the reward options."""

from __future__ import annotations

import pytest

from kakelaar_env.engine.state import GAME_OVER
from tests.kakelaar_env.helpers import hand, make_env, names, run_stage

# Round 9 with three hens in the row: every seat wins a hen and loses its bid, so the
# worms in hand do not change. Seat 0: 8 worms in 2 cards; seat 1: 8 in 4; seat 2: 2.
SIZE_TIE = {"round": 9, "tractor": 0, "deck_top": ["hen", "hen", "hen"],
            "hands": [["w8", "c3"], ["w5", "w3", "c3", "c4"], ["w2", "c3"]]}
# Seats 0 and 1: 8 worms in 3 cards each; seat 2: 2.
FULL_TIE = {"round": 9, "tractor": 0, "deck_top": ["hen", "hen", "hen"],
            "hands": [["w8", "c3", "c4"], ["w4", "w4", "c3"], ["w2", "c3"]]}


def finish(game, bids: dict[int, str]) -> dict[str, float]:
    run_stage(game, bids)
    run_stage(game, {0: "hen:none", 1: "hen:none", 2: "hen:none"})
    assert game.game_state.phase == GAME_OVER
    return dict(game.rewards)


def test_equal_worms_fewest_hand_cards_wins() -> None:
    game = make_env(3, SIZE_TIE)
    rewards = finish(game, {0: "c3", 1: "c3", 2: "c3"})
    assert game.game_state.winners == (0,)
    assert rewards == {"player_0": 1.0, "player_1": -1.0, "player_2": -1.0}


def test_still_tied_is_a_shared_win() -> None:
    game = make_env(3, FULL_TIE)
    rewards = finish(game, {0: "c3", 1: "c3", 2: "c3"})
    assert game.game_state.winners == (0, 1)
    assert rewards == {"player_0": 1.0, "player_1": 1.0, "player_2": -1.0}


def test_final_tie_draw_gives_the_tied_players_zero() -> None:
    game = make_env(3, FULL_TIE, final_tie="draw")
    rewards = finish(game, {0: "c3", 1: "c3", 2: "c3"})
    assert rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}
    game = make_env(3, SIZE_TIE, final_tie="draw")  # a single winner still gets +1
    assert finish(game, {0: "c3", 1: "c3", 2: "c3"})["player_0"] == 1.0


def test_score_difference_reward() -> None:
    game = make_env(3, SIZE_TIE, reward="score_difference")
    rewards = finish(game, {0: "c3", 1: "c3", 2: "c3"})
    assert rewards == {"player_0": 3.0, "player_1": 3.0, "player_2": -6.0}  # 8-5, 8-5, 2-8


def test_worms_bid_in_the_last_round_do_not_count() -> None:
    game = make_env(3, {"round": 9, "tractor": 0, "deck_top": ["hen", "hen", "hen"],
                        "hands": [["w8", "w1"], ["w5", "c3"], ["w2", "c3"]]})
    rewards = finish(game, {0: "w8", 1: "c3", 2: "c3"})  # seat 0 bids away its 8
    assert game.game_state.winners == (1,)
    assert rewards["player_1"] == 1.0


def test_a_hen_after_round_nine_can_bring_back_worms() -> None:
    game = make_env(3, {"round": 9, "tractor": 0, "deck_top": ["hen", "w1", "w1"],
                        "hands": [["w2", "c7"], ["w5", "c3"], ["w3", "c3"]],
                        "discards": [["w8", "w7"], [], []]})
    run_stage(game, {0: "c7", 1: "c3", 2: "c3"})  # seat 0 wins the hen
    run_stage(game, {0: "hen:play"})
    run_stage(game, {0: "w8"})
    run_stage(game, {0: "w7"})
    state = game.game_state
    assert state.phase == GAME_OVER and state.winners == (0,)
    assert hand(state, 0) == names("w2", "w7", "w8")  # 17 worms; seats 1, 2: 6 and 4


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_rewards_come_only_at_the_end(num_players: int) -> None:
    import numpy as np

    game = make_env(num_players, {})
    rng = np.random.default_rng(num_players)
    total = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        _, reward, terminated, _, _ = game.last()
        total[agent] += reward
        if not terminated:
            assert reward == 0.0
        game.step(None if terminated else int(rng.choice(game.legal_actions())))
    assert sorted(set(total.values())) in ([-1.0, 1.0], [1.0])
