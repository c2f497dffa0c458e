"""Scenarios: the decision at hand (docs/rules/exploding_kittens.md) — the phase, the
seat to act, the pending play, kittens to put back and what resumes after them, and
the expansion's Alter the Future and Garbage Collection under way.

:func:`read_flow` reads these keys into a state whose cards and seats are already read
(:data:`ek_env.positions.position.FORMAT` declares the keys) and checks that they agree:
a phase that needs a pending play has one, a phase that has none has no play pending,
the seat to act is the one the phase asks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from cardgym.errors import ScenarioError, shorten
from ek_env.engine.cards import CARD_NAMES, KITTEN, NOPE, STREAKING, TARGETED
from ek_env.engine.seats import next_alive, valid_offsets
from ek_env.engine.state import (
    ALTER,
    CHOOSE_FIVE,
    FIVE,
    GAME_OVER,
    GARBAGE,
    GIVE,
    INSERT,
    NAME_CARD,
    NO_PLAY,
    NOBODY,
    NOPE_WINDOW,
    PAIR,
    PHASE_NAMES,
    PLAY,
    PLAY_KIND_NAMES,
    RESUME_DRAW,
    RESUME_PLAY,
    RESUME_WINDOW,
    SINGLE,
    TAKE,
    TARGET,
    THREE,
    State,
    combo_kinds,
    pair_kinds,
    single_plays,
)
from ek_env.positions.position import position_format

#: Phases whose decision is the turn holder's.
_HOLDER_PHASES: Final = frozenset((PLAY, CHOOSE_FIVE, NAME_CARD, TAKE, ALTER, TARGET))


def read_flow(state: State, scenario: Mapping[str, Any]) -> None:
    """Read ``phase``, ``pending``, ``kittens_to_insert``, ``resume``, ``to_act`` and
    the expansion's ``explode_queue``, ``alter`` and ``garbage``, and check they agree."""
    config = state.config
    form = position_format(config)
    state.phase = form.read(scenario, "phase", PLAY)
    _read_pending(state, form.read(scenario, "pending"))
    state.held_kitten = form.read(scenario, "kittens_to_insert", 0)
    if config.streaking:
        _read_explode_queue(state, form.read(scenario, "explode_queue", []))
        _read_alter(state, form.read(scenario, "alter"))
        _read_garbage(state, form.read(scenario, "garbage"))
    _read_resume(state, form.read(scenario, "resume"))
    to_act = scenario.get("to_act")
    state.to_act = _default_to_act(state) if to_act is None else form.read(scenario, "to_act")
    _check_in_flight(state)
    if state.phase == GAME_OVER:
        _check_over(state)
    else:
        _check_phase(state)


def _read_pending(state: State, data: dict[str, Any] | None) -> None:
    if data is None:
        return
    if data["kind"] == NO_PLAY:
        raise ScenarioError(f"pending needs 'kind', one of {', '.join(PLAY_KIND_NAMES[1:])}")
    state.pending_kind, state.pending_card = data["kind"], data["card"]
    state.pending_target, state.pending_named = data["target"], data["named"]
    state.pending_five, state.nopes = data["five"], data["nopes"]
    state.window_last = data["window_last"]
    _check_pending(state)


def _check_pending(state: State) -> None:
    """The pending play's own fields: its card, target, named card and five kinds."""
    config, kind, card = state.config, state.pending_kind, state.pending_card
    name = PLAY_KIND_NAMES[kind]
    allowed = {SINGLE: single_plays(config), PAIR: pair_kinds(config),
               THREE: combo_kinds(config) if config.combos else (), FIVE: ()}[kind]
    if kind == FIVE:
        if not config.combos or card >= 0:
            raise ScenarioError("pending.card must be null for five different (which needs "
                                "combos=True)")
    elif card not in allowed:
        names = ", ".join(CARD_NAMES[c] for c in allowed) or "(none: combos=False)"
        raise ScenarioError(f"pending.card of a {name} play must be one of {names}, got "
                            f"{CARD_NAMES[card] if card >= 0 else None}")
    targeted = kind in (PAIR, THREE) or (kind == SINGLE and card in TARGETED)
    if state.pending_target != NOBODY and not targeted:
        what = CARD_NAMES[card] if card >= 0 else "five different"
        raise ScenarioError(f"pending.target must be null: a {name} play of {what} has none")
    if state.pending_target == state.turn_holder:
        raise ScenarioError("pending.target must be another seat than the turn holder")
    if targeted and kind != SINGLE and state.pending_target == NOBODY:
        raise ScenarioError(f"pending.target: a {name} play needs its target")
    if state.pending_named >= 0 and kind != THREE:
        raise ScenarioError("pending.named is the card named in three of a kind; null otherwise")
    five = state.pending_five
    if five and (kind != FIVE or len(five) > 5 or five != sorted(set(five))
                 or any(c not in combo_kinds(config) for c in five)):
        raise ScenarioError("pending.five: up to 5 different combo kinds, ascending, for five "
                            f"different only; got {[CARD_NAMES[c] for c in five]}")
    _check_discarded(state)


def _check_discarded(state: State) -> None:
    """The pending play's cards and its Nopes lie on the discard pile."""
    cards: Counter[int] = Counter(state.pending_five)
    copies = {SINGLE: 1, PAIR: 2, THREE: 3}.get(state.pending_kind, 0)
    if copies:
        cards[state.pending_card] += copies
    cards[NOPE] += state.nopes
    for card, count in cards.items():
        if state.discard[card] < count:
            raise ScenarioError(
                f"pending: the play and its Nopes put {count} {CARD_NAMES[card]} on the "
                f"discard pile, which holds {state.discard[card]}")


def _read_explode_queue(state: State, queue: list[int]) -> None:
    state.explode_queue = queue
    for seat in state.explode_queue:
        if not state.alive[seat] or not state.hands[seat][KITTEN]:
            raise ScenarioError(f"explode_queue: seat {seat} holds no exploding_kitten to "
                                "explode")


def _read_alter(state: State, data: dict[str, Any] | None) -> None:
    if data is None:
        return
    left, placed = data["left"], data["placed"]
    if len(left) < 2 or len(left) + len(placed) > 5:
        raise ScenarioError(
            "alter: Alter the Future 5x under way has 2 or more cards left to place "
            f"('left') and at most 5 in all with 'placed'; got {len(left)} and {len(placed)}")
    state.alter_left = sorted(left)
    state.alter_placed = placed


def _read_garbage(state: State, data: dict[str, Any] | None) -> None:
    if data is None:
        return
    queue, cards, givers, lost = data["queue"], data["in"], data["from"], data["lost"]
    if not queue or len(cards) != len(givers) or set(queue) & set(givers):
        raise ScenarioError(
            "garbage: 'queue' names the seats still to put a card in (one at least), 'in' "
            "the cards put in and 'from' who put each (as many), none of them in the queue")
    for seat in queue:
        if not state.alive[seat] or not state.sizes[seat]:
            raise ScenarioError(f"garbage.queue: seat {seat} has no card to put in")
    for seat in lost:
        if (seat, STREAKING) not in zip(givers, cards, strict=True) or not state.hands[seat][KITTEN]:
            raise ScenarioError(f"garbage.lost: seat {seat} did not put in the streaking_kitten "
                                "while holding an exploding_kitten")
    state.garbage_queue, state.garbage_in, state.garbage_from = queue, cards, givers
    state.garbage_lost = lost


def _read_resume(state: State, data: dict[str, Any] | None) -> None:
    if data is None:
        return
    state.resume, state.resume_seat = data["after"], data["seat"]
    if state.resume == RESUME_PLAY and state.resume_seat != NOBODY:
        raise ScenarioError("resume.seat must be null when play resumes (after='play')")
    if state.resume == RESUME_DRAW and state.resume_seat != state.turn_holder:
        raise ScenarioError("resume: after a draw, resume.seat is the drawer, the turn holder "
                            f"({state.turn_holder})")
    if state.resume == RESUME_WINDOW and (state.resume_seat == NOBODY
                                          or state.pending_kind == NO_PLAY):
        raise ScenarioError("resume: a Nope window goes on only with a pending play and "
                            "resume.seat, the seat that was asked")


def _default_to_act(state: State) -> int:
    phase = state.phase
    if phase == NOPE_WINDOW and state.window_last != NOBODY:
        return next_alive(state, state.window_last)
    if phase == GARBAGE and state.garbage_queue:
        return state.garbage_queue[0]
    if phase == GAME_OVER and state.winner != NOBODY:
        return state.winner
    if phase == INSERT and state.resume_seat != NOBODY:
        return state.resume_seat
    if phase == GIVE:
        raise ScenarioError("phase 'give' needs to_act: the seat that gives the turn holder a "
                            "card for its Favor")
    return state.turn_holder


# ------------------------------------------------------------------ checking


def _check_in_flight(state: State) -> None:
    """Kittens to put back, explosions, Alter the Future and Garbage Collection only in
    their own phases."""
    phase = state.phase
    for present, key, own, needed in (
        (state.held_kitten > 0, "kittens_to_insert", INSERT, True),
        (bool(state.explode_queue), "explode_queue", INSERT, False),
        (bool(state.alter_left), "alter", ALTER, True),
        (bool(state.garbage_queue), "garbage", GARBAGE, True),
    ):
        if present and phase != own:
            raise ScenarioError(f"{key}: only phase {shorten(PHASE_NAMES[own])} has it (phase is "
                                f"{shorten(PHASE_NAMES[phase])})")
        if needed and not present and phase == own:
            raise ScenarioError(f"{key}: phase {shorten(PHASE_NAMES[own])} needs it")
    resumes = state.resume != RESUME_PLAY or state.resume_seat != NOBODY
    if resumes and phase not in (INSERT, GAME_OVER):
        raise ScenarioError("resume must be null outside phase 'insert' (nothing waits for an "
                            "explosion to be settled)")


def _check_over(state: State) -> None:
    alive = sum(state.alive)
    if state.winner != NOBODY:
        if alive != 1 or not state.alive[state.winner]:
            raise ScenarioError("winner: the game is won by the one player still in; "
                                f"{alive} are in")
    elif not (state.config.streaking and not state.deck and alive >= 2):
        raise ScenarioError("phase 'game_over' needs a winner (the one player still in), or, "
                            "with the expansion, an empty deck (the dry-deck draw)")


def _check_phase(state: State) -> None:
    """A game going on: living seats on turn and to act, the pending play as the phase
    needs it, the seat to act as the phase asks."""
    phase, holder, to_act = state.phase, state.turn_holder, state.to_act
    if state.winner != NOBODY:
        raise ScenarioError("winner: only a finished game (phase 'game_over') has a winner")
    if sum(state.alive) < 2:
        raise ScenarioError("eliminated: with one player left the game is won: phase "
                            "'game_over', that player the winner")
    if not state.alive[holder]:
        raise ScenarioError(f"turn_holder: seat {holder} is eliminated")
    if not state.alive[to_act]:
        raise ScenarioError(f"to_act: seat {to_act} is eliminated")
    if phase in _HOLDER_PHASES and to_act != holder:
        raise ScenarioError(f"to_act: in phase {shorten(PHASE_NAMES[phase])} the turn holder "
                            f"({holder}) decides, not seat {to_act}")
    _check_pending_phase(state)
    if phase == GIVE and (to_act == holder or state.blind[to_act] or not state.sizes[to_act]):
        raise ScenarioError("to_act: in phase 'give' the Favor's target gives a card: another "
                            "seat than the turn holder, seeing, with cards")
    if phase == GARBAGE and to_act != state.garbage_queue[0]:
        raise ScenarioError(f"to_act: in phase 'garbage' the first seat of garbage.queue "
                            f"({state.garbage_queue[0]}) decides")
    if phase == GARBAGE and state.blind[to_act]:
        raise ScenarioError("garbage.queue: a blind seat's card goes in at random; it is never "
                            "asked")


def _check_pending_phase(state: State) -> None:
    """A play is pending exactly in the phases that need one, in the shape they need."""
    phase, kind = state.phase, state.pending_kind
    window = state.window_last
    interrupted = phase == INSERT and state.resume == RESUME_WINDOW
    needs = phase in (CHOOSE_FIVE, NAME_CARD, NOPE_WINDOW, TARGET) or interrupted
    if needs != (kind != NO_PLAY):
        raise ScenarioError(
            f"pending: phase {shorten(PHASE_NAMES[phase])} " + ("needs a pending play" if needs else
            "has no pending play (choose_five, name_card, nope_window, target have one, and "
            "insert after an interrupted Nope window)"))
    if kind == NO_PLAY:
        return
    wrong = ""
    if phase in (NOPE_WINDOW, INSERT):
        if window == NOBODY or not state.alive[window]:
            wrong = "a Nope window needs window_last, a seat still in"
        elif kind == THREE and state.pending_named < 0:
            wrong = "three of a kind names its card before the window"
        elif kind == FIVE and len(state.pending_five) != 5:
            wrong = "five different has its five kinds before the window"
        elif state.pending_target == NOBODY and state.pending_card in TARGETED:
            wrong = f"{CARD_NAMES[state.pending_card]} has its target before the window"
    elif window != NOBODY or state.nopes:
        wrong = "no Nope window is open yet: window_last null, nopes 0"
    elif phase == CHOOSE_FIVE and (kind != FIVE or len(state.pending_five) >= 5):
        wrong = "choose_five is five different with fewer than 5 kinds chosen"
    elif phase == NAME_CARD and (kind != THREE or state.pending_named >= 0):
        wrong = "name_card is three of a kind whose card is not named yet"
    elif phase == TARGET and (kind != SINGLE or state.pending_card not in TARGETED
                              or state.pending_target != NOBODY
                              or not state.blind[state.turn_holder]
                              or not valid_offsets(state, state.pending_card)):
        wrong = ("target is a blind turn holder's turned-up Favor, Mark or Curse, with no "
                 "target yet and one to choose")
    if wrong:
        raise ScenarioError(f"pending in phase {shorten(PHASE_NAMES[phase])}: {wrong}")
