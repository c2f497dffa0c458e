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
from typing import Any

import numpy as np

from cardgym.errors import ScenarioError
from phpets_env.cards import CARD_VALUES, COPIES, TOTAL_TOKENS, face_up_aside, parse_card
from phpets_env.state import State

KEYS = ("hands", "deck", "deck_top", "set_aside", "face_up", "first_player", "tokens")


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


def apply_scenario(state: State, scenario: Mapping[str, Any], rng: np.random.Generator) -> None:
    """Deal round 1 of ``state`` as ``scenario`` says (see the module docstring)."""
    if not isinstance(scenario, Mapping):
        raise ScenarioError(f"a scenario must be a mapping with keys {KEYS}, got {scenario!r}")
    unknown = sorted(set(scenario) - set(KEYS))
    if unknown:
        raise ScenarioError(f"unknown scenario keys {unknown}; allowed: {', '.join(KEYS)}")
    if "deck" in scenario and "deck_top" in scenario:
        raise ScenarioError("give either 'deck' (the whole pile) or 'deck_top', not both")
    n = state.num_players

    hands: list[int] | None = None
    if "hands" in scenario:
        raw = scenario["hands"]
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

    face_up: list[int] | None = None
    if "face_up" in scenario:
        face_up = _cards(scenario["face_up"], "face_up")
        if len(face_up) != face_up_aside(n):
            raise ScenarioError(
                f"face_up must hold {face_up_aside(n)} cards with {n} players, got {len(face_up)}"
            )
    aside = _card(scenario["set_aside"], "set_aside") if "set_aside" in scenario else None
    deck_top = _cards(scenario.get("deck", scenario.get("deck_top", [])), "deck")

    pile = len(CARD_VALUES) - 1 - face_up_aside(n) - n
    if len(deck_top) > pile:
        raise ScenarioError(
            f"the draw pile holds {pile} cards with {n} players; the scenario puts "
            f"{len(deck_top)} in it"
        )

    named = (hands or []) + (face_up or []) + ([aside] if aside is not None else []) + deck_top
    pools: dict[int, list[int]] = {}
    for card_id, value in enumerate(CARD_VALUES):
        pools.setdefault(value, []).append(card_id)
    for value in set(named):
        if named.count(value) > COPIES[value]:  # type: ignore[index]
            raise ScenarioError(
                f"the scenario names card {value} {named.count(value)} times; "
                f"the deck has {COPIES[value]} of it"  # type: ignore[index]
            )
    rest_values = [v for v in CARD_VALUES]
    for value in named:
        rest_values.remove(value)
    if "deck" in scenario:
        if len(deck_top) != pile or hands is None or aside is None or (
            face_up_aside(n) and face_up is None
        ):
            raise ScenarioError(
                f"'deck' must be the whole draw pile ({pile} cards with {n} players) and needs "
                "'hands', 'set_aside' (and 'face_up' with two players); use 'deck_top' for a partial pile"
            )

    first = scenario.get("first_player")
    if first is not None and (
        not isinstance(first, (int, np.integer)) or isinstance(first, bool) or not 0 <= first < n
    ):
        raise ScenarioError(f"first_player must be a seat 0..{n - 1}, got {first!r}")
    tokens = scenario.get("tokens")
    if tokens is not None:
        target = state.config.tokens_to_win
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

    # Validated: now fill in the state.
    order = rng.permutation(len(rest_values))
    rest = [rest_values[i] for i in order]

    def take(value: int) -> int:
        return pools[value].pop()

    state.hands = [[take(v)] for v in hands] if hands is not None else []
    state.face_up = [take(v) for v in face_up] if face_up is not None else []
    state.aside = take(aside) if aside is not None else -1
    top = [take(v) for v in deck_top]
    if state.aside == -1:
        state.aside = take(rest.pop())
    if face_up is None:
        state.face_up = [take(rest.pop()) for _ in range(face_up_aside(n))]
    if hands is None:
        state.hands = [[take(rest.pop())] for _ in range(n)]
    below = [take(v) for v in rest]
    state.deck = below[::-1] + top[::-1]  # top card last
    state.rows = [[] for _ in range(n)]
    state.in_round = [True] * n
    state.protected = [False] * n
    state.known = [1 << hand[0] for hand in state.hands]
    if tokens is not None:
        state.tokens = [int(t) for t in tokens]
        state.token_supply = TOTAL_TOKENS - sum(state.tokens)
    state.round_start = int(first) if first is not None else int(rng.integers(n))
    state.round_number = 1
