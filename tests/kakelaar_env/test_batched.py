"""The batched Karel Kakelaar engine (kakelaar_env.batched): the same game as the
reference engine, bit for bit, at every table size and rule option; games moved in
and out through load and export; deals; the engine's bookkeeping."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardgym.testing.batched import check_batched
from kakelaar_env import env as make_env
from kakelaar_env.batched import Engine
from kakelaar_env.engine.state import GAME_OVER, State
from kakelaar_env.game import GAME

PLAYERS = GAME.player_counts
OPTION_SETS = [options for options in GAME.test_option_sets if options]


def engine_of(num_players: int, num_games: int = 1, **options: Any) -> Engine:
    engine = GAME.make_batched(num_games, num_players, **options)
    assert isinstance(engine, Engine)
    return engine


def less_log(state: State) -> dict[str, Any]:
    position = dict(GAME.position(state))
    position.pop("log")
    return position


def assert_same_row(engine: Engine, row: int, env: Any) -> None:
    """Row ``row`` shows every seat what ``env`` shows it, and acts with the same seat."""
    n = engine.num_players
    agents = env.possible_agents
    assert engine.to_act[row] == agents.index(env.agent_selection)
    for seat in range(n):
        seats = np.full(engine.num_games, seat, np.int64)
        obs, masks = engine.observe(seats)
        reference = env.observe(agents[seat])
        assert np.array_equal(obs[row], reference["observation"]), (seat, np.flatnonzero(
            obs[row] != reference["observation"]))
        assert np.array_equal(masks[row], reference["action_mask"]), seat


def play_along(engine: Engine, env: Any, rng: np.random.Generator, row: int = 0) -> int:
    """Random legal play in row ``row`` and ``env`` side by side to the end of the game,
    comparing every seat's view and the rewards at each step; the steps played."""
    steps = 0
    while not engine.over[row]:
        assert_same_row(engine, row, env)
        mask = engine.legal_masks()[row]
        action = int(rng.choice(np.flatnonzero(mask)))
        actions = np.full(engine.num_games, -1, np.int64)
        actions[row] = action
        engine.step(actions, autoreset=False)
        env.step(action)
        steps += 1
        rewards = np.array([env.rewards[agent] for agent in env.possible_agents], np.float32)
        assert np.array_equal(engine.rewards[row], rewards)
        assert bool(engine.done[row]) == all(env.terminations.values())
    assert_same_row(engine, row, env)
    return steps


# --------------------------------------------------------- the differential test


@pytest.mark.parametrize("num_players", PLAYERS)
def test_random_play_matches_the_reference_engine(num_players: int) -> None:
    assert check_batched(GAME, num_players, decisions=100_000) >= 100_000


@pytest.mark.parametrize("num_players", PLAYERS)
@pytest.mark.parametrize("options", OPTION_SETS, ids=["counts_score", "eights_draw"])
def test_random_play_matches_the_reference_under_every_option(num_players: int,
                                                              options: dict[str, Any]) -> None:
    assert check_batched(GAME, num_players, options, decisions=5_000, batch=16,
                         seed=num_players) >= 5_000


def test_every_option_value_is_an_option_set_here() -> None:
    values = {(key, value) for options in GAME.test_option_sets
              for key, value in options.items() if key != "worm_counts"}
    assert values >= {("reward", "score_difference"), ("final_tie", "draw")}
    assert set(GAME.option_values) == {"worm_counts", "reward", "final_tie"}


# ------------------------------------------------------------ load and export


@pytest.mark.parametrize("num_players", PLAYERS)
def test_every_state_of_reference_games_loads_and_exports_unchanged(num_players: int) -> None:
    """Reference state -> load -> export: the same position (less the log), states
    that pass the invariants and read back as scenarios, every seat's observation
    and mask the reference's; the reference's resampled states load too."""
    engine = engine_of(num_players, 3)
    env = make_env(num_players=num_players, engine="python")
    rng = np.random.default_rng(num_players)
    for game in range(2):
        env.reset(seed=100 * num_players + game)
        while True:
            state = env.game_state
            assert state is not None
            engine.load(1, state)
            exported = engine.export(1)
            GAME.invariants(exported)
            assert less_log(exported) == less_log(state)
            again = GAME.new_game(state.config, np.random.default_rng(0),
                                  GAME.position(exported))
            assert less_log(again) == less_log(state)
            assert_same_row(engine, 1, env)
            assert bool(engine.over[1]) == (state.phase == GAME_OVER)
            if state.phase == GAME_OVER:
                break
            seat = int(rng.integers(num_players))
            sample = GAME.resample_hidden(state, seat, rng)
            engine.load(2, sample)
            assert less_log(engine.export(2)) == less_log(sample)
            env.step(int(rng.choice(env.legal_actions())))


SCENARIOS = [
    (3, {"round": 2, "phase": "bid", "tractor": 2, "row": ["w8", "w5", "w1"],
         "bids": [None, None, "c5"]}),
    (2, {"round": 3, "tractor": 2, "circle": [1, 0, 2], "row": ["w8", "w5", "w2"],
         "bids": [None, "c6"], "robot_deck": ["c6"], "robot_discard": ["c3", "c7"],
         "robot_won": ["w4", "hen"], "last_bids": ["c4", "c5", "c7"]}),
    (3, {"round": 4, "phase": "bid", "tractor": 0, "row": ["w8", "w5", "w1"],
         "hands": [["hen"], ["c3"], ["c4", "c5"]], "hens_out": 2}),
    (3, {"round": 3, "phase": "hen", "tractor": 0,
         "hands": [["hen", "c3", "c4"], ["hen", "c5"], ["c3"]],
         "discards": [["c5", "c6", "c7"], ["c3", "c4"], []], "hen_choices": [True, None, None]}),
    (3, {"round": 4, "phase": "take_second", "tractor": 1,
         "hands": [["w6", "c5", "c6"], ["c3", "c4", "c5", "c6", "c7"],
                   ["c3", "c4", "c5", "c6", "c7"]],
         "discards": [["w2", "w5", "c3", "c4", "c7"], [], []], "hens_out": 1,
         "hen_played": [True, False, False], "picks": [["w5"], [], []]}),
    (3, {"round": 5, "phase": "hen", "tractor": 1, "hands": [["hen", "hen"], ["c3"], ["c4"]],
         "discards": [["w3", "c3", "c4"], [], []], "hens_out": 1}),
    (4, {"round": 9, "phase": "hen", "tractor": 3,
         "hands": [["hen", "w8"], ["hen"], ["c4", "w2"], ["w8", "w7"]],
         "discards": [["c3", "c4", "c5"], ["c3"], [], []], "hens_out": 2}),
    (5, {"round": 8, "tractor": 4}),
]


@pytest.mark.parametrize(("num_players", "scenario"), SCENARIOS)
def test_scenario_positions_play_on_as_in_the_reference(num_players: int,
                                                        scenario: dict[str, Any]) -> None:
    """Positions set up by scenarios (a seat without a card to bid, the robot holding
    the tractor, whole piles taken back, a forced hen, the last round) load into a
    row and play to the end as the reference does."""
    rng = np.random.default_rng(7)
    for trial in range(4):
        env = make_env(num_players=num_players, engine="python")
        env.reset(seed=trial, options={"scenario": scenario})
        engine = engine_of(num_players, 2)
        engine.reset(seed=trial)
        engine.load(1, env.game_state)
        assert play_along(engine, env, rng, row=1) > 0
        assert engine.export(1).phase == GAME_OVER


def test_a_finished_game_loads_as_over_with_nothing_to_do() -> None:
    env = make_env(num_players=3, engine="python")
    env.reset(seed=5)
    state = env.game_state
    while state is not None and state.phase != GAME_OVER:
        env.step(env.legal_actions()[-1])
    assert state is not None
    engine = engine_of(3, 2)
    engine.reset(seed=0)
    engine.load(0, state)
    assert engine.over[0] and not engine.over[1]
    assert not engine.legal_masks()[0].any()
    assert less_log(engine.export(0)) == less_log(state)
    before = engine.board[0].copy()
    engine.step(np.array([-1, int(np.flatnonzero(engine.legal_masks()[1])[0])]),
                autoreset=False)
    assert np.array_equal(engine.board[0], before) and engine.lengths[0] == 0


def test_load_refuses_a_state_of_other_rules() -> None:
    engine = engine_of(3)
    other = GAME.new_game(GAME.make_config(3, reward="score_difference"),
                          np.random.default_rng(0))
    with pytest.raises(ValueError, match="this engine's rules"):
        engine.load(0, other)
    with pytest.raises(ValueError, match="this engine's rules"):
        engine.load(0, GAME.new_game(GAME.make_config(4), np.random.default_rng(0)))


def test_load_refuses_a_pile_longer_than_a_row_holds_and_leaves_the_row_as_it_was() -> None:
    engine = engine_of(3, 2)
    engine.reset(seed=0)
    before = {name: array.copy() for name, array in engine.row_arrays.items()}
    state = GAME.new_game(engine.config, np.random.default_rng(0))
    state.deck = state.deck * 3
    with pytest.raises(ValueError, match=r"deck holds \d+ entries; a row has room for 45"):
        engine.load(1, state)
    for name, array in engine.row_arrays.items():
        assert np.array_equal(array, before[name]), name


def test_an_exported_state_plays_on_in_the_aec_env_as_the_row_does() -> None:
    engine = engine_of(2, 4)
    engine.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(5):  # into the game, past a few reveals
        engine.step(engine.random_actions(engine.legal_masks()), autoreset=False)
    for row in range(4):
        env = make_env(num_players=2, engine="python")
        env.reset(seed=row)
        env._replace_state(engine.export(row))
        play_along(engine, env, rng, row=row)


# ---------------------------------------------------------------------- deals


@pytest.mark.parametrize("num_players", PLAYERS)
def test_deals_are_valid_games_and_depend_on_the_seed_and_row_alone(num_players: int) -> None:
    engine = engine_of(num_players, 40)
    engine.reset(seed=3)
    states = [engine.export(i) for i in range(40)]
    for state in states:
        GAME.invariants(state)
        assert state.round == 1 and state.phase == 0 and len(state.log) == 1
    decks = {tuple(state.deck) for state in states}
    assert len(decks) == 40
    assert len({state.circle[state.tractor] for state in states}) == num_players
    assert (engine.chance == 1).all() and not engine.over.any() and not engine.lengths.any()
    again = engine_of(num_players, 7)
    again.reset(seed=3)
    for i in range(7):
        assert again.export(i) == states[i]
    other = engine_of(num_players, 7)
    other.reset(seed=4)
    assert all(other.export(i) != states[i] for i in range(7))


class _Replay:
    """A generator stand-in that deals the reference engine the cards a row was dealt."""

    def __init__(self, orders: list[list[int]], first: float) -> None:
        self.orders = orders
        self.first = first

    def permutation(self, values: Any) -> np.ndarray:
        order = self.orders.pop(0)
        assert sorted(order) == sorted(np.asarray(values).tolist())
        return np.array(order)

    def random(self) -> float:
        return self.first


@pytest.mark.parametrize("num_players", PLAYERS)
def test_a_deal_is_the_reference_deal_of_the_same_shuffles(num_players: int) -> None:
    engine = engine_of(num_players, 20, worm_counts=(8, 6, 5, 4, 4, 3, 3, 3))
    engine.reset(seed=5)
    for i in range(20):
        state = engine.export(i)
        pile = state.deck + state.row[::-1] + state.removed
        first = state.circle[0] if num_players == 2 else state.tractor
        orders = [pile] + ([state.robot_deck] if num_players == 2 else [])
        rng = _Replay(orders, (first + 0.5) / num_players)
        reference = GAME.new_game(state.config, rng)  # type: ignore[arg-type]
        assert less_log(state) == less_log(reference) and state.log == reference.log
        assert state.round_digest == reference.round_digest and not rng.orders


def test_reset_deals_only_the_rows_asked_from_their_generators() -> None:
    engine = engine_of(2, 4)
    engine.reset(seed=1)
    engine.step(engine.random_actions(engine.legal_masks()))
    before = [engine.export(i) for i in range(4)]
    engine.reset(rows=np.array([False, True, False, True]))
    assert engine.export(0) == before[0] and engine.export(2) == before[2]
    assert engine.export(1) != before[1] and engine.export(3) != before[3]
    assert engine.chance.tolist() == [1, 2, 1, 2]
    assert engine.lengths.tolist() == [1, 0, 1, 0]


# ----------------------------------------------------------------- bookkeeping


@pytest.mark.parametrize("options", [{}, {"reward": "score_difference"},
                                     {"worm_counts": (0,) * 7 + (36,), "final_tie": "draw"}])
def test_a_playout_ends_every_row_and_its_returns_are_the_rewards_summed(
        options: dict[str, Any]) -> None:
    engine = engine_of(3, 64, **options)
    engine.reset(seed=2)
    summed = np.zeros((64, 3), np.float32)
    masks = engine.legal_masks()
    while not engine.over.all():
        engine.step(engine.random_actions(engine.legal_masks(masks)), autoreset=False)
        summed += engine.rewards
        assert engine.over[engine.done].all()
    assert np.array_equal(engine.returns, summed)
    assert np.array_equal(engine.final_returns, summed)
    if options.get("reward") == "score_difference":
        assert np.allclose(summed.sum(axis=1), 0.0, atol=1e-4)
    else:
        assert set(summed.ravel().tolist()) <= {-1.0, 0.0, 1.0}
    assert (engine.final_lengths == engine.lengths).all() and (engine.lengths > 9).all()
    for i in range(64):
        state = engine.export(i)
        assert state.phase == GAME_OVER
        assert np.allclose(summed[i], GAME.returns(state))
    engine.step(np.zeros(64, np.int64), autoreset=False)  # every row over: ignored
    assert engine.over.all() and not engine.rewards.any() and not engine.done.any()
    fresh = engine_of(3, 64, **options)
    fresh.reset(seed=2)
    assert np.array_equal(fresh.playout(), summed)


def test_autoreset_deals_at_once_and_keeps_the_last_game_in_final() -> None:
    engine = engine_of(2, 32)
    engine.reset(seed=9)
    finished = 0
    returns = np.zeros((32, 2), np.float32)
    masks = engine.legal_masks()
    for _ in range(200):
        engine.step(engine.random_actions(engine.legal_masks(masks)))
        returns += engine.rewards
        assert not engine.over.any()
        for i in np.flatnonzero(engine.done).tolist():
            finished += 1
            assert engine.lengths[i] == 0 and engine.final_lengths[i] > 9
            assert np.array_equal(engine.final_returns[i], returns[i])
            assert sorted(engine.rewards[i].tolist()) in ([-1.0, 1.0], [1.0, 1.0])
            assert engine.export(i).round == 1 and not engine.returns[i].any()
            returns[i] = 0.0
        assert (engine.to_act == [engine.export(i).current for i in range(32)]).all()
    assert finished > 32 and (engine.chance > 1).all()


def test_a_negative_action_holds_its_row_and_observe_checks_its_seats() -> None:
    engine = engine_of(4, 3)
    engine.reset(seed=0)
    before = engine.board.copy()
    actions = engine.random_actions(engine.legal_masks())
    actions[1] = -1
    engine.step(actions)
    assert np.array_equal(engine.board[1], before[1]) and engine.lengths.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="seats must be"):
        engine.observe(np.array([0, 4, 1]))
    obs, masks = engine.observe(np.array([0, 1, 2]))
    assert obs.shape == (3, 528) and masks.shape == (3, 29)
