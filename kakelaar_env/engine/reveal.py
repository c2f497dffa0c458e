"""The reveals that end each Karel Kakelaar stage: every committed choice turned up
at once and carried out.

Each function reveals one stage's commits, logs the public events (see
:mod:`kakelaar_env.display.record`) and keeps the round digest up to date; which stage
follows is :mod:`kakelaar_env.engine.flow`'s business.
"""

from __future__ import annotations

from kakelaar_env.engine.cards import BID_VALUE, HEN, NUM_BIDDABLE
from kakelaar_env.engine.digest import (
    DIGEST_EMPTY_ROW,
    DIGEST_FORCED,
    DIGEST_HEN,
    DIGEST_TAKEN,
    DIGEST_TOOK_ROWS,
    DIGEST_WIDTH,
)
from kakelaar_env.engine.events import (
    BID_EVENTS,
    CHOSEN,
    HEN_EVENTS,
    HEN_FORCED,
    HEN_PLAYED,
    NO_HEN,
    TAKE_EVENTS,
    TOOK_EVENTS,
    WHOLE_PILE,
)
from kakelaar_env.engine.state import NONE, State
from kakelaar_env.engine.turns import must_play_hen, orders


def ranking(state: State, bids: list[int]) -> list[int]:
    """Participants from the highest bid down: equal bids rank by closeness to the
    tractor clockwise (the holder first); a participant without a bid (``NONE``)
    ranks below every bid. ``bids`` is indexed by participant (the robot last)."""
    order = orders(state)[0]  # tractor distance 0, 1, ...
    return sorted(order, key=lambda p: -BID_VALUE[bids[p]] if bids[p] != NONE else 1)


def reveal_bids(state: State) -> None:
    """Reveal the bids (and the robot's), hand out the row, discard the bids."""
    n = state.num_players
    bids = state.bids + ([state.robot_deck.pop()] if state.robot >= 0 else [])
    row = state.row
    hands, discards = state.hands, state.discards
    log = state.log
    state.record_start = len(log)
    # The round digest (what digest.round_digest reads from these events), built here
    # directly: parsing the events back would cost the engine more than logging them.
    digest = [DIGEST_EMPTY_ROW] * (n + 1)  # the robot last
    for position, participant in enumerate(ranking(state, bids)):
        card = row[position]
        bid = bids[participant]
        # Every bid is turned up at once; the log tells them in rank order, each
        # with the row card it won.
        log += (BID_EVENTS[participant][bid + 1], TOOK_EVENTS[participant][position][card])
        if participant == state.robot:
            digest[n] = DIGEST_TOOK_ROWS[position][card][0]
            state.robot_discard.append(bid)
            state.robot_won.append(card)
            continue
        digest[participant] = DIGEST_TOOK_ROWS[position][card][bid == NONE]
        hands[participant][card] += 1
        if bid != NONE:
            hands[participant][bid] -= 1
            discards[participant][bid] += 1
    state.round_digest = b"".join(digest)
    state.last_bids = bids
    state.bids = [NONE] * n
    state.row = []
    state.touch()


def reveal_hens(state: State) -> list[int]:
    """Reveal the mother hens played; take back whole discard piles of two cards or
    fewer at once. Returns the hen players who choose which two cards they take."""
    choosers = []
    log = state.log
    digest: bytearray | None = None
    for seat in state.asked:
        played = state.hen_choices[seat] == 1
        state.hen_choices[seat] = NONE
        if not played:
            log.append(HEN_EVENTS[seat][NO_HEN])
            continue
        forced = must_play_hen(state, seat)
        log.append(HEN_EVENTS[seat][HEN_FORCED if forced else HEN_PLAYED])
        if digest is None:
            digest = bytearray(state.round_digest)
        at = seat * DIGEST_WIDTH
        digest[at + DIGEST_HEN] = 1
        digest[at + DIGEST_FORCED] = forced
        state.hen_played[seat] = True
        state.hands[seat][HEN] -= 1
        state.hens_out += 1
        if sum(state.discards[seat]) <= 2:
            _take_whole_pile(state, seat, digest)
        else:
            choosers.append(seat)
    if digest is not None:
        state.round_digest = bytes(digest)
    state.touch()
    return choosers


def _take_whole_pile(state: State, seat: int, digest: bytearray) -> None:
    """``seat`` takes its whole discard pile (two cards or fewer) back into hand."""
    pile, hand = state.discards[seat], state.hands[seat]
    taken = TAKE_EVENTS[seat][WHOLE_PILE]
    at = seat * DIGEST_WIDTH + DIGEST_TAKEN
    for t in range(NUM_BIDDABLE):
        if pile[t]:
            hand[t] += pile[t]
            state.log.extend([taken[t]] * pile[t])
            digest[at + t] += pile[t]
            pile[t] = 0


def reveal_picks(state: State) -> None:
    """Reveal the cards taken back and move them into hand."""
    log = state.log
    digest = bytearray(state.round_digest)
    for seat in state.asked:
        hand, pile = state.hands[seat], state.discards[seat]
        taken = TAKE_EVENTS[seat][CHOSEN]
        at = seat * DIGEST_WIDTH + DIGEST_TAKEN
        for card in state.picks[seat]:
            pile[card] -= 1
            hand[card] += 1
            log.append(taken[card])
            digest[at + card] += 1
        state.picks[seat] = []
    state.round_digest = bytes(digest)
    state.touch()
