"""Bad input to the games themselves is a clear error that changes nothing, and the
game packages follow the conventions of the AEC base class (issue 17, the part inside
phpets_env, ek_env and kakelaar_env)."""

from __future__ import annotations

import importlib
import inspect
import pydoc
import re
import warnings
from typing import Any

import numpy as np
import pytest

from cardgym.errors import OptionError, ScenarioError
from cardgym.registration import GAMES, Game
from cardgym_cli import main
from ek_env.encoding.encoding import layout
from ek_env.engine.cards import DEFUSE, KITTEN, MAX_DECK, MAX_DECK_STREAKING, composition
from ek_env.env import raw_env as ek_env
from kakelaar_env import parallel_env
from kakelaar_env.encoding.encoding import OBSERVATION_SPEC as KAKELAAR_SPEC
from kakelaar_env.engine.cards import CHICKEN_TYPES, MAX_COPIES, MAX_SCORE, TYPE_NAMES, parse_card
from kakelaar_env.env import raw_env as kakelaar_env
from phpets_env.env import raw_env as phpets_env

IDS = [game.env_id for game in GAMES]
CHICKENS = [TYPE_NAMES[card] for card in CHICKEN_TYPES]
ALL_EIGHTS = (0, 0, 0, 0, 0, 0, 0, 36)
EXTREME_WORM_COUNTS = [ALL_EIGHTS, (36, 0, 0, 0, 0, 0, 0, 0)]


def observations_in_space(env: Any) -> None:
    for agent in env.possible_agents:
        space = env.observation_space(agent)["observation"]
        observation = env.observe(agent)["observation"]
        outside = np.flatnonzero((observation < space.low) | (observation > space.high))
        assert not outside.size, (agent, outside, observation[outside])


def play_out_checking_spaces(env: Any, rng: np.random.Generator) -> None:
    """Random legal play to the end, every agent's observation checked at every step."""
    for _agent in env.agent_iter():
        observations_in_space(env)
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def unchanged(env: Any) -> tuple[Any, ...]:
    return (env.game_state, list(env.agents), env.np_random.bit_generator.state)


# ------------------------------------- 1. Exploding Kittens: the draw pile


def ek_deck(num_players: int, size: int, streaking: bool, defuses_held: int) -> list[int]:
    """A legal draw pile of ``size`` cards, the kittens on top, when the hands hold
    ``defuses_held`` Defuses and nothing else."""
    counts = list(composition(num_players, streaking))
    counts[KITTEN] = 0
    counts[DEFUSE] -= defuses_held
    kittens = num_players if streaking else num_players - 1
    deck = [KITTEN] * kittens + [card for card, count in enumerate(counts) for _ in range(count)]
    assert len(deck) >= size
    return deck[:size]


def ek_hands(num_players: int, streaking: bool) -> list[list[str]]:
    """One Defuse each; with the expansion only seat 0's, so that the deck can hold
    all the other cards."""
    if streaking:
        return [["defuse"]] + [[] for _ in range(num_players - 1)]
    return [["defuse"] for _ in range(num_players)]


EK_SETUPS = [(n, False) for n in range(6, 10)] + [(9, True)]


@pytest.mark.parametrize(("num_players", "streaking"), EK_SETUPS)
def test_ek_scenario_deck_longer_than_the_layout_is_refused_and_changes_nothing(
    num_players: int, streaking: bool
) -> None:
    env = ek_env(num_players=num_players, expansions=("streaking",) if streaking else ())
    limit = MAX_DECK_STREAKING if streaking else MAX_DECK
    assert layout(env.config).max_deck == limit
    env.reset(seed=1)
    before = unchanged(env)
    # With the expansion: every card of the game in the deck (127), no hand holding any.
    hands = [[] for _ in range(num_players)] if streaking else ek_hands(num_players, False)
    deck = ek_deck(num_players, limit + 1, streaking, 0 if streaking else num_players)
    assert len(deck) == limit + 1
    with pytest.raises(ScenarioError, match=rf"'deck' holds {limit + 1} cards; the draw pile "
                                            rf"holds at most {limit}"):
        env.reset(seed=2, options={"scenario": {"hands": hands, "deck": deck}})
    assert unchanged(env) == before


@pytest.mark.parametrize(("num_players", "streaking"), EK_SETUPS)
def test_ek_the_longest_scenario_deck_stays_inside_the_layout(num_players: int,
                                                              streaking: bool) -> None:
    """A full-size pile: every observation in its space, and the defused kitten's
    put-back positions are exactly the insert actions (none spills into take:*)."""
    env = ek_env(num_players=num_players, expansions=("streaking",) if streaking else ())
    limit = layout(env.config).max_deck
    hands = ek_hands(num_players, streaking)
    deck = ek_deck(num_players, limit, streaking, sum(map(len, hands)))
    env.reset(seed=0, options={"scenario": {"hands": hands, "deck": deck, "first_player": 0}})
    observations_in_space(env)
    env.step(env.action_index("draw"))  # the kitten on top: defused, put back next
    names = [env.action_name(action) for action in env.legal_actions()]
    assert names == [f"insert:depth={depth}" for depth in range(limit)]
    observations_in_space(env)
    env.step(env.action_index(f"insert:depth={limit - 1}"))
    assert len(env.game_state.deck) == limit - 1 + 1 and env.game_state.deck[0] == KITTEN
    observations_in_space(env)


@pytest.mark.parametrize("num_players", range(2, 10))
@pytest.mark.parametrize("streaking", [False, True])
def test_ek_every_dealt_draw_pile_fits_the_layout(num_players: int, streaking: bool) -> None:
    for hand_size in (7, 4):
        for rule in ("seed", "2024"):
            env = ek_env(num_players=num_players, hand_size=hand_size, deck_defuses=rule,
                         expansions=("streaking",) if streaking else ())
            env.reset(seed=0)
            assert len(env.game_state.deck) <= layout(env.config).max_deck
            observations_in_space(env)


# ------------------------------- 2. Karel Kakelaar: the observation bounds


@pytest.mark.parametrize(("worm_counts", "scenario", "words"), [
    (ALL_EIGHTS, {"round": 9, "hands": [["w8"] * 33, []]},
     f"could come to hold 34 worm_8 .* at most {MAX_COPIES} of a kind"),
    (ALL_EIGHTS, {"round": 8, "hands": [["w8"] * 8, []]},
     "could come to hold 10 worm_8"),
    ((5, 5, 5, 5, 4, 4, 4, 4), {"round": 9, "hands": [CHICKENS + ["w1"] * 5 + ["w2"] * 5, []]},
     "could come to hold 15 cards in hand .* a hand holds at most 14"),
    ((0, 0, 0, 0, 0, 0, 18, 18), {"round": 9, "hands": [["w8"] * 8 + ["w7"], []]},
     f"could come to hold worms worth 79 .* scores go up to {MAX_SCORE}"),
])
def test_kakelaar_scenario_past_the_observation_bounds_is_refused_and_changes_nothing(
    worm_counts: tuple[int, ...], scenario: dict[str, Any], words: str
) -> None:
    env = kakelaar_env(num_players=2, worm_counts=worm_counts)
    env.reset(seed=1)
    before = unchanged(env)
    with pytest.raises(ScenarioError, match=words):
        env.reset(seed=2, options={"scenario": scenario})
    assert unchanged(env) == before


@pytest.mark.parametrize("worm_counts", EXTREME_WORM_COUNTS)
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_kakelaar_extreme_worm_counts_keep_every_observation_in_its_space(
    worm_counts: tuple[int, ...], num_players: int
) -> None:
    env = kakelaar_env(num_players=num_players, worm_counts=worm_counts)
    rng = np.random.default_rng(num_players)
    for seed in range(3):
        env.reset(seed=seed)
        play_out_checking_spaces(env, rng)


def test_kakelaar_a_scenario_at_the_bounds_is_accepted_and_reaches_them() -> None:
    env = kakelaar_env(num_players=2, worm_counts=ALL_EIGHTS)
    # The last row all worm 8s, which seat 0 (bidding high) takes: the highest score.
    env.reset(seed=0, options={"scenario": {"round": 9, "tractor": 2, "circle": [0, 1, 2],
                                            "hands": [CHICKENS + ["w8"] * 8, CHICKENS],
                                            "row": ["w8", "w8", "w8"]}})
    observations_in_space(env)
    while env.agents:
        if env.terminations[env.agent_selection]:
            env.step(None)
            continue
        legal = env.legal_actions()
        env.step(legal[-1] if env.agent_selection == "player_0" else legal[0])  # seat 0 bids high
        observations_in_space(env)
    fields = KAKELAAR_SPEC.unpack(env.observe("player_0")["observation"])
    assert fields["my_hand"][parse_card("w8")] == MAX_COPIES
    assert fields["scores"][0] == MAX_SCORE


def test_kakelaar_accepted_random_scenarios_keep_every_observation_in_its_space() -> None:
    """Random hands and discard piles, hens included: whatever the scenario check lets
    through stays inside the declared space in random play."""
    rng = np.random.default_rng(11)
    accepted = 0
    for trial in range(150):
        num_players = int(rng.integers(2, 6))
        worm_counts = [ALL_EIGHTS, (36, 0, 0, 0, 0, 0, 0, 0), (5, 5, 5, 5, 4, 4, 4, 4)][trial % 3]
        pool = [card for card in range(8) for _ in range(worm_counts[card])] + [13] * 9
        pool = [int(card) for card in rng.permutation(pool)]
        hands, discards = [], []
        for _ in range(num_players):
            owned = [int(c) for c in CHICKEN_TYPES if rng.random() < 0.8]
            owned += [pool.pop() for _ in range(int(rng.integers(0, 10)))]
            split = int(rng.integers(0, len(owned) + 1))
            hands.append([TYPE_NAMES[card] for card in owned[:split]])
            discards.append([TYPE_NAMES[card] for card in owned[split:] if card != 13])
        env = kakelaar_env(num_players=num_players, worm_counts=worm_counts)
        try:
            env.reset(seed=trial, options={"scenario": {
                "round": int(rng.integers(1, 10)), "hands": hands, "discards": discards}})
        except ScenarioError:
            continue
        accepted += 1
        play_out_checking_spaces(env, rng)
    assert accepted >= 30


# ------------------------------------------------- card readers' messages


def _deep_list(depth: int) -> Any:
    value: Any = "worm_1"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(("name", "key"), [
    ("power_hungry_pets", "deck"), ("power_hungry_pets", "face_up"),
    ("karel_kakelaar", "row"), ("karel_kakelaar", "deck"), ("karel_kakelaar", "removed"),
])
@pytest.mark.parametrize("card", [_deep_list(50_000), "x" * 1_000_000, ["c"] * 1_000_000],
                         ids=["nested 50000 deep", "a million letters", "a million items"])
def test_a_card_reader_names_a_bad_card_in_a_short_message(name: str, key: str,
                                                           card: Any) -> None:
    # Straight to the game's reader, past the env's depth check: the reader's own
    # message shows the card cut short, never its whole repr.
    bound = next(game for game in GAMES if game.name == name).bind(2, {})
    with pytest.raises(ScenarioError) as refused:
        bound.new_game(np.random.default_rng(0), {key: [card]})
    message = str(refused.value)
    assert message.startswith(f"{key}[0]: unknown card "), message
    assert len(message) < 400 and "\n" not in message, message


# ------------------------------------------- 3. Karel Kakelaar's parallel env


BAD_SCENARIO = {"round": 9, "hands": [["w8"] * 33, []]}


@pytest.mark.parametrize("seed", [None, 5])
def test_parallel_reset_with_a_bad_scenario_changes_nothing_generator_included(
    seed: int | None
) -> None:
    game = parallel_env(num_players=2, worm_counts=ALL_EIGHTS)
    observations, _ = game.reset(seed=1)
    game.step({agent: int(np.flatnonzero(obs["action_mask"])[0])
               for agent, obs in observations.items()})
    state, agents = game.game_state, list(game.agents)
    generator = game._np_random.bit_generator.state
    with pytest.raises(ScenarioError, match="could come to hold 34 worm_8"):
        game.reset(seed=seed, options={"scenario": BAD_SCENARIO})
    assert game.game_state is state and game.agents == agents
    assert game._np_random.bit_generator.state == generator


def test_parallel_reset_with_a_scenario_nested_50000_deep_is_refused_and_changes_nothing(
) -> None:
    game = parallel_env(num_players=2)
    game.reset(seed=1)
    state, agents, rng = game.game_state, list(game.agents), game._np_random
    assert rng is not None
    generator = rng.bit_generator.state
    deep: Any = 0
    for _ in range(50_000):
        deep = [deep]
    with pytest.raises(ScenarioError, match=r"^the scenario's 'row' is nested too deeply: a "
                       r"scenario holds at most 32 levels"):
        game.reset(seed=2, options={"scenario": {"row": deep}})
    assert game.game_state is state and game.agents == agents
    assert game._np_random is rng and rng.bit_generator.state == generator


@pytest.mark.parametrize("options", [["scenario"], "scenario", 3])
def test_parallel_reset_options_that_are_not_a_dict_are_refused(options: Any) -> None:
    game = parallel_env(num_players=3)
    game.reset(seed=0)
    state = game.game_state
    with pytest.raises(OptionError, match=r"takes a dict or None.*'scenario'"):
        game.reset(seed=1, options=options)
    assert game.game_state is state


def test_parallel_unknown_reset_option_warns_in_one_line_like_the_aec_env() -> None:
    game = parallel_env(num_players=3)
    with pytest.warns(UserWarning) as caught:
        game.reset(seed=0, options={"colour": "red"})
    (warning,) = caught
    message = str(warning.message)
    assert "\n" not in message and "'colour'" in message and "karel_kakelaar_v2" in message
    assert "cardgym docs karel_kakelaar" in message
    assert warning.filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game.reset(seed=0, options={"options": 1})  # PettingZoo's parallel_api_test probe


@pytest.mark.parametrize("illegal_action", ["raise", "lose"])
def test_parallel_human_mode_renders_by_itself_in_reset_and_every_step(
    illegal_action: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game = parallel_env(num_players=3, render_mode="human", render_seat=1,
                        illegal_action=illegal_action)
    shown = parallel_env(num_players=3, render_mode="ansi", render_seat=1)

    def expected() -> str:
        shown.game_state, shown._step_start = game.game_state, game._step_start
        return (shown.render() or "") + "\n\n"

    observations, _ = game.reset(seed=4)
    assert capsys.readouterr().out == expected()
    rng = np.random.default_rng(0)
    steps = 0
    while game.agents:
        if illegal_action == "lose" and steps == 3:
            actions = {agent: 0 for agent in game.agents}  # bid worm_1: nobody holds one
        else:
            actions = {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                       for agent, obs in observations.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            observations = game.step(actions)[0]
        steps += 1
        assert capsys.readouterr().out == expected()  # the finishing step too
    assert steps > 3 if illegal_action == "raise" else steps == 4


def test_parallel_default_render_shows_one_seats_view_like_the_aec_env() -> None:
    scenario = {"scenario": {"tractor": 1}}
    game = parallel_env(num_players=2, render_mode="ansi")
    game.reset(seed=0, options=scenario)
    aec = kakelaar_env(num_players=2, render_mode="ansi")
    aec.reset(seed=0, options=scenario)
    text = game.render() or ""
    assert text.splitlines()[0].endswith("seen by player_1")
    assert text.split("\nIn the last step:")[0] == (aec.render() or "").split("\nSince")[0]
    for secret in ("draw pile (top first)", "removed unseen", "robot deck (top first)"):
        assert secret not in text
    full = parallel_env(num_players=2, render_mode="ansi", render_seat="full")
    full.reset(seed=0, options=scenario)
    assert "removed unseen" in (full.render() or "")


# ------------------------------------------ 4. integer options are integers


FLOAT_OPTIONS = [
    (ek_env, {"num_players": 3.0}, "num_players=3.0"),
    (ek_env, {"hand_size": 7.0}, "hand_size=7.0 is not an integer; allowed: 7, 4"),
    (ek_env, {"hand_size": 4.0}, "hand_size=4.0 is not an integer"),
    (phpets_env, {"num_players": 2.0}, "num_players=2.0"),
    (kakelaar_env, {"num_players": 2.0}, "num_players=2.0"),
    (kakelaar_env, {"worm_counts": (5.0, 5, 5, 5, 4, 4, 4, 4)}, "holds 5.0, not an integer"),
    (parallel_env, {"num_players": 2.0}, "num_players=2.0"),
]


@pytest.mark.parametrize(("factory", "options", "words"), FLOAT_OPTIONS)
def test_a_float_for_an_integer_option_is_refused(factory: Any, options: dict[str, Any],
                                                  words: str) -> None:
    with pytest.raises(OptionError, match=re.escape(words)):
        factory(**options)


@pytest.mark.parametrize(("factory", "options", "read"), [
    (ek_env, {"num_players": np.int64(3), "hand_size": np.int32(4)},
     lambda env: (env.config.num_players, env.config.hand_size)),
    (phpets_env, {"num_players": np.int64(3)}, lambda env: (env.config.num_players,)),
    (kakelaar_env, {"num_players": np.int64(3), "worm_counts": np.array([5] * 4 + [4] * 4)},
     lambda env: (env.config.num_players, *env.config.worm_counts)),
    (parallel_env, {"num_players": np.int64(3)},
     lambda env: (env.config.num_players, env.num_players)),
])
def test_numpy_integers_stay_welcome_and_become_ints(factory: Any, options: dict[str, Any],
                                                     read: Any) -> None:
    env = factory(**options)
    values = read(env)
    assert all(type(value) is int for value in values), values
    env.reset(seed=0)
    assert len(env.agents) == 3


def test_the_command_line_refuses_a_float_hand_size_with_status_2(
    capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["eval", "exploding_kittens", "--agents", "random", "random", "--games", "1",
                   "--no-progress", "--option", "hand_size=7.0"])
    captured = capsys.readouterr()
    assert status == 2
    assert "hand_size=7.0 is not an integer; allowed: 7, 4" in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


# ----------------------------------------- 5. and 6. the documentation page


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_help_on_the_packages_env_shows_the_documentation_page(game: Game) -> None:
    module = importlib.import_module(game.entry_point.partition(":")[0])
    package = importlib.import_module(game.module)
    page = pydoc.render_doc(package.env, renderer=pydoc.plaintext)
    first_line = inspect.cleandoc(module.__doc__).splitlines()[0]
    assert first_line in page and f"`{game.env_id}`" in page
    assert "<!-- action-table -->" in page and "<!-- observation-table -->" in page
    assert package.env.__doc__.startswith(module.__doc__)
    assert "``env(**kwargs)``: " in package.env.__doc__  # the function's own note follows


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_render_mode_row_says_human_mode_prints_in_reset_and_step(game: Game) -> None:
    module = importlib.import_module(game.entry_point.partition(":")[0])
    (row,) = [line for line in module.__doc__.splitlines() if line.startswith("| `render_mode`")]
    assert '`"human"`: `reset()` and `step()` print it by themselves' in row
    assert "`render()` returns the table as text, or prints it" not in row
