"""Setup (docs/rules/exploding_kittens.md "Setup"): hands, draw pile, kittens, Defuses, first player.

Expected counts are computed here from the rule text, not from ``ek_env.engine.cards``.
"""

from __future__ import annotations

import numpy as np
import pytest

from ek_env import rules
from ek_env.engine.cards import initial_deck_size
from ek_env.engine.invariants import check_invariants
from ek_env.engine.state import PLAY, Config
from tests.ek_env.helpers import DEFUSE, KITTEN

# One base deck (docs/rules/exploding_kittens.md "Cards (56)"), kind order of ``Card``.
ONE_DECK = {
    KITTEN: 4, DEFUSE: 6, 2: 4, 3: 4, 4: 4, 5: 4, 6: 5, 7: 5, 8: 4, 9: 4, 10: 4, 11: 4, 12: 4,
}


def rule_decks(players: int) -> int:
    """6-9 players use two base decks."""
    return 2 if players >= 6 else 1


def rule_deck_defuses(players: int, rule: str) -> int:
    """Leftover Defuses shuffled into the draw pile, from the rule text."""
    leftover = ONE_DECK[DEFUSE] * rule_decks(players) - players  # one to each player
    if players >= 6:
        return leftover  # two decks: all leftover Defuses whatever deck_defuses says
    if rule == "seed":
        return 2 if players == 2 else leftover
    return min(2, 6 - players)  # "2024"


SETUPS = [
    (players, hand_size, rule)
    for players in range(2, 10)
    for hand_size in (7, 4)
    for rule in ("seed", "2024")
]


@pytest.mark.parametrize(("players", "hand_size", "rule"), SETUPS)
def test_setup_counts(players: int, hand_size: int, rule: str) -> None:
    config = Config(num_players=players, hand_size=hand_size, deck_defuses=rule)
    state = rules.new_game(config, np.random.default_rng(players * 100 + hand_size), None)
    decks = rule_decks(players)
    for seat in range(players):
        hand = state.hands[seat]
        # hand_size cards dealt from the deck without kittens and Defuses, plus one Defuse.
        assert sum(hand) == hand_size + 1
        assert hand[DEFUSE] == 1
        assert hand[KITTEN] == 0
    defuses_in_deck = rule_deck_defuses(players, rule)
    non_special = sum(ONE_DECK.values()) * decks - (ONE_DECK[KITTEN] + ONE_DECK[DEFUSE]) * decks
    expected_size = non_special - hand_size * players + (players - 1) + defuses_in_deck
    assert len(state.deck) == expected_size
    assert len(state.deck) == initial_deck_size(players, hand_size, rule)
    assert state.deck.count(KITTEN) == players - 1
    assert state.deck.count(DEFUSE) == defuses_in_deck
    # What is not dealt or shuffled in stays in the box.
    assert state.box[KITTEN] == ONE_DECK[KITTEN] * decks - (players - 1)
    assert state.box[DEFUSE] == ONE_DECK[DEFUSE] * decks - players - defuses_in_deck
    assert sum(state.box) == state.box[KITTEN] + state.box[DEFUSE]
    # Every other card is in a hand or the deck: all counts doubled with two decks.
    for kind, copies in ONE_DECK.items():
        held = sum(hand[kind] for hand in state.hands) + state.deck.count(kind) + state.box[kind]
        assert held == copies * decks
    assert not any(state.discard) and not any(state.out_of_play)
    assert state.phase == PLAY and state.to_act == state.turn_holder
    assert state.owed == 1 and not state.attacked
    assert all(state.alive) and state.eliminated == []
    check_invariants(state)


@pytest.mark.parametrize(
    ("players", "rule", "expected"),
    [
        (2, "seed", 2), (3, "seed", 3), (4, "seed", 2), (5, "seed", 1),
        (2, "2024", 2), (3, "2024", 2), (4, "2024", 2), (5, "2024", 1),
        (6, "seed", 6), (6, "2024", 6), (9, "seed", 3), (9, "2024", 3),
    ],
)
def test_deck_defuses_table(players: int, rule: str, expected: int) -> None:
    # The rule text worked out by hand: 6 Defuses per deck, one to each player.
    state = rules.new_game(Config(num_players=players, deck_defuses=rule),
                           np.random.default_rng(1), None)
    assert state.deck.count(DEFUSE) == expected


def test_first_player_is_random_and_seeded() -> None:
    config = Config(num_players=4)
    firsts = {rules.new_game(config, np.random.default_rng(seed), None).turn_holder
              for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    a = rules.new_game(config, np.random.default_rng(5), None)
    b = rules.new_game(config, np.random.default_rng(5), None)
    assert a == b


def test_deal_is_shuffled() -> None:
    config = Config(num_players=3)
    decks = {tuple(rules.new_game(config, np.random.default_rng(seed), None).deck)
             for seed in range(10)}
    assert len(decks) == 10
