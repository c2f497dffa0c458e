"""Rule invariants of an Exploding Kittens state, for fuzzing and debugging."""

from __future__ import annotations

import numpy as np

from ek_env.cards import KITTEN, NUM_KINDS, composition
from ek_env.state import GAME_OVER, INSERT, NOBODY, NOPE_WINDOW, PLAY, UNKNOWN, State


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` naming the first broken invariant.

    - every card is accounted for: deck, hands, discard, out of play, box and a
      kitten being put back add up to the composition, kind by kind;
    - kittens in the deck = players alive - 1 (less one being put back); no hand
      holds a kitten;
    - exploded players hold nothing; the seats to act and on turn are alive;
    - every seat's knowledge is true: known depths hold the known card, lower bounds
      on hands do not exceed the hands;
    - the game is over exactly when one player is left.
    """
    n = state.num_players
    piles = np.array([*state.hands, state.discard, state.out_of_play, state.box])
    assert piles.min() >= 0, f"negative count in {piles.tolist()}"
    totals = piles.sum(axis=0) + np.bincount(state.deck, minlength=NUM_KINDS)
    totals[KITTEN] += state.held_kitten
    assert totals.tolist() == list(composition(n)), f"cards not conserved: {totals.tolist()}"
    alive = sum(state.alive)
    assert state.deck.count(KITTEN) == alive - 1 - state.held_kitten, "kittens in deck != alive - 1"
    assert (state.held_kitten == 1) == (state.phase == INSERT), "held kitten outside INSERT"
    for seat in range(n):
        hand = state.hands[seat]
        assert hand[KITTEN] == 0, f"seat {seat} holds a kitten"
        if not state.alive[seat]:
            assert not any(hand), f"exploded seat {seat} holds cards"
    assert len(state.eliminated) == n - alive and len(set(state.eliminated)) == n - alive
    if state.phase == GAME_OVER:
        assert alive == 1 and state.alive[state.winner], "game over without one survivor"
        return
    assert alive >= 2 and state.winner == NOBODY, "one survivor but the game goes on"
    assert state.alive[state.current] and state.alive[state.to_act], "a dead seat is to act"
    assert state.owed >= 1, "the turn holder owes no turn"
    if state.phase == PLAY:
        assert state.to_act == state.current
    if state.phase == NOPE_WINDOW:
        assert state.pending_kind and state.alive[state.window_last]
    size = len(state.deck)
    for seat, known in enumerate(state.known_deck):
        assert len(known) <= size, f"seat {seat} knows more depths than the deck has"
        for depth, card in enumerate(known):
            if card != UNKNOWN:
                assert state.deck[size - 1 - depth] == card, (
                    f"seat {seat} believes depth {depth} is {card}, it is {state.deck[size - 1 - depth]}"
                )
    bounds = np.array(state.known_hands).reshape(n, n, NUM_KINDS)
    wrong = np.argwhere(bounds > np.array(state.hands)[None, :, :])
    if wrong.size:
        observer, other, card = wrong[0]
        raise AssertionError(
            f"seat {observer} believes seat {other} holds {bounds[observer, other, card]} "
            f"of kind {card}, it holds {state.hands[other][card]}"
        )
