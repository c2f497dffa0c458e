"""A hand-written policy for Exploding Kittens, base game and Streaking Kittens (docs/rules/exploding_kittens.md-§4)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.heuristic import legal_indices, pick_best
from ek_env.encoding.encoding import Layout, layout
from ek_env.engine.cards import (
    ALTER_THE_FUTURE_5X,
    ATTACK,
    CARD_NAMES,
    CATOMIC_BOMB,
    CATS,
    CURSE,
    DEFUSE,
    FAVOR,
    GARBAGE_COLLECTION,
    KITTEN,
    MARK,
    NOPE,
    NUM_KINDS_STREAKING,
    SEE_THE_FUTURE,
    SEE_THE_FUTURE_5X,
    SHUFFLE,
    SKIP,
    STREAKING,
    SUPER_SKIP,
    SWAP_TOP_AND_BOTTOM,
    composition,
)
from ek_env.engine.state import PHASE_NAMES, Config

_KIND = {name: kind for kind, name in enumerate(CARD_NAMES)}
# Kinds of pending plays, as in the observation's ``pending_play`` one-hot.
_P_SINGLE, _P_PAIR, _P_THREE, _P_FIVE = range(4)

#: How much I want to keep one card of each kind (cats get a bonus when paired; a
#: held Exploding Kitten is worth getting rid of).
_KEEP_VALUE = np.zeros(NUM_KINDS_STREAKING)
_KEEP_VALUE[KITTEN] = -100.0
_KEEP_VALUE[DEFUSE] = 100.0
_KEEP_VALUE[ATTACK] = 7.0
_KEEP_VALUE[SKIP] = 6.0
_KEEP_VALUE[NOPE] = 5.5
_KEEP_VALUE[SEE_THE_FUTURE] = 5.0
_KEEP_VALUE[SHUFFLE] = 3.5
_KEEP_VALUE[FAVOR] = 3.0
for _cat in CATS:
    _KEEP_VALUE[_cat] = 1.0
_KEEP_VALUE[STREAKING] = 20.0
_KEEP_VALUE[CATOMIC_BOMB] = 6.5
_KEEP_VALUE[SUPER_SKIP] = 8.0
_KEEP_VALUE[SEE_THE_FUTURE_5X] = 5.5
_KEEP_VALUE[ALTER_THE_FUTURE_5X] = 6.0
_KEEP_VALUE[SWAP_TOP_AND_BOTTOM] = 3.0
_KEEP_VALUE[GARBAGE_COLLECTION] = 2.0
_KEEP_VALUE[MARK] = 1.5
_KEEP_VALUE[CURSE] = 3.0


class _Tables:
    """Action indices of one layout, by kind of action."""

    def __init__(self, lay: Layout) -> None:
        self.spec = lay.observation_spec
        self.phases = PHASE_NAMES[: self.spec["phase"].size]
        table = lay.action_table
        names = table.names
        self.groups: dict[str, dict[Any, int]] = {
            "favor": {}, "pair": {}, "three": {}, "five_kind": {}, "name": {}, "give": {},
            "insert": {}, "take": {}, "target": {}, "alter": {}, "garbage": {}, "curse": {},
            "give_marked": {}, "garbage_marked": {},
        }
        for index, name in enumerate(names):
            parts = name.split(":")
            if parts[0] == "play" and parts[1] in ("favor", "curse_of_the_cat_butt"):
                key = "favor" if parts[1] == "favor" else "curse"
                self.groups[key][int(parts[2][1:])] = index
            elif parts[0] in ("pair", "three"):
                self.groups[parts[0]][(_KIND[parts[1]], int(parts[2][1:]))] = index
            elif parts[0] == "five" and len(parts) == 2:
                self.groups["five_kind"][_KIND[parts[1]]] = index
            elif parts[0] in ("give", "garbage") and parts[-1] == "marked":
                self.groups[f"{parts[0]}_marked"][_KIND[parts[1]]] = index
            elif parts[0] in ("name", "give", "take", "alter", "garbage"):
                self.groups[parts[0]][_KIND[parts[1]]] = index
            elif parts[0] == "insert":
                self.groups["insert"][int(parts[1].split("=")[1])] = index
            elif parts[0] == "target":
                self.groups["target"][int(parts[1][1:])] = index
        optional = {name: i for i, name in enumerate(names)}
        self.draw = table.index("draw")
        self.five = table.index("five")
        self.nope = table.index("nope")
        self.pass_ = table.index("pass")
        self.attack = table.index("play:attack")
        self.skip = table.index("play:skip")
        self.shuffle = table.index("play:shuffle")
        self.future = table.index("play:see_the_future")
        self.super_skip = optional.get("play:super_skip", -1)
        self.catomic = optional.get("play:catomic_bomb", -1)
        self.future_5x = optional.get("play:see_the_future_5x", -1)
        self.alter_5x = optional.get("play:alter_the_future_5x", -1)
        self.swap = optional.get("play:swap_top_and_bottom", -1)
        self.blind_play = optional.get("blind:play", -1)


_TABLES: dict[bool, _Tables] = {}


def _tables(config: Config) -> _Tables:
    if config.streaking not in _TABLES:
        _TABLES[config.streaking] = _Tables(layout(config))
    return _TABLES[config.streaking]


def _first_legal(moves: tuple[int, ...], legal: set[int]) -> int | None:
    """The first of ``moves`` that is legal, if any."""
    for move in moves:
        if move in legal:
            return move
    return None


def _dodge_threshold(has_defuse: bool, owed: int) -> float:
    """The risk of an unknown top card above which I dodge rather than draw: lower
    without a Defuse, and with several turns owed."""
    threshold = 0.4 if has_defuse else 0.12
    if owed >= 2:
        threshold *= 0.7
    return threshold


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
    - *Streaking Kittens:* Super Skip and Catomic Bomb (which leaves the kittens on
      top for the next player) dodge a draw too, See the Future 5x and Alter the
      Future 5x look ahead (kittens put back last), Swap Top and Bottom sends a top
      kitten to the bottom; a held kitten is the first card given or put in by
      Garbage Collection, the Streaking Kitten the last while a kitten is held; a
      turned-up card is aimed like a Favor. Blind, I draw and let Nopes pass.
    """

    name = "heuristic"

    def __init__(self, config: Config) -> None:
        self.num_players = config.num_players
        self.combos = config.combos
        self.t = _tables(config)
        self.total = np.array(composition(self.num_players, config.streaking), dtype=np.float64)

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def _give_value(hand: NDArray[np.float64], kind: int) -> float:
        value = float(_KEEP_VALUE[kind])
        if kind in CATS and hand[kind] >= 2:
            value += 1.5 if hand[kind] == 2 else 0.5
        if kind == STREAKING and hand[KITTEN] > 0:
            value += 200.0  # losing it would explode the kitten I hold
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
        t = self.t
        o = t.spec.unpack(observation)
        hand = o["my_hand"].astype(np.float64)
        phase = t.phases[int(np.argmax(o["phase"]))]
        groups = t.groups
        if phase == "nope_window":
            return self._nope(o, hand, legal_set)
        if phase in ("give", "garbage"):  # a marked copy or an unmarked one: same value
            return pick_best({a: -self._give_value(hand, k)
                              for group in (phase, f"{phase}_marked")
                              for k, a in groups[group].items() if a in legal_set}, rng)
        if phase == "take":
            return pick_best({a: self._give_value(hand, k) + (50.0 if k == DEFUSE else 0.0)
                              for k, a in groups["take"].items() if a in legal_set}, rng)
        if phase == "choose_five":
            return pick_best({a: -self._give_value(hand, k)
                              for k, a in groups["five_kind"].items() if a in legal_set}, rng)
        if phase == "name_card":
            return self._name(o, hand, legal_set, rng)
        if phase == "insert":
            owed = int(o["owed_turns"][0])
            target = max(0, owed - 1)
            depths = {a: d for d, a in groups["insert"].items() if a in legal_set}
            return pick_best({a: -abs(d - target) for a, d in depths.items()}, rng)
        if phase == "alter":  # the kittens go back last, under everything else
            return pick_best({a: -1.0 if k == KITTEN else 0.0
                              for k, a in groups["alter"].items() if a in legal_set}, rng)
        if phase == "target":
            return pick_best({a: self._victim_score(o, offset, DEFUSE)
                              for offset, a in groups["target"].items() if a in legal_set}, rng)
        if t.blind_play in legal_set:  # blind: my cards are a lottery; draw
            return t.draw
        return self._play(o, hand, legal_set, rng)

    # ---------------------------------------------------------------- phases

    def _nope(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
              legal: set[int]) -> int:
        t = self.t
        if t.nope not in legal:
            return t.pass_
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
            important = kind in (_P_THREE, _P_FIVE) or card in (ATTACK, SKIP, SUPER_SKIP)
            if (kind == _P_SINGLE and card == FAVOR) or kind == _P_PAIR:
                important = hand[NOPE] >= 2
            want = True if important else None
        elif kind == _P_SINGLE and card == ATTACK:
            nxt = next((k for k in range(1, n) if o["alive"][(holder + k) % n]), -1)
            if (holder + nxt) % n == 0 or top_kitten:
                want = False
        elif kind in (_P_SINGLE, _P_PAIR, _P_THREE) and target == 0 and card != SKIP:
            want = False
        elif (kind == _P_SINGLE and card in (SKIP, SHUFFLE, SUPER_SKIP, SWAP_TOP_AND_BOTTOM)
              and top_kitten):
            want = False
        elif kind == _P_FIVE and o["discard"][DEFUSE] > 0 and hand[DEFUSE] == 0:
            want = False
        if want is None or want == happens:
            return t.pass_
        return t.nope

    def _name(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
              legal: set[int], rng: np.random.Generator) -> int:
        target = int(np.argmax(o["pending_target"])) if o["pending_target"].sum() else 0
        known = o["known_hands"][target - 1] if target > 0 else np.zeros(len(hand))
        outside = (self.total - hand - o["discard"] - o["out_of_play"]
                   - o["known_deck"].sum(axis=0))
        scores = {}
        for kind, action in self.t.groups["name"].items():
            if action not in legal:
                continue
            chance = 1.0 if known[kind] > 0 else min(1.0, max(0.0, float(outside[kind])) / 6.0)
            scores[action] = chance * (max(0.0, _KEEP_VALUE[kind]) if kind != DEFUSE else 30.0)
        return pick_best(scores, rng)

    def _play(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
              legal: set[int], rng: np.random.Generator) -> int:
        t = self.t
        risk = self._kitten_risk(o)
        owed = int(o["owed_turns"][0])
        has_defuse = hand[DEFUSE] > 0
        deck = int(o["deck_size"][0])
        top_known = deck > 0 and o["known_deck"][0].sum() > 0
        # 1. A kitten known to be on top: pass it on.
        if top_known and risk >= 1.0:
            move = self._dodge(legal, owed)
            if move is None:
                move = _first_legal((t.swap, t.shuffle), legal)
            if move is not None:
                return move
        # 2. Unknown top with a real risk: look first.
        if not top_known and risk >= (0.15 if has_defuse else 0.08):
            move = _first_legal((t.alter_5x, t.future_5x, t.future), legal)
            if move is not None:
                return move
        # 3. Get a Defuse (or any card) from the others.
        steal = self._steal(o, hand, legal, has_defuse, rng)
        if steal is not None:
            return steal
        # 4. Unknown top, high risk: dodge without drawing.
        if risk > 0.0 and not top_known and risk >= _dodge_threshold(has_defuse, owed):
            move = self._dodge(legal, owed)
            if move is not None:
                return move
        if risk >= 1.0 and t.shuffle in legal:
            return t.shuffle
        return t.draw

    def _dodge(self, legal: set[int], owed: int) -> int | None:
        """A play that ends my turn without a draw, if I have one: with several turns
        owed, Super Skip or Attack first."""
        t = self.t
        if owed >= 2:
            move = _first_legal((t.super_skip, t.attack), legal)
            if move is not None:
                return move
        return _first_legal((t.skip, t.catomic, t.attack, t.super_skip), legal)

    def _steal(self, o: dict[str, NDArray[np.float32]], hand: NDArray[np.float64],
               legal: set[int], has_defuse: bool, rng: np.random.Generator) -> int | None:
        options: dict[int, float] = {}
        # Five different: take a Defuse back from the discard pile.
        groups = self.t.groups
        if self.t.five in legal and o["discard"][DEFUSE] > 0:
            options[self.t.five] = 30.0 if not has_defuse else 10.0
        for (card, offset), action in groups["three"].items():
            if action in legal:
                spare = card in CATS or not has_defuse
                if spare:
                    options[action] = (20.0 + self._victim_score(o, offset, DEFUSE)
                                       - 0.5 * float(_KEEP_VALUE[card]))
        for (card, offset), action in groups["pair"].items():
            if action in legal:
                if card in CATS and hand[card] <= 3:
                    options[action] = 10.0 + self._victim_score(o, offset, DEFUSE)
                elif not has_defuse and card in (FAVOR, SHUFFLE):
                    options[action] = 5.0 + self._victim_score(o, offset, DEFUSE)
        for offset, action in groups["favor"].items():
            if action in legal and (not has_defuse or hand[FAVOR] >= 2):
                options[action] = 4.0 + self._victim_score(o, offset, DEFUSE)
        # Only rob players who have something to give.
        options = {a: s for a, s in options.items() if s > 0}
        if not options:
            return None
        return pick_best(options, rng)

    def __repr__(self) -> str:
        return f"EkHeuristic(num_players={self.num_players})"
