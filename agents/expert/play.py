"""Games in which a search plays one seat against opponents from a league, and the
samples its decisions leave (:class:`~agents.expert.samples.Samples`).

Game ``g`` of a batch seeded ``seed`` is the evaluation harness's game ``g``: the env
is reset with :func:`~agents.evaluate.game_seed`, each seat's generator is
:func:`~agents.evaluate.seat_rng`; the search sits at seat ``g % players`` and every
other seat is played by opponent ``g // players % len(opponents)`` of the league, so
that over ``players x len(opponents)`` games the search meets each opponent from each
seat. At each of the search's decisions with more than one legal action the seat's
observation, its mask and the search's root visit shares are kept; when the game
ends, each of them gets the seat's return over the game (the sum of its rewards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.evaluate import game_seed, seat_rng
from agents.expert.samples import Samples
from agents.ismcts import IsmctsPolicy
from agents.policy import resample_for_seat
from cardgym.registration import BoundGame

__all__ = ["Batch", "BatchResult", "play_batch"]


@dataclass(frozen=True)
class Batch:
    """Games ``games`` of one generation (picklable: a worker process plays it).

    Attributes:
        game: the game's id; ``num_players`` and ``options`` bind it.
        search: the ``ismcts:`` spec of the searching seat (``model=`` names the
            network that guides it).
        opponents: the league: a spec per opponent (``random``, ``heuristic``,
            ``baseline``, ``model:PATH`` ...), each playing every other seat of its
            games.
        games: the game numbers to play.
        seed: the generation's seed.
    """

    game: str
    num_players: int
    options: dict[str, Any]
    search: str
    opponents: tuple[str, ...]
    games: range
    seed: int


@dataclass
class BatchResult:
    """What a batch left: the samples, and the search's games won per opponent."""

    samples: Samples
    games: list[int]
    wins: list[int]


def _bound(batch: Batch) -> BoundGame:
    from agents.options import as_bound

    return as_bound(batch.game, batch.num_players, batch.options)


def play_batch(batch: Batch) -> BatchResult:
    """Play the batch's games (a module-level function: the worker processes call it)."""
    from agents.specs import make_policy

    bound = _bound(batch)
    search = make_policy(batch.search, bound)
    if not isinstance(search, IsmctsPolicy):
        raise ValueError(f"the searching seat must be an ismcts agent, got {batch.search!r}")
    league = [make_policy(spec, bound) for spec in batch.opponents]
    env = bound.make_env()
    spec = env.observation_space(env.possible_agents[0])["observation"]
    parts: list[Samples] = []
    games = [0] * len(league)
    wins = [0] * len(league)
    for g in batch.games:
        seat = g % bound.num_players
        which = g // bound.num_players % len(league)
        samples, won = _play_game(env, search, league[which], seat, batch.seed, g)
        parts.append(samples)
        games[which] += 1
        wins[which] += won
    joined = (Samples.join(parts) if parts else
              Samples.empty(spec.shape[0], env.action_space(env.possible_agents[0]).n))
    return BatchResult(joined, games, wins)


def _play_game(env: Any, search: IsmctsPolicy, opponent: Any, searcher: int, seed: int,
               g: int) -> tuple[Samples, int]:
    """One game; the searcher's samples, and 1 if it won (0 otherwise)."""
    from agents.outcomes import winners
    from agents.policy import decide

    env.reset(seed=game_seed(seed, g))
    rngs = [seat_rng(seed, g, seat) for seat in range(len(env.possible_agents))]
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    visits: list[np.ndarray] = []
    total = 0.0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        seat = env.possible_agents.index(agent)
        if seat == searcher:
            total += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        if seat != searcher:
            env.step(decide(opponent, env, agent, observation, rngs[seat]))
            continue
        rng = rngs[seat]
        action = search.act_in(resample_for_seat(env, seat, rng), seat, rng)
        counts = search.root_visits()
        if counts is not None and counts.sum() > 0:
            mask = observation["action_mask"]
            shares = np.where(mask > 0, counts, 0.0)
            observations.append(observation["observation"].astype(np.float32))
            masks.append(mask.astype(np.int8))
            visits.append((shares / shares.sum()).astype(np.float32))
        env.step(int(action))
    won = int(searcher in winners(env.game, env))
    if not observations:
        size = env.observation_space(env.possible_agents[0])["observation"].shape[0]
        return Samples.empty(size, env.action_space(env.possible_agents[0]).n), won
    returns = np.full(len(observations), total, dtype=np.float32)
    return Samples(np.stack(observations), np.stack(masks), np.stack(visits), returns), won


def merge(results: Sequence[BatchResult]) -> BatchResult:
    """The results of several batches of one generation, in batch order."""
    return BatchResult(Samples.join([result.samples for result in results]),
                       [sum(column) for column in zip(*(r.games for r in results), strict=True)],
                       [sum(column) for column in zip(*(r.wins for r in results), strict=True)])
