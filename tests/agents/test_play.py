"""``agents.play``: the terminal game driven by scripted input."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from agents.evaluate import game_seed, seat_rng
from agents.options import make_env
from agents.outcomes import winners
from agents.play import choose_action, legal_lines, move_labels, opponent_seats, play
from agents.specs import make_policy
from cardgym.registration import GAMES, find_game, short_name

GAME_NAMES = [short_name(game.env_id) for game in GAMES]
Pick = Callable[[Sequence[int]], int]


@dataclass
class Turn:
    """One decision of the human seat, as ``play`` should show it."""

    legal: list[int]
    action: int
    auto: bool  # a single legal move, played without asking
    board: str  # the table as the seat sees it, before the move
    full_board: str  # the table with every card shown
    before: list[str]  # what happened since the seat last read the record
    after: list[str]  # what the move did, as the seat saw it
    labels: dict[int, str]


@dataclass
class Replay:
    """A game replayed outside ``play`` with the same seeds and random bots: the oracle
    of what ``play`` prints and of the answers it reads."""

    turns: list[Turn] = field(default_factory=list)
    end: list[str] = field(default_factory=list)  # told after the last decision
    record: list[str] = field(default_factory=list)  # the whole game as the seat saw it
    winners: frozenset[int] = frozenset()
    human_return: float = 0.0

    @property
    def actions(self) -> list[int]:
        """The answers a person types: the decisions ``play`` asks for."""
        return [turn.action for turn in self.turns if not turn.auto]

    @property
    def asked(self) -> list[Turn]:
        return [turn for turn in self.turns if not turn.auto]


def replay(name: str, n: int, seat: int, seed: int, pick: Pick, bot_spec: str = "random",
           ask_always: bool = False, options: Mapping[str, Any] | None = None,
           scenario: Mapping[str, Any] | None = None) -> Replay:
    game = find_game(name)
    env = make_env(game, n, options)
    env.reset(seed=game_seed(seed, 0),
              options=None if scenario is None else {"scenario": dict(scenario)})
    rngs = {s: seat_rng(seed, 0, s) for s in range(n) if s != seat}
    bot = make_policy(bot_spec, game, n, options)
    out = Replay()
    shown = env.since_last_move(seat)
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
        turn = Turn(legal=legal, action=action, auto=len(legal) == 1 and not ask_always,
                    board=env.game.render(env.game_state, seat),
                    full_board=env.game.render(env.game_state, None),
                    before=env.narrate(seat, shown), after=[],
                    labels=move_labels(env, legal))
        start = env.event_count
        env.step(action)
        turn.after = env.narrate(seat, start)
        shown = env.event_count
        out.turns.append(turn)
    out.end = env.narrate(seat, shown)
    out.record = env.narrate(seat, env.since_last_move(seat) if scenario else 0)
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
        opponents: Sequence[str] = ("random",), **kwargs: Any) -> tuple[int, str]:
    output = io.StringIO()
    status = play(name, n, seat, opponents, seed=seed,
                  input_stream=io.StringIO("".join(line + "\n" for line in lines)),
                  output=output, **kwargs)
    return status, output.getvalue()


def block(heading: str | None, lines: Sequence[str]) -> str:
    """Narration lines as ``play`` prints them."""
    if not lines:
        return ""
    return (f"{heading}\n" if heading else "") + "".join(f"  {line}\n" for line in lines)


def find_in_order(text: str, pieces: Sequence[str]) -> None:
    """Each piece occurs in ``text``, in this order."""
    position = 0
    for piece in pieces:
        found = text.find(piece, position)
        assert found >= 0, f"not found after position {position}:\n{piece}"
        position = found + len(piece)


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_whole_game_answered_with_the_first_legal_index(name: str) -> None:
    n, seat, seed = table(name, 3), 1, 11
    script = replay(name, n, seat, seed, first)
    assert script.actions, "the human seat never had to move"
    status, text = run(name, n, seat, seed, [str(a) for a in script.actions])
    assert status == 0
    assert text.count("Your move (player_1). Legal actions:") == len(script.asked)
    assert text.count("; played for you.") == len(script.turns) - len(script.asked)
    assert "Game over." in text
    expected = ", ".join(f"player_{s}" + (" (you)" if s == seat else "")
                         for s in sorted(script.winners))
    assert f"Winners: {expected}." in text
    verdict = "You win" if seat in script.winners else "You lose"
    assert f"{verdict}; your reward: {script.human_return:+g}." in text


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_whole_game_answered_with_action_names(name: str) -> None:
    n, seat, seed = 2, 0, 3
    script = replay(name, n, seat, seed, last)
    env = make_env(find_game(name), n)
    # Names in any case are accepted.
    status, text = run(name, n, seat, seed,
                       [env.action_name(action).upper() for action in script.actions])
    assert status == 0 and "Game over." in text
    assert "not legal" not in text and "unknown action" not in text


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_event_is_told_once_in_order(name: str) -> None:
    """Issue 16, finding 4, and what your own move did: before each prompt the view
    tells what happened since you last read the record; right after each of your
    moves, what that move did as you saw it (the card you drew, the card shown to
    you); a move played for you is told the same way; at the end, the rest. Every
    event of the game is told exactly once, in the order it happened."""
    n, seat, seed = table(name, 3), 1, 11
    script = replay(name, n, seat, seed, first)
    status, text = run(name, n, seat, seed, [str(a) for a in script.actions])
    assert status == 0
    pieces = []
    moved = False
    for turn in script.turns:
        heading = "Since your last move:" if moved else "So far:"
        if turn.auto:
            pieces.append(block(heading, turn.before)
                          + f"Only one move: {turn.labels[turn.action]}; played for you.\n"
                          + block(None, turn.after))
        else:
            pieces.append(f"\n{turn.board}\n" + block(heading, turn.before)
                          + "Your move (player_1). Legal actions:\n")
            pieces.append(f"You chose: {turn.labels[turn.action]}.\n" + block(None, turn.after))
        moved = True
    pieces.append("Game over.\n")
    pieces.append(block("Since your last move:", script.end) + "Winners: ")
    find_in_order(text, pieces)
    told = sum(len(turn.before) + len(turn.after) for turn in script.turns) + len(script.end)
    env = make_env(find_game(name), n)
    env.reset(seed=game_seed(seed, 0))
    # ... and nothing else: the lines told are exactly the events of the game.
    assert told == len(script.record)
    assert any(turn.after for turn in script.turns), "no move ever did anything visible"


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
    for turn in script.asked:
        found = text.find(f"\n{turn.board}\n", position)
        assert found >= 0, turn.board
        position = found + len(turn.board) + 2
        assert turn.board != turn.full_board
        # The listed choices follow the view: one "index: label" line each.
        listing = text.index("Legal actions:\n", position) + len("Legal actions:\n")
        listed = text[listing:].splitlines()[:len(turn.legal)]
        width = len(str(max(turn.legal)))
        assert listed == [f"  {a:>{width}}: {turn.labels[a]}" for a in turn.legal]
    assert "full view" not in text


def test_other_hands_stay_hidden_in_power_hungry_pets() -> None:
    n, seat, seed = 2, 0, 1
    script = replay("power_hungry_pets", n, seat, seed, first)
    _, text = run("power_hungry_pets", n, seat, seed, [str(a) for a in script.actions])
    first_view = script.asked[0].board
    other_line = next(line for line in first_view.splitlines() if line.startswith("player_1"))
    assert "hand [?]" in other_line or "hand [?, ?]" in other_line
    full_line = next(line for line in script.asked[0].full_board.splitlines()
                     if line.startswith("player_1"))
    assert full_line not in text  # the opponent's actual hand is never printed


# ------------------------------------------------------------ what your move did

#: Round 1 of a two-player match: you (seat 0) start with Snake Sorcerer and draw
#: Battle Bunny; seat 1 holds Crystal Bowl; King Cat is next on the pile.
SNAKE_START = {"hands": ["snake_sorcerer", "crystal_bowl"],
               "deck_top": ["battle_bunny", "king_cat", "hermit_swap"], "first_player": 0}


def test_your_snake_sorcerer_shows_you_the_card_it_revealed() -> None:
    status, text = run("power_hungry_pets", 2, 0, 4, ["play:snake_sorcerer:+1", "quit"],
                       scenario=SNAKE_START)
    assert status == 1
    find_in_order(text, [
        "So far:\n  a new round begins; you start\n  you drew a card: Battle Bunny (3)\n",
        "Your move (player_0). Legal actions:\n",
        "You chose: play Snake Sorcerer at player_1.\n"
        "  you played Snake Sorcerer (5) at player_1, who showed Crystal Bowl (1)\n"
        "  player_1 drew a card\n",
    ])
    # Told once: the next view does not start over with your own move.
    assert text.count("who showed Crystal Bowl (1)") == 1


def test_your_snake_sorcerer_at_yourself_shows_your_new_card() -> None:
    status, text = run("power_hungry_pets", 2, 0, 4, ["play:snake_sorcerer:+0", "quit"],
                       scenario=SNAKE_START)
    assert status == 1
    assert ("You chose: play Snake Sorcerer at yourself.\n"
            "  you played Snake Sorcerer (5) at yourself and showed Battle Bunny (3)\n"
            "  you drew a card: King Cat (10)\n") in text


#: Two players; you (seat 0) hold Skip and Taco Cat and draw next.
DRAW_FIRST = {"hands": [["skip", "taco_cat"], ["defuse", "nope"]], "turn_holder": 0}


def test_the_card_you_draw_is_named() -> None:
    scenario = {**DRAW_FIRST, "deck": ["attack", "exploding_kitten", "beard_cat"]}
    status, text = run("exploding_kittens", 2, 0, 0, ["draw", "quit"], scenario=scenario)
    assert status == 1
    assert re.search(r"You chose: [^\n]*\.\n  you drew attack\n", text), text


def test_when_your_draw_ends_the_game_you_read_why() -> None:
    scenario = {**DRAW_FIRST, "deck": ["exploding_kitten", "attack", "beard_cat"]}
    status, text = run("exploding_kittens", 2, 0, 0, ["draw"], scenario=scenario)
    assert status == 0
    find_in_order(text, ["You chose: ", "\n  you drew exploding_kitten\n"
                         "  you exploded and are out\n", "Game over.\n", "You lose;"])


def test_out_of_a_game_that_goes_on_you_read_why_at_once() -> None:
    scenario = {"hands": [["skip", "taco_cat"], ["defuse"], ["defuse"]],
                "deck": ["exploding_kitten", "attack", "exploding_kitten", "beard_cat"],
                "turn_holder": 0}
    status, text = run("exploding_kittens", 3, 0, 0, ["draw"], scenario=scenario)
    assert status == 0
    find_in_order(text, ["  you drew exploding_kitten\n  you exploded and are out\n",
                         "You are out of the game; the others play on to its end.\n",
                         "Game over.\n"])


# ------------------------------------------------------------ a single legal move

#: Two players; seat 1 has played Attack and you (seat 0), with no Nope, are asked
#: whether to Nope it: passing is your only move.
NOPE_WINDOW = {"hands": [["skip", "taco_cat"], ["defuse", "nope"]],
               "deck": ["beard_cat", "exploding_kitten", "cattermelon"],
               "discard": ["attack"], "turn_holder": 1, "phase": "nope_window", "to_act": 0,
               "pending": {"kind": "single", "card": "attack", "target": None, "named": None,
                           "five": [], "nopes": 0, "window_last": 1}}


def _only_move_label() -> tuple[int, str]:
    env = make_env(find_game("exploding_kittens"), 2)
    env.reset(seed=0, options={"scenario": NOPE_WINDOW})
    legal = env.legal_actions()
    assert len(legal) == 1, "the scenario must leave a single legal move"
    return legal[0], move_labels(env, legal)[legal[0]]


def test_a_single_legal_move_is_played_for_you() -> None:
    action, label = _only_move_label()
    status, text = run("exploding_kittens", 2, 0, 0, ["quit"], scenario=NOPE_WINDOW)
    assert status == 1
    # No prompt for the Nope window: one line, then your (attacked) turn is asked.
    find_in_order(text, [f"Only one move: {label}; played for you.\n",
                         "Since your last move:\n  player_1's attack goes ahead\n"
                         "Your move (player_0). Legal actions:\n"])
    assert text.count("Your move (player_0)") == 1


def test_ask_always_asks_even_for_a_single_legal_move() -> None:
    action, label = _only_move_label()
    status, text = run("exploding_kittens", 2, 0, 0, [str(action), "quit"],
                       scenario=NOPE_WINDOW, ask_always=True)
    assert status == 1
    assert "played for you" not in text
    find_in_order(text, [f"Your move (player_0). Legal actions:\n  {action}: {label}\n> ",
                         f"You chose: {label}.\n",
                         "Since your last move:\n  player_1's attack goes ahead\n"
                         "Your move (player_0). Legal actions:\n"])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_ask_always_asks_every_decision(name: str) -> None:
    n, seat, seed = table(name, 3), 1, 11
    script = replay(name, n, seat, seed, first, ask_always=True)
    status, text = run(name, n, seat, seed, [str(a) for a in script.actions], ask_always=True)
    assert status == 0
    assert text.count("Your move (player_1). Legal actions:") == len(script.turns)
    assert "played for you" not in text


def test_most_exploding_kittens_prompts_answer_themselves() -> None:
    """The case that asked for it: in a game of Exploding Kittens most of a seat's
    decisions are Nope windows with no Nope in hand."""
    script = replay("exploding_kittens", 4, 0, 3, first)
    auto = [turn for turn in script.turns if turn.auto]
    assert len(auto) > len(script.asked) > 0
    _, text = run("exploding_kittens", 4, 0, 3, [str(a) for a in script.actions])
    assert text.count("; played for you.") == len(auto)


# ------------------------------------------------------------------ labels


def test_labels_are_printed_once_in_words() -> None:
    """Power Hungry Pets has the table view's labels: each legal move is listed once,
    as its label, and its action name is not repeated beside it; ``help`` adds the
    names."""
    status, text = run("power_hungry_pets", 2, 0, 4, ["help", "quit"], scenario=SNAKE_START)
    assert status == 1
    env = make_env(find_game("power_hungry_pets"), 2)
    env.reset(seed=game_seed(4, 0), options={"scenario": SNAKE_START})
    legal = env.legal_actions()
    moves = env.table_view(0)["legal_moves"]
    labels = {move["action"]: move["label"] for move in moves}
    assert "play Snake Sorcerer at player_1" in labels.values()
    listing = "".join(f"  {a}: {labels[a]}\n" for a in legal)
    assert f"Legal actions:\n{listing}> " in text
    for action in legal:
        assert f"{action}: {env.action_name(action)}" not in text
        assert f"  {action}: {labels[action]}  [{env.action_name(action)}]\n" in text  # help


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_lists_each_move_once_in_words(name: str) -> None:
    """Issue 35: ``cardgym play`` listed a move as ``66: play:grave_digger (play
    grave_digger)``. In every game each legal move now has one line, ``index: label``,
    the label in words and said once; the action's table name (``play:grave_digger``,
    ``bid:worm_3``) shows only when asked (``help``)."""
    seed = 3
    script = replay(name, 2, 0, seed, first, ask_always=True)
    turn = script.turns[0]
    status, text = run(name, 2, 0, seed, ["quit"], ask_always=True)
    assert status == 1
    listing = text.split("Legal actions:\n", 1)[1].split("> ", 1)[0].splitlines()
    width = len(str(max(turn.legal)))
    assert listing == [f"  {a:>{width}}: {turn.labels[a]}" for a in turn.legal]
    env = make_env(find_game(name), 2)
    for action, line in zip(turn.legal, listing, strict=True):
        table_name = env.action_name(action)
        if re.search(r"[:_]", table_name):  # a table name, not words
            assert table_name not in text, line


def test_without_a_table_view_the_descriptions_are_the_labels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    env = make_env(find_game("karel_kakelaar"), 3)
    env.reset(seed=0)
    legal = env.legal_actions()
    game = env.game

    class NoTable:
        table = None

        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

    monkeypatch.setattr(env, "game", NoTable())
    labels = move_labels(env, legal)
    assert labels == {a: env.action_table.descriptions[a] or env.action_name(a) for a in legal}
    assert legal_lines(env, legal, labels)[0] == f"  {legal[0]:>2}: {labels[legal[0]]}"


def test_an_answer_may_be_a_whole_label() -> None:
    env = make_env(find_game("power_hungry_pets"), 2)
    env.reset(seed=game_seed(4, 0), options={"scenario": SNAKE_START})
    legal = env.legal_actions()
    labels = move_labels(env, legal)
    target = next(a for a in legal if labels[a] == "play Snake Sorcerer at player_1")
    assert choose_action(env, "Play Snake Sorcerer at player_1", legal, labels) == (target, "")


# ------------------------------------------------------------------ bad input


def test_invalid_answers_get_the_legal_choices_and_play_goes_on() -> None:
    name, n, seat, seed = "exploding_kittens", 2, 0, 4
    script = replay(name, n, seat, seed, first)
    env = make_env(find_game(name), n)
    legal = script.asked[0].legal
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
    first_turn = script.asked[0]
    assert text.count(f"You chose: {first_turn.labels[first_turn.action]}.") >= 1


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
