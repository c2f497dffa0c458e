"""What each seat learns as cards move (docs/rules/README.md), kept in the state.

Two kinds of knowledge:

- ``known_deck[seat]``: the kind at each depth of the draw pile (0 = top) the seat
  has seen (See the Future) or placed (its own Defuse insertion). A draw shifts it
  up by one; a shuffle, or another seat's secret insertion, makes it stale.
- ``known_hands``: for every observer and every other seat, a lower bound on the
  count of each kind in that seat's hand: cards seen moving into it (given,
  received, stolen, named in three of a kind, taken from the discard pile, drawn
  from a known top). A card leaving that hand publicly lowers the bound; a card
  leaving it unseen by the observer makes the whole row stale. The row of a seat
  about itself is used only while it is blind (Streaking Kittens): the cards it saw
  arrive (received on a Favor) and has not seen leave.
"""

from __future__ import annotations

from ek_env.engine.cards import KITTEN
from ek_env.engine.state import UNKNOWN, State


def row(state: State, observer: int, other: int) -> int:
    """Offset of the ``observer``'s lower bounds on ``other``'s hand in ``known_hands``."""
    return (observer * state.num_players + other) * state.kinds


def left_publicly(state: State, seat: int, card: int, count: int = 1) -> None:
    """``count`` cards of ``card`` left ``seat``'s hand face up: every bound drops
    (the seat's own, while blind, too)."""
    known = state.known_hands
    for observer in range(state.num_players):
        index = row(state, observer, seat) + card
        if known[index]:
            known[index] = max(0, known[index] - count)


def moved_publicly(state: State, giver: int, receiver: int, card: int) -> None:
    """A card everyone saw moved from ``giver`` to ``receiver`` (three of a kind)."""
    left_publicly(state, giver, card)
    arrived_publicly(state, receiver, card)


def arrived_publicly(state: State, receiver: int, card: int) -> None:
    """Everyone saw a ``card`` enter ``receiver``'s hand (taken from the discard pile,
    handed over in three of a kind); the receiver too, if blind."""
    known = state.known_hands
    blind = state.blind[receiver]
    for observer in range(state.num_players):
        if observer != receiver or blind:
            known[row(state, observer, receiver) + card] += 1


def moved_privately(state: State, giver: int, receiver: int, card: int) -> None:
    """A card moved between two hands, seen by both sides only (Favor, steals)."""
    known = state.known_hands
    index = row(state, receiver, giver) + card
    if known[index]:
        known[index] -= 1
    known[row(state, giver, receiver) + card] += 1
    if state.blind[giver]:
        index = row(state, giver, giver) + card
        if known[index]:
            known[index] -= 1
    if state.blind[receiver]:
        known[row(state, receiver, receiver) + card] += 1
    for observer in range(state.num_players):
        if observer != giver and observer != receiver:
            forget_hand(state, observer, giver)


def left_unseen(state: State, seat: int, card: int) -> None:
    """``seat`` put ``card`` from its hand into the draw pile in secret (Garbage
    Collection): only it knows which card left."""
    known = state.known_hands
    index = row(state, seat, seat) + card
    if known[index]:
        known[index] -= 1
    for observer in range(state.num_players):
        if observer != seat:
            forget_hand(state, observer, seat)


def forget_hand(state: State, observer: int, other: int) -> None:
    start = row(state, observer, other)
    kinds = state.kinds
    state.known_hands[start : start + kinds] = bytes(kinds)


def hand_emptied(state: State, seat: int) -> None:
    """``seat`` lost its whole hand (elimination): nothing is left to know about it."""
    for observer in range(state.num_players):
        forget_hand(state, observer, seat)
    gained_unseen(state, seat)


def top_drawn(state: State, drawer: int, card: int, kept: bool = False) -> None:
    """The top card was drawn by ``drawer``: known depths shift up; whoever knew the
    top card now knows it is in the drawer's hand (a kitten is shown, unless ``kept``
    in secret thanks to a Streaking Kitten)."""
    for observer, known in enumerate(state.known_deck):
        if known:
            seen = known.pop(0)
            if seen != UNKNOWN and observer != drawer and (card != KITTEN or kept):
                state.known_hands[row(state, observer, drawer) + card] += 1


def deck_shuffled(state: State) -> None:
    for known in state.known_deck:
        known.clear()


def inserted(state: State, seat: int, card: int, depth: int) -> None:
    """``seat`` put ``card`` at ``depth`` in secret: it knows where; for everyone else
    every known depth may have moved."""
    for observer, known in enumerate(state.known_deck):
        if observer == seat:
            if len(known) < depth:
                known.extend([UNKNOWN] * (depth - len(known)))
            known.insert(depth, card)
        else:
            known.clear()


def saw_top(state: State, seat: int, count: int) -> None:
    """``seat`` looked at the top ``count`` cards (See the Future)."""
    deck = state.deck
    count = min(count, len(deck))
    known = state.known_deck[seat]
    if len(known) < count:
        known.extend([UNKNOWN] * (count - len(known)))
    for depth in range(count):
        known[depth] = deck[-1 - depth]


def everyone_sees_top(state: State, card: int, count: int) -> None:
    """Everyone knows the top ``count`` cards are ``card`` (Catomic Bomb's kittens);
    the deck was just shuffled, so nothing else is known."""
    for known in state.known_deck:
        known[:] = [card] * count


def swapped_ends(state: State) -> None:
    """The top and bottom cards swapped places unseen: known depths move with them."""
    size = len(state.deck)
    for known in state.known_deck:
        if not known:
            continue
        if len(known) < size:
            known.extend([UNKNOWN] * (size - len(known)))
        known[0], known[-1] = known[-1], known[0]
        while known and known[-1] == UNKNOWN:
            known.pop()


def lifted_top(state: State, count: int) -> None:
    """The top ``count`` cards came off the draw pile (Alter the Future): known depths
    move up by ``count``."""
    for known in state.known_deck:
        del known[:count]


def altered(state: State, seat: int, placed: list[int]) -> None:
    """``seat`` put ``placed`` (top first) back on the draw pile in its order (Alter
    the Future): it knows them; nobody else knows which card is where among them."""
    count = len(placed)
    for observer, known in enumerate(state.known_deck):
        if observer == seat:
            known[:0] = placed
        elif known:
            known[:0] = [UNKNOWN] * count


def sight_changed(state: State, seat: int) -> None:
    """``seat`` went blind or saw again: what it remembered of its own hand while
    blind is no longer needed (blind: it forgot; seeing: it sees its hand)."""
    forget_hand(state, seat, seat)


# ------------------------------------------------ public negative knowledge


def ruled_out(state: State, seat: int, card: int) -> None:
    """Everyone saw ``seat`` fail to hand over ``card`` (three of a kind missed)."""
    state.ruled_out[seat * state.kinds + card] = 1


def gained_unseen(state: State, seat: int) -> None:
    """A card the table did not see entered ``seat``'s hand: it may be of any kind,
    so nothing is ruled out any more."""
    known = state.ruled_out
    if 1 in known:
        kinds = state.kinds
        known[seat * kinds : (seat + 1) * kinds] = bytes(kinds)


def gained_seen(state: State, seat: int, card: int) -> None:
    """A ``card`` the table saw entered ``seat``'s hand."""
    state.ruled_out[seat * state.kinds + card] = 0
