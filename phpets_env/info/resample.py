"""Power Hungry Pets states one seat cannot tell apart from the true one, for search.

:func:`resample_hidden` deals every card whose place the seat does not know anew
at random, keeps what the table has ruled out of each hand, and derives what the
other seats know from the public record: each card another seat saw (a swap or a
comparison it was party to, a Grave Digger look, its own Mouse Trapper depth, drawn
at random) is followed through the public events to where it is now.
"""

from __future__ import annotations

import numpy as np

from cardgym.record import Event, blank_unseen
from phpets_env.engine.cards import CARD_VALUES, NUM_VALUES, Card
from phpets_env.engine.effects import bits
from phpets_env.engine.events import (
    ACTOR_LOST,
    DRAW,
    ELIMINATED,
    FROM_ASIDE,
    GRAVE_CHOICE,
    NEW_ROUND,
    NO_EFFECT,
    PLACE,
    SWAPPED,
    TARGET_LOST,
    TIE,
    TURN_DRAW,
    blank_secret,
)
from phpets_env.engine.events import PLAY as PLAYED
from phpets_env.engine.state import NO_CARD, State

#: Random deals tried before dealing slot by slot (each allowed card equally likely).
_DEAL_ATTEMPTS = 64


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state``, a function of ``seat``'s
    information and ``rng`` alone: every card whose place ``seat`` does not know is
    dealt anew at random among those places.

    What another seat knows is derived from what ``seat`` knows of it, never copied
    from the true state (which cards another seat drew, kept or played is hidden, and
    so is what it could see since): its hand; what it knows of ``seat``'s hand; each
    card it saw this round, followed through the public record to where it is now
    (:func:`_carry_knowledge`); and through its latest Mouse Trapper placement, a
    depth drawn at random (:func:`_sample_trapped`). Event secrets ``seat`` did not
    see are blanked in the sample's log. What the table has ruled out of a hand
    (``state.ruled_out``) holds in the sample too.
    """
    clone = state.clone()
    clone.log = blank_unseen(state.log, seat, blank_secret)
    mine = state.known[seat]
    slots, holders = _hidden_slots(clone, seat, mine)
    old = [container[i] for container, i in slots]
    # Deal from the sorted pool: the sample depends on what ``seat`` knows and on the
    # generator alone, not on where the hidden cards really are.
    pool = sorted(old)
    forbidden = [state.ruled_out[other] if other != seat else 0
                 for other in range(state.num_players)]
    if any(forbidden):
        limits = [forbidden[owner] for owner in _slot_owners(clone, seat, mine)]
        new = _constrained_deal(pool, limits, rng)
    else:
        new = [pool[i] for i in rng.permutation(len(pool))]
    for (container, i), card in zip(slots, new, strict=True):
        container[i] = card
    clone.aside, clone.pending = holders[0][0], holders[1][0]
    for other in range(state.num_players):
        if other != seat:
            _carry_knowledge(state, clone, other, seat, rng)
    return clone


def _hidden_slots(
    clone: State, seat: int, mine: int
) -> tuple[list[tuple[list[int], int]], list[list[int]]]:
    """The ``(container, index)`` of each card whose place ``seat`` does not know:
    other hands, then the pile, then the set-aside and the held-out card (kept in
    one-card lists, returned as well, to be written back)."""
    slots: list[tuple[list[int], int]] = []
    for other in range(clone.num_players):
        if other != seat:
            hand = clone.hands[other]
            slots.extend((hand, i) for i, c in enumerate(hand) if not mine >> c & 1)
    slots.extend((clone.deck, i) for i, c in enumerate(clone.deck) if not mine >> c & 1)
    holders = [[clone.aside], [clone.pending]]
    for holder in holders:
        if holder[0] != NO_CARD and not mine >> holder[0] & 1:
            slots.append((holder, 0))
    return slots, holders


def _carry_knowledge(
    state: State, clone: State, other: int, seat: int, rng: np.random.Generator
) -> None:
    """What ``other`` knows in the sample, from what ``seat`` knows of it: its own hand;
    what it knows of ``seat``'s hand (by means ``seat`` was party to); each card it saw
    this round (a swap or a comparison it was party to, a Grave Digger look, King Cat
    changing hands), followed through the public record to where it is now; and the
    card its latest Mouse Trapper depth shows (:func:`_sample_trapped`)."""
    known = bits(clone.hands[other])
    known |= state.known[other] & ~state.trapped[other] & bits(state.hands[seat])
    log = clone.log
    for index, start in _sightings(log, other):
        place = _follow(log[index + 1:], start, rng)
        card = NO_CARD if place is None or place[0] == seat else _card_at(clone, place)
        if card != NO_CARD:
            known |= 1 << card
    clone.known[other] = known
    clone.trapped[other] = 0
    card = _sample_trapped(clone, other, rng)
    if card != NO_CARD:
        clone.known[other] |= 1 << card
        clone.trapped[other] = 1 << card


#: Where a followed card starts or is: ``(holder, depth in the pile, whether it is the
#: holder's newest card)``; the holder is a seat, :data:`_IN_PILE` or :data:`_ASIDE`.
Place = tuple[int, int, bool]


def _sightings(log: list[Event], other: int) -> list[tuple[int, Place]]:
    """The events of this round at which ``other`` saw a card not in its hand, with
    the place of that card right after the event (a hand card of a seat that holds
    one): the partner's card after a swap or a comparison ``other`` was party to, the
    set-aside card after its Grave Digger choice, King Cat after a Not A Pet swap."""
    found: list[tuple[int, Place]] = []
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        what = event.what
        if what == NEW_ROUND:
            break
        if what == GRAVE_CHOICE and event.actor == other:
            found.append((index, (_ASIDE, 0, False)))
        elif what in _SWAPS and event.result == SWAPPED:
            actor, target = event.actor, event.target
            if other == actor:
                found.append((index, (target, 0, False)))
            elif other == target or what == _NOT_A_PET:
                # Every seat saw King Cat go to the actor.
                found.append((index, (actor, 0, False)))
        elif what == _BUNNY and event.result in (TIE, ACTOR_LOST, TARGET_LOST):
            if other in (event.actor, event.target):
                partner = event.target if other == event.actor else event.actor
                found.append((index, (partner, 0, False)))
    return found


def _card_at(sample: State, place: Place) -> int:
    """The card at ``place`` in ``sample``, or ``NO_CARD``."""
    holder, depth, drawn_last = place
    if holder == _IN_PILE:
        return sample.deck[len(sample.deck) - 1 - depth]
    if holder == _ASIDE:
        return sample.aside
    hand = sample.hands[holder]
    if not hand:
        return NO_CARD
    return hand[-1] if drawn_last else hand[0]


def _slot_owners(state: State, seat: int, mine: int) -> list[int]:
    """The seat holding each hidden slot of :func:`resample_hidden`, in its order
    (``seat`` itself for the pile, the set-aside and the held-out card: no limit)."""
    owners: list[int] = []
    for other in range(state.num_players):
        if other != seat:
            owners.extend(other for c in state.hands[other] if not mine >> c & 1)
    owners.extend(seat for c in state.deck if not mine >> c & 1)
    for card in (state.aside, state.pending):
        if card != NO_CARD and not mine >> card & 1:
            owners.append(seat)
    return owners


def _constrained_deal(pool: list[int], limits: list[int], rng: np.random.Generator) -> list[int]:
    """``pool`` dealt to the slots so that no slot gets a value its limit (bit mask of
    values) rules out: uniformly among such deals by rejection, else slot by slot,
    most limited first (a deal fits, the true one; should the slot-by-slot deal
    still miss it, the cards are dealt at random)."""
    values = CARD_VALUES
    limited = [k for k, limit in enumerate(limits) if limit]
    for _ in range(_DEAL_ATTEMPTS):
        new = [pool[i] for i in rng.permutation(len(pool))]
        if not any(limits[k] >> values[new[k]] & 1 for k in limited):
            return new
    return _deal_slot_by_slot(pool, limits, limited, rng)


def _deal_slot_by_slot(
    pool: list[int], limits: list[int], limited: list[int], rng: np.random.Generator
) -> list[int]:
    """The most limited slots first, each a random allowed card; the rest at random."""
    left = pool[:]
    new = [NO_CARD] * len(pool)
    for k in sorted(limited, key=lambda k: -bin(limits[k]).count("1")):
        allowed = [c for c in left if not limits[k] >> CARD_VALUES[c] & 1]
        if not allowed:  # an earlier slot took what this one needed: deal at random
            return [pool[i] for i in rng.permutation(len(pool))]
        card = allowed[int(rng.integers(len(allowed)))]
        left.remove(card)
        new[k] = card
    rest = [left[i] for i in rng.permutation(len(left))]
    for k in range(len(new)):
        if new[k] == NO_CARD:
            new[k] = rest.pop()
    return new


# Where a followed card is: in the pile, set aside, or else in the hand of a seat.
_IN_PILE = NO_CARD
_ASIDE = -2
_JUGGLER = PLAYED + Card.JITTERY_JUGGLER
_SNAKE = PLAYED + Card.SNAKE_SORCERER
_TRAPPER = PLAYED + Card.MOUSE_TRAPPER
_NOT_A_PET = PLAYED + Card.NOT_A_PET
_SWAPS = (PLAYED + Card.HERMIT_SWAP, _NOT_A_PET)
_BUNNY = PLAYED + Card.BATTLE_BUNNY


def _sample_trapped(sample: State, other: int, rng: np.random.Generator) -> int:
    """The card ``other`` knows through its latest Mouse Trapper placement this round,
    in ``sample`` (whose log is public to the resampling seat), or ``NO_CARD``.

    A depth is drawn uniformly among those ``other`` could choose; the card put there
    is followed through the public events since: draws from the pile (the draw that
    starts a turn, a ``TURN_DRAW``, and Snake Sorcerer's ``DRAW``) take it into a
    hand, swaps move it, each play of its holder may have been it (a fair coin), a
    reveal, an elimination, a shuffle or another seat's Mouse Trapper while it was in
    the pile end the knowledge. Earlier placements of the same seat are not followed.
    """
    log = sample.log
    placed = _latest_placement(log, other)
    if placed == NO_CARD:
        return NO_CARD
    later = log[placed + 1:]
    taken = sum(1 for e in later if _from_pile(e))
    positions = len(sample.deck) + (sample.pending != NO_CARD) + taken
    depth = int(rng.integers(positions))
    place = _follow(later, (_IN_PILE, depth, False), rng)
    return NO_CARD if place is None else _card_at(sample, place)


def _latest_placement(log: list[Event], other: int) -> int:
    """Index in ``log`` of ``other``'s latest Mouse Trapper placement this round, or
    ``NO_CARD``."""
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event.what == NEW_ROUND:
            return NO_CARD
        if event.what == PLACE and event.actor == other:
            return index
    return NO_CARD


def _follow(later: list[Event], start: Place, rng: np.random.Generator) -> Place | None:
    """Where the card at ``start`` is after ``later`` (a :data:`Place`), or ``None``
    once the knowledge of it has ended."""
    holder, depth, drawn_last = start
    for event in later:
        what = event.what
        if what == _JUGGLER:
            return None
        if holder == _IN_PILE:
            if _from_pile(event):
                if depth == 0:
                    holder, drawn_last = event.target, True
                else:
                    depth -= 1
            elif what == _TRAPPER and event.result != NO_EFFECT:
                return None
        elif holder == _ASIDE:
            holder, drawn_last = _from_aside(event, holder, drawn_last)
        else:
            moved = _in_hand(event, holder, drawn_last, rng)
            if moved is None:
                return None
            holder, drawn_last = moved
    return holder, depth, drawn_last


def _from_aside(event: Event, holder: int, drawn_last: bool) -> tuple[int, bool]:
    """The set-aside card's holder after ``event``: a seat that draws it or swaps for it."""
    what = event.what
    if what == DRAW and event.result == FROM_ASIDE:
        return event.target, True
    if what == GRAVE_CHOICE and event.result == SWAPPED:
        return event.actor, False
    return holder, drawn_last


def _in_hand(
    event: Event, holder: int, drawn_last: bool, rng: np.random.Generator
) -> tuple[int, bool] | None:
    """A hand card's holder after ``event``, or ``None`` once the card may have left
    (revealed, eliminated, or played: a fair coin for each play of its holder)."""
    what = event.what
    if what == ELIMINATED and event.target == holder:
        return None
    if what == _SNAKE and event.target == holder:
        return None
    if what == TURN_DRAW and event.target == holder:
        return holder, False  # the card is now the older of two
    if PLAYED <= what < PLAYED + NUM_VALUES and event.actor == holder:
        # The holder played one of its two cards: it may have been this one.
        drawn_last = False
        if rng.random() < 0.5:
            return None
    if what == GRAVE_CHOICE and event.actor == holder and event.result == SWAPPED:
        return _ASIDE, drawn_last
    if what in _SWAPS and event.result == SWAPPED and holder in (event.actor, event.target):
        return (event.target if holder == event.actor else event.actor), drawn_last
    return holder, drawn_last


def _from_pile(event: Event) -> bool:
    """Whether ``event`` is a draw of the pile's top card: the draw that starts a
    turn, or any other draw but that of the set-aside card."""
    what = event.what
    return what == TURN_DRAW or (what == DRAW and event.result != FROM_ASIDE)
