"""The vector env and the batched-engine base (cardgym.vector), on every game with a
batched engine; the differential checks of each game's engine are in its own tests
(tests/GAME/test_batched.py) and, for the example game (Kuhn poker, the cheapest), here."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest

import cardgym.vector as vector
from cardgym.errors import IllegalMoveError, OptionError
from cardgym.game import Game
from cardgym.registration import find_game, games
from cardgym.testing import check_choices, check_no_leaks
from cardgym.testing.batched import batched_kit, check_batched
from cardgym.testing.kit import GameKit
from cardgym.vector import BatchedEngine
from cardgym.vector.engine import _BOOKKEEPING
from cardgym.vector.random import seed_states

REPO = Path(__file__).resolve().parents[1]
BATCHED = [game for game in games() if game.batched is not None]
TABLES = [(game.name, n) for game in BATCHED for n in game.player_counts]


def test_the_three_games_have_batched_engines_where_the_issue_asks() -> None:
    names = {game.name for game in BATCHED}
    assert {"power_hungry_pets", "karel_kakelaar", "kuhn_poker"} <= names
    assert find_game("exploding_kittens").batched is None


def test_make_refuses_a_game_without_a_batched_engine_and_names_those_with_one() -> None:
    with pytest.raises(ValueError, match="Exploding Kittens has no batched engine") as caught:
        vector.make("exploding_kittens", 4)
    assert "kuhn_poker" in str(caught.value)


@pytest.mark.parametrize("num_envs", [0, -3, 2.5, True])
def test_make_refuses_a_bad_number_of_games(num_envs: object) -> None:
    with pytest.raises(ValueError, match="num_envs|num_games"):
        vector.make("kuhn_poker", num_envs)  # type: ignore[arg-type]


def test_make_refuses_an_unknown_option_and_a_bad_value() -> None:
    with pytest.raises(OptionError, match="unknown option 'antes'"):
        vector.make("kuhn_poker", 4, antes=2)
    with pytest.raises(OptionError, match="ante"):
        vector.make("kuhn_poker", 4, ante=5)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_reset_gives_arrays_of_the_documented_shapes(name: str, players: int) -> None:
    venv = vector.make(name, 5, num_players=players)
    obs, info = venv.reset(seed=1)
    game = find_game(name)
    layout = game.layout(game.make_config(players))
    assert obs.shape == (5, layout.observation_spec.size) and obs.dtype == np.float32
    assert info["action_mask"].shape == (5, layout.num_actions)
    assert info["action_mask"].dtype == np.int8
    assert info["to_act"].shape == (5,) and set(info["to_act"].tolist()) <= set(range(players))
    assert venv.single_observation_space.contains(obs[0])
    rows = np.arange(5)
    assert (info["action_mask"].sum(axis=1) > 0).all()
    actions = np.array([np.flatnonzero(info["action_mask"][i])[0] for i in rows])
    obs, rewards, terminations, truncations, info = venv.step(actions)
    assert rewards.shape == (5, players) and rewards.dtype == np.float32
    assert terminations.shape == (5,) and not truncations.any()
    assert info["final_returns"].shape == (5, players)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_same_seed_gives_the_same_games_whatever_the_batch_size(name: str,
                                                                   players: int) -> None:
    small, large = (vector.make(name, n, num_players=players) for n in (3, 8))
    a, _ = small.reset(seed=7)
    b, _ = large.reset(seed=7)
    assert np.array_equal(a, b[:3])
    for _ in range(30):
        masks = small.action_masks()
        actions = np.argmax(masks, axis=1)
        a, ra, da, _, _ = small.step(actions)
        b, rb, db, _, _ = large.step(np.concatenate([actions, np.argmax(large.action_masks()[3:],
                                                                        axis=1)]))
        assert np.array_equal(a, b[:3]) and np.array_equal(ra, rb[:3])
        assert np.array_equal(da, db[:3])
    other = vector.make(name, 3, num_players=players)
    c, _ = other.reset(seed=8)
    d, _ = other.reset(seed=7)
    assert not np.array_equal(c, d) or name == "kuhn_poker"


def test_seed_states_refuse_a_bad_seed() -> None:
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        seed_states(-1, 4)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        seed_states("3", 4)  # type: ignore[arg-type]


def test_an_illegal_action_is_refused_naming_the_row_and_nothing_moves() -> None:
    venv = vector.make("kuhn_poker", 4)
    obs, info = venv.reset(seed=0)
    before = venv.engine.export(2)
    actions = np.argmax(info["action_mask"], axis=1)
    actions[2] = 2  # call, with no bet to face
    with pytest.raises(IllegalMoveError, match=r"row 2, seat 0: action 2 \(call\); legal: "
                                               r"check, bet"):
        venv.step(actions)
    with pytest.raises(IllegalMoveError, match="out of bounds"):
        venv.step(np.array([9, 0, 0, 0]))
    with pytest.raises(IllegalMoveError, match="4 integers"):
        venv.step(np.zeros(3, np.int64))
    with pytest.raises(IllegalMoveError, match="dtype float"):
        venv.step(np.zeros(4))
    assert venv.engine.export(2) == before
    assert np.array_equal(venv.engine.lengths, np.zeros(4))


def test_step_before_reset_and_reset_options_are_refused() -> None:
    venv = vector.make("kuhn_poker", 2)
    with pytest.raises(RuntimeError, match="before reset"):
        venv.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="set rule options in make"):
        venv.reset(seed=0, options={"ante": 2})


def test_a_finished_game_is_dealt_again_and_its_returns_kept_in_info() -> None:
    venv = vector.make("kuhn_poker", 6, ante=2)
    obs, info = venv.reset(seed=3)
    bet = np.full(6, 1)
    obs, rewards, terminations, _, info = venv.step(bet)  # seat 0 bets everywhere
    assert not terminations.any() and (info["to_act"] == 1).all()
    obs, rewards, terminations, _, info = venv.step(np.full(6, 3))  # seat 1 folds
    assert terminations.all() and info["_final"].all()
    assert np.array_equal(rewards, np.tile([2.0, -2.0], (6, 1)))
    assert np.array_equal(info["final_returns"], rewards)
    assert (info["final_lengths"] == 2).all()
    assert (info["to_act"] == 0).all()
    assert (info["action_mask"][:, :2] == 1).all()  # a new hand: check or bet


def test_arrays_are_copies_unless_asked_otherwise() -> None:
    venv = vector.make("kuhn_poker", 2)
    obs, info = venv.reset(seed=0)
    obs2, *_ = venv.step(np.argmax(info["action_mask"], axis=1))
    assert obs is not obs2 and not np.shares_memory(obs, obs2)
    fast = vector.make("kuhn_poker", 2, copy=False)
    first, _ = fast.reset(seed=0)
    second, *_ = fast.step(np.argmax(fast.action_masks(), axis=1))
    assert np.shares_memory(first, second)


def test_a_negative_action_holds_its_row() -> None:
    engine = find_game("kuhn_poker").make_batched(3, 2)
    engine.reset(seed=0)
    engine.step(np.array([1, -1, 1]))
    assert engine.lengths.tolist() == [1, 0, 1]
    engine.step(np.array([3, -1, -1]))  # row 0 folds: dealt again
    assert engine.done.tolist() == [True, False, False]
    assert engine.lengths.tolist() == [0, 0, 1] and not engine.over.any()
    assert engine.rewards[0].tolist() == [1.0, -1.0] and not engine.rewards[1:].any()


def test_a_playout_ends_every_row_and_returns_its_rewards() -> None:
    engine = find_game("kuhn_poker").make_batched(50, 2)
    engine.reset(seed=4)
    returns = engine.playout()
    assert engine.over.all()
    assert np.array_equal(returns, engine.final_returns)
    assert (returns.sum(axis=1) == 0).all() and set(np.abs(returns[:, 0]).tolist()) <= {1, 2}
    engine.step(np.zeros(50, np.int64), autoreset=False)  # rows over: actions ignored
    assert engine.over.all() and not engine.rewards.any()


def test_the_example_game_plays_the_same_game_as_its_reference() -> None:
    game = find_game("kuhn_poker")
    assert check_batched(game, 2, decisions=20_000, batch=32) >= 20_000
    assert check_batched(game, 2, {"ante": 2}, decisions=2_000, batch=8) >= 2_000


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_leak_test_holds_over_the_batched_encoder(name: str, players: int) -> None:
    kit = batched_kit(GameKit.of(find_game(name)))
    assert check_no_leaks(kit, players, games=2, resamples=2, probe_budget=150) > 0


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_choice_checks_hold_over_the_batched_encoder(name: str, players: int) -> None:
    game = find_game(name)
    report = check_choices(batched_kit(GameKit.of(game)), players, games=3, probe_budget=60)
    if game.hidden_move is not None:  # the game has secret choices
        assert report.private_pairs > 0 and report.resamples > 0
    assert report.public_pairs > 0


def test_the_observer_env_really_observes_through_the_engine() -> None:
    from cardgym.testing.batched import batched_observer_env

    env = batched_observer_env(find_game("kuhn_poker"), num_players=2)
    env.reset(seed=0)
    calls = []
    engine_observe = type(env)._game_encode
    assert env._game_encode is not engine_observe  # replaced on the instance
    original = env.observe("player_0")["observation"]
    env.game_state.cards[0] = (env.game_state.cards[0] + 1) % 3
    changed = env.observe("player_0")["observation"]
    calls.append(int(np.argmax(changed[:3])))
    assert not np.array_equal(original, changed)
    assert calls == [env.game_state.cards[0]]


def test_a_cache_older_than_a_module_of_its_package_is_dropped(tmp_path) -> None:
    import os

    from cardgym.vector._numba import clear_stale_cache

    (tmp_path / "kernels.py").write_text("")
    (tmp_path / "flow.py").write_text("")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    names = ["kernels.step-10.py311.nbi", "kernels.step-10.py311.1.nbc",
             "kernels.step-10.py311.2.nbc", "kernels.view-40.py311.nbi"]
    for name in names:
        (cache / name).write_text("")
        os.utime(cache / name, (1_000, 1_000))  # written long before the sources
    future = 4_000_000_000  # far in the future: newer than every source
    os.utime(cache / names[3], (future, future))
    clear_stale_cache(str(tmp_path / "__init__.py"))
    assert sorted(path.name for path in cache.iterdir()) == [names[3]]
    os.utime(tmp_path / "flow.py", (future + 1, future + 1))  # flow.py edited after it
    clear_stale_cache(str(tmp_path / "__init__.py"))
    assert not list(cache.iterdir())


@pytest.mark.parametrize("name", [game.name for game in BATCHED])
def test_fill_copies_the_rows_and_leaves_shared_tables_alone(name: str) -> None:
    """A batch as large as a shared table (Karel Kakelaar's pile of 45 cards) is the
    case where a table could pass for a per-row array."""
    game = find_game(name)
    players = game.player_counts[0]
    engine = game.make_batched(45, players)
    engine.reset(seed=2)
    tables = {key: value.copy() for key, value in vars(engine).items()
              if isinstance(value, np.ndarray) and key not in engine.row_arrays}
    state = engine.export(7)
    engine.fill(state)
    for key, value in tables.items():
        if key != "rng":
            # Bit for bit: a scratch buffer may hold NaN, which equals nothing.
            assert getattr(engine, key).tobytes() == value.tobytes(), key
    assert all(engine.export(i) == engine.export(0) for i in (1, 20, 44))
    assert game.position(engine.export(44)) == game.position(state)


def test_row_fields_must_name_per_row_arrays() -> None:
    engine_class = type(find_game("kuhn_poker").make_batched(2, 2))

    class Broken(engine_class):  # type: ignore[misc, valid-type]
        row_fields = ("cards", "missing")

        def _allocate(self) -> None:
            super()._allocate()
            self.missing = np.zeros(3)

    with pytest.raises(TypeError, match="row_fields names missing, which are not arrays of 2"):
        Broken(find_game("kuhn_poker").make_config(2), 2)


# ------------------------------------------------------------ the written contract

#: What a game's engine provides beyond the base class's abstract methods, and what
#: the base class gives it to use; the guide must name each.
CONTRACT_NAMES = ("game", "row_fields", "_legal", "_loaded", "make_batched", "fill", "playout",
                  "below", "shuffle", "chance", "clear_stale_cache", "check_batched",
                  "mirrored", "batched_kit")


def engine_guide() -> str:
    text = (REPO / "docs" / "vector.md").read_text(encoding="utf-8")
    return text.split("## Writing a batched engine for a game\n", 1)[1].split("\n## ", 1)[0]


def test_the_game_contract_points_to_the_guide_to_writing_an_engine() -> None:
    """Issue 35: ``Game.batched`` named the base class only."""
    entry = inspect.getdoc(Game).split("batched:", 1)[1].split("\n\n", 1)[0]
    assert 'docs/vector.md, "Writing a batched engine\n' in entry
    assert engine_guide()


def test_the_guide_to_writing_an_engine_covers_the_whole_contract() -> None:
    """Issue 35: the guide named half of what an engine must do. Every method the
    base class leaves to the game, every bookkeeping array, and what the callers and
    the checks rely on are in it."""
    guide = engine_guide()
    abstract = [name for name, member in vars(BatchedEngine).items()
                if callable(member) and "raise NotImplementedError" in inspect.getsource(member)]
    # _playout is optional: without it playout() steps one decision at a time.
    assert sorted(abstract) == ["_allocate", "_deal", "_observe", "_playout", "_row_format",
                                "_step"]
    # export and load: the base class's from a row format, or the engine's own.
    moving = ["row_format", "export", "load", "_export_rest", "_load_rest"]
    bookkeeping = [*_BOOKKEEPING, "rng"]
    missing = [name for name in ("_allocate", "_deal", "_observe", "_step", "_playout", *moving,
                                 *bookkeeping, *CONTRACT_NAMES)
               if not re.search(rf"`[^`]*\b{re.escape(name)}\b[^`]*`", guide)]
    assert not missing, f"docs/vector.md's guide does not name {missing}"


def test_a_batched_engine_leaves_pytorchs_thread_count_as_it_was() -> None:
    # numba's OpenMP pool starts with the first parallel kernel and would set the
    # OpenMP thread count, which PyTorch shares, to every core: a fresh process
    # pins PyTorch to one thread, steps an engine, and reads the count again.
    import subprocess
    import sys

    script = (
        "import torch\n"
        "torch.set_num_threads(1)\n"
        "assert torch.get_num_threads() == 1\n"
        "import cardgym.vector as v\n"
        "e = v.make('power_hungry_pets', 64, 2)\n"
        "e.reset(seed=0)\n"
        "e.step(e.engine.random_actions(e.action_masks()))\n"
        "print(torch.get_num_threads())\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=REPO)
    assert result.stdout.strip() == "1"
