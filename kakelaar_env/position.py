"""A Karel Kakelaar state written as a scenario (:func:`position`), and the value forms
scenarios use: cards by name, seats as ints, per-seat lists.

``position(state)`` names everything (:mod:`kakelaar_env.scenario` lists the keys):
``new_game(config, rng, position(state))`` sets up a state equal to ``state`` and
draws nothing from ``rng``. Cards are written by their lower-case names
(``"worm_5"``, ``"chicken_3"``, ``"hen"``), piles top first, hands and discard piles
sorted by type, the record through :func:`cardgym.record.log_to_json`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from cardgym import scenario
from cardgym.errors import ScenarioError, shorten
from cardgym.position_format import (
    Cards,
    Codec,
    Counts,
    Flag,
    Integer,
    Key,
    Name,
    OneCard,
    OptionalFlag,
    PerSeat,
    PositionFormat,
    Record,
    Seat,
    Seats,
)
from cardgym.record import NONE
from kakelaar_env.cards import CHICKEN_TYPES, HEN, NUM_HENS, ROUNDS, TYPE_NAMES, parse_card
from kakelaar_env.events import EVENT_NAMES
from kakelaar_env.state import PHASE_NAMES, Config, State, participants

T = TypeVar("T")


def card_codec(config: Config) -> OneCard:
    """A card type by its lower-case name."""
    return OneCard(TYPE_NAMES, parse_card)


def _robot(config: Config) -> bool:
    return config.robot


def _cards(config: Config) -> Codec:
    return Cards(card_codec(config))


def _per_seat(item: Callable[[Config], Codec], what: str,
              count: Callable[[Config], int] = lambda c: c.num_players,
              ) -> Callable[[Config], Codec]:
    return lambda config: PerSeat(count(config), item(config), what)


#: The keys of a position, in order (:mod:`kakelaar_env.scenario` says what each
#: means); the robot chicken's with two players only.
FORMAT = (
    Key("round", lambda c: Integer(1, ROUNDS)),
    Key("phase", lambda c: Name(PHASE_NAMES)),
    Key("to_act", lambda c: Seat(c.num_players)),
    Key("tractor", lambda c: Seat(participants(c)),
        source=lambda state: state.circle[state.tractor]),
    Key("circle", lambda c: Seats(participants(c)), when=_robot),
    Key("hands", _per_seat(lambda c: Counts(card_codec(c)), "list of cards")),
    Key("discards", _per_seat(lambda c: Counts(card_codec(c)), "list of cards")),
    Key("row", _cards),
    Key("deck", lambda c: Cards(card_codec(c), top_first=True)),
    Key("deck_top", _cards, read_only=True),
    Key("removed", _cards),
    Key("hens_out", lambda c: Integer(0, NUM_HENS)),
    Key("bids", _per_seat(lambda c: card_codec(c).optional(), "card or null")),
    Key("hen_choices", _per_seat(lambda c: OptionalFlag(), "choice")),
    Key("hen_played", _per_seat(lambda c: Flag(), "flag")),
    Key("picks", _per_seat(_cards, "list of cards")),
    Key("last_bids", _per_seat(lambda c: card_codec(c).optional(), "card or null",
                               participants)),
    Key("robot_deck", lambda c: Cards(card_codec(c), top_first=True), when=_robot),
    Key("robot_discard", _cards, when=_robot),
    Key("robot_won", _cards, when=_robot),
    Key("winners", lambda c: Seats(c.num_players)),
    Key("log", lambda c: Record(EVENT_NAMES)),
)


@functools.lru_cache(maxsize=64)
def position_format(config: Config) -> PositionFormat:
    """The position format under ``config``."""
    return PositionFormat(FORMAT, State, config)


def position(state: State) -> dict[str, Any]:
    """``state`` as a scenario naming everything, in JSON types, keys in the order of
    :data:`FORMAT` (the two-player keys only with two players)."""
    return position_format(state.config).write(state)


# ------------------------------------------------------------- reading


def card(value: object, where: str) -> int:
    """A card type from its name (see :func:`kakelaar_env.cards.parse_card`)."""
    return scenario.read_card(value, where, parse_card)


def card_list(value: object, where: str, worms_and_hens: bool = False) -> list[int]:
    """A list of cards; ``worms_and_hens``: no chickens (a pile that holds only the
    cards turned up from the draw pile)."""
    cards = scenario.read_cards(value, where, parse_card)
    if worms_and_hens:
        for i, kind in enumerate(cards):
            if kind in CHICKEN_TYPES:
                raise ScenarioError(f"{where}[{i}] is {TYPE_NAMES[kind]}; {where} holds worms "
                                    "and hens only")
    return cards


def per_entry(value: object, where: str, count: int, read: Callable[[object, str], T],
              what: str) -> list[T]:
    """``count`` values, ``read(item, where[i])`` each; ``what`` says what an entry is
    (for the error)."""
    if not scenario.is_list(value) or len(value) != count:
        raise ScenarioError(f"{where} must hold {count} entries ({what}), got {shorten(value)}")
    return [read(item, f"{where}[{i}]") for i, item in enumerate(value)]


def card_or_none(value: object, where: str) -> int:
    """A card, or :data:`~cardgym.record.NONE` for ``None``; never a mother hen (a bid)."""
    if value is None:
        return NONE
    kind = card(value, where)
    if kind == HEN:
        raise ScenarioError(f"{where} is a mother hen; a mother hen can never be bid")
    return kind
