"""The row layout of the batched Karel Kakelaar engine: one game as a row of bytes.

Every game of a batch is one row of an ``int8`` matrix ``board[N, WIDTH]``; the
names below are the offsets of the reference :class:`~kakelaar_env.engine.state.State`'s
fields in a row. Piles keep the reference's order (top last) behind a size byte;
per-seat fields hold :data:`~kakelaar_env.engine.cards.MAX_PLAYERS` entries, per-participant
fields one more (with two players the robot chicken is participant 2). ``-1``
(:data:`~cardgym.record.NONE`) marks an empty choice, as in the reference.

The round digest (``state.round_digest``) is kept as six rows of
:data:`~kakelaar_env.engine.digest.DIGEST_WIDTH` bytes: the seats, then the robot's row at
index ``num_players`` (all zero without a robot), as the reference lays it out.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import numpy as np

from cardgym.vector.rows import Count, Items, Own, RowFormat, SeatBits, Value
from kakelaar_env.engine.cards import (
    BID_VALUE,
    HEN,
    MAX_PLAYERS,
    NUM_BIDDABLE,
    NUM_HENS,
    NUM_TYPES,
    NUM_WORMS,
    ROUNDS,
    ROW_SLOT,
    WORM_VALUE,
)
from kakelaar_env.engine.digest import (
    DIGEST_FORCED,
    DIGEST_HEN,
    DIGEST_NO_BID,
    DIGEST_POSITION,
    DIGEST_TAKEN,
    DIGEST_TOOK,
    DIGEST_WIDTH,
)
from kakelaar_env.engine.state import Phase, State, participants

#: An integer the kernels take: a Python int or a numpy one (a row, a seat, a card).
Int: TypeAlias = "int | np.integer[Any]"

_PILE = NUM_WORMS + NUM_HENS  # 45 worms and hens
_PARTICIPANTS = MAX_PLAYERS + 1


#: The state's columns (:mod:`cardgym.vector.rows`). The record is rebuilt from the
#: round digest and the stage (:mod:`~kakelaar_env.batched.convert`); ``whole_piles``
#: is a bit mask of the seats that took their whole discard pile back in the newest
#: round (so the record tells those cards as taken without choosing).
ROW_FORMAT: Final = RowFormat(State, seats=MAX_PLAYERS, arrays={"board": (np.int8, (
    Value("round"), Value("phase", into=Phase), Value("current"), Value("cursor"),
    Count("asked"), Items("asked", MAX_PLAYERS),  # commit order
    Value("tractor"), Count("circle"), Items("circle", MAX_PLAYERS, into=tuple),
    Value("hens_out"), SeatBits("winners"), Own("whole_piles"),
    Count("deck"), Items("deck", _PILE), Count("removed"), Items("removed", _PILE),
    Count("row"), Items("row", MAX_PLAYERS),  # position 1 first
    Items("unseen", NUM_TYPES),  # each type's count in the draw pile and the removed cards
    Count("robot_deck"), Items("robot_deck", 15),
    Count("robot_discard"), Items("robot_discard", 15),
    Count("robot_won"), Items("robot_won", ROUNDS),
    Value("bids"), Value("hen_choices"), Value("hen_played", into=bool),
    Count("picks"), Items("picks", 2),
    Items("last_bids", _PARTICIPANTS, length=participants),  # the robot's last
    Items("hands", NUM_TYPES, into=bytearray), Items("discards", NUM_BIDDABLE, into=bytearray),
    Items("round_digest", _PARTICIPANTS * DIGEST_WIDTH, into=bytes,
          length=lambda config: (config.num_players + 1) * DIGEST_WIDTH),
))}, unkept=("num_players", "version", "log", "record_start"))
_at, _count = ROW_FORMAT.start, ROW_FORMAT.count

#: The round (1..9) and the stage (:class:`~kakelaar_env.engine.state.Phase`).
ROUND: Final = _at("round")
PHASE: Final = _at("phase")
#: ``state.current``, ``state.cursor``, ``len(state.asked)`` and ``state.asked``.
CURRENT: Final = _at("current")
CURSOR: Final = _at("cursor")
NUM_ASKED: Final = _count("asked")
ASKED: Final = _at("asked")
#: ``state.tractor`` (an index into the circle), ``len(state.circle)``, ``state.circle``.
TRACTOR: Final = _at("tractor")
NUM_CIRCLE: Final = _count("circle")
CIRCLE: Final = _at("circle")
#: Mother hens played so far; the winners as a bit mask (bit s: seat s).
HENS_OUT: Final = _at("hens_out")
WINNERS: Final = _at("winners")
WHOLE_PILES: Final = _at("whole_piles")
#: The draw pile (top last), the cards removed unseen, the row (position 1 first).
DECK_SIZE: Final = _count("deck")
DECK: Final = _at("deck")
REMOVED_SIZE: Final = _count("removed")
REMOVED: Final = _at("removed")
ROW_SIZE: Final = _count("row")
ROW: Final = _at("row")
UNSEEN: Final = _at("unseen")
#: The robot deck (top last), its revealed bids and the row cards it won (oldest first).
ROBOT_SIZE: Final = _count("robot_deck")
ROBOT_DECK: Final = _at("robot_deck")
ROBOT_DISCARD_SIZE: Final = _count("robot_discard")
ROBOT_DISCARD: Final = _at("robot_discard")
ROBOT_WON_SIZE: Final = _count("robot_won")
ROBOT_WON: Final = _at("robot_won")
#: Committed choices per seat: the bid, the hen choice (1 play, 0 not), the picks.
BIDS: Final = _at("bids")
HEN_CHOICES: Final = _at("hen_choices")
HEN_PLAYED: Final = _at("hen_played")
NUM_PICKS: Final = _count("picks")
PICKS: Final = _at("picks")
#: The bid of each participant in the last resolved round (``len(circle)`` used).
LAST_BIDS: Final = _at("last_bids")
#: Hands (14 types per seat) and discard piles (13 types per seat).
HANDS: Final = _at("hands")
DISCARDS: Final = _at("discards")
#: The round digest, ``DIGEST_WIDTH`` bytes per participant row.
DIGEST: Final = _at("round_digest")
#: Bytes in a row.
WIDTH: Final = ROW_FORMAT.widths["board"]

#: An empty choice or card (:data:`cardgym.record.NONE`).
NONE: Final = -1
#: Bid value of each biddable type (worms 1..8, chickens 3..7).
BID_VALUES: Final = np.array(BID_VALUE[:NUM_BIDDABLE], np.int64)
#: Points of each type in hand at the end.
WORM_VALUES: Final = np.array(WORM_VALUE, np.int64)
#: Index of a row card type among the row types (worms 0..7, the hen 8).
ROW_SLOTS: Final = np.array([max(slot, 0) for slot in ROW_SLOT], np.int64)

# The stages, as plain ints for the kernels.
BID_STAGE: Final = int(Phase.BID)
HEN_STAGE: Final = int(Phase.HEN)
TAKE_FIRST: Final = int(Phase.TAKE_FIRST)
TAKE_SECOND: Final = int(Phase.TAKE_SECOND)
GAME_OVER: Final = int(Phase.GAME_OVER)

# The card and round-digest constants under the names the kernels use.
HEN_TYPE: Final = HEN
DIGEST_ROW: Final = DIGEST_WIDTH
D_POSITION: Final = DIGEST_POSITION
D_TOOK: Final = DIGEST_TOOK
D_NO_BID: Final = DIGEST_NO_BID
D_HEN: Final = DIGEST_HEN
D_FORCED: Final = DIGEST_FORCED
D_TAKEN: Final = DIGEST_TAKEN
