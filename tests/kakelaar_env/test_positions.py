"""Positions (kakelaar_env.positions.position, kakelaar_env.positions.scenario): any state written as a
scenario and read back equal, the rule points of docs/rules/karel_kakelaar.md played
from positions in the middle of a game, and malformed positions refused."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import numpy as np
import pytest

from cardgym.actions import actions_of
from cardgym.errors import ScenarioError
from cardgym.position_schema import position_schema
from cardgym.record import log_to_json
from kakelaar_env import env, parallel_env
from kakelaar_env.engine.cards import HEN, parse_card
from kakelaar_env.engine.events import EVENT_NAMES, HEN_EVENTS, HEN_FORCED, ROUND_EVENTS
from kakelaar_env.engine.state import Config, Phase, State
from kakelaar_env.game import GAME
from kakelaar_env.positions.position import position
from kakelaar_env.positions.scenario import KEYS, TWO_PLAYER_KEYS
from tests.kakelaar_env.helpers import hand, legal_names, make_env, names, pile, run_stage

CONFIGURATIONS = [(n, index) for n in GAME.player_counts
                  for index in range(len(GAME.test_option_sets))]
GAMES_PER_CONFIGURATION = 3


def load(config: Config, scenario: dict[str, Any], rng: np.random.Generator | None = None
         ) -> State:
    """``new_game`` from ``scenario``."""
    return GAME.new_game(config, rng or np.random.default_rng(0), scenario)  # type: ignore[no-any-return]


# ------------------------------------------------------------- round trip


def _check_round_trip(config: Config, state: State, continue_seed: int) -> None:
    """Conditions 1-4 of a position (docs/positions.md) at ``state``."""
    layout = GAME.layout(config)
    written = position(state)
    assert list(written) == [key for key in KEYS if key in written]
    read = json.loads(json.dumps(written))
    assert read == written  # 1. JSON types only
    rng = np.random.default_rng(continue_seed)
    before = rng.bit_generator.state
    loaded = GAME.new_game(config, rng, read)
    assert rng.bit_generator.state == before  # 2. nothing drawn ...
    assert loaded == state  # ... and the same state
    assert position(loaded) == written  # 3. a fixed point
    # 4. play goes on identically, from the loaded state and from a clone.
    original = state.clone()
    rngs = [np.random.default_rng(continue_seed), np.random.default_rng(continue_seed)]
    for seat in range(config.num_players):
        assert np.array_equal(layout.encode(GAME.player_view(loaded, seat)),
                              layout.encode(GAME.player_view(original, seat)))
    while not GAME.is_over(original):
        mask = layout.legal_mask(original)
        assert layout.legal_mask(loaded) == mask
        actions = actions_of(mask)
        action = actions[int(rngs[0].integers(len(actions)))]
        layout.apply(original, action, rngs[0])
        layout.apply(loaded, actions[int(rngs[1].integers(len(actions)))], rngs[1])
        assert loaded == original
    assert GAME.returns(loaded) == GAME.returns(original)


@pytest.mark.parametrize(("num_players", "option_set"), CONFIGURATIONS)
def test_every_position_of_random_games_round_trips(num_players: int, option_set: int) -> None:
    config = GAME.config(num_players, **GAME.test_option_sets[option_set])
    layout = GAME.layout(config)
    phases = set()
    for seed in range(GAMES_PER_CONFIGURATION):
        rng = np.random.default_rng(1000 * num_players + 10 * option_set + seed)
        state = GAME.new_game(config, rng)
        step = 0
        while True:
            phases.add(state.phase)
            _check_round_trip(config, state, step)
            if GAME.is_over(state):
                break
            actions = actions_of(layout.legal_mask(state))
            layout.apply(state, actions[int(rng.integers(len(actions)))], rng)
            step += 1
    assert phases == set(Phase)  # every stage, the take stages included


def test_positions_of_games_begun_from_older_scenarios_round_trip() -> None:
    """A state set up by a scenario of a later round (robot cards, removed cards and
    record only partly named) is written and read back the same."""
    config = GAME.config(2)
    rng = np.random.default_rng(3)
    state = load(config, {"round": 4, "hands": [["c3", "c4", "w6", "hen"], ["c5", "w1"]],
                          "discards": [["c5", "w2"], ["c3"]]}, rng)
    layout = GAME.layout(config)
    while not GAME.is_over(state):
        _check_round_trip(config, state, 7)
        actions = actions_of(layout.legal_mask(state))
        layout.apply(state, actions[int(rng.integers(len(actions)))], rng)


def test_position_names_every_key_but_deck_top_and_the_robot_keys_only_with_two() -> None:
    assert GAME.position is position and GAME.scenario_keys == KEYS
    for num_players in GAME.player_counts:
        written = position(GAME.new_game(GAME.config(num_players), np.random.default_rng(0)))
        robot_keys = set(TWO_PLAYER_KEYS) if num_players == 2 else set()
        assert set(written) == set(KEYS) - {"deck_top"} - (set(TWO_PLAYER_KEYS) - robot_keys)


def test_the_aec_env_resets_to_its_own_position() -> None:
    game = env(num_players=4)
    game.reset(seed=3)
    for action in (0, 0):
        game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[action]))
    again = env(num_players=4)
    again.reset(seed=9, options={"scenario": json.loads(json.dumps(game.position()))})
    assert again.game_state == game.game_state
    assert again.agent_selection == game.agent_selection
    for agent in game.agents:
        assert np.array_equal(again.observe(agent)["observation"],
                              game.observe(agent)["observation"])


def test_the_parallel_env_resets_from_a_position_and_plays_on_the_same() -> None:
    table = parallel_env(num_players=3)
    observations, _ = table.reset(seed=4)
    rng = np.random.default_rng(4)

    def choose(observations: dict[str, Any]) -> dict[str, int]:
        return {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                for agent, obs in observations.items()}

    for _ in range(5):
        observations, *_ = table.step(choose(observations))
    again = parallel_env(num_players=3)
    start, _ = again.reset(seed=0, options={"scenario": position(table.game_state)})
    assert again.game_state == table.game_state
    assert all(np.array_equal(start[agent]["observation"], observations[agent]["observation"])
               for agent in observations)
    actions = choose(observations)
    after, rewards, *_ = table.step(actions)
    after_again, rewards_again, *_ = again.step(actions)
    assert again.game_state == table.game_state and rewards_again == rewards
    assert all(np.array_equal(after[agent]["observation"], after_again[agent]["observation"])
               for agent in after)


def test_a_finished_game_loads_through_new_game_with_its_winners() -> None:
    config = GAME.config(3)
    rng = np.random.default_rng(5)
    state = GAME.new_game(config, rng)
    layout = GAME.layout(config)
    while not GAME.is_over(state):
        actions = actions_of(layout.legal_mask(state))
        layout.apply(state, actions[int(rng.integers(len(actions)))], rng)
    written = position(state)
    assert written["phase"] == "game_over" and written["winners"] == list(state.winners)
    assert load(config, written) == state
    wrong = [seat for seat in range(3) if seat not in state.winners][:1]
    with pytest.raises(ScenarioError, match="winners .* do not follow from the hands"):
        load(config, dict(written, winners=wrong))


# ------------------------------------------------- defaults of a partial scenario


def test_tractor_names_the_holder_in_the_scenarios_round() -> None:
    """The tractor moves one seat clockwise every round; ``tractor`` is the holder in
    the round set up (docs/rules/karel_kakelaar.md, "The tractor moves")."""
    for num_players in (3, 4, 5):
        for holder in range(num_players):
            game = make_env(num_players, {"round": 6, "tractor": holder})
            state = game.game_state
            assert state.circle[state.tractor] == holder and state.current == holder
            assert state.log == [ROUND_EVENTS[6][holder]]


def test_two_players_the_robot_holds_the_tractor_in_rounds_3_6_and_9() -> None:
    """docs/rules/karel_kakelaar.md, "Two players: the robot chicken": the circle is
    first holder, other player, robot."""
    for round_, holder, first in ((2, 0, 1), (4, 1, 1), (5, 1, 0)):
        state = make_env(2, {"round": round_, "tractor": holder}).game_state
        assert state.circle == (first, 1 - first, 2) and state.circle[state.tractor] == holder
    state = make_env(2, {"round": 6, "tractor": 2, "circle": [1, 0, 2]}).game_state
    assert state.circle[state.tractor] == 2 and state.asked == [1, 0]
    with pytest.raises(ScenarioError, match="tractor is 0 in round 6"):
        make_env(2, {"round": 6, "tractor": 0})
    with pytest.raises(ScenarioError, match="circle .* not to seat 0"):
        make_env(2, {"round": 4, "tractor": 0, "circle": [1, 0, 2]})


def test_a_mid_stage_scenario_without_a_log_records_the_round_start_and_the_commits() -> None:
    game = make_env(3, {"round": 2, "tractor": 1, "bids": [None, "c3", None]})
    state = game.game_state
    assert state.current == 2 and state.cursor == 1
    assert [(e.what, e.actor) for e in state.log] == [(0, -1), (1, 1)]
    assert state.log[1].secret == parse_card("c3")


def test_the_tractor_defaults_to_the_holder_of_the_records_last_round_event() -> None:
    log = log_to_json([ROUND_EVENTS[3][2]], EVENT_NAMES)
    state = make_env(4, {"round": 3, "log": log}).game_state
    assert state.circle[state.tractor] == 2


def test_a_scenario_without_a_phase_and_nothing_to_bid_reveals_at_once() -> None:
    """The older form: the round starts as in a dealt game; nobody has a card to bid,
    so the row is shared out in tractor order at once."""
    game = make_env(3, {"round": 2, "tractor": 0, "row": ["w8", "w5", "w1"],
                        "hands": [[], [], []]})
    state = game.game_state
    assert state.round == 3 and [hand(state, seat) for seat in range(3)] == [
        ["worm_8"], ["worm_5"], ["worm_1"]]
    with pytest.raises(ScenarioError, match="bid stage never opens"):
        make_env(3, {"round": 2, "hands": [[], [], []], "to_act": 0})


# ------------------------------------------- rule points, from mid-game positions


def test_equal_bids_rank_by_closeness_to_the_tractor() -> None:
    """docs/rules/karel_kakelaar.md, "3. Sharing out the row": equal bids do not
    cancel; the bid nearest the tractor clockwise (the holder first) ranks higher."""
    game = make_env(3, {"round": 2, "phase": "bid", "tractor": 2, "to_act": 0,
                        "row": ["w8", "w5", "w1"], "bids": [None, None, "c5"]})
    assert run_stage(game, {0: "c5", 1: "c5"}) == [0, 1]
    state = game.game_state
    assert [hand(state, seat).count(name) for seat, name in
            ((2, "worm_8"), (0, "worm_5"), (1, "worm_1"))] == [1, 1, 1]


def test_the_robot_bids_its_top_card_and_what_it_wins_leaves_the_game() -> None:
    """docs/rules/karel_kakelaar.md, "Two players: the robot chicken": its bid is the
    top of its deck; in round 3 it holds the tractor and wins equal bids; the row
    card it wins and its bid leave the game."""
    game = make_env(2, {"round": 3, "tractor": 2, "circle": [1, 0, 2], "to_act": 0,
                        "row": ["w8", "w5", "w2"], "bids": [None, "c6"],
                        "robot_deck": ["c6"], "robot_discard": ["c3", "c7"],
                        "robot_won": ["w4", "hen"], "last_bids": ["c4", "c5", "c7"]})
    run_stage(game, {0: "c6"})
    state = game.game_state
    assert state.robot_won == [parse_card(c) for c in ("w4", "hen", "w8")]
    assert state.robot_discard == [parse_card(c) for c in ("c3", "c7", "c6")]
    assert "worm_5" in hand(state, 1) and "worm_2" in hand(state, 0)
    assert state.last_bids == [parse_card("c6")] * 3


def test_a_player_without_a_card_to_bid_takes_the_last_card() -> None:
    """docs/rules/karel_kakelaar.md, "No card to bid": they are not asked and rank
    below every bid."""
    game = make_env(3, {"round": 4, "phase": "bid", "tractor": 0,
                        "row": ["w8", "w5", "w1"], "hands": [["hen"], ["c3"], ["c4", "c5"]],
                        "hens_out": 2})
    assert run_stage(game, {1: "c3", 2: "c4"}) == [1, 2]
    state = game.game_state
    assert "worm_1" in hand(state, 0) and "worm_8" in hand(state, 2)


def test_a_hen_with_two_cards_or_fewer_in_the_pile_takes_them_all() -> None:
    """docs/rules/karel_kakelaar.md, "5. Mother hens": a pile of two cards or fewer is
    taken back whole, without choosing; with more, the player picks two."""
    game = make_env(3, {"round": 3, "phase": "hen", "tractor": 0,
                        "hands": [["hen", "c3", "c4"], ["hen", "c5"], ["c3"]],
                        "discards": [["c5", "c6", "c7"], ["c3", "c4"], []],
                        "hen_choices": [True, None, None]})
    assert legal_names(game) == ["hen:none", "hen:play"]
    run_stage(game, {1: "hen:play"})
    state = game.game_state
    assert state.phase == Phase.TAKE_FIRST and state.asked == [0]
    assert hand(state, 1) == names("c3", "c4", "c5") and pile(state, 1) == []
    assert state.hen_played == [True, True, False] and state.hens_out == 2


def test_the_take_back_of_two_cards_resolves_after_the_second_picks() -> None:
    """docs/rules/karel_kakelaar.md, "5. Mother hens": two cards of choice from the own
    discard pile, picked face down one at a time, revealed together."""
    game = make_env(3, {"round": 4, "phase": "take_second", "tractor": 1,
                        "hands": [["w6", "c5", "c6"], ["c3", "c4", "c5", "c6", "c7"],
                                  ["c3", "c4", "c5", "c6", "c7"]],
                        "discards": [["w2", "w5", "c3", "c4", "c7"], [], []],
                        "hens_out": 1, "hen_played": [True, False, False],
                        "picks": [["w5"], [], []]})
    state = game.game_state
    assert state.current == 0 and legal_names(game) == [
        "take:worm_2", "take:chicken_3", "take:chicken_4", "take:chicken_7"]
    run_stage(game, {0: "w2"})
    assert hand(state, 0) == names("w2", "w5", "w6", "c5", "c6")
    assert pile(state, 0) == names("c3", "c4", "c7")
    assert state.phase == Phase.BID and state.round == 5 and state.circle[state.tractor] == 2


def test_a_player_with_only_hens_in_hand_must_play_one() -> None:
    """docs/rules/karel_kakelaar.md, "Forced hen": rounds 1 to 8."""
    scenario = {"round": 5, "phase": "hen", "tractor": 1, "hands": [["hen", "hen"], ["c3"],
                                                                     ["c4"]],
                "discards": [["w3", "c3", "c4"], [], []], "hens_out": 1}
    game = make_env(3, scenario)
    assert game.game_state.current == 0 and legal_names(game) == ["hen:play"]
    run_stage(game, {0: "hen:play"})
    state = game.game_state
    assert state.phase == Phase.TAKE_FIRST and HEN_EVENTS[0][HEN_FORCED] in state.log
    with pytest.raises(ScenarioError, match=r"hen_choices\[0\] is false"):
        make_env(3, dict(scenario, hen_choices=[False, None, None]))


def test_after_round_nine_nobody_is_forced_and_the_game_ends() -> None:
    """docs/rules/karel_kakelaar.md, "Forced hen" and "End of the game": after round 9
    there is no next bid."""
    game = make_env(3, {"round": 9, "phase": "hen", "tractor": 0,
                        "hands": [["hen"], ["w3"], ["w2"]], "hens_out": 8})
    assert legal_names(game) == ["hen:none", "hen:play"]
    run_stage(game, {0: "hen:none"})
    state = game.game_state
    assert state.phase == Phase.GAME_OVER and state.winners == (1,) and state.hands[0][HEN] == 1


# Round 9, hen step: seat 1 may play its hen. Playing none, seats 0 and 1 tie on 8
# worms in 3 cards; playing it (nothing to take back), seat 1 has 2 cards and wins.
FINAL_TIE = {"round": 9, "phase": "hen", "tractor": 0,
             "hands": [["w8", "c4", "c5"], ["w4", "w4", "hen"], ["w2"]]}


@pytest.mark.parametrize(("final_tie", "hen", "winners", "rewards"), [
    ("shared", "hen:none", (0, 1), [1.0, 1.0, -1.0]),
    ("draw", "hen:none", (0, 1), [0.0, 0.0, -1.0]),
    ("shared", "hen:play", (1,), [-1.0, 1.0, -1.0]),
    ("draw", "hen:play", (1,), [-1.0, 1.0, -1.0]),
])
def test_final_ties_go_to_fewer_cards_then_final_tie(
    final_tie: str, hen: str, winners: tuple[int, ...], rewards: list[float]
) -> None:
    """docs/rules/karel_kakelaar.md, "End of the game and the winner"."""
    game = make_env(3, FINAL_TIE, final_tie=final_tie)
    run_stage(game, {1: hen})
    assert game.game_state.winners == winners
    assert [game.rewards[f"player_{seat}"] for seat in range(3)] == rewards


# ----------------------------------------------------------------- bad input

ROW = ["w8", "w5", "w1"]
BAD = [
    (3, {"phase": "auction"}, "phase must be one of"),
    (3, {"phase": 1}, "phase must be one of"),
    (3, {"round": 4, "phase": "game_over"}, "phase 'game_over' comes after round 9"),
    (3, {"tractor": 0, "to_act": 1}, "to_act is 1, but the rules give seat 0"),
    (3, {"to_act": 3}, "to_act must be an integer 0..2"),
    (2, {"round": 3, "tractor": 1}, "tractor is 1 in round 3"),
    (2, {"circle": [0, 0, 2]}, "circle must be"),
    (2, {"circle": "012"}, "circle must be"),
    (3, {"circle": [0, 1, 2]}, "'circle' is for the two-player game only"),
    (3, {"row": ["w8", "w5"]}, "row holds 2 cards"),
    (3, {"row": ["w8", "c3", "w1"]}, r"row\[1\] is chicken_3"),
    (3, {"phase": "hen", "row": ROW, "hands": [["hen"], [], []]}, "row holds 3 cards; the row is "
     "empty"),
    (3, {"removed": "w1"}, "removed must be a list of cards"),
    (3, {"removed": ["c3"]}, r"removed\[0\] is chicken_3"),
    (3, {"removed": ["w1"]}, "with 'removed' given every card must be accounted for"),
    (3, {"hens_out": 10}, "hens_out must be an integer 0..9"),
    (3, {"hens_out": "1"}, "hens_out must be an integer 0..9"),
    (3, {"bids": ["c3", None]}, "bids must hold one card or null for each of the 3 seats"),
    (3, {"tractor": 0, "bids": ["hen", None, None]}, r"bids\[0\] is hen; a mother hen can "
     "never be bid"),
    (3, {"tractor": 0, "bids": ["w8", None, None]}, r"bids\[0\] is worm_8, which seat 0 does "
     "not hold"),
    (3, {"tractor": 0, "bids": [None, "c3", None]}, "the committed ones are the first"),
    (3, {"tractor": 0, "bids": ["c3", "c3", "c3"]}, "the stage is revealed after the last"),
    (3, {"phase": "hen", "hands": [["hen"], [], []], "bids": ["c3", None, None]},
     r"bids\[0\] is set in stage 'hen'"),
    (3, {"phase": "hen", "hands": [["hen", "c3"], [], []], "hen_choices": ["yes", None, None]},
     r"hen_choices\[0\] must be true or false"),
    (3, {"phase": "hen", "hands": [["hen", "c3"], [], []], "hen_choices": [None, True, None]},
     r"hen_choices\[1\] is set, but seat 1 has no decision"),
    (3, {"hen_played": [True, False, False], "hens_out": 1}, "hen_played names seats in stage "
     "'bid'"),
    (3, {"phase": "take_first", "hen_played": [1, 0, 0]}, r"hen_played\[0\] must be true or "
     "false"),
    (3, {"phase": "take_first", "hen_played": [True, False, False], "hens_out": 0},
     "hen_played names 1 seats but hens_out is 0"),
    (3, {"phase": "take_first", "hen_played": [True, False, False], "hens_out": 1},
     "phase 'take_first' needs a seat that played a mother hen"),
    (3, {"phase": "take_first", "hen_played": [True, False, False], "hens_out": 1,
         "discards": [["w1", "w2", "w3"], [], []], "picks": [["w1", "w2", "w3"], [], []]},
     r"picks\[0\] names 3 cards"),
    (3, {"phase": "take_first", "hen_played": [True, False, False], "hens_out": 1,
         "discards": [["w1", "w2", "w3"], [], []], "picks": [["w4"], None, None]},
     r"picks\[0\] names worm_4 1 time\(s\); seat 0's discard pile holds 0"),
    (3, {"phase": "take_second", "hen_played": [True, False, False], "hens_out": 1,
         "discards": [["w1", "w2", "w3"], [], []]}, r"picks\[0\] is empty in stage 'take_second'"),
    (3, {"last_bids": ["c3", "c3"]}, "last_bids must hold one card or null for each of the 3 "
     "participants"),
    (2, {"last_bids": ["c3", "c3"]}, r"last_bids must hold one card or null for each of the 3 "
     r"participants \(the robot last\)"),
    (3, {"round": 2, "last_bids": ["hen", None, None]}, r"last_bids\[0\] is hen; a mother hen"),
    (3, {"last_bids": ["c3", None, None]}, "last_bids must be all null in round 1"),
    (2, {"round": 2, "last_bids": [None, None, "w3"]}, r"last_bids\[2\] is worm_3"),
    (2, {"round": 2, "robot_discard": ["c4"], "last_bids": [None, None, "c3"]},
     r"last_bids\[2\] is chicken_3, but the robot's last bid"),
    (2, {"round": 3, "robot_discard": ["c4"]}, "robot_discard names 1 cards"),
    (2, {"round": 2, "robot_discard": ["w4"]}, r"robot_discard\[0\] is worm_4"),
    (2, {"robot_deck": ["c3"] * 2, "robot_discard": [], "round": 2}, "robot_discard names 0"),
    (2, {"round": 2, "robot_deck": ["c3"] * 2, "robot_discard": ["c3", "c3"]},
     "robot_discard names 2 cards"),
    (2, {"round": 3, "robot_deck": ["c3"] * 2, "robot_discard": ["c3", "c3"]},
     "name chicken_3 4 times"),
    (2, {"robot_won": ["w1"]}, "robot_won names 1 cards"),
    (2, {"round": 2, "robot_won": ["c3"]}, r"robot_won\[0\] is chicken_3"),
    (3, {"winners": [0]}, "winners are decided once the game is over"),
    (3, {"winners": 0}, "winners must be a list of seats"),
    (3, {"log": "round"}, "'log' must be a list of events"),
    (3, {"log": [{"what": "shuffle", "actor": -1}]}, r"log\[0\]: unknown event"),
    (3, {"round": 2, "tractor": 0, "log": log_to_json([ROUND_EVENTS[1][0]], EVENT_NAMES)},
     "log: the last round event is round 1"),
    (3, {"tractor": 0, "bids": ["c3", None, None],
         "log": log_to_json([ROUND_EVENTS[1][0]], EVENT_NAMES)},
     "log must end with the face-down commits"),
    (3, {"log": [{"what": "bid_face_down", "actor": 7, "secret": 1, "seen_by": 128}]},
     "breaks a rule of the game"),
]


@pytest.mark.parametrize(("num_players", "scenario", "message"), BAD)
def test_malformed_positions_raise_naming_the_key_and_change_nothing(
    num_players: int, scenario: dict[str, Any], message: str
) -> None:
    game = env(num_players=num_players)
    game.reset(seed=1)
    before = game.game_state.clone()
    generator = game.np_random.bit_generator.state
    with pytest.raises(ScenarioError, match=message):
        game.reset(options={"scenario": scenario})
    assert game.game_state == before
    assert game.np_random.bit_generator.state == generator


def test_every_new_key_has_a_malformed_case() -> None:
    old = {"round", "tractor", "hands", "discards", "deck", "deck_top", "robot_deck"}
    covered = {key for _, scenario, _ in BAD for key in scenario}
    assert set(KEYS) - old <= covered


def test_the_position_schema_holds_the_card_rules_of_each_key() -> None:
    """The row, the piles and the robot's cards name only the cards the rules let lie
    there, and a bid never names a mother hen: the published schema says so, as the
    reader does."""
    config = GAME.make_config(2)
    validator = jsonschema.Draft202012Validator(position_schema(GAME, config))
    fine = position(GAME.new_game(config, np.random.default_rng(0)))
    assert validator.is_valid(fine)
    broken = {"row": ["chicken_3"], "deck": ["chicken_4"], "removed": ["chicken_5"],
              "robot_won": ["chicken_3"], "robot_deck": ["worm_1"], "robot_discard": ["hen"],
              "bids": ["hen", None], "last_bids": [None, None, "hen"]}
    for key, value in broken.items():
        assert not validator.is_valid({**fine, key: value}), key
        with pytest.raises(ScenarioError, match=rf"^{key}\[\d\] is (chicken|worm|hen)"):
            load(config, {**fine, key: value})
