"""How ISMCTS plays on past its tree, and how the heuristic prior suggests moves.

Both feed a game's heuristic policy what it takes: the observation of the seat to
act (the engine's ``observe``) and its action mask as an array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.engines import Engine
from cardgym.aec import mask_to_array

__all__ = ["BatchedPlayouts", "CompiledPlayouts", "MaskArrays", "Playouts", "Prior"]


class MaskArrays:
    """Bit masks of legal actions as the int8 arrays that policies take, cached.

    Args:
        num_actions: the size of the action space.
        limit: distinct masks kept; the cache starts afresh beyond it.
    """

    def __init__(self, num_actions: int, limit: int = 4096) -> None:
        self.num_actions = num_actions
        self.limit = limit
        #: The arrays made so far, by mask (read directly in hot loops).
        self.cache: dict[int, NDArray[np.int8]] = {}

    def add(self, mask: int) -> NDArray[np.int8]:
        """The array of ``mask``, made and kept."""
        if len(self.cache) >= self.limit:
            self.cache.clear()
        array = self.cache[mask] = mask_to_array(mask, self.num_actions)
        return array

    def __call__(self, mask: int) -> NDArray[np.int8]:
        array = self.cache.get(mask)
        return self.add(mask) if array is None else array


class Playouts:
    """Play a determinisation on, in place, to the end of the game or of a round.

    Args:
        engine: the game's engine adapter.
        policy: the game's heuristic policy, to play every seat from its own
            observation; ``None`` for uniformly random legal moves.
        arrays: the mask arrays the policy is fed.
    """

    def __init__(self, engine: Engine, policy: Any, arrays: MaskArrays) -> None:
        self.engine = engine
        self.policy = policy
        self.arrays = arrays

    def to_end(self, state: Any, rng: np.random.Generator) -> None:
        """Play until the game (the episode) is over."""
        if self.policy is not None:
            self._heuristic(state, rng)
        else:
            self.engine.random_playout(state, rng)

    def to_round_end(self, state: Any, in_round: int, rng: np.random.Generator) -> None:
        """Play until round ``in_round`` ends (or the game does)."""
        if self.policy is not None:
            self._heuristic(state, rng, in_round)
            return
        engine = self.engine
        is_over, legal_mask, apply, indices = (engine.is_over, engine.legal_mask,
                                               engine.apply, engine.indices)
        round_of = engine.round_of
        assert round_of is not None
        while not is_over(state) and round_of(state) == in_round:
            legal = indices(legal_mask(state))
            apply(state, legal[int(rng.random() * len(legal))], rng)

    def _heuristic(self, state: Any, rng: np.random.Generator,
                   in_round: int | None = None) -> None:
        """Heuristic play at every seat until the game ends (or, with ``in_round``,
        until the engine's round number is no longer ``in_round``)."""
        engine = self.engine
        policy = self.policy
        is_over, legal_mask, apply = engine.is_over, engine.legal_mask, engine.apply
        to_act, observe = engine.to_act, engine.observe
        round_of = engine.round_of if in_round is not None else None
        cache, add = self.arrays.cache, self.arrays.add
        while not is_over(state) and (round_of is None or round_of(state) == in_round):
            mask = legal_mask(state)
            if mask & (mask - 1) == 0:  # one legal action: no need to ask
                apply(state, mask.bit_length() - 1, rng)
                continue
            array = cache.get(mask)
            if array is None:
                array = add(mask)
            seat = to_act(state)
            apply(state, policy.act(observe(state, seat), array, rng), rng)


class BatchedPlayouts:
    """Many random playouts of one determinisation at once, on the game's batched
    engine (:mod:`cardgym.vector`): the value of an iteration is their mean return.

    Args:
        batched: the game's batched engine with one row per playout.
        seed: seeds the rows' generators (from the search's generator, so that the
            search stays a function of its generator).
    """

    def __init__(self, batched: Any, seed: int) -> None:
        self.batched = batched
        batched.seed(seed)

    def value(self, state: Any) -> list[float]:
        """The mean returns per seat of ``batched.num_games`` random playouts from
        ``state`` to the end of the game (the rewards collected from ``state`` on,
        which are the game's returns for a game rewarded at its end)."""
        batched = self.batched
        batched.fill(state)
        returns = batched.playout()
        return [float(x) for x in returns.mean(axis=0)]


class CompiledPlayouts:
    """Random playouts on the game's compiled rules (``rollout=random,engine=compiled``):
    each determinisation is loaded into a one-row batched engine and played on in one
    compiled call, its random moves drawn from the row's generator.

    Args:
        engine: the game's engine adapter.
        batched: the game's batched engine of one row.
        seed: seeds the row's generator (from the search's generator, so that the
            search stays a function of its generator).
    """

    def __init__(self, engine: Engine, batched: Any, seed: int) -> None:
        self.engine = engine
        self.batched = batched
        batched.seed(seed)
        rewards = engine.game.step_rewards
        # Where the game pays its returns at the end alone, the row's rewards since
        # the load are the returns of a game that ends in the playout.
        self._returns_in_row = rewards is None or not rewards.pays_during(engine.config)

    def value(self, state: Any, round_end: bool) -> list[float]:
        """The returns of ``state`` (not over) played on at random to the end of the
        game, or with ``round_end`` the engine's ``round_value`` where the playout
        stopped at the end of the round ``state`` is in. ``state`` itself is left as
        it is."""
        batched = self.batched
        batched.load(0, state)
        batched.playout(round_end=round_end)
        if batched.over[0] and self._returns_in_row:
            return batched.returns[0].tolist()  # type: ignore[no-any-return]
        end = batched.final_state(0)
        engine = self.engine
        if engine.is_over(end):
            return engine.returns(end)
        return engine.round_value(end)  # type: ignore[misc]


class Prior:
    """The heuristic policy's suggestion at a tree node (the progressive bias).

    Args:
        engine: the game's engine adapter.
        policy: the game's heuristic policy.
        arrays: the mask arrays the policy is fed.
    """

    def __init__(self, engine: Engine, policy: Any, arrays: MaskArrays) -> None:
        self.engine = engine
        self.policy = policy
        self.arrays = arrays

    def suggest(self, state: Any, seat: int, mask: int, rng: np.random.Generator) -> int:
        """The policy's action for ``seat`` (to act in ``state``, with the legal
        actions ``mask``), from its observation there."""
        return int(self.policy.act(self.engine.observe(state, seat), self.arrays(mask), rng))
