"""Exploding Kittens action tables and observation layouts: the one source of truth.

Actions name seats as offsets clockwise from the turn holder (``+1`` is the next
seat), so one network can play every seat. Each phase has its own slice of the
table. Observations are seat-relative: index 0 of every per-seat field is the
observer, then the other seats clockwise.

There are two layouts: the base game's (:data:`BASE`, 319 actions) and the
Streaking Kittens expansion's (:data:`STREAKING`), a superset built by the same
code over 22 card kinds and a deeper draw pile. :func:`layout` picks one for a
config; the module-level names are the base layout's.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.actions import ActionTable
from cardgym.observation import Field, ObservationSpec
from ek_env import effects, streaking
from ek_env import record as rec
from ek_env.cards import (
    CARD_NAMES,
    CURSE,
    FAVOR,
    KITTEN,
    MARK,
    MAX_CARDS,
    MAX_CARDS_STREAKING,
    MAX_COPIES,
    MAX_COPIES_STREAKING,
    MAX_DECK,
    MAX_DECK_STREAKING,
    MAX_PLAYERS,
    NOPE,
    NUM_KINDS,
    NUM_KINDS_STREAKING,
)
from ek_env.rules import (
    combo_kinds,
    five_choices,
    pair_kinds,
    single_plays,
    takeable,
    target_offsets,
)
from ek_env.state import (
    ALTER,
    BASE_PHASES,
    CHOOSE_FIVE,
    GARBAGE,
    GIVE,
    INSERT,
    NAME_CARD,
    NOPE_WINDOW,
    PHASE_NAMES,
    PLAY,
    PLAY_KIND_NAMES,
    TAKE,
    TARGET,
    Alter,
    BlindNope,
    BlindPlay,
    ChooseFive,
    ChooseTarget,
    Config,
    Draw,
    Garbage,
    Give,
    Insert,
    Move,
    NameCard,
    Nope,
    Pass,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
    State,
    Take,
)
from ek_env.view import PlayerView

# ------------------------------------------------------------------ actions
# Action rows: (kind, card, seat offset or 0, depth or 0).
#: Distinct (combos, targets, hand) keys whose PLAY-phase masks are kept per layout.
_PLAY_CACHE: Final = 1 << 16

DRAW: Final = 0
PLAY_SINGLE: Final = 1
PLAY_PAIR: Final = 2
PLAY_THREE: Final = 3
PLAY_FIVE: Final = 4
CHOOSE: Final = 5
NAME: Final = 6
NOPE_ACTION: Final = 7
PASS_ACTION: Final = 8
GIVE_ACTION: Final = 9
INSERT_ACTION: Final = 10
TAKE_ACTION: Final = 11
BLIND_PLAY: Final = 12
BLIND_NOPE: Final = 13
TARGET_ACTION: Final = 14
ALTER_ACTION: Final = 15
GARBAGE_ACTION: Final = 16
GIVE_MARKED: Final = 17  # Favor: give a marked copy (Streaking Kittens)
GARBAGE_MARKED: Final = 18  # Garbage Collection: put in a marked copy

_OFFSETS = range(1, MAX_PLAYERS)
#: Owed turns above this are shown as this (only long Attack stacks reach it).
OWED_CAP: Final = 64
#: Events of the public record in the observation (``recent_moves``), newest first.
RECENT_MOVES: Final = 8

_Row = tuple[str, tuple[int, int, int, int], str]


def _build_actions(config: Config) -> list[_Row]:
    """The action rows of a layout; the base game's come first in the same order
    either way, each group extended by the expansion's kinds."""
    kinds = config.num_kinds
    streaking = config.streaking
    max_deck = MAX_DECK_STREAKING if streaking else MAX_DECK
    rows: list[_Row] = [("draw", (DRAW, -1, 0, 0), "end the turn by drawing the top card")]
    for card in single_plays(config):
        name = CARD_NAMES[card]
        if card in (FAVOR, MARK, CURSE):
            rows += [(f"play:{name}:+{k}", (PLAY_SINGLE, card, k, 0),
                      f"play {name} on seat +{k} clockwise") for k in _OFFSETS]
        else:
            rows.append((f"play:{name}", (PLAY_SINGLE, card, 0, 0), f"play {name}"))
    combos = combo_kinds(config)
    for kind, label in ((PLAY_PAIR, "pair"), (PLAY_THREE, "three")):
        for card in combos:
            name = CARD_NAMES[card]
            rows += [(f"{label}:{name}:+{k}", (kind, card, k, 0),
                      f"play {label} of {name} against seat +{k} clockwise") for k in _OFFSETS]
    rows.append(("five", (PLAY_FIVE, -1, 0, 0), "start five different (choose the kinds next)"))
    rows += [(f"five:{CARD_NAMES[card]}", (CHOOSE, card, 0, 0),
              f"add {CARD_NAMES[card]} to five different") for card in combos]
    rows += [(f"name:{CARD_NAMES[card]}", (NAME, card, 0, 0),
              f"three of a kind: ask for {CARD_NAMES[card]}") for card in range(kinds)]
    rows.append(("nope", (NOPE_ACTION, NOPE, 0, 0), "Nope the pending play or Nope"))
    rows.append(("pass", (PASS_ACTION, -1, 0, 0), "let the pending play or Nope stand"))
    givable = range(kinds) if streaking else takeable(config)
    rows += [(f"give:{CARD_NAMES[card]}", (GIVE_ACTION, card, 0, 0),
              f"Favor: give {CARD_NAMES[card]}" + (" (an unmarked copy)" if streaking else ""))
             for card in givable]
    if streaking:
        rows += [(f"give:{CARD_NAMES[card]}:marked", (GIVE_MARKED, card, 0, 0),
                  f"Favor: give a marked copy of {CARD_NAMES[card]}") for card in givable]
    rows += [(f"insert:depth={d}", (INSERT_ACTION, KITTEN, 0, d),
              f"put the kitten back with {d} cards above it") for d in range(max_deck)]
    rows += [(f"take:{CARD_NAMES[card]}", (TAKE_ACTION, card, 0, 0),
              f"five different: take {CARD_NAMES[card]} from the discard pile")
             for card in takeable(config)]
    if streaking:
        rows.append(("blind:play", (BLIND_PLAY, -1, 0, 0),
                     "blind: play a random card of my hand"))
        rows.append(("blind:nope", (BLIND_NOPE, -1, 0, 0),
                     "blind: try to Nope with a random card of my hand"))
        rows += [(f"target:+{k}", (TARGET_ACTION, -1, k, 0),
                  f"aim my turned-up card at seat +{k} clockwise") for k in _OFFSETS]
        rows += [(f"alter:{CARD_NAMES[card]}", (ALTER_ACTION, card, 0, 0),
                  f"Alter the Future: put {CARD_NAMES[card]} next, top first")
                 for card in range(kinds)]
        rows += [(f"garbage:{CARD_NAMES[card]}", (GARBAGE_ACTION, card, 0, 0),
                  f"Garbage Collection: put an unmarked {CARD_NAMES[card]} into the draw pile")
                 for card in range(kinds)]
        rows += [(f"garbage:{CARD_NAMES[card]}:marked", (GARBAGE_MARKED, card, 0, 0),
                  f"Garbage Collection: put a marked {CARD_NAMES[card]} into the draw pile")
                 for card in range(kinds)]
    return rows


def _event_codes(config: Config) -> int:
    return len(rec.EVENT_NAMES) if config.streaking else rec.BASE_EVENTS


def _event_width(config: Config) -> int:
    """One row of ``recent_moves``: what, actor, target, card, result one-hots."""
    return _event_codes(config) + 2 * MAX_PLAYERS + config.num_kinds + rec.RESULTS


def _event_doc(config: Config) -> str:
    codes = _event_codes(config)
    return (f"one-hot event ({', '.join(rec.EVENT_NAMES[:codes])}; {codes}), actor "
            f"({MAX_PLAYERS}, relative), target ({MAX_PLAYERS}, relative), card "
            f"({config.num_kinds}, the public card: played, named, shown, taken), result "
            f"({rec.RESULTS}: 0 nothing/miss/stopped/lost, 1 done/hit/allowed/played, 2 a "
            "marked copy or already marked, 3 exploded; a count for saw, altered, bomb, and "
            "the Nopes so far for nope); see ek_env.record for what each event holds")


def _build_spec(config: Config) -> ObservationSpec:
    streaking = config.streaking
    kinds = config.num_kinds
    max_deck = MAX_DECK_STREAKING if streaking else MAX_DECK
    copies = MAX_COPIES_STREAKING if streaking else MAX_COPIES
    most = max(copies)
    phases = PHASE_NAMES if streaking else PHASE_NAMES[:BASE_PHASES]
    kinds_doc = "kind order: " + ", ".join(CARD_NAMES[:kinds])
    fields = [
        Field("my_hand", (kinds,), 0, most,
              f"count of each kind in my hand ({kinds_doc})"
              + ("; while I am blind, only the cards I know: marked ones and those I saw "
                 "arrive" if streaking else "")),
        Field("phase", (len(phases),), 0, 1, "one-hot: " + ", ".join(phases)),
        Field("to_act", (MAX_PLAYERS,), 0, 1, "one-hot: the seat deciding now (relative)"),
        Field("turn_holder", (MAX_PLAYERS,), 0, 1, "one-hot: whose turn it is (relative)"),
        Field("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats at this table (relative)"),
        Field("alive", (MAX_PLAYERS,), 0, 1, "1 if the seat has not exploded (relative)"),
        Field("hand_sizes", (MAX_PLAYERS,), 0, MAX_CARDS_STREAKING if streaking else MAX_CARDS,
              "cards in each seat's hand (relative)"),
        Field("owed_turns", (1,), 0, OWED_CAP,
              f"turns the turn holder owes, the current one included (capped at {OWED_CAP})"),
        Field("attacked", (1,), 0, 1, "1 if the turn holder's turns come from an Attack"),
        Field("deck_size", (1,), 0, max_deck, "cards in the draw pile"),
        Field("kittens_in_deck", (1,), 0, copies[KITTEN],
              "Exploding Kittens in the draw pile or held in hands (a Streaking Kitten "
              "keeps one secretly, so the two are not told apart)" if streaking else
              "Exploding Kittens in the draw pile"),
        Field("discard", (kinds,), 0, most, "count of each kind in the discard pile"),
        Field("out_of_play", (kinds,), 0, most,
              "count of each kind set aside from exploded players (eliminated_cards='out_of_play')"),
        Field("pending_play", (len(PLAY_KIND_NAMES) - 1,), 0, 1,
              "one-hot: the announced play awaiting its Nope window: "
              + ", ".join(PLAY_KIND_NAMES[1:])),
        Field("pending_card", (kinds,), 0, 1,
              "one-hot: the card of the pending single play, pair or three of a kind"),
        Field("pending_five", (kinds,), 0, 1, "kinds chosen so far for five different"),
        Field("pending_target", (MAX_PLAYERS,), 0, 1, "one-hot: the pending play's target (relative)"),
        Field("pending_named", (kinds,), 0, 1, "one-hot: the card named in three of a kind"),
        Field("nopes", (1,), 0, copies[NOPE],
              "Nopes played on the pending play (it happens if even)"),
        Field("window_opener", (MAX_PLAYERS,), 0, 1,
              "one-hot: whose play or Nope the running Nope window answers (relative)"),
        Field("known_deck", (max_deck, kinds), 0, 1,
              "one-hot kind at each depth of the draw pile (0 = top) that I saw (See the Future) "
              "or placed (my Defuse), until a shuffle or another player's insertion makes it stale"),
        Field("known_hands", (MAX_PLAYERS - 1, kinds), 0, most,
              "count of each kind I know to be in each opponent's hand (given, received, stolen, "
              "asked for, taken from the discard pile, or drawn from a top I knew)"),
        Field("ruled_out", (MAX_PLAYERS, kinds), 0, 1,
              "1 if the table knows the seat holds no card of the kind: a three of a kind asked "
              "for it and missed; cleared when the seat's hand gains a card that could be one "
              "(relative)"),
        Field("recent_moves", (RECENT_MOVES, _event_width(config)), 0, 1,
              f"the last {RECENT_MOVES} events of the public record, newest first, one row "
              "each (zeros where there is none): " + _event_doc(config)),
    ]
    if streaking:
        fields += [
            Field("blind", (MAX_PLAYERS,), 0, 1, "1 if the seat is blind (relative)"),
            Field("marked", (MAX_PLAYERS, kinds), 0, most,
                  "count of each kind of marked (public) cards in each seat's hand (relative)"),
            Field("kittens_to_insert", (1,), 0, copies[KITTEN],
                  "defused kittens the seat to act still puts back"),
            Field("exploding", (MAX_PLAYERS,), 0, 1,
                  "1 for seats whose held kitten explodes next (their Streaking Kitten went "
                  "into the deck with Garbage Collection; relative)"),
            Field("garbage_waiting", (MAX_PLAYERS,), 0, 1,
                  "1 for seats still to put a card in for Garbage Collection (relative)"),
            Field("alter_cards", (kinds,), 0, 5,
                  "Alter the Future: the cards I still have to place (only mine)"),
            Field("alter_placed", (5, kinds), 0, 1,
                  "Alter the Future: one-hot card I put at each depth so far (only mine)"),
        ]
    return ObservationSpec(fields)


#: The fields every layout has, in order (the encoder unpacks their offsets).
_BASE_FIELDS: Final = (
    "my_hand", "phase", "to_act", "turn_holder", "seat_present", "alive", "hand_sizes",
    "owed_turns", "attacked", "deck_size", "kittens_in_deck", "discard", "out_of_play",
    "pending_play", "pending_card", "pending_five", "pending_target", "pending_named",
    "nopes", "window_opener", "known_deck", "known_hands",
)


class Layout:
    """The action table, observation spec, masks, dispatch and encoder of one game
    setup (base or with the Streaking Kittens expansion)."""

    def __init__(self, config: Config) -> None:
        self.streaking = config.streaking
        self.kinds = config.num_kinds
        self.max_deck = MAX_DECK_STREAKING if self.streaking else MAX_DECK
        self.action_table: ActionTable[tuple[int, int, int, int]] = ActionTable(
            _build_actions(config))
        self.specs = self.action_table.moves
        self.num_actions = len(self.action_table)
        self.observation_spec = _build_spec(config)
        self.obs_size = self.observation_spec.size
        index = self.action_table.index
        names = CARD_NAMES
        self.draw_index = index("draw")
        self._play_masks: dict[tuple[Any, ...], int] = {}
        singles = single_plays(config)
        self.single_bit = {card: 1 << index(f"play:{names[card]}")
                           for card in singles if card not in (FAVOR, MARK, CURSE)}
        # Targeted plays: offsets 1..8 sit in consecutive actions, so a bit mask over
        # offsets (bit k = offset k) shifted by (base - 1) gives the actions.
        self.target_shift = {card: index(f"play:{names[card]}:+1") - 1
                             for card in singles if card in (FAVOR, MARK, CURSE)}
        combos = combo_kinds(config)
        self.pair_shift = {card: index(f"pair:{names[card]}:+1") - 1 for card in combos}
        self.three_shift = {card: index(f"three:{names[card]}:+1") - 1 for card in combos}
        self.five_bit = 1 << index("five")
        self.choose_index = {card: index(f"five:{names[card]}") for card in combos}
        self.name_base = index(f"name:{names[0]}")
        self.name_mask = ((1 << self.kinds) - 1) << self.name_base
        self.nope_index = index("nope")
        self.pass_index = index("pass")
        self.give_index = {card: index(f"give:{names[card]}")
                           for card in (range(self.kinds) if self.streaking else takeable(config))}
        self.insert_base = index("insert:depth=0")
        self.take_index = {card: index(f"take:{names[card]}") for card in takeable(config)}
        if self.streaking:
            self.blind_play_bit = 1 << index("blind:play")
            self.blind_nope_index = index("blind:nope")
            self.target_base = index("target:+1") - 1
            self.alter_index = {card: index(f"alter:{names[card]}") for card in range(self.kinds)}
            self.garbage_index = {card: index(f"garbage:{names[card]}")
                                  for card in range(self.kinds)}
            self.give_marked_index = {card: index(f"give:{names[card]}:marked")
                                      for card in range(self.kinds)}
            self.garbage_marked_index = {card: index(f"garbage:{names[card]}:marked")
                                         for card in range(self.kinds)}
        self._present = {n: bytes([1] * n) for n in range(2, MAX_PLAYERS + 1)}
        offsets = self.observation_spec.offsets
        self._o = offsets
        self._base_offsets = tuple(offsets[name] for name in _BASE_FIELDS)
        codes = _event_codes(config)
        self._record = (offsets["recent_moves"], offsets["ruled_out"], codes,
                        codes + MAX_PLAYERS, codes + 2 * MAX_PLAYERS,
                        codes + 2 * MAX_PLAYERS + self.kinds, _event_width(config))
        if self.streaking:
            self._streaking_offsets = tuple(offsets[name] for name in (
                "blind", "marked", "kittens_to_insert", "exploding", "garbage_waiting",
                "alter_cards", "alter_placed"))

    # -------------------------------------------------------------- masks

    def legal_mask(self, state: State) -> int:
        """Legal actions of the seat to act as a bit mask over action indices.

        Built from the same rules as :func:`ek_env.rules.legal_moves`; the
        conformance test compares the two at every step.
        """
        phase = state.phase
        seat = state.to_act
        if phase == NOPE_WINDOW:
            if state.blind[seat]:
                if state.sizes[seat]:
                    return 1 << self.blind_nope_index | 1 << self.pass_index
                return 1 << self.pass_index
            if state.hands[seat][NOPE]:
                return 1 << self.nope_index | 1 << self.pass_index
            return 1 << self.pass_index
        if phase == PLAY:
            if state.blind[seat]:
                if state.sizes[seat]:
                    return 1 << self.draw_index | self.blind_play_bit
                return 1 << self.draw_index
            return self._play_mask(state)
        if phase == INSERT:
            return ((1 << (len(state.deck) + 1)) - 1) << self.insert_base
        if phase == GIVE:
            if self.streaking:
                return self._copies_mask(state, seat, self.give_index, self.give_marked_index)
            return self._kinds_mask(state.hands[seat], self.give_index)
        if phase == CHOOSE_FIVE:
            mask = 0
            for card in five_choices(state):
                mask |= 1 << self.choose_index[card]
            return mask
        if phase == NAME_CARD:
            return self.name_mask
        if phase == TAKE:
            return self._kinds_mask(state.discard, self.take_index)
        if phase == ALTER:
            mask = 0
            for card in state.alter_left:
                mask |= 1 << self.alter_index[card]
            return mask
        if phase == GARBAGE:
            return self._copies_mask(state, seat, self.garbage_index, self.garbage_marked_index)
        if phase == TARGET:
            return streaking.valid_offsets(state, state.pending_card) << self.target_base
        return 0

    @staticmethod
    def _kinds_mask(counts: list[int], indices: dict[int, int]) -> int:
        mask = 0
        for card, index in indices.items():
            if counts[card]:
                mask |= 1 << index
        return mask

    @staticmethod
    def _copies_mask(state: State, seat: int, plain: dict[int, int],
                     marked: dict[int, int]) -> int:
        """Favor and Garbage Collection: an unmarked copy of each kind held, and a
        marked copy of each kind with one (RULES.md §1: the two are different cards)."""
        hand, marks = state.hands[seat], state.marked[seat]
        mask = 0
        for card, index in plain.items():
            count = hand[card]
            if count:
                if count > marks[card]:
                    mask |= 1 << index
                if marks[card]:
                    mask |= 1 << marked[card]
        return mask

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the setup it belongs to (one shared layout per setup, no caches).
        return _layout_named, (self.streaking,)

    def _play_mask(self, state: State) -> int:
        """The PLAY phase's mask: a function of ``combos``, the hand and the seats that
        may be chosen (``empty_hand_target`` decides those), so it is cached on them."""
        config = state.config
        targets = target_offsets(state, config.empty_hand_target == "forbidden")
        anyone = target_offsets(state, False)
        key = (config.combos, targets, anyone, *state.hands[state.current])
        mask = self._play_masks.get(key)
        if mask is None:
            if len(self._play_masks) >= _PLAY_CACHE:
                self._play_masks.clear()
            mask = self._play_masks[key] = self._compute_play_mask(state, targets, anyone)
        return mask

    def _compute_play_mask(self, state: State, targets: int, anyone: int) -> int:
        config = state.config
        hand = state.hands[state.current]
        mask = 1 << self.draw_index
        for card, bit in self.single_bit.items():
            if hand[card]:
                mask |= bit
        for card, shift in self.target_shift.items():
            if hand[card]:
                if card == CURSE:
                    mask |= anyone << shift
                else:
                    mask |= targets << shift
        for card in pair_kinds(config):
            if hand[card] >= 2:
                mask |= targets << self.pair_shift[card]
        if config.combos:
            distinct = 0
            for card in self.choose_index:
                count = hand[card]
                if count:
                    distinct += 1
                    if count >= 3:
                        mask |= anyone << self.three_shift[card]
            if distinct >= 5:
                mask |= self.five_bit
        return mask

    def legal_indices(self, state: State) -> list[int]:
        """Legal action indices of the seat to act, ascending."""
        mask = self.legal_mask(state)
        return [i for i in range(self.num_actions) if mask >> i & 1]

    # ------------------------------------------------------------- actions

    def apply(self, state: State, action: int, rng: np.random.Generator) -> None:
        """Apply a legal action index of the seat to act (the env's and the search's
        fast path: no legality check; see :func:`ek_env.rules.apply`)."""
        kind, card, offset, depth = self.specs[action]
        if kind == PASS_ACTION or kind == NOPE_ACTION:
            effects.respond(state, kind == NOPE_ACTION, rng)
        elif kind == DRAW:
            effects.draw(state, rng)
        elif kind == PLAY_SINGLE:
            effects.play_card(state, card,
                              (state.current + offset) % state.num_players if offset else None)
        elif kind == PLAY_PAIR:
            effects.play_pair(state, card, (state.current + offset) % state.num_players)
        elif kind == PLAY_THREE:
            effects.play_three(state, card, (state.current + offset) % state.num_players)
        elif kind == PLAY_FIVE:
            effects.play_five(state)
        elif kind == CHOOSE:
            effects.choose_five(state, card)
        elif kind == NAME:
            effects.name_card(state, card)
        elif kind == GIVE_ACTION:
            effects.give(state, card, rng)
        elif kind == INSERT_ACTION:
            effects.insert(state, depth, rng)
        elif kind == TAKE_ACTION:
            effects.take(state, card)
        elif kind == BLIND_PLAY:
            streaking.blind_play(state, rng)
        elif kind == BLIND_NOPE:
            streaking.blind_nope(state, rng)
        elif kind == TARGET_ACTION:
            streaking.choose_target(state, (state.current + offset) % state.num_players)
        elif kind == ALTER_ACTION:
            streaking.alter(state, card)
        elif kind == GIVE_MARKED:
            effects.give(state, card, rng, True)
        else:
            streaking.garbage(state, card, rng, kind == GARBAGE_MARKED)

    def action_to_move(self, state: State, action: int) -> Move:
        """The engine move an action index stands for, for the seat to act."""
        kind, card, offset, depth = self.specs[action]
        target = (state.current + offset) % state.num_players
        moves: dict[int, Move] = {
            DRAW: Draw(), PLAY_FIVE: PlayFive(), NOPE_ACTION: Nope(), PASS_ACTION: Pass(),
            BLIND_PLAY: BlindPlay(), BLIND_NOPE: BlindNope(),
        }
        if kind in moves:
            return moves[kind]
        if kind == PLAY_SINGLE:
            return PlayCard(card, target if offset else None)
        if kind == PLAY_PAIR:
            return PlayPair(card, target)
        if kind == PLAY_THREE:
            return PlayThree(card, target)
        if kind == TARGET_ACTION:
            return ChooseTarget(target)
        if kind == INSERT_ACTION:
            return Insert(depth)
        if kind == GIVE_MARKED:
            return Give(card, True)
        if kind == GARBAGE_MARKED:
            return Garbage(card, True)
        by_card: dict[int, type[ChooseFive | NameCard | Give | Take | Alter | Garbage]] = {
            CHOOSE: ChooseFive, NAME: NameCard, GIVE_ACTION: Give, TAKE_ACTION: Take,
            ALTER_ACTION: Alter, GARBAGE_ACTION: Garbage}
        return by_card[kind](card)

    def move_to_action(self, state: State, move: Move) -> int:
        """The action index of an engine move of the seat to act."""
        n = state.num_players
        index = self.action_table.index
        names = CARD_NAMES
        if isinstance(move, PlayCard):
            if move.target is not None:
                return self.target_shift[move.card] + (move.target - state.current) % n
            return index(f"play:{names[move.card]}")
        if isinstance(move, PlayPair):
            return self.pair_shift[move.card] + (move.target - state.current) % n
        if isinstance(move, PlayThree):
            return self.three_shift[move.card] + (move.target - state.current) % n
        if isinstance(move, ChooseTarget):
            return self.target_base + (move.target - state.current) % n
        if isinstance(move, Insert):
            return self.insert_base + move.depth
        if isinstance(move, (Give, Garbage)) and move.marked:
            kind = "give" if isinstance(move, Give) else "garbage"
            return index(f"{kind}:{names[move.card]}:marked")
        plain = {Draw: "draw", PlayFive: "five", Nope: "nope", Pass: "pass",
                 BlindPlay: "blind:play", BlindNope: "blind:nope"}
        if type(move) in plain:
            return index(plain[type(move)])
        prefix = {ChooseFive: "five", NameCard: "name", Give: "give", Take: "take",
                  Alter: "alter", Garbage: "garbage"}[type(move)]
        return index(f"{prefix}:{names[move.card]}")  # type: ignore[union-attr]

    # --------------------------------------------------------- observation

    def encode(self, view: PlayerView) -> NDArray[np.float32]:
        """The observation vector of ``view``'s seat (see :attr:`observation_spec`).

        Every field is a small count, so the vector is built in a ``bytearray`` and
        converted once; only public facts and the seat's own knowledge are read.
        """
        (my_hand, phase, to_act, holder, present, alive_at, sizes_at, owed, attacked, deck,
         kittens, discard, out_of_play, p_play, p_card, p_five, p_target, p_named, nopes_at,
         opener_at, known_deck, known_hands_at) = self._base_offsets
        kinds = self.kinds
        seat = view.seat
        n = view.num_players
        out = bytearray(self.obs_size)
        (phase_now, acting, turn_holder, alive, sizes, owed_turns, is_attacked, deck_size,
         discarded, set_aside) = view.table_facts()
        out[my_hand : my_hand + kinds] = bytes(view.my_hand)
        out[phase + phase_now] = 1
        out[to_act + (acting - seat) % n] = 1
        out[holder + (turn_holder - seat) % n] = 1
        out[present : present + n] = self._present[n]
        out[alive_at : alive_at + n] = bytes(alive[seat:] + alive[:seat])
        out[sizes_at : sizes_at + n] = bytes(sizes[seat:] + sizes[:seat])
        out[owed] = min(owed_turns, OWED_CAP)
        out[attacked] = is_attacked
        out[deck] = deck_size
        out[kittens] = view.kittens_in_deck
        out[discard : discard + kinds] = bytes(discarded)
        out[out_of_play : out_of_play + kinds] = bytes(set_aside)
        kind, card, target, named, five, nopes, opener = view.pending
        if kind:
            out[p_play + kind - 1] = 1
            if card >= 0:
                out[p_card + card] = 1
            for chosen in five:
                out[p_five + chosen] = 1
            if target >= 0:
                out[p_target + (target - seat) % n] = 1
            if named >= 0:
                out[p_named + named] = 1
            out[nopes_at] = nopes
            if opener >= 0:
                out[opener_at + (opener - seat) % n] = 1
        for depth, known in view.known_deck():
            out[known_deck + depth * kinds + known] = 1
        known_hands = view.known_hands_relative()
        out[known_hands_at : known_hands_at + len(known_hands)] = known_hands
        row, ruled_at, actor_at, target_at, card_at, result_at, width = self._record
        shift = n - seat  # (other - seat) % n == (other + shift) % n
        for who, what, target, card, result in view.recent_public(RECENT_MOVES):
            out[row + what] = 1
            out[row + actor_at + (who + shift) % n] = 1
            if target >= 0:
                out[row + target_at + (target + shift) % n] = 1
            if card >= 0:
                out[row + card_at + card] = 1
            if result >= 0:
                out[row + result_at + result] = 1
            row += width
        ruled = view.ruled_out()
        if ruled is not None:
            out[ruled_at : ruled_at + len(ruled)] = ruled
        if self.streaking:
            self._encode_streaking(view, out)
        return np.frombuffer(out, dtype=np.uint8).astype(np.float32)

    def _encode_streaking(self, view: PlayerView, out: bytearray) -> None:
        facts = view.streaking_facts()
        if facts is None:
            return
        blind, marked, to_insert, exploding, waiting, alter_left, alter_placed = facts
        blind_at, marked_at, insert_at, exploding_at, waiting_at, left_at, placed_at = (
            self._streaking_offsets)
        kinds = self.kinds
        seat = view.seat
        n = len(blind)
        if True in blind:
            out[blind_at : blind_at + n] = bytes(blind[seat:] + blind[:seat])
        if marked:  # empty when nobody has a marked card
            out[marked_at : marked_at + n * kinds] = b"".join(marked[seat:] + marked[:seat])
        if to_insert:
            out[insert_at] = to_insert
            for other in exploding:
                out[exploding_at + (other - seat) % n] = 1
        for other in waiting:
            out[waiting_at + (other - seat) % n] = 1
        for card in alter_left:
            out[left_at + card] += 1
        for depth, card in enumerate(alter_placed):
            out[placed_at + depth * kinds + card] = 1


BASE: Final = Layout(Config())
STREAKING: Final = Layout(Config(expansions=("streaking",)))


def _layout_named(streaking: bool) -> Layout:
    return STREAKING if streaking else BASE


def layout(config: Config) -> Layout:
    """The layout of a game setup."""
    return STREAKING if config.streaking else BASE


def _of(state: State) -> Layout:
    return STREAKING if state.kinds > NUM_KINDS else BASE


# The base layout under its historical module-level names, and dispatching helpers.
ACTION_TABLE: Final = BASE.action_table
ACTION_SPECS: Final = BASE.specs
NUM_ACTIONS: Final = BASE.num_actions
OBSERVATION_SPEC: Final = BASE.observation_spec
OBS_SIZE: Final = BASE.obs_size
DRAW_INDEX: Final = BASE.draw_index
NOPE_INDEX: Final = BASE.nope_index
PASS_INDEX: Final = BASE.pass_index
assert NUM_KINDS_STREAKING == STREAKING.kinds


def legal_action_mask(state: State) -> int:
    """Legal actions of the seat to act as a bit mask (the state's layout)."""
    return _of(state).legal_mask(state)


def legal_action_indices(state: State) -> list[int]:
    """Legal action indices of the seat to act, ascending (the state's layout)."""
    return _of(state).legal_indices(state)


def apply_action(state: State, action: int, rng: np.random.Generator) -> None:
    """Apply a legal action index of the seat to act (the state's layout)."""
    _of(state).apply(state, action, rng)


def action_to_move(state: State, action: int) -> Move:
    return _of(state).action_to_move(state, action)


def move_to_action(state: State, move: Move) -> int:
    return _of(state).move_to_action(state, move)


def encode(view: PlayerView) -> NDArray[np.float32]:
    """The observation vector of ``view``'s seat (the state's layout)."""
    return layout(view.config).encode(view)
