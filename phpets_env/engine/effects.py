"""Power Hungry Pets card effects (docs/rules/power_hungry_pets.md), one function per card.

Each function resolves a card already moved to its player's row. It may
eliminate players or open a follow-up phase; ending the turn is the caller's job.
Knowledge updates follow docs/rules/README.md: a card moved by a public, deterministic act
stays known to whoever knew it; both sides of an exchange learn what changed hands.
What the table learns goes into ``state.ruled_out`` and ``state.log``: effects
append the events that follow a play (draws, eliminations); the play's own event
is the caller's, built from what the effect returns.
"""

from __future__ import annotations

from cardgym.chance import Chance
from cardgym.record import NONE, TABLE
from phpets_env.engine.cards import CARD_VALUES, COPIES, NUM_VALUES, Card
from phpets_env.engine.events import (
    ACTOR_LOST,
    DRAW,
    DRAW_EVENTS,
    ELIMINATED,
    FROM_ASIDE,
    HIT,
    MISS,
    NO_EFFECT,
    SWAPPED,
    TARGET_LOST,
    TIE,
    make_event,
)
from phpets_env.engine.state import GRAVE_DIGGER, MOUSE_TRAPPER, NO_CARD, State

KING_CAT_ID = CARD_VALUES.index(Card.KING_CAT)
_KING_VALUE_BIT = 1 << Card.KING_CAT
#: Values with a single copy: two hands can never hold them both.
_SINGLE_COPIES = sum(1 << value for value in range(NUM_VALUES) if COPIES[Card(value)] == 1)


def bits(cards: list[int]) -> int:
    """Bit mask of a list of card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def learn(state: State, seat: int, mask: int) -> None:
    """``seat`` learns where the cards of ``mask`` are, by means the table saw (so no
    longer through a Mouse Trapper depth of its own)."""
    state.known[seat] |= mask
    state.trapped[seat] &= ~mask


def to_row(state: State, seat: int, cards: list[int]) -> None:
    """Put ``cards`` face up at the end of ``seat``'s row. A card in a row is public, so
    no seat's knowledge holds it any more (``known`` covers hidden places only)."""
    state.rows[seat].extend(cards)
    forget(state, bits(cards))


def forget(state: State, mask: int) -> None:
    """No seat knows the cards of ``mask`` any more (``trapped`` is part of ``known``)."""
    known = state.known
    for observer in range(state.num_players):
        if known[observer] & mask:
            known[observer] &= ~mask
            state.trapped[observer] &= ~mask


def draw_into(state: State, seat: int, card: int, from_aside: bool = False) -> None:
    """``seat`` gets ``card`` from the pile (or the set-aside card) after a play: it
    sees it, the table sees that it drew (a ``DRAW``), and what the table had ruled
    out of its hand is stale. The draw that starts a turn is the engine's own
    (:func:`phpets_env.engine.flow.begin_turn`, a ``TURN_DRAW``)."""
    state.hands[seat].append(card)
    bit = 1 << card
    state.known[seat] |= bit
    state.trapped[seat] &= ~bit
    state.ruled_out[seat] = 0
    value = CARD_VALUES[card]
    if from_aside:
        state.log.append(make_event(TABLE, DRAW, seat, NONE, FROM_ASIDE, value, 1 << seat))
    else:
        state.log.append(DRAW_EVENTS[seat * NUM_VALUES + value])


def eliminate(state: State, seat: int) -> None:
    """Out of the round: the hand goes face up into the row, without effect."""
    hand = state.hands[seat]
    shown = CARD_VALUES[hand[0]] if hand else NONE
    state.in_round[seat] = False
    state.protected[seat] = False
    to_row(state, seat, hand)
    hand.clear()
    state.ruled_out[seat] = 0
    state.log.append(make_event(TABLE, ELIMINATED, seat, shown))


def swap_hands(state: State, a: int, b: int) -> None:
    """Exchange two hands; both players then know both hands, and what the table had
    ruled out of one hand now holds for the other."""
    hands = state.hands
    hands[a], hands[b] = hands[b], hands[a]
    both = bits(hands[a]) | bits(hands[b])
    learn(state, a, both)
    learn(state, b, both)
    ruled_out = state.ruled_out
    ruled_out[a], ruled_out[b] = ruled_out[b], ruled_out[a]


def not_a_pet(state: State, actor: int) -> int:
    """The King Cat holder (another player, unprotected) swaps hands with the actor.

    Returns the holder, or :data:`NONE` if nothing happened; then the table knows that
    no other unprotected player in the round holds King Cat.
    """
    n = state.num_players
    for seat in range(n):
        if seat != actor and state.in_round[seat] and KING_CAT_ID in state.hands[seat]:
            if not state.protected[seat]:
                # Everyone sees the King Cat change hands.
                for observer in range(n):
                    learn(state, observer, 1 << KING_CAT_ID)
                swap_hands(state, actor, seat)
                return seat
            break
    for seat in range(n):
        if seat != actor and state.in_round[seat] and not state.protected[seat]:
            state.ruled_out[seat] |= _KING_VALUE_BIT
    return NONE


def jittery_juggler(state: State, actor: int, rng: Chance) -> None:
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
    known, trapped = state.known, state.trapped
    for observer in range(n):
        known[observer] &= stale
        trapped[observer] &= stale
    state.deck_watchers = 0
    for seat in affected:
        draw_into(state, seat, deck.pop())


def grave_digger(state: State, actor: int) -> int:
    """Look at the set-aside card; the keep-or-swap decision is a phase of its own.
    Returns the value seen, or :data:`NONE` if no card is set aside (no effect)."""
    if state.aside == NO_CARD:
        return NONE
    learn(state, actor, 1 << state.aside)
    state.phase = GRAVE_DIGGER
    return CARD_VALUES[state.aside]


def grave_swap(state: State, actor: int) -> None:
    """Exchange the actor's hand card with the set-aside card (a visible act)."""
    hand = state.hands[actor]
    hand[0], state.aside = state.aside, hand[0]
    state.ruled_out[actor] = 0


def snake_sorcerer(state: State, target: int) -> int:
    """The target reveals their card without effect and draws a new one.
    Returns the revealed value."""
    hand = state.hands[target]
    shown = CARD_VALUES[hand[0]]
    to_row(state, target, hand)
    revealed_king = KING_CAT_ID in hand
    hand.clear()
    if revealed_king:
        eliminate(state, target)
        return shown
    if state.deck:
        draw_into(state, target, state.deck.pop())
    else:
        card, state.aside = state.aside, NO_CARD
        draw_into(state, target, card, from_aside=True)
    return shown


def _tie_ruled_out(state: State) -> int:
    """Values two equal hands cannot hold: fewer than two copies not yet face up."""
    seen = [0] * NUM_VALUES
    for row in state.rows:
        for card in row:
            seen[CARD_VALUES[card]] += 1
    for card in state.face_up:
        seen[CARD_VALUES[card]] += 1
    mask = _SINGLE_COPIES
    for value in range(NUM_VALUES):
        if COPIES[Card(value)] - seen[value] < 2:
            mask |= 1 << value
    return mask


def battle_bunny(state: State, actor: int, target: int) -> int:
    """Compare hands in secret; the lower card is revealed and its holder is out.
    Returns ``TIE``, ``ACTOR_LOST`` or ``TARGET_LOST``; the table learns that the
    winner's card is higher than the one revealed, or that both are equal."""
    mine, theirs = state.hands[actor][0], state.hands[target][0]
    learn(state, actor, 1 << theirs)
    learn(state, target, 1 << mine)
    low_mine, low_theirs = CARD_VALUES[mine], CARD_VALUES[theirs]
    if low_mine < low_theirs:
        eliminate(state, actor)
        state.ruled_out[target] |= (2 << low_mine) - 1
        return ACTOR_LOST
    if low_theirs < low_mine:
        eliminate(state, target)
        state.ruled_out[actor] |= (2 << low_theirs) - 1
        return TARGET_LOST
    equal = _tie_ruled_out(state)
    state.ruled_out[actor] |= equal
    state.ruled_out[target] |= equal
    return TIE


def mouse_trapper(state: State, actor: int) -> int:
    """Take the top card to look at it; where it goes back is a phase of its own.
    Returns the value seen, or :data:`NONE` if the pile is empty (no effect)."""
    deck = state.deck
    if not deck:
        return NONE
    card = deck.pop()
    state.pending = card
    learn(state, actor, 1 << card)
    state.deck_watchers |= 1 << actor
    if deck:
        # The card may go anywhere, so every other seat loses track of deck order.
        stale = ~(bits(deck) | (1 << card))
        known, trapped = state.known, state.trapped
        for observer in range(state.num_players):
            if observer != actor:
                known[observer] &= stale
                trapped[observer] &= stale
    state.phase = MOUSE_TRAPPER
    return CARD_VALUES[card]


def place_card(state: State, depth: int) -> None:
    """Put the held-out card back ``depth`` cards below the top; where it went is the
    actor's secret, and so is its knowledge of that card from now on."""
    deck = state.deck
    deck.insert(len(deck) - depth, state.pending)
    state.trapped[state.to_act] |= 1 << state.pending
    state.pending = NO_CARD


def crystal_bowl(state: State, target: int, guess: int) -> int:
    """A right guess of the target's card eliminates them. Returns ``HIT`` or ``MISS``;
    after a miss the table knows the target does not hold the named value."""
    if CARD_VALUES[state.hands[target][0]] == guess:
        eliminate(state, target)
        return HIT
    state.ruled_out[target] |= 1 << guess
    return MISS


__all__ = ["NO_EFFECT", "SWAPPED", "bits", "draw_into", "eliminate", "forget", "learn", "to_row"]
