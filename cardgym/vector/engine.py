"""The batched engine base: N games of one game and rule set, held as arrays and
advanced together, one compiled kernel call per step.

A game's batched engine subclasses :class:`BatchedEngine` and names itself in its
contract (``Game.batched = "package.batched:Engine"``). The subclass keeps the game
state in arrays with one row per game and writes three kernels' worth of methods:

- :meth:`_deal`: new games in the rows of a boolean mask;
- :meth:`_step`: one decision in every row (the bookkeeping below included);
- :meth:`_observe`: observations and legal-action masks of given seats;

plus, for :meth:`export` and :meth:`load`, which move game ``i`` to and from the
reference engine's ``State``, a ``row_format`` (:mod:`cardgym.vector.rows`: which
columns each state field takes) and what it leaves to the engine (the log, say).
Everything else (seeding, the per-step arrays, random legal play, playouts to the
end) lives here. docs/vector.md, "Writing a batched
engine for a game", has the whole contract and the checks an engine must pass.

The rows' bookkeeping arrays, which the subclass's ``_step`` and ``_deal`` keep:

==================  ==========  =====================================================
``to_act``          ``[N]``     the seat to decide in each game
``rewards``         ``[N, P]``  each seat's reward of the last step (as the AEC env's
                                ``rewards`` after that step; 0 in a row just dealt)
``returns``         ``[N, P]``  the rewards of the game so far, summed
``lengths``         ``[N]``     decisions in the game so far
``done``            ``[N]``     the game in the row ended on the last step
``over``            ``[N]``     the row holds a finished game (steps without automatic
                                reset leave it so; its action is ignored)
``final_returns``   ``[N, P]``  the returns of the last game that ended in the row
``final_lengths``   ``[N]``     its length in decisions
``chance``          ``[N]``     draws from the row's generator so far (deals, shuffles):
                                a differential test re-syncs the reference where it moved
``rng``             ``[N]``     the row's generator state (:mod:`cardgym.vector.random`)
==================  ==========  =====================================================
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from cardgym.errors import shorten
from cardgym.game import Game
from cardgym.vector._numba import MAX_THREADS, numba, serial, start_threads
from cardgym.vector.random import random_actions, seed_states
from cardgym.vector.rows import RowFormat

__all__ = ["MAX_GAMES", "BatchedEngine"]

#: The most games one engine holds (a batch of 4,096 is the usual size; beyond a
#: million rows the arrays alone take gigabytes).
MAX_GAMES = 1 << 20

_BOOKKEEPING = ("to_act", "rewards", "returns", "lengths", "done", "over", "final_returns",
                "final_lengths", "chance")


class BatchedEngine:
    """``num_games`` games of one game with one rule set (``config``), as arrays.

    ``threads`` (default 1) spreads the rows over that many threads: worth it for
    large batches on an otherwise idle machine; with other busy processes on the
    same cores (test workers, subprocess envs) threads wait on each other, so one
    thread per process is the default.

    Steps take one action per row for the seat in ``to_act``; actions must be legal
    (the vector env checks them, see :class:`cardgym.vector.VectorEnv`). Rows are
    independent: a row's games depend on the seed and the row alone.
    """

    #: The game this engine plays (set by the subclass).
    game: ClassVar[Game]
    #: The names of the game's per-row state arrays (set by the subclass; the
    #: arrays of its ``row_format`` when it has one).
    row_fields: ClassVar[tuple[str, ...]] = ()
    #: Where the game's state lies in its row arrays (:mod:`cardgym.vector.rows`),
    #: from which :meth:`export` and :meth:`load` pack it; ``None``: the subclass
    #: writes its own ``export`` and ``load``.
    row_format: ClassVar[RowFormat | None] = None

    def __init__(self, config: Any, num_games: int, threads: int = 1) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) \
                or not 1 <= num_games <= MAX_GAMES:
            raise ValueError(f"num_games must be an integer from 1 to {MAX_GAMES}, got "
                             f"{shorten(num_games)}")
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) \
                or not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1..{MAX_THREADS} (this "
                             f"machine's cores), got {threads!r}")
        #: Threads the kernels spread the rows over (numba's parallel loops).
        self.threads = int(threads)
        start_threads()
        layout = self.game.layout(config)
        self.config = config
        self.layout = layout
        self.num_games = n = int(num_games)
        #: One row: the kernels run serially (:meth:`_kernel`).
        self.serial = n == 1
        self.num_players = p = int(config.num_players)
        self.num_actions = layout.num_actions
        self.obs_dim = int(layout.observation_spec.size)
        self.rng = seed_states(None, n)
        self.to_act = np.zeros(n, np.int64)
        self.rewards = np.zeros((n, p), np.float32)
        self.returns = np.zeros((n, p), np.float32)
        self.lengths = np.zeros(n, np.int64)
        self.done = np.zeros(n, np.bool_)
        self.over = np.ones(n, np.bool_)
        self.final_returns = np.zeros((n, p), np.float32)
        self.final_lengths = np.zeros(n, np.int64)
        self.chance = np.zeros(n, np.int64)
        # What a playout kernel writes: the steps each row had left.
        self._left = np.zeros(n, np.int64)
        fields = self.row_fields
        if self.row_format is not None:
            for name, array in self.row_format.allocate(n).items():
                setattr(self, name, array)
            fields = fields or tuple(self.row_format.dtypes)
        self._allocate()
        #: Every per-row array (the game's ``row_fields`` and the bookkeeping), by
        #: name, the generators' states excepted: what :meth:`fill` copies.
        self.row_arrays = {name: getattr(self, name) for name in (*fields, *_BOOKKEEPING)}
        wrong = [name for name, array in self.row_arrays.items()
                 if not isinstance(array, np.ndarray) or array.ndim < 1 or array.shape[0] != n]
        if wrong:
            raise TypeError(f"{type(self).__name__}.row_fields names {', '.join(wrong)}, "
                            f"which are not arrays of {n} rows")

    # ------------------------------------------------------------ the game's part

    def _allocate(self) -> None:
        """Set up the tables the rows share (and constants of the rule config) as
        other attributes. An engine without a ``row_format`` also allocates its
        state arrays here, one row per game, as the attributes ``row_fields`` names
        (:meth:`fill` copies them); with one, they are allocated already."""
        if self.row_format is None:
            raise NotImplementedError

    def _kernel(self, kernel: Any) -> Any:
        """``kernel``, or in an engine of one row its serial twin
        (:func:`cardgym.vector._numba.serial`): a game's engine picks its kernels
        through this in ``_allocate``."""
        return serial(kernel) if self.serial else kernel

    def _deal(self, rows: NDArray[np.bool_]) -> None:
        """New games in the rows where ``rows`` is set, from each row's generator:
        the game arrays, ``to_act``, and ``rewards``, ``returns``, ``lengths``,
        ``done``, ``over`` cleared; ``chance`` counts the deal."""
        raise NotImplementedError

    def _step(self, actions: NDArray[np.int64], autoreset: bool) -> None:
        """One decision in every row that is not ``over``, with the bookkeeping of
        the module docstring; with ``autoreset``, a row whose game ends is dealt a
        new game in the same call (``done`` set, ``final_*`` kept)."""
        raise NotImplementedError

    def _observe(self, seats: NDArray[np.int64], obs: NDArray[np.float32],
                 masks: NDArray[np.int8]) -> None:
        """Row ``i``'s observation of seat ``seats[i]`` into ``obs[i]`` (exactly the
        AEC env's), and into ``masks[i]`` that seat's legal actions (all zero unless
        the seat is to act in a game not over)."""
        raise NotImplementedError

    def _legal(self, masks: NDArray[np.int8]) -> None:
        """The legal actions of the seat to act in every row into ``masks``; the
        default goes through :meth:`_observe` (a game overrides it when masks alone
        are cheaper)."""
        self._observe(self.to_act, np.empty((self.num_games, self.obs_dim), np.float32), masks)

    def export(self, i: int) -> Any:
        """Game ``i`` as the reference engine's ``State``: the same position, from
        which the AEC env observes and plays on exactly as the batched engine does.
        Its public log holds only the recent events the observations read (the
        batched engine keeps no full history).

        The default reads the fields that ``row_format`` packs, then lets
        :meth:`_export_rest` fill in the rest (the log, say)."""
        row_format = self._row_format()
        rows = self._rows_of(self._row(i))
        state = row_format.export(rows, self.config)
        self._export_rest(rows, state)
        return state

    def final_state(self, i: int) -> Any:
        """Game ``i`` as the reference engine's ``State`` as far as the end of a game
        reads it: :meth:`export` less what the row format leaves to the engine (the
        public record, say), for the game's ``returns`` and ``winners`` once it is
        over, without the cost of rebuilding the record. An engine without a
        ``row_format`` gives its whole :meth:`export`."""
        if self.row_format is None:
            return self.export(i)
        return self.row_format.export(self._rows_of(self._row(i)), self.config)

    def load(self, i: int, state: Any) -> None:
        """Put the reference ``state`` (any reachable state of this config) into row
        ``i``: its bookkeeping restarts (returns and length 0), and ``over`` is set
        when the state's game has ended.

        The default writes the fields that ``row_format`` packs, then lets
        :meth:`_load_rest` write the rest (from the log, say).

        Raises:
            ValueError: ``state`` is not a state of this game and rule config, or
                does not fit a row (a pile longer than a reachable game's); the row
                is left as it was.
            IndexError: ``i`` is not a row.
        """
        row_format = self._row_format()
        if not isinstance(state, row_format.state_type) or state.config != self.config:
            raise ValueError(f"load takes a {self.game.title} state of this engine's rules "
                             f"({self.config}), got {shorten(state)}")
        i = self._row(i)
        rows = self._rows_of(i)
        row_format.load(rows, state)
        self._load_rest(rows, state)
        self._loaded(i, self.game.to_act(state), self.game.is_over(state))

    def _export_rest(self, rows: dict[str, NDArray[Any]], state: Any) -> None:
        """Fill in the fields of ``state`` that the row format leaves to the engine
        (its :class:`~cardgym.vector.rows.Own` columns and ``unkept`` fields), from
        ``rows`` (the row of each array, by name)."""

    def _load_rest(self, rows: dict[str, NDArray[Any]], state: Any) -> None:
        """Write what the row format leaves to the engine into ``rows``, whose packed
        columns hold ``state`` and whose other columns are zero (a state the engine
        would refuse must be refused by the row format, which changes nothing)."""

    def _row_format(self) -> RowFormat:
        if self.row_format is None:
            raise NotImplementedError(f"{type(self).__name__} declares no row_format: it "
                                      "writes its own export and load")
        return self.row_format

    def _rows_of(self, i: int) -> dict[str, NDArray[Any]]:
        """Row ``i`` of each array of the row format, by name (views)."""
        return {name: getattr(self, name)[i] for name in self._row_format().dtypes}

    # ------------------------------------------------------------ the shared part

    def _row(self, i: int) -> int:
        """``i`` if it is the index of a row (``0 <= i < num_games``).

        Raises:
            IndexError: ``i`` is not an integer (a bool or a float neither) or lies
                outside the rows; negative indices do not count from the end.
        """
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise IndexError(f"a row is an integer from 0 to {self.num_games - 1}, got "
                             f"{shorten(i)}")
        if not 0 <= i < self.num_games:
            raise IndexError(f"row {i} is out of range: this engine has rows 0 to "
                             f"{self.num_games - 1}")
        return int(i)

    def _loaded(self, i: int, to_act: int, over: bool) -> None:
        """The bookkeeping of row ``i`` once :meth:`load` has put a state there:
        its seat to act, no rewards, returns and length restarted, ``over`` as the
        state's game."""
        self.to_act[i] = to_act
        self.rewards[i] = 0.0
        self.returns[i] = 0.0
        self.lengths[i] = 0
        self.done[i] = False
        self.over[i] = over

    def _threads(self) -> None:
        """Run the kernels on ``threads`` threads (a setting of the calling thread)."""
        if numba.get_num_threads() != self.threads:
            numba.set_num_threads(self.threads)

    def seed(self, seed: int | None) -> None:
        """Seed every row's generator (``None``: fresh entropy)."""
        self.rng[:] = seed_states(seed, self.num_games)

    def reset(self, seed: int | None = None, rows: NDArray[np.bool_] | None = None) -> None:
        """Deal new games: in every row (seeding first when ``seed`` is given), or in
        the rows of the boolean mask ``rows`` from their generators as they are."""
        self._threads()
        if seed is not None:
            self.seed(seed)
        if rows is None:
            rows = np.ones(self.num_games, np.bool_)
        else:
            rows = np.asarray(rows, np.bool_)
            if rows.shape != (self.num_games,):
                raise ValueError(f"rows must be a boolean mask of shape ({self.num_games},), "
                                 f"got shape {rows.shape}")
        self._deal(rows)

    def step(self, actions: NDArray[np.int64], autoreset: bool = True) -> None:
        """One decision per row: ``actions[i]`` for the seat ``to_act[i]`` (legal;
        ignored in rows that are ``over``). A negative action leaves its row as it
        is (no move, zero rewards, not ``done``), so that callers can move a subset
        of the rows."""
        given = np.asarray(actions)
        if given.shape != (self.num_games,) or not np.issubdtype(given.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_games} integers (an integer array of "
                             f"shape ({self.num_games},)), got shape {given.shape} of dtype "
                             f"{given.dtype}")
        actions = np.ascontiguousarray(given, np.int64)
        if actions.size and int(actions.max()) >= self.num_actions:
            raise ValueError(f"actions must be below {self.num_actions} (the game's actions; "
                             f"negative: hold the row), got {int(actions.max())}")
        self._threads()
        hold = actions < 0
        if not hold.any():
            self._step(actions, bool(autoreset))
            return
        over = self.over.copy()
        self.over |= hold
        self._step(np.where(hold, 0, actions), False)
        self.over[hold] = over[hold]
        self.rewards[hold] = 0.0
        self.done[hold] = False
        ended = self.done & ~hold
        if autoreset and ended.any():
            rewards = self.rewards[ended]
            self._deal(ended)
            self.rewards[ended] = rewards
            self.done[ended] = True

    def observe(self, seats: NDArray[np.int64] | None = None,
                obs: NDArray[np.float32] | None = None,
                masks: NDArray[np.int8] | None = None,
                ) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """Observations ``[N, D]`` and masks ``[N, A]`` of ``seats`` (default: the
        seat to act in each row), written into ``obs`` and ``masks`` when given."""
        n = self.num_games
        seats = self.to_act if seats is None else np.ascontiguousarray(seats, np.int64)
        if seats.shape != (n,) or (seats < 0).any() or (seats >= self.num_players).any():
            raise ValueError(f"seats must be {n} seat numbers in 0..{self.num_players - 1}")
        if obs is None:
            obs = np.empty((n, self.obs_dim), np.float32)
        if masks is None:
            masks = np.empty((n, self.num_actions), np.int8)
        self._threads()
        self._observe(seats, obs, masks)
        return obs, masks

    def legal_masks(self, masks: NDArray[np.int8] | None = None) -> NDArray[np.int8]:
        """The legal actions ``[N, A]`` of the seat to act in every row."""
        if masks is None:
            masks = np.empty((self.num_games, self.num_actions), np.int8)
        self._threads()
        self._legal(masks)
        return masks

    def random_actions(self, masks: NDArray[np.int8],
                       out: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
        """A uniformly random legal action per row, drawn from the rows' generators
        (``-1`` where no action is legal)."""
        if out is None:
            out = np.empty(self.num_games, np.int64)
        self._threads()
        random_actions(masks, self.rng, out)
        return out

    def fill(self, state: Any) -> None:
        """Put the reference ``state`` into every row (as :meth:`load`), each row
        keeping its own generator: the start of ``num_games`` playouts."""
        self.load(0, state)
        for array in self.row_arrays.values():
            array[1:] = array[0]

    def playout(self, max_steps: int | None = None,
                round_end: bool = False) -> NDArray[np.float32]:
        """Random legal play in every row that is not ``over`` until its game ends
        (no automatic reset), or with ``round_end``, in a game played as a match of
        rounds, until the round each row is in ends; returns ``returns`` (the rewards
        since the rows were dealt or loaded). An engine with a playout kernel
        (:meth:`_playout`) plays it in one compiled call, else step by step; the
        actions are the same either way (drawn as :meth:`random_actions` draws them).

        Raises:
            RuntimeError: a row did not stop within ``max_steps`` (default: the
                game's ``max_steps``).
            ValueError: ``round_end`` in an engine without a playout kernel for a
                game of rounds.
        """
        limit = self.game.max_steps if max_steps is None else int(max_steps)
        self._threads()
        if self.has_playout_kernel:
            left = self._left
            self._playout(limit, bool(round_end), left)
            if left.min() < 0:
                raise RuntimeError(f"{self.game.title}: a playout did not end within {limit} "
                                   "steps")
            return self.returns
        if round_end and self.game.rounds is not None:
            raise ValueError(f"{type(self).__name__} has no playout kernel, which playing "
                             "to the end of a round needs")
        masks = np.empty((self.num_games, self.num_actions), np.int8)
        actions = np.empty(self.num_games, np.int64)
        for _ in range(limit):
            if self.over.all():
                return self.returns
            self._legal(masks)
            random_actions(masks, self.rng, actions)
            self._step(actions, False)
        if self.over.all():
            return self.returns
        raise RuntimeError(f"{self.game.title}: a playout did not end within {limit} steps")

    @property
    def has_playout_kernel(self) -> bool:
        """Whether the game's engine plays a playout in one compiled call
        (:meth:`_playout`)."""
        return type(self)._playout is not BatchedEngine._playout  # type: ignore[comparison-overlap]

    def _playout(self, limit: int, round_end: bool, left: NDArray[np.int64]) -> None:
        """The game's playout kernel, if it has one: random legal play in every row
        not ``over``, each action drawn with the row's generator as
        :func:`cardgym.vector.random.random_actions` draws it, with the bookkeeping of
        :meth:`_step` without automatic reset, until the row's game ends (with
        ``round_end``, the round it is in), at most ``limit`` steps; ``left[row]``:
        the steps the row had left of ``limit`` when it stopped, ``-1`` where it did
        not stop. An engine without one leaves this as it is: :meth:`playout` steps."""
        raise NotImplementedError
