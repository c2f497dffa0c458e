"""Moving one game between a row of the batched engine and the reference ``State``.

:func:`to_state` writes a row as a :class:`~kakelaar_env.state.State` with the
same position, from which the reference engine observes and plays on exactly as
the row does. The row keeps no history, so the state's record is rebuilt from what
the observation reads: the newest round's reveal (the bids and row cards taken), its
mother hens and cards taken back (all that ``state.round_digest`` shows), the start
of the current round, the face-down commits of the stage in progress and, once over,
the scores and winners. :func:`from_state` reads any reachable state into a row.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cardgym.record import Event
from kakelaar_env.batched.layout import (
    ASKED,
    BIDS,
    CIRCLE,
    CURRENT,
    CURSOR,
    D_FORCED,
    D_HEN,
    D_NO_BID,
    D_POSITION,
    D_TAKEN,
    D_TOOK,
    DECK,
    DECK_SIZE,
    DIGEST,
    DISCARDS,
    HANDS,
    HEN_CHOICES,
    HEN_PLAYED,
    HENS_OUT,
    LAST_BIDS,
    NUM_ASKED,
    NUM_CIRCLE,
    NUM_PICKS,
    PHASE,
    PICKS,
    REMOVED,
    REMOVED_SIZE,
    ROBOT_DECK,
    ROBOT_DISCARD,
    ROBOT_DISCARD_SIZE,
    ROBOT_SIZE,
    ROBOT_WON,
    ROBOT_WON_SIZE,
    ROUND,
    ROW,
    ROW_SIZE,
    TRACTOR,
    UNSEEN,
    WHOLE_PILES,
    WINNERS,
)
from kakelaar_env.cards import MAX_PLAYERS, NUM_BIDDABLE, NUM_TYPES, ROW_TYPES
from kakelaar_env.digest import DIGEST_WIDTH
from kakelaar_env.events import (
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
from kakelaar_env.events import HEN_PLAYED as PLAYED_HEN
from kakelaar_env.scoring import scores
from kakelaar_env.state import BID, GAME_OVER, HEN_STAGE, NONE, TAKE_FIRST, Config, Phase, State

__all__ = ["from_state", "to_state"]

Row = NDArray[np.int8]


def _ints(b: Row, at: int, count: int) -> list[int]:
    return [int(value) for value in b[at:at + count]]


def to_state(b: Row, config: Config) -> State:
    """The reference state of the game in row ``b``."""
    n = config.num_players
    state = State(config)
    state.round = int(b[ROUND])
    state.phase = Phase(int(b[PHASE]))
    state.current = int(b[CURRENT])
    state.asked = _ints(b, ASKED, int(b[NUM_ASKED]))
    state.cursor = int(b[CURSOR])
    state.deck = _ints(b, DECK, int(b[DECK_SIZE]))
    state.removed = _ints(b, REMOVED, int(b[REMOVED_SIZE]))
    state.unseen = _ints(b, UNSEEN, NUM_TYPES)
    state.row = _ints(b, ROW, int(b[ROW_SIZE]))
    state.hands = [bytearray(b[HANDS + s * NUM_TYPES:HANDS + (s + 1) * NUM_TYPES].tobytes())
                   for s in range(n)]
    state.discards = [bytearray(b[DISCARDS + s * NUM_BIDDABLE:
                                  DISCARDS + (s + 1) * NUM_BIDDABLE].tobytes())
                      for s in range(n)]
    k = int(b[NUM_CIRCLE])
    state.circle = tuple(_ints(b, CIRCLE, k))
    state.tractor = int(b[TRACTOR])
    if config.robot:
        state.robot_deck = _ints(b, ROBOT_DECK, int(b[ROBOT_SIZE]))
        state.robot_discard = _ints(b, ROBOT_DISCARD, int(b[ROBOT_DISCARD_SIZE]))
        state.robot_won = _ints(b, ROBOT_WON, int(b[ROBOT_WON_SIZE]))
    state.hens_out = int(b[HENS_OUT])
    state.bids = _ints(b, BIDS, n)
    state.hen_choices = _ints(b, HEN_CHOICES, n)
    state.hen_played = [bool(played) for played in b[HEN_PLAYED:HEN_PLAYED + n]]
    state.picks = [_ints(b, PICKS + 2 * s, int(b[NUM_PICKS + s])) for s in range(n)]
    state.last_bids = _ints(b, LAST_BIDS, k)
    state.winners = tuple(s for s in range(n) if int(b[WINNERS]) >> s & 1)
    state.round_digest = b[DIGEST:DIGEST + (n + 1) * DIGEST_WIDTH].tobytes()
    state.log, state.record_start = _record(b, state)
    return state


def _record(b: Row, state: State) -> tuple[list[Event], int]:
    """A record whose events from ``record_start`` on show the round digest, then
    the current round's start and the stage's commits (:mod:`kakelaar_env.record`)."""
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


def from_state(b: Row, state: State) -> None:
    """Write the reference ``state`` into row ``b``.

    Raises:
        ValueError: a pile holds more cards than a reachable game allows.
    """
    n = state.num_players
    b[:] = 0
    b[ROUND] = state.round
    b[PHASE] = int(state.phase)
    b[CURRENT] = state.current
    _put(b, ASKED, state.asked, MAX_PLAYERS, "asked", NUM_ASKED)
    b[CURSOR] = state.cursor
    _put(b, CIRCLE, state.circle, MAX_PLAYERS, "circle", NUM_CIRCLE)
    b[TRACTOR] = state.tractor
    b[HENS_OUT] = state.hens_out
    b[WINNERS] = sum(1 << seat for seat in state.winners)
    _put(b, DECK, state.deck, REMOVED_SIZE - DECK, "deck", DECK_SIZE)
    _put(b, REMOVED, state.removed, ROW_SIZE - REMOVED, "removed", REMOVED_SIZE)
    _put(b, ROW, state.row, MAX_PLAYERS, "row", ROW_SIZE)
    b[UNSEEN:UNSEEN + NUM_TYPES] = state.unseen
    _put(b, ROBOT_DECK, state.robot_deck, ROBOT_DISCARD_SIZE - ROBOT_DECK, "robot_deck",
         ROBOT_SIZE)
    _put(b, ROBOT_DISCARD, state.robot_discard, ROBOT_WON_SIZE - ROBOT_DISCARD, "robot_discard",
         ROBOT_DISCARD_SIZE)
    _put(b, ROBOT_WON, state.robot_won, BIDS - ROBOT_WON, "robot_won", ROBOT_WON_SIZE)
    b[BIDS:BIDS + n] = state.bids
    b[HEN_CHOICES:HEN_CHOICES + n] = state.hen_choices
    b[HEN_PLAYED:HEN_PLAYED + n] = state.hen_played
    for seat, picks in enumerate(state.picks):
        _put(b, PICKS + 2 * seat, picks, 2, "picks", NUM_PICKS + seat)
    b[LAST_BIDS:LAST_BIDS + n + 1] = NONE
    b[LAST_BIDS:LAST_BIDS + len(state.last_bids)] = state.last_bids
    for seat in range(n):
        b[HANDS + seat * NUM_TYPES:HANDS + (seat + 1) * NUM_TYPES] = list(state.hands[seat])
        b[DISCARDS + seat * NUM_BIDDABLE:DISCARDS + (seat + 1) * NUM_BIDDABLE] = list(
            state.discards[seat])
    b[DIGEST:DIGEST + len(state.round_digest)] = np.frombuffer(state.round_digest, np.uint8)
    b[WHOLE_PILES] = sum(1 << event.target for event in state.log[state.record_start:]
                         if event.what == TAKE and event.result == WHOLE_PILE)


def _put(b: Row, at: int, values: object, room: int, name: str, size_at: int) -> None:
    """``values`` (a sequence of small ints) at ``at`` and their count at ``size_at``."""
    cards = list(values)  # type: ignore[call-overload]
    if len(cards) > room:
        raise ValueError(f"{name} holds {len(cards)} entries; a row has room for {room}")
    b[at:at + len(cards)] = cards
    b[size_at] = len(cards)
