"""The scores :class:`phpets_env.heuristic.PhpetsHeuristic` gives every legal action, for a
batch of observations at once.

The compiled code repeats the per-game heuristic's float arithmetic operation for
operation, in the same order (Python's ``sum`` included: plain left-to-right addition,
or from Python 3.12 on its compensated summation), so each score is bit-identical to
the one :meth:`PhpetsHeuristic.act` computes and the 1e-9 tie window picks the same
tied actions. Only the draws that break ties stay in Python, with the caller's
generator, in row order.
"""

from __future__ import annotations

import inspect
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.heuristic import pick_best
from cardgym.vector._numba import njit
from cardgym.vector.pysum import COMPENSATED, sum_add, sum_end
from phpets_env.batched.layout import (
    O_DECK_SIZE,
    O_FACE_UP,
    O_IN_ROUND,
    O_KNOWN_ASIDE,
    O_KNOWN_DECK,
    O_KNOWN_HANDS,
    O_MY_HAND,
    O_PENDING,
    O_PHASE,
    O_PRESENT,
    O_PROTECTED,
    O_ROWS,
    O_TOKENS,
)
from phpets_env.engine.actions import ACTION_SPECS, KEEP
from phpets_env.engine.cards import COPIES, MAX_DECK, MAX_PLAYERS, NUM_VALUES, Card
from phpets_env.engine.state import GRAVE_DIGGER, MOUSE_TRAPPER, PHASE_NAMES

__all__ = ["EPS", "batch_scores"]

#: Scores within this of the best tie (the default of ``cardgym.heuristic.pick_best``).
EPS: Final[float] = inspect.signature(pick_best).parameters["eps"].default
KING: Final = int(Card.KING_CAT)
ROBOVAC: Final = int(Card.ROYAL_ROBOVAC)
NUM_PHASES: Final = len(PHASE_NAMES)
GRAVE_PHASE: Final = int(GRAVE_DIGGER)
TRAPPER_PHASE: Final = int(MOUSE_TRAPPER)

#: Copies of each value in the deck.
_COPIES: Final = np.array([COPIES[v] for v in sorted(COPIES)], dtype=np.float64)
#: Each action as (kind, card, seat offset, guess or depth), -1 where not given.
_SPECS: Final = np.array(ACTION_SPECS, dtype=np.int64)
NUM_ACTIONS: Final = len(ACTION_SPECS)


@njit
def _beats(mine: Any, theirs: Any, dethrone: Any) -> Any:
    """Chance that ``mine`` beats ``theirs`` at a showdown (a tie: even)."""
    if mine == KING and theirs == ROBOVAC:
        return 0.0 if dethrone else 1.0
    if mine == ROBOVAC and theirs == KING:
        return 1.0
    if mine == theirs:
        return 0.5
    return 1.0 if mine > theirs else 0.0


@njit
def _first_max(obs: Any, start: Any, width: Any) -> Any:
    """``np.argmax`` of ``width`` columns from ``start``: the first largest."""
    best = 0
    for k in range(1, width):
        if obs[start + k] > obs[start + best]:
            best = k
    return best


@njit
def _pool(obs: Any, pool: Any) -> Any:
    """The values whose whereabouts the observer does not know, as chances."""
    total = 0.0
    for v in range(NUM_VALUES):
        u = _COPIES[v] - obs[O_MY_HAND + v] - obs[O_FACE_UP + v] - obs[O_KNOWN_ASIDE + v]
        u -= obs[O_PENDING + v]
        for k in range(MAX_PLAYERS):
            u -= obs[O_ROWS + k * NUM_VALUES + v]
        for k in range(MAX_PLAYERS - 1):
            u -= obs[O_KNOWN_HANDS + k * NUM_VALUES + v]
        for k in range(MAX_DECK):
            u -= obs[O_KNOWN_DECK + k * NUM_VALUES + v]
        pool[v] = max(u, 0.0)  # every term is a small whole number: exact in any order
        total += pool[v]
    for v in range(NUM_VALUES):
        pool[v] = pool[v] / total if total > 0 else 1 / NUM_VALUES


@njit
def _dists(obs: Any, pool: Any, dists: Any, opponents: Any) -> Any:
    """Each opponent's likely hand into ``dists[seat]``; the opponents still in the round
    (relative seats, ascending) into ``opponents``; returns how many."""
    present = 0
    for k in range(MAX_PLAYERS):
        present += int(obs[O_PRESENT + k])
    count = 0
    for k in range(1, present):
        if obs[O_IN_ROUND + k] == 0:
            continue
        opponents[count] = k
        count += 1
        base = O_KNOWN_HANDS + (k - 1) * NUM_VALUES
        known = 0.0
        for v in range(NUM_VALUES):
            known += obs[base + v]
        for v in range(NUM_VALUES):
            dists[k, v] = obs[base + v] / known if known > 0 else pool[v]
    return count


@njit
def _factors(dists: Any, opponents: Any, count: Any, dethrone: Any, compensated: Any,
             factor: Any) -> Any:
    """``factor[card, seat]``: the chance that ``card`` beats that opponent's hand, the
    sum each factor of ``PhpetsHeuristic.strength`` computes."""
    for card in range(NUM_VALUES):
        for i in range(count):
            k = opponents[i]
            total, comp, started = 0.0, 0.0, False
            for x in range(NUM_VALUES):
                if dists[k, x]:
                    total, comp, started = sum_add(
                        total, comp, started, dists[k, x] * _beats(card, x, dethrone), compensated)
            factor[card, k] = sum_end(total, comp, compensated)


@njit
def _strength(card: Any, victim: Any, factor: Any, opponents: Any, count: Any) -> Any:
    """Chance that ``card`` beats every opponent but ``victim`` (-1: none)."""
    win = 1.0
    for i in range(count):
        k = opponents[i]
        if k != victim:
            win *= factor[card, k]
    return win


@njit
def _group(victim: Any, opponents: Any, count: Any) -> Any:
    """How many opponents are left besides ``victim``."""
    group = 0
    for i in range(count):
        if opponents[i] != victim:
            group += 1
    return group


@njit
def _base(card: Any, victim: Any, weight: Any, factor: Any, opponents: Any, count: Any) -> Any:
    """Chance to win the round keeping ``card``, against every opponent but ``victim``."""
    group = _group(victim, opponents, count)
    share = 1.0 / (group + 1)
    return weight * _strength(card, victim, factor, opponents, count) + (1 - weight) * share


@njit
def _after(card: Any, victim: Any, weight: Any, factor: Any, opponents: Any, count: Any) -> Any:
    """The same once ``victim`` is out of the round (a certain win when nobody is left)."""
    if _group(victim, opponents, count) == 0:
        return 1.0
    return _base(card, victim, weight, factor, opponents, count)


@njit
def _base_pool(pool: Any, weight: Any, factor: Any, opponents: Any, count: Any,
               compensated: Any) -> Any:
    """The chance to win the round keeping a card drawn from the unknown pool."""
    total, comp, started = 0.0, 0.0, False
    for x in range(NUM_VALUES):
        if pool[x]:
            total, comp, started = sum_add(
                total, comp, started, pool[x] * _base(x, -1, weight, factor, opponents, count),
                compensated)
    return sum_end(total, comp, compensated)


@njit
def _kept(obs: Any, card: Any) -> Any:
    """The card kept in hand after playing ``card``: the lowest other."""
    for v in range(NUM_VALUES):
        held = int(obs[O_MY_HAND + v]) - (1 if v == card else 0)
        if held > 0:
            return v
    return card


@njit
def _play_score(obs: Any, card: Any, offset: Any, guess: Any, pool: Any, dists: Any,
                weight: Any, factor: Any, opponents: Any, count: Any, dethrone: Any,
                compensated: Any) -> Any:
    """One play's estimated chance to win the round (``phpets_env.heuristic._PLAY_VALUE``)."""
    kept = _kept(obs, card)
    keep = _base(kept, -1, weight, factor, opponents, count)
    lead = 0.002 * float(obs[O_TOKENS + offset]) if offset > 0 else 0.0
    if card == KING:
        return -1.0  # never played voluntarily
    if card in (1, 3, 8):  # Crystal Bowl, Battle Bunny, Hermit Swap: on an opponent
        if offset <= 0:
            return keep
        return _on_opponent(card, offset, guess, kept, keep, lead, dists, weight, factor,
                            opponents, count, dethrone)
    if card == 4:  # Shell Shield
        return keep + 0.03 + (0.03 if kept == KING else 0.0)
    if card == 5:  # Snake Sorcerer
        if offset == 0:
            return -1.0 if kept == KING else _base_pool(pool, weight, factor, opponents, count,
                                                        compensated)
        if offset < 0:
            return keep
        king = dists[offset, KING]
        return (king * _after(kept, offset, weight, factor, opponents, count)
                + (1 - king) * keep + lead)
    if card == 6:  # Grave Digger
        return _grave_digger(obs, keep, pool, weight, factor, opponents, count, compensated)
    if card == 7:  # Jittery Juggler
        return _base_pool(pool, weight, factor, opponents, count, compensated)
    if card == 9:  # Not A Pet!
        return _not_a_pet(obs, kept, keep, dists, weight, factor, opponents, count)
    return keep


@njit
def _on_opponent(card: Any, offset: Any, guess: Any, kept: Any, keep: Any, lead: Any,
                 dists: Any, weight: Any, factor: Any, opponents: Any, count: Any,
                 dethrone: Any) -> Any:
    """Crystal Bowl, Battle Bunny or Hermit Swap played on the opponent at ``offset``."""
    if card == 1:  # Crystal Bowl
        hit = dists[offset, guess]
        return (hit * _after(kept, offset, weight, factor, opponents, count)
                + (1 - hit) * keep + lead)
    if card == 3:  # Battle Bunny
        win = 0.0
        lose = 0.0
        for x in range(NUM_VALUES):
            if x < kept:
                win += dists[offset, x]
            if x > kept:
                lose += dists[offset, x]
        return (win * _after(kept, offset, weight, factor, opponents, count) + lose * 0.0
                + (1 - win - lose) * keep * 0.95 + lead)
    share = 1.0 / (count + 1)  # Hermit Swap
    got = 0.0
    for x in range(NUM_VALUES):
        if dists[offset, x]:
            vs_them = _beats(x, kept, dethrone)
            vs_rest = _strength(x, offset, factor, opponents, count)
            got += dists[offset, x] * (weight * vs_them * vs_rest + (1 - weight) * share)
    return got + lead


@njit
def _grave_digger(obs: Any, keep: Any, pool: Any, weight: Any, factor: Any, opponents: Any,
                  count: Any, compensated: Any) -> Any:
    """Grave Digger played: the better of the kept card and the set-aside one."""
    aside = _known_aside(obs)
    if aside >= 0:
        return max(keep, _base(aside, -1, weight, factor, opponents, count))
    total, comp, started = 0.0, 0.0, False
    for x in range(NUM_VALUES):
        if pool[x]:
            total, comp, started = sum_add(
                total, comp, started,
                pool[x] * max(keep, _base(x, -1, weight, factor, opponents, count)),
                compensated)
    return sum_end(total, comp, compensated)


@njit
def _not_a_pet(obs: Any, kept: Any, keep: Any, dists: Any, weight: Any, factor: Any,
               opponents: Any, count: Any) -> Any:
    """Not A Pet! played: the chance an unprotected opponent holds King Cat."""
    if kept == KING:
        return keep
    p_king = 0.0
    for i in range(count):
        k = opponents[i]
        if not obs[O_PROTECTED + k]:
            p_king += dists[k, KING]
    p_king = min(1.0, p_king)
    return p_king * _base(KING, -1, weight, factor, opponents, count) + (1 - p_king) * keep


@njit
def _known_aside(obs: Any) -> Any:
    """The value of the set-aside card if the observer saw it, else -1."""
    seen = 0.0
    for v in range(NUM_VALUES):
        seen += obs[O_KNOWN_ASIDE + v]
    return _first_max(obs, O_KNOWN_ASIDE, NUM_VALUES) if seen > 0 else -1


@njit
def _row_scores(obs: Any, mask: Any, specs: Any, dethrone: Any, full_deck: Any,
                compensated: Any, draw_quality: Any, pool: Any, dists: Any, factor: Any,
                opponents: Any, out: Any) -> Any:
    """Every legal action's score of one observation into ``out``."""
    _pool(obs, pool)
    count = _dists(obs, pool, dists, opponents)
    early = min(1.0, float(obs[O_DECK_SIZE]) / max(1, full_deck))
    weight = 0.45 + 0.55 * (1.0 - early)
    _factors(dists, opponents, count, dethrone, compensated, factor)
    phase = _first_max(obs, O_PHASE, NUM_PHASES)
    if phase == GRAVE_PHASE:
        mine = _first_max(obs, O_MY_HAND, NUM_VALUES)
        aside = _known_aside(obs)
        for a in range(mask.shape[0]):
            if not mask[a]:
                continue
            if specs[a, 0] == KEEP:
                out[a] = _base(mine, -1, weight, factor, opponents, count)
            elif aside >= 0:
                out[a] = _base(aside, -1, weight, factor, opponents, count)
            else:
                out[a] = _base_pool(pool, weight, factor, opponents, count, compensated) - 1e-6
        return
    if phase == TRAPPER_PHASE:
        card = _first_max(obs, O_PENDING, NUM_VALUES)
        target = count if draw_quality[card] >= 0.6 else 0
        for a in range(mask.shape[0]):
            if mask[a]:
                out[a] = -abs(specs[a, 3] - target)
        return
    for a in range(mask.shape[0]):
        if mask[a]:
            out[a] = _play_score(obs, specs[a, 1], specs[a, 2], specs[a, 3], pool, dists, weight,
                                 factor, opponents, count, dethrone, compensated)


@njit
def _batch(obs: Any, masks: Any, specs: Any, dethrone: Any, full_deck: Any, compensated: Any,
           draw_quality: Any, eps: Any, scores: Any, best: Any, first: Any, ties: Any) -> Any:
    """Scores, best score, first best action and number of tied best actions per row; a
    row with a single legal action is that action, unscored (as ``act`` does)."""
    pool = np.empty(NUM_VALUES)
    dists = np.zeros((MAX_PLAYERS, NUM_VALUES))
    factor = np.zeros((NUM_VALUES, MAX_PLAYERS))
    opponents = np.zeros(MAX_PLAYERS, np.int64)
    for i in range(obs.shape[0]):
        mask = masks[i]
        legal = 0
        only = -1
        for a in range(mask.shape[0]):
            scores[i, a] = -np.inf
            if mask[a]:
                legal += 1
                only = a
        if legal == 1:
            scores[i, only] = 0.0
            best[i], first[i], ties[i] = 0.0, only, 1
            continue
        _row_scores(obs[i], mask, specs, dethrone, full_deck, compensated, draw_quality, pool,
                    dists, factor, opponents, scores[i])
        top = -np.inf
        for a in range(mask.shape[0]):
            if mask[a] and scores[i, a] > top:
                top = scores[i, a]
        best[i] = top
        tied = 0
        for a in range(mask.shape[0]):
            if mask[a] and scores[i, a] >= top - eps:
                if tied == 0:
                    first[i] = a
                tied += 1
        ties[i] = tied


def batch_scores(observations: NDArray[np.float32], action_masks: NDArray[np.int8],
                 dethrone: bool, full_deck: int, draw_quality: NDArray[np.float64]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64],
                            NDArray[np.int64]]:
    """(scores [M, A], best score [M], first best action [M], tied best actions [M]) of a
    batch of observations ``[M, OBS_WIDTH]`` (float32, C order) and masks ``[M, A]``
    (int8); illegal actions score ``-inf``. The caller checks shapes and dtypes.

    ``draw_quality`` is the heuristic's table of how much a card is worth to whoever
    draws it next (Mouse Trapper placement), by value: passed in, with the tie window,
    rather than compiled in, since numba's cache would not see an edit of the
    heuristic's module, outside this package (which may not import it)."""
    rows = observations.shape[0]
    scores = np.empty((rows, NUM_ACTIONS))
    best = np.empty(rows)
    first = np.empty(rows, np.int64)
    ties = np.empty(rows, np.int64)
    _batch(observations, action_masks, _SPECS, dethrone, full_deck, COMPENSATED, draw_quality,
           EPS, scores, best, first, ties)
    return scores, best, first, ties

