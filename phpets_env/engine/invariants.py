"""Rule invariants of a Power Hungry Pets state, for fuzzing and debugging."""

from __future__ import annotations

from phpets_env.engine.cards import CARD_VALUES, NUM_CARDS, TOTAL_TOKENS
from phpets_env.engine.events import NEW_ROUND, TURN_DRAW
from phpets_env.engine.state import MATCH_OVER, MOUSE_TRAPPER, NO_CARD, PLAY, State


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` naming the first broken invariant.

    - the 21 cards are each in exactly one place (pile, hands, rows, set aside, held out);
    - tokens held plus the supply make 7, no player above the target;
    - players out of the round hold nothing and are unprotected; players in it hold
      one card, the player to act two while choosing a card to play;
    - at least one player is in the round while the match goes on;
    - what the table has ruled out of a hand is true (no held card has a ruled-out
      value), and private Mouse Trapper knowledge is part of what a seat knows;
    - knowledge covers hidden places only: no seat's ``known`` holds a card face up
      (in a row or set aside face up), and every seat knows its own hand;
    - the record agrees on whose turn it is: the newest turn-start draw
      (``TURN_DRAW``) is the seat to act's, with no new round logged after it (a
      position written without a record, as tests do, has none to check).
    """
    _check_cards(state)
    _check_tokens(state)
    _check_knowledge(state)
    if state.phase == MATCH_OVER:
        assert state.match_winners, "the match ended without a winner"
        return
    _check_turn(state)
    _check_hands(state)


def _check_cards(state: State) -> None:
    places = list(state.deck) + list(state.face_up)
    for hand in state.hands:
        places += hand
    for row in state.rows:
        places += row
    if state.aside != NO_CARD:
        places.append(state.aside)
    if state.pending != NO_CARD:
        places.append(state.pending)
    assert sorted(places) == list(range(NUM_CARDS)), f"cards not conserved: {sorted(places)}"


def _check_tokens(state: State) -> None:
    assert sum(state.tokens) + state.token_supply == TOTAL_TOKENS, "tokens not conserved"
    assert 0 <= state.token_supply <= TOTAL_TOKENS and sum(state.tokens) <= TOTAL_TOKENS
    assert max(state.tokens) <= state.config.tokens_to_win, "a player holds more than the target"


def _check_knowledge(state: State) -> None:
    assert (state.pending != NO_CARD) == (state.phase == MOUSE_TRAPPER)
    public = 0
    for card in [*state.face_up, *(card for row in state.rows for card in row)]:
        public |= 1 << card
    for seat in range(state.num_players):
        known = state.known[seat]
        assert not state.trapped[seat] & ~known, f"seat {seat}: stale trapped bits"
        assert not known & public, f"seat {seat} keeps knowledge of a card face up"
        assert all(known >> card & 1 for card in state.hands[seat]), (
            f"seat {seat} does not know its own hand")
        for card in state.hands[seat]:
            assert not state.ruled_out[seat] >> CARD_VALUES[card] & 1, (
                f"seat {seat} holds {CARD_VALUES[card]}, which the table ruled out")


def _check_turn(state: State) -> None:
    assert any(state.in_round), "nobody is in the round"
    for event in reversed(state.log):
        if event.what == TURN_DRAW:
            assert event.target == state.to_act, (
                f"the turn of seat {state.to_act} began with seat {event.target}'s draw")
            break
        assert event.what != NEW_ROUND, "the round began without a turn-start draw"
    assert state.in_round[state.to_act], "the player to act is out of the round"


def _check_hands(state: State) -> None:
    for seat in range(state.num_players):
        size = len(state.hands[seat])
        if not state.in_round[seat]:
            assert size == 0 and not state.protected[seat], f"seat {seat} is out but holds cards"
        elif seat == state.to_act and state.phase == PLAY:
            assert size == 2, f"seat {seat} chooses a card from {size}"
        else:
            assert size == 1, f"seat {seat} holds {size} cards"
