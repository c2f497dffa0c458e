"""Rule invariants of an Exploding Kittens state, for fuzzing and debugging."""

from __future__ import annotations

import numpy as np

from cardgym.record import Event
from ek_env.engine.cards import KITTEN, STREAKING, composition
from ek_env.engine.record import EVENT_NAMES
from ek_env.engine.state import (
    ALTER,
    GAME_OVER,
    GARBAGE,
    INSERT,
    NOBODY,
    NOPE_WINDOW,
    PLAY,
    TARGET,
    UNKNOWN,
    State,
)


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` naming the first broken invariant.

    - every card is accounted for: deck, hands, discard, out of play, box, kittens
      being put back, and (expansion) cards being reordered or put in by Garbage
      Collection add up to the composition, kind by kind;
    - base game: kittens in the deck = players alive - 1 (less one being put back),
      no hand holds a kitten; expansion: kittens in the deck and hands are never more
      than the players alive, a hand holds a kitten only with the Streaking Kitten
      (or while it waits to explode), marked cards are held;
    - what the table believes ruled out (``ruled_out``) is not in the hand; the
      record holds events of this game;
    - exploded players hold nothing and are not blind; the seats to act and on turn
      are alive;
    - every seat's knowledge is true: known depths hold the known card, lower bounds
      on hands do not exceed the hands;
    - the game is over exactly when one player is left, or (expansion) with no
      winner when the draw pile ran dry.
    """
    _check_cards(state)
    _check_hands(state)
    _check_books(state)
    if state.phase == GAME_OVER:
        _check_over(state)
        return
    _check_flow(state)
    _check_knowledge(state)


def _check_cards(state: State) -> None:
    """Every card is accounted for; the kittens in play fit the players alive."""
    streaking = state.config.streaking
    piles = np.array([*state.hands, state.discard, state.out_of_play, state.box])
    assert piles.min() >= 0, f"negative count in {piles.tolist()}"
    limbo = state.deck + state.alter_left + state.alter_placed + state.garbage_in
    totals = piles.sum(axis=0) + np.bincount(limbo, minlength=state.kinds)
    totals[KITTEN] += state.held_kitten
    assert totals.tolist() == list(composition(state.num_players, streaking)), (
        f"cards not conserved: {totals.tolist()}")
    alive = sum(state.alive)
    assert (state.held_kitten > 0) == (state.phase == INSERT), "held kitten outside INSERT"
    if streaking:
        in_play = limbo.count(KITTEN) + sum(hand[KITTEN] for hand in state.hands)
        assert in_play + state.held_kitten <= alive, (
            f"{in_play} kittens in play (+{state.held_kitten} being put back) "
            f"for {alive} players")
    else:
        assert state.deck.count(KITTEN) == alive - 1 - state.held_kitten, "kittens in deck != alive - 1"


def _check_hands(state: State) -> None:
    """Kittens, marks and exploded seats' hands; sizes; what is ruled out."""
    streaking = state.config.streaking
    for seat in range(state.num_players):
        hand = state.hands[seat]
        if streaking:
            assert hand[KITTEN] <= 1, f"seat {seat} holds {hand[KITTEN]} kittens"
            assert (not hand[KITTEN] or hand[STREAKING] or seat in state.explode_queue
                    or seat in state.garbage_lost), (
                f"seat {seat} holds a kitten without the streaking_kitten")
            assert all(m <= h for m, h in zip(state.marked[seat], hand, strict=True)), (
                f"seat {seat} has marked cards it does not hold")
        else:
            assert hand[KITTEN] == 0, f"seat {seat} holds a kitten"
        if not state.alive[seat]:
            assert not any(hand), f"exploded seat {seat} holds cards"
            assert not state.blind[seat] and not any(state.marked[seat])
    assert state.sizes == [sum(hand) for hand in state.hands], "sizes are not the hand sizes"
    kinds = state.kinds
    for seat in range(state.num_players):
        for card in range(kinds):
            assert not state.ruled_out[seat * kinds + card] or not state.hands[seat][card], (
                f"seat {seat} holds {card}, which the table believes it has not")


def _check_books(state: State) -> None:
    """The record, the marks total and the eliminated seats."""
    n = state.num_players
    alive = sum(state.alive)
    if state.log:
        last = state.log[-1]
        assert isinstance(last, Event) and 0 <= last.what < len(EVENT_NAMES), (
            f"the record's last entry {last!r} is not an event of this game")
    assert state.marks_total == sum(map(sum, state.marked)), "marks_total is not the marks"
    assert len(state.eliminated) == n - alive and len(set(state.eliminated)) == n - alive


def _check_over(state: State) -> None:
    """A game over has one survivor, or (expansion) a dry draw pile."""
    alive = sum(state.alive)
    if state.winner == NOBODY:
        assert state.config.streaking and not state.deck and alive >= 2, (
            "a draw without a dry deck")
    else:
        assert alive == 1 and state.alive[state.winner], "game over without one survivor"


def _check_flow(state: State) -> None:
    """A game going on: each phase's own fields, living seats to act and on turn."""
    assert not state.explode_queue or state.phase == INSERT, "explosions waiting outside INSERT"
    assert bool(state.alter_left) == (state.phase == ALTER), "cards being reordered outside ALTER"
    assert bool(state.garbage_queue) == (state.phase == GARBAGE), "garbage queue outside GARBAGE"
    if state.phase == TARGET:
        assert state.blind[state.turn_holder] and state.pending_card >= 0
    assert sum(state.alive) >= 2 and state.winner == NOBODY, "one survivor but the game goes on"
    assert state.alive[state.turn_holder] and state.alive[state.to_act], "a dead seat is to act"
    assert state.owed >= 1, "the turn holder owes no turn"
    if state.phase == PLAY:
        assert state.to_act == state.turn_holder
    if state.phase == NOPE_WINDOW:
        assert state.pending_kind and state.alive[state.window_last]


def _check_knowledge(state: State) -> None:
    """Every seat's knowledge is true: known depths and lower bounds on hands."""
    n = state.num_players
    size = len(state.deck)
    for seat, known in enumerate(state.known_deck):
        assert len(known) <= size, f"seat {seat} knows more depths than the deck has"
        for depth, card in enumerate(known):
            if card != UNKNOWN:
                assert state.deck[size - 1 - depth] == card, (
                    f"seat {seat} believes depth {depth} is {card}, it is {state.deck[size - 1 - depth]}"
                )
    bounds = np.array(state.known_hands).reshape(n, n, state.kinds)
    wrong = np.argwhere(bounds > np.array(state.hands)[None, :, :])
    if wrong.size:
        observer, other, card = wrong[0]
        raise AssertionError(
            f"seat {observer} believes seat {other} holds {bounds[observer, other, card]} "
            f"of kind {card}, it holds {state.hands[other][card]}"
        )
