"""The rules of Kuhn poker: the engine, with no gymnasium or PettingZoo in it.

Three cards, Jack < Queen < King. Each of two players antes, is dealt one card
and keeps it hidden; the third card stays out unseen. Seat 0 acts first and may
check or bet one chip. After a check, seat 1 may check (showdown) or bet; facing a
bet, a player folds (the other takes the pot) or calls (showdown). At the showdown
the higher card takes the pot.

The state holds everything; the randomness of the deal comes in as a generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from cardgym.chance import Chance
from cardgym.config import check_choice, check_num_players
from cardgym.errors import ScenarioError
from cardgym.record import NONE, TABLE, Event
from cardgym.state import SlotState, slot

CARD_NAMES: Final = ("jack", "queen", "king")
NUM_CARDS: Final = len(CARD_NAMES)
CHECK: Final = 0
BET: Final = 1  # one chip
CALL: Final = 2  # match a bet
FOLD: Final = 3  # give up facing a bet
MOVE_NAMES: Final = ("check", "bet", "call", "fold")
MOVE_VERBS: Final = ("checks", "bets", "calls", "folds")

# Record codes (cardgym.record.Event.what).
DEAL: Final = 0  # the card dealt to ``target`` (secret to that seat)
MOVE: Final = 1  # ``actor`` moved (``result``: CHECK, BET, CALL or FOLD)
SHOW: Final = 2  # ``actor`` shows ``card`` at the showdown
WIN: Final = 3  # ``actor`` takes the pot of ``result`` chips from the other seat

ANTES: Final = (1, 2)


@dataclass(frozen=True)
class Config:
    """Rule options.

    Attributes:
        num_players: 2.
        ante: chips each player puts in before the deal: 1 or 2.
    """

    num_players: int = 2
    ante: int = 1

    def __post_init__(self) -> None:
        check_num_players(self, "Kuhn poker", 2, 2)
        check_choice("ante", self.ante, ANTES)


def _deal_events(cards: list[int]) -> list[Event]:
    return [Event(TABLE, DEAL, target=seat, secret=cards[seat], seen_by=1 << seat)
            for seat in (0, 1)]


class State(SlotState):
    """A hand of Kuhn poker: the cards, the betting so far and the public record.

    Each field is declared once (:func:`cardgym.state.slot`): ``__slots__``,
    ``clone()`` and the conformance kit's checks follow from the declarations."""

    config: Config = slot("config")
    num_players: int = slot("int", init=2)
    cards: list[int] = slot("cards", mutable=True, hidden=True, json="cards",
                            doc="cards[s]: seat s's card; cards[2]: the card out of play")
    moves: list[int] = slot("moves", mutable=True, json="moves", init=[])
    to_act: int = slot("seat", init=0)
    over: bool = slot("flag", init=False)
    log: list[Event] = slot("log", mutable=True, hidden=True, init=[])

    def __init__(self, config: Config, cards: list[int]) -> None:
        super().__init__(config)
        self.cards = cards
        self.log = _deal_events(cards)


def new_game(config: Config, rng: Chance,
             scenario: Mapping[str, Any] | None = None) -> State:
    """A new hand, dealt from ``rng``, or set up as ``scenario`` says:
    ``{"cards": [card of seat 0, card of seat 1], "moves": ["check", "bet"]}``, cards
    by name or number, and the moves made so far (default none), each checked."""
    if scenario:
        return _from_scenario(config, scenario)
    return State(config, [int(card) for card in rng.permutation(NUM_CARDS)])


SCENARIO_KEYS: Final = ("cards", "moves")


def position(state: State) -> dict[str, Any]:
    """The hand as a scenario: the two cards and the moves so far."""
    return {"cards": [CARD_NAMES[card] for card in state.cards[:2]],
            "moves": [MOVE_NAMES[move] for move in state.moves]}


def _from_scenario(config: Config, scenario: Mapping[str, Any]) -> State:
    if not isinstance(scenario, Mapping) or "cards" not in scenario or not set(scenario) <= set(
            SCENARIO_KEYS):
        raise ScenarioError(f"a Kuhn poker scenario is {{'cards': [card, card], 'moves': "
                            f"[move, ...]}} ('moves' optional), got {scenario!r}")
    state = State(config, _scenario_cards(scenario["cards"]))
    moves = scenario.get("moves", [])
    if isinstance(moves, (str, bytes)) or not isinstance(moves, list):
        raise ScenarioError(f"moves must be a list of {', '.join(MOVE_NAMES)}, got {moves!r}")
    for number, name in enumerate(moves):
        move = MOVE_NAMES.index(name) if name in MOVE_NAMES else None
        if move is None or not legal_mask(state) >> move & 1:
            legal = [MOVE_NAMES[m] for m in range(len(MOVE_NAMES)) if legal_mask(state) >> m & 1]
            raise ScenarioError(f"moves[{number}]: {name!r} is not a legal move there; legal: "
                                f"{', '.join(legal) or 'none, the hand is over'}")
        apply_move(state, move)
    return state


def _scenario_cards(given: Any) -> list[int]:
    names = {name: index for index, name in enumerate(CARD_NAMES)}
    try:
        cards = [names[card] if isinstance(card, str) else int(card) for card in given]
    except (KeyError, TypeError, ValueError):
        raise ScenarioError(f"cards {given!r}: each card is one of {CARD_NAMES} or 0..2") from None
    if len(cards) != 2 or len(set(cards)) != 2 or not all(0 <= c < NUM_CARDS for c in cards):
        raise ScenarioError(f"cards {given!r}: two different cards of {CARD_NAMES}")
    return cards + [next(c for c in range(NUM_CARDS) if c not in cards)]


def to_act(state: State) -> int:
    """The seat to act (the last actor once the hand is over)."""
    return state.to_act


def is_over(state: State) -> bool:
    """Whether the hand is over."""
    return state.over


_OPENING: Final = 1 << CHECK | 1 << BET
_FACING_BET: Final = 1 << CALL | 1 << FOLD


def legal_mask(state: State) -> int:
    """The legal moves as a bit mask (bit ``m``: move ``m``): check or bet, or, facing
    a bet, call or fold; none once the hand is over."""
    if state.over:
        return 0
    return _FACING_BET if state.moves and state.moves[-1] == BET else _OPENING


def apply_move(state: State, move: int) -> None:
    """Apply a legal move of the seat to act (no legality check: see ``legal_mask``)."""
    actor = state.to_act
    state.moves.append(move)
    state.log.append(Event(actor, MOVE, result=move))
    if move == FOLD:
        # A fold gives up the ante: the folder never matched the bet.
        _win(state, 1 - actor, state.config.ante)
    elif move == CALL:
        _showdown(state, state.config.ante + 1)
    elif state.moves == [CHECK, CHECK]:
        _showdown(state, state.config.ante)
    else:
        state.to_act = 1 - actor


def _showdown(state: State, chips: int) -> None:
    for seat in (0, 1):
        state.log.append(Event(seat, SHOW, card=state.cards[seat]))
    _win(state, int(state.cards[1] > state.cards[0]), chips)


def _win(state: State, winner: int, chips: int) -> None:
    state.log.append(Event(winner, WIN, result=chips))
    state.over = True


def winners(state: State) -> frozenset[int]:
    """The seat that took the pot (none before the end)."""
    return frozenset(e.actor for e in state.log if e.what == WIN)


def returns(state: State) -> list[float]:
    """Chips won and lost once the hand is over; zeros before."""
    result = [0.0, 0.0]
    for event in state.log:
        if event.what == WIN:
            result[event.actor] = float(event.result)
            result[1 - event.actor] = -float(event.result)
    return result


@dataclass(frozen=True)
class PlayerView:
    """What one seat may know: its card, the moves, and cards shown at a showdown."""

    seat: int
    card: int
    moves: tuple[int, ...]
    shown: int  # the other seat's card once shown, else NONE
    to_act: bool
    over: bool

    @classmethod
    def of(cls, state: State, seat: int) -> PlayerView:
        shown = next((e.card for e in state.log if e.what == SHOW and e.actor != seat), NONE)
        return cls(seat, state.cards[seat], tuple(state.moves), shown,
                   state.to_act == seat and not state.over, state.over)


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state``: unless the cards were shown,
    the other seat's card is dealt anew from the two ``seat`` does not hold."""
    sample = state.clone()
    if any(e.what == SHOW for e in state.log):
        return sample
    others = [card for card in range(NUM_CARDS) if card != state.cards[seat]]
    pick = int(rng.integers(2))
    sample.cards[1 - seat], sample.cards[2] = others[pick], others[1 - pick]
    # The deal is the first two events; nothing after it is secret.
    sample.log[:2] = _deal_events(sample.cards)
    return sample


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` naming the first broken rule invariant."""
    assert sorted(state.cards) == [0, 1, 2], f"the cards are not one deck: {state.cards}"
    assert len(state.moves) <= 3, f"more than three moves: {state.moves}"
    assert state.over == (len(winners(state)) == 1), "the hand ends exactly when a seat wins"
    assert sum(returns(state)) == 0, "chips are conserved"


def choice_visibility(state: State, action: int) -> tuple[int, int]:
    """Every move is seen by both seats."""
    return action, 1 << state.to_act


def describe_event(event: Event, seat: int, num_players: int) -> str:
    """One event in words, as ``seat`` saw it (``TABLE``: the full view): the viewer is
    "you", the other seat "seat N"."""
    seen = event if seat == TABLE else event.as_seen_by(seat)
    if seen.what == DEAL:
        card = CARD_NAMES[seen.secret] if seen.secret != NONE else "a card"
        if seen.target == seat:
            return f"you are dealt {card}"
        return f"seat {seen.target} is dealt {card}"
    you = seen.actor == seat
    who = "you" if you else f"seat {seen.actor}"
    if seen.what == MOVE:
        return f"{who} {(MOVE_NAMES if you else MOVE_VERBS)[seen.result]}"
    if seen.what == SHOW:
        return f"{who} {'show' if you else 'shows'} {CARD_NAMES[seen.card]}"
    chips = "chip" if seen.result == 1 else "chips"
    return f"{who} {'win' if you else 'wins'} {seen.result} {chips}"
