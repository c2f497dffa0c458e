"""Positions: a Power Hungry Pets state written as a scenario, and a checked scenario's
cards put in their places (docs/positions.md).

:func:`position` writes every key of :data:`~phpets_env.positions.scenario.KEYS` but ``deck_top``;
``new_game(config, rng, position(state))`` sets up the same state again without drawing
from ``rng``, up to which copy of a value holds which id: a scenario names values, so the
copies of a value take its ids in a fixed order of places (:func:`ordered_places`), and
:func:`canonical` gives a state's ids that order, as the loader would. The loader's side
is here too: every card counted (:func:`check_counts`), those left out dealt at random
and all of them given ids (:func:`build`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

from cardgym.chance import Chance
from cardgym.errors import ScenarioError
from cardgym.position_format import (
    Cards,
    Codec,
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
    ValueBits,
    Verbatim,
)
from phpets_env.engine.cards import (
    CARD_NAMES,
    CARD_VALUES,
    COPIES,
    NUM_CARDS,
    NUM_VALUES,
    TOTAL_TOKENS,
    Card,
    face_up_aside,
    parse_card,
)
from phpets_env.engine.events import EVENT_NAMES
from phpets_env.engine.state import NO_CARD, PHASE_NAMES, Config, State
from phpets_env.positions.scenario_known import set_known, write_known
from phpets_env.positions.scenario_setup import Setup

T = TypeVar("T")
#: The ids of each value's copies, ascending.
IDS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, v in enumerate(CARD_VALUES) if v == value) for value in range(NUM_VALUES))


#: The largest number a position holds in a round number or a record's secret (the
#: engines keep them in 32-bit integers).
MAX_NUMBER = 1 << 30


def card_codec(config: Config) -> OneCard:
    """A card by its value's name (the state's physical ids mapped to values)."""
    return OneCard(CARD_NAMES, parse_card, CARD_VALUES.__getitem__)


def _cards(config: Config) -> Codec:
    return Cards(card_codec(config))


def _known(state: State) -> list[dict[str, Any]]:
    return [write_known(state, seat) for seat in range(state.num_players)]


#: A place in what a seat knows: ``["hands", seat, index]``, ``["deck", depth]``,
#: ``["aside"]`` or ``["pending"]``.
_PLACE = {"type": "array", "minItems": 1, "maxItems": 3,
          "prefixItems": [{"enum": ["hands", "deck", "aside", "pending"]}],
          "items": {"type": "integer", "minimum": 0}}


def _known_codec(config: Config) -> Codec:
    card = card_codec(config).optional().schema()
    entry = {"type": "object", "additionalProperties": False, "properties": {
        "hands": {"type": "array", "items": {"type": "array", "items": card}},
        "aside": card, "pending": card,
        "deck": {"type": "array", "items": {"type": "array", "prefixItems": [
            {"type": "integer", "minimum": 0}, card_codec(config).schema()],
            "minItems": 2, "maxItems": 2}},
        "trapped": {"type": "array", "items": _PLACE},
        "watches_deck": {"type": "boolean"}}}
    return Verbatim({"type": "array", "minItems": config.num_players,
                     "maxItems": config.num_players, "items": entry})


#: The keys of a position, in order, each with what it holds and its default (shown in
#: docs/positions.md).
FORMAT = (
    Key("round", lambda c: Integer(1, MAX_NUMBER),
        doc="the round number, 1-based", default="1"),
    Key("tokens", lambda c: PerSeat(c.num_players, Integer(0, c.tokens_to_win), "count"),
        doc=("tokens won per seat, a list of ints; each below the target (3 with 2-3 players, 2 "
             "with 4-6) unless the match is over, at most 7 in all; the supply holds the rest"),
        default="all 0"),
    Key("first_player", lambda c: Seat(c.num_players),
        doc="the round's start player (a seat)", default="a random seat in the round"),
    Key("to_act", lambda c: Seat(c.num_players),
        doc=("the seat that decides now. **Without it the scenario is a round about to begin**: "
             "the new round is logged and `first_player` begins the first turn (it draws; on an "
             "empty pile, the showdown). With it the position is taken as it is: nothing is drawn "
             "or logged"),
        default="none (a round about to begin)"),
    Key("phase", lambda c: Name(PHASE_NAMES),
        doc=('`"play"`, `"grave_digger"` (keep or swap; the player has seen the set-aside card), '
             '`"mouse_trapper"` (place `pending`), `"match_over"`; needs `to_act`'),
        default='`"play"`'),
    Key("hands", lambda c: PerSeat(c.num_players, _cards(c), "hand"),
        doc=("per seat its cards, oldest first (a list; a bare card for a one-card hand): none for"
             " a seat out of the round, one for a seat in it, two for the seat to act in phase "
             "`play`"),
        default="dealt at random"),
    Key("rows", lambda c: PerSeat(c.num_players, _cards(c), "list of cards"),
        doc=("per seat its row, oldest first: cards played, shown by Snake Sorcerer, put face up "
             "on elimination"),
        default="all empty"),
    Key("eliminated", lambda c: SeatsWhere(c.num_players, flag=False),
        doc="seats out of the round, a sorted list", default="the seats given an empty hand"),
    Key("protected", lambda c: SeatsWhere(c.num_players),
        doc="seats a Shell Shield protects, a sorted list (never the seat to act)", default="none"),
    Key("set_aside", lambda c: card_codec(c).optional(NO_CARD),
        doc=("the face-down set-aside card; `null` once Snake Sorcerer took it (the pile is then "
             "empty)"),
        default="dealt at random"),
    Key("face_up", _cards,
        doc="the two cards set aside face up (2 players; `[]` otherwise)",
        default="dealt at random"),
    Key("deck", lambda c: Cards(card_codec(c), top_first=True),
        doc=("the whole draw pile, top first; it may be short or empty: every one of the 21 cards "
             "then needs a place (hands + rows + set_aside + face_up + deck + pending), those of "
             "the places left out dealt from the cards not named"),
        default="—"),
    Key("deck_top", _cards, read_only=True,
        doc=("the top of the draw pile, top first; the rest of the cards not named shuffled "
             "beneath (not with `deck`)"),
        default="the whole pile at random"),
    Key("pending", lambda c: card_codec(c).optional(NO_CARD),
        doc=("the card Mouse Trapper's player holds out, in phase `mouse_trapper` only (`null` "
             "otherwise)"),
        default="none"),
    Key("ruled_out", lambda c: PerSeat(c.num_players, ValueBits(card_codec(c), NUM_VALUES),
                                       "list of values"),
        doc=("per seat, a list of the values the table knows it does not hold (a missed Crystal "
             "Bowl, a Battle Bunny, Not A Pet! without a swap); only with `hands`"),
        default="none"),
    Key("known", _known_codec, source=_known,
        doc="per seat, a mapping of what it knows beyond the public cards, by place (below)",
        default="each seat knows its own hand only"),
    Key("round_winners", lambda c: Seats(c.num_players, distinct=False),
        doc="the previous round's winners, clockwise from its start player", default="none"),
    Key("match_winners", lambda c: Seats(c.num_players, distinct=False),
        doc="the winners of a finished match (phase `match_over` only)", default="none"),
    Key("log", lambda c: Record(EVENT_NAMES),
        doc="the public record, `cardgym.record.log_to_json(state.log, EVENT_NAMES)`",
        default="empty"),
)


@functools.lru_cache(maxsize=64)
def position_format(config: Config) -> PositionFormat:
    """The position format under ``config``."""
    return PositionFormat(FORMAT, State, config)


def position(state: State) -> dict[str, Any]:
    """``state`` as a scenario naming everything, in JSON types (cards by name)."""
    return position_format(state.config).write(state)


def canonical(state: State) -> State:
    """A copy of ``state`` whose copies of each value hold its ids in the order the
    scenario loader gives them (:func:`ordered_places`); the rest as it is."""
    ids = ordered_places(state.hands, state.rows, _held(state.aside), state.face_up,
                         state.deck[::-1], _held(state.pending))
    relabel = dict(zip(ids, assign_ids([CARD_VALUES[c] for c in ids]), strict=True))
    clone: State = state.clone()
    clone.hands = [[relabel[c] for c in hand] for hand in state.hands]
    clone.rows = [[relabel[c] for c in row] for row in state.rows]
    clone.face_up = [relabel[c] for c in state.face_up]
    clone.deck = [relabel[c] for c in state.deck]
    clone.aside = relabel.get(state.aside, NO_CARD)
    clone.pending = relabel.get(state.pending, NO_CARD)
    clone.known = [_relabel_bits(mask, relabel) for mask in state.known]
    clone.trapped = [_relabel_bits(mask, relabel) for mask in state.trapped]
    clone.public_log = clone.public_seen = None
    return clone


def _held(card_id: int) -> list[int]:
    return [] if card_id == NO_CARD else [card_id]


def _relabel_bits(mask: int, relabel: dict[int, int]) -> int:
    out = 0
    for card_id, new in relabel.items():
        if mask >> card_id & 1:
            out |= 1 << new
    return out


def named_cards(setup: Setup) -> list[int]:
    """Every card value a checked scenario places."""
    named = [value for row in setup.rows for value in row] + setup.deck_top
    for hand in setup.hands or []:
        named += hand
    named += setup.face_up or []
    named += [value for value in (setup.aside, setup.pending) if value is not None]
    return named


def _to_deal(setup: Setup, n: int) -> int:
    """Places the scenario leaves to deal at random, besides the rest of the pile."""
    dealt = 0 if setup.hands is not None else sum(setup.sizes)
    dealt += 0 if setup.aside is not None or setup.aside_taken else 1
    return dealt + (0 if setup.face_up is not None else face_up_aside(n))


def check_counts(setup: Setup, n: int) -> None:
    """No value named more often than the deck holds it; every card with a place, and no
    more in the pile than a round puts there."""
    named = named_cards(setup)
    for value in sorted(set(named)):
        if named.count(value) > COPIES[Card(value)]:
            raise ScenarioError(f"the scenario names card {value} {named.count(value)} times; "
                                f"the deck has {COPIES[Card(value)]} of it")
    left, to_deal = NUM_CARDS - len(named), _to_deal(setup, n)
    if setup.whole_deck and left != to_deal:
        raise ScenarioError(
            f"'deck' is the whole draw pile, so every card needs a place: the scenario names "
            f"{len(named)} of the {NUM_CARDS} cards and leaves {to_deal} places to deal at random "
            f"(hands, set_aside, face_up not given), so {left - to_deal:+d} cards would have no "
            "place (use 'deck_top' for the top of a pile whose rest is dealt at random)")
    if left < to_deal:
        raise ScenarioError(
            f"the scenario names {len(named)} cards and leaves {to_deal} places to deal, but only "
            f"{left} cards are left ('deck_top' can hold at most "
            f"{len(setup.deck_top) - to_deal + left} cards here)")
    pile = NUM_CARDS - 1 - face_up_aside(n) - n
    in_pile = len(setup.deck_top) + left - to_deal + (setup.pending is not None)
    if in_pile > pile:
        raise ScenarioError(f"'deck' would hold {in_pile} cards (with the held-out card and the "
                            f"cards left over); a round never has more than {pile} in its draw "
                            f"pile with {n} players")


def ordered_places(hands: Sequence[Sequence[T]], rows: Sequence[Sequence[T]],
                   aside: Sequence[T], face_up: Sequence[T], deck_top_first: Sequence[T],
                   pending: Sequence[T]) -> list[T]:
    """Every place's card in the order the copies of a value take their ids: hands by
    seat, rows by seat, the set-aside card, the face-up pair, the pile top first, the
    held-out card (each place given as a list, empty when it holds none)."""
    places = [card for hand in hands for card in hand]
    places += [card for row in rows for card in row]
    return places + [*aside, *face_up, *deck_top_first, *pending]


def assign_ids(values: Sequence[int]) -> list[int]:
    """Ids for cards of ``values`` listed in :func:`ordered_places` order: each value's
    copies take its ids lowest first."""
    taken = [0] * NUM_VALUES
    ids = []
    for value in values:
        ids.append(IDS_OF[value][taken[value]])
        taken[value] += 1
    return ids


def _fill(setup: Setup, n: int, rng: Chance) -> dict[str, Any]:
    """Every place's card values, those the scenario leaves out dealt from the rest."""
    rest = list(CARD_VALUES)
    for value in named_cards(setup):
        rest.remove(value)
    if rest:
        rest = [rest[i] for i in rng.permutation(len(rest))]
    aside = ([] if setup.aside_taken else
             [setup.aside] if setup.aside is not None else [rest.pop()])
    face_up = (setup.face_up if setup.face_up is not None
               else [rest.pop() for _ in range(face_up_aside(n))])
    hands = (setup.hands if setup.hands is not None
             else [[rest.pop() for _ in range(size)] for size in setup.sizes])
    pending = [] if setup.pending is None else [setup.pending]
    return {"hands": hands, "rows": setup.rows, "aside": aside, "face_up": face_up,
            "deck_top_first": setup.deck_top + rest, "pending": pending}


def _split(ids: list[int], layout: dict[str, Any]) -> dict[str, Any]:
    """``ids`` (in :func:`ordered_places` order) cut into the places of ``layout``."""
    taken = iter(ids)
    out: dict[str, Any] = {}
    for key in ("hands", "rows"):
        out[key] = [[next(taken) for _ in part] for part in layout[key]]
    for key in ("aside", "face_up", "deck_top_first", "pending"):
        out[key] = [next(taken) for _ in layout[key]]
    return out


def build(state: State, setup: Setup, rng: Chance) -> None:
    """Set a new ``state`` up from a checked setup: the named cards where it puts them,
    the others dealt at random into the places left."""
    n = state.num_players
    layout = _fill(setup, n, rng)
    places = _split(assign_ids(ordered_places(**layout)), layout)
    state.hands, state.rows, state.face_up = places["hands"], places["rows"], places["face_up"]
    state.aside = places["aside"][0] if places["aside"] else NO_CARD
    state.pending = places["pending"][0] if places["pending"] else NO_CARD
    state.deck = places["deck_top_first"][::-1]  # top card last
    state.in_round, state.protected = setup.in_round, setup.protected
    state.tokens = setup.tokens
    state.token_supply = TOTAL_TOKENS - sum(setup.tokens)
    state.phase, state.round_number = setup.phase, setup.round_number
    state.round_winners, state.match_winners = setup.round_winners, setup.match_winners
    state.ruled_out, state.log = setup.ruled_out, setup.log
    first = setup.first
    if first is None:
        alive = [seat for seat in range(n) if setup.in_round[seat]]
        first = alive[int(rng.integers(len(alive)))]
    state.round_start = first
    state.to_act = first if setup.to_act is None else setup.to_act
    set_known(state, setup.known)
