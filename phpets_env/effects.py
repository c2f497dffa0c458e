"""Power Hungry Pets card effects (RULES.md §2), one function per card.

Each function resolves a card already moved to its player's row. It may
eliminate players or open a follow-up phase; ending the turn is the caller's job.
Knowledge updates follow RULES.md §1: a card moved by a public, deterministic act
stays known to whoever knew it; both sides of an exchange learn what changed hands.
"""

from __future__ import annotations

import numpy as np

from phpets_env.cards import CARD_VALUES, Card
from phpets_env.state import GRAVE_DIGGER, MOUSE_TRAPPER, NO_CARD, State

KING_CAT_ID = CARD_VALUES.index(Card.KING_CAT)
ALL_SEEN = (1 << len(CARD_VALUES)) - 1


def bits(cards: list[int]) -> int:
    """Bit mask of a list of card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def eliminate(state: State, seat: int) -> None:
    """Out of the round: the hand goes face up into the row, without effect."""
    state.in_round[seat] = False
    state.protected[seat] = False
    state.rows[seat].extend(state.hands[seat])
    state.hands[seat].clear()


def swap_hands(state: State, a: int, b: int) -> None:
    """Exchange two hands; both players then know both hands."""
    hands = state.hands
    hands[a], hands[b] = hands[b], hands[a]
    both = bits(hands[a]) | bits(hands[b])
    state.known[a] |= both
    state.known[b] |= both


def not_a_pet(state: State, actor: int) -> None:
    """The King Cat holder (another player, unprotected) swaps hands with the actor."""
    for seat in range(state.num_players):
        if seat != actor and state.in_round[seat] and KING_CAT_ID in state.hands[seat]:
            if not state.protected[seat]:
                # Everyone sees the King Cat change hands.
                known = state.known
                for observer in range(state.num_players):
                    known[observer] |= 1 << KING_CAT_ID
                swap_hands(state, actor, seat)
            return


def jittery_juggler(state: State, actor: int, rng: np.random.Generator) -> None:
    """Every unprotected player in the round returns their card; shuffle; deal anew."""
    n = state.num_players
    affected = [
        seat
        for seat in ((actor + k) % n for k in range(n))
        if state.in_round[seat] and (seat == actor or not state.protected[seat])
    ]
    deck = state.deck
    for seat in affected:
        deck.extend(state.hands[seat])
        state.hands[seat].clear()
    order = rng.permutation(len(deck))
    state.deck = deck = [deck[i] for i in order]
    stale = ~bits(deck)
    known = state.known
    for observer in range(n):
        known[observer] &= stale
    state.deck_watchers = 0
    for seat in affected:
        card = deck.pop()
        state.hands[seat].append(card)
        known[seat] |= 1 << card


def grave_digger(state: State, actor: int) -> None:
    """Look at the set-aside card; the keep-or-swap decision is a phase of its own."""
    if state.aside != NO_CARD:
        state.known[actor] |= 1 << state.aside
        state.phase = GRAVE_DIGGER


def grave_swap(state: State, actor: int) -> None:
    """Exchange the actor's hand card with the set-aside card (a visible act)."""
    hand = state.hands[actor]
    hand[0], state.aside = state.aside, hand[0]


def snake_sorcerer(state: State, target: int) -> None:
    """The target reveals their card without effect and draws a new one."""
    hand = state.hands[target]
    state.rows[target].extend(hand)
    revealed_king = KING_CAT_ID in hand
    hand.clear()
    if revealed_king:
        eliminate(state, target)
        return
    if state.deck:
        card = state.deck.pop()
    else:
        card, state.aside = state.aside, NO_CARD
    hand.append(card)
    state.known[target] |= 1 << card


def battle_bunny(state: State, actor: int, target: int) -> None:
    """Compare hands in secret; the lower card is revealed and its holder is out."""
    mine, theirs = state.hands[actor][0], state.hands[target][0]
    state.known[actor] |= 1 << theirs
    state.known[target] |= 1 << mine
    if CARD_VALUES[mine] < CARD_VALUES[theirs]:
        eliminate(state, actor)
    elif CARD_VALUES[theirs] < CARD_VALUES[mine]:
        eliminate(state, target)


def mouse_trapper(state: State, actor: int) -> None:
    """Take the top card to look at it; where it goes back is a phase of its own."""
    deck = state.deck
    if not deck:
        return
    card = deck.pop()
    state.pending = card
    state.known[actor] |= 1 << card
    state.deck_watchers |= 1 << actor
    if deck:
        # The card may go anywhere, so every other seat loses track of deck order.
        stale = ~(bits(deck) | (1 << card))
        known = state.known
        for observer in range(state.num_players):
            if observer != actor:
                known[observer] &= stale
    state.phase = MOUSE_TRAPPER


def place_card(state: State, depth: int) -> None:
    """Put the held-out card back ``depth`` cards below the top."""
    deck = state.deck
    deck.insert(len(deck) - depth, state.pending)
    state.pending = NO_CARD


def crystal_bowl(state: State, target: int, guess: int) -> None:
    """A right guess of the target's card eliminates them."""
    if CARD_VALUES[state.hands[target][0]] == guess:
        eliminate(state, target)
