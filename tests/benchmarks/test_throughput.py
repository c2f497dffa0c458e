"""The throughput benchmark's parts: the random chooser, the play loop, variants, output."""

from __future__ import annotations

import argparse
import gc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from benchmarks import throughput
from benchmarks.throughput import (
    Args,
    Measurement,
    RandomLegalChooser,
    Report,
    Run,
    Subject,
    frozen_heap,
    game_factories,
    play,
)
from cardgym.registration import GAMES, find_game, short_name

SETTINGS = [(game, count) for game in GAMES for count in game.player_counts]
SETTING_IDS = [f"{short_name(game.env_id)}-{count}p" for game, count in SETTINGS]


def checking(choose: RandomLegalChooser, seen: list[tuple[NDArray[Any], int]]) -> Callable[
    [NDArray[Any]], int
]:
    """``choose``, recording every mask it was given and the action it picked."""

    def record(mask: NDArray[Any]) -> int:
        action = choose(mask)
        seen.append((np.array(mask), action))
        return action

    return record


# ----------------------------------------------------------------- chooser


def test_chooser_only_picks_legal_actions_on_random_masks() -> None:
    masks = np.random.default_rng(1).random((2000, 95)) < np.linspace(0.01, 0.9, 2000)[:, None]
    masks[:, 94] |= ~masks.any(axis=1)  # at least one legal action, sometimes only the last
    choose = RandomLegalChooser(np.random.default_rng(2), batch_size=64)
    for mask in masks.astype(np.int8):
        action = choose(mask)
        assert mask[action] == 1


def test_chooser_picks_the_only_legal_action() -> None:
    choose = RandomLegalChooser(np.random.default_rng(0))
    for index in (0, 17, 94):
        mask = np.zeros(95, dtype=np.int8)
        mask[index] = 1
        assert [choose(mask) for _ in range(20)] == [index] * 20


def test_chooser_reaches_every_legal_action_and_nothing_else() -> None:
    mask = np.zeros(20, dtype=np.int8)
    mask[[1, 4, 5, 19]] = 1
    choose = RandomLegalChooser(np.random.default_rng(3), batch_size=7)
    counts = np.bincount([choose(mask) for _ in range(4000)], minlength=20)
    assert set(np.flatnonzero(counts)) == {1, 4, 5, 19}
    assert counts.min(initial=4000, where=mask == 1) > 800  # about 1000 each


def test_chooser_is_reproducible_from_its_generator_seed() -> None:
    mask = np.ones(30, dtype=np.int8)
    first = RandomLegalChooser(np.random.default_rng(9), batch_size=5)
    second = RandomLegalChooser(np.random.default_rng(9), batch_size=5)
    assert [first(mask) for _ in range(50)] == [second(mask) for _ in range(50)]


def test_chooser_rejects_a_mask_without_legal_actions() -> None:
    choose = RandomLegalChooser(np.random.default_rng(0))
    with pytest.raises(ValueError, match="no legal action"):
        choose(np.zeros(10, dtype=np.int8))


@pytest.mark.parametrize(("game", "count"), SETTINGS, ids=SETTING_IDS)
def test_chooser_plays_only_legal_actions_in_every_variant(game: Any, count: int) -> None:
    for variant, make in game_factories(game, count).items():
        seen: list[tuple[NDArray[Any], int]] = []
        choose = checking(RandomLegalChooser(np.random.default_rng(4)), seen)
        run = play(make(), choose, seed=4, max_episodes=3)
        assert run.episodes == 3, variant
        assert seen, variant
        assert all(mask[action] == 1 for mask, action in seen), variant


def test_chooser_plays_only_legal_actions_in_leduc() -> None:
    leduc = throughput.load_leduc()
    if leduc is None:
        pytest.skip("pettingzoo.classic.leduc_holdem_v4 is not installed (bench extra)")
    seen: list[tuple[NDArray[Any], int]] = []
    play(leduc(), checking(RandomLegalChooser(np.random.default_rng(5)), seen), seed=5,
         max_episodes=20)
    assert all(mask[action] == 1 for mask, action in seen)


# -------------------------------------------------------------------- play


def test_play_counts_one_step_per_env_step_call_and_whole_episodes() -> None:
    game, count = find_game("power_hungry_pets"), 2
    env = game_factories(game, count)[throughput.ENV]()
    calls = {"step": 0, "reset": 0}
    step, reset = env.step, env.reset

    def counted_step(action: Any) -> None:
        calls["step"] += 1
        step(action)

    def counted_reset(**kwargs: Any) -> None:
        calls["reset"] += 1
        reset(**kwargs)

    env.step = counted_step  # type: ignore[method-assign]
    env.reset = counted_reset  # type: ignore[method-assign]
    run = play(env, RandomLegalChooser(np.random.default_rng(0)), seed=0, max_episodes=4)
    assert run.episodes == 4 == calls["reset"]
    assert run.steps == calls["step"]
    assert not env.agents  # the last episode was played to its end


def test_play_needs_a_time_budget_or_an_episode_count() -> None:
    game, count = find_game("power_hungry_pets"), 2
    env = game_factories(game, count)[throughput.RAW]()
    with pytest.raises(ValueError, match="max_episodes"):
        play(env, RandomLegalChooser(np.random.default_rng(0)))


def test_play_plays_at_least_one_episode_even_without_time() -> None:
    game, count = find_game("power_hungry_pets"), 2
    env = game_factories(game, count)[throughput.RAW]()
    run = play(env, RandomLegalChooser(np.random.default_rng(0)), seconds=0.0, seed=0)
    assert run.episodes == 1
    assert run.steps > 0


# ---------------------------------------------------------------- variants


def test_measurements_leave_the_objects_made_before_them_out_of_each_collection() -> None:
    before = gc.get_freeze_count()
    with frozen_heap():
        assert gc.get_freeze_count() > before
    assert gc.get_freeze_count() == 0


def test_the_heap_is_unfrozen_when_a_measurement_fails() -> None:
    with pytest.raises(RuntimeError, match="run failed"), frozen_heap():
        raise RuntimeError("run failed")
    assert gc.get_freeze_count() == 0


def test_each_game_has_env_raw_env_and_the_pettingzoo_chain() -> None:
    game, count = find_game("power_hungry_pets"), 2
    factories = game_factories(game, count)
    # With compiled rules (numba installed), env() plays on them and the Python
    # engine's env is measured beside it.
    assert list(factories) == [throughput.ENV, throughput.PYTHON, throughput.RAW,
                               throughput.WRAPPED]
    assert factories[throughput.ENV]().unwrapped.engine == "compiled"
    assert factories[throughput.PYTHON]().unwrapped.engine == "python"
    assert list(game_factories(find_game("exploding_kittens"), count)) == [
        throughput.ENV, throughput.RAW, throughput.WRAPPED]
    raw = factories[throughput.RAW]()
    wrapped = factories[throughput.WRAPPED]()
    layers = []
    layer: Any = wrapped
    while isinstance(layer, wrappers.BaseWrapper):
        layers.append(type(layer))
        layer = layer.env
    assert layers == [wrappers.OrderEnforcingWrapper, wrappers.AssertOutOfBoundsWrapper,
                      wrappers.TerminateIllegalWrapper]
    assert type(layer) is type(raw)
    assert len(raw.possible_agents) == count == len(wrapped.possible_agents)


def test_subjects_put_the_leduc_reference_last_when_it_is_there() -> None:
    game, count = find_game("power_hungry_pets"), 2
    name = short_name(game.env_id)

    def fake_leduc() -> AECEnv:
        raise AssertionError("not built here")

    def labels(subjects: list[Subject]) -> list[tuple[str, int, str]]:
        return [(s.env_name, s.num_players, s.variant) for s in subjects]

    args = Args(games=(name,), players=(count,))
    with_leduc = throughput.build_subjects(args, fake_leduc)
    without = throughput.build_subjects(args, None)
    assert labels(with_leduc) == labels(without) + [(throughput.LEDUC, 2, throughput.ENV)]
    assert labels(without) == [(name, count, variant) for variant in
                               (throughput.ENV, throughput.PYTHON, throughput.RAW,
                                throughput.WRAPPED)]
    assert [s.reference for s in with_leduc] == [False] * len(without) + [True]
    assert len({s.seed for s in without}) == 1  # the variants play the same deals


def test_command_line_defaults_match_the_args_dataclass() -> None:
    parser = argparse.ArgumentParser()
    throughput.add_arguments(parser)
    assert throughput.args_from_namespace(parser.parse_args([])) == Args()


# ------------------------------------------------------------------ output


def synthetic_report(with_leduc: bool) -> Report:
    """A report from made-up runs (no timing involved)."""

    def never_built() -> AECEnv:
        raise AssertionError("formatting builds no environment")

    def subject(name: str, variant: str, reference: bool = False) -> Subject:
        return Subject(name, 2, variant, never_built, seed=0, reference=reference)

    measurements = [
        Measurement(subject("game", throughput.ENV),
                    [Run(40_000, 1000, 1.0, 38_000), Run(20_000, 500, 1.0, 19_000),
                     Run(30_000, 750, 1.0, 28_500)]),
        Measurement(subject("game", throughput.WRAPPED), [Run(10_000, 250, 1.0, 9_500)]),
    ]
    if with_leduc:
        measurements.append(Measurement(subject(throughput.LEDUC, throughput.ENV, True),
                                        [Run(15_000, 3000, 1.0, 9_500)]))
    return Report(Args(seconds=1.0, rounds=3), measurements, with_leduc)


def test_markdown_reports_median_rate_microseconds_and_ratio_to_leduc() -> None:
    text = throughput.format_markdown(synthetic_report(with_leduc=True))
    assert ("| env | players | variant | steps/s | µs/step | vs leduc env() | decisions/s | "
            "decisions vs leduc |") in text
    # Decisions: the median round's 28,500 against leduc's 9,500.
    assert ("| game | 2 | env() | 30,000 | 33.3 | 2.00x | 28,500 | 3.00x | 40,000 | 67% | "
            "40.0 |") in text
    assert ("| leduc_holdem_v4 | 2 | env() | 15,000 | 66.7 | 1.00x | 9,500 | 1.00x | 15,000 | "
            "0% | 5.0 |") in text
    assert "not installed" not in text


def test_markdown_without_leduc_says_so_and_has_no_ratio_column() -> None:
    text = throughput.format_markdown(synthetic_report(with_leduc=False))
    assert "vs leduc" not in text
    assert "| game | 2 | raw_env()+wrappers | 10,000 | 100.0 | 9,500 | 10,000 | 0% | 40.0 |" in text
    assert "leduc_holdem_v4 is not installed" in text


def test_results_are_written_as_markdown_and_csv(tmp_path: Path) -> None:
    report = synthetic_report(with_leduc=False)
    paths = throughput.write_results(report, tmp_path / "out")
    assert [p.name for p in paths] == ["throughput.md", "throughput.csv"]
    lines = paths[1].read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(report.measurements)
    assert lines[1].startswith("game,2,env(),30000.0,")
    assert paths[0].read_text(encoding="utf-8") == throughput.format_markdown(report)


# ------------------------------------------------------------- comparisons


def test_pettingzoo_comparison_envs_come_after_the_games_and_before_leduc() -> None:
    game, count = find_game("power_hungry_pets"), 2

    def never_built() -> AECEnv:
        raise AssertionError("not built here")

    args = Args(games=(short_name(game.env_id),), players=(count,))
    subjects = throughput.build_subjects(args, never_built, {"texas_holdem_v4": never_built,
                                                             "hanabi_v5": never_built})
    assert [(s.env_name, s.num_players, s.reference) for s in subjects[4:]] == [
        ("texas_holdem_v4", 2, False), ("hanabi_v5", 2, False), (throughput.LEDUC, 2, True)]


def test_comparison_envs_that_import_play_legal_moves() -> None:
    comparisons = throughput.load_comparisons()
    assert set(comparisons) <= set(throughput.COMPARISONS)
    assert set(throughput.load_comparisons(("no_such_env_v0",))) == set()
    for name, make in comparisons.items():
        seen: list[tuple[NDArray[Any], int]] = []
        run = play(make(), checking(RandomLegalChooser(np.random.default_rng(6)), seen), seed=6,
                   max_episodes=3)
        assert run.episodes == 3, name
        assert all(mask[action] == 1 for mask, action in seen), name


def test_building_the_comparison_envs_shows_no_float_precision_warning() -> None:
    """Issue 35: PettingZoo's no-limit Hold'em declares float64 spaces, and Gymnasium
    warned about their precision on every build, in the notebook's output too. The
    benchmark's factories build it quietly, and play on as before."""
    comparisons = throughput.load_comparisons()
    assert "texas_holdem_no_limit_v6" in comparisons
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for make in comparisons.values():
            play(make(), RandomLegalChooser(np.random.default_rng(1)), seed=1, max_episodes=2)
    assert [str(warning.message) for warning in caught] == []
    with warnings.catch_warnings(record=True) as caught:  # still said outside the benchmark
        warnings.simplefilter("always")
        from pettingzoo.classic import texas_holdem_no_limit_v6

        texas_holdem_no_limit_v6.env()
    assert any("precision lowered" in str(warning.message) for warning in caught)


def test_the_streaking_expansion_is_measured_beside_exploding_kittens() -> None:
    args = Args(games=("exploding_kittens",), players=(3,))
    subjects = throughput.build_subjects(args, None)
    labels = [(s.env_name, s.num_players, s.variant) for s in subjects]
    assert labels[-1] == ("exploding_kittens+streaking", 3, throughput.ENV)
    env = subjects[-1].make()
    assert env.config.streaking and env.num_players == 3
    assert len(env.action_table) > len(subjects[0].make().action_table)
    assert len({s.seed for s in subjects}) == 1  # the same deals' seeds as the base game


def test_split_adds_env_without_encoding_playing_the_same_games() -> None:
    game, count = find_game("power_hungry_pets"), 2
    name = short_name(game.env_id)
    plain = throughput.build_subjects(Args(games=(name,), players=(count,)), None)
    split = throughput.build_subjects(Args(games=(name,), players=(count,), split=True), None)
    assert [s.variant for s in split] == [s.variant for s in plain] + [throughput.NO_ENCODING]
    constant, real = split[-1].make(), split[0].make()
    size = real.unwrapped.observation_spec.size
    rewards: dict[str, list[float]] = {"constant": [], "real": []}
    for label, env in (("constant", constant), ("real", real)):
        env.reset(seed=3)
        choose = RandomLegalChooser(np.random.default_rng(5))
        for _agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if label == "constant":
                assert obs["observation"].shape == (size,)
                assert obs["observation"].dtype == np.float32 and not obs["observation"].any()
            rewards[label].append(reward)
            env.step(None if terminated or truncated else choose(obs["action_mask"]))
    assert rewards["constant"] == rewards["real"]  # same game, same masks and rewards


def test_markdown_explains_the_split_row() -> None:
    report = synthetic_report(with_leduc=True)
    report.measurements.insert(1, Measurement(
        Subject("game", 2, throughput.NO_ENCODING, lambda: None, seed=0),  # type: ignore[arg-type, return-value]
        [Run(80_000, 2000, 1.0)]))
    text = throughput.format_markdown(report)
    assert "| game | 2 | env() without encoding | 80,000 | 12.5 | 5.33x |" in text
    assert "constant vector of zeros" in text
