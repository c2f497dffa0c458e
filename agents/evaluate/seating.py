"""Who sits where in each game of an evaluation, and the seeds that game is played from.

Seating. ``agent_specs`` names one agent per seat (``num_players`` entries), or two
agents: the first against the second in every other seat. Agents rotate seats game
by game: in game ``g`` agent ``i`` sits at seat ``(i + g) % num_players``, so over a
multiple of ``num_players`` games every agent sits at every seat equally often.

Seeding. Game ``g`` depends on ``seed`` and ``g`` alone: the environment is reset
with a seed drawn from ``SeedSequence([seed, g, ENV_KEY])`` and the policy at seat
``s`` draws from ``default_rng(SeedSequence([seed, g, s]))``. The result is therefore
the same whatever the number of worker processes or the order games finish in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.policy import Policy

__all__ = ["ENV_KEY", "AgentSpec", "agent_count_rule", "agent_label", "game_seed",
           "match_game_seed", "seat_rng", "seating", "spec_indices"]

#: The last word of the seed key of the environment (no seat has this number).
ENV_KEY = 2**32 - 1

#: An agent as an evaluation takes it: a spec for :func:`agents.specs.make_policy`, or
#: a policy object.
AgentSpec = str | Policy


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


def spec_indices(specs: Sequence[AgentSpec], num_players: int) -> list[int]:
    """The spec (index into ``specs``) of each agent entry ``0..num_players-1``.

    Raises:
        ValueError: neither one spec per seat nor two.
    """
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


def agent_label(spec: AgentSpec) -> str:
    """A spec as shown in tables: the string itself, or a policy's ``name``/``repr``."""
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "name", None) or repr(spec))
