"""Scenarios: any position of a match, for tests, tutorials, analysis and saved games.

A scenario is a mapping of the keys of the position format
(:data:`phpets_env.positions.position.FORMAT`, which declares each key's codec, what it
holds and its default; docs/positions.md shows them), cards by value 0..10, ``Card`` or
name; :func:`phpets_env.positions.position.position` writes every key but ``deck_top``.
Whatever is left out is dealt at random from the cards not named, or takes its default.
Without ``to_act`` the scenario is a round about to begin (the new round is logged and
``first_player`` begins the first turn); with it the position is taken as it is, nothing
drawn or logged.

This module reads a scenario through the format and checks that its values fit together
under the rules: hand sizes for the phase, every card against the deck
(:func:`phpets_env.positions.position.check_counts`), the seat to act and its phase,
protection, what is ruled out and the winners; ``known`` is read in
:mod:`phpets_env.positions.scenario_known`. A card's id follows from where it lies: the
copies of a value take its ids in the order of
:func:`phpets_env.positions.position.ordered_places`. Every error names the key, what was
wrong and what is allowed; a scenario is checked whole before anything is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from cardgym.chance import Chance
from cardgym.errors import ScenarioError, shorten
from cardgym.position_format import PositionFormat
from cardgym.record import Event
from cardgym.scenario import is_list, read_per_seat
from phpets_env.engine.cards import (
    NUM_VALUES,
    TOTAL_TOKENS,
    Card,
    face_up_aside,
)
from phpets_env.engine.events import NEW_ROUND, NUM_RESULTS, TURN_DRAW, make_event
from phpets_env.engine.flow import open_round
from phpets_env.engine.invariants import check_invariants
from phpets_env.engine.state import (
    GRAVE_DIGGER,
    MATCH_OVER,
    MOUSE_TRAPPER,
    NO_CARD,
    PHASE_NAMES,
    PLAY,
    Config,
    State,
)
from phpets_env.positions.position import FORMAT, MAX_NUMBER, build, check_counts, position_format
from phpets_env.positions.scenario_known import card, cards, read_known
from phpets_env.positions.scenario_setup import Setup

#: Every key a scenario may hold, in the order :func:`~phpets_env.positions.position.position`
#: writes them (``deck_top`` is read, never written).
KEYS = tuple(key.name for key in FORMAT)


def load_scenario(config: Config, scenario: Mapping[str, Any],
                  rng: Chance) -> State:
    """The match a scenario describes: without ``to_act``, a round about to begin, whose
    start player then begins the first turn; with it, the position as it is, drawing
    nothing from ``rng`` for what it names.

    Raises:
        ScenarioError: the scenario is malformed or no position of the game.
    """
    state = State(config)
    if apply_scenario(state, scenario, rng):
        open_round(state, rng)
    check_loaded(state)
    return state


def apply_scenario(state: State, scenario: Mapping[str, Any], rng: Chance) -> bool:
    """Set ``state`` (a new one) up as ``scenario`` says (see the module docstring).

    Returns whether the round begins now (no ``to_act``): the caller then logs the new
    round and begins ``state.round_start``'s turn. Draws from ``rng`` only for what the
    scenario leaves out.

    Raises:
        ScenarioError: saying what was wrong and what is allowed; nothing changed.
    """
    setup = check_scenario(scenario, state.config)
    build(state, setup, rng)
    return setup.to_act is None


def check_loaded(state: State) -> None:
    """The engine's invariants on a state built from a scenario, as a ScenarioError."""
    try:
        check_invariants(state)
    except AssertionError as error:
        raise ScenarioError(f"the scenario is not a position of the game: {error}") from None


# ------------------------------------------------------------------ checking


def check_scenario(scenario: Mapping[str, Any], config: Config) -> Setup:
    """The scenario's setup, every card and count checked against the deck and table.

    Raises:
        ScenarioError: saying what was wrong and what is allowed.
    """
    form = position_format(config)
    form.check_keys(scenario)
    if "deck" in scenario and "deck_top" in scenario:
        raise ScenarioError("give either 'deck' (the whole pile) or 'deck_top', not both")
    n = config.num_players
    to_act = _optional_seat(form, scenario, "to_act")
    phase = _phase(form, scenario, to_act)
    first = _optional_seat(form, scenario, "first_player")
    eliminated = form.read(scenario, "eliminated", [])
    hands = _hands(scenario["hands"], n) if "hands" in scenario else None
    if "eliminated" not in scenario and hands is not None:
        eliminated = [seat for seat in range(n) if not hands[seat]]
    in_round = [seat not in eliminated for seat in range(n)]
    if not any(in_round):
        raise ScenarioError("'eliminated' names every seat: at least one is in the round")
    sizes = _hand_sizes(hands, in_round, to_act, phase)
    cards = _places(form, scenario, phase)
    tokens = _tokens(scenario.get("tokens"), n, config.tokens_to_win, phase == MATCH_OVER)
    protected = form.read(scenario, "protected", [])
    setup = Setup(
        hands=hands, sizes=sizes, first=first, to_act=to_act, phase=phase, in_round=in_round,
        protected=[seat in protected for seat in range(n)], tokens=tokens,
        round_number=form.read(scenario, "round", 1), ruled_out=form.read(scenario, "ruled_out", [0] * n),
        round_winners=tuple(form.read(scenario, "round_winners", [])),
        match_winners=tuple(form.read(scenario, "match_winners", [])),
        log=_log(form.read(scenario, "log", []), n), known=[], **cards,
    )
    check_counts(setup, n)
    _check_turn(setup)
    _check_table(setup, config)
    return replace(setup, known=read_known(scenario.get("known"), setup))


def _optional_seat(form: PositionFormat, scenario: Mapping[str, Any], key: str) -> int | None:
    return None if scenario.get(key) is None else form.read(scenario, key)


def _phase(form: PositionFormat, scenario: Mapping[str, Any], to_act: int | None) -> int:
    if "phase" not in scenario:
        return PLAY
    phase: int = form.read(scenario, "phase")
    if to_act is None:
        raise ScenarioError("'phase' needs 'to_act', the seat that decides in it")
    return phase


def _hands(raw: object, n: int) -> list[list[int]]:
    """Each seat's cards; a bare card is a one-card hand."""
    return [cards(hand, f"hands[{seat}]") if is_list(hand) else [card(hand, f"hands[{seat}]")]
            for seat, hand in enumerate(read_per_seat(raw, "hands", n, lambda item, _: item,
                                                      "hand"))]


def _hand_sizes(hands: list[list[int]] | None, in_round: list[bool], to_act: int | None,
                phase: int) -> list[int]:
    """The number of cards each seat holds, checked against ``hands``."""
    sizes = [1 if alive else 0 for alive in in_round]
    if to_act is not None and phase == PLAY and in_round[to_act]:
        sizes[to_act] = 2
    for seat, size in enumerate(sizes):
        if hands is not None and len(hands[seat]) != size:
            why = ("is out of the round ('eliminated')" if not in_round[seat] else
                   "is to play one of two cards" if size == 2 else
                   "is in the round, before the first draw (no 'to_act')" if to_act is None else
                   "is in the round")
            raise ScenarioError(
                f"hands[{seat}] must hold {('no cards', 'exactly one card', 'two cards')[size]}: "
                f"seat {seat} {why}; got {shorten(hands[seat])}")
    return sizes


def _places(form: PositionFormat, scenario: Mapping[str, Any], phase: int) -> dict[str, Any]:
    """The cards of the rows, set-aside cards, pile and held-out card."""
    n = form.config.num_players
    aside = form.read(scenario, "set_aside", NO_CARD)
    aside_taken = "set_aside" in scenario and aside == NO_CARD
    face_up = form.read(scenario, "face_up")
    if face_up is not None and len(face_up) != face_up_aside(n):
        raise ScenarioError(f"face_up must hold {face_up_aside(n)} cards with {n} players, "
                            f"got {len(face_up)}")
    whole_deck = "deck" in scenario
    pending = form.read(scenario, "pending", NO_CARD)
    if (pending != NO_CARD) != (phase == MOUSE_TRAPPER):
        raise ScenarioError("'pending' (the card Mouse Trapper holds out) is needed in phase "
                            f"mouse_trapper and only there; phase {PHASE_NAMES[phase]}, "
                            f"pending {shorten(scenario.get('pending'))}")
    return {"rows": form.read(scenario, "rows", [[]] * n),
            "aside": None if aside == NO_CARD else aside, "aside_taken": aside_taken,
            "face_up": face_up, "deck_top": form.read(scenario, "deck" if whole_deck else
                                                      "deck_top", []),
            "whole_deck": whole_deck, "pending": None if pending == NO_CARD else pending}


def _tokens(tokens: Any, n: int, target: int, over: bool) -> list[int]:
    if tokens is None:
        return [0] * n
    top = target if over else target - 1
    if (
        not is_list(tokens)
        or len(tokens) != n
        or any(isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t <= top
               for t in tokens)
        or sum(tokens) > TOTAL_TOKENS
    ):
        raise ScenarioError(
            f"tokens must list {n} counts, each 0..{top} (the match is won at {target}), "
            f"at most {TOTAL_TOKENS} in all; got {shorten(tokens)}"
        )
    return [int(t) for t in tokens]


def _log(log: list[Event], n: int) -> list[Event]:
    """The record, each event checked in range and shared as the engine shares it."""
    limits = (("actor", n), ("target", n), ("card", NUM_VALUES), ("result", NUM_RESULTS))
    for i, event in enumerate(log):
        for name, top in limits:
            if not -1 <= getattr(event, name) < top:
                raise ScenarioError(f"log[{i}]: {name} must be -1..{top - 1}, got "
                                    f"{getattr(event, name)}")
        if not 0 <= event.seen_by < 1 << n or not -1 <= event.secret <= MAX_NUMBER:
            raise ScenarioError(f"log[{i}]: seen_by must be a mask of seats 0..{n - 1} and "
                                f"secret -1..{MAX_NUMBER}, got {shorten(event.seen_by)}, "
                                f"{shorten(event.secret)}")
    return [make_event(e.actor, e.what, e.target, e.card, e.result, e.secret, e.seen_by)
            for e in log]


def _check_turn(setup: Setup) -> None:
    """The seat to act, the start player and the phase agree with the table."""
    to_act, phase, in_round = setup.to_act, setup.phase, setup.in_round
    if setup.first is not None and to_act is None and not in_round[setup.first]:
        raise ScenarioError(f"first_player {setup.first} is out of the round ('eliminated') "
                            "and cannot begin its turn")
    if to_act is None or phase == MATCH_OVER:
        return
    if not in_round[to_act]:
        raise ScenarioError(f"to_act {to_act} is out of the round ('eliminated')")
    if setup.protected[to_act]:
        raise ScenarioError(f"to_act {to_act} cannot be 'protected': protection ends when "
                            "its turn begins")
    if setup.ruled_out[to_act]:
        raise ScenarioError(f"ruled_out[{to_act}] must be empty: the seat to act has just drawn")
    for event in reversed(setup.log):
        if event.what == NEW_ROUND or event.what == TURN_DRAW and event.target != to_act:
            raise ScenarioError(f"'log' must end in seat {to_act}'s turn (to_act): its newest "
                                f"turn_draw comes after the newest new_round and is seat "
                                f"{to_act}'s")
        if event.what == TURN_DRAW:
            break
    follow_ups: dict[int, Card] = {GRAVE_DIGGER: Card.GRAVE_DIGGER,
                                   MOUSE_TRAPPER: Card.MOUSE_TRAPPER}
    played = follow_ups.get(phase)
    if played is not None and setup.rows[to_act][-1:] != [played]:
        raise ScenarioError(f"phase {PHASE_NAMES[phase]} resolves the {played.name.lower()} "
                            f"seat {to_act} has just played: rows[{to_act}] must end with it")
    if phase == GRAVE_DIGGER and setup.aside_taken:
        raise ScenarioError("phase grave_digger needs the set-aside card ('set_aside' is None)")


def _check_table(setup: Setup, config: Config) -> None:
    """Protection, the set-aside card, what is ruled out and the winners agree."""
    n, over = config.num_players, setup.phase == MATCH_OVER
    for seat in range(n):
        if not setup.in_round[seat] and (setup.protected[seat] or setup.ruled_out[seat]):
            raise ScenarioError(f"seat {seat} is out of the round: it cannot be 'protected' "
                                "nor have values in 'ruled_out'")
    if any(setup.ruled_out) and setup.hands is None:
        raise ScenarioError("'ruled_out' needs 'hands': a hand dealt at random could hold a "
                            "value the table has ruled out")
    for seat, held in enumerate(setup.hands or []):
        if any(setup.ruled_out[seat] >> value & 1 for value in held):
            raise ScenarioError(f"ruled_out[{seat}] names a value that hands[{seat}] holds")
    if setup.aside_taken and (setup.deck_top or not setup.whole_deck):
        raise ScenarioError("'set_aside' None (Snake Sorcerer took it) needs an empty pile: "
                            "'deck': []")
    if over != bool(setup.match_winners):
        raise ScenarioError("'match_winners' names the winners of a finished match: needed in "
                            "phase match_over and only there")
    if over:
        _check_match_winners(setup, config.tokens_to_win)
    if setup.round_number == 1 and setup.round_winners and not over:
        raise ScenarioError("'round_winners' are the previous round's: round 1 has none")


def _check_match_winners(setup: Setup, target: int) -> None:
    """Every seat at the target wins the match, and only those (and a seat one short of
    it when the supply ran out in a shared win)."""
    short = TOTAL_TOKENS == sum(setup.tokens)
    for seat, tokens in enumerate(setup.tokens):
        if tokens >= target and seat not in setup.match_winners or (
                seat in setup.match_winners and tokens < target - short):
            raise ScenarioError(
                f"match_winners must be the seats at the target ({target}; one short of it "
                f"only when the supply is empty): tokens {setup.tokens}, match_winners "
                f"{list(setup.match_winners)}")
