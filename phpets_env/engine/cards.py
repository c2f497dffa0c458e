"""Power Hungry Pets cards as data (docs/rules/power_hungry_pets.md)."""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from cardgym.errors import shorten


class Card(IntEnum):
    """Card values; the value is the card's rank."""

    ROYAL_ROBOVAC = 0
    CRYSTAL_BOWL = 1
    MOUSE_TRAPPER = 2
    BATTLE_BUNNY = 3
    SHELL_SHIELD = 4
    SNAKE_SORCERER = 5
    GRAVE_DIGGER = 6
    JITTERY_JUGGLER = 7
    HERMIT_SWAP = 8
    NOT_A_PET = 9
    KING_CAT = 10


NUM_VALUES: Final = len(Card)

#: Copies of each value in the 21-card deck.
COPIES: Final[dict[Card, int]] = {
    Card.KING_CAT: 1,
    Card.NOT_A_PET: 1,
    Card.HERMIT_SWAP: 1,
    Card.JITTERY_JUGGLER: 1,
    Card.GRAVE_DIGGER: 1,
    Card.SNAKE_SORCERER: 2,
    Card.SHELL_SHIELD: 2,
    Card.BATTLE_BUNNY: 3,
    Card.MOUSE_TRAPPER: 3,
    Card.CRYSTAL_BOWL: 5,
    Card.ROYAL_ROBOVAC: 1,
}

#: The value of each physical card, by card id 0..20 (ids sorted by value).
CARD_VALUES: Final[tuple[int, ...]] = tuple(
    int(card) for card in sorted(COPIES) for _ in range(COPIES[card])
)
NUM_CARDS: Final = len(CARD_VALUES)  # 21

#: Snake-case names used in action names and scenarios.
CARD_NAMES: Final[tuple[str, ...]] = tuple(card.name.lower() for card in Card)

#: Seed (Dutch) names, for reference and rendering.
SEED_NAMES: Final[dict[Card, str]] = {
    Card.KING_CAT: "Koning Kat",
    Card.NOT_A_PET: "Meurend Mormel",
    Card.HERMIT_SWAP: "Riskante Ruil",
    Card.JITTERY_JUGGLER: "Sneaky Spin",
    Card.GRAVE_DIGGER: "Botte Graver",
    Card.SNAKE_SORCERER: "Toverslang",
    Card.SHELL_SHIELD: "Superschild",
    Card.BATTLE_BUNNY: "Krachtkonijn",
    Card.MOUSE_TRAPPER: "Muizenval",
    Card.CRYSTAL_BOWL: "Glazen Bol",
    Card.ROYAL_ROBOVAC: "Koninklijke Robotstofzuiger",
}

#: English display names.
DISPLAY_NAMES: Final[dict[Card, str]] = {
    Card.KING_CAT: "King Cat",
    Card.NOT_A_PET: "Not A Pet!",
    Card.HERMIT_SWAP: "Hermit Swap",
    Card.JITTERY_JUGGLER: "Jittery Juggler",
    Card.GRAVE_DIGGER: "Grave Digger",
    Card.SNAKE_SORCERER: "Snake Sorcerer",
    Card.SHELL_SHIELD: "Shell Shield",
    Card.BATTLE_BUNNY: "Battle Bunny",
    Card.MOUSE_TRAPPER: "Mouse Trapper",
    Card.CRYSTAL_BOWL: "Crystal Bowl",
    Card.ROYAL_ROBOVAC: "Royal Robovac",
}

#: Cards a Shell Shield protects against when others play them.
BLOCKED_BY_SHIELD: Final = frozenset(
    {
        Card.CRYSTAL_BOWL,
        Card.BATTLE_BUNNY,
        Card.SNAKE_SORCERER,
        Card.JITTERY_JUGGLER,
        Card.HERMIT_SWAP,
        Card.NOT_A_PET,
    }
)

# How each card picks its target.
NO_TARGET: Final = 0
OTHER_PLAYER: Final = 1  # another player in the round, unprotected (or none: no effect)
ANY_PLAYER: Final = 2  # Snake Sorcerer: yourself, or another unprotected player in the round
#: The target kind of each card, by value.
TARGET_KIND: Final[tuple[int, ...]] = tuple(
    OTHER_PLAYER
    if card in (Card.HERMIT_SWAP, Card.BATTLE_BUNNY, Card.CRYSTAL_BOWL)
    else ANY_PLAYER
    if card == Card.SNAKE_SORCERER
    else NO_TARGET
    for card in Card
)

#: Values Crystal Bowl may name (any value but 1).
BOWL_GUESSES: Final[tuple[int, ...]] = tuple(v for v in range(NUM_VALUES) if v != Card.CRYSTAL_BOWL)

TOTAL_TOKENS: Final = 7
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


def tokens_to_win(num_players: int) -> int:
    """Tokens that win the match: 3 with 2-3 players, 2 with 4-6."""
    return 3 if num_players <= 3 else 2


def face_up_aside(num_players: int) -> int:
    """Cards set aside face up at round setup: two with 2 players, else none."""
    return 2 if num_players == 2 else 0


#: Largest draw pile after setup over all player counts (3 players: 21 - 1 - 3).
MAX_DECK: Final = max(
    NUM_CARDS - 1 - face_up_aside(n) - n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
)


def parse_card(value: object) -> Card:
    """A card from an int value, a ``Card``, or a name (English, snake case or seed).

    Raises:
        ValueError: naming the allowed values.
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, (int,)) and not isinstance(value, bool):
        if 0 <= value < NUM_VALUES:
            return Card(value)
    elif isinstance(value, str):
        key = value.strip().lower().replace("!", "").replace("-", " ").replace("_", " ")
        key = " ".join(key.split())
        for card in Card:
            names = (card.name.lower().replace("_", " "), DISPLAY_NAMES[card].lower().replace("!", ""),
                     SEED_NAMES[card].lower())
            if key in names or key == str(int(card)):
                return card
    allowed = ", ".join(f"{int(c)}={c.name.lower()}" for c in Card)
    raise ValueError(f"unknown card {shorten(value)}; cards are values 0..10 or names: "
                     f"{allowed}")
