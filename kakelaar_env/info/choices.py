"""The choices of other seats that one seat has not seen yet, each with the state its
chooser decided in (the contract's ``hidden_choices``, read by searches that weigh a
determinisation by how likely a model of the other seats makes its hidden choices).

In Karel Kakelaar every choice is made face down and revealed only once the last seat
of the stage has committed: while a stage is open, the commits made so far are hidden
from every other seat. A take-back of two cards runs through two stages (the first
and the second pick) and is revealed after the second, so during the second stage the
first stage's picks are still hidden too. Going back commit by commit, newest first,
gives the state each chooser saw: its own hand and the public table, and of the
others only that they had committed.
"""

from __future__ import annotations

from kakelaar_env.engine.actions import move_to_action
from kakelaar_env.engine.state import (
    BID,
    HEN_STAGE,
    NONE,
    TAKE_FIRST,
    TAKE_SECOND,
    Bid,
    HenChoice,
    Move,
    State,
    TakeBack,
)

__all__ = ["hidden_choices", "undo_commit"]


def undo_commit(state: State) -> tuple[int, Move] | None:
    """Take back the newest commit that is still hidden (in place): the seat that
    made it is to act again, as it was when it chose. Returns that seat and its move,
    or ``None`` when no commit is hidden (nothing changed)."""
    if state.phase == TAKE_SECOND and state.cursor == 0:
        # The first picks are hidden until the second stage is revealed.
        if not any(state.picks[seat] for seat in state.asked):
            return None
        state.phase = TAKE_FIRST
        state.cursor = len(state.asked)
    if state.phase not in (BID, HEN_STAGE, TAKE_FIRST, TAKE_SECOND) or state.cursor == 0:
        return None
    state.cursor -= 1
    seat = state.current = state.asked[state.cursor]
    move: Move
    if state.phase == BID:
        move = Bid(state.bids[seat])
        state.bids[seat] = NONE
    elif state.phase == HEN_STAGE:
        move = HenChoice(bool(state.hen_choices[seat]))
        state.hen_choices[seat] = NONE
    else:
        move = TakeBack(state.picks[seat].pop())
    state.log.pop()  # the commit's face-down event, the newest in the record
    state.touch()
    return seat, move


def hidden_choices(state: State, seat: int) -> list[tuple[int, State, int]]:
    """Each commit of another seat that ``seat`` has not seen, newest first, as
    ``(chooser, the state it chose in, the action it took)``: applying the action to
    that state makes the commit again. ``seat``'s own commits are taken back on the
    way (the seats before it did not see them) but not listed."""
    found: list[tuple[int, State, int]] = []
    before = state.clone()
    while True:
        undone = undo_commit(before)
        if undone is None:
            return found
        chooser, move = undone
        if chooser != seat:
            found.append((chooser, before.clone(), move_to_action(before, move)))
