"""Narration speaks of the viewer as "you", and in the second person.

Every registered game tells its record in words (``describe_event``, through
``env.narrate``): from a seat's view that seat is "you", so the verb after it takes
the second person ("you start", "you are out", "you exploded and are out"), a seat
acting on itself is "yourself" or "themselves", and nobody is "you" in the full
view or the spectator's. Random games of every game, variant and player count are
narrated from every view and checked line by line; then a few positions per game
are checked sentence by sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from cardgym.registration import find_game
from cardgym.testing import GameKit
from tests.cardgym.kits import KITS

#: Random games per (game, variant, player count); each from every seat's view.
GAMES_PER_COUNT = 3

#: Verb forms that agree with "he" or "she", never with "you" (what a slip looks like).
THIRD_PERSON = frozenset({
    "is", "was", "has", "does", "goes", "starts", "draws", "plays", "wins", "loses", "gives",
    "takes", "bids", "commits", "explodes", "defuses", "puts", "passes", "holds", "shows",
    "checks", "bets", "calls", "folds", "picks", "chooses", "keeps", "swaps", "names", "marks",
    "nopes", "asks", "finds", "sees", "reorders", "turns", "aims", "hands", "scores", "begins",
    "gets", "owes", "receives", "steals", "reveals", "discards", "stays", "leaves", "misses",
    "hits", "ties", "tries", "says", "knows", "needs", "must", "wants",
})
#: Words ending in a single "s" that are no verb of a "you" clause's subject.
NOT_VERBS = frozenset({"its", "this", "thus", "us", "yes", "always", "perhaps"})


def _third_person(word: str) -> bool:
    word = word.lower()
    if word in THIRD_PERSON:
        return True
    return (word.endswith("s") and not word.endswith(("ss", "'s")) and len(word) > 2
            and word not in NOT_VERBS)


def slips(line: str) -> list[str]:
    """The places in ``line`` where "you" is given a third-person verb or possessive.

    A clause (between ``,``, ``;`` and ``:``) that begins with "you" is the viewer
    acting: its first word after "you", and each word after an "and" that joins a
    second verb, must not be a third-person form ("you starts", "you exploded and
    is out"); anywhere, "you" followed by a word of :data:`THIRD_PERSON`, or "you's",
    is a slip.
    """
    found = []
    for match in re.finditer(r"\byou\s+([a-z]+)\b", line, re.IGNORECASE):
        if match.group(1).lower() in THIRD_PERSON:
            found.append(match.group(0))
    found += re.findall(r"\byou's\b", line, re.IGNORECASE)
    for clause in re.split(r"[,;:]", line):
        words = clause.split()
        if len(words) < 2 or words[0].lower() != "you":
            continue
        verbs = [words[1]] + [after for before, after in zip(words, words[1:], strict=False)
                              if before == "and"]
        found += [f"you ... {verb}" for verb in verbs if _third_person(verb)]
    return found


def _random_game(kit: GameKit, num_players: int, options: dict[str, object], seed: int) -> Any:
    env = kit.make_env(num_players=num_players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = env.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    return env


def _games(kit: GameKit) -> Iterator[tuple[int, Any]]:
    for num_players in kit.player_counts:
        for seed in range(GAMES_PER_COUNT):
            options = kit.option_sets[seed % len(kit.option_sets)]
            yield num_players, _random_game(kit, num_players, options, seed)


def _spectator_lines(env: Any, num_players: int) -> list[str]:
    """The record as the table view tells it to a spectator (a reader party to no
    secret, at no seat)."""
    game = env.game
    log = game.log(env.game_state)
    return [game.describe_event(event.as_seen_by(num_players), num_players, num_players)
            for event in log]


# ------------------------------------------------------------------ the checker


@pytest.mark.parametrize("line", [
    "a new round begins; you starts",
    "you is out of the round, showing King Cat (10)",
    "you exploded and is out",
    "player_1 found you's hand empty",
    "you's held exploding_kitten goes off",
    "round 2 begins; you holds the tractor",
    "you has 3 worms in hand",
    "you draws a card",
    "you wins 2 chips",
    "player_1 played Battle Bunny (3) at you: you has the lower card",
    "player_1 marked nothing: you holds no card",
])
def test_the_checker_finds_each_slip(line: str) -> None:
    assert slips(line), line


@pytest.mark.parametrize("line", [
    "a new round begins; you start",
    "you are out of the round, showing King Cat (10)",
    "you exploded and are out",
    "player_1 found your hand empty",
    "your held exploding_kitten goes off",
    "round 2 begins; you hold the tractor",
    "you have 3 worms in hand",
    "player_2 played Crystal Bowl (1) at you naming Hermit Swap (8): missed",
    "you played Snake Sorcerer (5) at yourself and showed Battle Bunny (3)",
    "player_1 held King Cat and swapped hands",
    "you win",
])
def test_the_checker_passes_good_sentences(line: str) -> None:
    assert slips(line) == [], line


# ------------------------------------------------------------- random games


@pytest.mark.parametrize("kit", KITS, ids=lambda kit: kit.name)
def test_no_view_gives_you_a_third_person_verb(kit: GameKit) -> None:
    """Every line of every random game, from every seat's view: no "you" with a
    third-person verb, no "you's", the seat never named by its own name, and no seat
    played at itself by name ("you played ... at you", "player_1 noped player_1's")."""
    told = 0
    for num_players, env in _games(kit):
        for seat in range(num_players):
            own_name = re.compile(rf"\b(player_{seat}|seat {seat})\b")
            for line in env.narrate(seat, 0):
                told += line.lower().startswith("you ")
                assert not slips(line), (kit.name, num_players, seat, line, slips(line))
                assert not own_name.search(line), (kit.name, num_players, seat, line)
                assert not re.search(r"^(\S+) (?:played|aimed) .* at \1\b", line), line
                assert not re.search(r"^(\S+) noped \1's\b", line), line
    assert told, f"{kit.name}: no line ever began with 'you': the test cannot fail"


@pytest.mark.parametrize("kit", KITS, ids=lambda kit: kit.name)
def test_nobody_is_you_in_the_full_and_the_spectators_views(kit: GameKit) -> None:
    for num_players, env in _games(kit):
        lines = env.narrate("full", 0) + _spectator_lines(env, num_players)
        assert lines
        for line in lines:
            assert not re.search(r"\byou(r|rself)?\b", line, re.IGNORECASE), (kit.name, line)
            assert not re.search(r"^(\S+) (?:played|aimed) .* at \1\b", line), line


# ------------------------------------------------------- Power Hungry Pets


def _env(name: str, num_players: int, scenario: dict[str, object] | None = None,
         seed: int = 0, **options: object) -> Any:
    env = find_game(name).make_env(num_players=num_players, **options)
    env.reset(seed=seed, options=None if scenario is None else {"scenario": scenario})
    return env


def test_the_start_player_of_a_power_hungry_pets_round_reads_you_start() -> None:
    for seed in range(4):
        env = _env("power_hungry_pets", 3, seed=seed)
        first = env.game_state.to_act
        for seat in range(3):
            expected = ("a new round begins; you start" if seat == first
                        else f"a new round begins; player_{first} starts")
            assert env.narrate(seat, 0)[0] == expected


def test_a_snake_sorcerer_played_at_yourself() -> None:
    scenario = {"hands": ["snake_sorcerer", "crystal_bowl"],
                "deck_top": ["battle_bunny", "king_cat", "hermit_swap"], "first_player": 0}
    env = _env("power_hungry_pets", 2, scenario)
    start = env.event_count
    env.step(env.action_index("play:snake_sorcerer:+0"))
    assert env.narrate(0, start)[:2] == [
        "you played Snake Sorcerer (5) at yourself and showed Battle Bunny (3)",
        "you drew a card: King Cat (10)"]
    assert env.narrate(1, start)[:2] == [
        "player_0 played Snake Sorcerer (5) at themselves and showed Battle Bunny (3)",
        "player_0 drew a card"]
    assert env.narrate("full", start)[0] == (
        "player_0 played Snake Sorcerer (5) at themselves and showed Battle Bunny (3)")


def test_a_snake_sorcerer_played_at_another_shows_you_the_card() -> None:
    scenario = {"hands": ["snake_sorcerer", "crystal_bowl"],
                "deck_top": ["battle_bunny", "king_cat", "hermit_swap"], "first_player": 0}
    env = _env("power_hungry_pets", 2, scenario)
    start = env.event_count
    env.step(env.action_index("play:snake_sorcerer:+1"))
    assert env.narrate(0, start)[:2] == [
        "you played Snake Sorcerer (5) at player_1, who showed Crystal Bowl (1)",
        "player_1 drew a card"]
    assert env.narrate(1, start)[:2] == [
        "player_0 played Snake Sorcerer (5) at you, who showed Crystal Bowl (1)",
        "you drew a card: King Cat (10)"]


# ------------------------------------------------------- Exploding Kittens


def test_exploding_as_you_and_as_the_others_saw_it() -> None:
    scenario = {"hands": [["skip", "taco_cat"], ["defuse"], ["defuse"]],
                "deck": ["exploding_kitten", "attack", "exploding_kitten", "beard_cat"],
                "turn_holder": 0}
    env = _env("exploding_kittens", 3, scenario)
    start = env.event_count
    env.step(env.action_index("draw"))
    assert env.narrate(0, start) == [
        "you drew exploding_kitten", "you exploded and are out"]
    assert env.narrate(2, start) == [
        "player_0 drew exploding_kitten", "player_0 exploded and is out"]


# ------------------------------------------------------- Karel Kakelaar


def test_a_karel_kakelaar_game_from_its_first_tractor_holder() -> None:
    env = _env("karel_kakelaar", 3, seed=5)
    first = env.narrate("full", 0)[0]
    holder = int(re.fullmatch(r"round 1 begins; player_(\d) holds the tractor", first)[1])
    assert env.narrate(holder, 0)[0] == "round 1 begins; you hold the tractor"
