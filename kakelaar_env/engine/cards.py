"""Karel Kakelaar cards as data (docs/rules/karel_kakelaar.md).

Cards are kept by *type*, not as physical cards: two worms of the same value (or
two mother hens) are interchangeable, and a chicken card only ever moves between
its owner's hand and discard pile, so its colour is its owner. Hands and discard
piles are count vectors indexed by :class:`CardType`.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

from cardgym.errors import shorten
from cardgym.record import NONE


class CardType(IntEnum):
    """Card types: worms 1..8, chickens 3..7 (any colour), the mother hen."""

    WORM_1 = 0
    WORM_2 = 1
    WORM_3 = 2
    WORM_4 = 3
    WORM_5 = 4
    WORM_6 = 5
    WORM_7 = 6
    WORM_8 = 7
    CHICKEN_3 = 8
    CHICKEN_4 = 9
    CHICKEN_5 = 10
    CHICKEN_6 = 11
    CHICKEN_7 = 12
    HEN = 13


NUM_TYPES: Final = len(CardType)  # 14
#: Types that can be bid (every type but the mother hen), also the types a discard pile holds.
NUM_BIDDABLE: Final = 13
HEN: Final = int(CardType.HEN)
NUM_WORM_VALUES: Final = 8
FIRST_CHICKEN: Final = int(CardType.CHICKEN_3)
CHICKEN_VALUES: Final[tuple[int, ...]] = (3, 4, 5, 6, 7)
CHICKEN_TYPES: Final[tuple[int, ...]] = tuple(range(FIRST_CHICKEN, FIRST_CHICKEN + 5))
#: Types that can lie in the row (worms and the mother hen).
ROW_TYPES: Final[tuple[int, ...]] = (*range(NUM_WORM_VALUES), HEN)
NUM_ROW_TYPES: Final = len(ROW_TYPES)  # 9
#: Index of a type among the row types (NONE: never in the row).
ROW_SLOT: Final[tuple[int, ...]] = tuple(
    ROW_TYPES.index(t) if t in ROW_TYPES else NONE for t in range(NUM_TYPES)
)

#: Snake-case names used in action names and scenarios.
TYPE_NAMES: Final[tuple[str, ...]] = tuple(t.name.lower() for t in CardType)
#: The value a card bids with (NONE: cannot be bid).
BID_VALUE: Final[tuple[int, ...]] = tuple(
    t + 1 if t < NUM_WORM_VALUES else t - FIRST_CHICKEN + 3 if t < HEN else NONE
    for t in range(NUM_TYPES)
)
#: Points a card scores in hand at the end (worms only).
WORM_VALUE: Final[tuple[int, ...]] = tuple(
    t + 1 if t < NUM_WORM_VALUES else 0 for t in range(NUM_TYPES)
)

#: Worms per value 1..8 by default (docs/rules/karel_kakelaar.md).
DEFAULT_WORM_COUNTS: Final[tuple[int, ...]] = (5, 5, 5, 5, 4, 4, 4, 4)
NUM_WORMS: Final = 36
NUM_HENS: Final = 9
ROUNDS: Final = 9
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
#: Colours of chickens: one per player, the unused ones form the robot deck with 2 players.
NUM_COLOURS: Final = 5
#: Cards a player can hold at most: 5 chickens and one card won per round.
MAX_HAND: Final = 5 + ROUNDS
#: Copies of one type a player can hold at most (one card won per round).
MAX_COPIES: Final = ROUNDS
#: Largest end score: nine worms of value 8.
MAX_SCORE: Final = ROUNDS * 8


def row_size(num_players: int) -> int:
    """Cards turned up per round: one per player, 3 with two players (the robot bids too)."""
    return 3 if num_players == 2 else num_players


def removed_unseen(num_players: int) -> int:
    """Cards of the shuffled 45 removed unseen at setup: 18 with 2-3 players, 9 with 4, 0 with 5."""
    return 18 if num_players <= 3 else 9 if num_players == 4 else 0


#: Largest draw pile an observer can see (5 players, after the first row is turned).
MAX_DRAW_PILE: Final = max(
    NUM_WORMS + NUM_HENS - removed_unseen(n) - row_size(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
)


def count_types(cards: Iterable[int]) -> list[int]:
    """Count of each card type in ``cards``."""
    counts = [0] * NUM_TYPES
    for card in cards:
        counts[card] += 1
    return counts


def parse_card(value: object) -> int:
    """A card type from a name (``"worm_5"``, ``"w5"``, ``"chicken_3"``, ``"c3"``,
    ``"hen"``, ``"mother_hen"``), a :class:`CardType`, or an int 1..8 (a worm).

    Raises:
        ValueError: naming the allowed spellings.
    """
    if isinstance(value, CardType):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if 1 <= value <= NUM_WORM_VALUES:
            return value - 1
    elif isinstance(value, str):
        key = value.strip().lower().replace("-", "_").replace(" ", "_")
        if key in ("hen", "mother_hen", "h"):
            return HEN
        for prefix, first, low, high in (("worm", 0, 1, 8), ("chicken", FIRST_CHICKEN, 3, 7)):
            for spelling in (prefix + "_", prefix, prefix[0]):
                rest = key[len(spelling):]
                if key.startswith(spelling) and rest.isdigit() and low <= int(rest) <= high:
                    return first + int(rest) - low
    raise ValueError(
        f"unknown card {shorten(value)}; cards are worm_1..worm_8 (or w1..w8, or ints 1..8), "
        "chicken_3..chicken_7 (or c3..c7), hen"
    )
