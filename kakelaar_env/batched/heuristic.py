"""The scores :class:`kakelaar_env.heuristic.KakelaarHeuristic` gives every legal action,
for a batch of observations at once.

The compiled code repeats the per-game heuristic's float arithmetic operation for
operation, in the same order (Python's ``sum`` included: plain left-to-right addition,
or from Python 3.12 on its compensated summation), so each score is bit-identical to
the one :meth:`KakelaarHeuristic.act` computes and the 1e-9 tie window picks the same
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
from kakelaar_env.encoding.encoding import ACTION_TABLE, OBSERVATION_SPEC
from kakelaar_env.engine.cards import BID_VALUE, HEN, NUM_BIDDABLE, NUM_WORM_VALUES, ROUNDS
from kakelaar_env.engine.state import PHASE_NAMES

__all__ = ["EPS", "FALLBACK", "batch_scores"]

#: Scores within this of the best tie (the default of ``cardgym.heuristic.pick_best``).
EPS: Final[float] = inspect.signature(pick_best).parameters["eps"].default
#: The action written for a row the compiled code leaves to ``act`` (a mask the
#: per-game heuristic cannot score, so that ``act`` raises as it would).
FALLBACK: Final = -1

_OFF: Final = OBSERVATION_SPEC.offsets
O_PHASE: Final = _OFF["phase"]
O_ROUND: Final = _OFF["round"]
O_PRESENT: Final = _OFF["seat_present"]
O_ROW: Final = _OFF["row"]
O_ROBOT: Final = _OFF["robot_remaining"]
O_TRACTOR: Final = _OFF["tractor"]
O_HAND: Final = _OFF["my_hand"]
O_OPP_HANDS: Final = _OFF["opponent_hands"]
O_DISCARDS: Final = _OFF["discards"]
NUM_PHASES: Final = len(PHASE_NAMES)
NUM_TYPES_OBS: Final = 14  # width of a hand in the observation
ROW_WIDTH: Final = 9  # worm_1..worm_8, hen
ROW_POSITIONS: Final = 5
MAX_SEATS: Final = 5
NUM_ACTIONS: Final = len(ACTION_TABLE)
HEN_NONE: Final = ACTION_TABLE.index("hen:none")
HEN_PLAY: Final = ACTION_TABLE.index("hen:play")
BID_BASE: Final = ACTION_TABLE.index("bid:worm_1")
TAKE_BASE: Final = ACTION_TABLE.index("take:worm_1")
#: Bid values by card type, the last entry (index -1) unused.
BID_VALUES: Final = np.array(BID_VALUE, dtype=np.int64)


@njit
def _first_max(obs: Any, start: Any, width: Any) -> Any:
    """``np.argmax`` of ``width`` columns from ``start``: the first largest."""
    best = 0
    for k in range(1, width):
        if obs[start + k] > obs[start + best]:
            best = k
    return best


@njit
def _card_value(card: Any, rounds_left: Any) -> Any:
    """Worth of holding a card of type ``card`` (worms: points; chickens: bids)."""
    if card < NUM_WORM_VALUES:
        return float(card + 1)
    if rounds_left <= 0:
        return 0.0
    scale = min(1.0, rounds_left / 4.0)
    return scale * (1.0 + 0.6 * (BID_VALUES[card] - 3))


@njit
def _best_two(obs: Any, pile: Any, rounds_left: Any, extra: Any, compensated: Any) -> Any:
    """The two best card values of the discard pile at ``pile`` (plus ``extra`` if
    it is a card type), summed as ``sum(values[:2])``."""
    first = 0.0
    second = 0.0
    count = 0
    for card in range(NUM_BIDDABLE + 1):
        if card < NUM_BIDDABLE:
            copies = int(np.float64(obs[pile + card]))
            value_card = card
        else:
            copies = 1 if extra >= 0 else 0
            value_card = extra
        if copies <= 0:
            continue
        value = _card_value(value_card, rounds_left)
        for _ in range(min(copies, 2)):
            if count == 0 or value > first:
                second = first
                first = value
            elif count == 1 or value > second:
                second = value
            count += 1
    if count == 0:
        return 0.0
    total, comp, started = sum_add(0.0, 0.0, False, first, compensated)
    if count >= 2:
        total, comp, started = sum_add(total, comp, started, second, compensated)
    return sum_end(total, comp, compensated)


@njit
def _row_value(obs: Any, card: Any, pile: Any, bid: Any, rounds_left: Any,
               compensated: Any) -> Any:
    """Worth of winning a row card (type index; ``HEN`` for a mother hen)."""
    if card < 0:
        return 0.0
    if card == HEN:
        return 0.85 * _best_two(obs, pile, rounds_left, bid, compensated)
    return float(card + 1)


# ------------------------------------------------------------------ bids


@njit
def _row_types(obs: Any, row: Any) -> None:
    """The row's card types into ``row`` (``HEN`` for a mother hen, -1 for empty)."""
    for pos in range(ROW_POSITIONS):
        start = O_ROW + pos * ROW_WIDTH
        filled = 0.0
        for k in range(ROW_WIDTH):
            filled += obs[start + k]
        if filled == 0:
            row[pos] = -1
            continue
        t = _first_max(obs, start, ROW_WIDTH)
        row[pos] = t if t < NUM_WORM_VALUES else HEN


@njit
def _opponent_bids(obs: Any, n: Any, bid_card: Any, bid_p: Any, bid_len: Any) -> None:
    """Each participant's possible bids with their chances (participant 0, me, unused;
    with two players the robot chicken is participant 2)."""
    for k in range(1, n):
        start = O_OPP_HANDS + (k - 1) * NUM_TYPES_OBS
        count = 0
        for t in range(NUM_BIDDABLE):
            if obs[start + t] > 0:
                bid_card[k, count] = t
                count += 1
        if count == 0:
            bid_card[k, 0] = -1
            bid_p[k, 0] = 1.0
            bid_len[k] = 1
            continue
        p = 1.0 / count
        for j in range(count):
            bid_p[k, j] = p
        bid_len[k] = count
    if n == 2:
        total = 0.0
        for c in range(5):
            total += np.float64(obs[O_ROBOT + c])  # small whole numbers: exact
        count = 0
        if total != 0.0:
            for c in range(5):
                left = np.float64(obs[O_ROBOT + c])
                if left != 0.0:
                    bid_card[2, count] = NUM_WORM_VALUES + c
                    bid_p[2, count] = left / total
                    count += 1
        if count == 0:
            bid_card[2, 0] = -1
            bid_p[2, 0] = 1.0
            count = 1
        bid_len[2] = count


@njit
def _tie_orders(n: Any, holder: Any, rnd: Any, orders: Any, order_p: Any) -> Any:
    """The possible tie-break orders of the participants into ``orders``, their
    chances into ``order_p``; returns how many."""
    if n > 2:
        for i in range(n):
            orders[0, i] = (holder + i) % n
        order_p[0] = 1.0
        return 1
    step = (rnd - 1) % 3
    if holder != MAX_SEATS:
        other = 1 - holder
        orders[0, 0] = holder
        orders[0, 1] = other if step == 0 else 2
        orders[0, 2] = 2 if step == 0 else other
        order_p[0] = 1.0
        return 1
    orders[0, 0], orders[0, 1], orders[0, 2] = 2, 0, 1
    orders[1, 0], orders[1, 1], orders[1, 2] = 2, 1, 0
    order_p[0] = 0.5
    order_p[1] = 0.5
    return 2


@njit
def _bid_key(card: Any) -> Any:
    """Sort key of a bid: higher bids first, no bid last."""
    return -BID_VALUES[card] if card >= 0 else 1


@njit
def _ranked_position(who: Any, keys: Any, order: Any) -> Any:
    """Where ``who`` lands in ``sorted(order, key=keys.__getitem__)`` (a stable sort)."""
    place = 0
    for i in range(3):
        if order[i] == who:
            place = i
    position = 0
    for i in range(3):
        q = order[i]
        if keys[q] < keys[who] or (keys[q] == keys[who] and i < place):
            position += 1
    return position


@njit
def _duel_gain(mine: Any, bid_card: Any, bid_p: Any, bid_len: Any, orders: Any,
               order_p: Any, num_orders: Any, mine_worth: Any, theirs_worth: Any) -> Any:
    """Expected (my row card - the opponent's row card) with two players."""
    keys = np.empty(3, np.int64)
    keys[0] = _bid_key(mine)
    total = 0.0
    for j in range(bid_len[1]):
        keys[1] = _bid_key(bid_card[1, j])
        p_opp = bid_p[1, j]
        for r in range(bid_len[2]):
            keys[2] = _bid_key(bid_card[2, r])
            p_rob = bid_p[2, r]
            for o in range(num_orders):
                order = orders[o]
                value = (mine_worth[_ranked_position(0, keys, order)]
                         - theirs_worth[j, _ranked_position(1, keys, order)])
                total += p_opp * p_rob * order_p[o] * value
    return total


@njit
def _table_gain(obs: Any, mine: Any, n: Any, holder: Any, bid_card: Any, bid_p: Any,
                bid_len: Any, row: Any, rounds_left: Any, compensated: Any) -> Any:
    """Expected worth of the row card I win with three or more players."""
    my_place = (0 - holder) % n
    value = BID_VALUES[mine]
    ahead = np.zeros(n + 1)
    old = np.zeros(n + 1)
    ahead[0] = 1.0
    for k in range(1, n):
        beat = 0.0
        for j in range(bid_len[k]):
            bid = bid_card[k, j]
            if bid < 0:
                continue
            if BID_VALUES[bid] > value or (BID_VALUES[bid] == value
                                           and (k - holder) % n < my_place):
                beat += bid_p[k, j]
        old[:] = ahead
        keep = 1 - beat
        for i in range(1, n + 1):
            ahead[i] = old[i] * keep + old[i - 1] * beat
        ahead[0] = old[0] * keep
    total, comp, started = 0.0, 0.0, False
    for r in range(n):
        card = row[r] if r < ROW_POSITIONS else -1
        term = ahead[r] * _row_value(obs, card, O_DISCARDS, mine, rounds_left, compensated)
        total, comp, started = sum_add(total, comp, started, term, compensated)
    if not started:
        return 0.0
    return sum_end(total, comp, compensated)


@njit
def _bid_scores(obs: Any, mask: Any, scores: Any, rnd: Any, compensated: Any) -> Any:
    """The score of every legal bid into ``scores``; False if a legal action is not a
    bid (the per-game heuristic cannot score that row)."""
    rounds_left = ROUNDS - rnd
    n = 0
    for k in range(MAX_SEATS):
        n += int(np.float64(obs[O_PRESENT + k]))
    row = np.empty(ROW_POSITIONS, np.int64)
    _row_types(obs, row)
    bid_card = np.full((MAX_SEATS + 1, NUM_BIDDABLE), -1, np.int64)
    bid_p = np.zeros((MAX_SEATS + 1, NUM_BIDDABLE))
    bid_len = np.zeros(MAX_SEATS + 1, np.int64)
    _opponent_bids(obs, n, bid_card, bid_p, bid_len)
    holder = _first_max(obs, O_TRACTOR, MAX_SEATS + 1)
    orders = np.zeros((2, MAX_SEATS), np.int64)
    order_p = np.zeros(2)
    num_orders = _tie_orders(n, holder, rnd, orders, order_p)
    hens = np.float64(obs[O_HAND + HEN])
    pile_sum = 0.0
    for c in range(NUM_BIDDABLE):
        pile_sum += np.float64(obs[O_DISCARDS + c])  # small whole numbers: exact
    recover = min(0.8, 0.8 * 2.0 * hens / (pile_sum + 1.0))
    theirs_worth = np.zeros((NUM_BIDDABLE, ROW_POSITIONS))
    mine_worth = np.zeros(ROW_POSITIONS)
    if n == 2:
        for j in range(bid_len[1]):
            for pos in range(ROW_POSITIONS):
                theirs_worth[j, pos] = _row_value(obs, row[pos], O_DISCARDS + NUM_BIDDABLE,
                                                  bid_card[1, j], rounds_left, compensated)
    for action in range(NUM_ACTIONS):
        if mask[action] == 0:
            continue
        mine = action - BID_BASE
        if mine < 0 or mine >= NUM_BIDDABLE:
            return False
        cost = _card_value(mine, rounds_left) * (1.0 - recover)
        if n == 2:
            for pos in range(ROW_POSITIONS):
                mine_worth[pos] = _row_value(obs, row[pos], O_DISCARDS, mine, rounds_left,
                                             compensated)
            gain = _duel_gain(mine, bid_card, bid_p, bid_len, orders, order_p, num_orders,
                              mine_worth, theirs_worth)
        else:
            gain = _table_gain(obs, mine, n, holder, bid_card, bid_p, bid_len, row,
                               rounds_left, compensated)
            gain *= n / (n - 1)
        scores[action] = gain - cost
    return True


# ------------------------------------------------------------------ one observation


@njit
def _row_scores(obs: Any, mask: Any, scores: Any, compensated: Any) -> Any:
    """The scores of one observation's scored actions into ``scores`` (the rest stay
    ``-inf``); False if the per-game heuristic cannot score the row."""
    phase = _first_max(obs, O_PHASE, NUM_PHASES)
    rnd = int(np.float64(obs[O_ROUND]))
    rounds_left = ROUNDS - rnd
    if phase == 0:
        return _bid_scores(obs, mask, scores, rnd, compensated)
    if phase == 1:
        picks = _best_two(obs, O_DISCARDS, rounds_left, -1, compensated)
        later = 3.0 if rounds_left >= 3 else 1.5 if rounds_left >= 1 else 0.0
        hen = np.float64(obs[O_HAND + HEN])
        worth = picks - later - (0.0 if hen <= 1 else -1.0 * (hen - 1))
        scores[HEN_NONE] = 0.0
        scores[HEN_PLAY] = worth
        return True
    scored = False
    for t in range(NUM_BIDDABLE):
        if mask[TAKE_BASE + t] != 0:
            scores[TAKE_BASE + t] = _card_value(t, rounds_left)
            scored = True
    return scored


@njit
def _batch(obs: Any, masks: Any, compensated: Any, eps: Any, scores: Any, best: Any,
           actions: Any, ties: Any) -> None:
    """Scores, best score, first best action and number of tied best actions per row
    (a row with a single legal action: that action, with no tie)."""
    for m in range(obs.shape[0]):
        legal = 0
        only = -1
        for a in range(NUM_ACTIONS):
            if masks[m, a] != 0:
                legal += 1
                only = a
        if legal == 1:
            scores[m, only] = 0.0
            best[m] = 0.0
            actions[m] = only
            ties[m] = 1
            continue
        if not _row_scores(obs[m], masks[m], scores[m], compensated):
            actions[m] = FALLBACK
            ties[m] = 0
            continue
        top = -np.inf
        for a in range(NUM_ACTIONS):
            if scores[m, a] > top:
                top = scores[m, a]
        best[m] = top
        count = 0
        for a in range(NUM_ACTIONS):
            if scores[m, a] >= top - eps:
                if count == 0:
                    actions[m] = a
                count += 1
        ties[m] = count


def batch_scores(observations: NDArray[np.float32], action_masks: NDArray[np.int8]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64],
                            NDArray[np.int64]]:
    """For C-ordered float32 ``observations`` ``[M, D]`` and int8 ``action_masks``
    ``[M, A]``: the scores ``[M, A]`` (``-inf`` where the heuristic gives none), the
    best score, the first best action (:data:`FALLBACK` for a row to leave to ``act``)
    and the number of actions within :data:`EPS` of the best, per row."""
    rows = len(observations)
    scores = np.full((rows, NUM_ACTIONS), -np.inf)
    best = np.zeros(rows)
    actions = np.zeros(rows, np.int64)
    ties = np.zeros(rows, np.int64)
    _batch(observations, action_masks, COMPENSATED, EPS, scores, best, actions, ties)
    return scores, best, actions, ties
