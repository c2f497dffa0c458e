"""Positions: any Power Hungry Pets state written as a scenario and set up again.

The round trip (docs/positions.md): ``position(state)`` holds JSON types only; loading
it gives the state back, up to which copy of a value holds which card id
(:func:`phpets_env.positions.position.canonical`), drawing nothing from the generator;
``position`` of the loaded state is the same; play goes on identically. Then the
rule points of docs/rules/power_hungry_pets.md about a position in the middle of a
round, each written as a scenario and played to its outcome.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from cardgym.actions import actions_of
from cardgym.errors import ScenarioError
from phpets_env import env as make_env
from phpets_env import rules
from phpets_env.encoding.encoding import apply_action, encode, legal_action_mask
from phpets_env.engine.cards import CARD_NAMES, CARD_VALUES, COPIES, Card
from phpets_env.engine.events import DRAW as DRAW_EVENT
from phpets_env.engine.events import EVENT_NAMES, FROM_ASIDE, NO_EFFECT
from phpets_env.engine.state import (
    MATCH_OVER,
    MOUSE_TRAPPER,
    NO_CARD,
    PLAY,
    GraveSwap,
    PlaceCard,
    Play,
    State,
)
from phpets_env.game import GAME
from phpets_env.info.view import PlayerView
from phpets_env.positions.position import canonical, position
from phpets_env.positions.scenario import KEYS
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    HERMIT,
    JUGGLER,
    KING,
    NOT_A_PET,
    ROBOVAC,
    SHIELD,
    SNAKE,
    TRAPPER,
    hand,
    legal_targets,
    values,
)

CONFIGS = [(n, options) for n in GAME.player_counts for options in GAME.test_option_sets]


def _id(config: tuple[int, dict[str, str]]) -> str:
    n, options = config
    return f"{n}p-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "default")


def load(scenario: dict[str, Any], config: Any, whole: bool = True) -> State:
    """``new_game`` from a scenario through JSON; one that names everything (``whole``,
    as a position does) draws nothing from the generator."""
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    loaded = GAME.new_game(config, rng, json.loads(json.dumps(scenario)))
    if whole:
        assert rng.bit_generator.state == before, "loading a position drew from the generator"
    return loaded


def observations(state: State) -> list[bytes]:
    return [encode(PlayerView(state, seat)).tobytes() for seat in range(state.num_players)]


def check_round_trip(state: State) -> State:
    """Conditions 1-3 of a position; returns the loaded state."""
    written = position(state)
    assert list(written) == [key for key in KEYS if key != "deck_top"]
    assert json.loads(json.dumps(written)) == written
    loaded = load(written, state.config)
    assert loaded == canonical(state)
    assert position(loaded) == written
    assert observations(loaded) == observations(state)
    assert legal_action_mask(loaded) == legal_action_mask(state)
    return loaded


def play_on(original: State, loaded: State, seed: int) -> None:
    """The rest of the match from ``loaded`` and from a copy of ``original``, with the
    same actions and generators: the same states (ids as the loader gives them), and
    the same observations, masks and returns as the original's."""
    twin, clone = canonical(original), original.clone()
    rngs = [np.random.default_rng(seed) for _ in range(3)]
    pick = np.random.default_rng(seed + 1)
    while clone.phase != MATCH_OVER:
        mask = legal_action_mask(clone)
        assert legal_action_mask(loaded) == mask
        actions = actions_of(mask)
        action = actions[int(pick.integers(len(actions)))]
        for state, rng in zip((loaded, twin, clone), rngs, strict=True):
            apply_action(state, action, rng)
        assert loaded == twin
        assert observations(loaded) == observations(clone)
        assert loaded.round_winners == clone.round_winners
        assert rules.returns(loaded) == rules.returns(clone)


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_every_step_of_random_matches_round_trips(config: tuple[int, dict[str, str]]) -> None:
    num_players, options = config
    game_config = GAME.config(num_players, **options)
    for seed in range(2):
        rng = np.random.default_rng(seed)
        state = GAME.new_game(game_config, rng)
        pick = np.random.default_rng(seed + 10)
        step = 0
        while True:
            loaded = check_round_trip(state)
            if step % 9 == seed:
                play_on(state, loaded, seed=step)
            if state.phase == MATCH_OVER:
                break
            actions = actions_of(legal_action_mask(state))
            apply_action(state, actions[int(pick.integers(len(actions)))], rng)
            step += 1
        assert state.round_number > 1 or num_players > 4  # positions of later rounds too


@pytest.mark.parametrize("reward", ["match", "round"])
def test_an_env_reset_to_its_own_position_goes_on_alike(reward: str) -> None:
    """Through the env: rewards, terminations and observations of every agent."""
    first = make_env(num_players=3, reward=reward)
    first.reset(seed=3)
    pick = np.random.default_rng(0)
    for _ in range(12):  # into the match
        first.step(int(pick.choice(np.flatnonzero(first.last()[0]["action_mask"]))))
    assert first.agents and first.game_state.log
    second = make_env(num_players=3, reward=reward)
    second.reset(seed=99, options={"scenario": first.position()})
    second.np_random.bit_generator.state = first.np_random.bit_generator.state
    assert second.game_state == canonical(first.game_state)
    while first.agents:
        agent = first.agent_selection
        assert second.agent_selection == agent
        for name in first.possible_agents:
            assert np.array_equal(first.observe(name)["observation"],
                                  second.observe(name)["observation"])
        assert first.rewards == second.rewards and first.terminations == second.terminations
        observation, _, done, truncated, _ = first.last()
        action = (None if done or truncated
                  else int(pick.choice(np.flatnonzero(observation["action_mask"]))))
        first.step(action)
        second.step(action)
    assert not second.agents


def test_the_record_caches_are_rebuilt_and_do_not_count() -> None:
    state = GAME.new_game(GAME.config(4), np.random.default_rng(5))
    rng = np.random.default_rng(6)
    for _ in range(9):
        apply_action(state, actions_of(legal_action_mask(state))[0], rng)
    seen = observations(state)  # fills the public record cache
    assert state.public_log is not None and state.public_seen == len(state.log)
    loaded = load(position(state), state.config)
    assert loaded.public_log is None and loaded.public_seen is None
    assert loaded == canonical(state) and canonical(state).public_log is None
    assert observations(loaded) == seen and loaded.public_seen == len(loaded.log)
    check_round_trip(state)


# ------------------------------------------------------- knowledge of one copy


def test_knowing_one_of_two_equal_cards_survives_the_round_trip() -> None:
    """Seat 0 knows the Crystal Bowl seat 1 drew, not the one it held: after seat 1
    plays a Crystal Bowl, seat 0 cannot tell which copy is left (docs/rules/
    power_hungry_pets.md, "Knowledge goes stale")."""
    scenario = {"to_act": 1, "first_player": 0, "hands": [["battle_bunny"], ["crystal_bowl",
                "crystal_bowl"], ["shell_shield"]], "deck_top": ["king_cat"],
                "known": [{"hands": [[], [None, "crystal_bowl"], []]}, {}, {}]}
    state = load(scenario, GAME.config(3), whole=False)
    first, drawn = state.hands[1]
    assert state.known[0] >> drawn & 1 and not state.known[0] >> first & 1
    assert position(state)["known"][0]["hands"][1] == [None, "crystal_bowl"]
    check_round_trip(state)
    rules.apply(state, Play(BOWL, target=2, guess=KING), np.random.default_rng(0))
    assert not any(state.known[0] >> card & 1 for card in state.hands[1])


def test_mouse_trapper_knowledge_follows_the_card_and_stays_trapped() -> None:
    """A card put back on top with Mouse Trapper and drawn by the next player is known
    to the placer through that placement only (``trapped``)."""
    scenario = {"to_act": 0, "first_player": 0, "phase": "mouse_trapper",
                "hands": [["crystal_bowl"], ["battle_bunny"], ["shell_shield"]],
                "rows": [["mouse_trapper"], [], []], "pending": "king_cat"}
    state = load(scenario, GAME.config(3), whole=False)
    assert PlayerView(state, 0).pending_card() == KING
    rules.apply(state, PlaceCard(depth=0), np.random.default_rng(0))
    assert state.to_act == 1 and hand(state, 1) == [BUNNY, KING]
    king = state.hands[1][1]
    assert state.trapped[0] == 1 << king and state.known[0] >> king & 1
    written = position(state)["known"][0]
    assert written["hands"][1] == [None, "king_cat"]
    assert written["trapped"] == [["hands", 1, 1]] and written["watches_deck"] is True
    check_round_trip(state)


def test_a_person_writes_a_known_pile_depth_and_the_watcher_follows() -> None:
    scenario = {"to_act": 0, "first_player": 0, "hands": [["crystal_bowl", "shell_shield"],
                ["battle_bunny"]], "deck_top": ["hermit_swap", "king_cat"],
                "known": [{}, {"deck": [[1, "king_cat"]]}]}
    state = load(scenario, GAME.config(2), whole=False)
    king = state.deck[-2]
    assert CARD_VALUES[king] == KING
    assert state.known[1] == (1 << king) | (1 << state.hands[1][0])
    assert state.trapped[1] == 1 << king and state.deck_watchers == 0b10
    assert PlayerView(state, 1).known_deck() == [(1, KING)]


# ------------------------------------------------------------ the rule points


def rest_in_rows(scenario: dict[str, Any], seats: list[int], n: int) -> dict[str, Any]:
    """``scenario`` with every card it does not name put into the rows of ``seats``
    (out of the round), in turn, so that ``deck`` can be the whole pile (and one into
    ``set_aside`` if it is not given)."""
    named: list[int] = []
    for key in ("hands", "rows"):
        for cards in scenario.get(key, []):
            named += [int(Card[c.upper()]) for c in cards]
    for key in ("deck", "face_up"):
        named += [int(Card[c.upper()]) for c in scenario.get(key, [])]
    for key in ("set_aside", "pending"):
        if scenario.get(key) is not None:
            named.append(int(Card[scenario[key].upper()]))
    rest = [v for v in sorted(COPIES) for _ in range(COPIES[v] - named.count(v))]
    if "set_aside" not in scenario:
        scenario = {**scenario, "set_aside": CARD_NAMES[rest.pop()]}
    rows = [list(row) for row in scenario.get("rows", [[] for _ in range(n)])]
    for i, value in enumerate(rest):
        rows[seats[i % len(seats)]].append(CARD_NAMES[value])
    return {**scenario, "rows": rows}


def setup(n: int, scenario: dict[str, Any], **options: str) -> tuple[State, np.random.Generator]:
    state = load(scenario, GAME.config(n, **options), whole=False)
    check_round_trip(state)
    return state, np.random.default_rng(0)


@pytest.mark.parametrize("card", [BOWL, BUNNY, HERMIT])
def test_nobody_to_choose_the_card_is_played_without_effect(card: int) -> None:
    """"Nobody to choose": every other player protected or out, a card that needs
    another player may still be played, without effect."""
    state, rng = setup(4, {"to_act": 0, "first_player": 0, "hands": [[CARD_NAMES[card],
                       "king_cat"], ["crystal_bowl"], [], ["grave_digger"]],
                       "protected": [1, 3], "rows": [[], ["shell_shield"], ["battle_bunny"],
                       ["shell_shield"]]})
    assert legal_targets(state, card) == {None}
    hands = [list(h) for h in state.hands]
    rules.apply(state, Play(card), rng)
    assert state.hands[1][:1] == hands[1] and state.hands[3] == hands[3]  # seat 1 drew since
    assert state.log[-2].result == NO_EFFECT and state.log[-2].actor == 0


def test_snake_sorcerer_with_every_other_player_protected_chooses_oneself() -> None:
    """Snake Sorcerer may always choose its own player; with everyone else protected,
    only that."""
    state, _ = setup(3, {"to_act": 2, "first_player": 0, "hands": [["crystal_bowl"],
                     ["battle_bunny"], ["snake_sorcerer", "royal_robovac"]],
                     "protected": [0, 1], "rows": [["shell_shield"], ["shell_shield"], []]})
    assert legal_targets(state, SNAKE) == {2}


def test_jittery_juggler_leaves_a_protected_card_alone() -> None:
    """Jittery Juggler does not touch a protected player's card."""
    state, rng = setup(3, {"to_act": 0, "first_player": 0, "hands": [["jittery_juggler",
                     "crystal_bowl"], ["king_cat"], ["battle_bunny"]], "protected": [1],
                     "rows": [[], ["shell_shield"], []]})
    king = state.hands[1][0]
    rules.apply(state, Play(JUGGLER), rng)
    # Seat 1, protected, kept its card (and has begun its turn since).
    assert state.hands[1][0] == king and len(state.hands[0]) == len(state.hands[2]) == 1
    assert not state.known[0] >> king & 1  # nothing was learned of the protected hand


@pytest.mark.parametrize("protected", [False, True])
def test_not_a_pet_with_nobody_unprotected_holding_king_cat(protected: bool) -> None:
    """Not A Pet! does nothing when no other unprotected player holds King Cat (here it
    lies in the pile, or its holder is protected); the table learns that no
    unprotected opponent holds it."""
    king_holder = ["king_cat"] if protected else ["hermit_swap"]
    state, rng = setup(4, {"to_act": 0, "first_player": 0, "hands": [["not_a_pet",
                     "crystal_bowl"], ["battle_bunny"], king_holder, ["grave_digger"]],
                     "protected": [2] if protected else [], "rows": [[], [], ["shell_shield"],
                     []], "deck_top": [] if protected else ["king_cat"]})
    before = [values(h)[:1] for h in state.hands]
    rules.apply(state, Play(NOT_A_PET), rng)
    assert [values(h)[:1] for h in state.hands][1:] == before[1:]  # seat 1 has drawn since
    assert state.log[-2].result == NO_EFFECT
    king_bit = 1 << KING
    assert bool(state.ruled_out[2] & king_bit) == (not protected)
    assert state.ruled_out[3] & king_bit


def test_king_cat_shown_by_snake_sorcerer_is_out_and_draws_nothing() -> None:
    """Whoever has to put King Cat face up is out at once, and draws nothing."""
    state, rng = setup(3, {"to_act": 0, "first_player": 0, "hands": [["snake_sorcerer",
                     "crystal_bowl"], ["king_cat"], ["battle_bunny"]],
                     "deck_top": ["hermit_swap"]})
    pile = len(state.deck)
    rules.apply(state, Play(SNAKE, target=1), rng)
    assert not state.in_round[1] and state.hands[1] == []
    assert values(state.rows[1]) == [KING]
    assert len(state.deck) == pile - 1  # only seat 2's turn draw
    assert state.to_act == 2


def test_snake_sorcerer_on_an_empty_pile_takes_the_set_aside_card() -> None:
    """The chosen player draws the face-down set-aside card when the pile is empty."""
    scenario = rest_in_rows({"to_act": 0, "first_player": 0, "hands": [["snake_sorcerer",
                            "crystal_bowl"], ["battle_bunny"], [], []], "deck": [],
                            "set_aside": "grave_digger", "eliminated": [2, 3]}, [2, 3], 4)
    state, rng = setup(4, scenario)
    rules.apply(state, Play(SNAKE, target=1), rng)
    shown = [e for e in state.log if e.what == EVENT_NAMES.index("play:snake_sorcerer")]
    assert shown[-1].target == 1 and shown[-1].card == BUNNY
    drawn = [e for e in state.log if e.what == DRAW_EVENT]
    assert drawn[-1].target == 1 and drawn[-1].result == FROM_ASIDE and drawn[-1].secret == DIGGER
    # Seat 1 cannot draw: the showdown, which its Grave Digger wins over the Crystal Bowl.
    assert state.round_winners == (1,)


def _showdown(n: int, held: list[str | None], rows: list[list[str]],
              tokens: list[int] | None = None, **options: str) -> State:
    """Seat 0 plays Mouse Trapper on an empty pile; seat 1's turn meets the showdown.
    ``held[s]``: the card seat ``s`` takes there (None: out; its row takes the rest)."""
    out = [seat for seat in range(n) if held[seat] is None]
    hands = [["mouse_trapper", held[0]]] + [[] if h is None else [h] for h in held[1:]]
    scenario = rest_in_rows({"to_act": 0, "first_player": 0, "hands": hands, "rows": rows,
                             "deck": [], "eliminated": out,
                             "tokens": tokens or [0] * n}, out, n)
    state, rng = setup(n, scenario, **options)
    rules.apply(state, Play(TRAPPER), rng)
    return state


@pytest.mark.parametrize(("cards", "dethrone", "duel_only"), [
    (["king_cat", "royal_robovac"], 1, 1),
    (["king_cat", "royal_robovac", "crystal_bowl"], 2, 0),
    (["king_cat", "crystal_bowl"], 0, 0),
])
def test_showdown_royal_robovac_against_king_cat(cards: list[str], dethrone: int,
                                                 duel_only: int) -> None:
    """The showdown table of Royal Robovac against King Cat under both ``robovac`` options."""
    held = [*cards, *[None] * (4 - len(cards))]
    rows = [["shell_shield"], [], [], []]
    for option, winner in (("dethrone", dethrone), ("duel_only", duel_only)):
        state = _showdown(4, held, rows, robovac=option)
        assert state.round_winners == (winner,), option


@pytest.mark.parametrize(("rows", "final_tie", "winners"), [
    ([["snake_sorcerer"], ["shell_shield", "shell_shield", "battle_bunny"]], "shared", (0,)),
    ([["battle_bunny"], ["battle_bunny", "mouse_trapper", "crystal_bowl"]], "shared", (1,)),
    ([["battle_bunny"], ["mouse_trapper", "battle_bunny"]], "shared", (0, 1)),
    ([["battle_bunny"], ["mouse_trapper", "battle_bunny"]], "nobody", ()),
])
def test_showdown_ties_are_broken_by_the_rows(rows: list[list[str]], final_tie: str,
                                              winners: tuple[int, ...]) -> None:
    """Ties: rows compared highest first ([5, 2] beats [4, 4, 3]; [3, 2, 1] beats
    [3, 2]); identical rows share the round or nobody wins it (``final_tie``). Seat 0's
    row ends with the Mouse Trapper it plays."""
    state = _showdown(4, ["crystal_bowl", "crystal_bowl", None, None], [*rows, [], []],
                      final_tie=final_tie)
    assert state.round_winners == winners
    assert state.tokens == [1 if seat in winners else 0 for seat in range(4)]


def test_the_last_player_left_wins_the_round_with_cards_in_the_pile() -> None:
    """"Last player standing": the draw pile does not have to be empty."""
    state, rng = setup(3, {"to_act": 0, "first_player": 0, "hands": [
        ["battle_bunny", "hermit_swap"], ["crystal_bowl"], []], "rows": [[], [], ["king_cat"]]})
    rules.apply(state, Play(BUNNY, target=1), rng)
    assert state.round_winners == (0,) and state.tokens == [1, 0, 0]
    assert state.round_number == 2 and state.phase == PLAY


def test_a_match_is_won_on_tokens() -> None:
    """The match ends as soon as a player reaches the target (2 tokens with 4 players)."""
    state, rng = setup(4, {"to_act": 0, "first_player": 0, "round": 3, "tokens": [1, 1, 0, 0],
                     "round_winners": [1], "hands": [["battle_bunny", "hermit_swap"],
                     ["crystal_bowl"], [], []], "rows": [[], [], ["king_cat"], ["royal_robovac"]],
                     "eliminated": [2, 3]})
    rules.apply(state, Play(BUNNY, target=1), rng)
    assert state.phase == MATCH_OVER and state.match_winners == (0,)
    assert rules.returns(state) == [1.0, -1.0, -1.0, -1.0]
    over = check_round_trip(state)
    assert over.phase == MATCH_OVER and position(over)["match_winners"] == [0]


def test_a_shared_win_finding_the_supply_short_still_wins_the_match() -> None:
    """A tied player who would reach the target but finds no token left still wins."""
    state = _showdown(5, ["crystal_bowl", "crystal_bowl", "crystal_bowl", None, None],
                      [[], ["mouse_trapper"], ["mouse_trapper"], [], []], tokens=[1] * 5)
    assert state.round_winners == (0, 1, 2)  # clockwise from the start player, seat 0
    assert state.tokens == [2, 2, 1, 1, 1] and state.token_supply == 0
    assert state.phase == MATCH_OVER and state.match_winners == (0, 1, 2)


def test_grave_digger_decided_from_a_position() -> None:
    """Grave Digger's follow-up as a position: the player knows the set-aside card and
    may swap; everyone sees whether it did."""
    state, rng = setup(3, {"to_act": 0, "first_player": 0, "phase": "grave_digger",
                     "hands": [["crystal_bowl"], ["battle_bunny"], ["shell_shield"]],
                     "rows": [["grave_digger"], [], []], "set_aside": "king_cat"})
    assert PlayerView(state, 0).known_aside() == KING
    assert PlayerView(state, 1).known_aside() is None
    rules.apply(state, GraveSwap(swap=True), rng)
    assert values(state.hands[0]) == [KING] and CARD_VALUES[state.aside] == BOWL
    assert PlayerView(state, 0).known_aside() == BOWL


def test_grave_digger_without_a_set_aside_card_has_no_effect() -> None:
    """Once Snake Sorcerer has taken the set-aside card (the pile empty), Grave Digger
    has nothing to look at: no follow-up decision."""
    scenario = rest_in_rows({"to_act": 0, "first_player": 0, "hands": [["grave_digger",
                            "crystal_bowl"], ["battle_bunny"], [], []], "deck": [],
                            "set_aside": None, "eliminated": [2, 3]}, [2, 3], 4)
    state, rng = setup(4, scenario)
    rules.apply(state, Play(DIGGER), rng)
    played = [e for e in state.log if e.what == EVENT_NAMES.index("play:grave_digger")]
    assert played[-1].result == NO_EFFECT
    assert state.round_winners == (1,)  # no pile: seat 1 meets the showdown, 3 beats 1


def test_battle_bunny_counts_royal_robovac_as_zero() -> None:
    """Royal Robovac's showdown power does not apply to Battle Bunny: it loses to any card."""
    state, rng = setup(3, {"to_act": 0, "first_player": 0, "hands": [["battle_bunny",
                     "crystal_bowl"], ["royal_robovac"], ["king_cat"]]})
    rules.apply(state, Play(BUNNY, target=1), rng)
    assert not state.in_round[1] and values(state.rows[1]) == [ROBOVAC]
    assert state.ruled_out[0] == 1  # the table learns seat 0 holds more than 0


@pytest.mark.parametrize("pile", [["king_cat"], []])
def test_mouse_trapper_on_a_short_pile(pile: list[str]) -> None:
    """With one card in the pile Mouse Trapper looks at it and puts it back; with an
    empty pile it has no effect."""
    scenario = rest_in_rows({"to_act": 0, "first_player": 0, "hands": [["mouse_trapper",
                            "crystal_bowl"], ["battle_bunny"], [], []], "deck": pile,
                            "eliminated": [2, 3]}, [2, 3], 4)
    state, rng = setup(4, scenario)
    rules.apply(state, Play(TRAPPER), rng)
    if pile:
        assert state.phase == MOUSE_TRAPPER and CARD_VALUES[state.pending] == KING
        assert rules.legal_moves(state) == [PlaceCard(0)]
        check_round_trip(state)
    else:
        played = [e for e in state.log if e.what == EVENT_NAMES.index("play:mouse_trapper")]
        assert played[-1].result == NO_EFFECT and state.pending == NO_CARD
        assert state.round_winners == (1,)  # seat 1 meets the showdown: 3 beats 1


def test_protection_ends_when_the_protected_player_s_turn_begins() -> None:
    """Shell Shield protects until the start of its player's next turn."""
    state, rng = setup(2, {"to_act": 0, "first_player": 1, "hands": [["crystal_bowl",
                     "royal_robovac"], ["battle_bunny"]], "protected": [1],
                     "rows": [[], ["shell_shield"]]})
    assert legal_targets(state, BOWL) == {None}
    rules.apply(state, Play(ROBOVAC), rng)
    assert state.to_act == 1 and not state.protected[1]


def test_a_scenario_without_to_act_begins_a_later_round() -> None:
    """Without ``to_act`` the scenario is a round about to begin: it is logged and the
    start player draws."""
    state, _ = setup(3, {"round": 2, "tokens": [1, 0, 0], "round_winners": [0],
                     "first_player": 0, "hands": ["shell_shield", "crystal_bowl", "king_cat"],
                     "deck_top": ["hermit_swap"]})
    assert state.round_number == 2 and state.to_act == 0
    assert hand(state, 0) == [SHIELD, HERMIT]
    assert [EVENT_NAMES[e.what] for e in state.log] == ["new_round", "turn_draw"]


# ------------------------------------------------------------------ bad input

#: A position of three players: seat 0 to play, seat 2 out.
BASE: dict[str, Any] = {"to_act": 0, "first_player": 0, "hands": [
    ["crystal_bowl", "battle_bunny"], ["shell_shield"], []], "rows": [[], [], ["king_cat"]]}

BAD: list[tuple[str, dict[str, Any], str]] = [
    ("round zero", {"round": 0}, r"round must be an integer 1..1073741824"),
    ("round a string", {"round": "2"}, r"round must be an integer 1..1073741824"),
    ("round a bool", {"round": True}, r"round must be an integer 1..1073741824"),
    ("to_act off the table", {"to_act": 3}, r"to_act must be a seat 0\.\.2"),
    ("to_act a string", {"to_act": "0"}, r"to_act must be a seat 0\.\.2"),
    ("to_act eliminated", {"to_act": 1, "eliminated": [1], "hands": [["crystal_bowl"], [],
                                                                     ["battle_bunny"]]},
     r"to_act 1 is out of the round \('eliminated'\)"),
    ("unknown phase", {"phase": "dance"}, r"phase must be one of play, grave_digger"),
    ("phase without to_act", {"to_act": None, "phase": "play"}, r"'phase' needs 'to_act'"),
    ("one card to play from", {"hands": [["crystal_bowl"], ["shell_shield"], []]},
     r"hands\[0\] must hold two cards"),
    ("a card in an out hand", {"eliminated": [1, 2]}, r"hands\[1\] must hold no cards"),
    ("rows not per seat", {"rows": [["king_cat"]]}, r"rows must hold one list of cards for each of the 3 seats"),
    ("rows with a bad card", {"rows": [["dragon"], [], []]}, r"rows\[0\]\[0\]: unknown card"),
    ("eliminated not a list", {"eliminated": 2}, r"eliminated must be a list of seats"),
    ("eliminated off the table", {"eliminated": [3]}, r"eliminated\[0\] must be a seat"),
    ("eliminated twice", {"eliminated": [2, 2]}, r"eliminated names a seat twice"),
    ("everyone eliminated", {"to_act": None, "hands": [[], [], []]},
     r"'eliminated' names every seat"),
    ("protected to_act", {"protected": [0]}, r"to_act 0 cannot be 'protected'"),
    ("protected out", {"protected": [2]}, r"seat 2 is out of the round: it cannot be 'protected'"),
    ("protected not a list", {"protected": "1"}, r"protected must be a list of seats"),
    ("set_aside a bad card", {"set_aside": "dragon"}, r"set_aside: unknown card"),
    ("set_aside taken with a pile", {"set_aside": None},
     r"'set_aside' None \(Snake Sorcerer took it\) needs an empty pile"),
    ("deck with cards left over", {"deck": ["hermit_swap"], "set_aside": "royal_robovac"},
     r"'deck' is the whole draw pile, so every card needs a place"),
    ("deck_top not a list", {"deck_top": "king_cat"}, r"deck_top must be a list of cards"),
    ("too many copies", {"deck_top": ["king_cat"]}, r"names card 10 2 times"),
    ("pile too long", {"to_act": None, "hands": ["crystal_bowl", [], []],
                       "rows": [[], [], ["king_cat"]]},
     r"'deck' would hold 18 cards .* never has more than 17"),
    ("pending in the play phase", {"pending": "king_cat"}, r"'pending' \(the card Mouse"),
    ("mouse_trapper without pending", {"phase": "mouse_trapper", "hands": [
        ["crystal_bowl"], ["shell_shield"], []], "rows": [["mouse_trapper"], [], ["king_cat"]]},
     r"'pending' \(the card Mouse"),
    ("grave_digger not just played", {"phase": "grave_digger", "hands": [
        ["crystal_bowl"], ["shell_shield"], []]}, r"rows\[0\] must end with it"),
    ("ruled_out not per seat", {"ruled_out": [[]]}, r"ruled_out must hold one list of values"),
    ("ruled_out a bad value", {"ruled_out": [[], [11], []]}, r"ruled_out\[1\]\[0\]: unknown card"),
    ("ruled_out for to_act", {"ruled_out": [["king_cat"], [], []]},
     r"ruled_out\[0\] must be empty"),
    ("ruled_out what is held", {"ruled_out": [[], ["shell_shield"], []]},
     r"ruled_out\[1\] names a value that hands\[1\] holds"),
    ("ruled_out of random hands", {"hands": None, "ruled_out": [[], ["king_cat"], []]},
     r"'ruled_out' needs 'hands'"),
    ("ruled_out for an out seat", {"ruled_out": [[], [], ["king_cat"]]},
     r"seat 2 is out of the round: it cannot be 'protected' nor have values in 'ruled_out'"),
    ("known not per seat", {"known": [{}]}, r"'known' must give a mapping"),
    ("known entry not a mapping", {"known": [[], {}, {}]}, r"known\[0\] must be a mapping"),
    ("known unknown kind", {"known": [{"cards": []}, {}, {}]}, r"known\[0\]: unknown keys"),
    ("known hand wrong card", {"known": [{}, {"hands": [["king_cat", None], [], []]}, {}]},
     r"known\[1\]\.hands\[0\]\[0\] is king_cat, but hands\[0\]\[0\] is crystal_bowl"),
    ("known hand wrong length", {"known": [{}, {"hands": [["crystal_bowl"], [], []]}, {}]},
     r"known\[1\]\.hands\[0\] must be \[\] or list every card"),
    ("known hands not per seat", {"known": [{"hands": []}, {}, {}]},
     r"known\[0\]\.hands must give, for each of the 3 seats"),
    ("known deck of a random pile", {"known": [{"deck": [[0, "hermit_swap"]]}, {}, {}]},
     r"known\[0\]\.deck: the pile names no cards"),
    ("known deck too deep", {"deck_top": ["hermit_swap"],
                             "known": [{"deck": [[1, "hermit_swap"]]}, {}, {}]},
     r"known\[0\]\.deck\[0\] depth"),
    ("known deck wrong card", {"deck_top": ["hermit_swap"],
                               "known": [{"deck": [[0, "grave_digger"]]}, {}, {}]},
     r"known\[0\]\.deck\[0\]: depth 0 holds hermit_swap"),
    ("known deck not pairs", {"deck_top": ["hermit_swap"], "known": [{"deck": [0]}, {}, {}]},
     r"known\[0\]\.deck\[0\] must be a \[depth, card\] pair"),
    ("known aside not named", {"known": [{"aside": "hermit_swap"}, {}, {}]},
     r"known\[0\]\.aside: 'set_aside' does not name that card"),
    ("known aside wrong card", {"set_aside": "royal_robovac",
                                "known": [{"aside": "hermit_swap"}, {}, {}]},
     r"known\[0\]\.aside is hermit_swap, but set_aside is royal_robovac"),
    ("known pending without one", {"known": [{}, {"pending": "hermit_swap"}, {}]},
     r"known\[1\]\.pending: 'pending' does not name that card"),
    ("trapped a place not known", {"known": [{}, {"trapped": [["hands", 0, 0]]}, {}]},
     r"known\[1\]\.trapped\[0\] must be a place the seat knows"),
    ("watches_deck not a bool", {"known": [{"watches_deck": "yes"}, {}, {}]},
     r"known\[0\]\.watches_deck must be true or false"),
    ("round_winners off the table", {"round": 2, "round_winners": [4]},
     r"round_winners\[0\] must be a seat"),
    ("round_winners in round 1", {"round_winners": [1]}, r"'round_winners' .* round 1 has none"),
    ("match_winners mid-match", {"match_winners": [0]}, r"'match_winners' names the winners"),
    ("match_over without winners", {"phase": "match_over", "tokens": [3, 0, 0], "hands": [
        ["crystal_bowl"], ["shell_shield"], []]}, r"'match_winners' names the winners"),
    ("match_winners not at the target", {"phase": "match_over", "tokens": [3, 0, 0],
                                         "match_winners": [1], "hands": [["crystal_bowl"],
                                                                         ["shell_shield"], []]},
     r"match_winners must be the seats at the target"),
    ("tokens at the target mid-match", {"tokens": [3, 0, 0]}, r"tokens must list 3 counts"),
    ("log not a list", {"log": "x"}, r"'log' must be a list of events"),
    ("log unknown event", {"log": [{"what": "fly", "actor": 0}]}, r"log\[0\]: unknown event"),
    ("log field out of range", {"log": [{"what": "play:king_cat", "actor": 0, "card": 11}]},
     r"log\[0\]: card must be -1\.\.10"),
    ("log ends in another turn", {"log": [
        {"what": "new_round", "actor": -1, "target": 0},
        {"what": "turn_draw", "actor": -1, "target": 1, "secret": 1, "seen_by": 2}]},
     r"'log' must end in seat 0's turn"),
]


@pytest.mark.parametrize(("change", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_position_names_its_key_and_leaves_the_env_as_it_was(
    change: dict[str, Any], message: str
) -> None:
    game = make_env(num_players=3)
    game.reset(seed=1)
    game.step(int(np.flatnonzero(game.last()[0]["action_mask"])[0]))
    before, rng = game.game_state.clone(), game.np_random.bit_generator.state
    scenario = {key: value for key, value in {**BASE, **change}.items() if value is not None
                or key == "set_aside"}
    with pytest.raises(ScenarioError, match=message):
        game.reset(options={"scenario": scenario})
    assert game.game_state == before and game.np_random.bit_generator.state == rng


def test_the_base_of_the_bad_positions_is_good() -> None:
    state = load(BASE, GAME.config(3), whole=False)
    assert state.to_act == 0 and not state.in_round[2]
    check_round_trip(state)
