"""The batched Exploding Kittens engine (ek_env.batched) plays the reference game.

Both engines draw from the same stream (:mod:`cardgym.chance`): before each step the
reference is given a :class:`~cardgym.chance.GameRandom` at the row's stream state,
and after it the two must have drawn the same (the generator states equal), so that
every step, deals and shuffles included, is compared without setting the reference
to the row's game again. After every step the row's exported state must equal the
reference's, field by field (its log: the newest events the row keeps), and so must
the legal masks, the rewards and the ends of games.

The Game does not name the engine yet (``GAME.batched``): the tests build it from a
rule config directly. ``CARDGYM_EK_BATCHED_GAMES`` sets the games played per player
count and option set in the differential tests (default 4: with four base and
three Streaking Kittens option sets, 224 games at the eight table sizes, and each
row's unfinished game compared as far as it went).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from cardgym.chance import GameRandom, seed_states
from ek_env import rules
from ek_env.batched import Engine
from ek_env.batched.layout import RECENT
from ek_env.encoding.encoder import encoder_named
from ek_env.engine.dispatch import apply_action
from ek_env.engine.invariants import check_invariants
from ek_env.engine.legality import legal_action_mask
from ek_env.engine.setup import deal
from ek_env.engine.state import GAME_OVER, Config, State
from ek_env.game import GAME
from ek_env.info.view import PlayerView

#: Games per player count and option set in the differential test.
GAMES = int(os.environ.get("CARDGYM_EK_BATCHED_GAMES", "4"))
PLAYER_COUNTS = tuple(range(2, 10))

#: Every base-game rule option, each set at least once beside the defaults.
BASE_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"hand_size": 4, "deck_defuses": "2024", "attack_stacking": "stack",
     "empty_hand_target": "forbidden", "eliminated_cards": "out_of_play"},
    {"combos": False, "attack_stacking": "stack"},
    {"deck_defuses": "2024", "empty_hand_target": "forbidden"},
]
STREAKING = ("streaking",)
#: The expansion's rule options (the deal's are DEAL_OPTION_SETS').
STREAKING_OPTION_SETS: list[dict[str, Any]] = [
    {"expansions": STREAKING},
    {"expansions": STREAKING, "fast": True, "hand_size": 4, "attack_stacking": "stack",
     "empty_hand_target": "forbidden", "eliminated_cards": "out_of_play"},
    {"expansions": STREAKING, "combos": False, "fast": True, "deck_defuses": "2024"},
]
#: The deal's options, with the expansion's.
DEAL_OPTION_SETS: list[dict[str, Any]] = [
    *BASE_OPTION_SETS[:2],
    {"hand_size": 4},
    {"deck_defuses": "2024"},
    {"expansions": STREAKING},
    {"expansions": STREAKING, "fast": True},
    {"expansions": STREAKING, "fast": True, "hand_size": 4, "deck_defuses": "2024"},
]

#: The state's fields a row keeps (all but the config, the log and the caches).
FIELDS = tuple(name for name, declared in State.SPEC.items()
               if declared.kind != "config" and declared.cache is None and name != "log")


def _difference(batched: State, reference: State) -> str:
    """The first field in which two states differ ('' when none does); the log is
    compared as far as the row keeps it (its newest events)."""
    for name in FIELDS:
        mine, theirs = getattr(batched, name), getattr(reference, name)
        if mine != theirs:
            return f"{name}: batched {mine!r}, reference {theirs!r}"
    if batched.log != reference.log[-RECENT:]:
        return f"log: batched {batched.log!r}, reference {reference.log[-RECENT:]!r}"
    return ""


def _engine(num_players: int, options: Mapping[str, Any], rows: int) -> Engine:
    return Engine(Config(num_players, **options), rows)


def _bits(mask: np.ndarray) -> int:
    return sum(1 << int(a) for a in np.flatnonzero(mask))


# ------------------------------------------------------------------ deals


@pytest.mark.parametrize("options", DEAL_OPTION_SETS, ids=repr)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_deals_the_reference_deal_of_each_rows_stream(num_players: int,
                                                      options: dict[str, Any]) -> None:
    """Row ``i`` of an engine reset with ``seed=s`` deals what the reference deals
    from the row's stream; row 0, what an env reset with ``seed=s`` deals. Both
    draw the same (the generator states after the deal are equal)."""
    rows = 12
    engine = _engine(num_players, options, rows)
    env = GAME.make_env(num_players=num_players, engine="python", **options)
    for deals, seed in enumerate((0, 7 + num_players, 1000), 1):
        engine.reset(seed=seed)
        env.reset(seed=seed)
        assert not _difference(engine.export(0), env.game_state), _difference(
            engine.export(0), env.game_state)
        for i, state in enumerate(seed_states(seed, rows).tolist()):
            generator = GameRandom(state)
            reference = deal(engine.config, generator)
            exported = engine.export(i)
            assert not _difference(exported, reference), (seed, i, _difference(exported,
                                                                               reference))
            check_invariants(exported)
            assert generator.state == int(engine.rng[i])
            assert engine.to_act[i] == reference.to_act and engine.chance[i] == 3 * deals
            assert not engine.over[i] and engine.lengths[i] == 0


# ------------------------------------------------------------------ export and load


def _random_states(num_players: int, options: Mapping[str, Any], seed: int,
                   limit: int = 300) -> list[State]:
    """Every state of a seeded reference game under random legal play."""
    config = Config(num_players, **options)
    generator = GameRandom.from_seed(seed)
    choices = np.random.default_rng(seed)
    state = deal(config, generator)
    states = [state.clone()]
    while state.phase != GAME_OVER and len(states) < limit:
        mask = legal_action_mask(state)
        legal = [a for a in range(mask.bit_length()) if mask >> a & 1]
        apply_action(state, legal[int(choices.integers(len(legal)))], generator)
        states.append(state.clone())
    return states


@pytest.mark.parametrize("options", [*BASE_OPTION_SETS[:2], *STREAKING_OPTION_SETS], ids=repr)
@pytest.mark.parametrize("num_players", (2, 3, 5, 6, 9))
def test_load_then_export_gives_every_state_back(num_players: int,
                                                 options: dict[str, Any]) -> None:
    engine = _engine(num_players, options, 2)
    for seed in range(2):
        for state in _random_states(num_players, options, seed):
            engine.load(1, state)
            exported = engine.export(1)
            assert not _difference(exported, state), _difference(exported, state)
            assert engine.to_act[1] == state.to_act
            assert engine.over[1] == (state.phase == GAME_OVER)


def _views(engine: Engine) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every seat's observations and masks in every row."""
    return [engine.observe(np.full(engine.num_games, seat, np.int64))
            for seat in range(engine.num_players)]


def _check_views(views: list[tuple[np.ndarray, np.ndarray]], row: int, state: State,
                 where: Any) -> None:
    """Every seat's observation of row ``row`` (``views``: :func:`_views`) is the
    encoder's of ``state``, bit for bit, and its mask the reference's legal actions if
    it is to act (else none)."""
    encoder = encoder_named(state.config.streaking)
    legal = 0 if state.phase == GAME_OVER else legal_action_mask(state)
    for seat, (obs, masks) in enumerate(views):
        expected = encoder.encode(PlayerView(state, seat))
        if not np.array_equal(obs[row], expected):
            spec = encoder.observation_spec
            wrong = np.flatnonzero(obs[row] != expected)[:6].tolist()
            names = [next(f.name for f in spec.fields
                          if spec.offset(f.name) <= k < spec.offset(f.name) + f.size)
                     for k in wrong]
            raise AssertionError(f"{where}: seat {seat}'s observation differs at {wrong} "
                                 f"({names}): batched {obs[row][wrong].tolist()}, "
                                 f"reference {expected[wrong].tolist()}")
        assert _bits(masks[row]) == (legal if seat == state.to_act else 0), (where, seat)


@pytest.mark.parametrize("options", [*BASE_OPTION_SETS, *STREAKING_OPTION_SETS], ids=repr)
@pytest.mark.parametrize("num_players", (2, 4, 7))
def test_observes_every_loaded_state_as_the_encoder(num_players: int,
                                                    options: dict[str, Any]) -> None:
    """States of reference games loaded into a row: every seat's observation and
    mask."""
    engine = _engine(num_players, options, 2)
    for seed in range(2):
        for state in _random_states(num_players, options, 10 + seed):
            engine.load(0, state)
            _check_views(_views(engine), 0, state, (num_players, options, seed))


def test_load_refuses_a_state_of_other_rules_and_leaves_the_row_as_it_was() -> None:
    engine = _engine(3, {}, 2)
    engine.reset(seed=1)
    before = {name: array.copy() for name, array in engine.row_arrays.items()}
    with pytest.raises(ValueError, match="Exploding Kittens state"):
        engine.load(0, _random_states(4, {}, 0, limit=1)[0])
    state = _random_states(3, {}, 0, limit=1)[0]
    state.turns_played = 1 << 40
    with pytest.raises(ValueError, match="turns_played holds 1099511627776"):
        engine.load(1, state)
    for name, array in engine.row_arrays.items():
        assert np.array_equal(array, before[name]), name


# ------------------------------------------------------------------ the differential check


def _play_beside_the_reference(num_players: int, options: Mapping[str, Any], games: int,
                               seed: int, observe: bool = True) -> tuple[int, int]:
    """Random legal play in a batch beside the reference, every row compared after
    every step (with ``observe``, every seat's observation and mask too); returns
    the games finished and the decisions compared."""
    rows = min(games, 8)
    engine = _engine(num_players, options, rows)
    engine.seed(seed)
    references = [deal(engine.config, GameRandom(int(state))) for state in engine.rng]
    engine.reset()
    choices = np.random.default_rng(seed)
    finished = decisions = 0
    where = f"{num_players} players, options {dict(options)}"
    while finished < games:
        masks = engine.legal_masks()
        actions = np.empty(rows, np.int64)
        for i, reference in enumerate(references):
            assert engine.to_act[i] == reference.to_act, (where, i, "to_act")
            assert _bits(masks[i]) == legal_action_mask(reference), (
                where, i, "legal mask", np.flatnonzero(masks[i]).tolist(),
                bin(legal_action_mask(reference)))
            legal = np.flatnonzero(masks[i])
            actions[i] = legal[int(choices.integers(len(legal)))]
        before = engine.rng.copy()
        engine.step(actions)
        views = _views(engine) if observe else []
        for i, reference in enumerate(references):
            generator = GameRandom(int(before[i]))
            mark = rules.STEP_REWARDS.mark(reference)
            apply_action(reference, int(actions[i]), generator)
            decisions += 1
            outcome = rules.STEP_REWARDS.outcome(reference, mark)
            rewards = [0.0] * num_players if outcome is None else outcome.rewards
            assert engine.rewards[i].tolist() == rewards, (where, i, "rewards", actions[i])
            ended = reference.phase == GAME_OVER
            assert bool(engine.done[i]) == ended, (where, i, "done")
            if ended:
                finished += 1
                assert engine.final_returns[i].tolist() == rules.returns(reference)
                reference = references[i] = deal(engine.config, generator)
            assert generator.state == int(engine.rng[i]), (
                where, i, f"the engine drew otherwise than the reference (action {actions[i]})")
            exported = engine.export(i)
            difference = _difference(exported, reference)
            assert not difference, (where, i, f"after action {actions[i]}: {difference}")
            check_invariants(exported)
            if observe:
                _check_views(views, i, reference, (where, i))
    return finished, decisions


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_plays_the_reference_game_decision_for_decision(num_players: int) -> None:
    """Every base-game option set: the same legal masks, states, rewards, draws and
    observations."""
    for index, options in enumerate(BASE_OPTION_SETS):
        finished, decisions = _play_beside_the_reference(num_players, options, GAMES,
                                                         seed=100 * num_players + index)
        assert finished >= GAMES and decisions > finished


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_plays_the_reference_streaking_kittens_game_decision_for_decision(
        num_players: int) -> None:
    """The expansion, every option set: blind play, marks, Garbage Collection, Alter
    the Future and the explosions they bring, as the reference plays them."""
    for index, options in enumerate(STREAKING_OPTION_SETS):
        finished, decisions = _play_beside_the_reference(num_players, options, GAMES,
                                                         seed=100 * num_players + 50 + index)
        assert finished >= GAMES and decisions > finished


def test_a_game_exported_mid_play_passes_the_invariants_and_plays_on_in_the_reference() -> None:
    engine = _engine(4, {}, 6)
    engine.reset(seed=3)
    for _ in range(40):
        engine.step(engine.random_actions(engine.legal_masks()), autoreset=False)
        for i in range(6):
            state = engine.export(i)
            check_invariants(state)
            assert legal_action_mask(state) == _bits(engine.legal_masks()[i])


# ------------------------------------------------------------------ bookkeeping


@pytest.mark.parametrize("options", [BASE_OPTION_SETS[1], STREAKING_OPTION_SETS[1]], ids=repr)
@pytest.mark.parametrize("num_players", (2, 5, 9))
def test_a_playout_ends_every_row_and_its_returns_are_the_games(
        num_players: int, options: dict[str, Any]) -> None:
    engine = _engine(num_players, options, 24)
    engine.reset(seed=num_players)
    returns = engine.playout()
    assert engine.over.all() and (engine.lengths > 0).all()
    for i in range(24):
        state = engine.export(i)
        assert state.phase == GAME_OVER
        assert returns[i].tolist() == rules.returns(state)
        assert engine.final_lengths[i] == engine.lengths[i]


def test_each_kernel_function_is_compiled_once() -> None:
    """Every compiled function of the engine has a single signature, whatever the
    options: a second one would double its compile time (numba compiles a function
    anew for each argument type, Python int constants included)."""
    from ek_env.batched import (
        blind,
        encode,
        explosions,
        future,
        garbage,
        hands,
        kernels,
        knowledge,
        legal,
        plays,
        record,
        seats,
        setup,
        singles,
        streaking,
        transfers,
        turns,
        window,
    )

    for options in (*BASE_OPTION_SETS, *STREAKING_OPTION_SETS):
        for players in (2, 5):
            engine = _engine(players, options, 8)
            engine.reset(seed=0)
            engine.observe()
            engine.playout()
    for module in (blind, encode, explosions, future, garbage, hands, kernels, knowledge, legal,
                   plays, record, seats, setup, singles, streaking, transfers, turns, window):
        for name, function in vars(module).items():
            if getattr(function, "__module__", None) == module.__name__ and \
                    hasattr(function, "signatures"):
                assert len(function.signatures) <= 1, (module.__name__, name,
                                                       function.signatures)
