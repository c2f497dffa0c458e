"""Scenarios: a fixed setup for tests, tutorials and analysis.

A scenario is a mapping with any of these keys (cards by name: ``"worm_5"`` or
``"w5"`` or the int ``5``, ``"chicken_3"`` or ``"c3"``, ``"hen"``):

- ``round``: the round to start in, 1..9 (default 1); the game then plays rounds
  ``round``..9.
- ``tractor``: the seat that held the tractor in round 1 (default random). The holder
  in the start round follows from it: with 3-5 players it has moved ``round - 1``
  seats clockwise; with two it goes round first holder, other player, robot.
- ``hands``: each seat's hand, a list of cards per seat (default: the five chickens
  3..7). Chickens are the seat's own colour: each value at most once per seat over
  its hand and discard pile; chickens left out are out of the game.
- ``discards``: each seat's discard pile (default empty); no mother hens.
- ``deck``: the whole draw pile, top first (row positions 1, 2, ... of the start
  round, then of the next round, ...): ``(10 - round) x row size`` worms and hens;
  or ``deck_top``: its top cards, the rest dealt at random beneath.
- ``robot_deck``: two players only: the top cards of the robot deck, top first
  (chickens; three of each value 3..7 in all); the rest shuffled beneath.

Worms and hens not placed by the scenario are dealt at random: the draw pile is
filled from them and the others count as removed unseen. No seat may come to hold
more than a dealt game allows, counting one card won in each round left: at most
9 cards of a kind, 14 cards and worms worth 72 (the observation's bounds). Every error says what was
wrong and what is allowed; a failed scenario changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import mul
from typing import Any

import numpy as np

from cardgym.errors import ScenarioError
from kakelaar_env.cards import (
    CHICKEN_TYPES,
    HEN,
    MAX_COPIES,
    MAX_HAND,
    MAX_SCORE,
    NUM_BIDDABLE,
    NUM_COLOURS,
    NUM_HENS,
    NUM_TYPES,
    ROUNDS,
    TYPE_NAMES,
    WORM_VALUE,
    count_types,
    parse_card,
    row_size,
)
from kakelaar_env.state import Config, State

KEYS = ("round", "tractor", "hands", "discards", "deck", "deck_top", "robot_deck")


def _card(value: object, where: str) -> int:
    if isinstance(value, np.integer):
        value = int(value)
    try:
        return parse_card(value)
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from None


def _cards(value: object, where: str) -> list[int]:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise ScenarioError(f"{where} must be a list of cards, got {value!r}")
    return [_card(item, f"{where}[{i}]") for i, item in enumerate(value)]  # type: ignore[attr-defined]


def _per_seat(value: object, where: str, n: int) -> list[list[int]]:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__") or len(value) != n:  # type: ignore[arg-type]
        raise ScenarioError(f"{where!r} must hold one list of cards for each of the {n} seats, "
                            f"got {value!r}")
    rows: list[Any] = list(value)  # type: ignore[call-overload]
    return [_cards(cards, f"{where}[{seat}]") for seat, cards in enumerate(rows)]


def _int_in(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ScenarioError(f"{where} must be an integer {low}..{high}, got {value!r}")
    return int(value)


def _check_reach(hands: list[list[int]], discards: list[list[int]], winnable: list[int],
                 rounds_left: int) -> None:
    """Refuse a scenario in which a seat could come to hold more than the observation
    counts (a dealt game never does: five chickens, then one card won per round).

    Bounds, with ``R`` rounds left: of a kind, what the seat owns (hand and discard
    pile) plus one card won per round from the worms and hens nobody owns yet; worm
    points likewise. The hand only grows by a won card in a round without a bid (only
    hens in hand, so not before the hand's biddable cards are all bid: ``NB`` such
    rounds at most) and by one per mother hen played (``H``, at most two cards back for
    it), and never past what was discarded: it grows by at most
    ``min(R + discard - H, NB + H)``.
    """
    values = sorted((WORM_VALUE[card] for card in range(NUM_TYPES)
                     for _ in range(winnable[card])), reverse=True)
    best_worms = sum(values[:rounds_left])
    for seat, (hand, discard) in enumerate(zip(hands, discards, strict=True)):
        counts = count_types(hand + discard)
        where = (f"seat {seat} could come to hold {{reach}} from {{owned}} in its hand and "
                 f"discard pile and one card won in each of the {rounds_left} round(s) left")
        for card in range(NUM_TYPES):
            reach = counts[card] + min(rounds_left, winnable[card])
            if reach > MAX_COPIES:
                raise ScenarioError(
                    where.format(reach=f"{reach} {TYPE_NAMES[card]}", owned=counts[card])
                    + f"; the observation counts at most {MAX_COPIES} of a kind (one card "
                    "won per round in a whole game)")
        no_bid_rounds = max(0, rounds_left - sum(1 for card in hand if card != HEN))
        hens = min(counts[HEN] + min(rounds_left, winnable[HEN]), rounds_left)
        growth = max(min(rounds_left + len(discard) - played, no_bid_rounds + played)
                     for played in range(hens + 1))
        if len(hand) + growth > MAX_HAND:
            raise ScenarioError(
                where.format(reach=f"{len(hand) + growth} cards in hand",
                             owned=f"{len(hand)} + {len(discard)} cards")
                + f" (mother hens bring discarded cards back); a hand holds at most "
                f"{MAX_HAND} (five chickens and one card won per round in a whole game)")
        score = sum(map(mul, counts, WORM_VALUE))
        if score + best_worms > MAX_SCORE:
            raise ScenarioError(
                where.format(reach=f"worms worth {score + best_worms}",
                             owned=f"worms worth {score}")
                + f"; the observation's scores go up to {MAX_SCORE} (nine worms of value 8)")


@dataclass(frozen=True)
class Setup:
    """A checked scenario, ready to deal.

    Attributes:
        start: the round to start in.
        tractor: the round-1 tractor holder, or ``None`` (dealt at random).
        hands: each seat's hand as card types, or ``None`` (the five chickens).
        discards: each seat's discard pile as card types.
        deck_top: the named top of the draw pile, top first.
        needed: the size of the whole draw pile from the start round.
        pool: the worms and hens no one named, in type order (dealt at random).
        robot_top: the named top of the robot deck, top first (two players).
        robot_size: the size of the robot deck from the start round.
    """

    start: int
    tractor: int | None
    hands: list[list[int]] | None
    discards: list[list[int]]
    deck_top: list[int]
    needed: int
    pool: list[int]
    robot_top: list[int]
    robot_size: int


def apply_scenario(state: State, scenario: Mapping[str, Any], rng: np.random.Generator) -> None:
    """Set up ``state`` as ``scenario`` says (see the module docstring); the caller
    turns up the first row.

    Raises:
        ScenarioError: naming what is wrong and what is allowed; nothing changes then.
    """
    deal_setup(state, check_scenario(state.config, scenario), rng)


def check_scenario(config: Config, scenario: Mapping[str, Any]) -> Setup:
    """``scenario`` checked against the rules and ``config`` (nothing random yet).

    Raises:
        ScenarioError: naming what is wrong and what is allowed.
    """
    if not isinstance(scenario, Mapping):
        raise ScenarioError(f"a scenario must be a mapping with keys {KEYS}, got {scenario!r}")
    unknown = sorted(map(str, set(scenario) - set(KEYS)))
    if unknown:
        raise ScenarioError(f"unknown scenario keys {unknown}; allowed: {', '.join(KEYS)}")
    if "deck" in scenario and "deck_top" in scenario:
        raise ScenarioError("give either 'deck' (the whole draw pile) or 'deck_top', not both")
    n = config.num_players
    start = _int_in(scenario.get("round", 1), "round", 1, ROUNDS)
    tractor = scenario.get("tractor")
    if tractor is not None:
        tractor = _int_in(tractor, "tractor", 0, n - 1)
    hands, discards = _owned(scenario, n)
    deck_top, needed = _deck_top(scenario, n, start)
    totals = list(config.worm_counts) + [0] * (NUM_TYPES - len(config.worm_counts))
    totals[HEN] = NUM_HENS
    pool = _pool(config, totals, deck_top + [c for cards in (hands or []) + discards
                                             for c in cards], needed - len(deck_top))
    start_hands = hands if hands is not None else [list(CHICKEN_TYPES) for _ in range(n)]
    # Cards still to be won: every worm and hen not in a hand or discard pile.
    owned = count_types([card for cards in start_hands + discards for card in cards])
    winnable = [0 if card in CHICKEN_TYPES else totals[card] - owned[card]
                for card in range(NUM_TYPES)]
    _check_reach(start_hands, discards, winnable, ROUNDS + 1 - start)
    robot_size = 15 - (start - 1)
    robot_top = _robot_top(scenario, n, start, robot_size)
    return Setup(start, tractor, hands, discards, deck_top, needed, pool, robot_top, robot_size)


def _owned(scenario: Mapping[str, Any], n: int) -> tuple[list[list[int]] | None, list[list[int]]]:
    """The hands (``None``: not given) and discard piles, each seat's chickens its own."""
    hands = (_per_seat(scenario["hands"], "hands", n) if "hands" in scenario else None)
    discards = (_per_seat(scenario["discards"], "discards", n) if "discards" in scenario
                else [[] for _ in range(n)])
    for seat in range(n):
        owned = (hands[seat] if hands is not None else list(CHICKEN_TYPES)) + discards[seat]
        for chicken in CHICKEN_TYPES:
            if owned.count(chicken) > 1:
                raise ScenarioError(
                    f"seat {seat} has {TYPE_NAMES[chicken]} {owned.count(chicken)} times in hand "
                    "and discard pile; each seat owns one chicken of each value 3..7"
                )
        if HEN in discards[seat]:
            raise ScenarioError(f"discards[{seat}] holds a hen; mother hens never go to a "
                                "discard pile (they cannot be bid)")
    return hands, discards


def _deck_top(scenario: Mapping[str, Any], n: int, start: int) -> tuple[list[int], int]:
    """The named top of the draw pile (top first) and the size of the whole pile."""
    size = row_size(n)
    needed = (ROUNDS + 1 - start) * size
    key = "deck" if "deck" in scenario else "deck_top"
    deck_top = _cards(scenario.get(key, []), key)
    for i, card in enumerate(deck_top):
        if card in CHICKEN_TYPES:
            raise ScenarioError(f"{key}[{i}] is {TYPE_NAMES[card]}; the draw pile holds worms "
                                "and hens only")
    if len(deck_top) > needed or (key == "deck" and len(deck_top) != needed):
        raise ScenarioError(
            f"the draw pile from round {start} holds {needed} cards with {n} players "
            f"({size} per round); {key!r} gives {len(deck_top)}"
            + ("; use 'deck_top' for a partial pile" if key == "deck" else "")
        )
    return deck_top, needed


def _pool(config: Config, totals: list[int], named: list[int], missing: int) -> list[int]:
    """The worms and hens not ``named``, enough of them to fill ``missing`` pile cards."""
    named_counts = count_types([c for c in named if c not in CHICKEN_TYPES])
    for card in range(NUM_TYPES):
        if named_counts[card] > totals[card]:
            raise ScenarioError(
                f"the scenario names {TYPE_NAMES[card]} {named_counts[card]} times; the game "
                f"has {totals[card]} (worm_counts={config.worm_counts}, {NUM_HENS} hens)"
            )
    pool = [c for c in range(NUM_TYPES) for _ in range(totals[c] - named_counts[c])]
    if len(pool) < missing:
        raise ScenarioError(
            f"the draw pile needs {missing} more cards but only {len(pool)} "
            "worms and hens are left after the hands and discard piles"
        )
    return pool


def _robot_top(scenario: Mapping[str, Any], n: int, start: int, robot_size: int) -> list[int]:
    """The named top of the robot deck (top first; two players only)."""
    if "robot_deck" not in scenario:
        return []
    if n != 2:
        raise ScenarioError("'robot_deck' is for the two-player game only")
    copies = NUM_COLOURS - n
    robot_top = _cards(scenario["robot_deck"], "robot_deck")
    counts = count_types(robot_top)
    for i, card in enumerate(robot_top):
        if card not in CHICKEN_TYPES:
            raise ScenarioError(f"robot_deck[{i}] is {TYPE_NAMES[card]}; the robot deck "
                                "holds chickens 3..7 only")
        if counts[card] > copies:
            raise ScenarioError(f"robot_deck names {TYPE_NAMES[card]} {counts[card]} times; "
                                f"the robot has {copies} of each value")
    if len(robot_top) > robot_size:
        raise ScenarioError(f"the robot deck holds {robot_size} cards from round {start}; "
                            f"robot_deck gives {len(robot_top)}")
    return robot_top


def deal_setup(state: State, setup: Setup, rng: np.random.Generator) -> None:
    """Fill in ``state`` from a checked setup, dealing what it leaves open from ``rng``."""
    n = state.num_players
    deck_top = setup.deck_top
    pool = [setup.pool[i] for i in rng.permutation(len(setup.pool))]
    below = pool[: setup.needed - len(deck_top)]
    state.removed = pool[setup.needed - len(deck_top):]
    state.deck = below + deck_top[::-1]  # top card last
    if setup.hands is not None:
        state.hands = [bytearray(count_types(cards)) for cards in setup.hands]
    else:
        state.hands = [bytearray(count_types(CHICKEN_TYPES)) for _ in range(n)]
    state.discards = [bytearray(count_types(cards)[:NUM_BIDDABLE]) for cards in setup.discards]
    state.unseen = count_types(state.deck + state.removed)
    state.round = setup.start
    first = setup.tractor if setup.tractor is not None else int(rng.integers(n))
    if n == 2:
        _deal_robot(state, setup, first, rng)
    else:
        state.tractor = (first + setup.start - 1) % n


def _deal_robot(state: State, setup: Setup, first: int, rng: np.random.Generator) -> None:
    """The robot deck (its named top, the rest shuffled beneath) and the circle of a
    two-player game whose round-1 holder is ``first``."""
    robot_top, robot_size = setup.robot_top, setup.robot_size
    copies = NUM_COLOURS - state.num_players
    rest = [c for c in CHICKEN_TYPES for _ in range(copies - robot_top.count(c))]
    rest = [rest[i] for i in rng.permutation(len(rest))]
    deck = robot_top + rest[: robot_size - len(robot_top)]
    state.robot_deck = deck[::-1]
    state.robot_discard = rest[robot_size - len(robot_top):]
    state.circle = (first, 1 - first, 2)
    state.tractor = (setup.start - 1) % 3
