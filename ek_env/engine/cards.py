"""Exploding Kittens cards as data: the kinds, the decks, and setup counts.

Cards of one kind are interchangeable, so hands, the discard pile and the box are
counts per kind and the draw pile is a list of kinds (docs/rules/exploding_kittens.md). The base game
uses the first :data:`NUM_KINDS` kinds; the Streaking Kittens expansion (docs/rules/exploding_kittens.md,
Streaking Kittens) adds nine more, :data:`NUM_KINDS_STREAKING` in all.
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
    # Streaking Kittens expansion
    STREAKING_KITTEN = 13
    CATOMIC_BOMB = 14
    SUPER_SKIP = 15
    SEE_THE_FUTURE_5X = 16
    ALTER_THE_FUTURE_5X = 17
    SWAP_TOP_AND_BOTTOM = 18
    GARBAGE_COLLECTION = 19
    MARK = 20
    CURSE_OF_THE_CAT_BUTT = 21


#: Kinds of the base game (the first kinds of :class:`Card`).
NUM_KINDS: Final = 13
#: Kinds with the Streaking Kittens expansion.
NUM_KINDS_STREAKING: Final = len(Card)
EXPANSIONS: Final = ("streaking",)
KITTEN: Final = int(Card.EXPLODING_KITTEN)
DEFUSE: Final = int(Card.DEFUSE)
ATTACK: Final = int(Card.ATTACK)
SKIP: Final = int(Card.SKIP)
FAVOR: Final = int(Card.FAVOR)
SHUFFLE: Final = int(Card.SHUFFLE)
SEE_THE_FUTURE: Final = int(Card.SEE_THE_FUTURE)
NOPE: Final = int(Card.NOPE)
STREAKING: Final = int(Card.STREAKING_KITTEN)
CATOMIC_BOMB: Final = int(Card.CATOMIC_BOMB)
SUPER_SKIP: Final = int(Card.SUPER_SKIP)
SEE_THE_FUTURE_5X: Final = int(Card.SEE_THE_FUTURE_5X)
ALTER_THE_FUTURE_5X: Final = int(Card.ALTER_THE_FUTURE_5X)
SWAP_TOP_AND_BOTTOM: Final = int(Card.SWAP_TOP_AND_BOTTOM)
GARBAGE_COLLECTION: Final = int(Card.GARBAGE_COLLECTION)
MARK: Final = int(Card.MARK)
CURSE: Final = int(Card.CURSE_OF_THE_CAT_BUTT)

CARD_NAMES: Final[tuple[str, ...]] = tuple(card.name.lower() for card in Card)
CARD_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAMES)}

#: Copies of each kind in one base deck (56 cards).
BASE_DECK: Final[tuple[int, ...]] = (4, 6, 4, 4, 4, 4, 5, 5, 4, 4, 4, 4, 4)
#: The Streaking Kittens box (15 cards), over all kinds: one more Exploding Kitten.
STREAKING_CARDS: Final[tuple[int, ...]] = (1,) + (0,) * 12 + (1, 1, 1, 1, 1, 3, 1, 3, 2)

CATS: Final[tuple[int, ...]] = tuple(range(int(Card.TACO_CAT), int(Card.BEARD_CAT) + 1))
#: Cards played alone for their own text (Nope only answers a play; see rules).
SINGLE_PLAYS: Final[tuple[int, ...]] = (ATTACK, SKIP, FAVOR, SHUFFLE, SEE_THE_FUTURE)
#: The expansion's cards played alone (Streaking Kitten is never played on purpose).
STREAKING_PLAYS: Final[tuple[int, ...]] = (
    CATOMIC_BOMB, SUPER_SKIP, SEE_THE_FUTURE_5X, ALTER_THE_FUTURE_5X, SWAP_TOP_AND_BOTTOM,
    GARBAGE_COLLECTION, MARK, CURSE,
)
#: Single plays aimed at another player.
TARGETED: Final[tuple[int, ...]] = (FAVOR, MARK, CURSE)
#: Cards a blind player's random turn-up plays without a target (Nope, Defuse, cats
#: and the Streaking Kitten are lost; a kitten explodes).
BLIND_PLAYABLE: Final[frozenset[int]] = frozenset(
    (ATTACK, SKIP, SHUFFLE, SEE_THE_FUTURE) + STREAKING_PLAYS) - frozenset(TARGETED)
#: Kinds that can form a pair, three of a kind or five different: everything but the
#: Exploding Kitten, the Defuse (played only against a drawn kitten) and the
#: Streaking Kitten (never played on purpose).
COMBO_KINDS: Final[tuple[int, ...]] = tuple(k for k in range(NUM_KINDS) if k not in (KITTEN, DEFUSE))
COMBO_KINDS_STREAKING: Final[tuple[int, ...]] = tuple(
    k for k in range(NUM_KINDS_STREAKING) if k not in (KITTEN, DEFUSE, STREAKING))
#: Kinds that can be taken from the discard pile with five different.
TAKEABLE: Final[tuple[int, ...]] = tuple(k for k in range(NUM_KINDS) if k != KITTEN)
TAKEABLE_STREAKING: Final[tuple[int, ...]] = tuple(
    k for k in range(NUM_KINDS_STREAKING) if k not in (KITTEN, STREAKING))
SEE_THE_FUTURE_CARDS: Final = 3
#: Cards seen by See the Future 5x and reordered by Alter the Future 5x.
FUTURE_5X_CARDS: Final = 5

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 9
HAND_SIZES: Final = (7, 4)
DECK_DEFUSE_RULES: Final = ("seed", "2024")


def num_decks(num_players: int) -> int:
    """Base decks in play: two from six players on."""
    return 2 if num_players >= 6 else 1


def composition(num_players: int, streaking: bool = False) -> tuple[int, ...]:
    """Copies of each kind in the box for this player count (one or two base decks,
    and the Streaking Kittens cards once with the expansion)."""
    decks = num_decks(num_players)
    base = tuple(count * decks for count in BASE_DECK)
    if not streaking:
        return base
    return tuple(a + b for a, b in zip(base + (0,) * 9, STREAKING_CARDS, strict=True))


def deck_kittens(num_players: int, streaking: bool = False) -> int:
    """Exploding Kittens shuffled into the draw pile: players - 1, or as many as
    players with the expansion."""
    return num_players if streaking else num_players - 1


def deck_defuses(num_players: int, rule: str, streaking: bool = False) -> int:
    """Leftover Defuses shuffled into the draw pile at setup.

    ``seed``: all of them, but only 2 with two players; ``2024``: at most 2
    (min(2, 6 - players)). With two decks every leftover Defuse goes in. With the
    expansion the rule does not apply: 2 with 2-4 players, 1 with 5 (docs/rules/exploding_kittens.md, Streaking Kittens).
    """
    leftover = composition(num_players)[DEFUSE] - num_players
    if num_decks(num_players) == 2:
        return leftover
    if rule == "2024" or streaking:
        return min(2, leftover)
    return 2 if num_players == 2 else leftover


def initial_deck_size(num_players: int, hand_size: int, defuse_rule: str,
                      streaking: bool = False) -> int:
    """Cards in the draw pile right after setup (without the ``fast`` option)."""
    counts = composition(num_players, streaking)
    others = sum(counts) - counts[KITTEN] - counts[DEFUSE]
    return (others - hand_size * num_players + deck_kittens(num_players, streaking)
            + deck_defuses(num_players, defuse_rule, streaking))


#: The largest draw pile of any base-game setup: the bound of deck sizes and
#: insertion depths (the base game's draw pile never grows).
MAX_DECK: Final = max(
    initial_deck_size(n, h, rule)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    for h in HAND_SIZES
    for rule in DECK_DEFUSE_RULES
)
#: The most copies of each kind at any table (two decks).
MAX_COPIES: Final[tuple[int, ...]] = composition(MAX_PLAYERS)
MAX_CARDS: Final = sum(MAX_COPIES)
MAX_COPIES_STREAKING: Final[tuple[int, ...]] = composition(MAX_PLAYERS, True)
MAX_CARDS_STREAKING: Final = sum(MAX_COPIES_STREAKING)
#: With the expansion Garbage Collection puts hand cards into the draw pile, so it
#: can hold every card of the game but the Garbage Collection just played.
MAX_DECK_STREAKING: Final = MAX_CARDS_STREAKING - 1
