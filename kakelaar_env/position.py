"""A Karel Kakelaar state written as a scenario (:func:`position`), and the value forms
scenarios use: cards by name, seats as ints, per-seat lists.

``position(state)`` names everything (:mod:`kakelaar_env.scenario` lists the keys):
``new_game(config, rng, position(state))`` sets up a state equal to ``state`` and
draws nothing from ``rng``. Cards are written by their lower-case names
(``"worm_5"``, ``"chicken_3"``, ``"hen"``), piles top first, hands and discard piles
sorted by type, the record through :func:`cardgym.record.log_to_json`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from cardgym import scenario
from cardgym.errors import ScenarioError, shorten
from cardgym.record import NONE, log_to_json
from kakelaar_env.cards import CHICKEN_TYPES, HEN, TYPE_NAMES, parse_card
from kakelaar_env.events import EVENT_NAMES
from kakelaar_env.state import PHASE_NAMES, State

T = TypeVar("T")


def position(state: State) -> dict[str, Any]:
    """``state`` as a scenario naming everything, in JSON types, keys in the order of
    :data:`kakelaar_env.scenario.KEYS` (the two-player keys only with two players)."""
    robot = state.config.robot
    data: dict[str, Any] = {
        "round": state.round,
        "phase": PHASE_NAMES[state.phase],
        "to_act": state.current,
        "tractor": state.circle[state.tractor],
    }
    if robot:
        data["circle"] = list(state.circle)
    data |= {
        "hands": [count_names(hand) for hand in state.hands],
        "discards": [count_names(pile) for pile in state.discards],
        "row": names(state.row),
        "deck": names(reversed(state.deck)),
        "removed": names(state.removed),
        "hens_out": state.hens_out,
        "bids": [name_or_none(card) for card in state.bids],
        "hen_choices": [None if choice == NONE else bool(choice) for choice in state.hen_choices],
        "hen_played": [bool(played) for played in state.hen_played],
        "picks": [names(picks) for picks in state.picks],
        "last_bids": [name_or_none(card) for card in state.last_bids],
    }
    if robot:
        data |= {"robot_deck": names(reversed(state.robot_deck)),
                 "robot_discard": names(state.robot_discard),
                 "robot_won": names(state.robot_won)}
    data["winners"] = list(state.winners)
    data["log"] = log_to_json(state.log, EVENT_NAMES)
    return data


# ------------------------------------------------------------- writing


def names(cards: Iterable[int]) -> list[str]:
    """Card names, in the order given."""
    return [TYPE_NAMES[card] for card in cards]


def count_names(counts: Sequence[int]) -> list[str]:
    """The cards of a count vector by name, sorted by type."""
    return [TYPE_NAMES[card] for card, count in enumerate(counts) for _ in range(count)]


def name_or_none(card: int) -> str | None:
    """A card's name, ``None`` for :data:`~cardgym.record.NONE`."""
    return None if card == NONE else TYPE_NAMES[card]


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


def per_seat(value: object, where: str, n: int) -> list[list[int]]:
    """One list of cards for each of ``n`` seats."""
    return scenario.read_per_seat(value, where, n, card_list, "list of cards")


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
