"""The search-facing adapter over any game's engine, read through its contract
(:class:`cardgym.game.Game`).

A search agent (:mod:`agents.ismcts`) plays many simulated games per move. It needs
a handful of cheap operations on the engine's own state, in the action indices of
the environment's ``Discrete`` space:

- ``clone(state)``, ``to_act(state)``, ``is_over(state)``;
- ``legal_mask(state)``: the legal actions of the seat to act as a bit mask (bit
  ``i``: action ``i``), the layout's ``legal_mask``;
- ``legal_actions(state)``: the same as a tuple of indices (cached per mask);
- ``apply(state, action, rng)``: the layout's ``apply``, the same fast
  path the environment steps through (no legality check);
- ``returns(state)``: the game's ``returns``, one value per seat;
- ``resample(state, seat, rng)``: the game's ``resample_hidden``: a full state
  consistent with what ``seat`` knows;
- ``observe(state, seat)``: the observation vector of ``seat`` (the env's encoder
  over a ``PlayerView``), for rollouts by observation-only policies;
- ``random_playout(state, rng)``: uniformly random legal play to the end, in place;
- for games played as a match of rounds, ``round_of(state)`` (the round number)
  and ``round_value(state)``: the expected returns of a match between rounds (see
  :func:`match_win_chances`); ``None`` for games of one round;
- ``hidden_move(state, action)``: whether that move of the seat to act is hidden
  from every other seat when made (``None`` when no move ever is);
- ``private_key(state, seat)``: what ``seat`` privately holds, as a hashable key
  (``None`` for games whose hands are public);
- ``hidden_choices(state, seat)``: the other seats' choices ``seat`` has not seen,
  each with the state it was made in (``None`` when the game does not list them).

``Engine(bound)`` builds the adapter over a :class:`~cardgym.game.BoundGame` (options
already checked); ``engine_for(game, num_players, options)`` checks them first;
``engine_of_env(env)`` gives the one
that matches a live environment. Nothing here is used by the environments
themselves.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.game import BoundGame, Game
from cardgym.registration import find_game

__all__ = ["Engine", "engine_for", "engine_of_env", "match_win_chances"]

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
        round_of: the round number of a state, for games played as a match of
            rounds; ``None`` otherwise.
        round_value: the expected ``returns`` of a match that is between rounds (a
            round just ended, the match goes on), in the same bounds; ``None`` for
            games of one round.
        hidden_move: whether an action of the seat to act stays hidden from every
            other seat when it is made (a card put back at a depth of choice, a bid
            face down); ``None`` when every move is seen by all.
        private_key: a hashable summary of what a seat privately holds (its hand),
            by which a search keeps that seat's choices apart; ``None`` when the
            game has no private hands.
    """

    def __init__(self, bound: BoundGame) -> None:
        game, config = bound.game, bound.config
        self.bound = bound
        self.game = game
        self.num_players = bound.num_players
        self.config = config
        layout = game.layout(config)
        self.num_actions = layout.num_actions
        self.to_act = game.to_act
        self.legal_mask = layout.legal_mask
        self.apply = layout.apply
        self.is_over = game.is_over
        self.returns = game.returns
        self.resample = game.resample_hidden
        player_view, encode = game.player_view, layout.encode
        self.observe: Callable[[Any, int], NDArray[np.float32]] = (
            lambda state, seat: encode(player_view(state, seat)))
        self.reward_bounds = game.reward_bounds(config)
        self.round_of: Callable[[Any], int] | None = None
        self.round_value: Callable[[Any], list[float]] | None = None
        if game.rounds is not None:
            self.round_of = game.rounds.round_of
            self.round_value = _round_value(game, config, self.reward_bounds)
        self.hidden_move = game.hidden_move
        self.private_key = game.private_key
        self.hidden_choices = game.hidden_choices
        self._indices: dict[int, tuple[int, ...]] = {}

    def new_game(self, rng: np.random.Generator) -> Any:
        """A new game (match) dealt from ``rng``."""
        return self.game.new_game(self.config, rng)

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
        # Pickled as its bound game (the operations are closures): for worker processes,
        # games registered at run time included.
        return Engine, (self.bound,)

    def __repr__(self) -> str:
        return f"Engine({self.game.name}, {self.num_players} players)"


def _round_value(game: Game, config: Any,
                 bounds: tuple[float, float]) -> Callable[[Any], list[float]] | None:
    """The expected returns of a match between rounds (see :func:`match_win_chances`),
    mapped onto the reward bounds (a match won gives the top, lost the bottom)."""
    rounds = game.rounds
    assert rounds is not None
    target = rounds.tokens_to_win(config)
    if target is None:
        return None
    tokens, (low, high) = rounds.tokens, bounds

    def value(state: Any) -> list[float]:
        return [low + (high - low) * p for p in match_win_chances(tuple(tokens(state)), target)]

    return value


# ------------------------------------------------------------------ the games


def match_win_chances(tokens: tuple[int, ...], target: int) -> tuple[float, ...]:
    """Each seat's chance to win a match of rounds from ``tokens``, when every coming
    round is won by one seat chosen uniformly at random and the first seat to reach
    ``target`` tokens wins the match (a seat already at ``target`` has won).

    The value of a match between rounds when nothing is known about who plays
    better: a search that stops at the end of a round backs this up instead of
    playing the coming rounds out at random.
    """
    return _chances(tuple(min(t, target) for t in tokens), target)


@functools.lru_cache(maxsize=4096)
def _chances(tokens: tuple[int, ...], target: int) -> tuple[float, ...]:
    n = len(tokens)
    if target in tokens:
        won = tokens.index(target)
        return tuple(1.0 if seat == won else 0.0 for seat in range(n))
    total = [0.0] * n
    for winner in range(n):
        after = tokens[:winner] + (tokens[winner] + 1,) + tokens[winner + 1 :]
        for seat, chance in enumerate(_chances(after, target)):
            total[seat] += chance / n
    return tuple(total)


def engine_for(game: Game | str, num_players: int,
               options: Mapping[str, Any] | None = None) -> Engine:
    """The engine adapter of ``game`` at ``num_players`` seats with rule ``options``
    (checked here: :meth:`cardgym.game.Game.bind`); ``Engine(bound)`` takes a
    :class:`~cardgym.game.BoundGame` as it is.

    Raises:
        ValueError: an unknown game; the game's ``OptionError`` for bad options.
    """
    return Engine(find_game(game).bind(num_players, options))


def engine_of_env(env: Any) -> Engine:
    """The engine adapter matching a live cardgym environment (its game, table size
    and rule options)."""
    game = getattr(env, "game", None)
    if not isinstance(game, Game):
        raise ValueError(f"{type(env).__name__} is not a cardgym environment (it has no "
                         "game contract)")
    return Engine(BoundGame(game, env.config))
