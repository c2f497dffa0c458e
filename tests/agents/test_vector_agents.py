"""Agents on the batched engines: ``cardgym eval --vector`` and ``arena --vector``
(agents.evaluate.batched) and ISMCTS with batched playouts (``rollout=batched``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.evaluate import evaluate
from agents.ismcts import IsmctsSettings, SettingsError, parse_settings
from agents.policy import decide
from agents.specs import make_policy
from benchmarks.arena import run_arena
from cardgym.registration import find_game
from cardgym_cli import main


@pytest.mark.parametrize(("game", "players", "games"), [("kuhn_poker", 2, 3000),
                                                        ("karel_kakelaar", 2, 600),
                                                        ("power_hungry_pets", 3, 600)])
def test_a_batched_evaluation_finds_the_win_rates_of_the_aec_one(game: str, players: int,
                                                                games: int) -> None:
    """Other deals, the same game: the heuristic's win rate against random agrees
    within the noise of the two samples (4 standard errors)."""
    aec = evaluate(game, players, ["heuristic", "random"], games=games, seed=1, workers=1)
    batched = evaluate(game, players, ["heuristic", "random"], games=games, seed=1, workers=1,
                       vector=True)
    a, b = aec.agents[0], batched.agents[0]
    assert b.seat_games == a.seat_games
    p = (a.wins + b.wins) / (a.seat_games + b.seat_games)
    error = math.sqrt(p * (1 - p) * 2 / a.seat_games)
    assert abs(a.win_rate - b.win_rate) < 4 * error + 1e-9, (a.win_rate, b.win_rate)
    assert abs(b.moves_per_game - a.moves_per_game) < 0.15 * a.moves_per_game


def test_a_batched_evaluation_does_not_depend_on_workers_and_keeps_its_seed() -> None:
    one = evaluate("kuhn_poker", 2, ["random", "heuristic"], games=300, seed=4, workers=1,
                   vector=True)
    two = evaluate("kuhn_poker", 2, ["random", "heuristic"], games=300, seed=4, workers=2,
                   vector=True)
    assert one.records == two.records
    other = evaluate("kuhn_poker", 2, ["random", "heuristic"], games=300, seed=5, workers=1,
                     vector=True)
    assert one.records != other.records


def test_a_batched_evaluation_seats_the_agents_as_the_aec_one() -> None:
    result = evaluate("karel_kakelaar", 3, ["heuristic", "random"], games=6, seed=0,
                      workers=1, vector=True)
    aec = evaluate("karel_kakelaar", 3, ["heuristic", "random"], games=6, seed=0, workers=1)
    assert [r.agents for r in result.records] == [r.agents for r in aec.records]
    assert all(r.winners for r in result.records)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "exploding_kittens"}, "no batched engine"),
    ({"agent_specs": ["ismcts:iterations=5", "random"]}, "cannot act in batches"),
    ({"record_dir": "somewhere"}, "game records are written from the AEC env"),
])
def test_a_run_that_cannot_be_batched_is_refused(kwargs: dict, message: str) -> None:
    arguments = {"game": "kuhn_poker", "num_players": 2, "agent_specs": ["random", "random"],
                 "games": 4, "workers": 1, "vector": True, **kwargs}
    with pytest.raises(ValueError, match=message):
        evaluate(**arguments)


def test_eval_vector_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "kuhn_poker", "--agents", "heuristic", "random", "--games", "50",
                 "--vector", "--no-progress"]) == 0
    assert "| 1 | heuristic |" in capsys.readouterr().out
    assert main(["eval", "exploding_kittens", "--agents", "random", "random", "--games", "5",
                 "--vector", "--no-progress"]) == 2
    assert "Exploding Kittens has none yet" in capsys.readouterr().err


def test_arena_vector_batches_the_pairings_that_can_be() -> None:
    agents = ["random", "heuristic", "ismcts:iterations=10"]
    batched = run_arena([("kuhn_poker", 2)], agents, games=20, workers=1, vector=True)[0]
    aec = run_arena([("kuhn_poker", 2)], agents, games=20, workers=1)[0]
    assert [run[:2] for run in batched.runs] == [run[:2] for run in aec.runs]
    for (first, second, one), (_, _, two) in zip(batched.runs, aec.runs, strict=True):
        searching = "ismcts" in agents[first] + agents[second]
        # The pairings with the search agent are played on the AEC env either way;
        # the others on the batched engine, whose deals differ.
        assert (one.records == two.records) == searching


# ------------------------------------------------------------------ ISMCTS


def test_batched_playouts_parse_and_are_labelled() -> None:
    settings = parse_settings("iterations=20,rollout=batched,playouts=4,horizon=game")
    assert settings.rollout == "batched" and settings.playouts == 4
    assert "rollout=batched,playouts=4" in settings.label()
    with pytest.raises(SettingsError, match="playouts=K goes with rollout=batched"):
        parse_settings("playouts=4")
    with pytest.raises(SettingsError, match="playouts must be an integer >= 1"):
        parse_settings("rollout=batched,playouts=0")
    with pytest.raises(SettingsError, match="playouts must be an integer >= 1"):
        IsmctsSettings(rollout="batched", playouts=True)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "spec", "message"), [
    ("exploding_kittens", "ismcts:rollout=batched", "has no batched engine"),
    ("power_hungry_pets", "ismcts:rollout=batched", "use it with horizon=game"),
])
def test_batched_playouts_are_refused_where_they_cannot_value_a_position(
        game: str, spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):  # an AgentSpecError
        make_policy(spec, find_game(game), 2, {})


@pytest.mark.parametrize(("game", "players", "spec"), [
    ("kuhn_poker", 2, "ismcts:iterations=30,rollout=batched,playouts=8"),
    ("karel_kakelaar", 3, "ismcts:iterations=20,rollout=batched,playouts=8"),
    ("power_hungry_pets", 2, "ismcts:iterations=20,rollout=batched,playouts=8,horizon=game"),
])
def test_batched_playouts_choose_legal_moves_and_repeat_with_the_generator(
        game: str, players: int, spec: str) -> None:
    entry = find_game(game)
    policy = make_policy(spec, entry, players, {})
    env = entry.make_env(num_players=players)
    env.reset(seed=3)
    for _ in range(6):
        agent = env.agent_selection
        observation = env.observe(agent)
        first = decide(policy, env, agent, observation, np.random.default_rng(7))
        again = decide(policy, env, agent, observation, np.random.default_rng(7))
        assert first == again
        assert observation["action_mask"][first] == 1
        env.step(first)
        if not env.agents or all(env.terminations.values()):
            break
