"""The row layout of the batched Karel Kakelaar engine: one game as a row of bytes.

Every game of a batch is one row of an ``int8`` matrix ``board[N, WIDTH]``; the
names below are the offsets of the reference :class:`~kakelaar_env.state.State`'s
fields in a row. Piles keep the reference's order (top last) behind a size byte;
per-seat fields hold :data:`~kakelaar_env.cards.MAX_PLAYERS` entries, per-participant
fields one more (with two players the robot chicken is participant 2). ``-1``
(:data:`~cardgym.record.NONE`) marks an empty choice, as in the reference.

The round digest (``state.round_digest``) is kept as six rows of
:data:`~kakelaar_env.digest.DIGEST_WIDTH` bytes: the seats, then the robot's row at
index ``num_players`` (all zero without a robot), as the reference lays it out.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import numpy as np

from kakelaar_env.cards import (
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
from kakelaar_env.digest import (
    DIGEST_FORCED,
    DIGEST_HEN,
    DIGEST_NO_BID,
    DIGEST_POSITION,
    DIGEST_TAKEN,
    DIGEST_TOOK,
    DIGEST_WIDTH,
)
from kakelaar_env.state import Phase

#: An integer the kernels take: a Python int or a numpy one (a row, a seat, a card).
Int: TypeAlias = "int | np.integer[Any]"

_PILE = NUM_WORMS + NUM_HENS  # 45 worms and hens
_PARTICIPANTS = MAX_PLAYERS + 1


def _offsets(*fields: tuple[str, int]) -> dict[str, int]:
    at = 0
    out = {}
    for name, size in fields:
        out[name] = at
        at += size
    out["WIDTH"] = at
    return out


_AT = _offsets(
    ("ROUND", 1), ("PHASE", 1), ("CURRENT", 1), ("CURSOR", 1), ("NUM_ASKED", 1),
    ("ASKED", MAX_PLAYERS),
    ("TRACTOR", 1), ("NUM_CIRCLE", 1), ("CIRCLE", MAX_PLAYERS),
    ("HENS_OUT", 1), ("WINNERS", 1), ("WHOLE_PILES", 1),
    ("DECK_SIZE", 1), ("DECK", _PILE),
    ("REMOVED_SIZE", 1), ("REMOVED", _PILE),
    ("ROW_SIZE", 1), ("ROW", MAX_PLAYERS),
    ("UNSEEN", NUM_TYPES),
    ("ROBOT_SIZE", 1), ("ROBOT_DECK", 15),
    ("ROBOT_DISCARD_SIZE", 1), ("ROBOT_DISCARD", 15),
    ("ROBOT_WON_SIZE", 1), ("ROBOT_WON", ROUNDS),
    ("BIDS", MAX_PLAYERS), ("HEN_CHOICES", MAX_PLAYERS), ("HEN_PLAYED", MAX_PLAYERS),
    ("NUM_PICKS", MAX_PLAYERS), ("PICKS", 2 * MAX_PLAYERS),
    ("LAST_BIDS", _PARTICIPANTS),
    ("HANDS", MAX_PLAYERS * NUM_TYPES), ("DISCARDS", MAX_PLAYERS * NUM_BIDDABLE),
    ("DIGEST", _PARTICIPANTS * DIGEST_WIDTH),
)

#: The round (1..9) and the stage (:class:`~kakelaar_env.state.Phase`).
ROUND: Final = _AT["ROUND"]
PHASE: Final = _AT["PHASE"]
#: ``state.current``, ``state.cursor``, ``len(state.asked)`` and ``state.asked``.
CURRENT: Final = _AT["CURRENT"]
CURSOR: Final = _AT["CURSOR"]
NUM_ASKED: Final = _AT["NUM_ASKED"]
ASKED: Final = _AT["ASKED"]
#: ``state.tractor`` (an index into the circle), ``len(state.circle)``, ``state.circle``.
TRACTOR: Final = _AT["TRACTOR"]
NUM_CIRCLE: Final = _AT["NUM_CIRCLE"]
CIRCLE: Final = _AT["CIRCLE"]
#: Mother hens played so far; the winners as a bit mask (bit s: seat s).
HENS_OUT: Final = _AT["HENS_OUT"]
WINNERS: Final = _AT["WINNERS"]
#: Bit mask of the seats that took their whole discard pile back in the newest round
#: (so the record tells those cards as taken without choosing).
WHOLE_PILES: Final = _AT["WHOLE_PILES"]
#: The draw pile (top last), the cards removed unseen, the row (position 1 first).
DECK_SIZE: Final = _AT["DECK_SIZE"]
DECK: Final = _AT["DECK"]
REMOVED_SIZE: Final = _AT["REMOVED_SIZE"]
REMOVED: Final = _AT["REMOVED"]
ROW_SIZE: Final = _AT["ROW_SIZE"]
ROW: Final = _AT["ROW"]
#: Count of each card type in the draw pile and the removed cards.
UNSEEN: Final = _AT["UNSEEN"]
#: The robot deck (top last), its revealed bids and the row cards it won (oldest first).
ROBOT_SIZE: Final = _AT["ROBOT_SIZE"]
ROBOT_DECK: Final = _AT["ROBOT_DECK"]
ROBOT_DISCARD_SIZE: Final = _AT["ROBOT_DISCARD_SIZE"]
ROBOT_DISCARD: Final = _AT["ROBOT_DISCARD"]
ROBOT_WON_SIZE: Final = _AT["ROBOT_WON_SIZE"]
ROBOT_WON: Final = _AT["ROBOT_WON"]
#: Committed choices per seat: the bid, the hen choice (1 play, 0 not), the picks.
BIDS: Final = _AT["BIDS"]
HEN_CHOICES: Final = _AT["HEN_CHOICES"]
HEN_PLAYED: Final = _AT["HEN_PLAYED"]
NUM_PICKS: Final = _AT["NUM_PICKS"]
PICKS: Final = _AT["PICKS"]
#: The bid of each participant in the last resolved round (``len(circle)`` used).
LAST_BIDS: Final = _AT["LAST_BIDS"]
#: Hands (14 types per seat) and discard piles (13 types per seat).
HANDS: Final = _AT["HANDS"]
DISCARDS: Final = _AT["DISCARDS"]
#: The round digest, ``DIGEST_WIDTH`` bytes per participant row.
DIGEST: Final = _AT["DIGEST"]
#: Bytes in a row.
WIDTH: Final = _AT["WIDTH"]

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
