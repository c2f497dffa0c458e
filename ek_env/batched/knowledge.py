"""What each seat learns as cards move, on one row of the batched engine, as
:mod:`ek_env.engine.knowledge` keeps it.

- ``known_deck``: per seat, the kind at each depth of the draw pile (0 = top) it has
  seen or placed, -1 where it does not know, ``KNOWN_DECK_LEN[seat]`` depths long
  (the reference's list per seat, in a run of ``DECK_ROOM`` columns).
- ``known_hands``: per observer and other seat, lower bounds on the count of each
  kind in that seat's hand, at ``KNOWN_HANDS + (observer * n + other) * kinds``.
- ``ruled_out``: per seat and kind, the table knows the seat holds none, at
  ``RULED_OUT + seat * kinds``.

Every function takes the row's ``small`` array ``s`` and the option vector ``opts``
(the number of seats and of kinds), then ``int64`` seats, kinds and counts.
"""

from __future__ import annotations

from typing import Any

from cardgym.vector._numba import njit
from ek_env.batched.layout import (
    BLIND,
    DECK,
    DECK_LEN,
    DECK_ROOM,
    KITTEN_KIND,
    KNOWN_DECK,
    KNOWN_DECK_LEN,
    KNOWN_HANDS,
    OPT_KINDS,
    OPT_PLAYERS,
    RULED_OUT,
)

# ------------------------------------------------------------------ known hands


@njit
def left_publicly(s: Any, opts: Any, seat: Any, card: Any, count: Any) -> None:
    """``count`` cards of ``card`` left ``seat``'s hand face up: every bound drops
    (the seat's own, while blind, too)."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    for observer in range(n):
        index = KNOWN_HANDS + (observer * n + seat) * kinds + card
        if s[index]:
            s[index] = max(0, s[index] - count)


@njit
def arrived_publicly(s: Any, opts: Any, receiver: Any, card: Any) -> None:
    """Everyone saw a ``card`` enter ``receiver``'s hand; the receiver too, if blind."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    blind = s[BLIND + receiver]
    for observer in range(n):
        if observer != receiver or blind:
            s[KNOWN_HANDS + (observer * n + receiver) * kinds + card] += 1


@njit
def moved_privately(s: Any, opts: Any, giver: Any, receiver: Any, card: Any) -> None:
    """A card moved between two hands, seen by both sides only (Favor, steals)."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    index = KNOWN_HANDS + (receiver * n + giver) * kinds + card
    if s[index]:
        s[index] -= 1
    s[KNOWN_HANDS + (giver * n + receiver) * kinds + card] += 1
    if s[BLIND + giver]:
        index = KNOWN_HANDS + (giver * n + giver) * kinds + card
        if s[index]:
            s[index] -= 1
    if s[BLIND + receiver]:
        s[KNOWN_HANDS + (receiver * n + receiver) * kinds + card] += 1
    for observer in range(n):
        if observer != giver and observer != receiver:
            forget_hand(s, opts, observer, giver)


@njit
def forget_hand(s: Any, opts: Any, observer: Any, other: Any) -> None:
    """``observer`` knows nothing more of ``other``'s hand."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    start = KNOWN_HANDS + (observer * n + other) * kinds
    for k in range(kinds):
        s[start + k] = 0


@njit
def hand_emptied(s: Any, opts: Any, seat: Any) -> None:
    """``seat`` lost its whole hand (elimination): nothing is left to know about it."""
    for observer in range(opts[OPT_PLAYERS]):
        forget_hand(s, opts, observer, seat)
    gained_unseen(s, opts, seat)


# ------------------------------------------------------------------ known depths


@njit
def top_drawn(s: Any, opts: Any, drawer: Any, card: Any, kept: Any) -> None:
    """The top card was drawn by ``drawer``: known depths shift up; whoever knew the
    top card now knows it is in the drawer's hand (a kitten is shown, unless
    ``kept`` in secret thanks to a Streaking Kitten)."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    for observer in range(n):
        length = s[KNOWN_DECK_LEN + observer]
        if not length:
            continue
        base = KNOWN_DECK + DECK_ROOM * observer
        seen = s[base]
        for depth in range(length - 1):
            s[base + depth] = s[base + depth + 1]
        s[KNOWN_DECK_LEN + observer] = length - 1
        if seen >= 0 and observer != drawer and (card != KITTEN_KIND or kept):
            s[KNOWN_HANDS + (observer * n + drawer) * kinds + card] += 1


@njit
def deck_shuffled(s: Any, opts: Any) -> None:
    """Nobody knows any depth of the draw pile any more."""
    for observer in range(opts[OPT_PLAYERS]):
        s[KNOWN_DECK_LEN + observer] = 0


@njit
def inserted(s: Any, opts: Any, seat: Any, card: Any, depth: Any) -> None:
    """``seat`` put ``card`` at ``depth`` in secret: it knows where; for everyone else
    every known depth may have moved."""
    for observer in range(opts[OPT_PLAYERS]):
        if observer != seat:
            s[KNOWN_DECK_LEN + observer] = 0
            continue
        base = KNOWN_DECK + DECK_ROOM * observer
        length = s[KNOWN_DECK_LEN + observer]
        for k in range(length, depth):
            s[base + k] = -1
        length = max(length, depth)
        for k in range(length, depth, -1):
            s[base + k] = s[base + k - 1]
        s[base + depth] = card
        s[KNOWN_DECK_LEN + observer] = length + 1


@njit
def saw_top(s: Any, seat: Any, count: Any) -> None:
    """``seat`` looked at the top ``count`` cards (no more than the pile holds)."""
    size = s[DECK_LEN]
    count = min(count, size)
    base = KNOWN_DECK + DECK_ROOM * seat
    length = s[KNOWN_DECK_LEN + seat]
    if length < count:
        s[KNOWN_DECK_LEN + seat] = count
    for depth in range(count):
        s[base + depth] = s[DECK + size - 1 - depth]


# ------------------------------------------------------------------ ruled out


@njit
def ruled_out(s: Any, opts: Any, seat: Any, card: Any) -> None:
    """Everyone saw ``seat`` fail to hand over ``card`` (three of a kind missed)."""
    s[RULED_OUT + seat * opts[OPT_KINDS] + card] = 1


@njit
def gained_unseen(s: Any, opts: Any, seat: Any) -> None:
    """A card the table did not see entered ``seat``'s hand: nothing is ruled out for
    it any more."""
    kinds = opts[OPT_KINDS]
    start = RULED_OUT + seat * kinds
    for k in range(kinds):
        s[start + k] = 0


@njit
def gained_seen(s: Any, opts: Any, seat: Any, card: Any) -> None:
    """A ``card`` the table saw entered ``seat``'s hand."""
    s[RULED_OUT + seat * opts[OPT_KINDS] + card] = 0


# ------------------------------------------------------------------ the expansion's


@njit
def left_unseen(s: Any, opts: Any, seat: Any, card: Any) -> None:
    """``seat`` put ``card`` from its hand into the draw pile in secret (Garbage
    Collection): only it knows which card left."""
    n, kinds = opts[OPT_PLAYERS], opts[OPT_KINDS]
    index = KNOWN_HANDS + (seat * n + seat) * kinds + card
    if s[index]:
        s[index] -= 1
    for observer in range(n):
        if observer != seat:
            forget_hand(s, opts, observer, seat)


@njit
def everyone_sees_top(s: Any, opts: Any, card: Any, count: Any) -> None:
    """Everyone knows the top ``count`` cards are ``card`` (Catomic Bomb's kittens);
    the pile was just shuffled, so nothing else is known."""
    for observer in range(opts[OPT_PLAYERS]):
        base = KNOWN_DECK + DECK_ROOM * observer
        for depth in range(count):
            s[base + depth] = card
        s[KNOWN_DECK_LEN + observer] = count


@njit
def swapped_ends(s: Any, opts: Any) -> None:
    """The top and bottom cards swapped places unseen: known depths move with them."""
    size = s[DECK_LEN]
    for observer in range(opts[OPT_PLAYERS]):
        length = s[KNOWN_DECK_LEN + observer]
        if not length:
            continue
        base = KNOWN_DECK + DECK_ROOM * observer
        for depth in range(length, size):
            s[base + depth] = -1
        length = max(length, size)
        top = s[base]
        s[base] = s[base + length - 1]
        s[base + length - 1] = top
        while length and s[base + length - 1] < 0:
            length -= 1
        s[KNOWN_DECK_LEN + observer] = length


@njit
def lifted_top(s: Any, opts: Any, count: Any) -> None:
    """The top ``count`` cards came off the draw pile (Alter the Future): known depths
    move up by ``count``."""
    for observer in range(opts[OPT_PLAYERS]):
        length = s[KNOWN_DECK_LEN + observer]
        lifted = min(count, length)
        base = KNOWN_DECK + DECK_ROOM * observer
        for depth in range(length - lifted):
            s[base + depth] = s[base + depth + lifted]
        s[KNOWN_DECK_LEN + observer] = length - lifted


@njit
def altered(s: Any, opts: Any, seat: Any, placed: Any, count: Any) -> None:
    """``seat`` put the ``count`` cards of ``placed`` (top first) back on the draw
    pile in its order (Alter the Future): it knows them; nobody else knows which card
    is where among them."""
    for observer in range(opts[OPT_PLAYERS]):
        length = s[KNOWN_DECK_LEN + observer]
        if observer != seat and not length:
            continue
        base = KNOWN_DECK + DECK_ROOM * observer
        for depth in range(length - 1, -1, -1):
            s[base + depth + count] = s[base + depth]
        for depth in range(count):
            s[base + depth] = placed[depth] if observer == seat else -1
        s[KNOWN_DECK_LEN + observer] = length + count
