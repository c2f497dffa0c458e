"""An Exploding Kittens state written as a scenario (docs/positions.md), and the names
both directions share.

:func:`position` writes every key of :mod:`ek_env.positions.scenario` (the expansion's only with
the expansion), in the order of :data:`ek_env.positions.scenario.KEYS`, in JSON types: cards,
phases, kinds of play and resume points by name, seats as ints, ``None`` for "none".
``new_game(config, rng, position(state))`` sets up a state equal to ``state`` and
draws nothing from ``rng``. The small readers below (a card, a list of cards, a seat,
a count) are the inverse of its naming; :mod:`ek_env.positions.scenario`,
:mod:`ek_env.positions.scenario_flow` and :mod:`ek_env.positions.scenario_knowledge` check a scenario with
them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Final

import numpy as np

from cardgym import scenario
from cardgym.errors import shorten
from cardgym.position_format import (
    Cards,
    Codec,
    Counts,
    Flag,
    Group,
    Integer,
    Key,
    Name,
    OneCard,
    PerSeat,
    PositionFormat,
    Record,
    Seat,
    Seats,
    SeatsWhere,
    Verbatim,
)
from ek_env.engine import record as rec
from ek_env.engine.cards import CARD_BY_NAME, CARD_NAMES, KITTEN, NOPE, NUM_KINDS, composition
from ek_env.engine.state import BASE_PHASES, NO_CARD, PHASE_NAMES, PLAY_KIND_NAMES, Config, State

#: What goes on once pending explosions are settled, by ``State.resume`` code.
RESUME_NAMES: Final = ("play", "draw", "window")


# ------------------------------------------------------------------ writing

#: Turns owed at most (far beyond any Attack stack a game reaches).
MAX_OWED: Final = 9999
#: The largest count of turns played a position holds.
MAX_TURNS: Final = 1 << 30


def card_list(counts: Sequence[int]) -> list[str]:
    """Counts per kind as card names, in kind order (one name per card)."""
    return [CARD_NAMES[card] for card, count in enumerate(counts) for _ in range(count)]


def card_codec(config: Config) -> OneCard:
    """A card of the game's kinds (the expansion's with it), by name."""
    return OneCard(CARD_NAMES[:config.num_kinds], partial(parse_card, kinds=config.num_kinds))


def _seat(optional: bool = False) -> Callable[[Config], Codec]:
    return lambda config: Seat(config.num_players, optional)


def _seats(config: Config) -> Codec:
    return Seats(config.num_players)


def _cards(config: Config) -> Codec:
    return Cards(card_codec(config))


def _per_seat_cards(config: Config) -> Codec:
    return PerSeat(config.num_players, Counts(card_codec(config)), "list of cards")


def _pending(config: Config) -> Codec:
    card = card_codec(config)
    return Group({
        "kind": Name(PLAY_KIND_NAMES), "card": card.optional(NO_CARD),
        "target": Seat(config.num_players, True), "named": card.optional(NO_CARD),
        "five": Cards(card), "nopes": Integer(0, composition(config.num_players,
                                                             config.streaking)[NOPE]),
        "window_last": Seat(config.num_players, True)}, nullable=True)


def _known(state: State) -> list[dict[str, Any]]:
    """Per seat: the depths of the draw pile it knows, and its lower bounds on each hand."""
    n, kinds = state.num_players, state.kinds
    known = []
    for seat in range(n):
        deck = [[depth, CARD_NAMES[card]] for depth, card in enumerate(state.known_deck[seat])
                if card >= 0]
        start = seat * n * kinds
        hands = [card_list(state.known_hands[start + other * kinds: start + (other + 1) * kinds])
                 for other in range(n)]
        known.append({"deck": deck, "hands": hands})
    return known


def _known_codec(config: Config) -> Codec:
    n, card = config.num_players, card_codec(config).schema()
    pair = {"type": "array", "minItems": 2, "maxItems": 2,
            "prefixItems": [{"type": "integer", "minimum": 0}, card]}
    hands = {"type": "array", "minItems": n, "maxItems": n,
             "items": {"type": "array", "items": card}}
    entry = {"type": "object", "additionalProperties": False,
             "properties": {"deck": {"type": "array", "items": pair}, "hands": hands}}
    return Verbatim({"type": "array", "minItems": n, "maxItems": n, "items": entry})


def _ruled_out(state: State) -> list[list[int]]:
    kinds = state.kinds
    return [[card for card in range(kinds) if state.ruled_out[seat * kinds + card]]
            for seat in range(state.num_players)]


def _streaking(config: Config) -> bool:
    return config.streaking


#: The keys of a position, in order (:mod:`ek_env.positions.scenario` says what each means); the
#: expansion's only with it. ``first_player``, the old name of ``turn_holder``, is read,
#: never written.
FORMAT = (
    Key("hands", _per_seat_cards),
    Key("deck", lambda c: Cards(card_codec(c), top_first=True)),
    Key("discard", lambda c: Counts(card_codec(c))),
    Key("out_of_play", lambda c: Counts(card_codec(c))),
    Key("eliminated", _seats, source=lambda state: state.eliminated),
    Key("turn_holder", _seat()),
    Key("owed_turns", lambda c: Integer(1, MAX_OWED)),
    Key("attacked", lambda c: Flag()),
    Key("turns_played", lambda c: Integer(0, MAX_TURNS)),
    Key("phase", lambda c: Name(PHASE_NAMES if c.streaking else PHASE_NAMES[:BASE_PHASES])),
    Key("to_act", _seat()),
    Key("pending", _pending),
    Key("kittens_to_insert", lambda c: Integer(
        0, composition(c.num_players, True)[KITTEN] if c.streaking else 1)),
    Key("explode_queue", _seats, when=_streaking),
    Key("resume", lambda c: Group({"after": Name(RESUME_NAMES),
                                   "seat": Seat(c.num_players, True)}, nullable=True)),
    Key("alter", lambda c: Group({"left": _cards(c), "placed": _cards(c)}, nullable=True),
        when=_streaking),
    Key("garbage", lambda c: Group({"queue": _seats(c), "in": _cards(c), "from": _seats(c),
                                    "lost": _seats(c)}, nullable=True), when=_streaking),
    Key("blind", lambda c: SeatsWhere(c.num_players), when=_streaking),
    Key("marked", _per_seat_cards, when=_streaking),
    Key("winner", _seat(optional=True)),
    Key("known", _known_codec, source=_known),
    Key("ruled_out", lambda c: PerSeat(c.num_players, _cards(c), "list of cards"),
        source=_ruled_out),
    Key("log", lambda c: Record(rec.EVENT_NAMES if c.streaking
                                else rec.EVENT_NAMES[:rec.BASE_EVENTS])),
    Key("first_player", _seat(), read_only=True),
)


@functools.lru_cache(maxsize=64)
def position_format(config: Config) -> PositionFormat:
    """The position format under ``config``."""
    return PositionFormat(FORMAT, State, config)


def position(state: State) -> dict[str, Any]:
    """``state`` as a scenario naming everything (JSON types; see :mod:`ek_env.positions.scenario`
    for the keys)."""
    return position_format(state.config).write(state)


# ------------------------------------------------------------------ reading


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
    raise ValueError(f"{shorten(value)} is not a card of this game; cards: "
                     f"{', '.join(CARD_NAMES[:kinds])}")


def read_cards(value: object, where: str, kinds: int) -> list[int]:
    """A list of cards (names, ``Card``s or kind numbers) as kinds."""
    return scenario.read_cards(value, where, partial(parse_card, kinds=kinds))


def read_card(value: object, where: str, kinds: int) -> int:
    """One card, or :data:`~ek_env.engine.state.NO_CARD` for ``None``."""
    if value is None:
        return -1
    return scenario.read_card(value, where, partial(parse_card, kinds=kinds))

