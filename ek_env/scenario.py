"""Scenarios: a chosen position to start from, for tests, tutorials and analysis.

A scenario is a mapping; cards are written by name (``"taco_cat"``, ``"See the
Future"``), by ``Card`` or by kind number:

- ``hands`` (required): one list of cards per seat (no Exploding Kittens; with the
  Streaking Kittens expansion a hand holding the Streaking Kitten may hold one).
- ``deck`` (required): the whole draw pile, top first, with exactly players - 1
  Exploding Kittens (with the expansion: any number, as long as the kittens in the
  deck and in hands are not more than the players); at most
  :data:`~ek_env.cards.MAX_DECK` (79) cards, the largest pile a game deals, or
  :data:`~ek_env.cards.MAX_DECK_STREAKING` (126) with the expansion (the layout's
  ``known_deck`` rows and ``insert:depth`` actions cover no more).
- ``discard``: cards already in the discard pile (default none).
- ``first_player``: the seat whose turn it is (default: random).
- ``owed_turns``: turns that player owes, the current one included (default 1).
- ``attacked``: whether those turns come from an Attack (default: ``owed_turns > 1``).
- ``blind`` (expansion only): the seats that are blind (default none).
- ``marked`` (expansion only): one list of cards per seat, its marked cards, each
  held in that seat's hand (default none).

Cards not named stay in the box. No kind may be named more often than the game
holds it (one deck, two from six players). Every error says what was wrong and
what is allowed; a failed scenario changes nothing.

This module checks a scenario and reads it into a :class:`Position`;
:func:`ek_env.setup.new_game` sets the table up from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardgym.errors import ScenarioError
from ek_env.cards import (
    CARD_BY_NAME,
    CARD_NAMES,
    KITTEN,
    MAX_DECK,
    MAX_DECK_STREAKING,
    NUM_KINDS,
    STREAKING,
    composition,
)
from ek_env.state import Config

KEYS = ("hands", "deck", "discard", "first_player", "owed_turns", "attacked")
STREAKING_KEYS = ("blind", "marked")


@dataclass(frozen=True)
class Position:
    """A checked scenario, cards as kinds.

    Attributes:
        hands: the cards of each seat.
        deck: the draw pile, top first.
        discard: the cards in the discard pile.
        box: count per kind of the cards not named (they stay in the box).
        first_player: the turn holder, or None for a random one.
        owed_turns, attacked: the turn holder's owed turns and whether they come from
            an Attack.
        blind: the blind seats (Streaking Kittens).
        marked: count per kind of each seat's marked cards (Streaking Kittens).
    """

    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    box: list[int]
    first_player: int | None
    owed_turns: int
    attacked: bool
    blind: list[int]
    marked: list[list[int]]


def parse_card(value: object, kinds: int = NUM_KINDS) -> int:
    """A card kind from a name, ``Card`` or kind number, among the first ``kinds``.

    Raises:
        ValueError: naming the value and the card names allowed.
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if 0 <= int(value) < kinds:
            return int(value)
    elif isinstance(value, str):
        key = value.strip().lower().replace(" ", "_").replace("-", "_")
        if CARD_BY_NAME.get(key, kinds) < kinds:
            return CARD_BY_NAME[key]
    raise ValueError(f"{value!r} is not a card of this game; cards: "
                     f"{', '.join(CARD_NAMES[:kinds])}")


def parse_scenario(config: Config, scenario: Mapping[str, Any]) -> Position:
    """Check a scenario (see the module docstring) and read it.

    Raises:
        ScenarioError: the first thing wrong with it, and what is allowed.
    """
    _check_keys(config, scenario)
    n = config.num_players
    kinds = config.num_kinds
    hands = _hands(config, scenario["hands"])
    deck = _deck(config, scenario["deck"], hands)
    discard = _cards(scenario.get("discard", []), "discard", kinds)
    used = _used(config, hands, deck, discard)
    first = scenario.get("first_player")
    first_seat = None if first is None else _seat_count(first, "first_player", 0, n - 1)
    owed = _seat_count(scenario.get("owed_turns", 1), "owed_turns", 1, 99)
    attacked = scenario.get("attacked", owed > 1)
    if not isinstance(attacked, bool):
        raise ScenarioError(f"attacked must be True or False, got {attacked!r}")
    blind = _blind_seats(scenario.get("blind", []), n)
    marked = _marked(scenario.get("marked"), hands, kinds)
    counts = composition(n, config.streaking)
    return Position(hands, deck, discard, [counts[card] - used[card] for card in range(kinds)],
                    first_seat, owed, attacked, blind, marked)


def _check_keys(config: Config, scenario: object) -> None:
    if not isinstance(scenario, Mapping):
        raise ScenarioError(f"a scenario must be a mapping with keys {KEYS}, got {scenario!r}")
    keys = KEYS + STREAKING_KEYS if config.streaking else KEYS
    unknown = sorted(str(key) for key in set(scenario) - set(keys))
    if unknown:
        raise ScenarioError(f"unknown scenario keys {unknown}; allowed: {', '.join(keys)}"
                            + ("" if config.streaking else
                               " (blind and marked need expansions=('streaking',))"))
    missing = [key for key in ("hands", "deck") if key not in scenario]
    if missing:
        raise ScenarioError(f"a scenario needs {' and '.join(missing)}; keys: {', '.join(KEYS)}")


def _cards(value: object, where: str, kinds: int) -> list[int]:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise ScenarioError(f"{where} must be a list of cards, got {value!r}")
    cards = []
    for i, item in enumerate(value):  # type: ignore[attr-defined]
        try:
            cards.append(parse_card(item, kinds))
        except ValueError as error:
            raise ScenarioError(f"{where}[{i}]: {error}") from None
    return cards


def _hands(config: Config, raw_hands: Any) -> list[list[int]]:
    """One hand per seat, without kittens (but one with a Streaking Kitten)."""
    n = config.num_players
    if (isinstance(raw_hands, (str, bytes)) or not hasattr(raw_hands, "__len__")
            or len(raw_hands) != n):
        raise ScenarioError(f"'hands' must list one hand (a list of cards) for each of the {n} seats")
    kinds = config.num_kinds
    hands = [_cards(hand, f"hands[{seat}]", kinds) for seat, hand in enumerate(raw_hands)]
    for seat, hand in enumerate(hands):
        held = hand.count(KITTEN)
        if held and not (config.streaking and held == 1 and STREAKING in hand):
            raise ScenarioError(
                f"hands[{seat}] holds {held} exploding_kitten; kittens start in the deck"
                + (" (a hand may hold one with the streaking_kitten)" if config.streaking else "")
            )
    return hands


def _deck(config: Config, raw_deck: object, hands: list[list[int]]) -> list[int]:
    """The draw pile, top first: within the layout's depth, with the kittens the
    rules allow."""
    n = config.num_players
    deck = _cards(raw_deck, "deck", config.num_kinds)
    max_deck = MAX_DECK_STREAKING if config.streaking else MAX_DECK
    if len(deck) > max_deck:
        raise ScenarioError(
            f"'deck' holds {len(deck)} cards; the draw pile holds at most {max_deck}"
            + (" with the Streaking Kittens expansion" if config.streaking else "")
            + " (the largest pile a game can reach, and the size of the observation's "
            "known_deck and of the insert:depth actions)"
        )
    held = sum(hand.count(KITTEN) for hand in hands)
    if config.streaking:
        if deck.count(KITTEN) + held > n:
            raise ScenarioError(
                f"the deck and hands hold {deck.count(KITTEN) + held} exploding_kitten cards; "
                f"at most one per player ({n})"
            )
    elif deck.count(KITTEN) != n - 1:
        raise ScenarioError(
            f"the deck must hold players - 1 = {n - 1} exploding_kitten cards, got {deck.count(KITTEN)}"
        )
    return deck


def _used(config: Config, hands: list[list[int]], deck: list[int],
          discard: list[int]) -> list[int]:
    """Count per kind of the cards named, each within what the game holds."""
    n = config.num_players
    kinds = config.num_kinds
    counts = composition(n, config.streaking)
    used = [0] * kinds
    for card in [c for hand in hands for c in hand] + deck + discard:
        used[card] += 1
    for card in range(kinds):
        if used[card] > counts[card]:
            raise ScenarioError(
                f"the scenario names {CARD_NAMES[card]} {used[card]} times; "
                f"the game with {n} players has {counts[card]}"
            )
    return used


def _seat_count(value: object, where: str, low: int, high: int) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not low <= value <= high:
        raise ScenarioError(f"{where} must be an integer {low}..{high}, got {value!r}")
    return int(value)


def _blind_seats(value: object, n: int) -> list[int]:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise ScenarioError(f"blind must be a list of seats 0..{n - 1}, got {value!r}")
    return [_seat_count(seat, "blind", 0, n - 1) for seat in value]  # type: ignore[attr-defined]


def _marked(value: object, hands: list[list[int]], kinds: int) -> list[list[int]]:
    n = len(hands)
    marks = [[0] * kinds for _ in range(n)]
    if value is None:
        return marks
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)) or len(value) != n:
        raise ScenarioError(f"'marked' must list the marked cards of each of the {n} seats")
    for seat, cards in enumerate(value):
        for card in _cards(cards, f"marked[{seat}]", kinds):
            marks[seat][card] += 1
            if marks[seat][card] > hands[seat].count(card):
                raise ScenarioError(
                    f"marked[{seat}] marks {CARD_NAMES[card]} {marks[seat][card]} times; "
                    f"hands[{seat}] holds {hands[seat].count(card)}"
                )
    return marks
