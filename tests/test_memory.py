"""What an env keeps between games is bounded: the caches that make a step cheap
(the mask arrays of every env, Exploding Kittens' shared events and PLAY-phase
masks) hold at most a few MiB when full, measured on the entries real games put in
them. ``benchmarks/memory.py`` measures the whole process over 100,000 games."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import cardgym.aec as aec
import ek_env.engine.legality as legality
import ek_env.engine.record as record
from benchmarks.memory import QUICK_GAMES, format_markdown, measure, parse_arguments, play
from cardgym.registration import find_game

#: What the three caches together may hold when full.
BUDGET_MIB = 16

#: The most entries each cache may hold at any time: a few MiB each when full.
MOST_ENTRIES = {"mask arrays": 4_096, "events": 16_384, "PLAY masks": 16_384}

#: A dict's own cost per entry (hash, key and value pointers, spare room), roughly.
SLOT = 3 * 8 * 2


def deep(value: Any) -> int:
    """Bytes ``value`` holds of its own (Python's shared small integers cost nothing)."""
    if isinstance(value, int) and -5 <= value <= 256:
        return 0
    if isinstance(value, tuple):
        return sys.getsizeof(value) + sum(deep(item) for item in value)
    return sys.getsizeof(value)


def mean_size(pairs: list[tuple[Any, Any]]) -> float:
    return SLOT + float(np.mean([deep(key) + deep(value) for key, value in pairs]))


def caches_of(env: Any) -> dict[str, dict[Any, Any]]:
    """The caches an Exploding Kittens env with Streaking Kittens fills as it plays."""
    return {"mask arrays": env.unwrapped._mask_arrays, "events": record._INTERNED,
            "PLAY masks": legality.STREAKING_LEGALITY._play_masks}


def test_the_caches_an_env_keeps_are_bounded_to_a_few_mib() -> None:
    env = find_game("exploding_kittens").make_env(num_players=4, expansions=("streaking",))
    rng = np.random.default_rng(0)
    for seed in range(60):
        play(env, rng, seed)
    bounds = {"mask arrays": aec._MASK_CACHE_SIZE, "events": record.INTERNED_EVENTS,
              "PLAY masks": legality._PLAY_CACHE}
    full = {}
    for name, cache in caches_of(env).items():
        assert 0 < len(cache) <= bounds[name], name
        full[name] = mean_size(list(cache.items())) * bounds[name] / 2**20
    assert sum(full.values()) <= BUDGET_MIB, full


def test_exploding_kittens_caches_stop_growing_over_a_benchmark_run() -> None:
    # 300 games of the benchmark: the mask arrays alone pass 5,000 entries (about
    # 4 MiB) when nothing clears them; bounded, no cache passes its most entries.
    seen: list[dict[str, int]] = []

    def entries(env: Any) -> float:
        seen.append({name: len(cache) for name, cache in caches_of(env).items()})
        return float(sum(seen[-1].values()))

    row = measure("exploding_kittens", 4, {"expansions": ("streaking",)}, 300, probe=entries)
    assert [point.games for point in row.checkpoints] == list(range(30, 301, 30))
    assert len(seen) == 10
    for name, most in MOST_ENTRIES.items():
        assert max(point[name] for point in seen) <= most, (name, seen)


def test_the_benchmark_reads_memory_at_ten_checkpoints_and_tabulates_them() -> None:
    row = measure("karel_kakelaar", 2, {}, 20, trace=True)
    assert [point.games for point in row.checkpoints] == list(range(2, 21, 2))
    assert all(point.rss_mib > 0 for point in row.checkpoints)
    # Read at every checkpoint (on the compiled rules, the env's default here, what
    # Python holds can round to 0.0 MiB).
    assert all(point.traced_mib is not None and point.traced_mib >= 0
               for point in row.checkpoints)
    assert row.traced_bytes_per_game is not None
    table = format_markdown([row], "python -m benchmarks.memory --games 20 --trace")
    assert "| karel_kakelaar | 2 | - | 20 |" in table
    assert "`python -m benchmarks.memory --games 20 --trace`" in table


def test_the_benchmark_has_a_quick_mode_and_refuses_it_with_a_game_count() -> None:
    assert parse_arguments([]).games == 100_000
    assert parse_arguments(["--quick"]).games == QUICK_GAMES
    assert parse_arguments(["--games", "500"]).games == 500
    with pytest.raises(SystemExit):
        parse_arguments(["--quick", "--games", "500"])
    with pytest.raises(SystemExit):
        parse_arguments(["--games", "0"])
