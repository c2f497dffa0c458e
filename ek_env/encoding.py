"""Exploding Kittens action table and observation layout: the one source of truth.

Actions name seats as offsets clockwise from the turn holder (``+1`` is the next
seat), so one network can play every seat. Each phase has its own slice of the
table. Observations are seat-relative: index 0 of every per-seat field is the
observer, then the other seats clockwise.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

from cardgym.actions import ActionTable
from cardgym.observation import Field, ObservationSpec
from ek_env import effects
from ek_env.cards import (
    CARD_NAMES,
    COMBO_KINDS,
    FAVOR,
    KITTEN,
    MAX_CARDS,
    MAX_COPIES,
    MAX_DECK,
    MAX_PLAYERS,
    NOPE,
    NUM_KINDS,
    SINGLE_PLAYS,
    TAKEABLE,
)
from ek_env.rules import five_choices, pair_kinds, target_offsets
from ek_env.state import (
    CHOOSE_FIVE,
    GIVE,
    INSERT,
    NAME_CARD,
    NOPE_WINDOW,
    PHASE_NAMES,
    PLAY,
    PLAY_KIND_NAMES,
    TAKE,
    ChooseFive,
    Draw,
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
# ACTION_SPECS rows: (kind, card, seat offset or 0, depth or 0).
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

_OFFSETS = range(1, MAX_PLAYERS)


def _build_actions() -> list[tuple[str, tuple[int, int, int, int], str]]:
    rows: list[tuple[str, tuple[int, int, int, int], str]] = [
        ("draw", (DRAW, -1, 0, 0), "end the turn by drawing the top card"),
    ]
    for card in SINGLE_PLAYS:
        name = CARD_NAMES[card]
        if card == FAVOR:
            rows += [(f"play:{name}:+{k}", (PLAY_SINGLE, card, k, 0),
                      f"play {name} on seat +{k} clockwise") for k in _OFFSETS]
        else:
            rows.append((f"play:{name}", (PLAY_SINGLE, card, 0, 0), f"play {name}"))
    for kind, label in ((PLAY_PAIR, "pair"), (PLAY_THREE, "three")):
        for card in COMBO_KINDS:
            name = CARD_NAMES[card]
            rows += [(f"{label}:{name}:+{k}", (kind, card, k, 0),
                      f"play {label} of {name} against seat +{k} clockwise") for k in _OFFSETS]
    rows.append(("five", (PLAY_FIVE, -1, 0, 0), "start five different (choose the kinds next)"))
    rows += [(f"five:{CARD_NAMES[card]}", (CHOOSE, card, 0, 0),
              f"add {CARD_NAMES[card]} to five different") for card in COMBO_KINDS]
    rows += [(f"name:{CARD_NAMES[card]}", (NAME, card, 0, 0),
              f"three of a kind: ask for {CARD_NAMES[card]}") for card in range(NUM_KINDS)]
    rows.append(("nope", (NOPE_ACTION, NOPE, 0, 0), "Nope the pending play or Nope"))
    rows.append(("pass", (PASS_ACTION, -1, 0, 0), "let the pending play or Nope stand"))
    rows += [(f"give:{CARD_NAMES[card]}", (GIVE_ACTION, card, 0, 0),
              f"Favor: give {CARD_NAMES[card]}") for card in TAKEABLE]
    rows += [(f"insert:depth={d}", (INSERT_ACTION, KITTEN, 0, d),
              f"put the kitten back with {d} cards above it") for d in range(MAX_DECK)]
    rows += [(f"take:{CARD_NAMES[card]}", (TAKE_ACTION, card, 0, 0),
              f"five different: take {CARD_NAMES[card]} from the discard pile") for card in TAKEABLE]
    return rows


ACTION_TABLE: Final = ActionTable(_build_actions())
ACTION_SPECS: Final[tuple[tuple[int, int, int, int], ...]] = ACTION_TABLE.moves
NUM_ACTIONS: Final = len(ACTION_TABLE)

_INDEX: Final = ACTION_TABLE.index
DRAW_INDEX: Final = _INDEX("draw")
_SINGLE_BIT: Final = {card: 1 << _INDEX(f"play:{CARD_NAMES[card]}")
                      for card in SINGLE_PLAYS if card != FAVOR}
# Targeted plays: offsets 1..8 sit in consecutive actions, so a bit mask over
# offsets (bit k = offset k) shifted by (base - 1) gives the actions.
_FAVOR_SHIFT: Final = _INDEX(f"play:{CARD_NAMES[FAVOR]}:+1") - 1
_PAIR_SHIFT: Final = {card: _INDEX(f"pair:{CARD_NAMES[card]}:+1") - 1 for card in COMBO_KINDS}
_THREE_SHIFT: Final = {card: _INDEX(f"three:{CARD_NAMES[card]}:+1") - 1 for card in COMBO_KINDS}
_FIVE_BIT: Final = 1 << _INDEX("five")
_CHOOSE_INDEX: Final = {card: _INDEX(f"five:{CARD_NAMES[card]}") for card in COMBO_KINDS}
_NAME_BASE: Final = _INDEX(f"name:{CARD_NAMES[0]}")
_NAME_MASK: Final = ((1 << NUM_KINDS) - 1) << _NAME_BASE
NOPE_INDEX: Final = _INDEX("nope")
PASS_INDEX: Final = _INDEX("pass")
_GIVE_INDEX: Final = {card: _INDEX(f"give:{CARD_NAMES[card]}") for card in TAKEABLE}
_INSERT_BASE: Final = _INDEX("insert:depth=0")
_TAKE_INDEX: Final = {card: _INDEX(f"take:{CARD_NAMES[card]}") for card in TAKEABLE}


def legal_action_mask(state: State) -> int:
    """Legal actions of the seat to act as a bit mask over action indices (bit i = action i).

    Built from the same rules as :func:`ek_env.rules.legal_moves` (targets from
    ``target_offsets``, five different from ``five_choices``); the conformance test
    compares the two at every step.
    """
    phase = state.phase
    if phase == NOPE_WINDOW:
        if state.hands[state.to_act][NOPE]:
            return 1 << NOPE_INDEX | 1 << PASS_INDEX
        return 1 << PASS_INDEX
    if phase == PLAY:
        return _play_mask(state)
    if phase == INSERT:
        return ((1 << (len(state.deck) + 1)) - 1) << _INSERT_BASE
    if phase == GIVE:
        hand = state.hands[state.to_act]
        mask = 0
        for card, index in _GIVE_INDEX.items():
            if hand[card]:
                mask |= 1 << index
        return mask
    if phase == CHOOSE_FIVE:
        mask = 0
        for card in five_choices(state):
            mask |= 1 << _CHOOSE_INDEX[card]
        return mask
    if phase == NAME_CARD:
        return _NAME_MASK
    if phase == TAKE:
        discard = state.discard
        mask = 0
        for card, index in _TAKE_INDEX.items():
            if discard[card]:
                mask |= 1 << index
        return mask
    return 0


def _play_mask(state: State) -> int:
    config = state.config
    hand = state.hands[state.current]
    targets = target_offsets(state, config.empty_hand_target == "forbidden")
    mask = 1 << DRAW_INDEX
    for card, bit in _SINGLE_BIT.items():
        if hand[card]:
            mask |= bit
    if hand[FAVOR]:
        mask |= targets << _FAVOR_SHIFT
    for card in pair_kinds(config):
        if hand[card] >= 2:
            mask |= targets << _PAIR_SHIFT[card]
    if config.combos:
        anyone = None
        distinct = 0
        for card in COMBO_KINDS:
            count = hand[card]
            if count:
                distinct += 1
                if count >= 3:
                    if anyone is None:
                        anyone = target_offsets(state, False)
                    mask |= anyone << _THREE_SHIFT[card]
        if distinct >= 5:
            mask |= _FIVE_BIT
    return mask


def apply_action(state: State, action: int, rng: np.random.Generator) -> None:
    """Apply a legal action index of the seat to act (the env's and the search's fast
    path: no legality check, see :func:`ek_env.rules.apply` for the checked one)."""
    kind, card, offset, depth = ACTION_SPECS[action]
    if kind == PASS_ACTION or kind == NOPE_ACTION:
        effects.respond(state, kind == NOPE_ACTION, rng)
    elif kind == DRAW:
        effects.draw(state, rng)
    elif kind == PLAY_SINGLE:
        effects.play_card(state, card, (state.current + offset) % state.num_players if offset else None)
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
        effects.give(state, card)
    elif kind == INSERT_ACTION:
        effects.insert(state, depth)
    else:
        effects.take(state, card)


def legal_action_indices(state: State) -> list[int]:
    """Legal action indices of the seat to act, ascending."""
    mask = legal_action_mask(state)
    return [i for i in range(NUM_ACTIONS) if mask >> i & 1]


def action_to_move(state: State, action: int) -> Move:
    """The engine move an action index stands for, for the seat to act."""
    kind, card, offset, depth = ACTION_SPECS[action]
    target = (state.current + offset) % state.num_players
    if kind == DRAW:
        return Draw()
    if kind == PLAY_SINGLE:
        return PlayCard(card, target if card == FAVOR else None)
    if kind == PLAY_PAIR:
        return PlayPair(card, target)
    if kind == PLAY_THREE:
        return PlayThree(card, target)
    if kind == PLAY_FIVE:
        return PlayFive()
    if kind == CHOOSE:
        return ChooseFive(card)
    if kind == NAME:
        return NameCard(card)
    if kind == NOPE_ACTION:
        return Nope()
    if kind == PASS_ACTION:
        return Pass()
    if kind == GIVE_ACTION:
        return Give(card)
    if kind == INSERT_ACTION:
        return Insert(depth)
    return Take(card)


def move_to_action(state: State, move: Move) -> int:
    """The action index of an engine move of the seat to act."""
    n = state.num_players
    if isinstance(move, Draw):
        return DRAW_INDEX
    if isinstance(move, PlayCard):
        if move.card == FAVOR:
            return _FAVOR_SHIFT + (move.target - state.current) % n  # type: ignore[operator]
        return _SINGLE_BIT[move.card].bit_length() - 1
    if isinstance(move, PlayPair):
        return _PAIR_SHIFT[move.card] + (move.target - state.current) % n
    if isinstance(move, PlayThree):
        return _THREE_SHIFT[move.card] + (move.target - state.current) % n
    if isinstance(move, PlayFive):
        return _FIVE_BIT.bit_length() - 1
    if isinstance(move, ChooseFive):
        return _CHOOSE_INDEX[move.card]
    if isinstance(move, NameCard):
        return _NAME_BASE + move.card
    if isinstance(move, Nope):
        return NOPE_INDEX
    if isinstance(move, Pass):
        return PASS_INDEX
    if isinstance(move, Give):
        return _GIVE_INDEX[move.card]
    if isinstance(move, Insert):
        return _INSERT_BASE + move.depth
    return _TAKE_INDEX[move.card]


# ------------------------------------------------------------- observation

_OPPONENTS: Final = MAX_PLAYERS - 1
_MOST: Final = max(MAX_COPIES)
#: Owed turns above this are shown as this (only long Attack stacks reach it).
OWED_CAP: Final = 64
_KINDS_DOC: Final = "kind order: " + ", ".join(CARD_NAMES)

OBSERVATION_SPEC: Final = ObservationSpec(
    [
        Field("my_hand", (NUM_KINDS,), 0, _MOST, f"count of each kind in my hand ({_KINDS_DOC})"),
        Field("phase", (len(PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(PHASE_NAMES)),
        Field("to_act", (MAX_PLAYERS,), 0, 1, "one-hot: the seat deciding now (relative)"),
        Field("turn_holder", (MAX_PLAYERS,), 0, 1, "one-hot: whose turn it is (relative)"),
        Field("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats at this table (relative)"),
        Field("alive", (MAX_PLAYERS,), 0, 1, "1 if the seat has not exploded (relative)"),
        Field("hand_sizes", (MAX_PLAYERS,), 0, MAX_CARDS, "cards in each seat's hand (relative)"),
        Field("owed_turns", (1,), 0, OWED_CAP,
              f"turns the turn holder owes, the current one included (capped at {OWED_CAP})"),
        Field("attacked", (1,), 0, 1, "1 if the turn holder's turns come from an Attack"),
        Field("deck_size", (1,), 0, MAX_DECK, "cards in the draw pile"),
        Field("kittens_in_deck", (1,), 0, MAX_COPIES[KITTEN], "Exploding Kittens in the draw pile"),
        Field("discard", (NUM_KINDS,), 0, _MOST, "count of each kind in the discard pile"),
        Field("out_of_play", (NUM_KINDS,), 0, _MOST,
              "count of each kind set aside from exploded players (eliminated_cards='out_of_play')"),
        Field("pending_play", (len(PLAY_KIND_NAMES) - 1,), 0, 1,
              "one-hot: the announced play awaiting its Nope window: "
              + ", ".join(PLAY_KIND_NAMES[1:])),
        Field("pending_card", (NUM_KINDS,), 0, 1,
              "one-hot: the card of the pending single play, pair or three of a kind"),
        Field("pending_five", (NUM_KINDS,), 0, 1, "kinds chosen so far for five different"),
        Field("pending_target", (MAX_PLAYERS,), 0, 1, "one-hot: the pending play's target (relative)"),
        Field("pending_named", (NUM_KINDS,), 0, 1, "one-hot: the card named in three of a kind"),
        Field("nopes", (1,), 0, MAX_COPIES[NOPE],
              "Nopes played on the pending play (it happens if even)"),
        Field("window_opener", (MAX_PLAYERS,), 0, 1,
              "one-hot: whose play or Nope the running Nope window answers (relative)"),
        Field("known_deck", (MAX_DECK, NUM_KINDS), 0, 1,
              "one-hot kind at each depth of the draw pile (0 = top) that I saw (See the Future) "
              "or placed (my Defuse), until a shuffle or another player's insertion makes it stale"),
        Field("known_hands", (_OPPONENTS, NUM_KINDS), 0, _MOST,
              "count of each kind I know to be in each opponent's hand (given, received, stolen, "
              "asked for, taken from the discard pile, or drawn from a top I knew)"),
    ]
)
OBS_SIZE: Final = OBSERVATION_SPEC.size
_O = OBSERVATION_SPEC.offsets
_MY_HAND, _PHASE, _TO_ACT, _HOLDER = _O["my_hand"], _O["phase"], _O["to_act"], _O["turn_holder"]
_PRESENT, _ALIVE, _SIZES = _O["seat_present"], _O["alive"], _O["hand_sizes"]
_OWED, _ATTACKED, _DECK, _KITTENS = _O["owed_turns"], _O["attacked"], _O["deck_size"], _O["kittens_in_deck"]
_DISCARD, _OUT = _O["discard"], _O["out_of_play"]
_P_PLAY, _P_CARD, _P_FIVE = _O["pending_play"], _O["pending_card"], _O["pending_five"]
_P_TARGET, _P_NAMED, _NOPES, _OPENER = (_O["pending_target"], _O["pending_named"], _O["nopes"],
                                        _O["window_opener"])
_KNOWN_DECK, _KNOWN_HANDS = _O["known_deck"], _O["known_hands"]
_PRESENT_BYTES: Final = {n: bytes([1] * n) for n in range(2, MAX_PLAYERS + 1)}


def encode(view: PlayerView) -> NDArray[np.float32]:
    """The observation vector of ``view``'s seat (see :data:`OBSERVATION_SPEC`).

    Every field is a small count, so the vector is built in a ``bytearray`` and
    converted once; only public facts and the seat's own knowledge are read.
    """
    seat = view.seat
    n = view.num_players
    out = bytearray(OBS_SIZE)
    out[_MY_HAND : _MY_HAND + NUM_KINDS] = bytes(view.my_hand)
    out[_PHASE + view.phase] = 1
    out[_TO_ACT + (view.to_act - seat) % n] = 1
    out[_HOLDER + (view.turn_holder - seat) % n] = 1
    out[_PRESENT : _PRESENT + n] = _PRESENT_BYTES[n]
    alive = view.alive
    out[_ALIVE : _ALIVE + n] = bytes(alive[seat:] + alive[:seat])
    sizes = view.hand_sizes()
    out[_SIZES : _SIZES + n] = bytes(sizes[seat:] + sizes[:seat])
    out[_OWED] = min(view.owed_turns, OWED_CAP)
    out[_ATTACKED] = view.attacked
    out[_DECK] = view.deck_size
    out[_KITTENS] = view.kittens_in_deck
    out[_DISCARD : _DISCARD + NUM_KINDS] = bytes(view.discard)
    out[_OUT : _OUT + NUM_KINDS] = bytes(view.out_of_play)
    kind, card, target, named, five, nopes, opener = view.pending
    if kind:
        out[_P_PLAY + kind - 1] = 1
        if card >= 0:
            out[_P_CARD + card] = 1
        for chosen in five:
            out[_P_FIVE + chosen] = 1
        if target >= 0:
            out[_P_TARGET + (target - seat) % n] = 1
        if named >= 0:
            out[_P_NAMED + named] = 1
        out[_NOPES] = nopes
        if opener >= 0:
            out[_OPENER + (opener - seat) % n] = 1
    for depth, known in view.known_deck():
        out[_KNOWN_DECK + depth * NUM_KINDS + known] = 1
    known_hands = view.known_hands_relative()
    if any(known_hands):
        out[_KNOWN_HANDS : _KNOWN_HANDS + len(known_hands)] = bytes(known_hands)
    return np.frombuffer(out, dtype=np.uint8).astype(np.float32)
