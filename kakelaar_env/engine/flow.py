"""The flow of a Karel Kakelaar round: commits, stages and rounds
(docs/rules/karel_kakelaar.md).

Each stage is sequential commits plus one reveal: :func:`commit_bid` stores a bid
and moves the cursor on; the last bid of the stage reveals them all at once
(:func:`kakelaar_env.engine.reveal.reveal_bids`) and opens the next stage that asks anyone.
The ``commit_*`` functions apply a choice of the seat to act without checking it
(:mod:`kakelaar_env.engine.legality` says what is legal).

Every commit is appended to ``state.log`` as it happens, as a face-down event whose
choice only the committing seat saw (see :mod:`kakelaar_env.display.record`).
"""

from __future__ import annotations

from kakelaar_env.engine.cards import HEN, ROUNDS, row_size
from kakelaar_env.engine.events import (
    BID_FACE_DOWN_EVENTS,
    HEN_FACE_DOWN_EVENTS,
    PICK_FACE_DOWN_EVENTS,
    ROUND_EVENTS,
    SCORE_EVENTS,
    WINNER_EVENTS,
)
from kakelaar_env.engine.reveal import reveal_bids, reveal_hens, reveal_picks
from kakelaar_env.engine.scoring import final_winners, scores
from kakelaar_env.engine.state import BID, GAME_OVER, HEN_STAGE, TAKE_FIRST, TAKE_SECOND, State
from kakelaar_env.engine.turns import advance, can_bid, open_stage, order_from_tractor


def start_round(state: State) -> None:
    """Turn up the row and open the bids (seats with no card to bid are not asked)."""
    deck = state.deck
    size = row_size(state.num_players)
    row = state.row = [deck.pop() for _ in range(size)]
    unseen = state.unseen
    for card in row:
        unseen[card] -= 1
    # The row's cards are logged when they are taken (TOOK events name them).
    state.log.append(ROUND_EVENTS[state.round][state.circle[state.tractor]])
    hands = state.hands
    asked = [s for s in order_from_tractor(state) if can_bid(hands[s])]
    state.touch()
    if not open_stage(state, BID, asked):
        _after_bids(state)


def commit_bid(state: State, card: int) -> None:
    """The seat to act bids a card of type ``card`` face down (unchecked)."""
    seat = state.current
    state.bids[seat] = card
    state.log.append(BID_FACE_DOWN_EVENTS[seat][card])
    if advance(state):
        _after_bids(state)


def commit_hen(state: State, play: bool) -> None:
    """The seat to act plays a mother hen or not, face down until all are in (unchecked)."""
    seat = state.current
    state.hen_choices[seat] = 1 if play else 0
    state.log.append(HEN_FACE_DOWN_EVENTS[seat][1 if play else 0])
    if advance(state):
        _after_hens(state)


def commit_take(state: State, card: int) -> None:
    """The seat to act picks a card of its discard pile to take back (unchecked)."""
    picks = state.picks[state.current]
    picks.append(card)
    state.log.append(PICK_FACE_DOWN_EVENTS[state.current][len(picks) - 1][card])
    if advance(state):
        if state.phase == TAKE_FIRST:
            open_stage(state, TAKE_SECOND, state.asked)
        else:
            reveal_picks(state)
            _end_round(state)


def _after_bids(state: State) -> None:
    """Reveal the bids, then ask the seats holding a mother hen."""
    reveal_bids(state)
    hands = state.hands
    asked = [s for s in order_from_tractor(state) if hands[s][HEN]]
    if not open_stage(state, HEN_STAGE, asked):
        _end_round(state)


def _after_hens(state: State) -> None:
    """Reveal the mother hens, then ask the hen players with a choice of cards to take."""
    if not open_stage(state, TAKE_FIRST, reveal_hens(state)):
        _end_round(state)


def _end_round(state: State) -> None:
    """The tractor moves on and the next round starts, or the game is scored."""
    state.hen_played = [False] * state.num_players
    state.asked = []
    state.cursor = 0
    if state.round >= ROUNDS:
        state.phase = GAME_OVER
        state.winners = final_winners(state)
        state.log.extend([SCORE_EVENTS[seat][total] for seat, total in enumerate(scores(state))])
        state.log.extend([WINNER_EVENTS[seat] for seat in state.winners])
        state.touch()
        return
    state.tractor = (state.tractor + 1) % len(state.circle)
    state.round += 1
    start_round(state)
