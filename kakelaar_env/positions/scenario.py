"""Scenarios: any position of a Karel Kakelaar game, for tests, tutorials and analysis.

A scenario is a mapping of the keys of the position format
(:data:`kakelaar_env.positions.position.FORMAT`, which declares each key's codec, what it
holds and its default; docs/positions.md shows them): cards by name (``"worm_5"``,
``"w5"`` or ``5``; ``"chicken_3"`` or ``"c3"``; ``"hen"``), seats as ints; with two
players the robot chicken is participant ``2``. What a scenario leaves out is dealt at
random from the cards it does not account for, or takes its default.
:func:`kakelaar_env.positions.position.position` writes a state as a scenario that names
everything (and draws nothing from the generator when read back).

This module reads a scenario through the format and checks that its values fit together
under the rules: every worm and mother hen in one place and each seat's chickens its own
(:mod:`kakelaar_env.positions.scenario_cards`), pile sizes for the round and stage, and the
stage in progress with its record (:mod:`kakelaar_env.positions.scenario_stage`). Derived,
never keys: the seats asked in the stage and their order, the cards nobody has seen, and
the record's bookkeeping. No seat may come to hold more than a dealt game allows, counting
one card won in each row left (the observation's bounds). If ``phase`` is left out and no
seat holds a card to bid, the round goes on as in a dealt game: the bids are revealed at
once. Every error is a :class:`~cardgym.errors.ScenarioError` saying what was wrong and
what is allowed; a failed scenario changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardgym.chance import Chance
from cardgym.errors import ScenarioError, shorten
from cardgym.position_format import PositionFormat
from cardgym.record import Event
from cardgym.scenario import read_int
from kakelaar_env.engine.cards import (
    CHICKEN_TYPES,
    HEN,
    NUM_BIDDABLE,
    ROUNDS,
    count_types,
    row_size,
)
from kakelaar_env.engine.events import ROUND
from kakelaar_env.engine.flow import start_round
from kakelaar_env.engine.invariants import check_invariants
from kakelaar_env.engine.state import BID, GAME_OVER, HEN_STAGE, Config, Phase, State
from kakelaar_env.engine.turns import can_bid
from kakelaar_env.positions.position import FORMAT, position_format
from kakelaar_env.positions.scenario_cards import (
    check_reach,
    deck_top_of,
    owned,
    pool_of,
    robot_chickens_left,
    robot_discard_of,
    robot_top_of,
    robot_won_of,
    row_of,
)
from kakelaar_env.positions.scenario_stage import STAGE_KEYS, set_last_bids, set_stage

#: Every key a scenario may hold, in the order :func:`~kakelaar_env.positions.position.position`
#: writes them (``deck_top`` is read, never written).
KEYS = tuple(key.name for key in FORMAT)
#: Keys of the two-player game only (the robot chicken).
TWO_PLAYER_KEYS = ("circle", "robot_deck", "robot_discard", "robot_won")


@dataclass(frozen=True)
class Setup:
    """The cards and the tractor of a checked scenario, ready to deal.

    Attributes:
        round: the round.
        phase: the stage (``None``: not given; the bid stage).
        first: the round-1 tractor holder, or ``None`` (dealt at random).
        hands: each seat's hand as card types, or ``None`` (the five chickens).
        discards: each seat's discard pile as card types.
        row: the row, position 1 first, or ``None`` (the bid stage: the pile's top).
        deck_top: the named top of the draw pile, top first.
        needed: the size of the whole draw pile (with the row when ``row`` is None).
        pool: the worms and hens placed nowhere, in type order (dealt at random).
        removed: the cards removed unseen, or ``None`` (the pool's rest).
        hens_out: mother hens played so far.
        robot_top: the named top of the robot deck, top first (two players).
        robot_size: the size of the robot deck.
        robot_discard: the robot's revealed bids, oldest first, or ``None``.
        robot_won: the row cards the robot won, oldest first.
        log: the public record, or ``None`` (the default).
    """

    round: int
    phase: Phase | None
    first: int | None
    hands: list[list[int]] | None
    discards: list[list[int]]
    row: list[int] | None
    deck_top: list[int]
    needed: int
    pool: list[int]
    removed: list[int] | None
    hens_out: int
    robot_top: list[int]
    robot_size: int
    robot_discard: list[int] | None
    robot_won: list[int]
    log: list[Event] | None


def load_scenario(config: Config, scenario: Mapping[str, Any], rng: Chance) -> State:
    """A new state set up as ``scenario`` says (see the module docstring), drawing from
    ``rng`` only what the scenario leaves open.

    Raises:
        ScenarioError: naming what is wrong and what is allowed (the generator may
            have been drawn from; the env puts it back).
    """
    setup = check_scenario(config, scenario)
    state = State(config)
    _deal(state, setup, rng)
    if setup.phase is None and not any(map(can_bid, state.hands)):
        _start_without_bids(state, scenario)
    else:
        if setup.row is None and state.phase == BID:
            _turn_row(state)
        set_stage(state, scenario, setup.log)
    try:
        check_invariants(state)
    except AssertionError as error:
        raise ScenarioError(f"the scenario breaks a rule of the game: {error}") from None
    return state


def revealed_rounds(round_: int, phase: Phase) -> int:
    """Rounds whose bids have been revealed: the robot's bids so far (two players)."""
    return round_ - 1 if phase == BID else round_


def check_scenario(config: Config, scenario: Mapping[str, Any]) -> Setup:
    """``scenario``'s cards and tractor checked against the rules and ``config``
    (nothing random yet; the stage in progress is checked once the cards are dealt,
    by :func:`kakelaar_env.positions.scenario_stage.set_stage`).

    Raises:
        ScenarioError: naming what is wrong and what is allowed.
    """
    n, form = config.num_players, position_format(config)
    form.check_keys(scenario, None if n == 2 else _two_player_keys)
    if "deck" in scenario and "deck_top" in scenario:
        raise ScenarioError("give either 'deck' (the whole draw pile) or 'deck_top', not both")
    round_ = form.read(scenario, "round", 1)
    phase = _phase(form, scenario, round_)
    stage = BID if phase is None else phase
    log = form.read(scenario, "log")
    first = _first_holder(scenario, n, round_, log)
    hands, discards = owned(config, scenario)
    row = row_of(form, scenario, stage)
    deck_top, needed = deck_top_of(form, scenario, round_, stage, row is None)
    removed = form.read(scenario, "removed")
    hens_out = form.read(scenario, "hens_out", 0)
    revealed = revealed_rounds(round_, stage)
    robot_won = robot_won_of(form, scenario, revealed)
    named = (deck_top + (row or []) + (removed or []) + robot_won + [HEN] * hens_out
             + [card for cards in (hands or []) + discards for card in cards])
    pool = pool_of(config, named, needed - len(deck_top), removed is not None)
    rows_left = ROUNDS - revealed
    check_reach(config, hands if hands is not None else [list(CHICKEN_TYPES)] * n, discards,
                rows_left, rows_left + (1 if stage == HEN_STAGE else 0))
    robot_size = 15 - revealed
    robot_top = robot_top_of(form, scenario, robot_size, round_, stage)
    robot_discard = robot_discard_of(form, scenario, robot_top, revealed)
    return Setup(round_, phase, first, hands, discards, row, deck_top, needed, pool, removed,
                 hens_out, robot_top, robot_size, robot_discard, robot_won, log)


def _two_player_keys(unknown: list[str]) -> str:
    """What the error for unknown keys adds about the two-player game's keys."""
    robot = [repr(key) for key in unknown if key in TWO_PLAYER_KEYS]
    if not robot:
        return ""
    return (f"; {', '.join(robot)} {'is' if len(robot) == 1 else 'are'} for the two-player "
            "game only (the robot chicken)")


def _phase(form: PositionFormat, scenario: Mapping[str, Any], round_: int) -> Phase | None:
    """The stage named by ``phase`` (``None`` when not given)."""
    if "phase" not in scenario:
        return None
    phase = Phase(form.read(scenario, "phase"))
    if phase == GAME_OVER and round_ != ROUNDS:
        raise ScenarioError(f"phase 'game_over' comes after round {ROUNDS} only; round is "
                            f"{round_}")
    return phase


def _first_holder(scenario: Mapping[str, Any], n: int, round_: int,
                  log: list[Event] | None) -> int | None:
    """The round-1 tractor holder that ``tractor`` (the holder in ``round``), ``circle``
    or the record's last round event imply, or ``None`` (dealt at random)."""
    tractor = scenario.get("tractor")
    if tractor is None and log:
        starts = [event for event in log if event.what == ROUND]
        if starts and starts[-1].result == round_:
            tractor = starts[-1].target
    if n != 2:
        if tractor is None:
            return None
        return (read_int(tractor, "tractor", 0, n - 1) - (round_ - 1)) % n
    turn = (round_ - 1) % 3  # the robot holds the tractor on turn 2: rounds 3, 6, 9
    first = _circle(scenario["circle"]) if "circle" in scenario else None
    if tractor is None:
        return first
    holder = read_int(tractor, "tractor", 0, 2)
    if (holder == 2) != (turn == 2):
        raise ScenarioError(
            f"tractor is {holder} in round {round_}; with two players the robot (2) holds it "
            "in rounds 3, 6 and 9 and a seat (0 or 1) in the others")
    if turn == 2:
        return first
    implied = holder if turn == 0 else 1 - holder
    if first is not None and first != implied:
        raise ScenarioError(f"circle {[first, 1 - first, 2]} gives the tractor to seat "
                            f"{1 - implied} in round {round_}, not to seat {holder} ('tractor')")
    return implied


def _circle(value: object) -> int:
    """The round-1 holder named by ``circle``."""
    if (not isinstance(value, (list, tuple)) or len(value) != 3
            or [read_int(p, "circle", 0, 2) for p in value] not in ([0, 1, 2], [1, 0, 2])):
        raise ScenarioError("circle must be [0, 1, 2] or [1, 0, 2] (the round-1 holder, the "
                            f"other seat, the robot), got {shorten(value)}")
    return int(value[0])


def _deal(state: State, setup: Setup, rng: Chance) -> None:
    """Fill in ``state``'s cards and tractor from a checked setup, dealing what it
    leaves open from ``rng`` (nothing when the scenario names everything)."""
    n = state.num_players
    pool = setup.pool
    if len(pool) > 1:
        pool = [pool[i] for i in rng.permutation(len(pool))]
    missing = setup.needed - len(setup.deck_top)
    state.removed = list(setup.removed) if setup.removed is not None else pool[missing:]
    state.deck = pool[:missing] + setup.deck_top[::-1]  # top card last
    state.row = list(setup.row or [])
    hands = setup.hands if setup.hands is not None else [list(CHICKEN_TYPES)] * n
    state.hands = [bytearray(count_types(cards)) for cards in hands]
    state.discards = [bytearray(count_types(cards)[:NUM_BIDDABLE]) for cards in setup.discards]
    state.unseen = count_types(state.deck + state.removed)
    state.round = setup.round
    state.phase = BID if setup.phase is None else setup.phase
    state.hens_out = setup.hens_out
    first = setup.first if setup.first is not None else int(rng.integers(n))
    if n == 2:
        _deal_robot(state, setup, rng)
        state.circle = (first, 1 - first, 2)
        state.tractor = (setup.round - 1) % 3
    else:
        state.tractor = (first + setup.round - 1) % n


def _deal_robot(state: State, setup: Setup, rng: Chance) -> None:
    """The robot deck (its named top, the rest shuffled beneath), its revealed bids and
    the row cards it won."""
    robot_top, robot_size = setup.robot_top, setup.robot_size
    rest = robot_chickens_left(robot_top + (setup.robot_discard or []))
    if len(rest) > 1:
        rest = [rest[i] for i in rng.permutation(len(rest))]
    below = robot_size - len(robot_top)
    state.robot_deck = (robot_top + rest[:below])[::-1]
    state.robot_discard = (list(setup.robot_discard) if setup.robot_discard is not None
                           else rest[below:])
    state.robot_won = list(setup.robot_won)


def _turn_row(state: State) -> None:
    """The bid stage's row from the top of the draw pile."""
    deck, unseen = state.deck, state.unseen
    state.row = [deck.pop() for _ in range(row_size(state.num_players))]
    for card in state.row:
        unseen[card] -= 1


def _start_without_bids(state: State, scenario: Mapping[str, Any]) -> None:
    """A round begun with no seat holding a card to bid (a scenario without ``phase``):
    it goes on as in a dealt game, the bids revealed at once."""
    given = [key for key in (*STAGE_KEYS, "log") if key in scenario]
    if given:
        raise ScenarioError(
            f"no seat holds a card to bid, so the round's bid stage never opens; {given} "
            "need a 'phase' (the stage the round has come to: hen, take_first, ...)")
    set_last_bids(state, scenario)
    for card in state.row:
        state.unseen[card] += 1
    state.deck += state.row[::-1]
    state.row = []
    start_round(state)
