"""The record of one game between a row of the batched engine and the reference
``State``; every other field goes across as the row format declares it
(:data:`~kakelaar_env.batched.layout.ROW_FORMAT`).

The row keeps no history, so :func:`export_record` rebuilds the state's record from
what the observation reads: the newest round's reveal (the bids and row cards taken),
its mother hens and cards taken back (all that ``state.round_digest`` shows), the
start of the current round, the face-down commits of the stage in progress and, once
over, the scores and winners; :func:`load_record` keeps what the row needs of it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.record import Event
from kakelaar_env.batched.layout import (
    D_FORCED,
    D_HEN,
    D_NO_BID,
    D_POSITION,
    D_TAKEN,
    D_TOOK,
    DIGEST,
    LAST_BIDS,
    NONE,
    WHOLE_PILES,
)
from kakelaar_env.engine.cards import MAX_PLAYERS, NUM_BIDDABLE, ROW_TYPES
from kakelaar_env.engine.digest import DIGEST_WIDTH
from kakelaar_env.engine.events import (
    BID_EVENTS,
    BID_FACE_DOWN_EVENTS,
    CHOSEN,
    HEN_EVENTS,
    HEN_FACE_DOWN_EVENTS,
    HEN_FORCED,
    PICK_FACE_DOWN_EVENTS,
    ROUND_EVENTS,
    SCORE_EVENTS,
    TAKE,
    TAKE_EVENTS,
    TOOK_EVENTS,
    WHOLE_PILE,
    WINNER_EVENTS,
)
from kakelaar_env.engine.events import HEN_PLAYED as PLAYED_HEN
from kakelaar_env.engine.scoring import scores
from kakelaar_env.engine.state import BID, GAME_OVER, HEN_STAGE, TAKE_FIRST, State

__all__ = ["export_record", "load_record"]

Row = NDArray[np.int8]


def export_record(b: Row, state: State) -> None:
    """``state``'s record, rebuilt from row ``b`` (whose other fields ``state`` holds)."""
    state.log, state.record_start = _record(b, state)


def _record(b: Row, state: State) -> tuple[list[Event], int]:
    """A record whose events from ``record_start`` on show the round digest, then
    the current round's start and the stage's commits (:mod:`kakelaar_env.display.record`)."""
    k = len(state.circle)
    holder = state.circle[state.tractor]
    log: list[Event] = []
    if state.phase == BID:
        if state.round > 1:
            log.append(ROUND_EVENTS[state.round - 1][state.circle[(state.tractor - 1) % k]])
        start = len(log)
        log += _digest_events(b, state)
        log.append(ROUND_EVENTS[state.round][holder])
    else:
        log.append(ROUND_EVENTS[state.round][holder])
        start = len(log)
        log += _digest_events(b, state)
    log += _commits(state)
    if state.phase == GAME_OVER:
        log += [SCORE_EVENTS[seat][total] for seat, total in enumerate(scores(state))]
        log += [WINNER_EVENTS[seat] for seat in state.winners]
    return log, start


def _digest_events(b: Row, state: State) -> list[Event]:
    """The reveal, mother hens and cards taken back that the round digest shows."""
    n = state.num_players
    digest = b[DIGEST:DIGEST + (n + 1) * DIGEST_WIDTH].reshape(n + 1, DIGEST_WIDTH)
    taken: list[tuple[int, int]] = []
    for row, record in enumerate(digest):
        p = row if row < n else 2  # the robot's row is the last; it is participant 2
        positions = np.flatnonzero(record[D_POSITION:D_POSITION + MAX_PLAYERS])
        if len(positions):
            taken.append((int(positions[0]), p))
        elif record[D_NO_BID]:
            taken.append((MAX_PLAYERS, p))
    events: list[Event] = []
    for position, p in sorted(taken):
        record = digest[min(p, n)]
        bid = NONE if record[D_NO_BID] else state.last_bids[p] if p < len(state.last_bids) else NONE
        if bid != NONE or record[D_NO_BID]:
            events.append(BID_EVENTS[p][bid + 1])
        if position < MAX_PLAYERS:
            slots = np.flatnonzero(record[D_TOOK:D_TOOK + len(ROW_TYPES)])
            events.append(TOOK_EVENTS[p][position][ROW_TYPES[int(slots[0])]])
    for seat in range(n):
        if digest[seat, D_HEN]:
            events.append(HEN_EVENTS[seat][HEN_FORCED if digest[seat, D_FORCED] else PLAYED_HEN])
    whole = int(b[WHOLE_PILES])
    for seat in range(n):
        mode = WHOLE_PILE if whole >> seat & 1 else CHOSEN
        for card in range(NUM_BIDDABLE):
            events += [TAKE_EVENTS[seat][mode][card]] * int(digest[seat, D_TAKEN + card])
    return events


def _commits(state: State) -> list[Event]:
    """The face-down commits of the stage in progress, in commit order."""
    done = state.asked[:state.cursor]
    if state.phase == BID:
        return [BID_FACE_DOWN_EVENTS[seat][state.bids[seat]] for seat in done]
    if state.phase == HEN_STAGE:
        return [HEN_FACE_DOWN_EVENTS[seat][state.hen_choices[seat]] for seat in done]
    if state.phase == GAME_OVER:
        return []
    events = []
    if state.phase != TAKE_FIRST:  # every taker's first pick came before the second ones
        events += [PICK_FACE_DOWN_EVENTS[seat][0][state.picks[seat][0]] for seat in state.asked]
    pick = 0 if state.phase == TAKE_FIRST else 1
    events += [PICK_FACE_DOWN_EVENTS[seat][pick][state.picks[seat][pick]] for seat in done]
    return events


def load_record(b: Row, state: State) -> None:
    """What row ``b`` keeps of ``state``'s record, and the room after the last bids
    (the kernels fill a participant more than two players have with no bid)."""
    n = state.num_players
    b[LAST_BIDS + len(state.last_bids):LAST_BIDS + n + 1] = NONE
    b[WHOLE_PILES] = sum(1 << event.target for event in state.log[state.record_start:]
                         if event.what == TAKE and event.result == WHOLE_PILE)
