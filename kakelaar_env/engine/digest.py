"""The round digest: what each participant did in the newest revealed round.

One row of :data:`DIGEST_WIDTH` bytes per participant (the seats, then the robot),
as the observation's ``recent_moves`` lays it out. The engine keeps it as it logs
events (``state.round_digest``); :func:`round_digest` reads the same from the log.
"""

from __future__ import annotations

from typing import Final

from cardgym.record import NONE, Event
from kakelaar_env.engine.cards import NUM_BIDDABLE, NUM_ROW_TYPES, NUM_TYPES, ROW_SLOT
from kakelaar_env.engine.events import BID, HEN, HEN_FORCED, NO_HEN, POSITIONS, ROUND, TAKE, TOOK

DIGEST_POSITION: Final = 0  # one-hot row position taken, 1..5
DIGEST_TOOK: Final = DIGEST_POSITION + POSITIONS  # one-hot row card taken: worm_1..8, hen
DIGEST_NO_BID: Final = DIGEST_TOOK + NUM_ROW_TYPES  # 1: had no card to bid
DIGEST_HEN: Final = DIGEST_NO_BID + 1  # 1: played a mother hen
DIGEST_FORCED: Final = DIGEST_HEN + 1  # 1: had to (only hens in hand)
DIGEST_TAKEN: Final = DIGEST_FORCED + 1  # count of each biddable type taken back
DIGEST_WIDTH: Final = DIGEST_TAKEN + NUM_BIDDABLE


def _took_row(position: int, card: int, no_bid: int) -> bytes:
    row = bytearray(DIGEST_WIDTH)
    row[DIGEST_POSITION + position] = 1
    row[DIGEST_TOOK + ROW_SLOT[card]] = 1
    row[DIGEST_NO_BID] = no_bid
    return bytes(row)


#: ``DIGEST_TOOK_ROWS[position][card][no_bid]``: a participant's digest row right after
#: the reveal (the engine joins them instead of writing byte by byte: it is faster).
DIGEST_TOOK_ROWS: Final = tuple(tuple(tuple(_took_row(position, card, no_bid) if ROW_SLOT[card] >= 0
                                            else b"" for no_bid in (0, 1))
                                      for card in range(NUM_TYPES))
                                for position in range(POSITIONS))
DIGEST_EMPTY_ROW: Final = bytes(DIGEST_WIDTH)


def digest_event(rows: bytearray, event: Event, num_players: int) -> None:
    """Write what ``event`` shows into the digest ``rows`` (events of other kinds,
    face-down ones included, change nothing)."""
    what = event.what
    if what == TOOK:
        row = min(event.target, num_players) * DIGEST_WIDTH
        rows[row + DIGEST_POSITION + event.result - 1] = 1
        rows[row + DIGEST_TOOK + ROW_SLOT[event.card]] = 1
    elif what == TAKE:
        rows[event.target * DIGEST_WIDTH + DIGEST_TAKEN + event.card] += 1
    elif what == HEN:
        if event.result != NO_HEN:
            row = event.target * DIGEST_WIDTH
            rows[row + DIGEST_HEN] = 1
            rows[row + DIGEST_FORCED] = event.result == HEN_FORCED
    elif what == BID and event.card == NONE:
        rows[min(event.target, num_players) * DIGEST_WIDTH + DIGEST_NO_BID] = 1


def round_digest(events: list[Event], num_players: int) -> bytes:
    """The digest of a round's events from its bid reveal on (the engine keeps it as
    it goes, in ``state.round_digest``; the invariants check the two agree)."""
    rows = bytearray((num_players + 1) * DIGEST_WIDTH)
    for event in events:
        if event.what == ROUND:
            break  # the next round begins
        digest_event(rows, event, num_players)
    return bytes(rows)
