"""``agents.play``: the terminal game driven by scripted input."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest

from agents.evaluate import game_seed, seat_rng
from agents.options import make_env
from agents.outcomes import winners
from agents.play import choose_action, opponent_seats, play
from agents.specs import make_policy
from cardgym.registration import GAMES, find_game, short_name

GAME_NAMES = [short_name(game.env_id) for game in GAMES]
Pick = Callable[[Sequence[int]], int]


@dataclass
class Replay:
    """A game replayed outside ``play`` with the same seeds and random bots."""

    actions: list[int] = field(default_factory=list)
    legal: list[list[int]] = field(default_factory=list)
    views: list[str] = field(default_factory=list)
    full_views: list[str] = field(default_factory=list)
    narrations: list[list[str]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    winners: frozenset[int] = frozenset()
    human_return: float = 0.0


def replay(name: str, n: int, seat: int, seed: int, pick: Pick, bot_spec: str = "random",
           ) -> Replay:
    game = find_game(name)
    env = make_env(game, n)
    env.reset(seed=game_seed(seed, 0))
    rngs = {s: seat_rng(seed, 0, s) for s in range(n) if s != seat}
    bot = make_policy(bot_spec, game, n)
    out = Replay()
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        acting = env.agent_name_mapping[agent]
        if acting == seat:
            out.human_return += reward
        if terminated or truncated:
            env.step(None)
            continue
        if acting != seat:
            env.step(bot.act(observation["observation"], observation["action_mask"],
                             rngs[acting]))
            continue
        legal = env.legal_actions()
        action = pick(legal)
        out.legal.append(legal)
        out.views.append(env.render_text(seat))
        out.full_views.append(env.render_text("full"))
        out.narrations.append(env.narrate(seat, env.since_last_move(seat)))
        out.actions.append(action)
        out.names.append(env.action_name(action))
        env.step(action)
    out.winners = winners(game, env)
    return out


def table(name: str, wanted: int) -> int:
    """``wanted`` seats when the game takes them, else its largest table."""
    counts = find_game(name).player_counts
    return wanted if wanted in counts else max(counts)


def first(legal: Sequence[int]) -> int:
    return legal[0]


def last(legal: Sequence[int]) -> int:
    return legal[-1]


def run(name: str, n: int, seat: int, seed: int, lines: Sequence[str],
        opponents: Sequence[str] = ("random",)) -> tuple[int, str]:
    output = io.StringIO()
    status = play(name, n, seat, opponents, seed=seed, options=None,
                  input_stream=io.StringIO("".join(line + "\n" for line in lines)),
                  output=output)
    return status, output.getvalue()


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_whole_game_answered_with_the_first_legal_index(name: str) -> None:
    n, seat, seed = table(name, 3), 1, 11
    script = replay(name, n, seat, seed, first)
    assert script.actions, "the human seat never had to move"
    status, text = run(name, n, seat, seed, [str(a) for a in script.actions])
    assert status == 0
    assert text.count("Your move (player_1). Legal actions:") == len(script.actions)
    assert "Game over." in text
    expected = ", ".join(f"player_{s}" + (" (you)" if s == seat else "")
                         for s in sorted(script.winners))
    assert f"Winners: {expected}." in text
    verdict = "You win" if seat in script.winners else "You lose"
    assert f"{verdict}; your reward: {script.human_return:+g}." in text
    for action_name in script.names:
        assert f"You play {action_name}." in text


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_whole_game_answered_with_action_names(name: str) -> None:
    n, seat, seed = 2, 0, 3
    script = replay(name, n, seat, seed, last)
    # Names in any case are accepted.
    status, text = run(name, n, seat, seed, [action.upper() for action in script.names])
    assert status == 0 and "Game over." in text
    assert "not legal" not in text and "unknown action" not in text


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_view_tells_what_happened_since_the_last_move(name: str) -> None:
    """Issue 16, finding 4: before each of the human's moves, every event since its
    last move is told as that seat saw it (the game's record, in words), so that a
    human can follow the opponents' plays."""
    n, seat, seed = table(name, 3), 1, 11
    script = replay(name, n, seat, seed, first)
    status, text = run(name, n, seat, seed, [str(a) for a in script.actions])
    assert status == 0
    told = 0
    position = 0
    for lines in script.narrations:
        block = "Since your last move:\n" + "".join(f"  {line}\n" for line in lines)
        if lines:
            found = text.find(block, position)
            assert found >= 0, f"the view does not tell:\n{block}"
            position = found + len(block)
            told += sum(any(f"player_{other}" in line or f"seat {other}" in line
                            for other in range(n) if other != seat) for line in lines)
    assert told, "no opponent's move was ever told: the test cannot fail"


def test_opponents_one_per_seat() -> None:
    script = replay("karel_kakelaar", 3, 2, 5, first)
    status, text = run("karel_kakelaar", 3, 2, 5, [str(a) for a in script.actions],
                       opponents=["random", "random"])
    assert status == 0
    assert "Opponents: player_0 random, player_1 random" in text


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_whole_game_against_heuristic_bots(name: str) -> None:
    n = table(name, 3)
    script = replay(name, n, 0, 2, first, bot_spec="heuristic")
    status, text = run(name, n, 0, 2, [str(a) for a in script.actions], opponents=["heuristic"])
    assert status == 0
    bots = ", ".join(f"player_{s} heuristic" for s in range(1, n))
    assert f"Opponents: {bots}" in text
    expected = ", ".join(f"player_{s}" + (" (you)" if s == 0 else "")
                         for s in sorted(script.winners))
    assert f"Winners: {expected}." in text


# ------------------------------------------------------------------ what you see


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_view_is_exactly_the_seats_own_render(name: str) -> None:
    n, seat, seed = table(name, 3), 0, 8
    script = replay(name, n, seat, seed, first)
    _, text = run(name, n, seat, seed, [str(a) for a in script.actions])
    position = 0
    for view, full, legal in zip(script.views, script.full_views, script.legal, strict=True):
        block = f"\n{view}\nYour move (player_0). Legal actions:\n"
        found = text.find(block, position)
        assert found >= 0, view
        position = found + len(block)
        assert view != full
        # The listed choices follow the view, one "index: name" line each.
        env = make_env(find_game(name), n)
        listed = text[position:].splitlines()[:len(legal)]
        assert [line.split("  (")[0].strip() for line in listed] == [
            f"{a}: {env.action_name(a)}" for a in legal]
    assert "full view" not in text


def test_other_hands_stay_hidden_in_power_hungry_pets() -> None:
    n, seat, seed = 2, 0, 1
    script = replay("power_hungry_pets", n, seat, seed, first)
    _, text = run("power_hungry_pets", n, seat, seed, [str(a) for a in script.actions])
    first_view = script.views[0]
    other_line = next(line for line in first_view.splitlines() if line.startswith("player_1"))
    assert "hand [?]" in other_line or "hand [?, ?]" in other_line
    full_line = next(line for line in script.full_views[0].splitlines()
                     if line.startswith("player_1"))
    assert full_line not in text  # the opponent's actual hand is never printed


# ------------------------------------------------------------------ bad input


def test_invalid_answers_get_the_legal_choices_and_play_goes_on() -> None:
    name, n, seat, seed = "exploding_kittens", 2, 0, 4
    script = replay(name, n, seat, seed, first)
    env = make_env(find_game(name), n)
    legal = script.legal[0]
    illegal = next(a for a in range(len(env.action_table)) if a not in legal)
    illegal_name = env.action_name(illegal)
    bad = ["99999", "frobnicate", illegal_name, str(illegal), "", "help"]
    status, text = run(name, n, seat, seed, bad + [str(a) for a in script.actions])
    assert status == 0 and "Game over." in text
    choices = "legal: " + ", ".join(f"{a} ({env.action_name(a)})" for a in legal)
    assert f"no action has number 99999; {choices}" in text
    assert f"unknown action 'frobnicate'; {choices}" in text
    assert f"{illegal_name} is not legal now; {choices}" in text
    assert f"action {illegal} ({illegal_name}) is not legal now; {choices}" in text
    assert f"type an action index or name; {choices}" in text
    assert text.count(f"You play {script.names[0]}.") >= 1


def test_quit_and_end_of_input_stop_the_game() -> None:
    status, text = run("karel_kakelaar", 2, 0, 0, ["quit"])
    assert status == 1
    assert "You quit: the game stops here, unfinished." in text
    assert "Game over." not in text
    status, text = run("karel_kakelaar", 2, 0, 0, [])
    assert status == 1
    assert "End of input: the game stops here, unfinished." in text


@pytest.mark.parametrize(
    ("seat", "opponents", "message"),
    [
        (3, ["random"], "seat 3 is out of range; seats are 0..2"),
        (-1, ["random"], "seat -1 is out of range"),
        (0, ["random"] * 3, "give 1 opponent (for every other seat) or 2"),
    ],
)
def test_bad_seats_and_opponent_counts(seat: int, opponents: list[str], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        opponent_seats(3, seat, opponents)
    assert message in str(caught.value)


def test_opponent_seats_skip_the_human() -> None:
    assert opponent_seats(4, 1, ["a"]) == {0: "a", 2: "a", 3: "a"}
    assert opponent_seats(4, 1, ["a", "b", "c"]) == {0: "a", 2: "b", 3: "c"}


def test_choose_action_by_number_name_and_unique_prefix() -> None:
    env = make_env(find_game("karel_kakelaar"), 3)
    env.reset(seed=0)
    legal = env.legal_actions()
    assert choose_action(env, str(legal[0]), legal) == (legal[0], "")
    name = env.action_name(legal[1])
    assert choose_action(env, f"  {name.upper()} ", legal) == (legal[1], "")
    action, problem = choose_action(env, "bid:", legal)
    assert action is None and "fits several legal actions" in problem
    unique = env.action_name(legal[-1])
    prefix = next(unique[:k] for k in range(1, len(unique) + 1)
                  if sum(env.action_name(a).startswith(unique[:k]) for a in legal) == 1)
    assert choose_action(env, prefix, legal) == (legal[-1], "")
