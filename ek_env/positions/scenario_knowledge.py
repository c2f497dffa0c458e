"""Scenarios: what each seat knows and the public record (``known``, ``ruled_out``,
``log``; :mod:`ek_env.positions.scenario` lists every key).

Knowledge is checked to be true (a known depth holds the card known there; a lower
bound on a hand does not exceed it), and each event of the record to fit what the
observation shows of it.
"""

from __future__ import annotations

from cardgym.errors import ScenarioError, shorten
from cardgym.record import NONE, Event
from cardgym.scenario import is_list, read_int, read_mapping
from ek_env.engine import record as rec
from ek_env.engine.cards import CARD_NAMES
from ek_env.engine.state import UNKNOWN, State
from ek_env.positions.position import read_cards


def read_known(state: State, value: object) -> None:
    """What each seat knows of the draw pile and of the hands."""
    if value is None:
        return
    n, kinds = state.num_players, state.kinds
    if not is_list(value) or len(value) != n:
        raise ScenarioError(f"'known' must list one entry per seat ({n}), each "
                            "{'deck': [[depth, card], ...], 'hands': [[cards], ...]}")
    for seat, entry in enumerate(value):
        data = read_mapping(entry, f"known[{seat}]", ("deck", "hands"))
        state.known_deck[seat] = _known_deck(state, data.get("deck", []), f"known[{seat}].deck")
        hands = data.get("hands")
        if hands is None:
            continue
        where = f"known[{seat}].hands"
        if not is_list(hands) or len(hands) != n:
            raise ScenarioError(f"{where} must list one list of cards per seat ({n})")
        for other, cards in enumerate(hands):
            _known_hand(state, seat, other, read_cards(cards, f"{where}[{other}]", kinds))


def _known_hand(state: State, seat: int, other: int, cards: list[int]) -> None:
    """``seat``'s lower bounds on ``other``'s hand: no more than it holds."""
    where = f"known[{seat}].hands[{other}]"
    if other == seat and cards and not state.blind[seat]:
        raise ScenarioError(f"{where} must be empty: a seat keeps its own hand in mind only "
                            "while blind")
    at = (seat * state.num_players + other) * state.kinds
    for card in cards:
        state.known_hands[at + card] += 1
        if state.known_hands[at + card] > state.hands[other][card]:
            raise ScenarioError(
                f"{where}: seat {seat} knows of {state.known_hands[at + card]} "
                f"{CARD_NAMES[card]} in seat {other}'s hand, which holds "
                f"{state.hands[other][card]} (what a seat knows is true)")


def _known_deck(state: State, value: object, where: str) -> list[int]:
    """Known depths as the state keeps them: the card at each depth, UNKNOWN between."""
    size = len(state.deck)
    if not is_list(value):
        raise ScenarioError(f"{where} must be a list of [depth, card] pairs, got {shorten(value)}")
    known: list[int] = []
    for i, pair in enumerate(value):
        if not is_list(pair) or len(pair) != 2:
            raise ScenarioError(f"{where}[{i}] must be a [depth, card] pair, got {shorten(pair)}")
        if size == 0:
            raise ScenarioError(f"{where}[{i}]: the draw pile is empty; nothing can be known")
        depth = read_int(pair[0], f"{where}[{i}] depth", 0, size - 1)
        card = read_cards([pair[1]], f"{where}[{i}] card", state.kinds)[0]
        if depth < len(known) and known[depth] != UNKNOWN:
            raise ScenarioError(f"{where} names depth {depth} twice")
        if state.deck[size - 1 - depth] != card:
            raise ScenarioError(
                f"{where}[{i}]: depth {depth} holds {CARD_NAMES[state.deck[size - 1 - depth]]}, "
                f"not {CARD_NAMES[card]} (what a seat knows is true)")
        known.extend([UNKNOWN] * (depth + 1 - len(known)))
        known[depth] = card
    return known


def read_ruled_out(state: State, value: list[list[int]] | None) -> None:
    """Kinds the table knows each seat does not hold (read by the position format)."""
    if value is None:
        return
    kinds = state.kinds
    for seat, cards in enumerate(value):
        for card in cards:
            if state.hands[seat][card]:
                raise ScenarioError(f"ruled_out[{seat}]: seat {seat} holds "
                                    f"{CARD_NAMES[card]}; the table rules out only cards "
                                    "a seat does not hold")
            state.ruled_out[seat * kinds + card] = 1


def read_log(state: State, log: list[Event]) -> None:
    """The public record (read by the position format), each field within what the
    observation can show."""
    n, kinds = state.num_players, state.kinds
    for i, event in enumerate(log):
        for field, got, low, high in (
            ("actor", event.actor, 0, n - 1), ("target", event.target, NONE, n - 1),
            ("card", event.card, NONE, kinds - 1), ("result", event.result, NONE, rec.RESULTS - 1),
            ("secret", event.secret, NONE, 1 << 30), ("seen_by", event.seen_by, 0, (1 << n) - 1),
        ):
            if not low <= got <= high:
                raise ScenarioError(f"log[{i}]: {field} must be {low}..{high}, got {got}")
    state.log = log
