"""Search-facing adapters over the game engines: one :class:`Engine` per game.

A search agent (:mod:`agents.ismcts`) plays many simulated games per move. It needs
a handful of cheap operations on the engine's own state, in the action indices of
the environment's ``Discrete`` space:

- ``clone(state)``, ``to_act(state)``, ``is_over(state)``;
- ``legal_mask(state)``: the legal actions of the seat to act as a bit mask (bit
  ``i``: action ``i``), the game's ``encoding.legal_action_mask``;
- ``legal_actions(state)``: the same as a tuple of indices (cached per mask);
- ``apply(state, action, rng)``: the game's ``encoding.apply_action``, the same fast
  path the environment steps through (no legality check);
- ``returns(state)``: the game's ``rules.returns``, one value per seat;
- ``resample(state, seat, rng)``: the game's ``resample_hidden``: a full state
  consistent with what ``seat`` knows;
- ``observe(state, seat)``: the observation vector of ``seat`` (the env's encoder
  over a ``PlayerView``), for rollouts by observation-only policies;
- ``random_playout(state, rng)``: uniformly random legal play to the end, in place.

``engine_for(game, num_players, options)`` builds the adapter (the options are
checked by the environment's own constructor); ``engine_of_env(env)`` gives the one
that matches a live environment. Nothing here is used by the environments
themselves.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.registration import GameEntry, find_game

__all__ = ["Engine", "engine_for", "engine_of_env"]

#: Distinct masks whose index tuples are kept per engine.
_CACHE_SIZE = 1 << 15
#: Random numbers drawn from the generator at once by ``random_playout``.
_BATCH = 256


class Engine:
    """Engine operations of one game at one table size and set of rule options.

    Attributes:
        game: the registered game.
        num_players: seats at the table.
        num_actions: size of the action space.
        config: the engine's rule options object.
        reward_bounds: the range of ``returns`` that searches map onto ``[0, 1]``:
            the exact bounds for win/loss rewards, a typical spread for score
            differences (values beyond it map outside ``[0, 1]``).
    """

    def __init__(self, game: GameEntry, num_players: int, config: Any, num_actions: int,
                 *, new_game: Callable[[Any, np.random.Generator], Any],
                 to_act: Callable[[Any], int], legal_mask: Callable[[Any], int],
                 apply: Callable[[Any, int, np.random.Generator], None],
                 is_over: Callable[[Any], bool], returns: Callable[[Any], list[float]],
                 resample: Callable[[Any, int, np.random.Generator], Any],
                 observe: Callable[[Any, int], NDArray[np.float32]],
                 reward_bounds: tuple[float, float] = (-1.0, 1.0)) -> None:
        self.game = game
        self.num_players = num_players
        self.config = config
        self.num_actions = num_actions
        self._new_game = new_game
        self.to_act = to_act
        self.legal_mask = legal_mask
        self.apply = apply
        self.is_over = is_over
        self.returns = returns
        self.resample = resample
        self.observe = observe
        self.reward_bounds = reward_bounds
        self._indices: dict[int, tuple[int, ...]] = {}

    def new_game(self, rng: np.random.Generator) -> Any:
        """A new game (match) dealt from ``rng``."""
        return self._new_game(self.config, rng)

    @staticmethod
    def clone(state: Any) -> Any:
        """An independent copy of ``state``."""
        return state.clone()

    def indices(self, mask: int) -> tuple[int, ...]:
        """The set bits of an action mask, ascending (cached)."""
        found = self._indices.get(mask)
        if found is None:
            if len(self._indices) >= _CACHE_SIZE:
                self._indices.clear()
            found = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
            self._indices[mask] = found
        return found

    def legal_actions(self, state: Any) -> tuple[int, ...]:
        """Legal action indices of the seat to act, ascending."""
        return self.indices(self.legal_mask(state))

    def random_playout(self, state: Any, rng: np.random.Generator) -> int:
        """Play uniformly random legal actions until the game is over (in place).

        Returns the number of actions played. Random numbers are drawn from ``rng``
        in batches, so the playout is a function of the state and the generator.
        """
        is_over, legal_mask, apply, indices = (self.is_over, self.legal_mask, self.apply,
                                               self.indices)
        steps = 0
        while not is_over(state):
            uniforms = rng.random(_BATCH).tolist()
            for u in uniforms:
                legal = indices(legal_mask(state))
                apply(state, legal[int(u * len(legal))], rng)
                steps += 1
                if is_over(state):
                    break
        return steps

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the recipe (the operations are closures): for worker processes.
        return _rebuild, (self.game.module, self.num_players, self.config)

    def __repr__(self) -> str:
        return f"Engine({self.game.module}, {self.num_players} players)"


def _rebuild(module: str, num_players: int, config: Any) -> Engine:
    return _BUILDERS[module](find_game(module), num_players, config)


# ------------------------------------------------------------------ the games


def _phpets(game: GameEntry, num_players: int, config: Any) -> Engine:
    from phpets_env import rules
    from phpets_env.encoding import NUM_ACTIONS, apply_action, encode, legal_action_mask
    from phpets_env.state import MATCH_OVER
    from phpets_env.view import PlayerView

    return Engine(
        game, num_players, config, NUM_ACTIONS, new_game=rules.new_game,
        to_act=lambda state: state.current, legal_mask=legal_action_mask, apply=apply_action,
        is_over=lambda state: state.phase == MATCH_OVER, returns=rules.returns,
        resample=rules.resample_hidden,
        observe=lambda state, seat: encode(PlayerView(state, seat)),
    )


def _ek(game: GameEntry, num_players: int, config: Any) -> Engine:
    from ek_env import rules
    from ek_env.encoding import layout
    from ek_env.state import GAME_OVER
    from ek_env.view import PlayerView

    lay = layout(config)  # base game or Streaking Kittens
    return Engine(
        game, num_players, config, lay.num_actions, new_game=rules.new_game,
        to_act=lambda state: state.to_act, legal_mask=lay.legal_mask, apply=lay.apply,
        is_over=lambda state: state.phase == GAME_OVER, returns=rules.returns,
        resample=rules.resample_hidden,
        observe=lambda state, seat: lay.encode(PlayerView(state, seat)),
    )


def _kakelaar(game: GameEntry, num_players: int, config: Any) -> Engine:
    from kakelaar_env import rules
    from kakelaar_env.encoding import NUM_ACTIONS, apply_action, encode, legal_action_mask
    from kakelaar_env.state import GAME_OVER
    from kakelaar_env.view import PlayerView

    # Own worms minus the others' mean: its exact bound (every worm in one hand) is far
    # wider than what games give (under random play 98% of values fall within
    # +-21 at 2 to 5 players), so +-20 worms is the range mapped onto [0, 1].
    bounds = (-20.0, 20.0) if config.reward == "score_difference" else (-1.0, 1.0)
    return Engine(
        game, num_players, config, NUM_ACTIONS, new_game=rules.new_game,
        to_act=lambda state: state.current, legal_mask=legal_action_mask,
        apply=lambda state, action, rng: apply_action(state, action),
        is_over=lambda state: state.phase == GAME_OVER, returns=rules.returns,
        resample=rules.resample_hidden,
        observe=lambda state, seat: encode(PlayerView(state, seat)),
        reward_bounds=bounds,
    )


_BUILDERS: dict[str, Callable[[GameEntry, int, Any], Engine]] = {
    "phpets_env": _phpets,
    "ek_env": _ek,
    "kakelaar_env": _kakelaar,
}


def engine_for(game: GameEntry | str, num_players: int,
               options: Mapping[str, Any] | None = None) -> Engine:
    """The engine adapter of ``game`` at ``num_players`` seats with rule ``options``.

    Raises:
        ValueError: an unknown game; the environment's ``OptionError`` for bad options.
    """
    entry = game if isinstance(game, GameEntry) else find_game(game)
    builder = _BUILDERS.get(entry.module)
    if builder is None:
        raise ValueError(f"no search engine adapter for {entry.env_id}")
    module = entry.entry_point.partition(":")[0]
    raw = importlib.import_module(module).raw_env
    config = raw(num_players=num_players, **dict(options or {})).config
    return builder(entry, num_players, config)


def engine_of_env(env: Any) -> Engine:
    """The engine adapter matching a live cardgym environment (its game, table size
    and rule options)."""
    module = type(env).__module__.partition(".")[0]
    builder = _BUILDERS.get(module)
    if builder is None:
        raise ValueError(f"no search engine adapter for {type(env).__module__}")
    entry = find_game(module)
    return builder(entry, env.num_players, env.config)
