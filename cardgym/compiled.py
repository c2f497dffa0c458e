"""An env's game on the compiled rules: one row of the game's batched engine.

An AEC env built with ``engine="compiled"`` (or ``"auto"``, the default, where the
game has a batched engine and numba is installed) plays its game in a one-row
batched engine (:mod:`cardgym.vector`): each step is one kernel call, each
observation another, both on the game's stream (:mod:`cardgym.chance`), so that the
game is the one the Python engine plays for the same seed and actions, step for step
(``cardgym.testing.stream.check_engines`` compares the two).

What the kernels do not keep (the whole public record, and with it narration, the
table view, pictures, positions and records) comes from the Python engine when it is
asked for: :attr:`CompiledTable.state` replays the actions taken since the deal (or
since the state was last set) from the same stream. Once it has been asked for in a
game, the replay follows each later step as it is taken, so that the state object a
caller holds stays the game's, as under the Python engine: a caller who never asks
pays nothing, one who asks pays one Python step per step from then on, until the
next deal. Changing the state in place does not reach the kernels; set a state with
the env's ``game_state`` (``_replace_state``), which loads it into the row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.chance import SPLITMIX64, GameRandom, SplitMix64
from cardgym.errors import OptionError
from cardgym.game import Game, StepOutcome, load

__all__ = ["ENGINES", "CompiledTable", "batched_problem", "choose_engine", "compiled_problem"]

#: The values of an env's ``engine`` argument.
ENGINES: Final = ("auto", "compiled", "python")


def compiled_problem(game: Game, stream: str) -> str | None:
    """Why ``game`` cannot run on its compiled rules in an env dealing from
    ``stream``, or ``None`` when it can."""
    if game.batched is None:
        return f"{game.title} has no compiled rules (no batched engine) yet"
    if stream != SPLITMIX64:
        return ("a legacy env version deals from numpy's PCG64 generator, which the "
                "compiled rules do not draw from")
    if game.seats_out is not None:
        return f"{game.title}'s seats can leave during a game, which the compiled env does not follow"
    return batched_problem(game)


def batched_problem(game: Game) -> str | None:
    """Why ``game``'s batched engine cannot play its positions (it has none, numba is
    missing, or ``game`` is a changed copy of the game it was written for), or
    ``None`` when it can."""
    if game.batched is None:
        return f"{game.title} has no compiled rules (no batched engine) yet"
    try:
        engine = load(game.batched)
    except ImportError as error:
        return f"{error}"
    if getattr(engine, "game", game) is not game:
        return (f"the game is a changed copy of {game.title}, and the compiled rules "
                "are the game's own")
    return None


def choose_engine(game: Game, engine: Any, stream: str, overridden: Sequence[str] = ()) -> str:
    """The engine an env of ``game`` on ``stream`` plays with for the ``engine``
    argument: ``"compiled"`` or ``"python"``. ``overridden``: the Python engine's
    hooks that the env's class overrides (a subclass that encodes or applies moves
    its own way plays on the Python engine, whose hooks it changes).

    Raises:
        OptionError: ``engine`` is not one of :data:`ENGINES`, or is ``"compiled"``
            where the game cannot run compiled (the message says why).
    """
    if not isinstance(engine, str) or engine not in ENGINES:
        raise OptionError(f"engine must be one of {', '.join(map(repr, ENGINES))} (default "
                          f"'auto': compiled where the game has compiled rules and numba is "
                          f"installed), got {engine!r}"[:400])
    if engine == "python":
        return "python"
    problem = compiled_problem(game, stream)
    if problem is None and overridden:
        problem = (f"the env's class overrides {', '.join(overridden)}, which the compiled "
                   "rules do not call")
    if problem is None:
        return "compiled"
    if engine == "compiled":
        raise OptionError(f"engine='compiled' is not available: {problem}; use "
                          "engine='python' or 'auto'")
    return "python"


class _RowBits(SplitMix64):
    """The stream of the row: SplitMix64 whose state is the engine's ``rng[0]``.
    Drawing from it or setting it between steps is noted in the table's actions, so
    that the Python replay draws as the row did."""

    __slots__ = ("_states", "_table")

    def __init__(self, states: NDArray[np.uint64], table: CompiledTable) -> None:
        self._states = states
        self._table = table

    def __reduce__(self) -> tuple[Any, ...]:
        # Copied and pickled as the view it is (the slot ``value`` is the property).
        return (_RowBits, (self._states, self._table))

    @property  # type: ignore[override]
    def value(self) -> int:
        return int(self._states[0])

    @value.setter
    def value(self, state: int) -> None:
        self._states[0] = np.uint64(state)
        self._table.stream_moved()


class CompiledTable:
    """One game of ``game`` under ``config`` in a one-row batched engine, with the
    Python replay of it (see the module).

    Args:
        game: the game (it has a batched engine that loads).
        config: its checked rule options.
    """

    def __init__(self, game: Game, config: Any) -> None:
        self.game = game
        self.config = config
        self.layout = game.layout(config)
        self.engine = load(game.batched)(config, 1, 1)  # type: ignore[arg-type]
        engine = self.engine
        self._observe_rows = engine._observe
        self._legal_rows = engine._legal
        self._step_rows = engine._step
        self._obs = np.zeros((1, engine.obs_dim), np.float32)
        self._masks = np.zeros((1, engine.num_actions), np.int8)
        self._seat = np.zeros(1, np.int64)
        self._action = np.zeros(1, np.int64)
        self._no_rewards = bytes(engine.rewards[0].nbytes)
        #: Whether ``_masks[0]`` holds the legal actions of the seat to act now.
        self._legal_fresh = False
        step_rewards = game.step_rewards
        self._pays_during = step_rewards is not None and step_rewards.pays_during(config)
        #: The game's generator: the row's stream.
        self.random = GameRandom(0)
        self.random.bit_generator = _RowBits(engine.rng, self)
        # The Python replay (``None`` until asked for: then the deal of the stream state
        # ``_origin_stream``), what happened since it began (actions, and stream states
        # set between steps), and how far it has come.
        self._origin_stream = 0
        self._since: list[int | tuple[int]] = []
        self._replay: Any = None
        self._replay_random = GameRandom(0)
        self._replayed = 0
        #: Whether the replay follows every step (it has been asked for this game).
        self._following = False
        # The row and seat indices of :meth:`stage_view`, by seats asked for.
        self._stage_seats: dict[tuple[int, ...], tuple[NDArray[np.int64], NDArray[np.int64]]] = {}

    # ------------------------------------------------------------ starting

    def begin(self, stream: Any, make: Callable[[GameRandom], Any] | None) -> Any:
        """A new game, an env's reset: dealt in the row from the stream state
        ``stream`` (a generator's ``bit_generator.state``), or, with ``make``, the
        state ``make`` builds from a generator at that stream state (a scenario read
        by the Python engine), loaded into the row with the stream where ``make``
        left it. Returns that state (``None`` for a deal: the replay is made when
        asked for)."""
        if make is None:
            self.random.bit_generator.state = stream
            self.deal()
            return None
        start = GameRandom(0)
        start.bit_generator.state = stream
        state = make(start)
        self.set_state(state, start.state)
        return state

    def deal(self) -> None:
        """A new game dealt from the row's stream as it stands."""
        self._start(int(self.engine.rng[0]))
        self.engine.reset(rows=np.ones(1, np.bool_))
        self._legal_fresh = False

    def set_state(self, state: Any, stream: int | None = None) -> None:
        """Play on from ``state`` (a state of this game and config), the stream at
        ``stream`` (default: where it stands)."""
        if stream is None:
            stream = int(self.engine.rng[0])
        self.engine.load(0, state)
        self.engine.rng[0] = np.uint64(stream)
        self._start(stream)
        # The state handed in is the replay, and it follows the game (its giver may
        # hold it, as under the Python engine).
        self._replay, self._replayed, self._following = state, 0, True
        self._replay_random.bit_generator.value = stream
        self._legal_fresh = False

    def _start(self, stream: int) -> None:
        self._origin_stream = stream
        self._since = []
        self._replay, self._replayed = None, 0
        self._following = False

    def stream_moved(self) -> None:
        """Note the stream's state now (it was drawn from or set between steps)."""
        self._since.append((int(self.engine.rng[0]),))

    # ------------------------------------------------------------ reading

    def to_act(self) -> int:
        return int(self.engine.to_act[0])

    def observe(self, seat: int) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """``seat``'s observation and mask, new arrays."""
        self._seat[0] = seat
        self._observe_rows(self._seat, self._obs, self._masks)
        self._legal_fresh = seat == self.engine.to_act[0]
        return self._obs[0].copy(), self._masks[0].copy()

    def legal(self) -> NDArray[np.int8]:
        """The legal actions of the seat to act (the table's own array: read it, do not
        keep it)."""
        if not self._legal_fresh:
            self._legal_rows(self._masks)
            self._legal_fresh = True
        return self._masks[0]

    def legal_mask(self) -> int:
        """The legal actions of the seat to act as a bit mask (bit ``i``: action ``i``)."""
        return int.from_bytes(np.packbits(self.legal(), bitorder="little").tobytes(), "little")

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.engine.over[0])

    def stage_view(self, seats: Sequence[int]) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """What a step in which every seat acts at once (a parallel env's) shows each of
        ``seats``: its observation and its mask, one row per seat of two new arrays,
        in one kernel call. For a game whose engine has ``observe_stage`` (the mask of
        a seat that is not the seat to act is the engine's to say)."""
        key = tuple(seats)
        indices = self._stage_seats.get(key)
        if indices is None:
            indices = self._stage_seats[key] = (np.zeros(len(key), np.int64),
                                                np.array(key, np.int64))
        engine = self.engine
        obs = np.empty((len(key), engine.obs_dim), np.float32)
        masks = np.empty((len(key), engine.num_actions), np.int8)
        engine.observe_stage(indices[0], indices[1], obs, masks)  # type: ignore[attr-defined]
        return obs, masks

    # ------------------------------------------------------------ moving

    def apply(self, action: int) -> StepOutcome | None:
        """Take the legal ``action`` of the seat to act; what it paid, as the Python
        engine's step says it."""
        self._action[0] = action
        self._step_rows(self._action, False)
        self._legal_fresh = False
        self._since.append(action)
        if self._following:
            self._catch_up()
        engine = self.engine
        over = bool(engine.over[0])
        if over and not self._pays_during:
            # The game's own returns, exact (the kernels keep float32), from the row's
            # final position.
            return StepOutcome(self.game.returns(engine.final_state(0)), game_over=True)
        rewards = engine.rewards[0]
        if rewards.tobytes() == self._no_rewards:
            return StepOutcome(game_over=True) if over else None
        return StepOutcome([float(value) for value in rewards.tolist()], game_over=over)

    # ------------------------------------------------------------ the replay

    @property
    def state(self) -> Any:
        """The game's state now, from the Python engine (see the module); from now on
        until the next deal, the replay follows every step."""
        self._following = True
        return self._catch_up()

    @property
    def following(self) -> bool:
        """Whether the replay follows every step (the state was asked for since the
        game began), so that reading :attr:`state` costs nothing."""
        return self._following

    def mark(self) -> int:
        """A mark of the game as it stands: :meth:`state_at` gives the state as it
        stood here later in the same game (until the next deal or state set)."""
        return len(self._since)

    def state_at(self, mark: int) -> Any:
        """The replay brought up to ``mark`` (:meth:`mark`), no further: the state as
        it stood there. The replay goes on from it when :attr:`state` is read.

        Raises:
            ValueError: the replay is past ``mark`` already, or ``mark`` is ahead of
                the game.
        """
        if not self._replayed <= mark <= len(self._since):
            raise ValueError(f"the replay is at {self._replayed} of {len(self._since)} "
                             f"moves; it cannot be brought to {mark}")
        return self._catch_up(mark)

    def _catch_up(self, upto: int | None = None) -> Any:
        """The replay, brought up to date (or to ``upto`` moves since its start)."""
        replay = self._replay
        if replay is None:  # a dealt game, first asked for
            self._replay_random.bit_generator.value = self._origin_stream
            replay = self.game.new_game(self.config, self._replay_random)
            self._replay, self._replayed = replay, 0
        since = self._since
        end = len(since) if upto is None else upto
        if self._replayed < end:
            apply, rng = self.layout.apply, self._replay_random
            for item in since[self._replayed:end]:
                if isinstance(item, tuple):
                    rng.bit_generator.value = item[0]
                else:
                    apply(replay, item, rng)
            self._replayed = end
        return replay
