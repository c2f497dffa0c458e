"""The Power Hungry Pets action table: one ``Discrete`` space for every table size.

Actions name seats as offsets clockwise from the actor (``+0`` is the actor), so one
network can play every seat. Each action stands for a ``(kind, card, seat offset,
guess or depth)`` spec (:data:`ACTION_SPECS`, the form the engine dispatches on);
:func:`action_to_move` and :func:`move_to_action` translate to and from the readable
engine moves of the seat to act.
"""

from __future__ import annotations

from typing import Final

from cardgym.actions import ActionTable
from cardgym.record import NONE
from phpets_env.engine.cards import (
    ANY_PLAYER,
    BOWL_GUESSES,
    CARD_NAMES,
    MAX_DECK,
    MAX_PLAYERS,
    NO_TARGET,
    TARGET_KIND,
    Card,
)
from phpets_env.engine.state import GraveSwap, Move, PlaceCard, Play, State

# Action kinds, as stored in ACTION_SPECS: (kind, card, seat offset, guess or depth), NONE
# where a field does not apply.
PLAY_CARD: Final = 0
KEEP: Final = 1
SWAP: Final = 2
PLACE: Final = 3

_Spec = tuple[int, int, int, int]
_Row = tuple[str, _Spec, str]


def _targeted_plays(card: int) -> list[_Row]:
    """The rows of a card that names a seat: each offset (and each guess for Crystal Bowl)."""
    name = CARD_NAMES[card]
    rows: list[_Row] = []
    first = 0 if TARGET_KIND[card] == ANY_PLAYER else 1
    for offset in range(first, MAX_PLAYERS):
        if card == Card.CRYSTAL_BOWL:
            rows.extend(
                (f"play:{name}:+{offset}:{CARD_NAMES[guess]}", (PLAY_CARD, card, offset, guess),
                 f"play {name} on seat +{offset} clockwise, naming {CARD_NAMES[guess]} ({guess})")
                for guess in BOWL_GUESSES
            )
        else:
            rows.append(
                (f"play:{name}:+{offset}", (PLAY_CARD, card, offset, NONE),
                 f"play {name} on seat +{offset} clockwise" + (" (myself)" if offset == 0 else ""))
            )
    return rows


def _build_actions() -> list[_Row]:
    rows: list[_Row] = []
    for card in map(int, Card):
        name = CARD_NAMES[card]
        kind = TARGET_KIND[card]
        if kind == NO_TARGET:
            rows.append((f"play:{name}", (PLAY_CARD, card, NONE, NONE), f"play {name}"))
            continue
        if kind != ANY_PLAYER:
            rows.append(
                (f"play:{name}:none", (PLAY_CARD, card, NONE, NONE),
                 f"play {name} without effect (no player can be chosen)")
            )
        rows.extend(_targeted_plays(card))
    rows.append(("grave_digger:keep", (KEEP, NONE, NONE, NONE), "keep the hand card"))
    rows.append(("grave_digger:swap", (SWAP, NONE, NONE, NONE), "swap the hand card with the set-aside card"))
    rows.extend(
        (f"mouse_trapper:depth={depth}", (PLACE, NONE, NONE, depth),
         f"put the card back with {depth} cards above it")
        for depth in range(MAX_DECK)
    )
    return rows


ACTION_TABLE: Final = ActionTable(_build_actions())
ACTION_SPECS: Final[tuple[_Spec, ...]] = ACTION_TABLE.moves
NUM_ACTIONS: Final = len(ACTION_TABLE)



def _first_plays(targeted: bool) -> dict[int, int]:
    """Card value -> index of its first play on a seat (``targeted``) or without one."""
    first: dict[int, int] = {}
    for index, (kind, card, offset, _) in enumerate(ACTION_SPECS):
        if kind == PLAY_CARD and (offset != NONE) == targeted:
            first.setdefault(card, index)
    return first


#: Card value -> index of its play without a target (cards that may have none).
PLAY_INDEX: Final = _first_plays(targeted=False)
#: Card value -> index of its first play on a seat (cards that name one).
TARGET_BASE: Final = _first_plays(targeted=True)
KEEP_INDEX: Final = ACTION_TABLE.index("grave_digger:keep")
DEPTH_BASE: Final = ACTION_TABLE.index("mouse_trapper:depth=0")
NUM_GUESSES: Final = len(BOWL_GUESSES)


def action_to_move(state: State, action: int) -> Move:
    """The engine move an action index stands for, for the seat to act."""
    kind, card, offset, extra = ACTION_SPECS[action]
    if kind == PLAY_CARD:
        target = None if offset < 0 else (state.to_act + offset) % state.num_players
        return Play(card, target, extra if card == Card.CRYSTAL_BOWL and offset >= 0 else None)
    if kind in (KEEP, SWAP):
        return GraveSwap(kind == SWAP)
    return PlaceCard(extra)


def move_to_action(state: State, move: Move) -> int:
    """The action index of an engine move of the seat to act."""
    if isinstance(move, Play):
        kind = TARGET_KIND[move.card]
        if move.target is None or kind == NO_TARGET:
            return PLAY_INDEX[move.card]
        offset = (move.target - state.to_act) % state.num_players
        first = 0 if kind == ANY_PLAYER else 1
        if move.card == Card.CRYSTAL_BOWL:
            return (TARGET_BASE[move.card] + (offset - 1) * NUM_GUESSES
                    + BOWL_GUESSES.index(move.guess))  # type: ignore[arg-type]
        return TARGET_BASE[move.card] + offset - first
    if isinstance(move, GraveSwap):
        return KEEP_INDEX + int(move.swap)
    return DEPTH_BASE + move.depth
