"""The game loop of an evaluation: a batch of its games played in one process.

Each game is played from its seeds alone (:mod:`agents.evaluate.seating`), so a
batch gives the same records in a worker process as in this one.

Matches. With ``match_length=N`` (games whose episode is one game: Exploding
Kittens, Karel Kakelaar) each "game" of the run is a best-of-N match: N games at
fixed seats, the env reset for game ``k`` of match ``g`` with
:func:`~agents.evaluate.seating.match_game_seed` (game 0 with ``game_seed(seed, g)``,
so ``N=1`` is the plain run) and the seats' generators running on through the match.
The match winners are the seats with the most game wins (ties share the win; with
two players and N odd that is the best-of-N winner). Power Hungry Pets already plays
a match of rounds per episode and takes ``match_length=1`` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.evaluate.results import GameOutcome
from agents.evaluate.seating import (
    AgentSpec,
    match_game_seed,
    seat_rng,
    seating,
    spec_indices,
)
from agents.outcomes import RoundTally, winners
from agents.policy import Policy, decide
from agents.specs import make_policy
from cardgym.records import Recorder
from cardgym.registration import BoundGame, Game

__all__ = ["Batch", "build_policies", "forget_agents", "keep_agents", "play_games", "record_path"]


@dataclass(frozen=True)
class Batch:
    """Some games (or matches) of one run, as sent to a worker process.

    Attributes:
        bound: the game, table size and rule options, checked (pickled as its game,
            by reference, and its config: see :class:`cardgym.game.BoundGame`).
        specs: the run's agents (specs, or picklable policies).
        seed: the run's seed.
        indices: the numbers of the games to play.
        match_length: games per best-of-N match.
        record_dir: where to write a game record (:mod:`cardgym.records`) of every
            game played, or ``None``.
        labels: the agents' labels, as the records name the players.
        run: the run's token: a process builds the run's agents once, for its first
            batch of the run, and plays its other batches with them.
    """

    bound: BoundGame
    specs: Sequence[AgentSpec]
    seed: int
    indices: Sequence[int]
    match_length: int
    record_dir: str | None = None
    labels: Sequence[str] = ()
    run: str = ""

    @property
    def num_players(self) -> int:
        return self.bound.num_players


def build_policies(specs: Sequence[AgentSpec], bound: BoundGame) -> list[Policy]:
    """One policy per spec: built from a spec string, or the policy object as given."""
    return [spec if not isinstance(spec, str) else make_policy(spec, bound) for spec in specs]


#: The agents of the runs this process plays, by run token (the latest few runs).
_AGENTS: dict[str, list[Policy]] = {}
#: Runs whose agents a process keeps at once.
_KEPT_RUNS = 2


def keep_agents(run: str, policies: list[Policy]) -> None:
    """Let this process play run ``run``'s batches with ``policies`` (built already)."""
    _AGENTS.pop(run, None)
    _AGENTS[run] = policies
    while len(_AGENTS) > _KEPT_RUNS:
        del _AGENTS[next(iter(_AGENTS))]


def forget_agents(run: str) -> None:
    """Let go of run ``run``'s agents in this process (their models freed)."""
    _AGENTS.pop(run, None)


def _agents(batch: Batch) -> list[Policy]:
    """The batch's agents: those this process built for its run, else built now."""
    policies = _AGENTS.get(batch.run) if batch.run else None
    if policies is None:
        policies = build_policies(batch.specs, batch.bound)
        if batch.run:
            keep_agents(batch.run, policies)
    return policies


def play_games(batch: Batch) -> list[GameOutcome]:
    """Play the games (or matches) of ``batch``; one record each, in its order."""
    game = batch.bound.game
    policies = _agents(batch)
    spec_of_agent = spec_indices(batch.specs, batch.num_players)
    env = batch.bound.make_env()
    records = []
    for g in batch.indices:
        agents = seating(g, batch.num_players)
        seat_policy = [policies[spec_of_agent[agent]] for agent in agents]
        records.append(_play_match(env, game, batch, g, agents, seat_policy))
    return records


def _play_match(env: Any, game: Game, batch: Batch, g: int, agents: tuple[int, ...],
                seat_policy: Sequence[Policy]) -> GameOutcome:
    """Game (or match) ``g`` of the run, the agents seated as ``agents`` says."""
    num_players, match_length = batch.num_players, batch.match_length
    rngs = [seat_rng(batch.seed, g, seat) for seat in range(num_players)]
    moves = [0] * num_players
    game_wins = [0] * num_players
    first = None
    for k in range(match_length):
        seed = match_game_seed(batch.seed, g, k)
        env.reset(seed=seed)
        if first is None:
            first = env.possible_agents.index(env.agent_selection)
        tally = RoundTally(game, env)
        folder = batch.record_dir
        recorder = None if folder is None else Recorder(
            env, seed, players=[batch.labels[spec] for spec in _spec_at_seats(batch, agents)])
        _play_game(env, seat_policy, rngs, moves, tally, recorder)
        if recorder is not None and folder is not None:
            recorder.record().save(record_path(folder, g, k, match_length))
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
    return GameOutcome(index=g, agents=agents, winners=match_winners, steps=sum(moves),
                      moves=tuple(moves), rounds=rounds, round_wins=round_wins, first=first)


def record_path(record_dir: str, g: int, k: int, match_length: int) -> Path:
    """Where the record of game ``k`` of match ``g`` goes: ``game-00012.json``, or
    ``game-00012-2.json`` for the third game of a best-of-N match."""
    suffix = f"-{k}" if match_length > 1 else ""
    return Path(record_dir) / f"game-{g:05d}{suffix}.json"


def _spec_at_seats(batch: Batch, agents: Sequence[int]) -> list[int]:
    """The spec index (into ``batch.specs``) at each seat."""
    spec_of_agent = spec_indices(batch.specs, batch.num_players)
    return [spec_of_agent[agent] for agent in agents]


def _play_game(env: Any, seat_policy: Sequence[Policy], rngs: Sequence[np.random.Generator],
               moves: list[int], tally: RoundTally, recorder: Recorder | None = None) -> None:
    """Play the game just dealt in ``env`` to its end, counting each seat's ``moves``
    and the rounds in ``tally`` (and noting each move in ``recorder``)."""
    seat_of = env.agent_name_mapping
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = seat_of[agent]
        action = decide(seat_policy[seat], env, agent, observation, rngs[seat])
        if recorder is not None:
            recorder.step(action)
        env.step(action)
        moves[seat] += 1
        tally.update(env)
