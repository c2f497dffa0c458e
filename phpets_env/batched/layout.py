"""Where the batched engine keeps a Power Hungry Pets match: the columns of its two
state arrays, the rule options as integers, and the game's tables as numpy arrays.

Each row of the engine holds one match in two arrays: ``small`` (``int8``: card ids,
seats, counts, flags and the ring of recent events) and ``wide`` (``int32``: the bit
masks over card ids of what each seat knows, and counters). A field takes a run of
columns; per-seat fields take :data:`MAX_PLAYERS` columns whatever the table size.
Cards are the reference engine's physical ids 0..20 (``cards.CARD_VALUES``), lists
keep the reference's order (the pile with its top card last), and ``-1`` is "none".

Every name here is a module-level constant, which the kernels read as compile-time
constants.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from cardgym.record import NONE
from cardgym.vector.rows import Count, Items, Own, RowFormat, Value
from phpets_env.encoding.encoding import EVENT_WIDTH, OBS_SIZE, OBSERVATION_SPEC, RECENT_EVENTS
from phpets_env.engine import actions as _actions
from phpets_env.engine import events as _events
from phpets_env.engine.actions import (
    ACTION_SPECS,
    DEPTH_BASE,
    KEEP_INDEX,
    NUM_ACTIONS,
    NUM_GUESSES,
    PLAY_INDEX,
    TARGET_BASE,
)
from phpets_env.engine.cards import (
    CARD_VALUES,
    COPIES,
    MAX_DECK,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_VALUES,
    TARGET_KIND,
    TOTAL_TOKENS,
    Card,
)
from phpets_env.engine.state import (
    FINAL_TIE_OPTIONS,
    REWARD_OPTIONS,
    ROBOVAC_OPTIONS,
    START_PLAYER_OPTIONS,
    Config,
    Phase,
    State,
)

__all__ = ["options_of"]


#: The newest public events but the turn-start draws, a ring of RECENT_EVENTS slots of
#: EVENT_FIELDS columns each; the event numbered k (counted in ``wide[EVENTS]``) is in
#: slot k % RECENT_EVENTS.
EVENT_FIELDS: Final = 7  # actor, what, target, card, result, secret, seen_by

#: The state's columns (:mod:`cardgym.vector.rows`): lists keep the reference's order
#: and their length; what each seat knows is bits over card ids (``wide``). The log is
#: kept short (:mod:`~phpets_env.batched.convert`): the ring of recent events and the
#: newest turn-start draw.
ROW_FORMAT: Final = RowFormat(State, seats=MAX_PLAYERS, unkept=("num_players",), arrays={
    "small": (np.int8, (
        Items("deck", NUM_CARDS), Count("deck"),  # the draw pile, top card last
        Items("hands", 2), Count("hands"),  # in hand order
        Items("rows", NUM_CARDS), Count("rows"),
        Value("aside"), Value("pending"),  # the set-aside card; Mouse Trapper's held-out card
        Items("face_up", 2), Count("face_up"),
        Value("in_round", into=bool), Value("protected", into=bool), Value("tokens"),
        Value("token_supply"), Value("phase", into=Phase), Value("to_act"), Value("round_start"),
        Value("deck_watchers"),  # a bit mask of seats
        Items("round_winners", MAX_PLAYERS, into=tuple), Count("round_winners"),
        Items("match_winners", MAX_PLAYERS, into=tuple), Count("match_winners"),
        Own("draw_seat"), Own("draw_value"),  # the newest turn-start draw: seat (-1: none), value
        Own("log", RECENT_EVENTS * EVENT_FIELDS))),
    "wide": (np.int32, (
        Value("known"), Value("trapped"), Value("ruled_out"), Value("round_number"),
        Own("events"),  # public events (less turn-start draws) logged in the match
        Own("draw_at"))),  # ``events`` when the newest turn-start draw was logged
})
_at, _count = ROW_FORMAT.start, ROW_FORMAT.count
DECK: Final = _at("deck")
DECK_LEN: Final = _count("deck")
HANDS: Final = _at("hands")  # seat s: HANDS + 2 * s
HAND_LEN: Final = _count("hands")
ROWS: Final = _at("rows")  # seat s: ROWS + NUM_CARDS * s
ROW_LEN: Final = _count("rows")
ASIDE: Final = _at("aside")
PENDING: Final = _at("pending")
FACE_UP: Final = _at("face_up")
FACE_UP_LEN: Final = _count("face_up")
IN_ROUND: Final = _at("in_round")
PROTECTED: Final = _at("protected")
TOKENS: Final = _at("tokens")
SUPPLY: Final = _at("token_supply")
PHASE: Final = _at("phase")
TO_ACT: Final = _at("to_act")
ROUND_START: Final = _at("round_start")
WATCHERS: Final = _at("deck_watchers")
ROUND_WINNERS: Final = _at("round_winners")
NUM_ROUND_WINNERS: Final = _count("round_winners")
MATCH_WINNERS: Final = _at("match_winners")
NUM_MATCH_WINNERS: Final = _count("match_winners")
DRAW_SEAT: Final = _at("draw_seat")
DRAW_VALUE: Final = _at("draw_value")
RING: Final = _at("log")
SMALL_WIDTH: Final = ROW_FORMAT.widths["small"]
KNOWN: Final = _at("known")
TRAPPED: Final = _at("trapped")
RULED_OUT: Final = _at("ruled_out")
ROUND_NUMBER: Final = _at("round_number")
EVENTS: Final = _at("events")
DRAW_AT: Final = _at("draw_at")
WIDE_WIDTH: Final = ROW_FORMAT.widths["wide"]

# ------------------------------------------------------------------ the game's numbers
#: -1: no card, no seat, no field. The constants the kernels pass to functions are
#: numpy ``int64`` scalars, not Python ints: numba would compile a function once more
#: for each distinct Python int constant passed to it (a literal type).
NO: Final = np.int64(NONE)
#: Nobody saw an event's secret.
UNSEEN: Final = np.int64(0)
PLAY_PHASE: Final = 0
GRAVE_PHASE: Final = 1
TRAPPER_PHASE: Final = 2
OVER_PHASE: Final = 3
KING_ID: Final = CARD_VALUES.index(Card.KING_CAT)
KING: Final = int(Card.KING_CAT)
ROBOVAC: Final = int(Card.ROYAL_ROBOVAC)
#: Value of each card id.
VALUES: Final = np.array(CARD_VALUES, np.int64)
#: Copies of each value.
VALUE_COPIES: Final = np.array([COPIES[Card(v)] for v in range(NUM_VALUES)], np.int64)
#: Values with a single copy, as a bit mask.
SINGLE_COPIES: Final = sum(1 << v for v in range(NUM_VALUES) if COPIES[Card(v)] == 1)
ALL_TOKENS: Final = TOTAL_TOKENS
#: Target kind of each value (cards.NO_TARGET, OTHER_PLAYER, ANY_PLAYER).
TARGET_KINDS: Final = np.array(TARGET_KIND, np.int64)

# Event codes (phpets_env.engine.events).
EV_PLAY: Final = np.int64(_events.PLAY)
EV_GRAVE: Final = np.int64(_events.GRAVE_CHOICE)
EV_PLACE: Final = np.int64(_events.PLACE)
EV_DRAW: Final = np.int64(_events.DRAW)
EV_ELIMINATED: Final = np.int64(_events.ELIMINATED)
EV_REVEAL: Final = np.int64(_events.REVEAL)
EV_ROUND_WON: Final = np.int64(_events.ROUND_WON)
EV_MATCH_WON: Final = np.int64(_events.MATCH_WON)
EV_NEW_ROUND: Final = np.int64(_events.NEW_ROUND)
EV_TURN_DRAW: Final = np.int64(_events.TURN_DRAW)
R_NO_EFFECT: Final = np.int64(_events.NO_EFFECT)
R_HIT: Final = np.int64(_events.HIT)
R_MISS: Final = np.int64(_events.MISS)
R_TIE: Final = np.int64(_events.TIE)
R_ACTOR_LOST: Final = np.int64(_events.ACTOR_LOST)
R_TARGET_LOST: Final = np.int64(_events.TARGET_LOST)
R_SWAPPED: Final = np.int64(_events.SWAPPED)
R_KEPT: Final = np.int64(_events.KEPT)
R_FROM_ASIDE: Final = np.int64(_events.FROM_ASIDE)

# ------------------------------------------------------------------ actions
ACTIONS: Final = NUM_ACTIONS
#: Action kinds (actions.PLAY_CARD, KEEP, SWAP, PLACE).
PLAY_CARD: Final = _actions.PLAY_CARD
SWAP: Final = _actions.SWAP
PLACE: Final = _actions.PLACE
#: Per action: kind (actions.PLAY_CARD, KEEP, SWAP, PLACE), card value, seat offset,
#: guess or depth (-1 where a field does not apply).
ACTION_KIND: Final = np.array([spec[0] for spec in ACTION_SPECS], np.int64)
ACTION_CARD: Final = np.array([spec[1] for spec in ACTION_SPECS], np.int64)
ACTION_OFFSET: Final = np.array([spec[2] for spec in ACTION_SPECS], np.int64)
ACTION_EXTRA: Final = np.array([spec[3] for spec in ACTION_SPECS], np.int64)
#: Per value: the action of its play without a target (-1: none), and of its first
#: play on a seat (-1: none).
PLAY_ACTION: Final = np.array([PLAY_INDEX.get(v, NONE) for v in range(NUM_VALUES)], np.int64)
TARGET_ACTION: Final = np.array([TARGET_BASE.get(v, NONE) for v in range(NUM_VALUES)], np.int64)
GUESSES: Final = NUM_GUESSES
KEEP_ACTION: Final = KEEP_INDEX
DEPTH_ACTION: Final = DEPTH_BASE

# ------------------------------------------------------------------ observation
OBS_WIDTH: Final = OBS_SIZE
_O = OBSERVATION_SPEC.offsets
O_MY_HAND: Final = _O["my_hand"]
O_PHASE: Final = _O["phase"]
O_TO_ACT: Final = _O["to_act"]
O_PRESENT: Final = _O["seat_present"]
O_IN_ROUND: Final = _O["in_round"]
O_PROTECTED: Final = _O["protected"]
O_TOKENS: Final = _O["tokens"]
O_START: Final = _O["round_start"]
O_ROWS: Final = _O["rows"]
O_KNOWN_HANDS: Final = _O["known_hands"]
O_FACE_UP: Final = _O["face_up_aside"]
O_KNOWN_ASIDE: Final = _O["known_aside"]
O_ASIDE_PRESENT: Final = _O["aside_present"]
O_KNOWN_DECK: Final = _O["known_deck"]
O_PENDING: Final = _O["pending_card"]
O_DECK_SIZE: Final = _O["deck_size"]
O_TO_WIN: Final = _O["tokens_to_win"]
O_RECENT: Final = _O["recent_moves"]
O_RULED_OUT: Final = _O["ruled_out"]
RECENT: Final = RECENT_EVENTS
EVENT_COLUMNS: Final = EVENT_WIDTH
# Within one encoded event: actor, what, target, card, result (encoding._EVENT_*).
E_ACTOR: Final = 0
E_WHAT: Final = E_ACTOR + MAX_PLAYERS
E_TARGET: Final = E_WHAT + _events.NUM_RECENT_KINDS
E_CARD: Final = E_TARGET + MAX_PLAYERS
E_RESULT: Final = E_CARD + NUM_VALUES
assert E_RESULT + _events.NUM_RESULTS == EVENT_WIDTH
assert MAX_DECK <= NUM_CARDS

# ------------------------------------------------------------------ rule options
#: Positions in the option vector the kernels take.
OPT_PLAYERS: Final = 0
OPT_ROBOVAC: Final = 1  # index in ROBOVAC_OPTIONS: 0 dethrone, 1 duel_only
OPT_FINAL_TIE: Final = 2  # index in FINAL_TIE_OPTIONS: 0 shared, 1 nobody
OPT_START: Final = 3  # index in START_PLAYER_OPTIONS: 0 winner, 1 rotate, 2 random
OPT_REWARD: Final = 4  # index in REWARD_OPTIONS: 0 match, 1 round
OPT_TO_WIN: Final = 5  # tokens that win the match
NUM_OPTIONS: Final = 6
DUEL_ONLY: Final = ROBOVAC_OPTIONS.index("duel_only")
NOBODY: Final = FINAL_TIE_OPTIONS.index("nobody")
START_WINNER: Final = START_PLAYER_OPTIONS.index("winner")
START_RANDOM: Final = START_PLAYER_OPTIONS.index("random")
REWARD_ROUND: Final = REWARD_OPTIONS.index("round")


def options_of(config: Config) -> tuple[int, ...]:
    """The rule options of ``config`` as the kernels' option vector (a tuple of ints,
    indexed by the ``OPT_*`` positions; not an array, which the engine would count
    among its per-row arrays when the batch has as many rows)."""
    options = [0] * NUM_OPTIONS
    options[OPT_PLAYERS] = config.num_players
    options[OPT_ROBOVAC] = ROBOVAC_OPTIONS.index(config.robovac)
    options[OPT_FINAL_TIE] = FINAL_TIE_OPTIONS.index(config.final_tie)
    options[OPT_START] = START_PLAYER_OPTIONS.index(config.start_player)
    options[OPT_REWARD] = REWARD_OPTIONS.index(config.reward)
    options[OPT_TO_WIN] = config.tokens_to_win
    return tuple(options)
