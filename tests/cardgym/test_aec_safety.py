"""The guarantees env() gives in place of PettingZoo's wrapper chain (cardgym.aec)."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

import cardgym
from cardgym.errors import IllegalMoveError, OptionError, OrderError
from cardgym.registration import GAMES
from tests.cardgym.kits import KITS

MAKERS = [kit.make_env for kit in KITS]


def three(make_env: object) -> int:
    """Three seats where the game takes three, else its largest table."""
    kit = next(kit for kit in KITS if kit.make_env is make_env)
    return 3 if 3 in kit.player_counts else max(kit.player_counts)


@pytest.mark.parametrize("make_env", MAKERS)
def test_calls_before_reset_raise_clear_errors(make_env) -> None:
    env = make_env(num_players=2)
    with pytest.raises(OrderError, match="before reset"):
        env.step(0)
    with pytest.raises(OrderError, match="before reset"):
        env.observe("player_0")
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection


@pytest.mark.parametrize("make_env", MAKERS)
@pytest.mark.parametrize("bad", [-1, 10_000, 1.5, "0", True, None, np.array([1, 2])])
def test_bad_actions_raise_and_change_nothing(make_env, bad) -> None:
    env = make_env(num_players=three(make_env))
    env.reset(seed=4)
    agent = env.agent_selection
    before = env.observe(agent)
    state_before = env.game_state.clone()
    with pytest.raises(IllegalMoveError):
        env.step(bad)
    assert env.agent_selection == agent
    assert env.game_state == state_before
    after = env.observe(agent)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


@pytest.mark.parametrize("make_env", MAKERS)
def test_illegal_action_names_the_legal_ones(make_env) -> None:
    env = make_env(num_players=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    legal_name = env.action_name(int(np.flatnonzero(mask)[0]))
    with pytest.raises(IllegalMoveError, match="not legal now") as info:
        env.step(illegal)
    assert legal_name in str(info.value)


@pytest.mark.parametrize("make_env", MAKERS)
def test_numpy_integer_actions_are_accepted(make_env) -> None:
    env = make_env(num_players=2)
    env.reset(seed=1)
    action = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]
    env.step(np.int64(action))


@pytest.mark.parametrize("make_env", MAKERS)
def test_illegal_action_lose_mode_ends_the_game(make_env) -> None:
    env = make_env(num_players=three(make_env), illegal_action="lose")
    env.reset(seed=2)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    with pytest.warns(UserWarning, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1
    assert all(r == 0 for a, r in env.rewards.items() if a != offender)
    rewards = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        rewards[agent] = reward
        env.step(None)
    assert rewards[offender] == -1 and not env.agents


@pytest.mark.parametrize("make_env", MAKERS)
def test_finished_agents_must_step_none(make_env) -> None:
    env = make_env(num_players=2, illegal_action="lose")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.warns(UserWarning):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(IllegalMoveError, match="only valid action is None"):
        env.step(0)
    env.step(None)
    env.step(None)
    with pytest.raises(OrderError, match="every agent has finished"):
        env.step(None)


@pytest.mark.parametrize("make_env", MAKERS)
def test_bad_constructor_arguments(make_env) -> None:
    with pytest.raises(OptionError, match="allowed"):
        make_env(num_players=2, render_mode="rgb_array_list")
    with pytest.raises(OptionError, match="allowed"):
        make_env(num_players=2, illegal_action="ignore")
    with pytest.raises(OptionError, match="allowed"):
        make_env(num_players=2, render_seat=5)


def test_unknown_reset_options_warn_and_are_ignored() -> None:
    env = KITS[0].make_env(num_players=2)
    with pytest.warns(UserWarning, match="not used"):
        env.reset(seed=0, options={"colour": "red"})
    assert env.agents == ["player_0", "player_1"]


@pytest.mark.parametrize("game", GAMES, ids=[g.env_id for g in GAMES])
def test_registered_in_pettingzoo(game) -> None:
    assert cardgym.GAMES
    env = pettingzoo.make("aec", game.env_id, num_players=game.player_counts[-1])
    env.reset(seed=0)
    assert env.num_agents == game.player_counts[-1]


def test_seeding_follows_gymnasium_semantics() -> None:
    make = KITS[0].make_env
    a, b = make(num_players=4), make(num_players=4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game_state == b.game_state
    a.reset()
    b.reset()
    assert a.game_state == b.game_state  # the generator continues identically
    c = make(num_players=4)
    c.reset(seed=11)
    c.reset(seed=11)
    a.reset(seed=11)
    assert a.game_state == c.game_state
