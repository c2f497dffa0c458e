"""Where the batched engine keeps an Exploding Kittens game: the columns of its two
state arrays, the rule options as integers, and the game's tables as numpy arrays.

Each row of the engine holds one game in two arrays: ``small`` (``int8``: card
counts per kind, the draw pile, seats, flags, what each seat knows) and ``wide``
(``int32``: the counters that may pass 127, and the ring of recent events, whose
secrets, the cards a seat saw packed five bits each, need 25 bits). A field takes a
run of columns; per-seat fields take :data:`MAX_PLAYERS` columns whatever the table
size, and counts per kind :data:`KIND_ROOM` (the expansion's 22 kinds; the base game
reads the first 13). Lists keep the reference's order (the draw pile with its top
card last, what a seat knows of it with the top first), and ``-1`` is "none".

The flat lists of the reference keep its layout: ``known_hands`` is
``[observer * n + other][kind]`` and ``ruled_out`` ``[seat][kind]``, over the table's
``n`` seats and ``kinds`` kinds (the kernels read both from the option vector). A
hand (and its marked cards) is counted by a :class:`~cardgym.vector.rows.Count`
column that holds the number of kinds, so that a row of 22 columns gives back a list
of the setup's length.

Every name here is a module-level constant, which the kernels read as compile-time
constants.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.record import NONE
from cardgym.vector.rows import Count, Items, Own, RowFormat, Value
from ek_env.encoding.encoder import BASE_ENCODER, STREAKING_ENCODER, Encoder
from ek_env.encoding.observation import OWED_CAP, RECENT_MOVES, event_codes
from ek_env.engine import actions as _act
from ek_env.engine import record as _rec
from ek_env.engine.actions import BASE_ACTIONS, STREAKING_ACTIONS, Actions
from ek_env.engine.cards import (
    ALTER_THE_FUTURE_5X,
    ATTACK,
    BLIND_PLAYABLE,
    CATOMIC_BOMB,
    CATS,
    COMBO_KINDS_STREAKING,
    CURSE,
    DEFUSE,
    FAVOR,
    GARBAGE_COLLECTION,
    KITTEN,
    MARK,
    MAX_DECK_STREAKING,
    MAX_PLAYERS,
    NOPE,
    NUM_KINDS_STREAKING,
    SEE_THE_FUTURE,
    SEE_THE_FUTURE_5X,
    SEE_THE_FUTURE_CARDS,
    SHUFFLE,
    SKIP,
    STREAKING,
    SUPER_SKIP,
    SWAP_TOP_AND_BOTTOM,
    TAKEABLE_STREAKING,
    TARGETED,
    composition,
    deck_defuses,
    deck_kittens,
)
from ek_env.engine.cards import FUTURE_5X_CARDS as _FUTURE_5X
from ek_env.engine.state import (
    ATTACK_STACKING_OPTIONS,
    ELIMINATED_CARDS_OPTIONS,
    EMPTY_HAND_TARGET_OPTIONS,
    Config,
    Phase,
    State,
)

__all__ = ["ROW_FORMAT", "options_of"]

#: The expansions of a Streaking Kittens config.
WITH_STREAKING: Final = ("streaking",)

#: Columns of a count per kind (the expansion's kinds; the base game uses 13).
KIND_ROOM: Final = NUM_KINDS_STREAKING
#: Columns of the draw pile, and of each seat's known depths: every card of the
#: largest game (two base decks and the expansion's 15 cards).
DECK_ROOM: Final = MAX_DECK_STREAKING + 1
#: The newest public events, a ring of RECENT slots of EVENT_FIELDS columns each (in
#: ``wide``); the event numbered k (counted in ``wide[EVENTS]``) is in slot k % RECENT.
RECENT: Final = RECENT_MOVES
EVENT_FIELDS: Final = 7  # actor, what, target, card, result, secret, seen_by


def _known_hands_length(config: Config) -> int:
    return config.num_players ** 2 * config.num_kinds


def _ruled_out_length(config: Config) -> int:
    return config.num_players * config.num_kinds


def _kinds(config: Config) -> int:
    return config.num_kinds


#: The state's columns (:mod:`cardgym.vector.rows`). The log is kept short
#: (:mod:`~ek_env.batched.convert`): the ring of the newest events, secrets included.
ROW_FORMAT: Final = RowFormat(State, seats=MAX_PLAYERS, unkept=("num_players", "kinds"), arrays={
    "small": (np.int8, (
        Value("phase", into=Phase), Value("turn_holder"), Value("to_act"),
        Value("attacked", into=bool),
        Value("pending_kind"), Value("pending_card"), Value("pending_target"),
        Value("pending_named"), Items("pending_five", 5), Count("pending_five"),
        Value("nopes"), Value("window_last"), Value("held_kitten"), Value("winner"),
        Value("resume"), Value("resume_seat"), Value("marks_total"),
        Value("alive", into=bool), Value("blind", into=bool), Value("sizes"),  # per seat
        Items("eliminated", MAX_PLAYERS), Count("eliminated"),
        Items("explode_queue", MAX_PLAYERS), Count("explode_queue"),
        Items("garbage_queue", MAX_PLAYERS), Count("garbage_queue"),
        Items("garbage_in", MAX_PLAYERS), Count("garbage_in"),
        Items("garbage_from", MAX_PLAYERS), Count("garbage_from"),
        Items("garbage_lost", MAX_PLAYERS), Count("garbage_lost"),
        Items("alter_left", 5), Count("alter_left"),
        Items("alter_placed", 5), Count("alter_placed"),
        Items("discard", KIND_ROOM, length=_kinds),
        Items("out_of_play", KIND_ROOM, length=_kinds),
        Items("box", KIND_ROOM, length=_kinds),
        Items("hands", KIND_ROOM), Count("hands"),  # seat s: HANDS + KIND_ROOM * s; count: kinds
        Items("marked", KIND_ROOM, into=bytearray), Count("marked"),  # as hands
        Items("deck", DECK_ROOM), Count("deck"),  # the top card last
        Items("known_deck", DECK_ROOM), Count("known_deck"),  # seat s: top first
        Items("known_hands", MAX_PLAYERS * MAX_PLAYERS * KIND_ROOM, into=bytearray,
              length=_known_hands_length),
        Items("ruled_out", MAX_PLAYERS * KIND_ROOM, into=bytearray, length=_ruled_out_length),
    )),
    "wide": (np.int32, (
        Value("owed"), Value("turns_played"),
        Own("events"),  # public events logged in the game
        Own("log", RECENT * EVENT_FIELDS),
    )),
})
_at, _count = ROW_FORMAT.start, ROW_FORMAT.count
PHASE: Final = _at("phase")
TURN_HOLDER: Final = _at("turn_holder")
TO_ACT: Final = _at("to_act")
ATTACKED: Final = _at("attacked")
PENDING_KIND: Final = _at("pending_kind")
PENDING_CARD: Final = _at("pending_card")
PENDING_TARGET: Final = _at("pending_target")
PENDING_NAMED: Final = _at("pending_named")
FIVE: Final = _at("pending_five")
FIVE_LEN: Final = _count("pending_five")
NOPES: Final = _at("nopes")
WINDOW_LAST: Final = _at("window_last")
HELD_KITTEN: Final = _at("held_kitten")
WINNER: Final = _at("winner")
RESUME: Final = _at("resume")
RESUME_SEAT: Final = _at("resume_seat")
MARKS_TOTAL: Final = _at("marks_total")
ALIVE: Final = _at("alive")
BLIND: Final = _at("blind")
SIZES: Final = _at("sizes")
ELIMINATED: Final = _at("eliminated")
ELIMINATED_LEN: Final = _count("eliminated")
QUEUE: Final = _at("explode_queue")
QUEUE_LEN: Final = _count("explode_queue")
GARBAGE_QUEUE: Final = _at("garbage_queue")
GARBAGE_QUEUE_LEN: Final = _count("garbage_queue")
GARBAGE_IN: Final = _at("garbage_in")
GARBAGE_IN_LEN: Final = _count("garbage_in")
GARBAGE_FROM: Final = _at("garbage_from")
GARBAGE_FROM_LEN: Final = _count("garbage_from")
GARBAGE_LOST: Final = _at("garbage_lost")
GARBAGE_LOST_LEN: Final = _count("garbage_lost")
ALTER_LEFT: Final = _at("alter_left")
ALTER_LEFT_LEN: Final = _count("alter_left")
ALTER_PLACED: Final = _at("alter_placed")
ALTER_PLACED_LEN: Final = _count("alter_placed")
DISCARD: Final = _at("discard")
OUT_OF_PLAY: Final = _at("out_of_play")
BOX: Final = _at("box")
HANDS: Final = _at("hands")  # seat s: HANDS + KIND_ROOM * s
HANDS_LEN: Final = _count("hands")  # per seat: the number of kinds
MARKED: Final = _at("marked")  # seat s: MARKED + KIND_ROOM * s
MARKED_LEN: Final = _count("marked")  # per seat: the number of kinds
DECK: Final = _at("deck")
DECK_LEN: Final = _count("deck")
KNOWN_DECK: Final = _at("known_deck")  # seat s: KNOWN_DECK + DECK_ROOM * s
KNOWN_DECK_LEN: Final = _count("known_deck")
KNOWN_HANDS: Final = _at("known_hands")  # (observer * n + other) * kinds + kind
RULED_OUT: Final = _at("ruled_out")  # seat * kinds + kind
SMALL_WIDTH: Final = ROW_FORMAT.widths["small"]
OWED: Final = _at("owed")
TURNS_PLAYED: Final = _at("turns_played")
EVENTS: Final = _at("events")
RING: Final = _at("log")
WIDE_WIDTH: Final = ROW_FORMAT.widths["wide"]

# ------------------------------------------------------------------ the game's numbers
#: -1: no card, no seat, no depth known. The constants the kernels pass to functions
#: are numpy ``int64`` scalars, not Python ints: numba would compile a function once
#: more for each distinct Python int constant passed to it (a literal type).
NO: Final = np.int64(NONE)
ZERO: Final = np.int64(0)
ONE: Final = np.int64(1)
#: Nobody saw an event's secret.
UNSEEN: Final = np.int64(0)

# Phases (ek_env.engine.state.Phase).
PLAY_PHASE: Final = int(Phase.PLAY)
CHOOSE_FIVE_PHASE: Final = int(Phase.CHOOSE_FIVE)
NAME_CARD_PHASE: Final = int(Phase.NAME_CARD)
NOPE_WINDOW_PHASE: Final = int(Phase.NOPE_WINDOW)
GIVE_PHASE: Final = int(Phase.GIVE)
INSERT_PHASE: Final = int(Phase.INSERT)
TAKE_PHASE: Final = int(Phase.TAKE)
GAME_OVER_PHASE: Final = int(Phase.GAME_OVER)
ALTER_PHASE: Final = int(Phase.ALTER)
GARBAGE_PHASE: Final = int(Phase.GARBAGE)
TARGET_PHASE: Final = int(Phase.TARGET)

# What goes on once the explosions are settled (state.RESUME_*).
RESUME_PLAY: Final = 0
RESUME_DRAW: Final = 1
RESUME_WINDOW: Final = 2
# Pending plays (state.NO_PLAY, SINGLE, ...).
NO_PLAY: Final = 0
SINGLE: Final = np.int64(1)
PAIR: Final = np.int64(2)
THREE: Final = np.int64(3)
FIVE_PLAY: Final = np.int64(4)

# Card kinds.
KITTEN_KIND: Final = np.int64(KITTEN)
DEFUSE_KIND: Final = np.int64(DEFUSE)
NOPE_KIND: Final = np.int64(NOPE)
ATTACK_KIND: Final = ATTACK
SKIP_KIND: Final = SKIP
FAVOR_KIND: Final = FAVOR
SHUFFLE_KIND: Final = SHUFFLE
SEE_THE_FUTURE_KIND: Final = SEE_THE_FUTURE
STREAKING_KIND: Final = np.int64(STREAKING)
CURSE_KIND: Final = CURSE
MARK_KIND: Final = MARK
CATOMIC_BOMB_KIND: Final = CATOMIC_BOMB
SUPER_SKIP_KIND: Final = SUPER_SKIP
SEE_THE_FUTURE_5X_KIND: Final = SEE_THE_FUTURE_5X
ALTER_THE_FUTURE_5X_KIND: Final = ALTER_THE_FUTURE_5X
SWAP_KIND: Final = SWAP_TOP_AND_BOTTOM
GARBAGE_COLLECTION_KIND: Final = GARBAGE_COLLECTION
#: See the Future's cards, and See (or Alter) the Future 5x's.
FUTURE_CARDS: Final = np.int64(SEE_THE_FUTURE_CARDS)
FUTURE_5X_CARDS: Final = np.int64(_FUTURE_5X)


def _flags(kinds: Any) -> NDArray[np.int64]:
    """A flag per card kind (the expansion's 22): 1 for the kinds of ``kinds``."""
    return np.array([int(k in kinds) for k in range(KIND_ROOM)], np.int64)


#: Kinds that may join a pair, three of a kind or five different (never a kitten, a
#: Defuse or a Streaking Kitten; the base game's kinds are the first 13).
COMBO: Final = _flags(COMBO_KINDS_STREAKING)
#: The cat cards (pairs without combos).
CAT: Final = _flags(CATS)
#: Kinds five different may take from the discard pile (and a Favor may give, in the
#: base game): not a kitten, nor a Streaking Kitten.
TAKEABLE: Final = _flags(TAKEABLE_STREAKING)
#: Single cards aimed at a seat (Favor, Mark, Curse).
AIMED: Final = _flags(TARGETED)
#: Cards a blind player's turn-up plays without a target.
BLIND_PLAYS: Final = _flags(BLIND_PLAYABLE)

# Event codes (ek_env.engine.record).
EV_PLAY: Final = np.int64(_rec.PLAY)
EV_PAIR: Final = np.int64(_rec.PAIR)
EV_THREE: Final = np.int64(_rec.THREE)
EV_NAME: Final = np.int64(_rec.NAME)
EV_FIVE: Final = np.int64(_rec.FIVE)
EV_NOPE: Final = np.int64(_rec.NOPE)
EV_WINDOW: Final = np.int64(_rec.WINDOW)
EV_GIVE: Final = np.int64(_rec.GIVE)
EV_STEAL: Final = np.int64(_rec.STEAL)
EV_ASK: Final = np.int64(_rec.ASK)
EV_TAKE: Final = np.int64(_rec.TAKE)
EV_DRAW: Final = np.int64(_rec.DRAW)
EV_DEFUSE: Final = np.int64(_rec.DEFUSE)
EV_INSERT: Final = np.int64(_rec.INSERT)
EV_OUT: Final = np.int64(_rec.OUT)
EV_SAW: Final = np.int64(_rec.SAW)
EV_DRY: Final = np.int64(_rec.DRY)
EV_MARK: Final = np.int64(_rec.MARK)
EV_BOMB: Final = np.int64(_rec.BOMB)
EV_ALTERED: Final = np.int64(_rec.ALTERED)
EV_GARBAGE: Final = np.int64(_rec.GARBAGE)
EV_BLIND_PLAY: Final = np.int64(_rec.BLIND_PLAY)
EV_BLIND_NOPE: Final = np.int64(_rec.BLIND_NOPE)
EV_TARGET: Final = np.int64(_rec.TARGET)
EV_TURNED: Final = np.int64(_rec.TURNED)
EV_EXPLODE: Final = np.int64(_rec.EXPLODE)
R_NOTHING: Final = np.int64(_rec.NOTHING)
R_MISS: Final = np.int64(_rec.MISS)
R_STOPPED: Final = np.int64(_rec.STOPPED)
R_DONE: Final = np.int64(_rec.DONE)
R_HIT: Final = np.int64(_rec.HIT)
R_ALLOWED: Final = np.int64(_rec.ALLOWED)
R_MARKED_COPY: Final = np.int64(_rec.MARKED_COPY)
R_ALREADY_MARKED: Final = np.int64(_rec.ALREADY_MARKED)
R_PLAYED: Final = np.int64(_rec.PLAYED)
R_LOST: Final = np.int64(_rec.LOST)
R_NOPED: Final = np.int64(_rec.NOPED)
R_EXPLODED: Final = np.int64(_rec.EXPLODED)
#: The most Nopes a NOPE event's result tells (record.RESULTS - 1).
MOST_NOPES: Final = _rec.RESULTS - 1

# ------------------------------------------------------------------ actions
# Kinds of action (ek_env.engine.actions).
A_DRAW: Final = _act.DRAW
A_SINGLE: Final = _act.PLAY_SINGLE
A_PAIR: Final = _act.PLAY_PAIR
A_THREE: Final = _act.PLAY_THREE
A_FIVE: Final = _act.PLAY_FIVE
A_CHOOSE: Final = _act.CHOOSE
A_NAME: Final = _act.NAME
A_NOPE: Final = _act.NOPE_ACTION
A_PASS: Final = _act.PASS_ACTION
A_GIVE: Final = _act.GIVE_ACTION
A_INSERT: Final = _act.INSERT_ACTION
A_TAKE: Final = _act.TAKE_ACTION
A_BLIND_PLAY: Final = _act.BLIND_PLAY
A_BLIND_NOPE: Final = _act.BLIND_NOPE
A_TARGET: Final = _act.TARGET_ACTION
A_ALTER: Final = _act.ALTER_ACTION
A_GARBAGE: Final = _act.GARBAGE_ACTION
A_GIVE_MARKED: Final = _act.GIVE_MARKED
A_GARBAGE_MARKED: Final = _act.GARBAGE_MARKED

#: The two setups' action tables, indexed by ``opts[OPT_STREAKING]``: per action its
#: move ``(kind, card, seat offset, depth)`` (rows past a table's end are -1).
MOST_ACTIONS: Final = STREAKING_ACTIONS.num_actions
SPECS: Final = np.full((2, MOST_ACTIONS, 4), -1, np.int64)
for _setup, _actions in enumerate((BASE_ACTIONS, STREAKING_ACTIONS)):
    SPECS[_setup, :_actions.num_actions] = np.array(_actions.specs, np.int64)

# Where each kind of action sits in a setup's table: INDEX[setup, X_*, card] (-1: no
# such action), and INDEX[setup, X_MISC, M_*] for the actions without a card.
X_SINGLE: Final = 0  # play:card (no target)
X_AIMED: Final = 1  # play:card:+1 (Favor, Mark, Curse; offsets follow)
X_PAIR: Final = 2  # pair:card:+1
X_THREE: Final = 3  # three:card:+1
X_CHOOSE: Final = 4  # five:card
X_NAME: Final = 5  # name:card
X_GIVE: Final = 6  # give:card
X_GIVE_MARKED: Final = 7  # give:card:marked
X_TAKE: Final = 8  # take:card
X_ALTER: Final = 9
X_GARBAGE: Final = 10
X_GARBAGE_MARKED: Final = 11
X_MISC: Final = 12
M_DRAW: Final = 0
M_FIVE: Final = 1
M_NOPE: Final = 2
M_PASS: Final = 3
M_INSERT: Final = 4  # insert:depth=0 (depths follow)
M_BLIND_PLAY: Final = 5
M_BLIND_NOPE: Final = 6
M_TARGET: Final = 7  # target:+1 (offsets follow)


def _index(acts: Actions) -> NDArray[np.int64]:
    """The INDEX table of one setup."""
    table = np.full((X_MISC + 1, KIND_ROOM), -1, np.int64)
    for card, bit in acts.single_bit.items():
        table[X_SINGLE, card] = bit.bit_length() - 1
    for row, by_card, shift in ((X_AIMED, acts.target_shift, 1), (X_PAIR, acts.pair_shift, 1),
                                (X_THREE, acts.three_shift, 1), (X_CHOOSE, acts.choose_index, 0),
                                (X_GIVE, acts.give_index, 0), (X_TAKE, acts.take_index, 0)):
        for card, index in by_card.items():
            table[row, card] = index + shift
    table[X_NAME, :acts.kinds] = np.arange(acts.kinds) + acts.name_base
    misc = table[X_MISC]
    misc[M_DRAW] = acts.draw_index
    misc[M_FIVE] = acts.five_bit.bit_length() - 1
    misc[M_NOPE] = acts.nope_index
    misc[M_PASS] = acts.pass_index
    misc[M_INSERT] = acts.insert_base
    if acts.streaking:
        for row, by_card in ((X_GIVE_MARKED, acts.give_marked_index), (X_ALTER, acts.alter_index),
                             (X_GARBAGE, acts.garbage_index),
                             (X_GARBAGE_MARKED, acts.garbage_marked_index)):
            for card, index in by_card.items():
                table[row, card] = index
        misc[M_BLIND_PLAY] = acts.blind_play_bit.bit_length() - 1
        misc[M_BLIND_NOPE] = acts.blind_nope_index
        misc[M_TARGET] = acts.target_base + 1
    return table


INDEX: Final = np.stack([_index(BASE_ACTIONS), _index(STREAKING_ACTIONS)])

# ------------------------------------------------------------------ observation
#: The observation's fields, in the order of the OBS table's columns (the
#: expansion's last: -1 in the base game's row).
OBS_FIELDS: Final = (
    "my_hand", "phase", "to_act", "turn_holder", "seat_present", "alive", "hand_sizes",
    "owed_turns", "attacked", "deck_size", "kittens_in_deck", "discard", "out_of_play",
    "pending_play", "pending_card", "pending_five", "pending_target", "pending_named", "nopes",
    "window_opener", "known_deck", "known_hands", "ruled_out", "recent_moves",
    "blind", "marked", "kittens_to_insert", "exploding", "garbage_waiting", "alter_cards",
    "alter_placed",
)
(O_MY_HAND, O_PHASE, O_TO_ACT, O_HOLDER, O_PRESENT, O_ALIVE, O_SIZES, O_OWED, O_ATTACKED,
 O_DECK_SIZE, O_KITTENS, O_DISCARD, O_OUT_OF_PLAY, O_PENDING, O_PENDING_CARD, O_PENDING_FIVE,
 O_PENDING_TARGET, O_PENDING_NAMED, O_NOPES, O_OPENER, O_KNOWN_DECK, O_KNOWN_HANDS,
 O_RULED_OUT, O_RECENT, O_BLIND, O_MARKED, O_TO_INSERT, O_EXPLODING, O_WAITING, O_ALTER_CARDS,
 O_ALTER_PLACED) = range(len(OBS_FIELDS))
#: Past the fields: the event codes of the setup (the first columns of a
#: ``recent_moves`` row) and the width of a row.
O_CODES: Final = len(OBS_FIELDS)
O_EVENT_WIDTH: Final = O_CODES + 1
#: Owed turns above this are shown as this.
SHOWN_OWED: Final = OWED_CAP


def _offsets(encoder: Encoder) -> list[int]:
    spec = encoder.observation_spec
    offsets = [spec.offsets.get(name, -1) for name in OBS_FIELDS]
    config = Config(expansions=WITH_STREAKING if encoder.streaking else ())
    codes = event_codes(config)
    return [*offsets, codes, spec["recent_moves"].shape[1]]


#: OBS[setup, O_*]: where each observation field starts in the setup's vector.
OBS: Final = np.array([_offsets(BASE_ENCODER), _offsets(STREAKING_ENCODER)], np.int64)

# ------------------------------------------------------------------ rule options
#: Positions in the option vector the kernels take.
OPT_PLAYERS: Final = 0
OPT_KINDS: Final = 1  # card kinds in play (13, or 22 with the expansion)
OPT_STREAKING: Final = 2  # 1 with the Streaking Kittens expansion
OPT_HAND_SIZE: Final = 3  # cards dealt besides the Defuse
OPT_STACK: Final = 4  # attack_stacking: 1 "stack", 0 "reset"
OPT_COMBOS: Final = 5  # 1 with special combos
OPT_FORBIDDEN: Final = 6  # empty_hand_target: 1 "forbidden", 0 "allowed"
OPT_OUT_OF_PLAY: Final = 7  # eliminated_cards: 1 "out_of_play", 0 "discard"
OPT_FAST: Final = 8  # 1: a third of the undealt cards go back to the box
OPT_KITTENS: Final = 9  # kittens shuffled into the draw pile
OPT_DEFUSES: Final = 10  # leftover Defuses shuffled into the draw pile (deck_defuses)
OPT_COUNTS: Final = 11  # the box's copies of each kind, KIND_ROOM entries
NUM_OPTIONS: Final = OPT_COUNTS + KIND_ROOM


def options_of(config: Config) -> NDArray[np.int64]:
    """The rule options of ``config`` as the kernels' option vector (``int64``,
    indexed by the ``OPT_*`` positions), with the numbers of the deal they decide
    (the kittens and Defuses that go into the draw pile, the box's composition)."""
    n = config.num_players
    streaking = config.streaking
    options = np.zeros(NUM_OPTIONS, np.int64)
    options[OPT_PLAYERS] = n
    options[OPT_KINDS] = config.num_kinds
    options[OPT_STREAKING] = streaking
    options[OPT_HAND_SIZE] = config.hand_size
    options[OPT_STACK] = ATTACK_STACKING_OPTIONS.index(config.attack_stacking)
    options[OPT_COMBOS] = bool(config.combos)
    options[OPT_FORBIDDEN] = EMPTY_HAND_TARGET_OPTIONS.index(config.empty_hand_target)
    options[OPT_OUT_OF_PLAY] = ELIMINATED_CARDS_OPTIONS.index(config.eliminated_cards)
    options[OPT_FAST] = bool(config.fast)
    options[OPT_KITTENS] = deck_kittens(n, streaking)
    options[OPT_DEFUSES] = deck_defuses(n, config.deck_defuses, streaking)
    counts = composition(n, streaking)
    options[OPT_COUNTS:OPT_COUNTS + len(counts)] = counts
    return options


assert ATTACK_STACKING_OPTIONS.index("stack") == 1
assert EMPTY_HAND_TARGET_OPTIONS.index("forbidden") == 1
assert ELIMINATED_CARDS_OPTIONS.index("out_of_play") == 1
assert DECK_ROOM <= 127 and MAX_PLAYERS * KIND_ROOM <= 1 << 15
