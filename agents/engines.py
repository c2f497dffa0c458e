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
- ``random_playout(state, rng)``: uniformly random legal play to the end, in place;
- for games played as a match of rounds, ``round_of(state)`` (the round number)
  and ``round_value(state)``: the expected returns of a match between rounds (see
  :func:`match_win_chances`); ``None`` for games of one round;
- ``hidden_move(state, action)``: whether that move of the seat to act is hidden
  from every other seat when made (``None`` when no move ever is);
- ``private_key(state, seat)``: what ``seat`` privately holds, as a hashable key
  (``None`` for games whose hands are public).

``engine_for(game, num_players, options)`` builds the adapter (the options are
checked by the environment's own constructor); ``engine_of_env(env)`` gives the one
that matches a live environment. Nothing here is used by the environments
themselves.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.registration import GameEntry, find_game

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

    def __init__(self, game: GameEntry, num_players: int, config: Any, num_actions: int,
                 *, new_game: Callable[[Any, np.random.Generator], Any],
                 to_act: Callable[[Any], int], legal_mask: Callable[[Any], int],
                 apply: Callable[[Any, int, np.random.Generator], None],
                 is_over: Callable[[Any], bool], returns: Callable[[Any], list[float]],
                 resample: Callable[[Any, int, np.random.Generator], Any],
                 observe: Callable[[Any, int], NDArray[np.float32]],
                 reward_bounds: tuple[float, float] = (-1.0, 1.0),
                 round_of: Callable[[Any], int] | None = None,
                 round_value: Callable[[Any], list[float]] | None = None,
                 hidden_move: Callable[[Any, int], bool] | None = None,
                 private_key: Callable[[Any, int], Any] | None = None) -> None:
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
        self.round_of = round_of
        self.round_value = round_value
        self.hidden_move = hidden_move
        self.private_key = private_key
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


def _phpets(game: GameEntry, num_players: int, config: Any) -> Engine:
    from phpets_env import rules
    from phpets_env.cards import CARD_VALUES
    from phpets_env.encoding import NUM_ACTIONS, apply_action, encode, legal_action_mask
    from phpets_env.state import MATCH_OVER, MOUSE_TRAPPER
    from phpets_env.view import PlayerView

    target = config.tokens_to_win
    values = CARD_VALUES

    def round_value(state: Any) -> list[float]:
        # Match rewards are +1 for a win, -1 otherwise: the expectation is 2p - 1.
        return [2.0 * p - 1.0 for p in match_win_chances(tuple(state.tokens), target)]

    return Engine(
        game, num_players, config, NUM_ACTIONS, new_game=rules.new_game,
        to_act=lambda state: state.current, legal_mask=legal_action_mask, apply=apply_action,
        is_over=lambda state: state.phase == MATCH_OVER, returns=rules.returns,
        resample=rules.resample_hidden,
        observe=lambda state, seat: encode(PlayerView(state, seat)),
        round_of=lambda state: state.round_number,
        round_value=round_value if config.reward == "match" else None,
        # Where Mouse Trapper puts the card back is private.
        hidden_move=lambda state, action: state.phase == MOUSE_TRAPPER,
        private_key=lambda state, seat: tuple(sorted(values[card] for card in state.hands[seat])),
    )


def _ek(game: GameEntry, num_players: int, config: Any) -> Engine:
    from ek_env import rules
    from ek_env.encoding import layout
    from ek_env.state import ALTER, GAME_OVER, GARBAGE, INSERT
    from ek_env.view import PlayerView

    lay = layout(config)  # base game or Streaking Kittens
    return Engine(
        game, num_players, config, lay.num_actions, new_game=rules.new_game,
        to_act=lambda state: state.to_act, legal_mask=lay.legal_mask, apply=lay.apply,
        is_over=lambda state: state.phase == GAME_OVER, returns=rules.returns,
        resample=rules.resample_hidden,
        observe=lambda state, seat: lay.encode(PlayerView(state, seat)),
        # Where a kitten goes back, Alter the Future's order, Garbage Collection's card
        # are private (a Favor's card is seen by the receiver: not hidden from all).
        hidden_move=lambda state, action: state.phase in (INSERT, ALTER, GARBAGE),
        private_key=lambda state, seat: bytes(state.hands[seat]),
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
        # Bids, mother hens and cards taken back are chosen face down, all at once.
        hidden_move=lambda state, action: True,
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
