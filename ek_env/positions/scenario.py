"""Scenarios: any position of a game to start from, for tests, tutorials and analysis.

A scenario is a mapping of the keys of the position format
(:data:`ek_env.positions.position.FORMAT`, which declares each key's codec, what it holds
and its default; docs/positions.md shows them): cards by name, ``Card`` or kind number,
seats as ints, ``None`` (JSON null) for "none"; the expansion's keys only with the
Streaking Kittens expansion. :func:`ek_env.positions.position.position` writes every key,
and reading it back gives the same state, drawing nothing from the generator. A scenario
written by hand may leave out every key but ``hands`` and ``deck``; cards no key names
are in the box, out of the game.

This module reads a scenario through the format and checks that its values fit together
under the rules: no kind named more often than the game holds it, the kittens in the
deck and in hands for the players still in, each exploded seat's kitten where
``eliminated_cards`` puts it, the stage in progress (:mod:`ek_env.positions.scenario_flow`)
and what the seats know (:mod:`ek_env.positions.scenario_knowledge`). The state must then
pass :func:`ek_env.engine.invariants.check_invariants` and give the seat to act a legal
move. Every error is a :class:`~cardgym.errors.ScenarioError` naming the key, what is
wrong and what is allowed; a failed scenario changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cardgym.chance import Chance
from cardgym.errors import ScenarioError, shorten
from ek_env.engine.cards import (
    CARD_NAMES,
    KITTEN,
    MAX_DECK,
    MAX_DECK_STREAKING,
    STREAKING,
    composition,
)
from ek_env.engine.invariants import check_invariants
from ek_env.engine.legality import legal_action_mask
from ek_env.engine.state import GAME_OVER, NOBODY, PHASE_NAMES, Config, State
from ek_env.positions.position import FORMAT, parse_card, position_format
from ek_env.positions.scenario_flow import read_flow
from ek_env.positions.scenario_knowledge import read_known, read_log, read_ruled_out

#: The expansion's keys (refused without it).
STREAKING_KEYS: Final = ("explode_queue", "alter", "garbage", "blind", "marked")
#: Every key a scenario may hold, in the order :func:`ek_env.positions.position.position` writes
#: them; ``first_player`` (the old name of ``turn_holder``) is read, never written.
KEYS: Final = tuple(key.name for key in FORMAT)
#: The keys of the base game.
BASE_KEYS: Final = tuple(key for key in KEYS if key not in STREAKING_KEYS)

__all__ = ["BASE_KEYS", "KEYS", "STREAKING_KEYS", "parse_card", "read_scenario"]


def read_scenario(config: Config, scenario: Mapping[str, Any],
                  rng: Chance) -> State:
    """The state a scenario describes (see the module docstring); ``rng`` draws the
    turn holder only, when the scenario names none.

    Raises:
        ScenarioError: the first thing wrong with it, and what is allowed.
    """
    scenario = _check_keys(config, scenario)
    state = State(config)
    _read_cards(state, scenario)
    _read_seats(state, scenario, rng)
    if config.streaking:
        _read_sight(state, scenario)
    read_flow(state, scenario)
    _count_cards(state)
    _check_kittens(state)
    _check_eliminated(state)
    read_known(state, scenario.get("known"))
    form = position_format(config)
    read_ruled_out(state, form.read(scenario, "ruled_out"))
    read_log(state, form.read(scenario, "log", []))
    try:
        check_invariants(state)
    except AssertionError as error:
        raise ScenarioError(f"the scenario is no position the rules allow: {error}") from None
    if state.phase != GAME_OVER and not legal_action_mask(state):
        raise ScenarioError(f"to_act: seat {state.to_act} has no legal move in phase "
                            f"{shorten(PHASE_NAMES[state.phase])}")
    return state


def _check_keys(config: Config, scenario: object) -> Mapping[str, Any]:
    form = position_format(config)
    checked = form.check_keys(scenario, None if config.streaking else lambda unknown: (
        f" ({', '.join(STREAKING_KEYS)} need expansions=('streaking',))"))
    missing = [key for key in ("hands", "deck") if key not in checked]
    if missing:
        raise ScenarioError(f"a scenario needs {' and '.join(missing)}; keys: "
                            f"{', '.join(form.keys)}")
    if "turn_holder" in checked and "first_player" in checked:
        raise ScenarioError("give turn_holder or first_player (its old name), not both")
    return checked


# ------------------------------------------------------------ cards and seats


def _read_cards(state: State, scenario: Mapping[str, Any]) -> None:
    """Hands, the draw pile, the discard pile and the cards out of play (counted
    against the game's cards later, with those in flight)."""
    config = state.config
    form = position_format(config)
    for seat, cards in enumerate(form.read(scenario, "hands")):
        for card in cards:
            state.hands[seat][card] += 1
    state.count_sizes()
    deck = form.read(scenario, "deck")
    max_deck = MAX_DECK_STREAKING if config.streaking else MAX_DECK
    if len(deck) > max_deck:
        raise ScenarioError(
            f"'deck' holds {len(deck)} cards; the draw pile holds at most {max_deck}"
            + (" with the Streaking Kittens expansion" if config.streaking else "")
            + " (the largest pile a game can reach, and the size of the observation's "
            "known_deck and of the insert:depth actions)"
        )
    state.deck = deck[::-1]  # top card last
    for card in form.read(scenario, "discard", []):
        state.discard[card] += 1
    out = form.read(scenario, "out_of_play", [])
    if out and config.eliminated_cards != "out_of_play":
        raise ScenarioError("out_of_play must be empty: cards are set aside only with "
                            "eliminated_cards='out_of_play'")
    for card in out:
        state.out_of_play[card] += 1


def _read_seats(state: State, scenario: Mapping[str, Any], rng: Chance) -> None:
    """Eliminated seats, the turn holder and its turns, the winner."""
    n, form = state.num_players, position_format(state.config)
    eliminated = form.read(scenario, "eliminated", [])
    if len(eliminated) >= n:
        raise ScenarioError(f"eliminated names all {n} seats; at least one player is still in")
    for seat in eliminated:
        if state.sizes[seat]:
            raise ScenarioError(f"hands[{seat}] must be empty: seat {seat} is eliminated")
        state.alive[seat] = False
    state.eliminated = eliminated
    key = "first_player" if "first_player" in scenario else "turn_holder"
    holder = scenario.get(key)
    state.turn_holder = int(rng.integers(n)) if holder is None else form.read(scenario, key)
    state.owed = form.read(scenario, "owed_turns", 1)
    state.attacked = form.read(scenario, "attacked", state.owed > 1)
    state.turns_played = form.read(scenario, "turns_played", 0)
    state.winner = form.read(scenario, "winner", NOBODY)


def _read_sight(state: State, scenario: Mapping[str, Any]) -> None:
    """Blind seats and marked cards (the expansion)."""
    form = position_format(state.config)
    for seat in form.read(scenario, "blind", []):
        if not state.alive[seat]:
            raise ScenarioError(f"blind: seat {seat} is eliminated; only players still in "
                                "can be blind")
        state.blind[seat] = True
    marked = form.read(scenario, "marked")
    if marked is None:
        return
    for seat, cards in enumerate(marked):
        marks = state.marked[seat]
        for card in cards:
            marks[card] += 1
            if marks[card] > state.hands[seat][card]:
                raise ScenarioError(
                    f"marked[{seat}] marks {CARD_NAMES[card]} {marks[card]} times; "
                    f"hands[{seat}] holds {state.hands[seat][card]}"
                )
    state.marks_total = sum(map(sum, state.marked))


def _count_cards(state: State) -> None:
    """Every kind named at most as often as the game holds it; the rest is the box."""
    n, kinds = state.num_players, state.kinds
    named = [0] * kinds
    for pile in (*state.hands, state.discard, state.out_of_play):
        for card in range(kinds):
            named[card] += pile[card]
    for card in state.deck + state.alter_left + state.alter_placed + state.garbage_in:
        named[card] += 1
    named[KITTEN] += state.held_kitten
    counts = composition(n, state.config.streaking)
    for card in range(kinds):
        if named[card] > counts[card]:
            raise ScenarioError(
                f"the scenario names {CARD_NAMES[card]} {named[card]} times; "
                f"the game with {n} players has {counts[card]}"
            )
    state.box = [counts[card] - named[card] for card in range(kinds)]


def _check_kittens(state: State) -> None:
    """Kittens in hands and in play, for the players still in (the base rule: one
    fewer than the players, less those being put back)."""
    alive = sum(state.alive)
    waiting = set(state.explode_queue) | set(state.garbage_lost)
    for seat, hand in enumerate(state.hands):
        held = hand[KITTEN]
        if not held:
            continue
        if not state.config.streaking:
            raise ScenarioError(f"hands[{seat}] holds {held} exploding_kitten; in the base game "
                                "kittens are in the deck, never in a hand")
        if held > 1 or not (hand[STREAKING] or seat in waiting):
            raise ScenarioError(
                f"hands[{seat}] holds {held} exploding_kitten; a hand holds at most one, beside "
                "the streaking_kitten (or while it waits to explode: explode_queue, garbage.lost)")
    in_deck = state.deck.count(KITTEN)
    if not state.config.streaking:
        expected = alive - 1 - state.held_kitten
        if in_deck != expected:
            note = "" if alive == state.num_players and not state.held_kitten else (
                f" (players still in: {alive}, less {state.held_kitten} kitten(s) to insert)")
            raise ScenarioError(f"the deck must hold players - 1 = {expected} exploding_kitten "
                                f"cards{note}, got {in_deck}")
        return
    limbo = state.alter_left + state.alter_placed + state.garbage_in
    in_play = (in_deck + limbo.count(KITTEN) + sum(hand[KITTEN] for hand in state.hands)
               + state.held_kitten)
    if in_play > alive:
        raise ScenarioError(
            f"the deck and hands hold {in_play} exploding_kitten cards (with those to insert and "
            f"in flight); at most one per player still in ({alive})"
        )


def _check_eliminated(state: State) -> None:
    """Each exploded seat's kitten lies where ``eliminated_cards`` puts it."""
    option = state.config.eliminated_cards
    pile, other = ((state.discard, state.out_of_play) if option == "discard"
                   else (state.out_of_play, state.discard))
    out = len(state.eliminated)
    if other[KITTEN]:
        raise ScenarioError(f"{'discard' if option != 'discard' else 'out_of_play'} holds an "
                            f"exploding_kitten; with eliminated_cards={shorten(option)} an exploded "
                            f"seat's kitten goes to {option}")
    kittens = pile[KITTEN]
    if kittens < out or (not state.config.streaking and kittens != out):
        exactly = "at least " if state.config.streaking else ""
        raise ScenarioError(
            f"{option} holds {kittens} exploding_kitten for {out} eliminated seat(s); each "
            f"exploded seat leaves {exactly}its kitten there (eliminated_cards={shorten(option)})")
