"""``agents.evaluate``: seeded, worker-independent, seat-balanced win rates."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from numpy.typing import NDArray

from agents.evaluate import EvalResult, evaluate, format_eval, game_seed, seat_rng, seating
from agents.options import OptionsError
from agents.outcomes import has_rounds, wilson_interval
from agents.policy import Policy, RandomPolicy
from agents.specs import AgentSpecError
from cardgym.registration import GAMES, find_game, short_name
from phpets_env.engine.cards import tokens_to_win

GAME_NAMES = [short_name(game.env_id) for game in GAMES]


class LowestLegal:
    """Always the legal action with the lowest index (module level: workers unpickle it)."""

    name = "lowest"

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        return int(np.flatnonzero(action_mask)[0])


def records(result: EvalResult) -> list[tuple[object, ...]]:
    return [(r.index, r.agents, r.winners, r.steps, r.moves, r.rounds, r.round_wins)
            for r in result.records]


# ------------------------------------------------------------ wilson interval


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 2, 0.0945, 0.9055),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_matches_known_values(wins: int, games: int, low: float,
                                              high: float) -> None:
    assert wilson_interval(wins, games) == pytest.approx((low, high), abs=5e-4)


def test_wilson_interval_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    narrow = wilson_interval(50, 100, z=1.0)
    wide = wilson_interval(50, 100)
    assert wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]
    with pytest.raises(ValueError):
        wilson_interval(5, 3)
    with pytest.raises(ValueError):
        wilson_interval(-1, 3)


# ------------------------------------------------------------------ seeding


def test_seats_rotate_so_every_agent_sits_everywhere_equally() -> None:
    n = 4
    result = evaluate("exploding_kittens", n, ["random"] * n, games=3 * n, seed=2, workers=1)
    for agent in range(n):
        seats = [record.agents.index(agent) for record in result.records]
        assert sorted(seats) == sorted(list(range(n)) * 3)
    assert [record.agents for record in result.records[:2]] == [(0, 1, 2, 3), (3, 0, 1, 2)]
    assert seating(1, 3) == (2, 0, 1)  # game 1: agent 0 at seat 1, agent 2 at seat 0


def test_two_specs_put_the_first_agent_against_the_second_in_every_other_seat() -> None:
    result = evaluate("karel_kakelaar", 4, ["random", "random"], games=8, seed=0, workers=1)
    first, rest = result.agents
    assert (first.seats, first.games, first.seat_games) == (1, 8, 8)
    assert (rest.seats, rest.games, rest.seat_games) == (3, 8, 24)
    assert first.wins + rest.wins == sum(len(r.winners) for r in result.records)
    assert sum(result.seat_wins) == first.wins + rest.wins


def test_the_same_seed_gives_the_same_result_and_another_seed_another() -> None:
    first = evaluate("power_hungry_pets", 3, ["random", "random"], games=10, seed=5, workers=1)
    again = evaluate("power_hungry_pets", 3, ["random", "random"], games=10, seed=5, workers=1)
    other = evaluate("power_hungry_pets", 3, ["random", "random"], games=10, seed=6, workers=1)
    assert records(first) == records(again)
    assert format_eval(first) == format_eval(again)
    assert records(first) != records(other)


def test_one_worker_and_two_workers_give_the_same_result() -> None:
    specs: list[str | Policy] = [LowestLegal(), "random", RandomPolicy()]
    alone = evaluate("exploding_kittens", 3, specs, games=9, seed=1, workers=1)
    pooled = evaluate("exploding_kittens", 3, specs, games=9, seed=1, workers=2)
    assert records(alone) == records(pooled)
    assert format_eval(alone) == format_eval(pooled)


def test_a_game_depends_on_the_seed_and_its_index_only() -> None:
    whole = evaluate("karel_kakelaar", 2, ["random", "random"], games=6, seed=9, workers=1)
    # Game 4 of the run, replayed by hand from game_seed / seat_rng and the seating.
    game = find_game("karel_kakelaar")
    from agents.options import make_env
    from agents.outcomes import winners

    env = make_env(game, 2)
    env.reset(seed=game_seed(9, 4))
    rngs = [seat_rng(9, 4, seat) for seat in range(2)]
    policy = RandomPolicy()
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.agent_name_mapping[agent]
        env.step(policy.act(observation["observation"], observation["action_mask"], rngs[seat]))
    assert whole.records[4].winners == tuple(sorted(winners(game, env)))


def test_a_policy_object_and_its_spec_play_alike() -> None:
    by_spec = evaluate("power_hungry_pets", 2, ["random", "random"], games=6, seed=3, workers=1)
    by_object = evaluate("power_hungry_pets", 2, [RandomPolicy(), RandomPolicy()], games=6,
                         seed=3, workers=1)
    assert records(by_spec) == records(by_object)


# --------------------------------------------------------------- plausibility


def test_lowest_legal_against_random_gives_plausible_counts() -> None:
    games = 40
    result = evaluate("exploding_kittens", 3, [LowestLegal(), "random"], games=games, seed=0,
                      workers=1)
    lowest, field = result.agents
    assert (lowest.spec, field.spec) == ("lowest", "random")
    # Exploding Kittens has exactly one winner per game.
    assert all(len(record.winners) == 1 for record in result.records)
    assert lowest.wins + field.wins == games
    assert sum(result.seat_wins) == games
    assert sum(result.seat_shares) == pytest.approx(1.0)
    for agent in result.agents:
        low, high = agent.interval
        assert 0.0 <= low <= agent.win_rate <= high <= 1.0
        assert agent.moves_per_game > 0
    assert result.steps == sum(record.steps for record in result.records)
    assert lowest.moves + field.moves == result.steps
    table = format_eval(result)
    assert "| 1 | lowest | 1 | 40 |" in table and "| 2 | random | 2 | 80 |" in table


def test_power_hungry_pets_counts_match_wins_and_rounds_won() -> None:
    n = 3
    result = evaluate("power_hungry_pets", n, ["random", "random"], games=8, seed=4, workers=1)
    assert has_rounds(result.game)
    for record in result.records:
        assert record.winners  # default final_tie="shared": a match always has a winner
        assert record.rounds >= 1 and sum(record.round_wins) >= record.rounds
        for seat in record.winners:
            assert record.round_wins[seat] >= tokens_to_win(n)
    table = format_eval(result)
    assert "match wins" in table and "rounds won" in table
    assert sum(a.rounds for a in result.agents) == n * result.rounds


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_runs_at_its_smallest_and_largest_table(name: str) -> None:
    game = find_game(name)
    for n in (min(game.player_counts), max(game.player_counts)):
        result = evaluate(name, n, ["random"] * n, games=2, seed=0, workers=1)
        assert result.games == 2 and len(result.agents) == n
        assert all(record.winners for record in result.records)
        assert f"{name}, {n} players, 2 games" in format_eval(result)


def test_options_reach_the_games() -> None:
    result = evaluate("power_hungry_pets", 2, ["random", "random"], games=4, seed=0, workers=1,
                      options={"reward": "round"})
    assert result.options == {"reward": "round"}
    assert "options reward='round'" in format_eval(result)


# ---------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"agent_specs": ["random"]}, ValueError, "give 3 agents (one per seat) or 2"),
        ({"agent_specs": ["random"] * 4}, ValueError, "not 4"),
        ({"agent_specs": ["random", "nobody"]}, AgentSpecError, "unknown agent 'nobody'"),
        ({"games": 0}, ValueError, "games must be positive"),
        ({"workers": 0}, ValueError, "workers must be positive"),
        ({"options": {"robovac": "always"}}, OptionsError, "robovac='always'"),
        ({"options": {"colour": "red"}}, OptionsError, "unknown option 'colour'"),
        ({"num_players": 7}, OptionsError, "takes 2..6 players, not 7"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs: dict[str, object], error: type[Exception],
                                          message: str) -> None:
    arguments: dict[str, object] = {"game": "power_hungry_pets", "num_players": 3,
                                    "agent_specs": ["random", "random"], "games": 2,
                                    "seed": 0, "workers": 1}
    arguments.update(kwargs)
    with pytest.raises(error) as caught:
        evaluate(**arguments)  # type: ignore[arg-type]
    assert message in str(caught.value)


# ------------------------------------------------------------------ heuristics


@pytest.mark.parametrize("name", GAME_NAMES)
def test_heuristic_against_random(name: str) -> None:
    assert find_game(name).heuristic is not None, f"{name} has no heuristic"
    result = evaluate(name, 2, ["heuristic", "random"], games=20, seed=0, workers=1)
    heuristic, _ = result.agents
    assert heuristic.spec == "heuristic" and heuristic.seat_games == 20
    assert 0.0 <= heuristic.win_rate <= 1.0


# ------------------------------------------------------------ worker processes


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name: state, ppid, ..."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()


def _spawned_children(parent: int) -> list[int]:
    """Pids of the multiprocessing spawn workers whose parent is ``parent`` (Linux)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            ppid = int(_stat(entry)[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and b"spawn_main" in command:
            found.append(int(entry))
    return found


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie has ended)."""
    try:
        return _stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_stopping_an_eval_run_ends_its_worker_processes() -> None:
    # A run whose games last for minutes (a search of 10**6 iterations per move),
    # stopped with SIGTERM the way a scheduler or `kill` stops it: its two workers
    # end too, instead of playing on to the end of their chunk of games.
    command = [sys.executable, "-m", "cardgym_cli", "eval", "karel_kakelaar", "--games", "4",
               "--workers", "2", "--agents", "ismcts:iterations=1000000", "random"]
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.5)
            workers = _spawned_children(run.pid)
        assert len(workers) == 2, "the run did not start two worker processes"
        time.sleep(3)  # let the workers start their games
        assert all(_running(pid) for pid in workers)
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=30)
        deadline = time.monotonic() + 30
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_running(pid) for pid in workers)
    finally:
        if run.poll() is None:
            run.kill()
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


def test_cardgym_eval_checks_the_options_once_and_builds_each_agent_once(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # With one worker the games are played in this process: the options are checked
    # where they enter (the command line) and the agents built once, when checked.
    import agents.specs
    from cardgym_cli import main
    from phpets_env.engine.state import Config

    configs: list[Config] = []
    check = Config.__post_init__
    monkeypatch.setattr(Config, "__post_init__", lambda self: (configs.append(self), check(self)))
    built: list[str] = []
    make = agents.specs.make_policy
    monkeypatch.setattr(agents.specs, "make_policy",
                        lambda spec, *rest: (built.append(spec), make(spec, *rest))[1])
    assert main(["eval", "power_hungry_pets", "--agents", "heuristic", "ismcts:iterations=4",
                 "--games", "6", "--workers", "1", "--no-progress",
                 "--option", "robovac=duel_only"]) == 0
    assert len(configs) == 1 and configs[0].robovac == "duel_only"
    assert sorted(built) == ["heuristic", "ismcts:iterations=4"]
    assert "robovac='duel_only'" in capsys.readouterr().out


def test_a_process_builds_a_runs_agents_for_its_first_batch_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.evaluate.games as games

    built: list[str] = []
    make = games.make_policy
    monkeypatch.setattr(games, "make_policy",
                        lambda spec, bound: (built.append(spec), make(spec, bound))[1])
    bound = find_game("exploding_kittens").bind(3)
    specs = ["heuristic", "random"]
    batches = [games.Batch(bound, specs, 5, range(start, start + 2), 1, run="run-a")
               for start in (0, 2, 4)]
    try:
        played = [outcome for batch in batches for outcome in games.play_games(batch)]
    finally:
        games.forget_agents("run-a")
    assert built == specs
    alone = evaluate(bound, 3, specs, games=6, seed=5, workers=1)
    assert [(r.index, r.winners, r.steps) for r in played] == \
        [(r.index, r.winners, r.steps) for r in alone.records]


def test_a_bound_game_is_evaluated_as_bound() -> None:
    bound = find_game("karel_kakelaar").bind(3, {"reward": "score_difference"})
    result = evaluate(bound, 3, ["random", "heuristic"], games=4, seed=2, workers=1)
    assert result.options == {"reward": "score_difference"}
    assert records(result) == records(evaluate("karel_kakelaar", 3, ["random", "heuristic"],
                                               games=4, seed=2, workers=1,
                                               options={"reward": "score_difference"}))
    own = r"bound already: give no options, and no num_players or its own \(3\)"
    with pytest.raises(TypeError, match=own):
        evaluate(bound, 2, ["random", "heuristic"], games=4)
    with pytest.raises(TypeError, match=own):
        evaluate(bound, 3, ["random", "heuristic"], games=4,
                 options={"reward": "score_difference"})
