"""A hand-written policy for Karel Kakelaar (docs/rules/karel_kakelaar.md)."""

from __future__ import annotations

from itertools import product

import numpy as np
from numpy.typing import NDArray

from cardgym.heuristic import checked_batch, legal_indices, pick_best, pick_rows
from kakelaar_env.encoding.encoding import ACTION_TABLE, OBSERVATION_SPEC
from kakelaar_env.engine.cards import (
    BID_VALUE,
    HEN,
    NUM_BIDDABLE,
    NUM_WORM_VALUES,
    ROUNDS,
    TYPE_NAMES,
)
from kakelaar_env.engine.state import Config

_TYPE = {name: t for t, name in enumerate(TYPE_NAMES)}
_BID = {_TYPE[name.split(":")[1]]: i for i, name in enumerate(ACTION_TABLE.names)
        if name.startswith("bid:")}
_TAKE = {_TYPE[name.split(":")[1]]: i for i, name in enumerate(ACTION_TABLE.names)
         if name.startswith("take:")}
_HEN_NONE = ACTION_TABLE.index("hen:none")
_HEN_PLAY = ACTION_TABLE.index("hen:play")
_ROBOT = 5  # index of the robot chicken in the ``tractor`` field


class KakelaarHeuristic:
    """Expected-value bidding for Karel Kakelaar; every hand is public, so bids are
    weighed against what each opponent can actually bid.

    Strategy:

    - *Card values.* A worm is worth its points. A chicken is bidding currency: worth
      more the higher it is and the more rounds remain (nothing in round 9). A mother
      hen in the row is worth the two best cards it would bring back from the discard
      pile (the bid just made included).
    - *Bidding.* Each opponent is modelled as bidding uniformly among the card types
      in their (public) hand, the robot chicken (two players) by the counts left in its
      (public) deck. Ties rank by closeness to the tractor, as the rules say. For each
      card I may bid I compute the distribution of the row position I win (with two
      players exactly, together with the position the opponent wins, so that taking a
      good card away from the opponent counts too); I bid the card with the best
      expected gain minus the cost of giving up the bid card (a worm's points, partly
      recoverable when I hold a mother hen; a chicken's future bidding power).
    - *Mother hens.* Played when the two best cards of my discard pile are worth it,
      always in the last round when there is anything to recover; taking back prefers
      high worms, then high chickens while rounds remain.
    """

    name = "heuristic"

    def __init__(self, config: Config) -> None:
        self.num_players = config.num_players

    # ---------------------------------------------------------------- values

    @staticmethod
    def _card_value(card: int, rounds_left: int) -> float:
        """Worth of holding a card of type ``card`` (worms: points; chickens: bids)."""
        if card < NUM_WORM_VALUES:
            return float(card + 1)
        if rounds_left <= 0:
            return 0.0
        scale = min(1.0, rounds_left / 4.0)
        return scale * (1.0 + 0.6 * (BID_VALUE[card] - 3))

    def _best_two(self, pile: NDArray[np.float64], rounds_left: int, extra: int = -1) -> float:
        values: list[float] = []
        for card in range(NUM_BIDDABLE):
            values += [self._card_value(card, rounds_left)] * int(pile[card])
        if extra >= 0:
            values.append(self._card_value(extra, rounds_left))
        values.sort(reverse=True)
        return sum(values[:2])

    def _row_value(self, card: int, pile: NDArray[np.float64], bid: int,
                   rounds_left: int) -> float:
        """Worth of winning a row card (type index; HEN for a mother hen)."""
        if card < 0:
            return 0.0
        if card == HEN:
            return 0.85 * self._best_two(pile, rounds_left, bid)
        return float(card + 1)

    # ------------------------------------------------------------------ act

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        legal = legal_indices(action_mask)
        if len(legal) == 1:
            return legal[0]
        o = OBSERVATION_SPEC.unpack(observation)
        phase = int(np.argmax(o["phase"]))
        rnd = int(o["round"][0])
        rounds_left = ROUNDS - rnd
        hand = o["my_hand"].astype(np.float64)
        pile = o["discards"][0].astype(np.float64)
        if phase == 0:
            return self._bid(o, hand, pile, legal, rng)
        if phase == 1:
            picks = self._best_two(pile, rounds_left)
            later = 3.0 if rounds_left >= 3 else 1.5 if rounds_left >= 1 else 0.0
            # A hen kept for later will find a fuller pile; play now when it pays.
            worth = picks - later - (0.0 if hand[HEN] <= 1 else -1.0 * (hand[HEN] - 1))
            return pick_best({_HEN_NONE: 0.0, _HEN_PLAY: worth}, rng)
        scores = {a: self._card_value(t, rounds_left) for t, a in _TAKE.items() if a in legal}
        return pick_best(scores, rng)

    def _bid(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
             pile: NDArray[np.float64], legal: list[int], rng: np.random.Generator) -> int:
        n = int(o["seat_present"].sum())
        rnd = int(o["round"][0])
        rounds_left = ROUNDS - rnd
        row = [int(np.argmax(r)) if r.sum() else -1 for r in o["row"]]
        row_types = [t if t < 0 or t < NUM_WORM_VALUES else HEN for t in row]
        # Participants: seats 0..n-1 (relative), and the robot (index n) with two players.
        robot = n == 2
        bids: list[list[tuple[int, float]]] = [[]]
        for k in range(1, n):
            their = o["opponent_hands"][k - 1][:NUM_BIDDABLE]
            types = [t for t in range(NUM_BIDDABLE) if their[t] > 0]
            bids.append([(t, 1.0 / len(types)) for t in types] if types else [(-1, 1.0)])
        if robot:
            left = o["robot_remaining"].astype(np.float64)
            total = float(left.sum())
            bids.append([(8 + c, float(left[c]) / total) for c in range(5) if left[c]]
                        if total else [(-1, 1.0)])
        orders = self._tie_orders(o, n, rnd)
        hens = float(hand[HEN])
        recover = min(0.8, 0.8 * 2.0 * hens / (float(pile.sum()) + 1.0))
        opp_piles = [o["discards"][k].astype(np.float64) for k in range(n)]
        scores: dict[int, float] = {}
        # With two players: the worth of each row card to the opponent, per bid of
        # theirs (the same for every bid of mine).
        theirs_worth = {theirs: [self._row_value(card, opp_piles[1], theirs, rounds_left)
                                 for card in row_types]
                        for theirs, _ in bids[1]} if n == 2 else {}
        for action in legal:
            mine = next(t for t, a in _BID.items() if a == action)
            cost = self._card_value(mine, rounds_left) * (1.0 - recover)
            if n == 2:
                gain = self._duel_gain(mine, bids, orders, row_types, pile, theirs_worth,
                                       rounds_left)
            else:
                gain = self._table_gain(mine, bids, orders, row_types, pile, rounds_left)
                gain *= n / (n - 1)
            scores[action] = gain - cost
        return pick_best(scores, rng)

    @staticmethod
    def _tie_orders(o: dict[str, NDArray[np.float32]], n: int, rnd: int
                    ) -> list[tuple[list[int], float]]:
        """Possible tie-break orders of the participants, with their probabilities."""
        holder = int(np.argmax(o["tractor"]))
        if n > 2:
            return [([(holder + i) % n for i in range(n)], 1.0)]
        # Two players: the circle is first holder, other player, robot (index 2 here).
        step = (rnd - 1) % 3
        if holder != _ROBOT:
            other = 1 - holder
            if step == 0:
                return [([holder, other, 2], 1.0)]
            return [([holder, 2, other], 1.0)]
        return [([2, 0, 1], 0.5), ([2, 1, 0], 0.5)]

    def _duel_gain(self, mine: int, bids: list[list[tuple[int, float]]],
                   orders: list[tuple[list[int], float]], row: list[int],
                   pile: NDArray[np.float64], theirs_worth: dict[int, list[float]],
                   rounds_left: int) -> float:
        """Expected (my row card - the opponent's row card) with two players;
        ``theirs_worth[bid][position]``: the row card's worth to the opponent."""
        mine_worth = [self._row_value(card, pile, mine, rounds_left) for card in row]
        mine_key = -BID_VALUE[mine] if mine >= 0 else 1
        total = 0.0
        for (theirs, p_opp), (robot, p_rob) in product(bids[1], bids[2]):
            keys = (mine_key, -BID_VALUE[theirs] if theirs >= 0 else 1,
                    -BID_VALUE[robot] if robot >= 0 else 1)
            worth = theirs_worth[theirs]
            for order, p_order in orders:
                ranked = sorted(order, key=keys.__getitem__)
                value = mine_worth[ranked.index(0)] - worth[ranked.index(1)]
                total += p_opp * p_rob * p_order * value
        return total

    def _table_gain(self, mine: int, bids: list[list[tuple[int, float]]],
                    orders: list[tuple[list[int], float]], row: list[int],
                    pile: NDArray[np.float64], rounds_left: int) -> float:
        """Expected worth of the row card I win with three or more players."""
        order = orders[0][0]
        my_place = order.index(0)
        value = BID_VALUE[mine]
        ahead = np.zeros(len(bids) + 1)
        ahead[0] = 1.0
        for k in range(1, len(bids)):
            beat = 0.0
            for bid, p in bids[k]:
                if bid < 0:
                    continue
                if BID_VALUE[bid] > value or (BID_VALUE[bid] == value
                                              and order.index(k) < my_place):
                    beat += p
            ahead[1:] = ahead[1:] * (1 - beat) + ahead[:-1] * beat
            ahead[0] *= 1 - beat
        return sum(float(ahead[r]) * self._row_value(row[r] if r < len(row) else -1,
                                                      pile, mine, rounds_left)
                   for r in range(len(bids)))

    def act_batch(self, observations: NDArray[np.float32], action_masks: NDArray[np.int8],
                  rng: np.random.Generator) -> NDArray[np.int64]:
        """The actions :meth:`act` picks for each row ``[M]`` of ``observations``
        ``[M, D]`` and ``action_masks`` ``[M, A]``, drawing from ``rng`` exactly as the
        calls of :meth:`act` row by row would (one draw per row with several legal
        actions and several tied best ones, in row order), so the generator ends in the
        same state.

        The scores come from compiled code (:mod:`kakelaar_env.batched.heuristic`);
        without numba the rows go through :meth:`act` one by one.
        """
        observations, action_masks = checked_batch(observations, action_masks,
                                                  OBSERVATION_SPEC.size, len(ACTION_TABLE))
        try:
            from kakelaar_env.batched.heuristic import batch_scores
        except ImportError:
            return np.fromiter((self.act(o, m, rng) for o, m in zip(observations, action_masks,
                                                                    strict=True)),
                               np.int64, count=len(observations))
        scores, best, actions, ties = batch_scores(observations, action_masks)
        return pick_rows(scores, best, actions, ties, rng,
                         lambda row: self.act(observations[row], action_masks[row], rng))

    def __repr__(self) -> str:
        return f"KakelaarHeuristic(num_players={self.num_players})"

