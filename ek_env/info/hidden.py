"""Resampling what one seat cannot see: a state it cannot tell apart from the true one.

Used by the leak tests and by search agents (determinisation). Every card whose place
the seat does not know is dealt anew; the deal depends only on the seat's
information and the generator, never on where the hidden cards really are.

The other seats' knowledge is rebuilt in the sample from what the resampling seat may
know of it, never copied from the true state (docs/rules/README.md; issue 16): where another
seat put a kitten back, which card it gave or was given, and which cards it saw are
its secrets. What the sample credits each other seat with:

- of the draw pile: the depths the public record shows it knows
  (:mod:`ek_env.info.public_depths`), with the sample's cards there. How many cards a
  seat saw, and every draw, shuffle and swap since, are public; where it put a kitten
  back is not, so the sample draws that depth anew and follows it on: whether the
  seat still knows it once a kitten is drawn that may be that one, or how many
  depths it knows after seeing the top, never comes from the true state;
- of a third seat's hand: what the resampling seat knows of it (its own lower bounds,
  true of the sample by construction), and nothing private to the two of them;
- of the resampling seat's hand: its true lower bounds, which the resampling seat can
  retrace (public moves, cards moved between the two of them, cards it drew from a
  depth that seat had seen), less the Exploding Kittens (that seat knows one only if it
  saw it drawn from a place it knew, which may be a secret put-back) and within what
  the resampling seat knows it holds (while blind);
- of its own hand while blind: nothing beyond its marked cards.
"""

from __future__ import annotations

import numpy as np

from cardgym.record import blank_unseen
from ek_env.engine.cards import DEFUSE, KITTEN, STREAKING
from ek_env.engine.state import ALTER, NOBODY, UNKNOWN, State
from ek_env.info.public_depths import Depths, known_depths

# Slot kinds: a card may go to a pile slot (draw pile, cards being reordered, cards
# put in by Garbage Collection), a hand, or the box (cards the fast option removed).
_PILE, _HAND, _BOX = 0, 1, 2


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state``.

    Hidden cards are: draw-pile depths the seat has not seen or placed; every other
    hand beyond what the seat knows of it (its lower bounds and the marked cards);
    the seat's own hand beyond what it knows while blind; with the Streaking Kittens
    expansion, the cards another seat is reordering (Alter the Future), cards other
    seats put in during Garbage Collection, and the cards the ``fast`` option left in
    the box. They are dealt anew at random: Exploding Kittens to pile slots (a hand
    keeps a kitten only where the seat knows of it; the Streaking Kitten goes along
    with it), Defuses never to the box, no card to a hand the table has ruled its
    kind out of (``ruled_out``). Other seats' knowledge is rebuilt from what
    ``seat`` may know of it (see the module docstring): the sample is a function of
    ``seat``'s information and ``rng`` alone.

    Raises:
        ValueError: no deal of the hidden cards is consistent with what ``seat``
            knows (a state no game reaches, e.g. an Exploding Kitten placed in a hand
            by hand where no rule allows it); the true state is never returned
            instead, since that would show ``seat`` the hidden cards.
    """
    other = state.clone()
    slots: list[tuple[int, int]] = []  # (slot kind, where)
    pool: list[int] = []
    _lift_pile(other, seat, slots, pool)
    needs_streaking = _lift_hands(other, seat, slots, pool)
    if other.config.fast:
        _lift_box(other, slots, pool)
    if needs_streaking != NOBODY:  # a known held kitten keeps its Streaking Kitten
        index = next(i for i, s in enumerate(slots) if s == (_HAND, needs_streaking))
        slots.pop(index)
        pool.remove(STREAKING)
        other.hands[needs_streaking][STREAKING] += 1
    if not _deal(other, slots, pool, rng):
        raise ValueError(
            f"no deal of the {len(pool)} cards hidden from seat {seat} fits what it "
            f"knows ({pool.count(KITTEN)} Exploding Kitten(s) for "
            f"{sum(kind == _PILE for kind, _ in slots)} unseen draw-pile place(s), "
            f"{pool.count(DEFUSE)} Defuse(s)); is this state one the rules can reach?")
    _rebuild(other, seat, known_depths(state, seat, rng))
    other.log = blank_unseen(other.log, seat)
    return other


def _lift_pile(state: State, seat: int, slots: list[tuple[int, int]], pool: list[int]) -> None:
    """The pile slots hidden from ``seat``: the depths it does not know, the cards
    another seat is reordering, and the cards other seats put in for Garbage
    Collection. Their cards go to ``pool``."""
    deck = state.deck
    size = len(deck)
    known = state.known_deck[seat]
    for depth in range(size):
        if depth >= len(known) or known[depth] == UNKNOWN:
            index = size - 1 - depth
            slots.append((_PILE, index))
            pool.append(deck[index])
    if state.phase == ALTER and state.turn_holder != seat:
        cards = state.alter_placed + state.alter_left
        for position, card in enumerate(cards):
            slots.append((_PILE, -1 - position))
            pool.append(card)
    for position, (giver, card) in enumerate(zip(state.garbage_from, state.garbage_in,
                                                  strict=True)):
        if giver != seat:
            slots.append((_PILE, -100 - position))
            pool.append(card)


def _lift_hands(state: State, seat: int, slots: list[tuple[int, int]], pool: list[int]) -> int:
    """Take out of each hand the cards ``seat`` does not know there (its own too while
    blind), into ``pool``. Returns the seat whose known held kitten needs its
    Streaking Kitten back, or NOBODY."""
    n = state.num_players
    kinds = state.kinds
    needs_streaking = NOBODY
    for holder in range(n):
        if holder == seat and not state.blind[seat]:
            continue
        hand = state.hands[holder]
        start = (seat * n + holder) * kinds
        marks = state.marked[holder]
        exploding = holder in state.explode_queue  # announced: its kitten explodes next
        for card in range(kinds):
            fixed = max(state.known_hands[start + card], marks[card])
            if card == KITTEN and exploding:
                fixed = max(fixed, 1)
            free = hand[card] - fixed
            if free > 0:
                pool += [card] * free
                slots += [(_HAND, holder)] * free
                hand[card] = fixed
        if kinds > STREAKING and hand[KITTEN] and not hand[STREAKING] and not exploding:
            needs_streaking = holder
    return needs_streaking


def _lift_box(state: State, slots: list[tuple[int, int]], pool: list[int]) -> None:
    """The cards the ``fast`` option left in the box, but kittens and Defuses."""
    box = state.box
    for card in range(state.kinds):
        if card not in (KITTEN, DEFUSE) and box[card]:
            pool += [card] * box[card]
            slots += [(_BOX, card)] * box[card]
            box[card] = 0


def _deal(state: State, slots: list[tuple[int, int]], pool: list[int],
          rng: np.random.Generator) -> bool:
    """Deal ``pool`` into ``slots``: kittens to pile slots, Defuses anywhere but the
    box, the rest anywhere; never a kind the table has ruled out of a hand (a three
    of a kind that missed, ``state.ruled_out``). Returns False if no deal fits."""
    kittens = pool.count(KITTEN)
    defuses = pool.count(DEFUSE)
    # Sorted before the shuffle: the deal depends on the counts and the generator only.
    rest = sorted(card for card in pool if card not in (KITTEN, DEFUSE))
    piles = [i for i, (kind, _) in enumerate(slots) if kind == _PILE]
    cards: list[int] = [-1] * len(slots)
    barred = _barred(state, slots)
    if kittens > len(piles) and not _hold_kitten(state, slots, cards, rest, rng, barred):
        return False
    if kittens - cards.count(KITTEN) > len(piles):
        return False
    rng.shuffle(piles)
    for i in piles[: kittens - cards.count(KITTEN)]:
        cards[i] = KITTEN
    if not _deal_defuses(slots, cards, barred, defuses, rng):
        return False
    if not _deal_barred(slots, cards, barred, rest, rng):
        return False
    rng.shuffle(rest)
    for i in range(len(slots)):
        if cards[i] < 0:
            cards[i] = rest.pop()
    _write(state, slots, cards)
    return True


def _deal_defuses(slots: list[tuple[int, int]], cards: list[int], barred: dict[int, bytearray],
                  defuses: int, rng: np.random.Generator) -> bool:
    """The Defuses go to open slots but the box's and the hands they are ruled out
    of. Returns False if they do not fit."""
    open_for_defuse = [i for i, (kind, where) in enumerate(slots)
                       if kind != _BOX and cards[i] < 0
                       and not (kind == _HAND and where in barred and barred[where][DEFUSE])]
    if defuses > len(open_for_defuse):
        return False
    rng.shuffle(open_for_defuse)
    for i in open_for_defuse[:defuses]:
        cards[i] = DEFUSE
    return True


def _deal_barred(slots: list[tuple[int, int]], cards: list[int], barred: dict[int, bytearray],
                 rest: list[int], rng: np.random.Generator) -> bool:
    """The hands with ruled-out kinds are filled first, from the cards of ``rest``
    they may hold. Returns False if one cannot be."""
    for holder, ruled in barred.items():
        places = [i for i, slot in enumerate(slots) if slot == (_HAND, holder) and cards[i] < 0]
        if not places:
            continue
        allowed = [at for at, card in enumerate(rest) if not ruled[card]]
        if len(allowed) < len(places):
            return False
        chosen = sorted((allowed[k] for k in rng.choice(len(allowed), len(places),
                                                         replace=False)), reverse=True)
        for i, at in zip(places, chosen, strict=True):
            cards[i] = rest.pop(at)
    return True


def _write(state: State, slots: list[tuple[int, int]], cards: list[int]) -> None:
    """Put the dealt ``cards`` into their ``slots`` of the state."""
    deck = state.deck
    alter = state.alter_placed + state.alter_left
    for (kind, where), card in zip(slots, cards, strict=True):
        if kind == _HAND:
            state.hands[where][card] += 1
        elif kind == _BOX:
            state.box[card] += 1
        elif where >= 0:
            deck[where] = card
        elif where > -100:
            alter[-1 - where] = card
        else:
            state.garbage_in[-100 - where] = card
    placed = len(state.alter_placed)
    state.alter_placed = alter[:placed]
    state.alter_left = sorted(alter[placed:])


def _barred(state: State, slots: list[tuple[int, int]]) -> dict[int, bytearray]:
    """The kinds ruled out of each hand that has hidden cards to deal (only the hands
    with some), in seat order."""
    ruled = state.ruled_out
    if 1 not in ruled:
        return {}
    kinds = state.kinds
    barred = {}
    for holder in sorted({where for kind, where in slots if kind == _HAND}):
        row = ruled[holder * kinds : (holder + 1) * kinds]
        if 1 in row:
            barred[holder] = row
    return barred


def _hold_kitten(state: State, slots: list[tuple[int, int]], cards: list[int],
                 rest: list[int], rng: np.random.Generator,
                 barred: dict[int, bytearray]) -> bool:
    """More hidden kittens than pile slots: one is held with the Streaking Kitten, in
    a hand drawn at random among those that can take it. Returns False if none can."""
    if state.kinds <= STREAKING:  # the base game: no hand ever holds a kitten
        return False
    free: dict[int, list[int]] = {}
    for i, (kind, holder) in enumerate(slots):
        if kind == _HAND:
            free.setdefault(holder, []).append(i)
    if STREAKING in rest:
        holders = sorted(h for h, idx in free.items() if len(idx) >= 2
                         and not (h in barred and (barred[h][KITTEN] or barred[h][STREAKING])))
    else:
        holders = sorted(h for h, idx in free.items()
                         if state.hands[h][STREAKING] and not state.hands[h][KITTEN]
                         and not (h in barred and barred[h][KITTEN]))
    if not holders:
        return False
    holder = holders[int(rng.integers(len(holders)))]
    cards[free[holder][0]] = KITTEN
    if STREAKING in rest:
        rest.remove(STREAKING)
        cards[free[holder][1]] = STREAKING
    return True


def _rebuild(state: State, seat: int, depths: Depths) -> None:
    """Rebuild every other seat's knowledge from ``seat``'s (see the module
    docstring) and make the derived fields true of the new deal. ``depths``: the
    draw-pile depths each seat knows as the public record tells it."""
    n = state.num_players
    kinds = state.kinds
    width = n * kinds
    known = state.known_hands
    mine = known[seat * width : (seat + 1) * width]
    # What the others may be credited with knowing of my hand: what I know I hold.
    if state.blind[seat]:
        start = seat * width + seat * kinds
        ceiling = [max(a, b) for a, b in zip(known[start : start + kinds], state.marked[seat],
                                              strict=True)]
    else:
        ceiling = state.hands[seat][:]
    ceiling[KITTEN] = 0
    mine_at = seat * kinds
    top_first = state.deck[::-1]
    rebuilt = bytearray()
    for observer in range(n):
        if observer == seat:
            rebuilt += mine
            continue
        block = bytearray(mine)
        block[observer * kinds : (observer + 1) * kinds] = bytes(kinds)
        at = observer * width + mine_at
        block[mine_at : mine_at + kinds] = bytes(
            map(min, known[at : at + kinds], ceiling))
        rebuilt += block
        state.known_deck[observer] = [top_first[depth] if known else UNKNOWN
                                      for depth, known in enumerate(depths[observer])]
    state.known_hands = rebuilt
    if state.garbage_lost or state.garbage_in:
        state.garbage_lost = [
            giver for giver, card in zip(state.garbage_from, state.garbage_in, strict=True)
            if card == STREAKING and state.hands[giver][KITTEN]
        ]
