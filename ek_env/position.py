"""An Exploding Kittens state written as a scenario (docs/positions.md), and the names
both directions share.

:func:`position` writes every key of :mod:`ek_env.scenario` (the expansion's only with
the expansion), in the order of :data:`ek_env.scenario.KEYS`, in JSON types: cards,
phases, kinds of play and resume points by name, seats as ints, ``None`` for "none".
``new_game(config, rng, position(state))`` sets up a state equal to ``state`` and
draws nothing from ``rng``. The small readers below (a card, a list of cards, a seat,
a count) are the inverse of its naming; :mod:`ek_env.scenario`,
:mod:`ek_env.scenario_flow` and :mod:`ek_env.scenario_knowledge` check a scenario with
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, Final

import numpy as np

from cardgym import scenario
from cardgym.errors import shorten
from cardgym.record import log_to_json
from ek_env.cards import CARD_BY_NAME, CARD_NAMES, NUM_KINDS
from ek_env.record import EVENT_NAMES
from ek_env.state import NO_PLAY, NOBODY, PHASE_NAMES, PLAY_KIND_NAMES, RESUME_PLAY, State

#: What goes on once pending explosions are settled, by ``State.resume`` code.
RESUME_NAMES: Final = ("play", "draw", "window")


# ------------------------------------------------------------------ writing


def card_list(counts: Sequence[int]) -> list[str]:
    """Counts per kind as card names, in kind order (one name per card)."""
    return [CARD_NAMES[card] for card, count in enumerate(counts) for _ in range(count)]


def _seat(seat: int) -> int | None:
    return None if seat == NOBODY else int(seat)


def _card(card: int) -> str | None:
    return None if card < 0 else CARD_NAMES[card]


def _pending(state: State) -> dict[str, Any] | None:
    """The announced play, or None when nothing is pending."""
    if (state.pending_kind == NO_PLAY and state.window_last == NOBODY and not state.nopes
            and not state.pending_five and state.pending_card < 0 and state.pending_named < 0
            and state.pending_target == NOBODY):
        return None
    return {
        "kind": PLAY_KIND_NAMES[state.pending_kind],
        "card": _card(state.pending_card),
        "target": _seat(state.pending_target),
        "named": _card(state.pending_named),
        "five": [CARD_NAMES[card] for card in state.pending_five],
        "nopes": state.nopes,
        "window_last": _seat(state.window_last),
    }


def _resume(state: State) -> dict[str, Any] | None:
    if state.resume == RESUME_PLAY and state.resume_seat == NOBODY:
        return None
    return {"after": RESUME_NAMES[state.resume], "seat": _seat(state.resume_seat)}


def _known(state: State) -> list[dict[str, Any]]:
    """Per seat: the depths of the draw pile it knows, and its lower bounds on each hand."""
    n, kinds = state.num_players, state.kinds
    known = []
    for seat in range(n):
        deck = [[depth, CARD_NAMES[card]] for depth, card in enumerate(state.known_deck[seat])
                if card >= 0]
        start = seat * n * kinds
        hands = [card_list(state.known_hands[start + other * kinds: start + (other + 1) * kinds])
                 for other in range(n)]
        known.append({"deck": deck, "hands": hands})
    return known


def _streaking(state: State) -> dict[str, Any]:
    """The expansion's keys: explosions waiting, Alter the Future and Garbage
    Collection under way, blindness and marks."""
    alter = None
    if state.alter_left or state.alter_placed:
        alter = {"left": [CARD_NAMES[c] for c in state.alter_left],
                 "placed": [CARD_NAMES[c] for c in state.alter_placed]}
    garbage = None
    if state.garbage_queue or state.garbage_in or state.garbage_lost:
        garbage = {"queue": state.garbage_queue[:],
                   "in": [CARD_NAMES[c] for c in state.garbage_in],
                   "from": state.garbage_from[:], "lost": state.garbage_lost[:]}
    return {
        "explode_queue": state.explode_queue[:],
        "alter": alter,
        "garbage": garbage,
        "blind": [seat for seat, blind in enumerate(state.blind) if blind],
        "marked": [card_list(marks) for marks in state.marked],
    }


def position(state: State) -> dict[str, Any]:
    """``state`` as a scenario naming everything (JSON types; see :mod:`ek_env.scenario`
    for the keys)."""
    kinds = state.kinds
    data: dict[str, Any] = {
        "hands": [card_list(hand) for hand in state.hands],
        "deck": [CARD_NAMES[card] for card in reversed(state.deck)],
        "discard": card_list(state.discard),
        "out_of_play": card_list(state.out_of_play),
        "eliminated": state.eliminated[:],
        "turn_holder": state.turn_holder,
        "owed_turns": state.owed,
        "attacked": state.attacked,
        "turns_played": state.turns_played,
        "phase": PHASE_NAMES[state.phase],
        "to_act": state.to_act,
        "pending": _pending(state),
        "kittens_to_insert": state.held_kitten,
    }
    streaking = _streaking(state) if state.config.streaking else {}
    if streaking:
        data["explode_queue"] = streaking.pop("explode_queue")
    data["resume"] = _resume(state)
    data.update(streaking)
    data["winner"] = _seat(state.winner)
    data["known"] = _known(state)
    data["ruled_out"] = [[CARD_NAMES[card] for card in range(kinds)
                          if state.ruled_out[seat * kinds + card]]
                         for seat in range(state.num_players)]
    data["log"] = log_to_json(state.log, EVENT_NAMES)
    return data


# ------------------------------------------------------------------ reading


def parse_card(value: object, kinds: int = NUM_KINDS) -> int:
    """A card kind from a name, ``Card`` or kind number, among the first ``kinds``.

    Raises:
        ValueError: naming the value and the card names allowed.
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if 0 <= int(value) < kinds:
            return int(value)
    elif isinstance(value, str):
        key = value.strip().lower().replace(" ", "_").replace("-", "_")
        if CARD_BY_NAME.get(key, kinds) < kinds:
            return CARD_BY_NAME[key]
    raise ValueError(f"{shorten(value)} is not a card of this game; cards: "
                     f"{', '.join(CARD_NAMES[:kinds])}")


def read_cards(value: object, where: str, kinds: int) -> list[int]:
    """A list of cards (names, ``Card``s or kind numbers) as kinds."""
    return scenario.read_cards(value, where, partial(parse_card, kinds=kinds))


def read_card(value: object, where: str, kinds: int) -> int:
    """One card, or :data:`~ek_env.state.NO_CARD` for ``None``."""
    if value is None:
        return -1
    return scenario.read_card(value, where, partial(parse_card, kinds=kinds))

