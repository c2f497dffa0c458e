"""The cards of a Karel Kakelaar scenario, checked (:mod:`kakelaar_env.positions.scenario` lists
the keys): hands and discard piles, the row, the draw pile, the removed cards, the
robot's cards, and the observation's bounds.

Every worm and mother hen lies in one place: a hand, a discard pile, the row, the draw
pile, the removed cards, the robot's won cards, or out of the game as a played hen.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import mul
from typing import Any

from cardgym.errors import ScenarioError, shorten
from cardgym.position_format import PositionFormat
from kakelaar_env.engine.cards import (
    CHICKEN_TYPES,
    HEN,
    MAX_COPIES,
    MAX_HAND,
    MAX_SCORE,
    NUM_COLOURS,
    NUM_HENS,
    NUM_TYPES,
    ROUNDS,
    TYPE_NAMES,
    WORM_VALUE,
    count_types,
    row_size,
)
from kakelaar_env.engine.state import BID, PHASE_NAMES, Config, Phase
from kakelaar_env.positions.position import position_format

#: Chickens of each value in the robot deck with two players (three unused colours).
ROBOT_COPIES = NUM_COLOURS - 2


def owned(config: Config, scenario: Mapping[str, Any],
          ) -> tuple[list[list[int]] | None, list[list[int]]]:
    """The hands (``None``: not given) and discard piles, each seat's chickens its own."""
    n = config.num_players
    form = position_format(config)
    hands = form.read(scenario, "hands")
    discards = form.read(scenario, "discards", [[] for _ in range(n)])
    for seat in range(n):
        cards = (hands[seat] if hands is not None else list(CHICKEN_TYPES)) + discards[seat]
        for chicken in CHICKEN_TYPES:
            if cards.count(chicken) > 1:
                raise ScenarioError(
                    f"seat {seat} has {TYPE_NAMES[chicken]} {cards.count(chicken)} times in hand "
                    "and discard pile; each seat owns one chicken of each value 3..7"
                )
        if HEN in discards[seat]:
            raise ScenarioError(f"discards[{seat}] holds a hen; mother hens never go to a "
                                "discard pile (they cannot be bid)")
    return hands, discards


def row_of(form: PositionFormat, scenario: Mapping[str, Any], phase: Phase) -> list[int] | None:
    """The row named by ``row``: one card per position in the bid stage, else empty
    (``None``: not given, in the bid stage: the top of the draw pile)."""
    if "row" not in scenario:
        return None if phase == BID else []
    row: list[int] = form.read(scenario, "row")
    n = form.config.num_players
    size = row_size(n) if phase == BID else 0
    if len(row) != size:
        allowed = (f"the row of the bid stage holds {size} cards with {n} players" if size
                   else f"the row is empty in stage {shorten(PHASE_NAMES[phase])} (its cards were "
                   "shared out when the bids were revealed)")
        raise ScenarioError(f"row holds {len(row)} cards; {allowed}")
    return row


def deck_top_of(form: PositionFormat, scenario: Mapping[str, Any], round_: int, phase: Phase,
                with_row: bool) -> tuple[list[int], int]:
    """The named top of the draw pile (top first) and the size of the whole pile (the
    bid stage's row on top of it when ``with_row``)."""
    n = form.config.num_players
    size = row_size(n)
    with_row = with_row and phase == BID
    needed = (ROUNDS - round_ + (1 if with_row else 0)) * size
    key = "deck" if "deck" in scenario else "deck_top"
    deck_top: list[int] = form.read(scenario, key, [])
    if len(deck_top) > needed or (key == "deck" and len(deck_top) != needed):
        what = (f"from round {round_}" if with_row else f"beneath the row of round {round_}"
                if phase == BID else f"after round {round_}'s row")
        raise ScenarioError(
            f"the draw pile {what} holds {needed} cards with {n} players "
            f"({size} per round); {shorten(key)} gives {len(deck_top)}"
            + ("; use 'deck_top' for a partial pile" if key == "deck" else "")
        )
    return deck_top, needed


def totals_of(config: Config) -> list[int]:
    """Copies of each worm and of the mother hen in the game (no chickens)."""
    totals = list(config.worm_counts) + [0] * (NUM_TYPES - len(config.worm_counts))
    totals[HEN] = NUM_HENS
    return totals


def pool_of(config: Config, named: list[int], missing: int, exact: bool) -> list[int]:
    """The worms and hens not ``named``, enough of them to fill ``missing`` pile cards
    (exactly that many when ``exact``: the removed cards are named too)."""
    totals = totals_of(config)
    named_counts = count_types([c for c in named if c not in CHICKEN_TYPES])
    for card in range(NUM_TYPES):
        if named_counts[card] > totals[card]:
            raise ScenarioError(
                f"the scenario names {TYPE_NAMES[card]} {named_counts[card]} times; the game "
                f"has {totals[card]} (worm_counts={config.worm_counts}, {NUM_HENS} hens, "
                "played ones counted in 'hens_out')"
            )
    pool = [c for c in range(NUM_TYPES) for _ in range(totals[c] - named_counts[c])]
    if len(pool) < missing:
        raise ScenarioError(
            f"the draw pile needs {missing} more cards but only {len(pool)} "
            "worms and hens are left after the hands and discard piles"
        )
    if exact and len(pool) != missing:
        left = ", ".join(TYPE_NAMES[c] for c in sorted(set(pool)))
        raise ScenarioError(
            f"{len(pool) - missing} worms and hens lie nowhere ({left}); with 'removed' "
            "given every card must be accounted for: in a hand, a discard pile, the row, the "
            "draw pile, 'removed', 'robot_won', or played ('hens_out')"
        )
    return pool


def check_reach(config: Config, hands: list[list[int]], discards: list[list[int]],
                rows_left: int, hen_steps: int) -> None:
    """Refuse a scenario in which a seat could come to hold more than the observation
    counts (a dealt game never does: five chickens, then one card won per round).

    Bounds, with ``R`` rows left to share out: of a kind, what the seat owns (hand and
    discard pile) plus one card won per row from the worms and hens nobody owns yet;
    worm points likewise. The hand only grows by a won card in a round without a bid
    (only hens in hand, so not before the hand's biddable cards are all bid: ``NB``
    such rounds at most) and by one per mother hen played (``H``, at most two cards
    back for it, one per mother-hen step left), and never past what was discarded:
    it grows by at most ``min(R + discard - H, NB + H)``.
    """
    totals = totals_of(config)
    held = count_types([card for cards in hands + discards for card in cards])
    winnable = [0 if card in CHICKEN_TYPES else totals[card] - held[card]
                for card in range(NUM_TYPES)]
    values = sorted((WORM_VALUE[card] for card in range(NUM_TYPES)
                     for _ in range(winnable[card])), reverse=True)
    best_worms = sum(values[:rows_left])
    for seat, (hand, discard) in enumerate(zip(hands, discards, strict=True)):
        counts = count_types(hand + discard)
        where = (f"seat {seat} could come to hold {{reach}} from {{owned}} in its hand and "
                 f"discard pile and one card won in each of the {rows_left} round(s) left")
        for card in range(NUM_TYPES):
            reach = counts[card] + min(rows_left, winnable[card])
            if reach > MAX_COPIES:
                raise ScenarioError(
                    where.format(reach=f"{reach} {TYPE_NAMES[card]}", owned=counts[card])
                    + f"; the observation counts at most {MAX_COPIES} of a kind (one card "
                    "won per round in a whole game)")
        no_bid_rounds = max(0, rows_left - sum(1 for card in hand if card != HEN))
        hens = min(counts[HEN] + min(rows_left, winnable[HEN]), hen_steps)
        growth = max(min(rows_left + len(discard) - played, no_bid_rounds + played)
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


def robot_won_of(form: PositionFormat, scenario: Mapping[str, Any], revealed: int) -> list[int]:
    """``robot_won``: the row cards the robot won, at most one per round shared out
    (default none; a scenario begun after round 1 may leave them out: they count as
    removed)."""
    if "robot_won" not in scenario:
        return []
    cards: list[int] = form.read(scenario, "robot_won")
    if len(cards) > revealed:
        raise ScenarioError(f"robot_won names {len(cards)} cards; the robot has won one card "
                            f"in each of the {revealed} round(s) shared out so far")
    return cards


def robot_top_of(form: PositionFormat, scenario: Mapping[str, Any], robot_size: int, round_: int,
                 phase: Phase) -> list[int]:
    """The named top of the robot deck (top first)."""
    if "robot_deck" not in scenario:
        return []
    robot_top = _robot_chickens(form, scenario, "robot_deck")
    if len(robot_top) > robot_size:
        when = f"from round {round_}" if phase == BID else f"after round {round_}'s bids"
        raise ScenarioError(f"the robot deck holds {robot_size} cards {when}; robot_deck "
                            f"gives {len(robot_top)}")
    return robot_top


def robot_discard_of(form: PositionFormat, scenario: Mapping[str, Any], robot_top: list[int],
                     revealed: int) -> list[int] | None:
    """The robot's revealed bids, oldest first (``None``: not given); with the deck's
    named top, at most three chickens of each value."""
    if "robot_discard" not in scenario:
        return None
    discard = _robot_chickens(form, scenario, "robot_discard")
    if len(discard) != revealed:
        raise ScenarioError(f"robot_discard names {len(discard)} cards; the robot has bid "
                            f"one in each of the {revealed} round(s) shared out so far")
    counts = count_types(robot_top + discard)
    for card in CHICKEN_TYPES:
        if counts[card] > ROBOT_COPIES:
            raise ScenarioError(f"robot_deck and robot_discard name {TYPE_NAMES[card]} "
                                f"{counts[card]} times; the robot has {ROBOT_COPIES} of "
                                "each value")
    return discard


def _robot_chickens(form: PositionFormat, scenario: Mapping[str, Any], key: str) -> list[int]:
    cards: list[int] = form.read(scenario, key)
    counts = count_types(cards)
    for card in cards:
        if counts[card] > ROBOT_COPIES:
            raise ScenarioError(f"{key} names {TYPE_NAMES[card]} {counts[card]} times; "
                                f"the robot has {ROBOT_COPIES} of each value")
    return cards


def robot_chickens_left(named: list[int]) -> list[int]:
    """The robot's chickens not in ``named``, in type order."""
    counts = count_types(named)
    return [c for c in CHICKEN_TYPES for _ in range(ROBOT_COPIES - counts[c])]
