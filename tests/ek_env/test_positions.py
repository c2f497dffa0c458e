"""Positions (issue 19): any Exploding Kittens state written as a scenario and read back.

Three parts:

- round trips from random play, every player count, every test option set and the
  Streaking Kittens variant: the position is JSON, reads back to an equal state without
  drawing from the generator, writes itself again, and play goes on from it exactly as
  from the original;
- the rule points of docs/rules/exploding_kittens.md about the middle of a game, each set
  up as a position and played to the outcome the rules give;
- malformed values of every key, refused with a ScenarioError naming the key, leaving
  the env as it was.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

import ek_env
from cardgym.errors import ScenarioError
from ek_env import rules
from ek_env.engine.invariants import check_invariants
from ek_env.engine.record import GIVE as GIVE_EVENT
from ek_env.engine.record import NOTHING
from ek_env.engine.state import (
    GAME_OVER,
    GIVE,
    INSERT,
    NOBODY,
    NOPE_WINDOW,
    PLAY,
    TAKE,
    Alter,
    ChooseFive,
    ChooseTarget,
    Config,
    Draw,
    Garbage,
    Give,
    Insert,
    NameCard,
    Pass,
    PlayCard,
    PlayPair,
    State,
    Take,
)
from ek_env.game import GAME
from ek_env.positions.position import position
from ek_env.positions.scenario import BASE_KEYS, KEYS, STREAKING_KEYS
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
    KITTEN,
    MELON,
    NOPE,
    SKIP,
    TACO,
    cards,
    deck_top_first,
    moves,
    pass_window,
    run_window,
)
from tests.ek_env.streaking_helpers import GC, SK, STREAKING

# ------------------------------------------------------------------ round trips

OPTION_SETS = [(f"base-{i}", dict(options)) for i, options in enumerate(GAME.test_option_sets)] + [
    (f"streaking-{i}", {**GAME.test_variants["streaking"].preset, **options})
    for i, options in enumerate(GAME.test_variants["streaking"].option_sets)
]
#: Positions read back per game (spread over it, the last state included; besides,
#: every state in a phase other than play and nope_window, the rarer ones), and the
#: points from which play goes on to the end from the position and from the original.
POSITIONS_PER_GAME = 30
FOLLOW_POINTS = 3


def _legal(mask: int) -> list[int]:
    return [action for action in range(mask.bit_length()) if mask >> action & 1]


def _differing(left: State, right: State) -> list[str]:
    return [name for name in left.fields() if getattr(left, name) != getattr(right, name)]


def read_back(config: Config, state: State) -> State:
    """Conditions 1-3: the position is JSON, reads back to an equal state drawing
    nothing from the generator, and writes the same position again."""
    written = position(state)
    text = json.dumps(written)
    assert json.loads(text) == written
    assert list(written) == [key for key in KEYS if key in written]
    rng = np.random.default_rng(7)
    before = rng.bit_generator.state
    loaded = GAME.new_game(config, rng, json.loads(text))
    assert rng.bit_generator.state == before, "reading a whole position drew from the generator"
    assert loaded == state, f"the state read back differs in {_differing(loaded, state)}"
    assert position(loaded) == written
    return loaded


def play_on(config: Config, original: State, loaded: State, seed: int) -> None:
    """Condition 4: from the loaded state and a clone of the original, with generators
    in the same state, the same actions give the same states, observations, masks and
    returns to the end of the game."""
    layout = GAME.layout(config)
    twin = original.clone()
    rng_twin, rng_loaded = np.random.default_rng(seed), np.random.default_rng(seed)
    choices = np.random.default_rng(seed + 1)
    while True:
        assert loaded == twin, f"play went another way: {_differing(loaded, twin)}"
        assert GAME.returns(loaded) == GAME.returns(twin)
        seat = twin.to_act
        assert np.array_equal(layout.encode(GAME.player_view(loaded, seat)),
                              layout.encode(GAME.player_view(twin, seat)))
        if GAME.is_over(twin):
            return
        mask = layout.legal_mask(twin)
        assert layout.legal_mask(loaded) == mask
        legal = _legal(mask)
        action = legal[int(choices.integers(len(legal)))]
        layout.apply(twin, action, rng_twin)
        layout.apply(loaded, action, rng_loaded)


def random_game(config: Config, seed: int) -> list[State]:
    """Every state of a random game, the last one over."""
    rng = np.random.default_rng(seed)
    layout = GAME.layout(config)
    state = GAME.new_game(config, rng)
    states = [state.clone()]
    while not GAME.is_over(state):
        legal = _legal(layout.legal_mask(state))
        layout.apply(state, legal[int(rng.integers(len(legal)))], rng)
        states.append(state.clone())
    return states


@pytest.mark.parametrize("num_players", range(2, 10))
@pytest.mark.parametrize("options", [o for _, o in OPTION_SETS], ids=[n for n, _ in OPTION_SETS])
def test_positions_round_trip_from_random_play(num_players: int, options: dict[str, Any]) -> None:
    config = Config(num_players=num_players, **options)
    for seed in range(2):
        states = random_game(config, seed)
        last = len(states) - 1
        stride = max(1, len(states) // POSITIONS_PER_GAME)
        follow = {last * k // FOLLOW_POINTS for k in range(FOLLOW_POINTS)}
        for index, state in enumerate(states):
            if (index % stride and index != last and index not in follow
                    and state.phase in (PLAY, NOPE_WINDOW)):
                continue
            loaded = read_back(config, state)
            if index in follow:
                play_on(config, state, loaded, seed * 1000 + index)


def test_every_key_is_written_in_order() -> None:
    """``KEYS`` lists what ``position()`` writes in order, then the old name
    ``first_player``, which is read only."""
    base = position(GAME.new_game(Config(num_players=3), np.random.default_rng(0)))
    assert tuple(base) == BASE_KEYS[:-1] and BASE_KEYS[-1] == "first_player"
    streaking = position(GAME.new_game(Config(num_players=3, **STREAKING),
                                       np.random.default_rng(0)))
    assert tuple(streaking) == KEYS[:-1]
    assert set(STREAKING_KEYS) == set(KEYS) - set(BASE_KEYS)
    assert GAME.scenario_keys == KEYS


def test_an_old_scenario_reads_as_before() -> None:
    """``first_player`` is ``turn_holder``'s old name; leaving both out draws the turn
    holder from the generator, as before."""
    old = {"hands": [["defuse"], ["skip"]], "deck": ["exploding_kitten", "taco_cat"],
           "first_player": 1, "owed_turns": 2}
    state = rules.new_game(Config(), np.random.default_rng(0), old)
    assert (state.turn_holder, state.to_act, state.owed, state.attacked) == (1, 1, 2, True)
    new = {**old, "turn_holder": 1}
    del new["first_player"]
    assert rules.new_game(Config(), np.random.default_rng(0), new) == state
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    del new["turn_holder"]
    rules.new_game(Config(), rng, new)
    assert rng.bit_generator.state != before


# ------------------------------------------------------------------ rule points


def start(scenario: dict[str, Any], num_players: int | None = None,
          **options: Any) -> tuple[State, np.random.Generator]:
    """The position a scenario describes (read through JSON), checked to write itself
    back; and a generator to play on with."""
    config = Config(num_players=num_players or len(scenario["hands"]), **options)
    state = rules.new_game(config, np.random.default_rng(0), json.loads(json.dumps(scenario)))
    check_invariants(state)
    read_back(config, state)
    return state, np.random.default_rng(0)


def play(state: State, rng: np.random.Generator, *sequence: Any) -> None:
    """Apply moves, checking the invariants and the position round trip after each."""
    for move in sequence:
        rules.apply(state, move, rng)
        check_invariants(state)
        read_back(state.config, state)


def test_drawn_kitten_with_a_defuse_is_put_back_where_the_drawer_chooses() -> None:
    """docs/rules/exploding_kittens.md, Exploding Kitten and Defuse: the Defuse is
    played at once, the drawer puts the kitten back at a chosen depth, which only
    they know; one owed turn is settled."""
    state, rng = start({"hands": [["defuse", "skip"], ["nope"]],
                        "deck": ["exploding_kitten", "taco_cat", "beard_cat"],
                        "turn_holder": 0})
    play(state, rng, Draw())
    written = position(state)
    assert (written["phase"], written["to_act"], written["kittens_to_insert"]) == ("insert", 0, 1)
    assert written["resume"] == {"after": "draw", "seat": 0}
    assert written["discard"] == ["defuse"]
    play(state, rng, Insert(2))
    assert deck_top_first(state) == [TACO, BEARD, KITTEN]
    assert position(state)["known"][0]["deck"] == [[2, "exploding_kitten"]]
    assert position(state)["known"][1]["deck"] == []
    assert (state.phase, state.turn_holder) == (PLAY, 1)


def test_a_kitten_to_put_back_written_by_hand() -> None:
    """The same rule from a position set up in phase insert: every depth from the
    top (0) to the bottom (the pile's size) is offered."""
    state, rng = start({"hands": [["skip"], ["nope"]], "deck": ["taco_cat"],
                        "discard": ["defuse"], "turn_holder": 0, "phase": "insert",
                        "kittens_to_insert": 1, "resume": {"after": "draw", "seat": 0}})
    assert moves(state) == [Insert(0), Insert(1)]
    play(state, rng, Insert(0))
    assert deck_top_first(state) == [KITTEN, TACO]
    assert (state.phase, state.turn_holder, state.owed) == (PLAY, 1, 1)


def test_drawn_kitten_without_a_defuse_and_the_game_goes_on() -> None:
    """docs/rules/exploding_kittens.md, Exploding Kitten and Defuse: without a Defuse
    the drawer is out, hand and kitten to the discard pile; the next living player
    starts; the last one left wins."""
    state, rng = start({"hands": [["skip", "taco_cat"], ["nope"], ["beard_cat"]],
                        "deck": ["exploding_kitten", "exploding_kitten", "favor"],
                        "turn_holder": 0})
    play(state, rng, Draw())
    assert state.eliminated == [0] and rules.returns(state) == [-1.0, 0.0, 0.0]
    assert (state.phase, state.turn_holder) == (PLAY, 1)
    assert position(state)["discard"] == ["exploding_kitten", "skip", "taco_cat"]
    play(state, rng, Draw())
    assert (state.phase, state.winner, state.eliminated) == (GAME_OVER, 2, [0, 1])
    assert rules.returns(state) == [-1.0, -1.0, 1.0]


def test_a_game_with_a_player_out_skips_their_seat() -> None:
    """docs/rules/exploding_kittens.md, Overview and Nope: play passes clockwise
    skipping players who are out, and only living players are asked to Nope."""
    scenario = {"hands": [["skip"], [], ["nope"]], "deck": ["taco_cat", "exploding_kitten"],
                "discard": ["exploding_kitten", "defuse"], "eliminated": [1], "turn_holder": 0}
    state, rng = start(scenario)
    play(state, rng, PlayCard(SKIP))
    assert pass_window(state, rng) == [2, 0]
    assert (state.phase, state.turn_holder) == (PLAY, 2)
    game = ek_env.env(num_players=3)
    game.reset(seed=0, options={"scenario": scenario})
    assert game.agents == ["player_0", "player_2"]
    assert game.agent_selection == "player_0"


@pytest.mark.parametrize("option", ["discard", "out_of_play"])
def test_an_exploded_players_cards_go_where_eliminated_cards_says(option: str) -> None:
    """docs/rules/exploding_kittens.md, Exploding Kitten and Defuse; Rule options:
    the hand and the kitten go to the discard pile, or are shown and set aside."""
    state, rng = start({"hands": [["skip", "taco_cat"], ["nope"], ["beard_cat"]],
                        "deck": ["exploding_kitten", "exploding_kitten"], "turn_holder": 0},
                       eliminated_cards=option)
    play(state, rng, Draw())
    written = position(state)
    other = "discard" if option == "out_of_play" else "out_of_play"
    assert written[option] == ["exploding_kitten", "skip", "taco_cat"] and written[other] == []
    assert written["eliminated"] == [0]
    # The same position under the other option is refused: nothing is set aside there.
    if option == "out_of_play":
        with pytest.raises(ScenarioError, match="out_of_play"):
            rules.new_game(Config(num_players=3), np.random.default_rng(0), written)


@pytest.mark.parametrize(("nopers", "happens"), [((2,), True), ((), False), ((2, 1), False)])
def test_nope_war_in_a_window(nopers: tuple[int, ...], happens: bool) -> None:
    """docs/rules/exploding_kittens.md, Nope: each Nope opens a new window asked
    clockwise after the Noper and the Noper last; the play happens if the Nopes are
    even. Here seat 1 has Noped seat 0's Attack, and seat 2 is asked next."""
    state, rng = start({
        "hands": [[], ["nope", "skip"], ["nope", "taco_cat"]],
        "deck": ["taco_cat", "exploding_kitten", "exploding_kitten"],
        "discard": ["attack", "nope"], "turn_holder": 0, "phase": "nope_window",
        "pending": {"kind": "single", "card": "attack", "nopes": 1, "window_last": 1}})
    assert (state.phase, state.to_act) == (NOPE_WINDOW, 2)
    run_window(state, rng, nopers)
    if happens:
        assert (state.turn_holder, state.owed, state.attacked) == (1, 2, True)
    else:
        assert (state.turn_holder, state.owed, state.phase) == (0, 1, PLAY)
    assert state.discard[NOPE] == 1 + len(nopers)


@pytest.mark.parametrize(("stacking", "owed", "attacked", "next_owes"), [
    ("reset", 2, True, 2), ("reset", 1, True, 2),
    ("stack", 2, True, 4), ("stack", 1, True, 3), ("stack", 1, False, 2),
])
def test_attack_stacking(stacking: str, owed: int, attacked: bool, next_owes: int) -> None:
    """docs/rules/exploding_kittens.md, Action cards: an attacked player's Attack
    passes on 2 (reset), or their owed turns plus 2 (stack): 4 on the first of two
    attacked turns, 3 on the second."""
    state, rng = start({"hands": [["attack"], ["skip"]], "deck": ["taco_cat", "exploding_kitten"],
                        "turn_holder": 0, "owed_turns": owed, "attacked": attacked},
                       attack_stacking=stacking)
    play(state, rng, PlayCard(ATTACK))
    pass_window(state, rng)
    assert (state.turn_holder, state.owed, state.attacked) == (1, next_owes, True)


@pytest.mark.parametrize("option", ["allowed", "forbidden"])
def test_favor_and_pair_against_an_empty_hand(option: str) -> None:
    """docs/rules/exploding_kittens.md, Targets and fine points: a Favor or a pair may
    target a player with no cards, to no effect, unless empty_hand_target is
    forbidden."""
    state, rng = start({"hands": [["favor", "taco_cat", "taco_cat"], [], ["skip"]],
                        "deck": ["beard_cat", "exploding_kitten", "exploding_kitten"],
                        "turn_holder": 0}, empty_hand_target=option)
    offered = moves(state)
    assert (PlayCard(FAVOR, 1) in offered) == (option == "allowed")
    assert (PlayPair(TACO, 1) in offered) == (option == "allowed")
    assert PlayCard(FAVOR, 2) in offered and PlayPair(TACO, 2) in offered
    if option == "allowed":
        play(state, rng, PlayCard(FAVOR, 1))
        pass_window(state, rng)
        assert (state.phase, state.to_act, cards(state, 0)) == (PLAY, 0, [TACO, TACO])
        assert (state.log[-1].what, state.log[-1].result) == (GIVE_EVENT, NOTHING)


def test_a_favor_pending_against_an_empty_hand_comes_to_nothing() -> None:
    """The same point from the middle of the Nope window: the Favor stands, the
    target has nothing to give, the turn holder plays on."""
    state, rng = start({"hands": [["skip"], [], ["nope"]],
                        "deck": ["beard_cat", "exploding_kitten", "exploding_kitten"],
                        "discard": ["favor"], "turn_holder": 0, "phase": "nope_window",
                        "pending": {"kind": "single", "card": "favor", "target": 1,
                                    "window_last": 0}})
    assert pass_window(state, rng) == [1, 2, 0]
    assert (state.phase, state.to_act, state.sizes) == (PLAY, 0, [1, 0, 1])


def test_three_of_a_kind_that_misses_rules_the_card_out() -> None:
    """docs/rules/exploding_kittens.md, Pairs and combos: three of a kind names any
    card; a miss tells the table the target holds none (``ruled_out``)."""
    state, rng = start({"hands": [["skip"], ["beard_cat"], ["nope"]],
                        "deck": ["taco_cat", "exploding_kitten", "exploding_kitten"],
                        "discard": ["taco_cat"] * 3, "turn_holder": 0, "phase": "name_card",
                        "pending": {"kind": "three", "card": "taco_cat", "target": 1}})
    play(state, rng, NameCard(DEFUSE))
    pass_window(state, rng)
    assert position(state)["ruled_out"] == [[], ["defuse"], []]
    assert cards(state, 1) == [BEARD]


def test_five_different_chooses_ascending_then_takes_from_the_discard_pile() -> None:
    """docs/rules/exploding_kittens.md, Pairs and combos: five different kinds, then
    any card of the discard pile but a kitten."""
    state, rng = start({"hands": [["favor", "nope", "taco_cat", "beard_cat"], ["skip"]],
                        "deck": ["exploding_kitten"], "discard": ["attack", "skip", "defuse"],
                        "turn_holder": 0, "phase": "choose_five",
                        "pending": {"kind": "five", "five": ["attack", "skip"]}})
    assert moves(state) == [ChooseFive(FAVOR), ChooseFive(NOPE)]
    play(state, rng, ChooseFive(FAVOR), ChooseFive(NOPE), ChooseFive(TACO))
    pass_window(state, rng)
    assert state.phase == TAKE
    play(state, rng, Take(DEFUSE))
    assert (state.phase, cards(state, 0)) == (PLAY, [DEFUSE, BEARD])


def test_the_dry_deck_ends_in_a_shared_draw() -> None:
    """docs/rules/exploding_kittens.md, Dry deck: a player who must draw from an empty
    pile ends the game; the players still in share a draw (0), those out keep -1."""
    state, rng = start({"hands": [["skip"], ["nope"], []], "deck": [],
                        "discard": ["exploding_kitten"], "eliminated": [2], "turn_holder": 0},
                       **STREAKING)
    play(state, rng, Draw())
    assert (state.phase, state.winner) == (GAME_OVER, NOBODY)
    assert rules.returns(state) == [0.0, 0.0, -1.0]
    written = position(state)
    assert (written["phase"], written["winner"]) == ("game_over", None)


@pytest.mark.parametrize("has_defuse", [True, False])
def test_streaking_kitten_leaving_a_hand_that_holds_a_kitten(has_defuse: bool) -> None:
    """docs/rules/exploding_kittens.md, Streaking Kitten: given away on a Favor, it
    leaves the held kitten to go off at once: defused and put back outside the
    holder's turn (the turn holder then plays on), or the holder is out."""
    state, rng = start({
        "hands": [["taco_cat"], ["exploding_kitten", "streaking_kitten",
                                 "defuse" if has_defuse else "nope"]],
        "deck": ["skip", "exploding_kitten"], "discard": ["favor"], "turn_holder": 0,
        "phase": "give", "to_act": 1}, **STREAKING)
    play(state, rng, Give(SK))
    assert state.hands[0][SK] == 1
    if not has_defuse:
        assert (state.phase, state.winner, state.eliminated) == (GAME_OVER, 0, [1])
        return
    written = position(state)
    assert (written["phase"], written["to_act"], written["kittens_to_insert"]) == ("insert", 1, 1)
    assert written["resume"] is None
    play(state, rng, Insert(1))
    assert (state.phase, state.to_act, state.turn_holder, state.owed) == (PLAY, 0, 0, 1)


def test_a_blind_players_turned_up_favor_gets_its_target() -> None:
    """docs/rules/exploding_kittens.md, Blind play: a turned-up Favor is played once
    its target is chosen, then goes through its Nope window."""
    state, rng = start({
        "hands": [["taco_cat"], ["skip", "beard_cat"], ["nope"]],
        "deck": ["cattermelon", "exploding_kitten", "exploding_kitten"], "discard": ["favor"],
        "turn_holder": 0, "blind": [0], "phase": "target",
        "pending": {"kind": "single", "card": "favor"}}, **STREAKING)
    assert moves(state) == [ChooseTarget(1), ChooseTarget(2)]
    play(state, rng, ChooseTarget(1))
    assert (state.phase, state.pending_target, state.to_act) == (NOPE_WINDOW, 1, 1)
    pass_window(state, rng)
    assert (state.phase, state.to_act) == (GIVE, 1)


def test_a_blind_player_puts_back_every_kitten_defused_then_sees_again() -> None:
    """docs/rules/exploding_kittens.md, Blind play: exploding while blind, every kitten
    turned up must be defused too, and each goes back; blindness ends when the
    player's own draw ends without them going out. Here two kittens wait."""
    state, rng = start({
        "hands": [["skip"], ["nope"], ["taco_cat"]], "deck": ["cattermelon"],
        "discard": ["defuse", "defuse", "streaking_kitten"], "turn_holder": 0, "blind": [0],
        "phase": "insert", "kittens_to_insert": 2, "resume": {"after": "draw", "seat": 0}},
        **STREAKING)
    play(state, rng, Insert(0))
    assert (state.phase, state.held_kitten, state.blind[0]) == (INSERT, 1, True)
    play(state, rng, Insert(2))
    assert deck_top_first(state) == [KITTEN, MELON, KITTEN]
    assert (state.phase, state.turn_holder, state.blind[0]) == (PLAY, 1, False)


def test_garbage_collection_under_way() -> None:
    """docs/rules/exploding_kittens.md, Garbage Collection: each living player with
    cards puts one in, clockwise from the player; then the pile is shuffled, and only
    then does a kitten whose Streaking Kitten went in explode."""
    state, rng = start({
        "hands": [["skip"], ["exploding_kitten", "defuse"], ["nope", "taco_cat"]],
        "deck": ["cattermelon", "exploding_kitten"], "discard": ["garbage_collection"],
        "turn_holder": 0, "phase": "garbage",
        "garbage": {"queue": [2], "in": ["favor", "streaking_kitten"], "from": [0, 1],
                    "lost": [1]}}, **STREAKING)
    assert state.to_act == 2 and state.discard[GC] == 1
    play(state, rng, Garbage(TACO))
    assert len(state.deck) == 5 and sorted(state.deck) == sorted([MELON, KITTEN, FAVOR, SK, TACO])
    assert (state.phase, state.to_act, state.held_kitten) == (INSERT, 1, 1)
    play(state, rng, Insert(0))
    assert (state.phase, state.to_act) == (PLAY, 0)


def test_alter_the_future_under_way() -> None:
    """docs/rules/exploding_kittens.md, The expansion's cards: Alter the Future 5x puts
    the top cards back one at a time, top first."""
    state, rng = start({
        "hands": [["skip"], ["nope"]], "deck": ["taco_cat"], "discard": ["alter_the_future_5x"],
        "turn_holder": 0, "phase": "alter",
        "alter": {"left": ["favor", "exploding_kitten", "beard_cat"], "placed": ["cattermelon"]}},
        **STREAKING)
    assert moves(state) == [Alter(KITTEN), Alter(FAVOR), Alter(BEARD)]
    play(state, rng, Alter(BEARD), Alter(KITTEN))
    assert deck_top_first(state) == [MELON, BEARD, KITTEN, FAVOR, TACO]
    assert state.known_deck[0] == [MELON, BEARD, KITTEN, FAVOR]
    assert (state.phase, state.to_act) == (PLAY, 0)


def test_what_a_seat_knows_reaches_its_observation() -> None:
    """docs/rules/exploding_kittens.md, What a seat observes: a known depth of the draw
    pile and a lower bound on a hand, set up by ``known``."""
    game = ek_env.env(num_players=2)
    game.reset(seed=0, options={"scenario": {
        "hands": [["skip"], ["favor", "beard_cat"]], "deck": ["taco_cat", "exploding_kitten"],
        "turn_holder": 0,
        "known": [{"deck": [[1, "exploding_kitten"]], "hands": [[], ["favor"]]},
                  {"deck": [], "hands": [[], []]}]}})
    fields = game.observation_spec.unpack(game.observe("player_0")["observation"])
    assert fields["known_deck"][1][KITTEN] == 1 and fields["known_deck"][0].sum() == 0
    assert fields["known_hands"][0][FAVOR] == 1
    other = game.observation_spec.unpack(game.observe("player_1")["observation"])
    assert other["known_deck"].sum() == 0


def test_an_attack_noped_by_a_blind_player_with_a_kitten_goes_on_after_it() -> None:
    """docs/rules/exploding_kittens.md, Blind play: a blind player trying to Nope may
    turn up a kitten, which explodes them; the window then goes on. A position in the
    middle of it: the kitten to put back, the window to resume after seat 1."""
    state, rng = start({
        "hands": [[], ["skip"], ["taco_cat"]],
        "deck": ["cattermelon", "exploding_kitten"], "discard": ["attack", "defuse"],
        "turn_holder": 0, "blind": [1], "phase": "insert", "to_act": 1,
        "kittens_to_insert": 1, "resume": {"after": "window", "seat": 1},
        "pending": {"kind": "single", "card": "attack", "window_last": 0}}, **STREAKING)
    play(state, rng, Insert(0))
    assert (state.phase, state.to_act) == (NOPE_WINDOW, 2)
    play(state, rng, Pass())
    pass_window(state, rng)
    assert (state.turn_holder, state.owed) == (1, 2)


# ------------------------------------------------------------------ bad input

BASE = {"hands": [["skip", "favor"], ["nope"], ["taco_cat"]],
        "deck": ["beard_cat", "exploding_kitten", "exploding_kitten"], "turn_holder": 0}

# (id, streaking, changes to BASE, words the message holds)
BAD: list[tuple[str, bool, dict[str, Any], str]] = [
    ("out_of_play not a list", False, {"out_of_play": "skip"}, "out_of_play"),
    ("out_of_play without the option", False, {"out_of_play": ["skip"]}, "out_of_play"),
    ("eliminated seat out of range", False, {"eliminated": [3]}, "eliminated[0]"),
    ("eliminated twice", False, {"eliminated": [2, 2]}, "eliminated"),
    ("eliminated not a list", False, {"eliminated": 2}, "eliminated"),
    ("eliminated everyone", False, {"hands": [[], [], []], "eliminated": [0, 1, 2]},
     "eliminated"),
    ("eliminated with cards", False, {"eliminated": [2]}, "seat 2 is eliminated"),
    ("eliminated without a kitten", False,
     {"hands": [["skip"], ["nope"], []], "deck": ["beard_cat", "exploding_kitten"],
      "eliminated": [2]}, "eliminated"),
    ("eliminated turn holder", False,
     {"hands": [[], ["nope"], ["skip"]], "deck": ["beard_cat", "exploding_kitten"],
      "discard": ["exploding_kitten"], "eliminated": [0]}, "turn_holder"),
    ("turn_holder out of range", False, {"turn_holder": 3}, "turn_holder"),
    ("turn_holder a string", False, {"turn_holder": "0"}, "turn_holder"),
    ("turn_holder and first_player", False, {"first_player": 0}, "first_player"),
    ("turns_played negative", False, {"turns_played": -1}, "turns_played"),
    ("turns_played a float", False, {"turns_played": 1.5}, "turns_played"),
    ("unknown phase", False, {"phase": "dance"}, "phase"),
    ("expansion phase in the base game", False, {"phase": "alter"}, "phase"),
    ("give without to_act", False, {"phase": "give"}, "to_act"),
    ("to_act out of range", False, {"to_act": 7}, "to_act"),
    ("to_act not the turn holder in play", False, {"to_act": 1}, "to_act"),
    ("give by the turn holder", False, {"phase": "give", "to_act": 0}, "to_act"),
    ("pending not a mapping", False, {"pending": "attack"}, "pending"),
    ("pending without kind", False, {"pending": {"card": "attack"}}, "pending"),
    ("pending unknown kind", False, {"pending": {"kind": "double"}}, "pending.kind"),
    ("pending unknown field", False, {"pending": {"kind": "single", "extra": 1}}, "pending"),
    ("pending card not a single play", False,
     {"phase": "nope_window", "pending": {"kind": "single", "card": "nope", "window_last": 0}},
     "pending.card"),
    ("pending pair without target", False,
     {"phase": "nope_window", "discard": ["taco_cat"] * 2,
      "pending": {"kind": "pair", "card": "taco_cat", "window_last": 0}}, "pending.target"),
    ("pending in phase play", False,
     {"discard": ["attack"], "pending": {"kind": "single", "card": "attack"}}, "pending"),
    ("window without pending", False, {"phase": "nope_window"}, "pending"),
    ("window without window_last", False,
     {"phase": "nope_window", "discard": ["attack"], "pending": {"kind": "single",
                                                                 "card": "attack"}}, "pending"),
    ("pending cards not discarded", False,
     {"phase": "nope_window", "pending": {"kind": "single", "card": "attack",
                                          "window_last": 0}}, "pending"),
    ("pending window_last out of range", False,
     {"phase": "nope_window", "discard": ["attack"],
      "pending": {"kind": "single", "card": "attack", "window_last": 9}}, "pending.window_last"),
    ("pending nopes negative", False,
     {"phase": "nope_window", "discard": ["attack"],
      "pending": {"kind": "single", "card": "attack", "window_last": 0, "nopes": -1}},
     "pending.nopes"),
    ("pending five not ascending", False,
     {"phase": "choose_five", "discard": ["skip", "attack"],
      "pending": {"kind": "five", "five": ["skip", "attack"]}}, "pending.five"),
    ("kittens_to_insert two in the base game", False,
     {"phase": "insert", "kittens_to_insert": 2}, "kittens_to_insert"),
    ("kittens_to_insert outside insert", False,
     {"deck": ["beard_cat", "exploding_kitten"], "kittens_to_insert": 1}, "kittens_to_insert"),
    ("insert without kittens_to_insert", False, {"phase": "insert"}, "kittens_to_insert"),
    ("resume not a mapping", False, {"resume": "draw"}, "resume"),
    ("resume unknown after", False, {"resume": {"after": "later"}}, "resume.after"),
    ("resume outside insert", False, {"resume": {"after": "draw", "seat": 0}}, "resume"),
    ("resume draw by another seat", False, {"resume": {"after": "draw", "seat": 1}}, "resume"),
    ("winner out of range", False, {"winner": 5}, "winner"),
    ("winner while the game goes on", False, {"winner": 0}, "winner"),
    ("game over without a winner", False, {"phase": "game_over"}, "winner"),
    ("known not a list", False, {"known": "all"}, "known"),
    ("known entry unknown key", False, {"known": [{"cards": []}, {}, {}]}, "known[0]"),
    ("known deck false", False, {"known": [{"deck": [[0, "skip"]]}, {}, {}]}, "known[0].deck"),
    ("known deck past the bottom", False, {"known": [{"deck": [[3, "skip"]]}, {}, {}]},
     "known[0].deck"),
    ("known deck not pairs", False, {"known": [{"deck": ["beard_cat"]}, {}, {}]},
     "known[0].deck"),
    ("known hand false", False, {"known": [{"hands": [[], ["defuse"], []]}, {}, {}]},
     "known[0].hands[1]"),
    ("known own hand while seeing", False, {"known": [{"hands": [["skip"], [], []]}, {}, {}]},
     "known[0].hands[0]"),
    ("ruled_out a held card", False, {"ruled_out": [["skip"], [], []]}, "ruled_out[0]"),
    ("ruled_out not a list", False, {"ruled_out": "skip"}, "ruled_out"),
    ("log not a list", False, {"log": "draw"}, "log"),
    ("log unknown event", False, {"log": [{"what": "dance", "actor": 0}]}, "log[0]"),
    ("log actor out of range", False, {"log": [{"what": "draw", "actor": 5}]}, "log[0]"),
    ("log expansion event in the base game", False,
     {"log": [{"what": "mark", "actor": 0}]}, "log[0]"),
    ("expansion key in the base game", False, {"blind": [1]}, "blind"),
    ("explode_queue without a kitten", True,
     {"phase": "insert", "kittens_to_insert": 1, "explode_queue": [0]}, "explode_queue"),
    ("explode_queue outside insert", True,
     {"hands": [["skip"], ["exploding_kitten", "nope"], ["taco_cat"]],
      "deck": ["beard_cat", "exploding_kitten"], "explode_queue": [1]}, "explode_queue"),
    ("alter with one card left", True,
     {"phase": "alter", "alter": {"left": ["skip"]}}, "alter"),
    ("alter outside its phase", True, {"alter": {"left": ["defuse", "attack"]}}, "alter"),
    ("alter phase without alter", True, {"phase": "alter"}, "alter"),
    ("garbage with an empty queue", True,
     {"phase": "garbage", "garbage": {"queue": []}}, "garbage"),
    ("garbage cards without givers", True,
     {"phase": "garbage", "garbage": {"queue": [1], "in": ["attack"]}}, "garbage"),
    ("garbage lost without the streaking kitten", True,
     {"phase": "garbage", "garbage": {"queue": [1], "in": ["attack"], "from": [0],
                                      "lost": [0]}}, "garbage.lost"),
    ("garbage outside its phase", True, {"garbage": {"queue": [1]}}, "garbage"),
    ("blind and eliminated", True,
     {"hands": [["skip"], ["nope"], []], "discard": ["exploding_kitten"], "eliminated": [2],
      "blind": [2]}, "blind"),
]


@pytest.mark.parametrize(("streaking", "changes", "words"), [case[1:] for case in BAD],
                         ids=[case[0] for case in BAD])
def test_a_malformed_key_is_refused_and_changes_nothing(streaking: bool, changes: dict[str, Any],
                                                        words: str) -> None:
    game = ek_env.env(num_players=3, **(STREAKING if streaking else {}))
    game.reset(seed=3)
    game.step(game.legal_actions()[0])
    before = game.game_state.clone()
    generator = game.np_random.bit_generator.state
    agents = game.agents[:]
    with pytest.raises(ScenarioError, match=re.escape(words)):
        game.reset(options={"scenario": {**BASE, **changes}})
    assert game.game_state == before
    assert game.np_random.bit_generator.state == generator
    assert game.agents == agents


def test_the_base_scenario_of_the_bad_cases_is_good() -> None:
    for streaking in (False, True):
        state, _ = start(dict(BASE), **(STREAKING if streaking else {}))
        assert state.phase == PLAY


def test_reading_a_scenario_never_changes_it() -> None:
    states = random_game(Config(num_players=4, **STREAKING), 5)
    written = position(states[len(states) // 2])
    copy = json.loads(json.dumps(written))
    rules.new_game(Config(num_players=4, **STREAKING), np.random.default_rng(0), written)
    assert written == copy

