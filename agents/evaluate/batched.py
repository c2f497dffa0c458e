"""An evaluation's games on the game's batched engine (``cardgym eval --vector``).

When every agent acts from observations in batches (``random``, ``model:PATH``,
``baseline``: :func:`agents.policy.act_batch`; a heuristic acts game by game inside
the batch), the games of a run are played together: each step observes every game
once and asks each agent once for all the games where its seat is to act. Game ``g``
seats the agents as in the AEC path (:func:`~agents.evaluate.seating.seating`) and
is dealt by the batched engine from the stream of its game seed
(:func:`~agents.evaluate.seating.game_seed`, :mod:`cardgym.chance`), so a run gives
the same results for every number of workers and deals game ``g`` as the AEC path
deals it for the same seed (the agents' own draws differ between the paths). Winners, rounds and
rounds won are read from each game's final state (``export``): the rounds of a match
are its round number, the rounds won its tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.evaluate.results import GameOutcome
from agents.evaluate.seating import game_seed, seating
from agents.policy import Policy, act_batch
from cardgym.chance import seed_state
from cardgym.registration import BoundGame, Game

__all__ = ["CHUNK", "batched_refusal", "can_batch", "play_batched"]

#: Games played at once (a run of more plays them in chunks of this size).
CHUNK = 4096


def can_batch(game: Game, specs: Sequence[Any], match_length: int = 1,
              record_dir: str | None = None) -> bool:
    """Whether a run of these agent specs (or policies) can be played on the batched
    engine, judged from the specs without building the agents."""
    searching = any(spec.partition(":")[0] == "ismcts" if isinstance(spec, str)
                    else hasattr(spec, "act_in") for spec in specs)
    return (game.batched is not None and not searching and match_length == 1
            and record_dir is None)


def batched_refusal(game: Game, policies: Sequence[Policy], match_length: int,
                    record_dir: str | None) -> str | None:
    """Why a run cannot be played on the batched engine, or ``None`` when it can."""
    if game.batched is None:
        return f"{game.title} has no batched engine"
    searching = [repr(policy) for policy in policies if hasattr(policy, "act_in")]
    if searching:
        return f"{', '.join(searching)} search game states and cannot act in batches"
    if match_length != 1:
        return "best-of-N matches are played on the AEC env"
    if record_dir is not None:
        return "game records are written from the AEC env"
    return None


def play_batched(bound: BoundGame, policies: Sequence[Policy], spec_of_agent: Sequence[int],
                 seed: int, games: int) -> list[GameOutcome]:
    """Games ``0..games-1`` of a run on the batched engine; one outcome each."""
    states = np.array([seed_state(game_seed(seed, g)) for g in range(games)], np.uint64)
    outcomes: list[GameOutcome] = []
    for start in range(0, games, CHUNK):
        indices = range(start, min(games, start + CHUNK))
        outcomes += _play_chunk(bound, policies, spec_of_agent, seed, indices,
                                states[start:indices.stop])
    return outcomes


def _play_chunk(bound: BoundGame, policies: Sequence[Policy], spec_of_agent: Sequence[int],
                seed: int, indices: range, states: np.ndarray) -> list[GameOutcome]:
    n, game, num_players = len(indices), bound.game, bound.num_players
    engine = bound.make_batched(n)
    engine.rng[:] = states
    engine.reset(rows=np.ones(n, np.bool_))
    seated = [seating(g, num_players) for g in indices]
    # The policy at each game's seats, by index into ``policies``.
    owner = np.array([[spec_of_agent[agent] for agent in agents] for agents in seated],
                     np.int64)
    rng = np.random.default_rng([seed, indices.start])
    rows = np.arange(n)
    moves = np.zeros((n, num_players), np.int64)
    actions = np.empty(n, np.int64)
    obs = np.empty((n, engine.obs_dim), np.float32)
    masks = np.empty((n, engine.num_actions), np.int8)
    for _ in range(game.max_steps):
        if engine.over.all():
            break
        engine.observe(None, obs, masks)
        seats = engine.to_act.copy()
        acting = owner[rows, seats]
        actions[:] = -1
        live = ~engine.over
        for index in np.unique(acting[live]).tolist():
            chosen = live & (acting == index)
            actions[chosen] = act_batch(policies[index], obs[chosen], masks[chosen], rng)
        engine.step(actions, autoreset=False)
        moves[rows[live], seats[live]] += 1
    else:
        raise RuntimeError(f"{game.title}: games did not end within {game.max_steps} steps")
    outcomes = []
    for i, g in enumerate(indices):
        final = engine.export(i)
        rounds, round_wins = 0, tuple[int, ...]()
        if game.rounds is not None:
            rounds = game.rounds.round_of(final)
            round_wins = tuple(game.rounds.tokens(final))
        outcomes.append(GameOutcome(index=g, agents=seated[i],
                                    winners=tuple(sorted(game.winners(final))),
                                    steps=int(moves[i].sum()), moves=tuple(moves[i].tolist()),
                                    rounds=rounds, round_wins=round_wins))
    return outcomes
