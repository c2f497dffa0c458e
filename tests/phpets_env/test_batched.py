"""The batched Power Hungry Pets engine (phpets_env.batched) plays the reference game.

The differential check (``cardgym.testing.check_batched``) steps the reference AEC env
beside each row with a stand-in for numpy's generator that draws the row's own
SplitMix64 stream (:class:`~cardgym.chance.GameRandom`): ``rng.integers(n)``
and ``rng.permutation(k)`` as the kernels draw them (:mod:`cardgym.vector.random`). The
engine draws as the reference does (``mirrored``), so both deal the same rounds,
shuffle the same Jittery Juggler piles and pick the same start players, and every step
is compared, chance steps included, without re-syncing the reference mid-match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from cardgym.chance import GameRandom
from cardgym.testing.batched import check_batched
from phpets_env import rules
from phpets_env.encoding.encoding import ACTION_TABLE, encode, legal_action_mask
from phpets_env.engine.state import MATCH_OVER, Config, State
from phpets_env.game import GAME
from phpets_env.info.view import PlayerView
from tests.phpets_env.helpers import BOWL, SHIELD, SNAKE, TRAPPER, showdown_state
from tests.phpets_env.test_showdown import CASES

PLAY_MOUSE_TRAPPER = ACTION_TABLE.index("play:mouse_trapper")
ALL_OPTION_SETS: list[dict[str, Any]] = [
    *map(dict, GAME.test_option_sets),
    {"robovac": "duel_only", "final_tie": "nobody", "start_player": "winner", "reward": "round"},
    {"robovac": "dethrone", "final_tie": "nobody", "start_player": "random"},
    {"robovac": "duel_only", "start_player": "rotate", "reward": "round"},
]


# ------------------------------------------------------------------ the differential check


def _position(state: State) -> dict[str, Any]:
    position = dict(GAME.position(state))
    del position["log"]
    return position


@pytest.mark.parametrize("num_players", GAME.player_counts)
def test_plays_the_reference_game_decision_for_decision(num_players: int) -> None:
    """Chance included: the engine draws as the reference does (the shuffles of a
    round's deal and of the Jittery Juggler, the first player), so the reference
    plays the same games through the rows' streams (``mirrored``)."""
    assert check_batched(GAME, num_players, decisions=100_000, batch=16,
                         mirrored=True) >= 100_000


@pytest.mark.parametrize("options", ALL_OPTION_SETS[1:], ids=lambda o: ",".join(o.values()))
@pytest.mark.parametrize("num_players", (2, 3, 5))
def test_plays_the_reference_game_with_every_rule_option(num_players: int,
                                                          options: dict[str, Any]) -> None:
    assert check_batched(GAME, num_players, options, decisions=6_000, batch=16, seed=1,
                         mirrored=True) >= 6_000


# ------------------------------------------------------------------ export and load


def _seeded_states(num_players: int, options: Mapping[str, Any], seed: int,
                   limit: int = 400) -> list[State]:
    """Every state of a seeded reference match under random legal play."""
    env = GAME.make_env(num_players=num_players, engine="python", **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    states = [env.game_state.clone()]
    while not all(env.terminations.values()) and len(states) < limit:
        env.step(int(rng.choice(env.legal_actions())))
        states.append(env.game_state.clone())
    return states


def _reference_views(state: State) -> list[tuple[NDArray[np.float32], int]]:
    mask = 0 if state.phase == MATCH_OVER else legal_action_mask(state)
    return [(encode(PlayerView(state, seat)), mask if seat == state.to_act else 0)
            for seat in range(state.num_players)]


def _check_loaded(engine: Any, state: State) -> None:
    """``state`` loaded into row 0: the same observations and masks, and exported
    back, the same position and a state passing the invariants."""
    engine.load(0, state)
    assert engine.to_act[0] == state.to_act
    assert engine.over[0] == (state.phase == MATCH_OVER)
    for seat, (observation, mask) in enumerate(_reference_views(state)):
        obs, masks = engine.observe(np.array([seat]))
        assert np.array_equal(obs[0], observation), seat
        assert sum(1 << int(a) for a in np.flatnonzero(masks[0])) == mask, seat
    exported = engine.export(0)
    GAME.invariants(exported)
    assert _position(exported) == _position(state)
    assert [encode(PlayerView(exported, s)) .tobytes() for s in range(state.num_players)] == \
        [encode(PlayerView(state, s)).tobytes() for s in range(state.num_players)]


@pytest.mark.parametrize("num_players", GAME.player_counts)
def test_load_and_export_keep_every_state_of_seeded_matches(num_players: int) -> None:
    engine = GAME.make_batched(1, num_players)
    for seed, options in enumerate(ALL_OPTION_SETS[:3]):
        engine = GAME.make_batched(1, num_players, **options)
        for state in _seeded_states(num_players, options, seed):
            _check_loaded(engine, state)


@pytest.mark.parametrize("num_players", (2, 4, 6))
def test_load_takes_resampled_states_and_states_set_up_from_positions(num_players: int) -> None:
    engine = GAME.make_batched(1, num_players)
    rng = np.random.default_rng(num_players)
    config = Config(num_players)
    for state in _seeded_states(num_players, {}, seed=10 + num_players)[::5]:
        for seat in range(num_players):
            _check_loaded(engine, rules.resample_hidden(state, seat, rng))
        _check_loaded(engine, GAME.new_game(config, rng, GAME.position(state)))


def test_a_loaded_state_plays_on_as_the_reference() -> None:
    """A state in a follow-up decision, loaded mid-match, steps as the reference."""
    states = [state for state in _seeded_states(4, {}, seed=3) if state.phase in (1, 2)]
    assert states, "the seeded match has no follow-up decision"
    engine = GAME.make_batched(1, 4)
    for state in states:
        engine.load(0, state)
        action = int(np.flatnonzero(engine.legal_masks()[0])[-1])
        draws = GameRandom(int(engine.rng[0]))
        engine.step(np.array([action]), autoreset=False)
        reference = state.clone()
        GAME.layout(state.config).apply(reference, action, draws)  # type: ignore[arg-type]
        assert _position(engine.export(0)) == _position(reference)


def _step_both(state: State, action: int, **options: Any) -> Any:
    """Load ``state`` into a one-row engine and into the AEC env, take ``action`` in
    both (drawing the same random numbers), and require the same rewards, end and
    position; returns the engine."""
    engine = GAME.make_batched(1, state.num_players, **options)
    engine.load(0, state)
    env = GAME.make_env(num_players=state.num_players, engine="python", **options)
    env.reset(seed=0)
    env._replace_state(state.clone())
    env._np_random = GameRandom(int(engine.rng[0]))
    engine.step(np.array([action]), autoreset=False)
    env.step(action)
    rewards = [env.rewards[agent] for agent in env.possible_agents]
    assert engine.rewards[0].tolist() == rewards
    assert engine.done[0] == all(env.terminations.values()) == engine.over[0]
    assert _position(engine.export(0)) == _position(env.game_state)
    return engine


@pytest.mark.parametrize("reward", ["match", "round"])
@pytest.mark.parametrize(("held", "rows", "options", "winners"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_every_showdown_of_the_rule_tests(held: list[int | None], rows: list[list[int]],
                                          options: dict[str, Any], winners: tuple[int, ...],
                                          reward: str) -> None:
    state, _ = showdown_state(held, rows, reward=reward, **options)
    engine = _step_both(state, PLAY_MOUSE_TRAPPER, reward=reward, **options)
    assert engine.export(0).round_winners == winners


def test_a_shared_win_that_empties_the_supply_ends_the_match_for_every_winner() -> None:
    # Three players at two tokens each (one token left): seats 1 and 2 tie at the
    # showdown; seat 1 takes the last token, seat 2 none, and both win the match.
    state, _ = showdown_state([BOWL, SNAKE, SNAKE], [[TRAPPER], [SHIELD], [SHIELD]],
                              tokens=[2, 2, 2])
    engine = _step_both(state, PLAY_MOUSE_TRAPPER)
    assert engine.over[0] and engine.rewards[0].tolist() == [-1.0, 1.0, 1.0]
    assert engine.export(0).match_winners == (1, 2)


@pytest.mark.parametrize("num_games", [1, 6, 11])
def test_fill_puts_one_state_in_every_row_for_playouts(num_games: int) -> None:
    state = _seeded_states(6, {"reward": "round"}, seed=4, limit=30)[20]
    assert state.phase != MATCH_OVER
    engine = GAME.make_batched(num_games, 6, reward="round")
    engine.reset(seed=0)
    engine.fill(state)
    assert [_position(engine.export(i)) for i in range(num_games)] == [_position(state)] * \
        num_games
    assert engine.options == (6, 0, 0, 0, 1, 2)
    engine.playout()
    assert engine.over.all() and (engine.lengths > 0).all()


def test_load_refuses_a_state_of_another_table() -> None:
    engine = GAME.make_batched(2, 3)
    with pytest.raises(ValueError, match="Power Hungry Pets state"):
        engine.load(0, _seeded_states(4, {}, seed=0, limit=1)[0])
    with pytest.raises(IndexError):
        engine.export(2)


def test_load_refuses_a_state_that_does_not_fit_a_row_and_leaves_the_row_as_it_was() -> None:
    """Hands hold two cards at most (the row's room); a value beyond a column's dtype
    is refused too; the row and its bookkeeping stay those of the game before."""
    engine = GAME.make_batched(2, 3)
    engine.reset(seed=1)
    engine.step(engine.random_actions(engine.legal_masks()))
    before = {name: array.copy() for name, array in engine.row_arrays.items()}
    state = _seeded_states(3, {}, seed=0, limit=1)[0]
    state.hands[1] = state.hands[1] + [0, 1]
    with pytest.raises(ValueError, match=r"hands\[1\] holds \d entries; a row has room for 2"):
        engine.load(0, state)
    state = _seeded_states(3, {}, seed=0, limit=1)[0]
    state.round_number = 1 << 40
    with pytest.raises(ValueError, match="round_number holds 1099511627776, which its int32"):
        engine.load(1, state)
    for name, array in engine.row_arrays.items():
        assert np.array_equal(array, before[name]), name


# ------------------------------------------------------------------ deals


@pytest.mark.parametrize("num_players", GAME.player_counts)
def test_deals_are_fresh_rounds_of_their_seed_and_row_alone(num_players: int) -> None:
    small, large = (GAME.make_batched(size, num_players) for size in (5, 40))
    small.reset(seed=11)
    large.reset(seed=11)
    positions = []
    for i in range(5):
        state = small.export(i)
        GAME.invariants(state)
        assert state.round_number == 1 and state.phase == 0 and not any(state.tokens)
        assert small.chance[i] == 1 and small.lengths[i] == 0 and not small.over[i]
        assert _position(state) == _position(large.export(i))
        positions.append(_position(state))
    assert len({repr(p) for p in positions}) == 5
    again = GAME.make_batched(5, num_players)
    again.reset(seed=11)
    assert [_position(again.export(i)) for i in range(5)] == positions
    again.reset(seed=12)
    assert [_position(again.export(i)) for i in range(5)] != positions


def test_the_first_player_and_the_start_players_are_drawn_at_random() -> None:
    engine = GAME.make_batched(600, 3, start_player="random")
    engine.reset(seed=5)
    assert set(engine.to_act.tolist()) == {0, 1, 2}
    starts: set[int] = set()
    while len(starts) < 3 and not engine.over.all():
        engine.step(engine.random_actions(engine.legal_masks()), autoreset=False)
        for i in range(0, 600, 7):
            state = engine.export(i)
            if state.round_number > 1 and state.phase != MATCH_OVER:
                starts.add(state.round_start)
    assert starts == {0, 1, 2}


# ------------------------------------------------------------------ bookkeeping


def test_finished_matches_are_kept_over_or_dealt_again() -> None:
    engine = GAME.make_batched(64, 2)
    engine.reset(seed=2)
    returns = engine.playout()
    assert engine.over.all() and np.array_equal(returns, engine.final_returns)
    assert (engine.final_lengths > 0).all() and np.array_equal(engine.final_lengths,
                                                               engine.lengths)
    for i in range(64):
        winners = engine.export(i).match_winners
        assert returns[i].tolist() == [1.0 if s in winners else -1.0 for s in range(2)]
    before = [_position(engine.export(i)) for i in range(64)]
    engine.step(np.zeros(64, np.int64), autoreset=False)  # over: actions ignored
    assert engine.over.all() and not engine.done.any() and not engine.rewards.any()
    assert [_position(engine.export(i)) for i in range(64)] == before
    engine.reset(rows=np.arange(64) < 10)
    assert not engine.over[:10].any() and engine.over[10:].all()
    assert not engine.lengths[:10].any() and not engine.returns[:10].any()


OPTIONS_ROUND: list[dict[str, Any]] = [{}, {"reward": "round", "final_tie": "nobody"}]


@pytest.mark.parametrize("options", OPTIONS_ROUND)
def test_autoreset_deals_a_new_match_and_keeps_the_last_ones_returns(
        options: dict[str, Any]) -> None:
    engine = GAME.make_batched(32, 4, **options)
    engine.reset(seed=9)
    summed = np.zeros((32, 4), np.float32)
    lengths = np.zeros(32, np.int64)
    ended = 0
    for _ in range(3000):
        engine.step(engine.random_actions(engine.legal_masks()))
        summed += engine.rewards
        lengths += 1
        assert np.array_equal(summed[~engine.done], engine.returns[~engine.done])
        for i in np.flatnonzero(engine.done):
            ended += 1
            assert np.array_equal(engine.final_returns[i], summed[i])
            assert engine.final_lengths[i] == lengths[i]
            assert engine.lengths[i] == 0 and not engine.returns[i].any()
            assert not engine.over[i] and engine.export(i).round_number == 1
            summed[i] = 0.0
            lengths[i] = 0
    assert ended > 32


@pytest.mark.parametrize("num_players", (2, 6))
def test_a_playout_ends_every_row_and_its_returns_are_the_rewards_summed(
        num_players: int) -> None:
    engine = GAME.make_batched(40, num_players, reward="round")
    engine.reset(seed=4)
    summed = np.zeros((40, num_players), np.float32)
    while not engine.over.all():
        engine.step(engine.random_actions(engine.legal_masks()), autoreset=False)
        summed += engine.rewards
    assert np.array_equal(engine.returns, summed)
    assert np.array_equal(engine.playout(), summed)


def test_each_kernel_function_is_compiled_once() -> None:
    """Every compiled function of the engine has a single signature, whatever the
    options: a second one would double its compile time (numba compiles a function
    anew for each argument type, Python int constants included)."""
    from phpets_env.batched import effects, encode, kernels, legal, plays, record, turns

    for options in ALL_OPTION_SETS:
        for players in (2, 5):
            engine = GAME.make_batched(8, players, **options)
            engine.reset(seed=0)
            engine.playout()
            engine.observe()
    for module in (effects, encode, kernels, legal, plays, record, turns):
        for name, function in vars(module).items():
            if getattr(function, "__module__", None) == module.__name__ and \
                    hasattr(function, "signatures"):
                assert len(function.signatures) <= 1, (module.__name__, name,
                                                       function.signatures)
