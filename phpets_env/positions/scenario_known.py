"""What each seat knows, by place, as a scenario's ``known`` key writes it (read and written).

The state keeps knowledge as bits over card ids (``State.known``, ``trapped``,
``deck_watchers``); a scenario names values, not ids, so it says *where* each known
card lies: the knowledge survives whichever copy of a value the loader gives an id.
One seat's entry is a mapping (see :mod:`phpets_env.positions.scenario`)::

    {"hands": [[], ["king_cat"], [None, "crystal_bowl"]],   # per seat, its hand in order
     "aside": "grave_digger", "pending": "mouse_trapper",     # the face-down cards
     "deck": [[0, "battle_bunny"]],                            # [depth, card], 0 = top
     "trapped": [["deck", 0]],        # places known only through its own Mouse Trapper
     "watches_deck": True}            # it may know a pile depth (Mouse Trapper)

Places: ``["hands", seat, index]``, ``["deck", depth]``, ``["aside"]``, ``["pending"]``.
The card readers that every scenario key uses live here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardgym.errors import ScenarioError, shorten
from cardgym.scenario import is_list, read_card, read_cards
from phpets_env.engine.cards import CARD_NAMES, CARD_VALUES, parse_card
from phpets_env.engine.state import GRAVE_DIGGER, MOUSE_TRAPPER, NO_CARD, State
from phpets_env.positions.scenario_setup import Knowledge, Place, Setup

#: The kinds of one seat's knowledge, in the order they are written.
KINDS = ("hands", "aside", "pending", "deck", "trapped", "watches_deck")

# ------------------------------------------------------------------ card readers


def card(value: object, where: str) -> int:
    """A card value from a value, a ``Card`` or a name (ScenarioError naming ``where``)."""
    return read_card(value, where, parse_card)


def cards(value: object, where: str) -> list[int]:
    """A list of card values."""
    return read_cards(value, where, parse_card)


def _index(value: object, where: str, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < top:
        raise ScenarioError(f"{where} must be 0..{top - 1}, got {shorten(value)}")
    return int(value)


# ------------------------------------------------------------------ reading


def read_known(raw: object, setup: Setup) -> list[Knowledge]:
    """Each seat's knowledge (``raw`` None: the default), checked against the cards
    where the scenario puts them.

    Raises:
        ScenarioError: naming ``known[seat]`` and what is wrong.
    """
    n = len(setup.sizes)
    if raw is None:
        return [_read_seat({}, seat, setup) for seat in range(n)]
    if not is_list(raw) or len(raw) != n:
        raise ScenarioError(f"'known' must give a mapping of {', '.join(KINDS)} for each of "
                            f"the {n} seats, got {shorten(raw)}")
    return [_read_seat(entry, seat, setup) for seat, entry in enumerate(raw)]


def _read_seat(entry: object, seat: int, setup: Setup) -> Knowledge:
    where = f"known[{seat}]"
    if entry is None:
        entry = {}
    if not isinstance(entry, Mapping):
        raise ScenarioError(f"{where} must be a mapping with keys among {', '.join(KINDS)}, "
                            f"got {shorten(entry)}")
    unknown = sorted(set(entry) - set(KINDS), key=str)
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {unknown}; allowed: {', '.join(KINDS)}")
    hands = _known_hands(entry.get("hands"), where, setup)
    hands[seat] = frozenset(range(setup.sizes[seat]))  # a seat knows its own hand
    acting = setup.to_act == seat
    aside = _known_card(entry.get("aside"), f"{where}.aside", setup.aside, "set_aside")
    aside = aside or (acting and setup.phase == GRAVE_DIGGER)
    pending = _known_card(entry.get("pending"), f"{where}.pending", setup.pending, "pending")
    pending = pending or (acting and setup.phase == MOUSE_TRAPPER)
    deck = _known_deck(entry.get("deck", []), f"{where}.deck", setup)
    places: set[Place] = {("hands", t, i) for t, known in enumerate(hands) for i in known}
    places |= {("deck", depth) for depth in deck}
    places |= {(name,) for name, held in (("aside", aside), ("pending", pending)) if held}
    trapped = _trapped(entry.get("trapped"), f"{where}.trapped", deck, places)
    watches = entry.get("watches_deck", bool(deck) or (acting and setup.phase == MOUSE_TRAPPER))
    if not isinstance(watches, (bool, np.bool_)):
        raise ScenarioError(f"{where}.watches_deck must be true or false, got {shorten(watches)}")
    return Knowledge(tuple(hands), aside, pending, frozenset(deck), trapped, bool(watches))


def _known_hands(raw: object, where: str, setup: Setup) -> list[frozenset[int]]:
    n = len(setup.sizes)
    if raw is None:
        return [frozenset()] * n
    if not is_list(raw) or len(raw) != n:
        raise ScenarioError(f"{where}.hands must give, for each of the {n} seats, [] or its "
                            f"hand with None for each card not known; got {shorten(raw)}")
    known = []
    for other, hand in enumerate(raw):
        spot = f"{where}.hands[{other}]"
        if not is_list(hand):
            raise ScenarioError(f"{spot} must be a list (its hand, None where unknown), got "
                                f"{shorten(hand)}")
        hand = list(hand)
        if hand and len(hand) != setup.sizes[other]:
            raise ScenarioError(f"{spot} must be [] or list every card of seat {other}'s hand "
                                f"({setup.sizes[other]}), None where unknown; got {shorten(hand)}")
        indices = {i for i, item in enumerate(hand) if item is not None}
        for i in indices:
            value = card(hand[i], f"{spot}[{i}]")
            if setup.hands is None:
                raise ScenarioError(f"{spot}: the hands are dealt at random (no 'hands'), so "
                                    "no card of them can be known")
            if setup.hands[other][i] != value:
                raise ScenarioError(f"{spot}[{i}] is {CARD_NAMES[value]}, but hands[{other}]"
                                    f"[{i}] is {CARD_NAMES[setup.hands[other][i]]}")
        known.append(frozenset(indices))
    return known


def _known_card(raw: object, where: str, actual: int | None, key: str) -> bool:
    """Whether the seat knows the card of a one-card place (``raw``: None, or the card)."""
    if raw is None:
        return False
    value = card(raw, where)
    if actual is None:
        raise ScenarioError(f"{where}: '{key}' does not name that card, so it cannot be known")
    if value != actual:
        raise ScenarioError(f"{where} is {CARD_NAMES[value]}, but {key} is {CARD_NAMES[actual]}")
    return True


def _known_deck(raw: object, where: str, setup: Setup) -> set[int]:
    top = setup.deck_top
    if not is_list(raw):
        raise ScenarioError(f"{where} must be a list of [depth, card] pairs, got {shorten(raw)}")
    depths: set[int] = set()
    for i, pair in enumerate(raw):
        if not is_list(pair) or len(pair) != 2:
            raise ScenarioError(f"{where}[{i}] must be a [depth, card] pair, got {shorten(pair)}")
        if not top:
            raise ScenarioError(f"{where}: the pile names no cards ('deck' or 'deck_top'), so "
                                "no depth of it can be known")
        depth = _index(pair[0], f"{where}[{i}] depth (in the named pile)", len(top))
        value = card(pair[1], f"{where}[{i}]")
        if top[depth] != value or depth in depths:
            raise ScenarioError(f"{where}[{i}]: depth {depth} holds {CARD_NAMES[top[depth]]}, "
                                f"named once; got {CARD_NAMES[value]}")
        depths.add(depth)
    return depths


def _trapped(raw: object, where: str, deck: set[int], places: set[Place]) -> frozenset[Place]:
    """The places known only through the seat's own Mouse Trapper (default: its pile
    depths), each among the places it knows."""
    if raw is None:
        return frozenset(("deck", depth) for depth in deck)
    if not is_list(raw):
        raise ScenarioError(f"{where} must be a list of places, got {shorten(raw)}")
    trapped = set()
    for i, item in enumerate(raw):
        place = tuple(item) if is_list(item) else (item,)
        if place not in places:
            raise ScenarioError(
                f"{where}[{i}] must be a place the seat knows (['hands', seat, index], "
                f"['deck', depth], ['aside'], ['pending']); known: {sorted(places, key=str)}; "
                f"got {shorten(item)}")
        trapped.add(place)
    return frozenset(trapped)


def set_known(state: State, knowledge: list[Knowledge]) -> None:
    """Write each seat's knowledge into ``state`` as bits over its card ids."""
    deck = state.deck
    places: dict[Place, int] = {("hands", t, i): c for t, hand in enumerate(state.hands)
                                for i, c in enumerate(hand)}
    places.update({("deck", len(deck) - 1 - i): c for i, c in enumerate(deck)})
    places.update({(name,): c for name, c in (("aside", state.aside),
                                               ("pending", state.pending)) if c != NO_CARD})
    state.known, state.trapped, state.deck_watchers = [], [], 0
    for seat, seat_knows in enumerate(knowledge):
        known: list[Place] = [("hands", t, i) for t, indices in enumerate(seat_knows.hands)
                              for i in indices]
        known += [("deck", depth) for depth in seat_knows.deck]
        known += [(name,) for name, held in (("aside", seat_knows.aside),
                                             ("pending", seat_knows.pending)) if held]
        state.known.append(_bits(places[place] for place in known))
        state.trapped.append(_bits(places[place] for place in seat_knows.trapped))
        state.deck_watchers |= seat_knows.watches_deck << seat


def _bits(ids: Any) -> int:
    mask = 0
    for card_id in ids:
        mask |= 1 << card_id
    return mask


# ------------------------------------------------------------------ writing


def write_known(state: State, seat: int) -> dict[str, Any]:
    """``seat``'s knowledge as a ``known`` entry: ``hands`` always, the other kinds
    where they differ from their defaults."""
    known, trapped = state.known[seat], state.trapped[seat]
    entry: dict[str, Any] = {"hands": [
        [CARD_NAMES[CARD_VALUES[c]] if known >> c & 1 else None for c in hand]
        if any(known >> c & 1 for c in hand) else [] for hand in state.hands]}
    places: list[list[Any]] = [["hands", t, i] for t, hand in enumerate(state.hands)
                               for i, c in enumerate(hand) if trapped >> c & 1]
    for name in ("aside", "pending"):
        c = getattr(state, name)
        if c != NO_CARD and known >> c & 1:
            entry[name] = CARD_NAMES[CARD_VALUES[c]]
            if trapped >> c & 1:
                places.append([name])
    top = len(state.deck) - 1
    deck = [[top - i, c] for i, c in enumerate(state.deck) if known >> c & 1][::-1]
    if deck:
        entry["deck"] = [[depth, CARD_NAMES[CARD_VALUES[c]]] for depth, c in deck]
    places += [["deck", depth] for depth, c in deck if trapped >> c & 1]
    if places or deck:
        entry["trapped"] = places
    watches = bool(state.deck_watchers >> seat & 1)
    if watches or deck:
        entry["watches_deck"] = watches
    return entry
