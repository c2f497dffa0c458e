"""The rules of a Power Hungry Pets decision as actions: what is legal, and doing it.

The bit mask (:func:`legal_action_mask`) and :func:`apply_action` are the rules;
the readable forms over engine moves (:func:`legal_moves`, :func:`apply`) are
derived from them through the action table (:mod:`phpets_env.engine.actions`), with
seats named by their offset clockwise from the seat to act.
"""

from __future__ import annotations

from typing import Final

from cardgym.actions import actions_of
from cardgym.chance import Chance
from cardgym.errors import IllegalMoveError
from phpets_env.engine.actions import (
    ACTION_SPECS,
    DEPTH_BASE,
    KEEP,
    KEEP_INDEX,
    NUM_GUESSES,
    PLAY_CARD,
    PLAY_INDEX,
    SWAP,
    TARGET_BASE,
    action_to_move,
)
from phpets_env.engine.cards import (
    ANY_PLAYER,
    CARD_VALUES,
    MAX_PLAYERS,
    NO_TARGET,
    TARGET_KIND,
    Card,
)
from phpets_env.engine.plays import play, resolve_grave_digger, resolve_mouse_trapper
from phpets_env.engine.state import GRAVE_DIGGER, MOUSE_TRAPPER, PHASE_NAMES, PLAY, Move, State


def open_offsets(state: State) -> int:
    """Seats another player may choose, as a bit mask of offsets 1..n-1 clockwise from
    the seat to act: those still in the round and not protected by Shell Shield."""
    actor = state.to_act
    n = state.num_players
    in_round, protected = state.in_round, state.protected
    offsets = 0
    for offset in range(1, n):
        seat = (actor + offset) % n
        if in_round[seat] and not protected[seat]:
            offsets |= 1 << offset
    return offsets


def choosable_targets(state: State, card: int) -> list[int]:
    """Seats the seat to act may choose with ``card``, clockwise from itself (empty: the
    card has no effect). Snake Sorcerer may always choose its own player (offset 0)."""
    kind = TARGET_KIND[card]
    if kind == NO_TARGET:
        return []
    offsets = open_offsets(state) | (1 if kind == ANY_PLAYER else 0)
    actor, n = state.to_act, state.num_players
    return [(actor + k) % n for k in range(n) if offsets >> k & 1]


def _target_masks(card: int) -> tuple[int, ...]:
    """Action bit mask of ``card``'s plays for every bit set of choosable seat offsets."""
    masks = []
    base = TARGET_BASE[card]
    first = 0 if TARGET_KIND[card] == ANY_PLAYER else 1
    guesses = (1 << NUM_GUESSES) - 1
    for offsets in range(1 << MAX_PLAYERS):
        mask = 0
        for offset in range(first, MAX_PLAYERS):
            if not offsets >> offset & 1:
                continue
            if card == Card.CRYSTAL_BOWL:
                mask |= guesses << (base + (offset - 1) * NUM_GUESSES)
            else:
                mask |= 1 << (base + offset - first)
        if not mask and card in PLAY_INDEX:  # nobody to choose: play without effect
            mask = 1 << PLAY_INDEX[card]
        masks.append(mask)
    return tuple(masks)


#: Per card value, the action bit mask of its plays for each bit set of open offsets.
_PLAY_MASK: Final = tuple(
    _target_masks(card) if TARGET_KIND[card] != NO_TARGET
    else (1 << PLAY_INDEX[card],) * (1 << MAX_PLAYERS)
    for card in Card
)
# Snake Sorcerer may always choose its own player: offset 0.
_SELF_OFFSET: Final = tuple(1 if TARGET_KIND[card] == ANY_PLAYER else 0 for card in Card)
_GRAVE_MASK: Final = 0b11 << KEEP_INDEX


def legal_action_mask(state: State) -> int:
    """Legal actions of the seat to act as a bit mask over action indices (bit i = action i)."""
    phase = state.phase
    if phase == PLAY:
        offsets = open_offsets(state)
        hand = state.hands[state.to_act]
        first, second = CARD_VALUES[hand[0]], CARD_VALUES[hand[1]]
        return (_PLAY_MASK[first][offsets | _SELF_OFFSET[first]]
                | _PLAY_MASK[second][offsets | _SELF_OFFSET[second]])
    if phase == GRAVE_DIGGER:
        return _GRAVE_MASK
    if phase == MOUSE_TRAPPER:
        return ((1 << (len(state.deck) + 1)) - 1) << DEPTH_BASE
    return 0


def apply_action(state: State, action: int, rng: Chance) -> None:
    """Apply a legal action index of the seat to act (the env's and the search's fast
    path: no legality check; :func:`apply` is the checked one)."""
    state.memo = None  # the encoder's cache of the public facts
    kind, card, offset, extra = ACTION_SPECS[action]
    if kind == PLAY_CARD:
        target = None if offset < 0 else (state.to_act + offset) % state.num_players
        play(state, card, target, extra, rng)
    elif kind == KEEP or kind == SWAP:
        resolve_grave_digger(state, kind == SWAP, rng)
    else:
        resolve_mouse_trapper(state, extra, rng)


def legal_action_indices(state: State) -> list[int]:
    """Legal action indices of the seat to act, ascending."""
    return actions_of(legal_action_mask(state))


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act, in action-table order."""
    return [action_to_move(state, action) for action in legal_action_indices(state)]


def apply(state: State, move: Move, rng: Chance) -> None:
    """Apply a legal move of the seat to act, in place.

    Raises:
        IllegalMoveError: naming the move and the phase; the state is unchanged.
    """
    for action in legal_action_indices(state):
        if action_to_move(state, action) == move:
            apply_action(state, action, rng)
            return
    raise IllegalMoveError(
        f"{move!r} is not legal for seat {state.to_act} in phase "
        f"{PHASE_NAMES[state.phase]!r}"
    )
