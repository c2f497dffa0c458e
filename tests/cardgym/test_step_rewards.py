"""The reward rule in the game contract (Game.step_rewards): the env pays what the rule
says after each move, from the mark it took before the move, and without a rule the
game's returns once it is over."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cardgym.game import Game, StepOutcome, StepRewards
from cardgym.registration import games

GAMES = games()
#: A game paid at its end only, and one with a rule of its own.
AT_THE_END = next(game for game in GAMES if game.step_rewards is None)
WITH_A_RULE = [game for game in GAMES if game.step_rewards is not None]


def _env_with(game: Game, num_players: int = 2) -> Any:
    """The game's env, its contract swapped for ``game``."""
    base = game.raw_env
    cls = type(f"Swapped_{game.name}", (base,), {"game": game})
    return cls(num_players=num_players)


def test_the_env_pays_each_step_what_the_rule_says_from_the_mark_taken_before_the_move() -> None:
    marks: list[int] = []

    def mark(state: Any) -> int:
        marks.append(len(AT_THE_END.log(state)))
        return marks[-1]

    def outcome(state: Any, before: int) -> StepOutcome:
        # Pays seat 0 the number of events the move logged, seat 1 its negative.
        logged = float(len(AT_THE_END.log(state)) - before)
        return StepOutcome([logged, -logged], game_over=AT_THE_END.is_over(state))

    env = _env_with(dataclasses.replace(AT_THE_END, step_rewards=StepRewards(mark, outcome)))
    env.reset(seed=3)
    totals = {agent: 0.0 for agent in env.agents}
    steps = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        before = len(env.game.log(env.game_state))
        env.step(env.legal_actions()[0])
        steps += 1
        logged = len(env.game.log(env.game_state)) - before
        assert marks[-1] == before
        assert [env.rewards[a] for a in ("player_0", "player_1")] == [logged, -logged]
        for name in totals:
            totals[name] += env.rewards[name]
    assert len(marks) == steps > 0
    assert totals["player_0"] == -totals["player_1"] > 0


def test_without_a_rule_the_returns_are_paid_once_the_game_is_over() -> None:
    env = AT_THE_END.make_env(num_players=2)
    env.reset(seed=3)
    paid = {agent: 0.0 for agent in env.agents}
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(env.legal_actions()[0])
        over = AT_THE_END.is_over(env.game_state)
        if not over:
            assert not any(env.rewards.values())
        for name in paid:
            paid[name] += env.rewards[name]
        if over:
            returns = AT_THE_END.returns(env.game_state)
            assert [paid[f"player_{seat}"] for seat in range(2)] == returns


@pytest.mark.parametrize("game", WITH_A_RULE, ids=[g.name for g in WITH_A_RULE])
def test_a_rule_pays_in_all_what_the_returns_say_at_the_end(game: Game) -> None:
    """For the games' own rules (their default options): the rewards summed over the
    game are its returns."""
    env = game.make_env(num_players=3)
    env.reset(seed=5)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    state = env.game_state
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(env.legal_actions()[-1])
        for name, reward in env.rewards.items():
            paid[name] += reward
    assert game.is_over(state)
    assert [paid[f"player_{seat}"] for seat in range(3)] == game.returns(state)


def test_a_rule_that_pays_nothing_before_the_end_under_these_options_is_not_run() -> None:
    # A rule that says it pays only at the end here is skipped: its mark would fail.
    def mark(state: Any) -> None:
        raise AssertionError("the rule ran")

    rule = StepRewards(mark, lambda state, before: None, during=lambda config: False)
    env = _env_with(dataclasses.replace(AT_THE_END, step_rewards=rule))
    env.reset(seed=3)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        env.step(None if env.terminations[agent] or env.truncations[agent]
                 else env.legal_actions()[0])
        for name, reward in env.rewards.items():
            paid[name] += reward
    assert list(paid.values()) == AT_THE_END.returns(env.game_state)


@pytest.mark.parametrize("game", WITH_A_RULE, ids=[g.name for g in WITH_A_RULE])
def test_where_a_rule_says_it_pays_only_at_the_end_it_does(game: Game) -> None:
    """Under every option set the kit covers where the game's rule says it pays nothing
    before the end, run step by step it pays nothing before the end and the returns at
    it: skipping it changes nothing."""
    import numpy as np

    rule = game.step_rewards
    assert rule is not None
    checked = 0
    for options in game.test_option_sets:
        config = game.make_config(2, **options)
        if rule.pays_during(config):
            continue
        rng = np.random.default_rng(checked)
        state = game.new_game(config, rng)
        lay = game.layout(config)
        while not game.is_over(state):
            before = rule.mark(state)
            legal = [a for a in range(len(lay.action_table)) if lay.legal_mask(state) >> a & 1]
            lay.apply(state, legal[int(rng.integers(len(legal)))], rng)
            outcome = rule.outcome(state, before)
            if not game.is_over(state):
                assert outcome is None
        assert outcome is not None and list(outcome.rewards) == game.returns(state)
        checked += 1
    if rule.during is not None:
        assert checked > 0, f"{game.name}: no option set where the rule pays at the end only"
