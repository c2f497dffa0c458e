"""A hand-written policy for Exploding Kittens, base game (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.heuristics import legal_indices, pick_best
from ek_env.cards import (
    ATTACK,
    BASE_DECK,
    CARD_NAMES,
    CATS,
    DEFUSE,
    FAVOR,
    KITTEN,
    NOPE,
    NUM_KINDS,
    SEE_THE_FUTURE,
    SHUFFLE,
    SKIP,
)
from ek_env.encoding import ACTION_TABLE, OBSERVATION_SPEC

_KIND = {name: kind for kind, name in enumerate(CARD_NAMES)}
_PHASES = ("play", "choose_five", "name_card", "nope_window", "give", "insert", "take",
           "game_over")
_SINGLE, _PAIR, _THREE, _FIVE = range(4)

#: How much I want to keep one card of each kind (cats get a bonus when paired).
_KEEP_VALUE = np.zeros(NUM_KINDS)
_KEEP_VALUE[DEFUSE] = 100.0
_KEEP_VALUE[ATTACK] = 7.0
_KEEP_VALUE[SKIP] = 6.0
_KEEP_VALUE[NOPE] = 5.5
_KEEP_VALUE[SEE_THE_FUTURE] = 5.0
_KEEP_VALUE[SHUFFLE] = 3.5
_KEEP_VALUE[FAVOR] = 3.0
for _cat in CATS:
    _KEEP_VALUE[_cat] = 1.0


def _index_groups() -> dict[str, dict[Any, int]]:
    """Action indices by kind: ``{"favor": {offset: i}, "pair": {(card, offset): i}, ...}``."""
    groups: dict[str, dict[Any, int]] = {
        "favor": {}, "pair": {}, "three": {}, "five_kind": {}, "name": {}, "give": {},
        "insert": {}, "take": {},
    }
    for index, name in enumerate(ACTION_TABLE.names):
        parts = name.split(":")
        if parts[0] == "play" and parts[1] == "favor":
            groups["favor"][int(parts[2][1:])] = index
        elif parts[0] in ("pair", "three"):
            groups[parts[0]][(_KIND[parts[1]], int(parts[2][1:]))] = index
        elif parts[0] == "five" and len(parts) == 2:
            groups["five_kind"][_KIND[parts[1]]] = index
        elif parts[0] in ("name", "give", "take"):
            groups[parts[0]][_KIND[parts[1]]] = index
        elif parts[0] == "insert":
            groups["insert"][int(parts[1].split("=")[1])] = index
    return groups


_GROUPS = _index_groups()
_DRAW = ACTION_TABLE.index("draw")
_ATTACK = ACTION_TABLE.index("play:attack")
_SKIP = ACTION_TABLE.index("play:skip")
_SHUFFLE = ACTION_TABLE.index("play:shuffle")
_FUTURE = ACTION_TABLE.index("play:see_the_future")
_FIVE = ACTION_TABLE.index("five")
_NOPE = ACTION_TABLE.index("nope")
_PASS = ACTION_TABLE.index("pass")


class EkHeuristic:
    """Risk-aware Exploding Kittens play from the observation alone.

    Strategy:

    - *Kitten risk.* The chance the top card is an Exploding Kitten is read from
      ``known_deck`` when I saw or placed the top card, and otherwise counted: kittens
      in the deck not at a known depth over the deck cards at unknown depths.
    - *Before drawing.* A top card known to be a kitten is passed on with Attack (when
      I owe several turns, or have no Skip), Skip, or Shuffle, in that order. With an
      unknown top and a real risk I first play See the Future; with a high risk (lower
      without a Defuse) I Attack or Skip. Otherwise I keep my cards and draw.
    - *Stealing.* Cat pairs (and, with combos, spare pairs) steal at random from the
      opponent most worth robbing (known Defuse, most cards); three of a kind names a
      Defuse while one may be out there; five different takes a Defuse back from the
      discard pile; Favor asks the richest opponent for a card when I lack a Defuse or
      have Favors to spare.
    - *Nope.* I Nope a play that hurts me (an Attack passing turns to me; a Favor, pair
      or three aimed at me; a Skip, Attack or Shuffle that dodges a top kitten I know
      of) and re-Nope a Nope of my own important play. Harmless plays are let stand.
    - *Favor given:* the least useful card (lone cats first; Defuse, Attack, Skip and
      Nope last). *Taken from the discard:* Defuse first. *Named in three of a kind:*
      Defuse while any may be in the target's hand.
    - *Defused kitten:* put back where the next player draws it first (depth = the
      turns I still owe after this one, capped at the bottom).
    """

    name = "heuristic"

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None) -> None:
        self.num_players = int(num_players)
        self.options = dict(options or {})
        self.combos = bool(self.options.get("combos", True))
        decks = 2 if num_players >= 6 else 1
        self.total = np.array(BASE_DECK, dtype=np.float64) * decks

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def _give_value(hand: NDArray[np.float64], kind: int) -> float:
        value = float(_KEEP_VALUE[kind])
        if kind in CATS and hand[kind] >= 2:
            value += 1.5 if hand[kind] == 2 else 0.5
        return value

    def _kitten_risk(self, o: dict[str, NDArray[np.float32]]) -> float:
        deck = int(o["deck_size"][0])
        if deck <= 0:
            return 0.0
        known = o["known_deck"][:deck]
        if known[0].sum() > 0:
            return float(known[0][KITTEN])
        known_kittens = float(known[:, KITTEN].sum())
        unknown_slots = deck - float(known.sum())
        if unknown_slots <= 0:
            return 0.0
        return max(0.0, float(o["kittens_in_deck"][0]) - known_kittens) / unknown_slots

    @staticmethod
    def _victim_score(o: dict[str, NDArray[np.float32]], offset: int, want: int) -> float:
        """How worth robbing the opponent at ``offset`` is (relative seats)."""
        if o["hand_sizes"][offset] <= 0:
            return -100.0
        known = o["known_hands"][offset - 1]
        return float(o["hand_sizes"][offset]) + 20.0 * float(known[want] > 0)

    # ------------------------------------------------------------------ act

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        legal = legal_indices(action_mask)
        if len(legal) == 1:
            return legal[0]
        legal_set = set(legal)
        o = OBSERVATION_SPEC.unpack(observation)
        hand = o["my_hand"].astype(np.float64)
        phase = _PHASES[int(np.argmax(o["phase"]))]
        if phase == "nope_window":
            return self._nope(o, hand, legal_set)
        if phase == "give":
            return pick_best({a: -self._give_value(hand, k)
                              for k, a in _GROUPS["give"].items() if a in legal_set}, rng)
        if phase == "take":
            return pick_best({a: self._give_value(hand, k) + (50.0 if k == DEFUSE else 0.0)
                              for k, a in _GROUPS["take"].items() if a in legal_set}, rng)
        if phase == "choose_five":
            return pick_best({a: -self._give_value(hand, k)
                              for k, a in _GROUPS["five_kind"].items() if a in legal_set}, rng)
        if phase == "name_card":
            return self._name(o, hand, legal_set, rng)
        if phase == "insert":
            owed = int(o["owed_turns"][0])
            target = max(0, owed - 1)
            depths = {a: d for d, a in _GROUPS["insert"].items() if a in legal_set}
            return pick_best({a: -abs(d - target) for a, d in depths.items()}, rng)
        return self._play(o, hand, legal_set, rng)

    # ---------------------------------------------------------------- phases

    def _nope(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
              legal: set[int]) -> int:
        if _NOPE not in legal:
            return _PASS
        n = int(o["seat_present"].sum())
        holder = int(np.argmax(o["turn_holder"]))
        kind = int(np.argmax(o["pending_play"]))
        card = int(np.argmax(o["pending_card"])) if o["pending_card"].sum() else -1
        target = int(np.argmax(o["pending_target"])) if o["pending_target"].sum() else -1
        happens = int(o["nopes"][0]) % 2 == 0
        deck = int(o["deck_size"][0])
        top_kitten = deck > 0 and bool(o["known_deck"][0][KITTEN] > 0)
        want: bool | None = None
        if holder == 0:
            important = kind in (_THREE, _FIVE) or card in (ATTACK, SKIP)
            if (kind == _SINGLE and card == FAVOR) or kind == _PAIR:
                important = hand[NOPE] >= 2
            want = True if important else None
        elif kind == _SINGLE and card == ATTACK:
            nxt = next((k for k in range(1, n) if o["alive"][(holder + k) % n]), -1)
            if (holder + nxt) % n == 0 or top_kitten:
                want = False
        elif kind in (_SINGLE, _PAIR, _THREE) and target == 0 and card != SKIP:
            want = False
        elif kind == _SINGLE and card in (SKIP, SHUFFLE) and top_kitten:
            want = False
        elif kind == _FIVE and o["discard"][DEFUSE] > 0 and hand[DEFUSE] == 0:
            want = False
        if want is None or want == happens:
            return _PASS
        return _NOPE

    def _name(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
              legal: set[int], rng: np.random.Generator) -> int:
        target = int(np.argmax(o["pending_target"])) if o["pending_target"].sum() else 0
        known = o["known_hands"][target - 1] if target > 0 else np.zeros(NUM_KINDS)
        outside = (self.total - hand - o["discard"] - o["out_of_play"]
                   - o["known_deck"].sum(axis=0))
        scores = {}
        for kind, action in _GROUPS["name"].items():
            if action not in legal:
                continue
            chance = 1.0 if known[kind] > 0 else min(1.0, max(0.0, float(outside[kind])) / 6.0)
            scores[action] = chance * (_KEEP_VALUE[kind] if kind != DEFUSE else 30.0)
        return pick_best(scores, rng)

    def _play(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
              legal: set[int], rng: np.random.Generator) -> int:
        risk = self._kitten_risk(o)
        owed = int(o["owed_turns"][0])
        has_defuse = hand[DEFUSE] > 0
        deck = int(o["deck_size"][0])
        top_known = deck > 0 and o["known_deck"][0].sum() > 0

        def dodge() -> int | None:
            if owed >= 2 and _ATTACK in legal:
                return _ATTACK
            if _SKIP in legal:
                return _SKIP
            if _ATTACK in legal:
                return _ATTACK
            return None

        # 1. A kitten known to be on top: pass it on.
        if top_known and risk >= 1.0:
            move = dodge()
            if move is not None:
                return move
            if _SHUFFLE in legal:
                return _SHUFFLE
        # 2. Unknown top with a real risk: look first.
        if not top_known and _FUTURE in legal and risk >= (0.15 if has_defuse else 0.08):
            return _FUTURE
        # 3. Get a Defuse (or any card) from the others.
        steal = self._steal(o, hand, legal, has_defuse, rng)
        if steal is not None:
            return steal
        # 4. Unknown top, high risk: dodge without drawing.
        if risk > 0.0 and not top_known:
            threshold = 0.4 if has_defuse else 0.12
            if owed >= 2:
                threshold *= 0.7
            if risk >= threshold:
                move = dodge()
                if move is not None:
                    return move
        if risk >= 1.0 and _SHUFFLE in legal:
            return _SHUFFLE
        return _DRAW

    def _steal(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
               legal: set[int], has_defuse: bool, rng: np.random.Generator) -> int | None:
        options: dict[int, float] = {}
        # Five different: take a Defuse back from the discard pile.
        if _FIVE in legal and o["discard"][DEFUSE] > 0:
            options[_FIVE] = 30.0 if not has_defuse else 10.0
        for (card, offset), action in _GROUPS["three"].items():
            if action in legal:
                spare = card in CATS or not has_defuse
                if spare:
                    options[action] = (20.0 + self._victim_score(o, offset, DEFUSE)
                                       - 0.5 * _KEEP_VALUE[card])
        for (card, offset), action in _GROUPS["pair"].items():
            if action in legal:
                if card in CATS and hand[card] <= 3:
                    options[action] = 10.0 + self._victim_score(o, offset, DEFUSE)
                elif not has_defuse and card in (FAVOR, SHUFFLE):
                    options[action] = 5.0 + self._victim_score(o, offset, DEFUSE)
        for offset, action in _GROUPS["favor"].items():
            if action in legal and (not has_defuse or hand[FAVOR] >= 2):
                options[action] = 4.0 + self._victim_score(o, offset, DEFUSE)
        # Only rob players who have something to give.
        options = {a: s for a, s in options.items() if s > 0}
        if not options:
            return None
        return pick_best(options, rng)

    def __repr__(self) -> str:
        return f"EkHeuristic(num_players={self.num_players})"
