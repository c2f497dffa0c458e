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


#: The keys of a position, in order (each with what it holds and its default); the
#: expansion's only with it. ``first_player``, the old name of ``turn_holder``, is read,
#: never written.
FORMAT = (
    Key("hands", _per_seat_cards,
        doc=("one list of cards per seat; no `exploding_kitten` in the base game; with the "
             "expansion one beside the `streaking_kitten` (or while it waits to explode)"),
        default="required"),
    Key("deck", lambda c: Cards(card_codec(c), top_first=True),
        doc=("the whole draw pile, top first; base game: one kitten fewer than the players still "
             "in, less `kittens_to_insert`; with the expansion the kittens in deck and hands are "
             "at most the players still in; at most 79 cards (126 with the expansion)"),
        default="required"),
    Key("discard", lambda c: Counts(card_codec(c)),
        doc="the discard pile, a list of cards", default="`[]`"),
    Key("out_of_play", lambda c: Counts(card_codec(c)),
        doc='cards set aside from exploded players (only with `eliminated_cards="out_of_play"`)',
        default="`[]`"),
    Key("eliminated", _seats, source=lambda state: state.eliminated,
        doc=("the seats out, in the order they exploded; their hands are empty, their kittens "
             "(exactly one each in the base game, at least one with the expansion) and cards are "
             "in `discard` or `out_of_play` as `eliminated_cards` says; they are not among "
             "`env.agents`"),
        default="`[]`"),
    Key("turn_holder", _seat(),
        doc="the seat whose turn it is (`first_player`, its old name, is still read)",
        default="random"),
    Key("owed_turns", lambda c: Integer(1, MAX_OWED),
        doc="turns the turn holder owes, the current one included, 1..9999", default="`1`"),
    Key("attacked", lambda c: Flag(),
        doc="whether those turns come from an Attack (`true`/`false`)", default="`owed_turns > 1`"),
    Key("turns_played", lambda c: Integer(0, MAX_TURNS),
        doc="turns begun so far", default="`0`"),
    Key("phase", lambda c: Name(PHASE_NAMES if c.streaking else PHASE_NAMES[:BASE_PHASES]),
        doc=("`play`, `choose_five`, `name_card`, `nope_window`, `give`, `insert`, `take`, "
             "`game_over`; with the expansion also `alter`, `garbage`, `target`"),
        default='`"play"`'),
    Key("to_act", _seat(),
        doc="the seat deciding now",
        default=("the turn holder; in `nope_window` the living seat after `pending.window_last`; "
                 "in `garbage` the first of `garbage.queue`; in `insert` `resume.seat` if set; in "
                 "`game_over` the winner; none in `give`")),
    Key("pending", _pending,
        doc=('the announced play: `{"kind": "single" | "pair" | "three" | "five", "card": card or '
             'null (five different), "target": seat or null, "named": the card named in three of a'
             ' kind or null, "five": the kinds chosen so far, ascending, "nopes": Nopes played on '
             'it, "window_last": the seat whose play or Nope the running window answers (asked '
             "last) or null}`; present in `choose_five`, `name_card`, `nope_window`, `target`, and"
             " in `insert` when an explosion interrupted its window; its cards and Nopes lie in "
             "`discard`"),
        default="`null`"),
    Key("kittens_to_insert", lambda c: Integer(
        0, composition(c.num_players, True)[KITTEN] if c.streaking else 1),
        doc=("defused kittens the seat to act still puts back (phase `insert`; 1 in the base game,"
             " more when a blind player defused several)"),
        default="`0`"),
    Key("explode_queue", _seats, when=_streaking,
        doc="(expansion) seats whose held kitten explodes next, in order (phase `insert`)",
        default="`[]`"),
    Key("resume", lambda c: Group({"after": Name(RESUME_NAMES),
                                   "seat": Seat(c.num_players, True)}, nullable=True),
        doc=('what goes on once the explosions are settled: `{"after": "play" | "draw" | "window",'
             " \"seat\": seat or null}` (`draw`: the turn holder's draw then settles one owed turn; "
             "`window`: the interrupted Nope window goes on after `seat`); `null` means the turn "
             "holder plays on"),
        default="`null`"),
    Key("alter", lambda c: Group({"left": _cards(c), "placed": _cards(c)}, nullable=True),
        when=_streaking,
        doc=('(expansion) Alter the Future 5x under way (phase `alter`): `{"left": cards still to '
             'place (2 or more; off the pile meanwhile), "placed": cards placed so far, top '
             "first}`"),
        default="`null`"),
    Key("garbage", lambda c: Group({"queue": _seats(c), "in": _cards(c), "from": _seats(c),
                                    "lost": _seats(c)}, nullable=True), when=_streaking,
        doc=('(expansion) Garbage Collection under way (phase `garbage`): `{"queue": seats still '
             'to put a card in, the seat to act first, "in": cards put in so far, "from": who put '
             'each in, "lost": seats whose Streaking Kitten went in while they held a kitten}`'),
        default="`null`"),
    Key("blind", lambda c: SeatsWhere(c.num_players), when=_streaking,
        doc="(expansion) the blind seats", default="`[]`"),
    Key("marked", _per_seat_cards, when=_streaking,
        doc="(expansion) one list of cards per seat: its marked cards, each held in its hand",
        default="none marked"),
    Key("winner", _seat(optional=True),
        doc=("the seat that won (phase `game_over`), or `null` (with the expansion, a `game_over` "
             "without a winner is the dry-deck draw)"),
        default="`null`"),
    Key("known", _known_codec, source=_known,
        doc=('one entry per seat: `{"deck": [[depth, card], ...], "hands": [[cards], ... one list '
             "per seat]}`: the depths of the draw pile it knows (0 = top; true of the deck), and "
             "lower bounds on each hand (its own only while blind)"),
        default="nothing beyond its own hand"),
    Key("ruled_out", lambda c: PerSeat(c.num_players, _cards(c), "list of cards"),
        source=_ruled_out,
        doc=("one list of cards per seat: kinds the table knows it does not hold (a three of a "
             "kind missed)"),
        default="none"),
    Key("log", lambda c: Record(rec.EVENT_NAMES if c.streaking
                                else rec.EVENT_NAMES[:rec.BASE_EVENTS]),
        doc='the public record, `{"what": NAME, "actor": seat, ...}` per event', default="`[]`"),
    Key("first_player", _seat(), read_only=True),
)


@functools.lru_cache(maxsize=64)
def position_format(config: Config) -> PositionFormat:
    """The position format under ``config``."""
    return PositionFormat(FORMAT, State, config)


def position(state: State) -> dict[str, Any]:
    """``state`` as a scenario naming everything (JSON types; :data:`FORMAT` declares the
    keys)."""
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

