"""A Karel Kakelaar state written as a scenario (:func:`position`), and the value forms
scenarios use: cards by name, seats as ints, per-seat lists.

``position(state)`` names everything (:mod:`kakelaar_env.positions.scenario` lists the keys):
``new_game(config, rng, position(state))`` sets up a state equal to ``state`` and
draws nothing from ``rng``. Cards are written by their lower-case names
(``"worm_5"``, ``"chicken_3"``, ``"hen"``), piles top first, hands and discard piles
sorted by type, the record through :func:`cardgym.record.log_to_json`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

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
from kakelaar_env.engine.cards import (
    CHICKEN_TYPES,
    NUM_BIDDABLE,
    NUM_HENS,
    ROUNDS,
    ROW_TYPES,
    TYPE_NAMES,
    parse_card,
)
from kakelaar_env.engine.events import EVENT_NAMES
from kakelaar_env.engine.state import PHASE_NAMES, Config, State, participants

T = TypeVar("T")


def card_codec(config: Config) -> OneCard:
    """A card type by its lower-case name."""
    return OneCard(TYPE_NAMES, parse_card)


def _robot(config: Config) -> bool:
    return config.robot


def _cards(config: Config) -> Codec:
    return Cards(card_codec(config))


def _turned_up(config: Config) -> OneCard:
    """A card of the draw pile, the row or the removed cards: a worm or a mother hen."""
    return card_codec(config).among(ROW_TYPES, "the draw pile, the row and the removed cards "
                                    "hold worms and hens only (chickens are dealt to the hands)")


def _bid(config: Config) -> OneCard:
    """A card bid, or null: never a mother hen."""
    return card_codec(config).among(range(NUM_BIDDABLE), "a mother hen can never be "
                                    "bid").optional()


def _robot_card(config: Config) -> OneCard:
    return card_codec(config).among(CHICKEN_TYPES, "the robot deck holds chickens 3..7 only")


def _per_seat(item: Callable[[Config], Codec], what: str,
              count: Callable[[Config], int] = lambda c: c.num_players, unit: str = "seats",
              ) -> Callable[[Config], Codec]:
    return lambda config: PerSeat(count(config), item(config), what, unit)


#: The keys of a position, in order (:mod:`kakelaar_env.positions.scenario` says what each
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
    Key("row", lambda c: Cards(_turned_up(c))),
    Key("deck", lambda c: Cards(_turned_up(c), top_first=True)),
    Key("deck_top", lambda c: Cards(_turned_up(c)), read_only=True),
    Key("removed", lambda c: Cards(_turned_up(c))),
    Key("hens_out", lambda c: Integer(0, NUM_HENS)),
    Key("bids", _per_seat(_bid, "card or null")),
    Key("hen_choices", _per_seat(lambda c: OptionalFlag(), "choice (true, false or null)")),
    Key("hen_played", _per_seat(lambda c: Flag(), "flag")),
    Key("picks", _per_seat(lambda c: Cards(card_codec(c), null_empty=True), "list of cards")),
    Key("last_bids", _per_seat(_bid, "card or null", participants,
                               "participants (the robot last)")),
    Key("robot_deck", lambda c: Cards(_robot_card(c), top_first=True), when=_robot),
    Key("robot_discard", lambda c: Cards(_robot_card(c)), when=_robot),
    Key("robot_won", lambda c: Cards(_turned_up(c)), when=_robot),
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
