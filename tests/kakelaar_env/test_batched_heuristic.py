"""The batched Karel Kakelaar heuristic (``KakelaarHeuristic.act_batch``, scored by
:mod:`kakelaar_env.batched.heuristic`) picks what :meth:`KakelaarHeuristic.act` picks row
by row, and leaves the generator where the row-by-row calls leave it.

The decisions are observations and masks of states reached in real games (the batched
engine, whose observations are bit-identical to the AEC env's) at every table size and
under every rule option set, reached by a mix of heuristic and random play.
"""

from __future__ import annotations

import builtins
from collections import Counter
from typing import Any, cast

import numpy as np
import pytest
from numpy.typing import NDArray

import cardgym.vector
import kakelaar_env.heuristic as heuristic_module
from cardgym.heuristic import pick_best
from kakelaar_env.batched.heuristic import batch_scores
from kakelaar_env.encoding.encoding import ACTION_TABLE, OBSERVATION_SPEC
from kakelaar_env.engine.state import PHASE_NAMES, Config
from kakelaar_env.game import GAME
from kakelaar_env.heuristic import KakelaarHeuristic

DECISIONS = 100_000
ROWS = 64  # matches played side by side per table size and option set
_PHASE = OBSERVATION_SPEC.offsets["phase"]

Batch = tuple[Config, NDArray[np.float32], NDArray[np.int8]]


def _collect(num_players: int, options: dict[str, Any], decisions: int, seed: int
             ) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
    """The observations and masks of ``decisions`` decisions of ``ROWS`` matches, each
    step played by the heuristic in about half of the rows and at random in the rest."""
    venv = cardgym.vector.make("karel_kakelaar", num_envs=ROWS, num_players=num_players,
                               **options)
    policy = KakelaarHeuristic(Config(num_players=num_players, **options))
    rng = np.random.default_rng(seed)
    obs, info = venv.reset(seed=seed)
    masks = info["action_mask"]
    seen_obs, seen_masks = [], []
    for _ in range(-(-decisions // ROWS)):
        seen_obs.append(obs.copy())
        seen_masks.append(masks.copy())
        random = np.where(masks != 0, rng.random(masks.shape), -1.0).argmax(axis=1)
        chosen = policy.act_batch(obs, masks, rng)
        actions = np.where(rng.random(ROWS) < 0.5, chosen, random)
        obs, _, _, _, info = venv.step(actions)
        masks = info["action_mask"]
    venv.close()
    return np.concatenate(seen_obs)[:decisions], np.concatenate(seen_masks)[:decisions]


@pytest.fixture(scope="module")
def batches() -> list[Batch]:
    """Decisions across 2..5 players and every option set, ``DECISIONS`` in all."""
    combos = [(n, options) for n in GAME.player_counts for options in GAME.test_option_sets]
    out = []
    for i, (n, options) in enumerate(combos):
        share = DECISIONS // len(combos) + (1 if i < DECISIONS % len(combos) else 0)
        obs, masks = _collect(n, dict(options), share, seed=1_000 + i)
        out.append((Config(num_players=n, **options), obs, masks))
    return out


def _row_by_row(policy: KakelaarHeuristic, obs: NDArray[np.float32], masks: NDArray[np.int8],
                rng: np.random.Generator) -> NDArray[np.int64]:
    return np.array([policy.act(o, m, rng) for o, m in zip(obs, masks, strict=True)], np.int64)


class _Counting:
    """A generator that counts the tie breaks drawn through it (``act`` calls only
    ``integers``)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.draws = 0

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        self.draws += 1
        return self.rng.integers(*args, **kwargs)


def _mismatch(config: Config, masks: NDArray[np.int8], batched: NDArray[np.int64],
              reference: NDArray[np.int64]) -> str:
    row = int(np.flatnonzero(batched != reference)[0])
    legal = [ACTION_TABLE.names[a] for a in np.flatnonzero(masks[row])]
    return (f"{config}: row {row} (legal {legal}): act_batch chose "
            f"{ACTION_TABLE.names[batched[row]]}, act chose {ACTION_TABLE.names[reference[row]]}")


def test_batched_actions_equal_the_row_by_row_actions(batches: list[Batch]) -> None:
    choices: Counter[str] = Counter()
    draws = 0
    total = 0
    for i, (config, obs, masks) in enumerate(batches):
        policy = KakelaarHeuristic(config)
        batched_rng, reference_rng = np.random.default_rng(i), np.random.default_rng(i)
        batched = policy.act_batch(obs, masks, batched_rng)
        counting = _Counting(reference_rng)
        reference = _row_by_row(policy, obs, masks, cast(np.random.Generator, counting))
        draws += counting.draws
        total += len(obs)
        assert batched.dtype == np.int64 and batched.shape == (len(obs),)
        assert np.array_equal(batched, reference), _mismatch(config, masks, batched, reference)
        assert batched_rng.bit_generator.state == reference_rng.bit_generator.state, (
            f"{config}: the generators end in different states")
        phase = obs[:, _PHASE:_PHASE + len(PHASE_NAMES)].argmax(axis=1)
        choosing = (masks != 0).sum(axis=1) > 1
        choices.update(PHASE_NAMES[p] for p in phase[choosing])
    assert total == DECISIONS
    # Every phase the heuristic scores differently is covered, with real choices.
    # (Decisions with a choice, at the time of writing: about 62,000 bids, 17,700 mother
    # hens, 8,700 first and 8,600 second cards taken back.)
    assert choices["bid"] >= 50_000, choices
    assert choices["hen"] >= 10_000, choices
    assert choices["take_first"] >= 5_000, choices
    assert choices["take_second"] >= 5_000, choices
    # Ties happen (equal chickens late in the game, equal take-backs): the draws are tested.
    assert draws >= 1_000, draws  # about 1,300 at the time of writing


def test_batched_scores_are_bit_identical(batches: list[Batch],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scored action's score, not only the choice: a change in the order of the
    float arithmetic shows here even where it does not change a choice."""
    seen: list[dict[int, float]] = []

    def recording(scores: dict[int, float], rng: np.random.Generator, eps: float = 1e-9) -> int:
        seen.append(dict(scores))
        return pick_best(scores, rng, eps)

    monkeypatch.setattr(heuristic_module, "pick_best", recording)
    compared = 0
    for config, obs, masks in batches[::2]:
        policy = KakelaarHeuristic(config)
        scores, _, _, _ = batch_scores(obs, (masks != 0).astype(np.int8))
        rng = np.random.default_rng(0)
        for row in range(0, len(obs), 3):
            if np.count_nonzero(masks[row]) == 1:
                continue
            seen.clear()
            policy.act(obs[row], masks[row], rng)
            reference = seen[0]
            actions = sorted(reference)
            expected = np.array([reference[a] for a in actions], np.float64)
            assert expected.tobytes() == scores[row, actions].tobytes(), (
                f"{config}: row {row}: scores of {[ACTION_TABLE.names[a] for a in actions]}: "
                f"act {expected.tolist()}, batched {scores[row, actions].tolist()}")
            compared += 1
    assert compared >= 5_000, compared


def test_a_batch_of_one_row(batches: list[Batch]) -> None:
    config, obs, masks = batches[-1]
    policy = KakelaarHeuristic(config)
    for row in range(0, len(obs), 97):
        batched_rng, reference_rng = np.random.default_rng(row), np.random.default_rng(row)
        batched = policy.act_batch(obs[row:row + 1], masks[row:row + 1], batched_rng)
        assert batched.tolist() == [policy.act(obs[row], masks[row], reference_rng)]
        assert batched_rng.bit_generator.state == reference_rng.bit_generator.state


def test_an_empty_batch(batches: list[Batch]) -> None:
    config, obs, masks = batches[0]
    chosen = KakelaarHeuristic(config).act_batch(obs[:0], masks[:0], np.random.default_rng(0))
    assert chosen.shape == (0,) and chosen.dtype == np.int64


def test_without_numba_the_rows_go_through_act(batches: list[Batch],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    config, obs, masks = batches[1]
    obs, masks = obs[:500], masks[:500]
    real_import = builtins.__import__

    def no_batched(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("kakelaar_env.batched"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_batched)
    policy = KakelaarHeuristic(config)
    fallback_rng, reference_rng = np.random.default_rng(5), np.random.default_rng(5)
    chosen = policy.act_batch(obs, masks, fallback_rng)
    monkeypatch.undo()
    assert chosen.dtype == np.int64
    assert np.array_equal(chosen, _row_by_row(policy, obs, masks, reference_rng))
    assert fallback_rng.bit_generator.state == reference_rng.bit_generator.state


@pytest.mark.parametrize(("obs_shape", "mask_shape", "obs_dtype", "mask_dtype", "message"), [
    ((3, OBSERVATION_SPEC.size + 1), (3, len(ACTION_TABLE)), np.float32, np.int8, "observations"),
    ((OBSERVATION_SPEC.size,), (len(ACTION_TABLE),), np.float32, np.int8, "observations"),
    ((3, OBSERVATION_SPEC.size), (2, len(ACTION_TABLE)), np.float32, np.int8, "action masks"),
    ((3, OBSERVATION_SPEC.size), (3, len(ACTION_TABLE) - 1), np.float32, np.int8, "action masks"),
    ((3, OBSERVATION_SPEC.size), (3, len(ACTION_TABLE)), np.int64, np.int8, "floats"),
    ((3, OBSERVATION_SPEC.size), (3, len(ACTION_TABLE)), np.float32, np.float32, "integers"),
])
def test_bad_shapes_and_dtypes_are_refused(obs_shape: tuple[int, ...],
                                           mask_shape: tuple[int, ...], obs_dtype: Any,
                                           mask_dtype: Any, message: str) -> None:
    policy = KakelaarHeuristic(Config(num_players=3))
    obs, masks = np.zeros(obs_shape, obs_dtype), np.ones(mask_shape, mask_dtype)
    with pytest.raises(ValueError, match=message):
        policy.act_batch(obs, masks, np.random.default_rng(0))


def test_a_row_without_a_legal_action_is_refused(batches: list[Batch]) -> None:
    config, obs, masks = batches[0]
    masks = masks[:4].copy()
    masks[2] = 0
    with pytest.raises(ValueError, match="row 2 has no legal action"):
        KakelaarHeuristic(config).act_batch(obs[:4], masks, np.random.default_rng(0))
