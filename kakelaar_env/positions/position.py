"""A Karel Kakelaar state written as a scenario (:func:`position`), and the value forms
scenarios use: cards by name, seats as ints, per-seat lists.

``position(state)`` names everything (:data:`FORMAT` declares the keys):
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


#: The keys of a position, in order, each with what it holds and its default (shown in
#: docs/positions.md); the robot chicken's with two players only.
FORMAT = (
    Key("round", lambda c: Integer(1, ROUNDS),
        doc="1..9", default="1"),
    Key("phase", lambda c: Name(PHASE_NAMES),
        doc=('`"bid"`, `"hen"`, `"take_first"`, `"take_second"`, `"game_over"` (round 9 only; '
             "`new_game` reads it, `env.reset` refuses a finished game)"),
        default='`"bid"`'),
    Key("to_act", lambda c: Seat(c.num_players),
        doc=("the seat that decides now; the rules fix it, so it is checked. Once over: the last "
             "seat that acted"),
        default="derived; once over, the actor of the log's last commit"),
    Key("tractor", lambda c: Seat(participants(c)),
        source=lambda state: state.circle[state.tractor],
        doc=("the participant holding the tractor **in `round`** (changed: it used to name the "
             "round-1 holder; the same for round 1). Two players: the robot (`2`) in rounds 3, 6, "
             "9, a seat in the others"),
        default="the holder in the log's last round event, else random"),
    Key("circle", lambda c: Seats(participants(c)), when=_robot,
        doc=("two players: `[first holder, other seat, 2]`, the order the tractor passes the "
             "participants from round 1"),
        default="what `tractor` and `round` imply; random in a robot round without it"),
    Key("hands", _per_seat(lambda c: Counts(card_codec(c)), "list of cards"),
        doc="one list of cards per seat (sorted by type when written)",
        default="the five chickens 3..7 each"),
    Key("discards", _per_seat(lambda c: Counts(card_codec(c)), "list of cards"),
        doc="one list of cards per seat (no hens)", default="empty"),
    Key("row", lambda c: Cards(_turned_up(c)),
        doc=("the bid stage's row, position 1 first (row size = players, 3 with two); `[]` in the "
             "other stages"),
        default="in the bid stage: the top of `deck`/`deck_top` (the older form)"),
    Key("deck", lambda c: Cards(_turned_up(c), top_first=True),
        doc=("the whole draw pile, top first: `(9 - round) x row size` cards beneath the row (with"
             " the row on top, `(10 - round) x row size`, when `row` is left out in the bid stage)"),
        default="dealt at random"),
    Key("deck_top", lambda c: Cards(_turned_up(c)), read_only=True,
        doc="the top of the draw pile, top first; the rest dealt at random", default="-"),
    Key("removed", lambda c: Cards(_turned_up(c)),
        doc="the cards removed unseen at setup; given, every worm and hen must be accounted for",
        default="the worms and hens placed nowhere else, in random order"),
    Key("hens_out", lambda c: Integer(0, NUM_HENS),
        doc="mother hens played so far, 0..9", default="0"),
    Key("bids", _per_seat(_bid, "card or null"),
        doc=("per seat: the card bid face down in this bid stage, or `null`; the seats with a bid "
             "are the first ones asked"),
        default="all `null`"),
    Key("hen_choices", _per_seat(lambda c: OptionalFlag(), "choice (true, false or null)"),
        doc="per seat: `true`/`false` committed in this hen stage, or `null`",
        default="all `null`"),
    Key("hen_played", _per_seat(lambda c: Flag(), "flag"),
        doc=("per seat: played a mother hen in this mother-hen step (revealed; `true` only in the "
             "take stages)"),
        default="all `false`"),
    Key("picks", _per_seat(lambda c: Cards(card_codec(c), null_empty=True), "list of cards"),
        doc=("per seat: the cards picked face down to take back so far, a list of up to two "
             "(`null` = `[]`)"),
        default="all `[]`"),
    Key("last_bids", _per_seat(_bid, "card or null", participants,
                               "participants (the robot last)"),
        doc="per participant (robot last): the card bid in the last round shared out, or `null`",
        default="all `null`"),
    Key("robot_deck", lambda c: Cards(_robot_card(c), top_first=True), when=_robot,
        doc="two players: the robot deck, top first (its top when shorter than the deck)",
        default="dealt at random"),
    Key("robot_discard", lambda c: Cards(_robot_card(c)), when=_robot,
        doc="two players: the robot's revealed bids, oldest first (one per round shared out)",
        default="the robot's other chickens, in random order"),
    Key("robot_won", lambda c: Cards(_turned_up(c)), when=_robot,
        doc=("two players: the row cards the robot won, oldest first (out of the game; at most one"
             " per round shared out)"),
        default="none (they count as removed)"),
    Key("winners", lambda c: Seats(c.num_players),
        doc="once over, the winning seats (checked against the rules); `[]` before",
        default="derived"),
    Key("log", lambda c: Record(EVENT_NAMES),
        doc="the public record, `log_to_json(state.log, EVENT_NAMES)`",
        default=("this round's start event and the stage's commits so far (the scores and winners "
                 "once over)")),
)


@functools.lru_cache(maxsize=64)
def position_format(config: Config) -> PositionFormat:
    """The position format under ``config``."""
    return PositionFormat(FORMAT, State, config)


def position(state: State) -> dict[str, Any]:
    """``state`` as a scenario naming everything, in JSON types, keys in the order of
    :data:`FORMAT` (the two-player keys only with two players)."""
    return position_format(state.config).write(state)
