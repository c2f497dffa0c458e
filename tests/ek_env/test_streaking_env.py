"""The Streaking Kittens expansion through the registry and the command line."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

import cardgym  # noqa: F401 (registers the environments)
from cardgym_cli import main
from ek_env.encoding.encoding import BASE, STREAKING


def test_the_registered_id_takes_the_expansion_keyword() -> None:
    env = pettingzoo.make("aec", "cardgym/exploding_kittens-v2", num_players=3,
                          expansions=("streaking",), fast=True)
    env.reset(seed=4)
    obs, *_ = env.last()
    assert obs["observation"].shape == (STREAKING.obs_size,)
    assert obs["action_mask"].shape == (STREAKING.num_actions,)
    assert env.config.fast and env.config.streaking
    plain = pettingzoo.make("aec", "cardgym/exploding_kittens-v2", num_players=3)
    plain.reset(seed=4)
    assert plain.last()[0]["observation"].shape == (BASE.obs_size,)


def test_a_single_name_is_taken_as_the_tuple() -> None:
    env = pettingzoo.make("aec", "cardgym/exploding_kittens-v2", expansions="streaking")
    assert env.config.expansions == ("streaking",)


def test_eval_plays_the_expansion_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", "exploding_kittens", "--players", "3", "--option", "expansions=streaking",
                 "--option", "fast=true", "--agents", "heuristic", "random", "--games", "6",
                 "--workers", "1", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "heuristic" in out and "random" in out


def test_an_unknown_expansion_is_refused_with_the_names_allowed(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", "exploding_kittens", "--option", "expansions=imploding",
                 "--agents", "random", "random", "--games", "2"])
    assert code == 2
    err = capsys.readouterr().err
    assert "'imploding'" in err and "'streaking'" in err


def test_whole_games_end_with_returns_matching_the_rewards() -> None:
    """Every game ends; what the env paid each agent is the engine's result: +1 to a
    winner, -1 to each exploded player, 0 to everyone left after a dry deck."""
    rng = np.random.default_rng(0)
    for seed in range(40):
        env = pettingzoo.make("aec", "cardgym/exploding_kittens-v2", num_players=2 + seed % 4,
                              expansions=("streaking",))
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            for name, reward in env.rewards.items():
                totals[name] += reward
        state = env.game_state
        expected = [-1.0 if seat in state.eliminated else (1.0 if seat == state.winner else 0.0)
                    for seat in range(state.num_players)]
        assert [totals[a] for a in env.possible_agents] == expected
