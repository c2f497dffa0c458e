"""What an env keeps between games is bounded: the caches that make a step cheap
(the mask arrays of every env, Exploding Kittens' shared events and PLAY-phase
masks) hold at most a few MiB when full, measured on the entries real games put in
them. ``benchmarks/memory.py`` measures the whole process over 100,000 games."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

import cardgym.aec as aec
import ek_env.legality as legality
import ek_env.record as record
from benchmarks.memory import format_markdown, measure, play
from cardgym.registration import find_game

#: What the three caches together may hold when full.
BUDGET_MIB = 16

#: A dict's own cost per entry (hash, key and value pointers, spare room), roughly.
SLOT = 3 * 8 * 2


def mean_size(pairs: list[tuple[Any, Any]]) -> float:
    def deep(value: Any) -> int:
        if isinstance(value, int) and -5 <= value <= 256:
            return 0  # Python's shared small integers
        if isinstance(value, tuple):
            return sys.getsizeof(value) + sum(deep(item) for item in value)
        return sys.getsizeof(value)

    return SLOT + float(np.mean([deep(key) + deep(value) for key, value in pairs]))


def test_the_caches_an_env_keeps_are_bounded_to_a_few_mib() -> None:
    env = find_game("exploding_kittens").make_env(num_players=4, expansions=("streaking",))
    rng = np.random.default_rng(0)
    for seed in range(60):
        play(env, rng, seed)
    caches = {
        "mask arrays": (env.unwrapped._mask_arrays, aec._MASK_CACHE_SIZE),
        "events": (record._INTERNED, record.INTERNED_EVENTS),
        "PLAY masks": (legality.STREAKING_LEGALITY._play_masks, legality._PLAY_CACHE),
    }
    full = {}
    for name, (cache, bound) in caches.items():
        assert 0 < len(cache) <= bound, name
        full[name] = mean_size(list(cache.items())) * bound / 2**20
    assert sum(full.values()) <= BUDGET_MIB, full


def test_the_benchmark_reads_memory_at_ten_checkpoints_and_tabulates_them() -> None:
    row = measure("karel_kakelaar", 2, {}, 20)
    assert [played for played, _ in row.checkpoints] == list(range(2, 21, 2))
    assert all(mib > 0 for _, mib in row.checkpoints)
    table = format_markdown([row], 20)
    assert "| karel_kakelaar | 2 | - | 20 |" in table
    assert "python -m benchmarks.memory --games 20" in table
