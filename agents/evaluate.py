"""Seeded evaluation of agents against each other: win rates with 95% intervals.

::

    result = evaluate("exploding_kittens", 4, ["heuristic", "random"], games=400, seed=0)
    print(format_eval(result))

Seating. ``agent_specs`` names one agent per seat (``num_players`` entries), or two
agents: the first against the second in every other seat. Agents rotate seats game
by game: in game ``g`` agent ``i`` sits at seat ``(i + g) % num_players``, so over a
multiple of ``num_players`` games every agent sits at every seat equally often.

Seeding. Game ``g`` depends on ``seed`` and ``g`` alone: the environment is reset
with a seed drawn from ``SeedSequence([seed, g, ENV_KEY])`` and the policy at seat
``s`` draws from ``default_rng(SeedSequence([seed, g, s]))``. The result is therefore
the same whatever the number of worker processes or the order games finish in.

Matches. With ``match_length=N`` (games whose episode is one game: Exploding
Kittens, Karel Kakelaar) each "game" of the run is a best-of-N match: N games at
fixed seats, the env reset for game ``k`` of match ``g`` with
:func:`match_game_seed` (game 0 with ``game_seed(seed, g)``, so ``N=1`` is the plain
run) and the seats' generators running on through the match. The match winners
are the seats with the most game wins (ties share the win; with two players and N
odd that is the best-of-N winner). Power Hungry Pets already plays a match of
rounds per episode and takes ``match_length=1`` only.

Many runs. :func:`evaluate_many` plays several runs (an arena's pairings) on one
process pool; each run's result equals what :func:`evaluate` gives for it alone.

Counting. A seat wins a game when it is among the game's winners
(:func:`agents.outcomes.winners`); shared wins count for every seat sharing. An
agent holding several seats (the second of two specs) is counted per seat: its
"seat-games" are games times seats held, and its win rate is wins per seat-game,
comparable with ``1 / num_players`` for every agent. (Its seats in one game are not
independent, so its interval is a little narrower than it should be.)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.outcomes import RoundTally, has_rounds, wilson_interval, winners
from agents.policy import Policy, decide
from cardgym.registration import GameEntry, find_game, short_name

__all__ = [
    "ENV_KEY",
    "AgentResult",
    "EvalRequest",
    "EvalResult",
    "GameRecord",
    "agent_count_rule",
    "agent_label",
    "evaluate",
    "evaluate_many",
    "format_eval",
    "game_seed",
    "match_game_seed",
    "seat_rng",
    "seating",
]

#: The last word of the seed key of the environment (no seat has this number).
ENV_KEY = 2**32 - 1

AgentSpec = str | Policy


# ------------------------------------------------------------------ seeding


def game_seed(seed: int, game_index: int) -> int:
    """The ``env.reset`` seed of game ``game_index`` of a run seeded with ``seed``."""
    return int(np.random.SeedSequence([seed, game_index, ENV_KEY]).generate_state(1)[0])


def match_game_seed(seed: int, match_index: int, game_in_match: int) -> int:
    """The ``env.reset`` seed of game ``game_in_match`` of match ``match_index``."""
    if game_in_match == 0:
        return game_seed(seed, match_index)
    key = [seed, match_index, ENV_KEY, game_in_match]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def seat_rng(seed: int, game_index: int, seat: int) -> np.random.Generator:
    """The generator of the policy at ``seat`` in game ``game_index``."""
    return np.random.default_rng(np.random.SeedSequence([seed, game_index, seat]))


def seating(game_index: int, num_players: int) -> tuple[int, ...]:
    """The agent (0-based entry) at each seat in game ``game_index``: agent ``i`` sits
    at seat ``(i + game_index) % num_players``."""
    return tuple((seat - game_index) % num_players for seat in range(num_players))


def agent_label(spec: AgentSpec) -> str:
    """A spec as shown in tables: the string itself, or a policy's ``name``/``repr``."""
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "name", None) or repr(spec))


# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class GameRecord:
    """One finished game.

    Attributes:
        index: the game's number in the run.
        agents: the agent entry (index into the spec list) at each seat.
        winners: the winning seats.
        steps: actions taken in the game (``env.step`` calls of seats still in it).
        moves: actions taken per seat.
        rounds: rounds played (games whose episode is a match of rounds), or games
            played in a best-of-N match; else 0.
        round_wins: rounds (or games of the match) won per seat.
    """

    index: int
    agents: tuple[int, ...]
    winners: tuple[int, ...]
    steps: int
    moves: tuple[int, ...]
    rounds: int = 0
    round_wins: tuple[int, ...] = ()


@dataclass
class AgentResult:
    """What one agent entry achieved.

    Attributes:
        spec: the spec as given (its label for policies given as objects).
        seats: seats it held in each game.
        games: games played.
        wins: seats won over all games (shared wins count).
        moves: actions it took over all games and seats.
        rounds: rounds played over its seat-games (matches of rounds only).
        round_wins: rounds won.
    """

    spec: str
    seats: int
    games: int
    wins: int = 0
    moves: int = 0
    rounds: int = 0
    round_wins: int = 0

    @property
    def seat_games(self) -> int:
        return self.games * self.seats

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.seat_games)

    @property
    def moves_per_game(self) -> float:
        """Actions per seat-game."""
        return self.moves / self.seat_games if self.seat_games else math.nan

    @property
    def round_win_rate(self) -> float:
        return self.round_wins / self.rounds if self.rounds else math.nan


@dataclass
class EvalResult:
    """The outcome of :func:`evaluate`.

    Attributes:
        game: the game.
        num_players: seats at the table.
        specs: the agent specs as given (labels).
        agents: one result per spec, in the order given.
        games: games played.
        seed: the run's seed.
        seat_wins: games won per seat, whoever sat there.
        steps: actions over all games.
        rounds: rounds over all games (matches of rounds only).
        options: the rule options.
        records: every game, in order.
        seconds: wall time.
        match_length: games per match (1: each game stands alone).
    """

    game: GameEntry
    num_players: int
    specs: list[str]
    agents: list[AgentResult]
    games: int
    seed: int
    seat_wins: list[int]
    steps: int
    rounds: int
    options: dict[str, Any] = field(default_factory=dict)
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    match_length: int = 1

    @property
    def steps_per_game(self) -> float:
        return self.steps / self.games

    @property
    def seat_shares(self) -> list[float]:
        """Share of games won at each seat."""
        return [wins / self.games for wins in self.seat_wins]


# ------------------------------------------------------------------ playing


def _expand(specs: Sequence[AgentSpec], num_players: int) -> list[int]:
    """The spec index of each agent entry (0..num_players-1)."""
    if len(specs) == num_players:
        return list(range(num_players))
    if len(specs) == 2:
        return [0] + [1] * (num_players - 1)
    raise ValueError(f"{agent_count_rule(num_players)}, not {len(specs)}")


def agent_count_rule(num_players: int) -> str:
    """How many agents an evaluation at ``num_players`` seats takes, as a phrase."""
    if num_players == 2:
        return "give 2 agents, one per seat"
    return (f"give {num_players} agents (one per seat) or 2 (the first against the second "
            f"in every other seat)")


def _build_policies(specs: Sequence[AgentSpec], game: GameEntry, num_players: int,
                    options: Mapping[str, Any]) -> list[Policy]:
    from agents.specs import make_policy

    return [spec if not isinstance(spec, str) else make_policy(spec, game, num_players, options)
            for spec in specs]


Job = tuple[str, int, Sequence[AgentSpec], int, dict[str, Any], Sequence[int], int]


def _play_games(job: Job) -> list[GameRecord]:
    """Play some games (or matches) of a run (in a worker process, or in-process)."""
    from agents.options import make_env

    env_id, num_players, specs, seed, options, indices, match_length = job
    game = find_game(env_id)
    policies = _build_policies(specs, game, num_players, options)
    spec_of_agent = _expand(specs, num_players)
    env = make_env(game, num_players, options)
    seat_of = env.agent_name_mapping
    records = []
    for g in indices:
        agents = seating(g, num_players)
        seat_policy = [policies[spec_of_agent[agents[seat]]] for seat in range(num_players)]
        rngs = [seat_rng(seed, g, seat) for seat in range(num_players)]
        moves = [0] * num_players
        game_wins = [0] * num_players
        for k in range(match_length):
            env.reset(seed=match_game_seed(seed, g, k))
            tally = RoundTally(game, env)
            for agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                seat = seat_of[agent]
                action = decide(seat_policy[seat], env, agent, observation, rngs[seat])
                env.step(action)
                moves[seat] += 1
                tally.update(env)
            game_winners = winners(game, env)
            for seat in game_winners:
                game_wins[seat] += 1
        if match_length == 1:
            match_winners = tuple(sorted(game_winners))
            rounds, round_wins = tally.rounds, tuple(tally.wins) if tally.active else ()
        else:
            best = max(game_wins)
            match_winners = tuple(s for s in range(num_players) if game_wins[s] == best and best)
            rounds, round_wins = match_length, tuple(game_wins)
        records.append(GameRecord(
            index=g,
            agents=agents,
            winners=match_winners,
            steps=sum(moves),
            moves=tuple(moves),
            rounds=rounds,
            round_wins=round_wins,
        ))
    return records


def _exit_with_parent() -> None:
    """Worker initializer: end this worker process when its parent process ends.

    A parent stopped by a signal (``kill``, a job scheduler's time limit) runs no
    clean-up, and its pool's workers would play on to the end of their current
    chunk of games, which can take many minutes for search agents. A daemon thread
    waits on the parent's sentinel and ends the worker as soon as it fires.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=wait, name="exit-with-parent", daemon=True).start()


def _chunks(games: int, pieces: int) -> list[range]:
    """``range(games)`` in up to ``pieces`` consecutive slices."""
    count = min(games, pieces)
    bounds = [games * k // count for k in range(count + 1)]
    return [range(bounds[k], bounds[k + 1]) for k in range(count)]


@dataclass(frozen=True)
class EvalRequest:
    """One run of :func:`evaluate_many`: the arguments of :func:`evaluate` but ``workers``."""

    game: GameEntry | str
    num_players: int
    agent_specs: Sequence[AgentSpec]
    games: int
    seed: int = 0
    options: Mapping[str, Any] | None = None
    match_length: int = 1


def evaluate(game: GameEntry | str, num_players: int, agent_specs: Sequence[AgentSpec],
             games: int, seed: int = 0, workers: int = 2,
             options: Mapping[str, Any] | None = None, match_length: int = 1,
             progress: Callable[[int], None] | None = None) -> EvalResult:
    """Play ``games`` seeded games and count who won.

    Args:
        game: a registered game, or its id or short name.
        num_players: seats at the table.
        agent_specs: ``num_players`` agents, one per seat, or 2: the first against the
            second in every other seat. Each is a spec for
            :func:`agents.specs.make_policy` (built in each worker process) or a
            picklable :class:`~agents.policy.Policy` object.
        games: games to play (positive); matches when ``match_length`` is above 1.
        seed: the run's seed (non-negative).
        workers: processes; 1 plays in this process. The result does not depend on it.
        options: rule options of the game.
        match_length: games per best-of-N match (games without rounds only).
        progress: called with the number of games just finished, as batches finish
            (a progress bar's ``update``).

    Raises:
        ValueError: a bad size, seat count, agent count or match length;
            ``OptionsError`` for bad options and ``AgentSpecError`` for unknown agents
            (both ``ValueError``).
    """
    request = EvalRequest(game, num_players, agent_specs, games, seed, options, match_length)
    return evaluate_many([request], workers, progress)[0]


def _check(request: EvalRequest) -> tuple[GameEntry, dict[str, Any], list[AgentSpec], list[int]]:
    from agents.options import check_options

    game = request.game
    entry = game if isinstance(game, GameEntry) else find_game(game)
    if request.games <= 0:
        raise ValueError(f"games must be positive, got {request.games}")
    if request.seed < 0:
        raise ValueError(f"seed must be >= 0, got {request.seed}")
    if request.match_length <= 0:
        raise ValueError(f"match_length must be a positive number of games (best of N), "
                         f"got {request.match_length}")
    if request.match_length > 1 and has_rounds(entry):
        raise ValueError(f"{short_name(entry.env_id)} already plays a match of rounds per "
                         f"game; match_length must be 1, got {request.match_length}")
    rule_options = check_options(entry, request.num_players, request.options)
    specs = list(request.agent_specs)
    spec_of_agent = _expand(specs, request.num_players)
    # Fail here, not in a worker, on a spec that names no agent.
    _build_policies(specs, entry, request.num_players, rule_options)
    return entry, rule_options, specs, spec_of_agent


def evaluate_many(requests: Sequence[EvalRequest], workers: int = 2,
                  progress: Callable[[int], None] | None = None) -> list[EvalResult]:
    """Play several runs on one process pool; one result per request, in order.

    Each result is the one :func:`evaluate` gives for its request alone;
    ``seconds`` is the wall time of the whole call, shared by all. ``progress``
    is called with the number of games of each batch as it finishes.
    """
    if workers <= 0:
        raise ValueError(f"workers must be positive, got {workers}")
    if not requests:
        return []
    checked = [_check(request) for request in requests]
    start = time.perf_counter()
    jobs: list[Job] = []
    owner: list[int] = []
    # About four jobs per worker in all: each job builds its policies (loads models) once.
    pieces = max(1, -(-workers * 4 // len(requests)))
    for number, (request, (entry, rule_options, specs, _)) in enumerate(
            zip(requests, checked, strict=True)):
        for chunk in _chunks(request.games, pieces):
            jobs.append((entry.env_id, request.num_players, specs, request.seed, rule_options,
                         chunk, request.match_length))
            owner.append(number)
    records: list[list[GameRecord]] = [[] for _ in requests]
    if workers == 1 or len(jobs) == 1:
        for number, job in zip(owner, jobs, strict=True):
            records[number].extend(_play_games(job))
            if progress is not None:
                progress(len(job[5]))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context,
                                 initializer=_exit_with_parent) as pool:
            for number, job, chunk_records in zip(owner, jobs, pool.map(_play_games, jobs),
                                                  strict=True):
                records[number].extend(chunk_records)
                if progress is not None:
                    progress(len(job[5]))
    seconds = time.perf_counter() - start
    results = []
    for request, (entry, rule_options, specs, spec_of_agent), run_records in zip(
            requests, checked, records, strict=True):
        run_records.sort(key=lambda record: record.index)
        result = _summarise(entry, request.num_players, specs, spec_of_agent, request.seed,
                            rule_options, run_records, seconds)
        result.match_length = request.match_length
        results.append(result)
    return results


def _summarise(game: GameEntry, num_players: int, specs: Sequence[AgentSpec],
               spec_of_agent: Sequence[int], seed: int, options: dict[str, Any],
               records: list[GameRecord], seconds: float) -> EvalResult:
    results = [AgentResult(agent_label(spec), seats=spec_of_agent.count(i), games=len(records))
               for i, spec in enumerate(specs)]
    seat_wins = [0] * num_players
    for record in records:
        for seat, agent in enumerate(record.agents):
            result = results[spec_of_agent[agent]]
            result.moves += record.moves[seat]
            if seat in record.winners:
                result.wins += 1
            if record.round_wins:
                result.rounds += record.rounds
                result.round_wins += record.round_wins[seat]
        for seat in record.winners:
            seat_wins[seat] += 1
    return EvalResult(
        game=game, num_players=num_players, specs=[agent_label(s) for s in specs],
        agents=results, games=len(records), seed=seed, seat_wins=seat_wins,
        steps=sum(r.steps for r in records), rounds=sum(r.rounds for r in records),
        options=dict(options), records=records, seconds=seconds,
    )


# ------------------------------------------------------------------ report


def format_eval(result: EvalResult) -> str:
    """The result as Markdown: a heading line, one row per agent, win share per seat."""
    name = short_name(result.game.env_id)
    n = result.num_players
    options = ", ".join(f"{k}={v!r}" for k, v in result.options.items())
    rounds = has_rounds(result.game)
    best_of = result.match_length > 1
    wins_word = "match wins" if rounds or best_of else "wins"
    lines = [
        f"{name}, {n} players, {result.games} "
        + (f"best-of-{result.match_length} matches" if best_of else "games")
        + f", seed {result.seed}"
        + (f", options {options}" if options else "")
        + f": {result.steps_per_game:.1f} steps per " + ("match" if best_of else "game")
        + (f", {result.rounds / result.games:.1f} rounds per match" if rounds else "")
        + ".",
        f"Agents rotate seats game by game. Win rate = {wins_word} per seat-game (shared wins "
        f"count for each winner); an even share is {1 / n:.3f}.",
        "",
    ]
    header = ["agent", "spec", "seats", "seat-games", wins_word, "win rate", "95% CI",
              "moves/game"]
    if rounds:
        header += ["rounds won", "round win rate"]
    elif best_of:
        header += ["games won", "game win rate"]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for number, agent in enumerate(result.agents, start=1):
        low, high = agent.interval
        row = [str(number), agent.spec, str(agent.seats), str(agent.seat_games), str(agent.wins),
               f"{agent.win_rate:.3f}", f"{low:.3f}-{high:.3f}", f"{agent.moves_per_game:.1f}"]
        if rounds or best_of:
            row += [str(agent.round_wins), f"{agent.round_win_rate:.3f}"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "| seat | " + " | ".join(str(s) for s in range(n)) + " |",
              "|" + "---|" * (n + 1),
              "| win share | " + " | ".join(f"{share:.3f}" for share in result.seat_shares)
              + " |"]
    return "\n".join(lines)
