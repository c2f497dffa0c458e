"""Streaking Kittens setup and options (docs/rules/exploding_kittens.md, Streaking Kittens "Cards (15)", "Setup"; seed 003
"Voorbereiding", "Snellere variant").

Expected counts are worked out here from the rule text, not from ``ek_env.engine.cards``:
the base deck (56) once with 2-5 players, twice with 6-9, plus the expansion once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ek_env
from cardgym.errors import OptionError, ScenarioError
from ek_env import rules
from ek_env.engine.invariants import check_invariants
from ek_env.engine.state import PLAY, Config
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
    FUTURE,
    KITTEN,
    MELON,
    NOPE,
    POTATO,
    RAINBOW,
    SHUFFLE,
    SKIP,
    TACO,
    cards,
    deck_top_first,
)
from tests.ek_env.streaking_helpers import (
    ALTER,
    ALTER_CARD,
    BOMB,
    CURSE,
    EXPANSION_NAMES,
    FUTURE5,
    GARBAGE,
    GC,
    MARK,
    NUM_KINDS_STREAKING,
    SK,
    STREAKING,
    SUPER,
    SWAP,
    TARGET,
    blind_seats,
    marked,
    smake,
)

BASE_DECK = {
    KITTEN: 4, DEFUSE: 6, ATTACK: 4, SKIP: 4, FAVOR: 4, SHUFFLE: 4, FUTURE: 5, NOPE: 5,
    TACO: 4, POTATO: 4, MELON: 4, RAINBOW: 4, BEARD: 4,
}
# docs/rules/exploding_kittens.md, Streaking Kittens: Streaking Kitten 1, Exploding Kitten 1, Catomic Bomb 1, Super Skip 1, See the
# Future 5x 1, Alter the Future 5x 1, Swap Top and Bottom 3, Garbage Collection 1, Mark 3,
# Curse of the Cat Butt 2.
EXPANSION = {
    SK: 1, KITTEN: 1, BOMB: 1, SUPER: 1, FUTURE5: 1, ALTER_CARD: 1, SWAP: 3, GC: 1, MARK: 3,
    CURSE: 2,
}


def test_expansion_has_fifteen_cards_fourteen_without_its_kitten() -> None:
    assert sum(EXPANSION.values()) == 15
    assert sum(v for k, v in EXPANSION.items() if k != KITTEN) == 14


def rule_composition(players: int) -> list[int]:
    decks = 2 if players >= 6 else 1
    counts = [0] * NUM_KINDS_STREAKING
    for kind, copies in BASE_DECK.items():
        counts[kind] += copies * decks
    for kind, copies in EXPANSION.items():
        counts[kind] += copies  # the expansion is added once, even to two base decks
    return counts


def rule_deck_defuses(players: int) -> int:
    """2 with 2-4 players, 1 with 5; with two decks (6-9) every leftover Defuse."""
    if players >= 6:
        return 2 * BASE_DECK[DEFUSE] - players
    return {2: 2, 3: 2, 4: 2, 5: 1}[players]


SETUPS = [(p, h, fast) for p in range(2, 10) for h in (7, 4) for fast in (False, True)]


@pytest.mark.parametrize(("players", "hand_size", "fast"), SETUPS)
def test_setup_counts(players: int, hand_size: int, fast: bool) -> None:
    config = Config(num_players=players, hand_size=hand_size, fast=fast, **STREAKING)
    state = rules.new_game(config, np.random.default_rng(1000 + players * 10 + hand_size), None)
    check_invariants(state)
    comp = rule_composition(players)
    assert len(state.discard) == NUM_KINDS_STREAKING
    for seat in range(players):
        hand = state.hands[seat]
        assert len(hand) == NUM_KINDS_STREAKING
        # hand_size cards dealt from the pile without kittens and Defuses, then one Defuse.
        assert sum(hand) == hand_size + 1
        assert hand[DEFUSE] == 1
        assert hand[KITTEN] == 0
    # The undealt rest of the 14 expansion cards + base cards without kittens and Defuses.
    undealt = sum(comp) - comp[KITTEN] - comp[DEFUSE] - hand_size * players
    removed = undealt // 3 if fast else 0
    defuses = rule_deck_defuses(players)
    assert len(state.deck) == undealt - removed + players + defuses
    assert state.deck.count(KITTEN) == players  # as many kittens as players
    assert state.deck.count(DEFUSE) == defuses
    # The box: unused kittens and Defuses, and (fast) the removed third.
    assert state.box[KITTEN] == comp[KITTEN] - players
    assert state.box[DEFUSE] == comp[DEFUSE] - players - defuses
    assert sum(state.box) - state.box[KITTEN] - state.box[DEFUSE] == removed
    # Every card accounted for.
    for kind in range(NUM_KINDS_STREAKING):
        where = (sum(hand[kind] for hand in state.hands) + state.deck.count(kind)
                 + state.box[kind])
        assert where == comp[kind], f"kind {kind}: {where} != {comp[kind]}"
    assert not any(state.discard) and not any(state.out_of_play)
    assert state.blind == [False] * players
    assert all(not any(row) for row in state.marked)
    assert state.held_kitten == 0
    assert state.phase == PLAY and state.to_act == state.turn_holder
    assert state.owed == 1 and all(state.alive)


@pytest.mark.parametrize(
    ("players", "hand_size", "deck_size"),
    [
        # worked by hand: 46 base non-kitten non-Defuse cards (x2 from 6) + 14 expansion cards
        (2, 7, 46 + 2 + 2),  # 60 - 14 dealt = 46 undealt, 2 kittens, 2 Defuses
        (3, 7, 39 + 3 + 2),
        (4, 7, 32 + 4 + 2),
        (5, 7, 25 + 5 + 1),
        (5, 4, 40 + 5 + 1),
        (6, 7, 64 + 6 + 6),  # 106 - 42
        (9, 7, 43 + 9 + 3),
        (9, 4, 70 + 9 + 3),
    ],
)
def test_deck_size_worked_by_hand(players: int, hand_size: int, deck_size: int) -> None:
    config = Config(num_players=players, hand_size=hand_size, **STREAKING)
    state = rules.new_game(config, np.random.default_rng(3), None)
    assert len(state.deck) == deck_size


@pytest.mark.parametrize(("players", "expected"), [(2, 31 + 4), (3, 26 + 5), (5, 17 + 6)])
def test_fast_deck_size_worked_by_hand(players: int, expected: int) -> None:
    # 2 players: 46 undealt, 15 removed, 31 left + 2 kittens + 2 Defuses.
    # 3 players: 39 undealt, 13 removed, 26 left + 3 + 2.  5 players: 25, 8, 17 + 5 + 1.
    config = Config(num_players=players, fast=True, **STREAKING)
    state = rules.new_game(config, np.random.default_rng(4), None)
    assert len(state.deck) == expected


def test_fast_removes_random_cards_unseen() -> None:
    config = Config(num_players=3, fast=True, **STREAKING)
    boxes = set()
    for seed in range(8):
        state = rules.new_game(config, np.random.default_rng(seed), None)
        boxes.add(tuple(state.box))
        assert all(not state.known_deck[seat] for seat in range(3))
    assert len(boxes) > 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("rule", ["seed", "2024"])
def test_deck_defuses_option_does_not_apply(players: int, rule: str) -> None:
    config = Config(num_players=players, deck_defuses=rule, **STREAKING)
    state = rules.new_game(config, np.random.default_rng(2), None)
    assert state.deck.count(DEFUSE) == rule_deck_defuses(players)


def test_streaking_kitten_is_dealt_like_any_other_card() -> None:
    # The 14 non-kitten expansion cards (Streaking Kitten among them) are shuffled in
    # before dealing: sometimes it is dealt, sometimes it stays in the draw pile.
    config = Config(num_players=5, **STREAKING)
    where = set()
    for seed in range(60):
        state = rules.new_game(config, np.random.default_rng(seed), None)
        in_hand = sum(hand[SK] for hand in state.hands)
        assert in_hand + state.deck.count(SK) == 1
        where.add(in_hand)
    assert where == {0, 1}


def test_setup_is_seeded() -> None:
    config = Config(num_players=4, fast=True, **STREAKING)
    a = rules.new_game(config, np.random.default_rng(9), None)
    b = rules.new_game(config, np.random.default_rng(9), None)
    assert a == b


def test_without_the_expansion_there_are_thirteen_kinds() -> None:
    state = rules.new_game(Config(num_players=3), np.random.default_rng(0), None)
    assert len(state.hands[0]) == 13 and len(state.discard) == 13
    assert state.deck.count(KITTEN) == 2
    for expansions in ((), []):
        state = rules.new_game(Config(num_players=3, expansions=expansions),
                               np.random.default_rng(0), None)
        assert len(state.hands[0]) == 13


def test_expansions_accepts_a_list() -> None:
    state = rules.new_game(Config(num_players=2, expansions=["streaking"]),
                           np.random.default_rng(0), None)
    assert len(state.hands[0]) == NUM_KINDS_STREAKING
    assert state.deck.count(KITTEN) == 2


def test_new_phase_and_move_names_exist() -> None:
    from ek_env.engine import state as module

    assert (module.ALTER, module.GARBAGE, module.TARGET) == (ALTER, GARBAGE, TARGET) == (8, 9, 10)
    for name in ("BlindPlay", "BlindNope", "ChooseTarget", "Alter", "Garbage"):
        assert hasattr(module, name), name


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"expansions": ("imploding",)}, ["expansions", "streaking"]),
        ({"expansions": ("streaking", "barking")}, ["expansions", "streaking"]),
        ({"expansions": 5}, ["expansions"]),
        ({"fast": True}, ["fast", "streaking"]),  # fast without the expansion
        ({"fast": True, "expansions": ()}, ["fast", "streaking"]),
        ({"fast": "yes", **STREAKING}, ["fast"]),
        ({"fast": 1, **STREAKING}, ["fast"]),
    ],
)
def test_bad_expansion_options(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(OptionError) as info:
        Config(num_players=3, **options)
    for word in words:
        assert word in str(info.value)
    with pytest.raises(OptionError):
        ek_env.env(num_players=3, **options)


def test_env_accepts_the_expansion_and_fast() -> None:
    game = ek_env.env(num_players=3, fast=True, **STREAKING)
    game.reset(seed=1)
    state = game.game_state
    assert len(state.hands[0]) == NUM_KINDS_STREAKING
    assert state.deck.count(KITTEN) == 3
    assert len(state.deck) == 26 + 3 + 2


# -------------------------------------------------------------- scenarios


def test_scenario_names_the_expansion_cards() -> None:
    config = Config(num_players=2, **STREAKING)
    hand = [EXPANSION_NAMES[k] for k in (SK, BOMB, SUPER, FUTURE5, ALTER_CARD, SWAP, GC, MARK,
                                         CURSE)]
    state = rules.new_game(config, np.random.default_rng(0), {
        "hands": [hand + ["exploding_kitten"], ["taco_cat"]],
        "deck": ["exploding_kitten", "skip"], "first_player": 1})
    assert cards(state, 0) == [KITTEN, SK, BOMB, SUPER, FUTURE5, ALTER_CARD, SWAP, GC, MARK, CURSE]
    assert deck_top_first(state) == [KITTEN, SKIP]


def test_scenario_blind_and_marked_keys() -> None:
    state, _ = smake([[TACO, SKIP], [MARK, BEARD, BEARD], [NOPE]], [KITTEN, TACO], first=0,
                     blind=[1, 2], marked=[[SKIP], [BEARD], []])
    assert blind_seats(state) == [1, 2]
    assert marked(state, 0) == [SKIP] and marked(state, 1) == [BEARD] and marked(state, 2) == []


def test_scenario_deck_may_hold_fewer_kittens() -> None:
    state, _ = smake([[TACO], [SKIP], [NOPE]], [TACO, BEARD], first=0)
    assert deck_top_first(state) == [TACO, BEARD]


@pytest.mark.parametrize(
    ("scenario", "expansion"),
    [
        ({"hands": [["taco_cat"], ["skip"]], "deck": ["exploding_kitten"], "blind": [1]}, False),
        ({"hands": [["taco_cat"], ["skip"]], "deck": ["exploding_kitten"],
          "marked": [["taco_cat"], []]}, False),
        # a kitten in hand needs the Streaking Kitten beside it
        ({"hands": [["exploding_kitten", "taco_cat"], ["skip"]], "deck": []}, True),
        # one kitten at most, even with the Streaking Kitten
        ({"hands": [["exploding_kitten", "exploding_kitten", "streaking_kitten"], ["skip"]],
          "deck": []}, True),
        # kittens in the deck and in hands: at most one per player
        ({"hands": [["exploding_kitten", "streaking_kitten"], ["skip"]],
          "deck": ["exploding_kitten", "exploding_kitten"]}, True),
        ({"hands": [["taco_cat"], ["skip"]],
          "deck": ["exploding_kitten", "exploding_kitten", "exploding_kitten"]}, True),
        # a marked card must be in that seat's hand
        ({"hands": [["taco_cat"], ["skip"]], "deck": ["exploding_kitten"],
          "marked": [["skip"], []]}, True),
        ({"hands": [["taco_cat"], ["skip"]], "deck": ["exploding_kitten"],
          "marked": [["taco_cat", "taco_cat"], []]}, True),
        ({"hands": [["taco_cat"], ["skip"]], "deck": ["exploding_kitten"], "blind": [2]}, True),
        ({"hands": [["taco_cat"], ["skip"]], "deck": ["exploding_kitten"],
          "blind": "player_1"}, True),
        # more copies than the game holds: three Curses
        ({"hands": [["curse_of_the_cat_butt"] * 3, ["skip"]], "deck": ["exploding_kitten"]},
         True),
    ],
)
def test_bad_scenarios(scenario: dict[str, Any], expansion: bool) -> None:
    config = Config(num_players=2, **(STREAKING if expansion else {}))
    with pytest.raises(ScenarioError):
        rules.new_game(config, np.random.default_rng(0), scenario)


# ------------------------------------------------------------- env layout

API_ACTIONS = [
    "play:catomic_bomb", "play:super_skip", "play:see_the_future_5x",
    "play:alter_the_future_5x", "play:swap_top_and_bottom", "play:garbage_collection",
    "play:mark:+1", "play:mark:+8", "play:curse_of_the_cat_butt:+1",
    "play:curse_of_the_cat_butt:+8", "blind:play", "blind:nope", "target:+1", "target:+8",
    "alter:exploding_kitten", "alter:streaking_kitten", "alter:taco_cat",
    "garbage:exploding_kitten", "garbage:streaking_kitten", "garbage:mark",
    "give:exploding_kitten", "give:streaking_kitten", "name:streaking_kitten",
    "pair:mark:+1", "three:curse_of_the_cat_butt:+1", "five:super_skip", "take:mark",
]


def test_expansion_env_has_the_api_actions_and_the_base_layout_is_unchanged() -> None:
    base = ek_env.env(num_players=3)
    assert len(base.action_table.names) == 319
    names = set(ek_env.env(num_players=3, **STREAKING).action_table.names)
    for name in API_ACTIONS:
        assert name in names, name
    for name in ("pair:streaking_kitten:+1", "three:exploding_kitten:+1",
                 "five:streaking_kitten", "take:streaking_kitten", "take:exploding_kitten",
                 "play:streaking_kitten", "play:exploding_kitten"):
        assert name not in names, name


def test_expansion_observation_fields() -> None:
    game = ek_env.env(num_players=3, **STREAKING)
    game.reset(seed=0)
    view = game.observation_spec.unpack(game.observe("player_0")["observation"])
    for field in ("blind", "marked", "kittens_to_insert", "alter_cards", "my_hand"):
        assert field in view, field
    assert view["my_hand"].shape[-1] == NUM_KINDS_STREAKING
    assert view["kittens_in_deck"][0] == 3
