"""Exploding Kittens cards as data: the kinds, the base deck, and setup counts.

Cards of one kind are interchangeable, so hands, the discard pile and the box are
counts per kind and the draw pile is a list of kinds (RULES.md §3).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Card(IntEnum):
    """The card kinds of the base game."""

    EXPLODING_KITTEN = 0
    DEFUSE = 1
    ATTACK = 2
    SKIP = 3
    FAVOR = 4
    SHUFFLE = 5
    SEE_THE_FUTURE = 6
    NOPE = 7
    TACO_CAT = 8
    HAIRY_POTATO_CAT = 9
    CATTERMELON = 10
    RAINBOW_RALPHING_CAT = 11
    BEARD_CAT = 12


NUM_KINDS: Final = len(Card)
KITTEN: Final = int(Card.EXPLODING_KITTEN)
DEFUSE: Final = int(Card.DEFUSE)
ATTACK: Final = int(Card.ATTACK)
SKIP: Final = int(Card.SKIP)
FAVOR: Final = int(Card.FAVOR)
SHUFFLE: Final = int(Card.SHUFFLE)
SEE_THE_FUTURE: Final = int(Card.SEE_THE_FUTURE)
NOPE: Final = int(Card.NOPE)

CARD_NAMES: Final[tuple[str, ...]] = tuple(card.name.lower() for card in Card)
CARD_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAMES)}

#: Copies of each kind in one base deck (56 cards).
BASE_DECK: Final[tuple[int, ...]] = (4, 6, 4, 4, 4, 4, 5, 5, 4, 4, 4, 4, 4)

CATS: Final[tuple[int, ...]] = tuple(range(int(Card.TACO_CAT), NUM_KINDS))
#: Cards played alone for their own text (Nope only answers a play; see rules).
SINGLE_PLAYS: Final[tuple[int, ...]] = (ATTACK, SKIP, FAVOR, SHUFFLE, SEE_THE_FUTURE)
#: Kinds that can form a pair, three of a kind or five different: everything but the
#: Exploding Kitten and the Defuse (a Defuse is played only against a drawn kitten).
COMBO_KINDS: Final[tuple[int, ...]] = tuple(k for k in range(NUM_KINDS) if k not in (KITTEN, DEFUSE))
#: Kinds that can be taken from the discard pile with five different.
TAKEABLE: Final[tuple[int, ...]] = tuple(k for k in range(NUM_KINDS) if k != KITTEN)
SEE_THE_FUTURE_CARDS: Final = 3

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 9
HAND_SIZES: Final = (7, 4)
DECK_DEFUSE_RULES: Final = ("seed", "2024")


def num_decks(num_players: int) -> int:
    """Base decks in play: two from six players on."""
    return 2 if num_players >= 6 else 1


def composition(num_players: int) -> tuple[int, ...]:
    """Copies of each kind in the box for this player count (one or two decks)."""
    decks = num_decks(num_players)
    return tuple(count * decks for count in BASE_DECK)


def deck_defuses(num_players: int, rule: str) -> int:
    """Leftover Defuses shuffled into the draw pile at setup.

    ``seed``: all of them, but only 2 with two players; ``2024``: at most 2
    (min(2, 6 - players)). With two decks every leftover Defuse goes in.
    """
    leftover = composition(num_players)[DEFUSE] - num_players
    if num_decks(num_players) == 2:
        return leftover
    if rule == "2024":
        return min(2, leftover)
    return 2 if num_players == 2 else leftover


def initial_deck_size(num_players: int, hand_size: int, defuse_rule: str) -> int:
    """Cards in the draw pile right after setup."""
    counts = composition(num_players)
    others = sum(counts) - counts[KITTEN] - counts[DEFUSE]
    return (others - hand_size * num_players + (num_players - 1)
            + deck_defuses(num_players, defuse_rule))


#: The largest draw pile of any setup: the bound of deck sizes and insertion depths.
MAX_DECK: Final = max(
    initial_deck_size(n, h, rule)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    for h in HAND_SIZES
    for rule in DECK_DEFUSE_RULES
)
#: The most copies of each kind at any table (two decks).
MAX_COPIES: Final[tuple[int, ...]] = composition(MAX_PLAYERS)
MAX_CARDS: Final = sum(MAX_COPIES)
