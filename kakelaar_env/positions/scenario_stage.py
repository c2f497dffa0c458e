"""The stage in progress of a Karel Kakelaar scenario, and its public record
(:data:`kakelaar_env.positions.position.FORMAT` declares the keys).

The rules fix who decides in a stage (:mod:`kakelaar_env.engine.turns`): the seats with a
decision, the tractor holder first, then clockwise; they commit in that order. So
the seats asked and the one to act are derived, from the hands, the discard piles
and the mother hens just played, and the committed choices (``bids``,
``hen_choices``, ``picks``) must be those of the first seats asked. The record's
bookkeeping (where the newest reveal starts, its digest, the count of public
changes) is recomputed from the log and the stage, as the engine keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cardgym.errors import ScenarioError, shorten
from cardgym.record import NONE, Event
from cardgym.scenario import read_int
from kakelaar_env.engine.cards import CHICKEN_TYPES, HEN, TYPE_NAMES
from kakelaar_env.engine.digest import round_digest
from kakelaar_env.engine.events import BID as BID_EVENT
from kakelaar_env.engine.events import (
    BID_FACE_DOWN,
    BID_FACE_DOWN_EVENTS,
    HEN_FACE_DOWN,
    HEN_FACE_DOWN_EVENTS,
    PICK_FACE_DOWN,
    PICK_FACE_DOWN_EVENTS,
    ROUND,
    ROUND_EVENTS,
    SCORE_EVENTS,
    TOOK,
    WINNER_EVENTS,
    blank_secret,
)
from kakelaar_env.engine.events import HEN as HEN_EVENT
from kakelaar_env.engine.scoring import final_winners, scores
from kakelaar_env.engine.state import (
    BID,
    GAME_OVER,
    HEN_STAGE,
    PHASE_NAMES,
    TAKE_FIRST,
    TAKE_SECOND,
    Phase,
    State,
)
from kakelaar_env.engine.turns import can_bid, must_play_hen, order_from_tractor
from kakelaar_env.positions.position import position_format

#: The keys of the stage in progress (beside ``phase`` and ``last_bids``).
STAGE_KEYS: Final = ("to_act", "bids", "hen_choices", "hen_played", "picks", "winners")
_FACE_DOWN: Final = (BID_FACE_DOWN, HEN_FACE_DOWN, PICK_FACE_DOWN)
_TAKE_STAGES: Final = (TAKE_FIRST, TAKE_SECOND)
_TAKER: Final = ("a seat that played a mother hen ('hen_played') with more than two cards "
                 "in its discard pile (with two or fewer it takes them all without choosing)")
#: Who a stage needs, for the error when nobody has its decision.
_NOBODY: Final = {BID: "a seat holding a card to bid (a worm or a chicken)",
                  HEN_STAGE: "a seat holding a mother hen", TAKE_FIRST: _TAKER,
                  TAKE_SECOND: _TAKER}


def set_stage(state: State, scenario: Mapping[str, Any], log: list[Event] | None) -> None:
    """Set the stage in progress of a dealt ``state`` as ``scenario`` says, with its
    record (``log``; ``None``: the round's start event and the stage's commits).

    Raises:
        ScenarioError: naming the key, what is wrong and what is allowed.
    """
    phase = state.phase
    state.hen_played = _hen_played(state, scenario)
    state.asked = asked = stage_seats(state)
    if phase != GAME_OVER and not asked:
        raise ScenarioError(f"phase {shorten(PHASE_NAMES[phase])} needs {_NOBODY[phase]}; none does")
    committed = _commits(state, scenario)
    where = (f"the seats asked in stage {shorten(PHASE_NAMES[phase])} commit one at a time in the "
             f"order {asked} (the tractor holder first, then clockwise)")
    if committed != asked[:len(committed)]:
        raise ScenarioError(f"{where}, so the committed ones are the first of them; got "
                            f"commits from {committed} ('bids', 'hen_choices', 'picks')")
    if asked and len(committed) == len(asked):
        raise ScenarioError(f"{where} and the stage is revealed after the last commit; every "
                            "one has committed here ('bids', 'hen_choices', 'picks'): leave "
                            "the last one's choice out")
    state.cursor = len(committed)
    set_last_bids(state, scenario)
    state.winners = _winners(state, scenario)
    expected = stage_events(state)
    if log is None:
        log = [ROUND_EVENTS[state.round][state.circle[state.tractor]], *expected]
    else:
        _check_log(state, log, expected)
    state.log = log
    state.current = _to_act(state, scenario)
    state.record_start = reveal_start(log)
    state.round_digest = round_digest(log[state.record_start:], state.num_players)
    state.version = version_of(log, phase)


def stage_seats(state: State) -> list[int]:
    """The seats with a decision in the stage, in commit order (as the engine asked
    them when the stage opened: hands and discard piles do not change until it is
    revealed)."""
    phase = state.phase
    order = order_from_tractor(state)
    if phase == BID:
        return [seat for seat in order if can_bid(state.hands[seat])]
    if phase == HEN_STAGE:
        return [seat for seat in order if state.hands[seat][HEN]]
    if phase in _TAKE_STAGES:
        return [seat for seat in order
                if state.hen_played[seat] and sum(state.discards[seat]) > 2]
    return []


def _hen_played(state: State, scenario: Mapping[str, Any]) -> list[bool]:
    if "hen_played" not in scenario:
        return [False] * state.num_players
    played: list[bool] = position_format(state.config).read(scenario, "hen_played")
    if any(played) and state.phase not in _TAKE_STAGES:
        raise ScenarioError(
            f"hen_played names seats in stage {shorten(PHASE_NAMES[state.phase])}; the mother hens "
            "of a step are revealed after the hen stage and stay shown through the take "
            "stages only (all false otherwise)")
    if sum(played) > state.hens_out:
        raise ScenarioError(f"hen_played names {sum(played)} seats but hens_out is "
                            f"{state.hens_out}; each hen played is out of the game")
    return played


def _commits(state: State, scenario: Mapping[str, Any]) -> list[int]:
    """Set the committed choices; the seats that have committed in this stage, in
    the stage's order."""
    n, phase, asked = state.num_players, state.phase, state.asked
    form = position_format(state.config)
    bids = form.read(scenario, "bids", [NONE] * n)
    choices = form.read(scenario, "hen_choices", [NONE] * n)
    picks = form.read(scenario, "picks", [[] for _ in range(n)])
    for seat, cards in enumerate(picks):
        if len(cards) > 2:
            raise ScenarioError(f"picks[{seat}] names {len(cards)} cards; a hen player takes "
                                "back two")
    for key, values, stage in (("bids", bids, (BID,)), ("picks", picks, _TAKE_STAGES),
                               ("hen_choices", choices, (HEN_STAGE,))):
        for seat, value in enumerate(values):
            if value in (NONE, []):
                continue
            if phase not in stage:
                raise ScenarioError(f"{key}[{seat}] is set in stage {shorten(PHASE_NAMES[phase])}; "
                                    f"{key} are committed in stage(s) "
                                    f"{[PHASE_NAMES[s] for s in stage]} only (null otherwise)")
            if seat not in asked:
                raise ScenarioError(f"{key}[{seat}] is set, but seat {seat} has no decision "
                                    f"in this stage (the seats asked: {asked})")
    for seat in asked:
        _check_choice(state, seat, bids[seat], choices[seat], picks[seat])
    state.bids, state.hen_choices, state.picks = bids, choices, picks
    if phase == BID:
        return [seat for seat in asked if bids[seat] != NONE]
    if phase == HEN_STAGE:
        return [seat for seat in asked if choices[seat] != NONE]
    return [seat for seat in asked if len(picks[seat]) == (1 if phase == TAKE_FIRST else 2)]


def _check_choice(state: State, seat: int, bid: int, choice: int, picks: list[int]) -> None:
    """``seat``'s committed choice is one the stage offers it."""
    if bid != NONE and not state.hands[seat][bid]:
        raise ScenarioError(f"bids[{seat}] is {TYPE_NAMES[bid]}, which seat {seat} does not "
                            "hold; a bid is a card of the bidder's hand")
    if choice == 0 and must_play_hen(state, seat):
        raise ScenarioError(f"hen_choices[{seat}] is false, but seat {seat} holds only mother "
                            "hens with a round to come: it must play one (true)")
    pile = state.discards[seat]
    for card in set(picks):
        if card == HEN or picks.count(card) > pile[card]:
            raise ScenarioError(f"picks[{seat}] names {TYPE_NAMES[card]} {picks.count(card)} "
                                f"time(s); seat {seat}'s discard pile holds "
                                f"{pile[card] if card != HEN else 0}")
    if state.phase == TAKE_FIRST and len(picks) > 1:
        raise ScenarioError(f"picks[{seat}] names {len(picks)} cards in stage 'take_first'; "
                            "the first pick of each seat is made there (the second in "
                            "'take_second')")
    if state.phase == TAKE_SECOND and not picks:
        raise ScenarioError(f"picks[{seat}] is empty in stage 'take_second'; every seat "
                            "asked made its first pick in 'take_first'")


def set_last_bids(state: State, scenario: Mapping[str, Any]) -> None:
    """``last_bids``: each participant's bid in the last round shared out."""
    if "last_bids" not in scenario:
        return
    count = len(state.circle)
    bids: list[int] = position_format(state.config).read(scenario, "last_bids")
    if state.round == 1 and state.phase == BID and bids != [NONE] * count:
        raise ScenarioError("last_bids must be all null in round 1's bid stage: no round has "
                            "been shared out yet")
    if state.config.robot and bids[2] != NONE:
        if bids[2] not in CHICKEN_TYPES:
            raise ScenarioError(f"last_bids[2] is {TYPE_NAMES[bids[2]]}; the robot bids the "
                                "chickens of its deck only")
        if "robot_discard" in scenario and state.robot_discard[-1:] != [bids[2]]:
            raise ScenarioError(f"last_bids[2] is {TYPE_NAMES[bids[2]]}, but the robot's last "
                                "bid is the last card of robot_discard "
                                f"({[TYPE_NAMES[c] for c in state.robot_discard[-1:]]})")
    state.last_bids = bids


def _winners(state: State, scenario: Mapping[str, Any]) -> tuple[int, ...]:
    """The winners once the game is over (the rules decide), else none."""
    n = state.num_players
    given = None
    if "winners" in scenario:
        value = scenario["winners"]
        items = value if isinstance(value, (list, tuple)) else None
        if items is None:
            raise ScenarioError(f"winners must be a list of seats, got {shorten(value)}")
        given = sorted(read_int(seat, f"winners[{i}]", 0, n - 1) for i, seat in enumerate(items))
    if state.phase != GAME_OVER:
        if given:
            raise ScenarioError(f"winners are decided once the game is over; phase is "
                                f"{shorten(PHASE_NAMES[state.phase])} (give [] or leave it out)")
        return ()
    winners = final_winners(state)
    if given is not None and given != list(winners):
        raise ScenarioError(f"winners {given} do not follow from the hands: the rules give "
                            f"{list(winners)} (the most worms in hand, then the fewest cards)")
    return winners


def _to_act(state: State, scenario: Mapping[str, Any]) -> int:
    """The seat to act: the first seat asked that has not committed; once the game is
    over the last seat that acted (``to_act``, else the record's last commit)."""
    given = (read_int(scenario["to_act"], "to_act", 0, state.num_players - 1)
             if "to_act" in scenario else None)
    if state.phase == GAME_OVER:
        if given is not None:
            return given
        return next((event.actor for event in reversed(state.log) if event.what in _FACE_DOWN),
                    0)
    seat = state.asked[state.cursor]
    if given is not None and given != seat:
        raise ScenarioError(
            f"to_act is {given}, but the rules give seat {seat}: in stage "
            f"{shorten(PHASE_NAMES[state.phase])} the seats {state.asked} commit in this order and "
            f"the first {state.cursor} have committed")
    return seat


def stage_events(state: State) -> list[Event]:
    """The events the stage in progress has logged so far: its face-down commits, in
    order (the scores and winners once the game is over)."""
    phase, asked = state.phase, state.asked
    done = asked[:state.cursor]
    if phase == GAME_OVER:
        return ([SCORE_EVENTS[seat][total] for seat, total in enumerate(scores(state))]
                + [WINNER_EVENTS[seat] for seat in state.winners])
    if phase == BID:
        return [BID_FACE_DOWN_EVENTS[seat][state.bids[seat]] for seat in done]
    if phase == HEN_STAGE:
        return [HEN_FACE_DOWN_EVENTS[seat][state.hen_choices[seat]] for seat in done]
    firsts = asked if phase == TAKE_SECOND else done
    return ([PICK_FACE_DOWN_EVENTS[seat][0][state.picks[seat][0]] for seat in firsts]
            + [PICK_FACE_DOWN_EVENTS[seat][1][state.picks[seat][1]]
               for seat in (done if phase == TAKE_SECOND else [])])


def _check_log(state: State, log: list[Event], expected: list[Event]) -> None:
    """The record agrees with the position: its last round event is this round's, and
    it ends with what the stage in progress has logged."""
    starts = [event for event in log if event.what == ROUND]
    holder = state.circle[state.tractor]
    if starts and (starts[-1].result, starts[-1].target) != (state.round, holder):
        raise ScenarioError(
            f"log: the last round event is round {starts[-1].result} with the tractor at "
            f"{starts[-1].target}; the position is round {state.round} with the tractor at "
            f"{holder}")
    tail = log[len(log) - len(expected):] if expected else []
    if len(tail) != len(expected) or not all(map(_same, tail, expected)):
        what = ("the score of each seat and the winners" if state.phase == GAME_OVER
                else "the face-down commits of the stage in progress, in order (the "
                "choices in 'bids', 'hen_choices', 'picks')")
        raise ScenarioError(f"log must end with {what}: {expected}; it ends with "
                            f"{log[-len(expected):] if expected else []}")


def _same(event: Event, expected: Event) -> bool:
    """``event`` is ``expected``, or it with the secret blanked (a search sample's log)."""
    return event == expected or (event.seen_by == 0 and event == blank_secret(expected))


def reveal_start(log: list[Event]) -> int:
    """The index of the newest bid reveal's first event (0 before the first)."""
    start, previous = 0, None
    for index, event in enumerate(log):
        if event.what == BID_EVENT and previous != TOOK:
            start = index
        previous = event.what
    return start


def version_of(log: list[Event], phase: Phase) -> int:
    """The count of public changes the engine made (``State.version``), from the
    record: per round, its start, the bid stage opened (if anyone bid), the reveal,
    the hen stage opened and revealed, the two take stages opened and revealed, and
    the end of the game; the stage in progress counts as far as it has come."""
    starts = [index for index, event in enumerate(log) if event.what == ROUND]
    bounds = starts + [len(log)]
    rounds = [log[a:b] for a, b in zip(bounds, bounds[1:], strict=False)] or [log]
    return sum(_round_changes({event.what for event in events},
                              phase if index == len(rounds) - 1 else None)
               for index, events in enumerate(rounds))


def _round_changes(kinds: set[int], phase: Phase | None) -> int:
    """Public changes of one round whose record holds events of ``kinds``
    (``phase``: the stage in progress, in the current round)."""
    changes = 1  # the row turned up
    if phase == BID:
        return changes + 1
    changes += (BID_FACE_DOWN in kinds) + 1  # the bid stage opened, the bids revealed
    if phase == HEN_STAGE:
        return changes + 1
    if phase in _TAKE_STAGES:
        return changes + 2 + (1 if phase == TAKE_FIRST else 2)
    changes += 2 * (HEN_EVENT in kinds) + 3 * (PICK_FACE_DOWN in kinds)
    return changes + (phase == GAME_OVER)
