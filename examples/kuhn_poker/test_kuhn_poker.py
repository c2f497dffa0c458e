"""Kuhn poker, the example game: its rules, and the library's tools run on it.

The conformance kit (tests/cardgym) covers it with every other registered game;
these tests state its rules and run the command line on it as a user would.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from kuhn_poker import GAME, env

from cardgym.errors import IllegalMoveError, ScenarioError
from cardgym.game import REQUIRED, check_game
from cardgym.registration import find_game
from cardgym_cli import main

# (cards of seat 0 and seat 1, moves, rewards of seat 0 and seat 1), ante 1.
HANDS = [
    (["king", "jack"], ["check", "check"], (1.0, -1.0)),
    (["jack", "king"], ["check", "check"], (-1.0, 1.0)),
    (["queen", "jack"], ["bet", "fold"], (1.0, -1.0)),
    (["jack", "queen"], ["bet", "call"], (-2.0, 2.0)),
    (["queen", "king"], ["check", "bet", "fold"], (-1.0, 1.0)),
    (["king", "queen"], ["check", "bet", "call"], (2.0, -2.0)),
]


def play(cards: list[str], moves: list[str], **options: object) -> tuple[float, float]:
    game = env(**options)
    game.reset(seed=0, options={"scenario": {"cards": cards}})
    for name in moves:
        game.step(game.action_index(name))
    assert all(game.terminations.values()), "the hand is over after these moves"
    return game._cumulative_rewards["player_0"], game._cumulative_rewards["player_1"]


@pytest.mark.parametrize(("cards", "moves", "rewards"), HANDS)
def test_every_line_of_betting_pays_as_the_rules_say(cards: list[str], moves: list[str],
                                                     rewards: tuple[float, float]) -> None:
    assert play(cards, moves) == rewards


def test_the_ante_raises_every_payment() -> None:
    assert play(["king", "queen"], ["bet", "call"], ante=2) == (3.0, -3.0)
    assert play(["jack", "king"], ["bet", "fold"], ante=2) == (2.0, -2.0)


def test_facing_a_bet_only_call_and_fold_are_legal() -> None:
    game = env()
    game.reset(options={"scenario": {"cards": ["jack", "queen"]}})
    assert [game.action_name(a) for a in game.legal_actions()] == ["check", "bet"]
    game.step(game.action_index("bet"))
    assert [game.action_name(a) for a in game.legal_actions()] == ["call", "fold"]
    with pytest.raises(IllegalMoveError, match="check"):
        game.step(game.action_index("check"))


def test_the_game_is_registered_through_its_entry_point_and_fulfils_the_contract() -> None:
    assert find_game("kuhn_poker") is GAME
    assert find_game("cardgym/kuhn_poker-v2") is find_game("cardgym/kuhn_poker-v1") is GAME
    assert check_game(GAME) == []


def test_a_bad_scenario_and_a_bad_option_say_what_is_allowed() -> None:
    game = env()
    with pytest.raises(ScenarioError, match="two different cards"):
        game.reset(options={"scenario": {"cards": ["king", "king"]}})
    with pytest.raises(Exception, match="ante=3 is not a valid option; allowed: 1, 2"):
        env(ante=3)


def test_a_position_after_a_check_and_a_bet_reads_back_and_plays_on() -> None:
    game = env()
    game.reset(options={"scenario": {"cards": ["queen", "king"]}})
    game.step(game.action_index("check"))
    game.step(game.action_index("bet"))
    written = game.position()
    assert written == {"cards": ["queen", "king"], "moves": ["check", "bet"]}
    again = env()
    again.reset(options={"scenario": written})
    assert again.game_state == game.game_state
    assert again.agent_selection == "player_0"
    assert [again.action_name(a) for a in again.legal_actions()] == ["call", "fold"]


def test_a_scenario_move_that_is_not_legal_there_is_refused() -> None:
    game = env()
    with pytest.raises(ScenarioError, match=r"moves\[1\]: 'call' is not a legal move there; "
                                            "legal: check, bet"):
        game.reset(options={"scenario": {"cards": ["queen", "king"], "moves": ["check", "call"]}})
    with pytest.raises(ScenarioError, match="finished game"):
        game.reset(options={"scenario": {"cards": ["queen", "king"], "moves": ["bet", "fold"]}})


def test_the_other_card_stays_hidden_until_the_showdown() -> None:
    game = env()
    game.reset(options={"scenario": {"cards": ["king", "jack"]}})
    before = game.observe("player_1")["observation"]
    game.step(game.action_index("check"))
    shown = GAME.layout(game.config).observation_spec.unpack(game.observe("player_1")["observation"])
    assert not shown["shown"].any(), "no card is shown before the showdown"
    assert GAME.layout(game.config).observation_spec.unpack(before)["my_card"][0] == 1.0
    game.step(game.action_index("check"))
    final = GAME.layout(game.config).observation_spec.unpack(game.observe("player_1")["observation"])
    assert final["shown"].tolist() == [0.0, 0.0, 1.0], "seat 1 saw seat 0's king"


def test_a_step_after_the_end_is_refused() -> None:
    game = env()
    game.reset(options={"scenario": {"cards": ["king", "jack"]}})
    game.step(game.action_index("check"))
    game.step(game.action_index("check"))
    with pytest.raises(IllegalMoveError):
        game.step(0)


def test_eval_plays_random_and_search_agents(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "kuhn_poker", "--agents", "ismcts:iterations=50", "random",
                 "--games", "40", "--workers", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "ismcts" in out and "random" in out


def test_bench_measures_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--env", "kuhn_poker", "--seconds", "0.05", "--rounds", "1"]) == 0
    assert "kuhn_poker" in capsys.readouterr().out


@pytest.mark.slow
def test_a_short_training_run_writes_a_policy_file(tmp_path: Path) -> None:
    assert main(["train", "kuhn_poker", "--timesteps", "512", "--n-envs", "2",
                 "--n-steps", "128", "--output", str(tmp_path), "--eval-games", "20",
                 "--opponents", "random", "heuristic"]) == 0
    run = next(tmp_path.iterdir())
    card = json.loads((run / "model.json").read_text())
    assert card["game"] == "cardgym/kuhn_poker-v2"
    assert (run / "model.safetensors").is_file()
    assert main(["eval", "kuhn_poker", "--agents", f"model:{run}", "random", "--games", "20",
                 "--workers", "1"]) == 0


def test_resampling_deals_the_other_card_from_what_the_seat_cannot_see() -> None:
    game = env()
    game.reset(options={"scenario": {"cards": ["queen", "king"]}})
    seen = {GAME.resample_hidden(game.game_state, 0, np.random.default_rng(s)).cards[1]
            for s in range(20)}
    assert seen == {0, 2}, "seat 0 cannot tell whether seat 1 holds the jack or the king"


def test_the_readable_moves_default_to_the_action_table() -> None:
    # The example game leaves legal_moves and move_to_action out: they come from the
    # mask through the action table.
    game = GAME
    assert "legal_moves" not in REQUIRED and "move_to_action" not in REQUIRED
    rng = np.random.default_rng(3)
    config = game.make_config(2)
    table = game.layout(config).action_table
    seen = set()
    for _ in range(20):
        state = game.new_game(config, rng)
        first = [table.name(game.move_to_action(state, m)) for m in game.legal_moves(state)]
        assert first == ["check", "bet"]
        while not game.is_over(state):
            moves = game.legal_moves(state)
            actions = [game.move_to_action(state, move) for move in moves]
            assert moves == [table.move(a) for a in actions]
            assert sum(1 << a for a in actions) == game.layout(config).legal_mask(state)
            seen |= {table.name(a) for a in actions}
            game.layout(config).apply(state, actions[int(rng.integers(len(actions)))], rng)
    assert seen == {"check", "bet", "call", "fold"}
