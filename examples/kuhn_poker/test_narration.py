"""Kuhn poker's narration speaks of the viewer as "you", with verbs that agree."""

from __future__ import annotations

from typing import Any

from cardgym.registration import find_game


def _env(scenario: dict[str, object]) -> Any:
    env = find_game("kuhn_poker").make_env(num_players=2)
    env.reset(seed=0, options={"scenario": scenario})
    return env


def test_a_kuhn_poker_hand_from_both_seats() -> None:
    env = _env({"cards": ["king", "jack"], "moves": ["check", "bet"]})
    env.step(env.action_index("fold"))
    assert env.narrate(0, 0) == [
        "you are dealt king", "seat 1 is dealt a card", "you check", "seat 1 bets",
        "you fold", "seat 1 wins 1 chip"]
    assert env.narrate(1, 0) == [
        "seat 0 is dealt a card", "you are dealt jack", "seat 0 checks", "you bet",
        "seat 0 folds", "you win 1 chip"]
    assert env.narrate("full", 0) == [
        "seat 0 is dealt king", "seat 1 is dealt jack", "seat 0 checks", "seat 1 bets",
        "seat 0 folds", "seat 1 wins 1 chip"]

def test_a_kuhn_poker_showdown_from_the_winner() -> None:
    env = _env({"cards": ["queen", "king"], "moves": ["bet"]})
    env.step(env.action_index("call"))
    assert env.narrate(1, 2) == [
        "seat 0 bets", "you call", "seat 0 shows queen", "you show king", "you win 2 chips"]
