"""Scenarios: a fixed setup of the first round, for tests, tutorials and analysis.

A scenario is a mapping with any of these keys (cards by value 0..10, ``Card``, or
name such as ``"crystal_bowl"`` or ``"Crystal Bowl"``):

- ``hands``: one card per seat (a card, or a one-card list).
- ``deck``: the whole draw pile, top first; or ``deck_top``: its top cards, the rest
  shuffled beneath.
- ``set_aside``: the face-down set-aside card.
- ``face_up``: the two face-up set-aside cards (two players only).
- ``first_player``: the seat that starts (it draws first).
- ``tokens``: tokens per seat already won (each below the target, at most 7 in all).

Whatever is left out is dealt at random from the cards not named. Every error says
what was wrong and what is allowed; a failed scenario changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardgym.errors import ScenarioError
from phpets_env.cards import CARD_VALUES, COPIES, TOTAL_TOKENS, Card, face_up_aside, parse_card
from phpets_env.state import NO_CARD, Config, State

KEYS = ("hands", "deck", "deck_top", "set_aside", "face_up", "first_player", "tokens")


@dataclass(frozen=True)
class Setup:
    """A checked scenario: card values (``None``: dealt at random).

    Attributes:
        hands: one card per seat.
        face_up: the face-up set-aside cards (two players).
        aside: the face-down set-aside card.
        deck_top: the top of the draw pile, top first (with ``deck``, all of it).
        first: the start player.
        tokens: tokens per seat.
    """

    hands: list[int] | None
    face_up: list[int] | None
    aside: int | None
    deck_top: list[int]
    first: int | None
    tokens: list[int] | None


def apply_scenario(state: State, scenario: Mapping[str, Any], rng: np.random.Generator) -> None:
    """Deal round 1 of ``state`` as ``scenario`` says (see the module docstring)."""
    deal(state, check_scenario(scenario, state.config), rng)


# ------------------------------------------------------------------ checking


def check_scenario(scenario: Mapping[str, Any], config: Config) -> Setup:
    """The scenario's setup, every card and count checked against the deck and table.

    Raises:
        ScenarioError: saying what was wrong and what is allowed.
    """
    if not isinstance(scenario, Mapping):
        raise ScenarioError(f"a scenario must be a mapping with keys {KEYS}, got {scenario!r}")
    unknown = sorted(set(scenario) - set(KEYS))
    if unknown:
        raise ScenarioError(f"unknown scenario keys {unknown}; allowed: {', '.join(KEYS)}")
    if "deck" in scenario and "deck_top" in scenario:
        raise ScenarioError("give either 'deck' (the whole pile) or 'deck_top', not both")
    n = config.num_players
    hands = _hands(scenario["hands"], n) if "hands" in scenario else None
    face_up = _face_up(scenario["face_up"], n) if "face_up" in scenario else None
    aside = _card(scenario["set_aside"], "set_aside") if "set_aside" in scenario else None
    deck_top = _cards(scenario.get("deck", scenario.get("deck_top", [])), "deck")
    pile = len(CARD_VALUES) - 1 - face_up_aside(n) - n
    if len(deck_top) > pile:
        raise ScenarioError(
            f"the draw pile holds {pile} cards with {n} players; the scenario puts "
            f"{len(deck_top)} in it"
        )
    _check_copies((hands or []) + (face_up or []) + ([aside] if aside is not None else [])
                  + deck_top)
    if "deck" in scenario and (len(deck_top) != pile or hands is None or aside is None
                       or (face_up_aside(n) and face_up is None)):
        raise ScenarioError(
            f"'deck' must be the whole draw pile ({pile} cards with {n} players) and needs "
            "'hands', 'set_aside' (and 'face_up' with two players); use 'deck_top' for a partial pile"
        )
    first = _first_player(scenario.get("first_player"), n)
    tokens = _tokens(scenario.get("tokens"), n, config.tokens_to_win)
    return Setup(hands, face_up, aside, deck_top, first, tokens)


def _card(value: object, where: str) -> int:
    if isinstance(value, np.integer):
        value = int(value)
    try:
        return int(parse_card(value))
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from None


def _cards(value: object, where: str) -> list[int]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ScenarioError(f"{where} must be a list of cards, got {value!r}")
    return [_card(item, f"{where}[{i}]") for i, item in enumerate(value)]  # type: ignore[attr-defined]


def _hands(raw: Any, n: int) -> list[int]:
    """One card per seat, each a card or a one-card list."""
    if isinstance(raw, (str, bytes)) or not hasattr(raw, "__len__") or len(raw) != n:
        raise ScenarioError(f"'hands' must list one card for each of the {n} seats, got {raw!r}")
    hands = []
    for seat, hand in enumerate(raw):
        if isinstance(hand, (list, tuple)):
            if len(hand) != 1:
                raise ScenarioError(
                    f"hands[{seat}] must hold exactly one card before the first draw, got {hand!r}"
                )
            hand = hand[0]
        hands.append(_card(hand, f"hands[{seat}]"))
    return hands


def _face_up(raw: Any, n: int) -> list[int]:
    face_up = _cards(raw, "face_up")
    if len(face_up) != face_up_aside(n):
        raise ScenarioError(
            f"face_up must hold {face_up_aside(n)} cards with {n} players, got {len(face_up)}"
        )
    return face_up


def _check_copies(named: list[int]) -> None:
    """No value named more often than the deck holds it."""
    for value in set(named):
        copies = COPIES[Card(value)]
        if named.count(value) > copies:
            raise ScenarioError(
                f"the scenario names card {value} {named.count(value)} times; "
                f"the deck has {copies} of it"
            )


def _first_player(first: Any, n: int) -> int | None:
    if first is not None and (
        not isinstance(first, (int, np.integer)) or isinstance(first, bool) or not 0 <= first < n
    ):
        raise ScenarioError(f"first_player must be a seat 0..{n - 1}, got {first!r}")
    return None if first is None else int(first)


def _tokens(tokens: Any, n: int, target: int) -> list[int] | None:
    if tokens is None:
        return None
    if (
        isinstance(tokens, (str, bytes))
        or not hasattr(tokens, "__len__")
        or len(tokens) != n
        or any(not isinstance(t, (int, np.integer)) or not 0 <= t < target for t in tokens)
        or sum(tokens) > TOTAL_TOKENS
    ):
        raise ScenarioError(
            f"tokens must list {n} counts, each 0..{target - 1} (the match is won at {target}), "
            f"at most {TOTAL_TOKENS} in all; got {tokens!r}"
        )
    return [int(t) for t in tokens]


# ------------------------------------------------------------------- dealing


def deal(state: State, setup: Setup, rng: np.random.Generator) -> None:
    """Deal round 1 of ``state`` from a checked setup: the named cards where it puts
    them, the others shuffled into the places left."""
    n = state.num_players
    rest_values = list(CARD_VALUES)
    named = ((setup.hands or []) + (setup.face_up or [])
             + ([setup.aside] if setup.aside is not None else []) + setup.deck_top)
    for value in named:
        rest_values.remove(value)
    order = rng.permutation(len(rest_values))
    rest = [rest_values[i] for i in order]
    pools: dict[int, list[int]] = {}
    for card_id, value in enumerate(CARD_VALUES):
        pools.setdefault(value, []).append(card_id)

    def take(value: int) -> int:
        return pools[value].pop()

    state.hands = [[take(v)] for v in setup.hands] if setup.hands is not None else []
    state.face_up = [take(v) for v in setup.face_up] if setup.face_up is not None else []
    state.aside = take(setup.aside) if setup.aside is not None else NO_CARD
    top = [take(v) for v in setup.deck_top]
    if state.aside == NO_CARD:
        state.aside = take(rest.pop())
    if setup.face_up is None:
        state.face_up = [take(rest.pop()) for _ in range(face_up_aside(n))]
    if setup.hands is None:
        state.hands = [[take(rest.pop())] for _ in range(n)]
    below = [take(v) for v in rest]
    state.deck = below[::-1] + top[::-1]  # top card last
    state.rows = [[] for _ in range(n)]
    state.in_round = [True] * n
    state.protected = [False] * n
    state.known = [1 << hand[0] for hand in state.hands]
    if setup.tokens is not None:
        state.tokens = setup.tokens
        state.token_supply = TOTAL_TOKENS - sum(state.tokens)
    state.round_start = setup.first if setup.first is not None else int(rng.integers(n))
    state.round_number = 1
