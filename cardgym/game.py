"""The game contract: everything the rest of the library knows about a game.

Each game package exports one :class:`Game` object, ``GAME``, in its ``game``
module, and names it in the ``cardgym.games`` entry-point group of its
distribution::

    [project.entry-points."cardgym.games"]
    my_game = "my_game.game:GAME"

The registry (:mod:`cardgym.registration`) collects them; the environments, the
agents (search, heuristics, training, evaluation), the command line, the docs
generator, the benchmarks and the conformance kit (:mod:`cardgym.testing`) read a
game only through this object. None of them names a game. :func:`check_game` says
what a game still lacks; the conformance tests run it over every registered game.

The engine functions work on the game's own ``State`` (mutable, with ``clone()``)
and its frozen ``Config`` of rule options; randomness comes in as a
generator argument (:data:`cardgym.chance.Chance`: the game's stream, or a numpy
``Generator``). Seats are ints ``0..num_players-1``.

``docs/adding-a-game.md`` walks through writing one.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from cardgym.actions import ActionTable, actions_of
from cardgym.chance import PCG64, SPLITMIX64, Chance
from cardgym.errors import OptionError, shorten
from cardgym.observation import ObservationSpec
from cardgym.record import Event
from cardgym.table import TableSpec

__all__ = ["CAPABILITIES", "BoundGame", "Capability", "Game", "Layout", "Rounds", "StepOutcome",
           "StepRewards", "Variant", "capabilities", "check_game", "lacking", "load",
           "player_count_problem", "player_range"]

Generator = np.random.Generator


class EngineState(Protocol):
    """What the library needs of a game's state: an independent copy."""

    def clone(self) -> Any:
        """A copy that shares no mutable object with the original."""
        ...


@dataclass(frozen=True)
class Layout:
    """The action table, observation spec, mask, dispatch and encoder of one game
    setup: the fast pair ``legal_mask`` / ``apply`` is the rules of the game.

    Attributes:
        action_table: every action, index <-> readable name <-> engine move.
        observation_spec: the named fields of the observation vector.
        legal_mask: state -> the legal actions of the seat to act as a bit mask
            (bit ``i`` set: action ``i`` is legal).
        apply: (state, action, rng) -> None: a legal action of the seat to act,
            applied in place (no legality check: callers check the mask).
        encode: view -> the observation vector of the view's seat.
    """

    action_table: ActionTable[Any]
    observation_spec: ObservationSpec
    legal_mask: Callable[[Any], int]
    apply: Callable[[Any, int, Chance], None]
    encode: Callable[[Any], NDArray[np.float32]]

    @property
    def num_actions(self) -> int:
        """Size of the ``Discrete`` action space."""
        return len(self.action_table)


@dataclass(frozen=True)
class Rounds:
    """The round structure of a game played as a match of rounds, won by the first
    seat to collect a number of tokens (one per round won).

    Attributes:
        round_of: state -> the round number (it moves on when a round ends).
        round_winners: state -> the seats that won the round that just ended.
        tokens: state -> each seat's tokens.
        tokens_to_win: config -> the tokens that win the match, or ``None`` when the
            rewards come per round (then a match between rounds has no value of its
            own for a search to back up).
    """

    round_of: Callable[[Any], int]
    round_winners: Callable[[Any], Sequence[int]]
    tokens: Callable[[Any], tuple[int, ...]]
    tokens_to_win: Callable[[Any], int | None]


class StepOutcome:
    """What an engine step produced beyond moving the game on.

    Attributes:
        rewards: reward per seat for this step, or ``None`` for all zero.
        finished: seats that leave the game with this step.
        game_over: whether the whole game is over.
    """

    __slots__ = ("rewards", "finished", "game_over")

    def __init__(
        self,
        rewards: Sequence[float] | None = None,
        finished: Sequence[int] = (),
        game_over: bool = False,
    ) -> None:
        self.rewards = rewards
        self.finished = finished
        self.game_over = game_over


@dataclass(frozen=True)
class StepRewards:
    """A reward rule paid during the game, step by step (eliminations, rounds won),
    where the default (the game's returns, once it is over) does not fit.

    Attributes:
        mark: state -> what the rule needs to know of the state before a move (the
            round number, how many seats are out), taken before each move.
        outcome: (state, mark) -> after the move, its :class:`StepOutcome` (the
            rewards of the step, the seats that leave, whether the game ended), or
            ``None`` when nothing but the move happened.
        during: config -> whether the rule pays anything before the end under these
            options (``None``: always). Where it does not, the env skips ``mark`` and
            ``outcome`` and pays the returns once the game is over, which the rule's
            last outcome must equal (the step-reward tests check it).
    """

    mark: Callable[[Any], Any]
    outcome: Callable[[Any, Any], StepOutcome | None]
    during: Callable[[Any], bool] | None = None

    def pays_during(self, config: Any) -> bool:
        """Whether the rule pays before the end under ``config``."""
        return self.during is None or bool(self.during(config))


@dataclass(frozen=True)
class Variant:
    """A named option preset (an expansion) the conformance kit treats as a game of
    its own.

    Attributes:
        preset: the options every env of the variant is built with.
        option_sets: further option sets to cover on top of the preset.
    """

    preset: Mapping[str, Any]
    option_sets: tuple[Mapping[str, Any], ...] = ({},)


def load(target: str) -> Any:
    """The object a ``"module:attribute"`` string names."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def _table_moves(layout: Callable[[Any], Layout], state: Any) -> list[Any]:
    """The moves of the seat to act: the action table's moves of the mask's set bits."""
    lay = layout(state.config)
    return [lay.action_table.move(i) for i in actions_of(lay.legal_mask(state))]


def _table_action(layout: Callable[[Any], Layout], state: Any, move: Any) -> int:
    """A move's action index in the action table."""
    return layout(state.config).action_table.index_of_move(move)


@dataclass(frozen=True, kw_only=True)
class Game:
    """One game, as the library sees it: its parts in groups, each group's required
    parts first (:data:`REQUIRED` lists them; every other part has a default, and
    :func:`lacking` says what a game without an optional part goes without).

    Identity:
        name: the short name, ``power_hungry_pets``; the env id is
            ``cardgym/{name}-v{version}``.
        title: the name in words, ``Power Hungry Pets``.
        version: the env version; it moves on with any change of the action or
            observation layout, or of the games a seed deals.
        legacy_versions: older env versions still registered (``cardgym/{name}-v1``
            ...), each playing as ``version`` does but dealing from numpy's PCG64
            generator (:data:`cardgym.chance.PCG64`), as the library's envs did
            before the shared stream; an env of one warns that it is deprecated.
        player_counts: the supported table sizes, ascending.
        env_entry_point: ``"module:function"`` of the AEC env factory
            (``env(num_players=..., **options)``), loaded on first use so that the
            game object stays below its env in the import order.
        parallel_entry_point: the same for a native parallel env, or ``None``.
        rules_page: the game's rules page in the repository, ``docs/rules/NAME.md``.

    Options:
        config: ``config(num_players, **options)`` -> the validated, frozen rule
            options (raises :class:`~cardgym.errors.OptionError` naming what is
            wrong and what is allowed). Defaults are its fields' defaults.
        option_values: per rule option, its allowed values (a tuple) or a
            description of them (a string).

    Rules:
        new_game: ``(config, rng, scenario=None)`` -> a new game (match) state.
        layout: config -> the game's :class:`Layout` for those options: the action
            table, the observation spec and the fast pair ``legal_mask`` / ``apply``
            that is the rules.
        to_act: state -> the seat that decides now.
        is_over: state -> whether the game (match) has ended.
        returns: state -> one final reward per seat.
        winners: state -> the seats that won a finished game.
        step_rewards: the reward rule (:class:`StepRewards`) of a game that pays
            rewards during the game; ``None``: the returns, once it is over.
        reward_bounds: config -> the range of ``returns`` that searches map onto
            ``[0, 1]``.
        rounds: the round structure, or ``None`` for games of one round.
        seats_out: state -> the seats out of the game for good (they leave
            ``env.agents`` when a position is set up); ``None`` when no seat leaves
            before the end.
        max_steps: a game longer than this many actions counts as not ending.

    Information:
        player_view: (state, seat) -> what ``seat`` may know: the only input of
            the encoder and of the seat's rendering.
        resample_hidden: (state, seat, rng) -> a state ``seat`` cannot tell apart
            from ``state``, everything hidden from it dealt anew from ``rng``.
        choice_visibility: (state, action) -> ``(public, parties)``: what the
            table sees of the seat to act choosing ``action`` (see
            :class:`cardgym.testing.GameKit`), written from the rule text.
        log: state -> the public record (:mod:`cardgym.record`), oldest first.
        hidden_move: (state, action) -> whether the move stays hidden from every
            other seat when made; ``None`` when every move is seen by all.
        hidden_choices: (state, seat) -> the choices of other seats that ``seat``
            has not seen (yet), each as ``(chooser, state, action)``: the state the
            chooser decided in, from which ``action`` makes the choice again; for
            searches that weigh a determinisation by how likely a model of the other
            seats makes those choices (``ismcts:reading=...``). ``None`` when the
            game does not list them.
        private_key: (state, seat) -> a hashable summary of what ``seat``
            privately holds; ``None`` when hands are public.

    Positions:
        position: state -> the state as a scenario (JSON types only: dicts with
            string keys, lists, strings, numbers, booleans) from which ``new_game``
            sets up the same state again, drawing nothing from the generator
            (docs/positions.md).
        scenario_keys: the keys a scenario may hold, in the order ``position``
            writes them.
        position_format: config -> the position format
            (:class:`cardgym.position_format.PositionFormat`) ``position`` writes
            with: the structural reading of a scenario's keys and the published JSON
            Schema (:mod:`cardgym.position_schema`) come from it; ``None`` for a game
            that writes positions by hand.
        canonical_state: state -> the same state with its interchangeable labels
            (the ids of identical copies of a card) as a position sets them up, so
            that a state read back from its position equals ``canonical_state`` of
            the original; ``None`` when states have no such labels.

    Presentation:
        render: (state, seat) -> text of the table as ``seat`` sees it, or the
            full table for ``seat=None``.
        describe_event: (event, seat, num_players) -> one event in words, as
            ``seat`` saw it.
        table: the table view (:mod:`cardgym.table`): the table as a seat, a
            spectator or the full view knows it, in JSON types, built from
            ``player_view``; what the pictures and the browser table show.
            Required (:func:`check_game` reports it missing).

    Agents:
        heuristic: ``heuristic(config)`` (the game's checked ``Config``) -> its hand-written
            policy (``act(observation, action_mask, rng)``), or ``None``.
        batched: ``"module:Class"`` of the game's batched engine (a
            :class:`cardgym.vector.BatchedEngine`: many games as arrays, stepped by
            compiled kernels), or ``None``; loaded on first use, like the envs.
            What the class must do (its arrays, its kernels, its randomness, the
            checks it must pass) is in docs/vector.md, "Writing a batched engine
            for a game".
        baseline_players: table sizes with a shipped baseline model.

    Testing:
        invariants: state -> None, raising ``AssertionError`` naming the first
            broken rule invariant (cards conserved, bounds, ...).
        legal_moves, move_to_action: the readable forms of the rules, which the kit
            checks against the mask: the engine moves of the seat to act, and a
            move's action index. By default derived from the mask through the
            action table (``ActionTable.move`` and ``index_of_move``); a game whose
            moves depend on the state (seats counted from the actor) gives its own.
        test_option_sets: rule-option sets the conformance kit covers.
        test_variants: named option presets the kit treats as games of their own
            (an expansion), each with its own option sets.
        test_weights: relative share of fuzz games per player count (default 1).
    """

    # identity
    name: str
    title: str
    version: int
    legacy_versions: tuple[int, ...] = ()
    player_counts: tuple[int, ...]
    env_entry_point: str
    parallel_entry_point: str | None = None
    rules_page: str | None = None
    # options
    config: Callable[..., Any]
    option_values: Mapping[str, tuple[Any, ...] | str]
    # rules
    new_game: Callable[..., Any]
    layout: Callable[[Any], Layout]
    to_act: Callable[[Any], int]
    is_over: Callable[[Any], bool]
    returns: Callable[[Any], list[float]]
    winners: Callable[[Any], frozenset[int]]
    step_rewards: StepRewards | None = None
    reward_bounds: Callable[[Any], tuple[float, float]] = lambda config: (-1.0, 1.0)
    rounds: Rounds | None = None
    seats_out: Callable[[Any], Sequence[int]] | None = None
    max_steps: int = 100_000
    # information
    player_view: Callable[[Any, int], Any]
    resample_hidden: Callable[[Any, int, Generator], Any]
    choice_visibility: Callable[[Any, int], tuple[Hashable, int]]
    log: Callable[[Any], Sequence[Event]] = lambda state: state.log
    hidden_move: Callable[[Any, int], bool] | None = None
    hidden_choices: Callable[[Any, int], Sequence[tuple[int, Any, int]]] | None = None
    private_key: Callable[[Any, int], Hashable] | None = None
    # positions
    position: Callable[[Any], dict[str, Any]]
    scenario_keys: tuple[str, ...] = ()
    position_format: Callable[[Any], Any] | None = None
    canonical_state: Callable[[Any], Any] | None = None
    # presentation
    render: Callable[[Any, int | None], str]
    describe_event: Callable[[Event, int, int], str]
    table: TableSpec | None = None
    # agents
    heuristic: Callable[[Any], Any] | None = None
    batched: str | None = None
    baseline_players: tuple[int, ...] = ()
    # testing
    invariants: Callable[[Any], None]
    legal_moves: Callable[[Any], Sequence[Any]] = None  # type: ignore[assignment]
    move_to_action: Callable[[Any, Any], int] = None  # type: ignore[assignment]
    test_option_sets: tuple[Mapping[str, Any], ...] = ({},)
    test_variants: Mapping[str, Variant] = field(default_factory=dict)
    test_weights: Mapping[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The readable forms of the mask, through the action table, unless given.
        if self.legal_moves is None:
            object.__setattr__(self, "legal_moves", functools.partial(_table_moves, self.layout))
        if self.move_to_action is None:
            object.__setattr__(self, "move_to_action",
                               functools.partial(_table_action, self.layout))

    # ------------------------------------------------------------ derived

    @property
    def env_id(self) -> str:
        """``cardgym/NAME-vVERSION``, the id PettingZoo's registry knows."""
        return f"cardgym/{self.name}-v{self.version}"

    def env_id_of(self, version: int) -> str:
        """The env id of ``version``, ``cardgym/NAME-vVERSION``."""
        return f"cardgym/{self.name}-v{version}"

    @property
    def env_ids(self) -> tuple[str, ...]:
        """The ids of every env version registered (they share the actions and
        observations: a policy of one plays the others)."""
        return tuple(map(self.env_id_of, self.versions))

    @property
    def versions(self) -> tuple[int, ...]:
        """Every env version registered: the legacy ones, then ``version``."""
        return (*sorted(self.legacy_versions), self.version)

    def stream_of(self, version: int | None) -> str:
        """The stream (:data:`cardgym.chance.STREAMS`) an env of ``version`` deals
        from (``None``: the newest version).

        Raises:
            OptionError: ``version`` is not one of :attr:`versions`.
        """
        if version is None or (version == self.version and not isinstance(version, bool)):
            return SPLITMIX64
        if isinstance(version, int) and not isinstance(version, bool) \
                and version in self.legacy_versions:
            return PCG64
        allowed = ", ".join(str(v) for v in self.versions)
        raise OptionError(f"{self.title} has env versions {allowed} (the newest, "
                          f"{self.version}, by default), got version={shorten(version)}")

    @property
    def module(self) -> str:
        """The game's package (where its ``GAME`` lives)."""
        return self.env_entry_point.partition(":")[0].partition(".")[0]

    @property
    def entry_point(self) -> str:
        """The AEC env factory, ``"module:function"`` (PettingZoo's registry form)."""
        return self.env_entry_point

    def __reduce_ex__(self, protocol: Any) -> str | tuple[Any, ...]:
        """A game pickles by reference, as its env module's ``raw_env.game``, so that it
        reaches worker processes whether it came from an entry point or was registered
        at run time (its env module must be importable there). A copy that is not its
        env's own game pickles field by field."""
        try:
            own = game_of_env(self.env_entry_point, self.name)
        except (ImportError, AttributeError, ValueError):
            own = None
        if own is self:
            return (game_of_env, (self.env_entry_point, self.name))
        return super().__reduce_ex__(protocol)

    def make_env(self, **kwargs: Any) -> Any:
        """The AEC env: ``make_env(num_players=..., render_mode=..., **options)``."""
        return load(self.env_entry_point)(**kwargs)

    @property
    def raw_env(self) -> type:
        """The env class (``raw_env``) of the game's env module."""
        module = importlib.import_module(self.env_entry_point.partition(":")[0])
        return module.raw_env  # type: ignore[no-any-return]

    def make_parallel_env(self, **kwargs: Any) -> Any:
        """The native parallel env; ``ValueError`` when the game has none."""
        if self.parallel_entry_point is None:
            raise ValueError(f"{self.title} has no parallel environment")
        return load(self.parallel_entry_point)(**kwargs)

    def make_batched(self, num_games: int, num_players: int, threads: int = 1,
                     **options: Any) -> Any:
        """The batched engine of ``num_games`` games with these options, its kernels
        on ``threads`` threads; ``ValueError`` when the game has none
        (:mod:`cardgym.vector`)."""
        if self.batched is None:
            raise ValueError(f"{self.title} has no batched engine")
        config = self.make_config(num_players, **options)
        return load(self.batched)(config, num_games, threads)

    def option_defaults(self) -> dict[str, Any]:
        """Every rule option with its default (the ``Config`` fields less
        ``num_players``)."""
        return {f.name: f.default for f in dataclasses.fields(self.config)  # type: ignore[arg-type]
                if f.name != "num_players"}

    def check_option_names(self, options: Mapping[str, Any]) -> None:
        """Raise :class:`~cardgym.errors.OptionError` for an option the game does not
        have; the message lists the game's options with their defaults."""
        from cardgym.errors import OptionError

        known = self.option_defaults()
        unknown = [key for key in options if key not in known]
        if unknown:
            listing = ", ".join(f"{key} (default {value!r})" for key, value in known.items())
            names = ", ".join(map(repr, unknown))
            raise OptionError(f"unknown option{'s' if len(unknown) > 1 else ''} {names} for "
                              f"{self.name}; its options: {listing or 'none'}")

    def make_config(self, num_players: int, **options: Any) -> Any:
        """Checked rule options: an unknown option or a bad value is an
        :class:`~cardgym.errors.OptionError` saying what is allowed."""
        self.check_option_names(options)
        return self.config(num_players=num_players, **options)

    def bind(self, num_players: int, options: Mapping[str, Any] | None = None) -> BoundGame:
        """The game at ``num_players`` seats with rule ``options``, checked here once:
        the one object the env, the search, the agents and the batched engine then
        take and trust (:class:`BoundGame`).

        Raises:
            OptionError: a table size the game does not take, an unknown option (the
                message lists the game's options with their defaults) or a value the
                game refuses, each saying what is allowed.
        """
        from cardgym.errors import OptionError

        problem = player_count_problem(self, num_players)
        if problem is not None:
            raise OptionError(problem)
        try:
            config = self.make_config(num_players, **dict(options or {}))
        except OptionError:
            raise
        except (TypeError, ValueError) as error:
            raise OptionError(f"bad option value for {self.name}: {error}") from None
        return BoundGame(self, config)


@dataclass(frozen=True, eq=True)
class BoundGame:
    """One game at one table size with one set of rule options.

    :meth:`Game.bind` checks the options and makes one; from then on the options are
    trusted: the env, the search adapter (:class:`agents.engines.Engine`), the agents
    and the batched engine are all made from it, and none checks them again. It
    pickles as its game and config (a game pickles by reference, see
    :meth:`Game.__reduce_ex__`), so it reaches worker processes, games registered at
    run time included.

    Attributes:
        game: the game.
        config: its frozen rule options (the ``Config``, ``num_players`` included).
    """

    game: Game
    config: Any

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return int(self.config.num_players)

    @property
    def options(self) -> dict[str, Any]:
        """The rule options, by name (every ``Config`` field but ``num_players``)."""
        return {f.name: getattr(self.config, f.name) for f in dataclasses.fields(self.config)
                if f.name != "num_players"}

    @property
    def changed_options(self) -> dict[str, Any]:
        """The rule options that differ from the game's defaults, by name (how a
        report names the rules a run was played under)."""
        defaults = self.game.option_defaults()
        return {key: value for key, value in self.options.items() if value != defaults[key]}

    @property
    def layout(self) -> Layout:
        """The game's :class:`Layout` under these options."""
        return self.game.layout(self.config)  # type: ignore[no-any-return]

    def new_game(self, rng: Chance, scenario: Any = None) -> Any:
        """A new game (match) state dealt from ``rng`` (or set up as ``scenario``)."""
        return self.game.new_game(self.config, rng, scenario)

    def make_env(self, **env_kwargs: Any) -> Any:
        """The AEC env (``raw_env``) on these rule options; ``env_kwargs`` are the
        env's other arguments (``render_mode``, ``render_seat``, ``illegal_action``)."""
        env_class: Any = self.game.raw_env
        return env_class.from_config(self.config, **env_kwargs)

    def make_batched(self, num_games: int, threads: int = 1) -> Any:
        """The batched engine of ``num_games`` games on these options, its kernels on
        ``threads`` threads; ``ValueError`` when the game has none (:mod:`cardgym.vector`)."""
        if self.game.batched is None:
            raise ValueError(f"{self.game.title} has no batched engine")
        return load(self.game.batched)(self.config, num_games, threads)

    def __hash__(self) -> int:
        # A Game holds dicts (unhashable); equal bound games share an env id and config.
        return hash((self.game.env_id, self.config))

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={value!r}" for key, value in self.options.items())
        return f"BoundGame({self.game.name}, {self.num_players} players{', ' if options else ''}{options})"


def player_range(game: Game) -> str:
    """The player counts of ``game`` as text: ``2..6``, or ``2, 4`` when not contiguous."""
    counts = sorted(game.player_counts)
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}..{counts[-1]}" if len(counts) > 1 else str(counts[0])
    return ", ".join(map(str, counts))


def player_count_problem(game: Game, num_players: int) -> str | None:
    """Why ``game`` cannot seat ``num_players``, or ``None`` when it can.

    The one wording of a table size a game does not take, wherever it is checked
    (options, the command line, the training envs, the benchmarks):
    ``karel_kakelaar takes 2..5 players, not 6``.
    """
    if num_players in game.player_counts and not isinstance(num_players, bool):
        return None
    return f"{game.name} takes {player_range(game)} players, not {num_players}"


#: The parts a game must fill (the rest have defaults).
REQUIRED = tuple(f.name for f in dataclasses.fields(Game)
                 if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)


@dataclass(frozen=True)
class Capability:
    """An optional part of the contract, and what the library does with it."""

    part: str
    gives: str


#: The optional parts whose absence takes something away, in the order of the
#: contract, with what each makes available (:func:`lacking`).
CAPABILITIES: tuple[Capability, ...] = (
    Capability("position_format", "the published JSON Schema of its positions "
               "(python -m cardgym.position_schema)"),
    Capability("hidden_choices", "ismcts:reading=heuristic|policy (samples weighed by a model "
               "of the other seats' hidden choices)"),
    Capability("parallel_entry_point", "a native parallel env (Game.make_parallel_env; "
               "PettingZoo's aec_to_parallel works without it)"),
    Capability("batched", "the batched engine: cardgym.vector.make, train, eval and arena "
               "--vector, ismcts:rollout=batched"),
    Capability("heuristic", "the heuristic agent, and ismcts prior=heuristic (the default), "
               "rollout=heuristic and reading=heuristic"),
)


def capabilities(game: Game) -> dict[str, bool]:
    """Whether the game has each optional part :data:`CAPABILITIES` names, by part."""
    return {capability.part: bool(getattr(game, capability.part))
            for capability in CAPABILITIES}


def lacking(game: Game) -> list[str]:
    """The optional parts ``game`` lacks, one line each, with what is therefore not
    available (empty: it has them all). Not errors: :func:`check_game` lists those."""
    have = capabilities(game)
    return [f"{capability.part}: not given, so not available: {capability.gives}"
            for capability in CAPABILITIES if not have[capability.part]]


def check_game(game: Game) -> list[str]:
    """What ``game`` lacks or gets wrong, one line each (empty: it fulfils the
    contract as far as can be seen without playing it; the conformance kit plays it).
    """
    if not isinstance(game, Game):
        return [f"{game!r} is not a cardgym.game.Game"]
    return [*_identity_problems(game), *_option_problems(game), *_layout_problems(game)]


#: Required parts that are data, not functions.
_DATA = frozenset({"name", "title", "env_entry_point", "player_counts", "option_values",
                   "version"})


def _identity_problems(game: Game) -> list[str]:
    problems = []
    if not game.name.isidentifier() or game.name != game.name.lower():
        problems.append(f"name {game.name!r} must be a lower-case identifier")
    counts = game.player_counts
    if not counts or list(counts) != sorted(set(counts)) or counts[0] < 1:
        problems.append(f"player_counts {counts!r} must be ascending positive ints")
    problems += [f"{name} must be callable, got {getattr(game, name)!r}"
                 for name in REQUIRED if name not in _DATA and not callable(getattr(game, name))]
    try:
        if not callable(load(game.env_entry_point)):
            problems.append(f"env_entry_point {game.env_entry_point!r} is not callable")
    except (ImportError, AttributeError, ValueError) as error:
        problems.append(f"env_entry_point {game.env_entry_point!r} does not load: {error}")
    if game.table is None:
        problems.append("table is missing: give a cardgym.table.TableSpec (the table "
                        "view of a seat, a spectator and the full table; docs/table-view.md)")
    elif not isinstance(game.table, TableSpec):
        problems.append(f"table must be a cardgym.table.TableSpec, got {game.table!r}")
    if not game.scenario_keys:
        problems.append("scenario_keys is empty: list the keys a scenario may hold")
    if game.rules_page is not None and not game.rules_page.endswith(".md"):
        problems.append(f"rules_page {game.rules_page!r} must name a Markdown file")
    return problems


def _option_problems(game: Game) -> list[str]:
    try:
        defaults = game.option_defaults()
    except TypeError as error:
        return [f"config must be a dataclass of rule options: {error}"]
    problems = []
    missing = sorted(set(defaults) - set(game.option_values))
    extra = sorted(set(game.option_values) - set(defaults))
    if missing:
        problems.append(f"option_values lacks {', '.join(missing)}")
    if extra:
        problems.append(f"option_values names options the config lacks: {', '.join(extra)}")
    for options in game.test_option_sets:
        try:
            game.make_config(game.player_counts[0], **options)
        except Exception as error:  # noqa: BLE001 (reported, not raised)
            problems.append(f"test option set {dict(options)!r} is refused: {error}")
    return problems


def _layout_problems(game: Game) -> list[str]:
    problems = []
    for count in game.player_counts:
        try:
            layout = game.layout(game.make_config(count))
        except Exception as error:  # noqa: BLE001 (reported, not raised)
            problems.append(f"the default options with {count} players fail: {error!r}")
            continue
        if not isinstance(layout, Layout):
            problems.append(f"layout({count} players) is not a cardgym.game.Layout")
    return problems


def game_of_env(entry_point: str, name: str) -> Game:
    """The :class:`Game` of the env module of ``entry_point`` (its ``raw_env.game``),
    which must be named ``name``: how a game is unpickled.

    Raises:
        ValueError: that module's env plays another game.
    """
    module = importlib.import_module(entry_point.partition(":")[0])
    game: Game = module.raw_env.game
    if game.name != name:
        raise ValueError(f"the env of {entry_point} plays {game.name}, not {name}")
    return game
