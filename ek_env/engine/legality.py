"""The rules of an Exploding Kittens decision as actions: what is legal
(docs/rules/exploding_kittens.md), and the readable forms.

Legal actions are a bit mask over the action table's indices (bit ``i`` for action
``i``). The mask and :func:`~ek_env.engine.dispatch.apply_action` are the rules; the
readable forms over the moves of :mod:`ek_env.engine.moves` are derived from them through
the action table: :func:`legal_moves` are the moves of the mask's set bits (targets
are the seats the actions' offsets point at), and :func:`apply` checks a move is
among them, then applies its action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from cardgym.chance import Chance
from cardgym.errors import IllegalMoveError
from ek_env.engine.actions import BASE_ACTIONS, STREAKING_ACTIONS, Actions, actions_of
from ek_env.engine.cards import CURSE, NOPE, NUM_KINDS
from ek_env.engine.dispatch import apply_action
from ek_env.engine.moves import Move
from ek_env.engine.seats import target_offsets, valid_offsets
from ek_env.engine.state import (
    ALTER,
    CHOOSE_FIVE,
    GARBAGE,
    GIVE,
    INSERT,
    NAME_CARD,
    NOPE_WINDOW,
    PHASE_NAMES,
    PLAY,
    TAKE,
    TARGET,
    Config,
    State,
    combo_kinds,
    pair_kinds,
)

#: Distinct (combos, targets, hand) keys whose PLAY-phase masks are kept per setup.
_PLAY_CACHE: Final = 1 << 14


def five_choices(state: State) -> list[int]:
    """Kinds that may come next in five different: held, above the last chosen, and
    leaving enough held kinds to complete the five."""
    hand = state.hands[state.turn_holder]
    chosen = state.pending_five
    last = chosen[-1] if chosen else -1
    left = [card for card in combo_kinds(state.config) if card > last and hand[card]]
    needed = 5 - len(chosen)
    return [card for i, card in enumerate(left) if len(left) - i >= needed]


def _kinds_mask(counts: list[int], indices: dict[int, int]) -> int:
    """The actions of ``indices`` whose card has a nonzero count."""
    mask = 0
    for card, index in indices.items():
        if counts[card]:
            mask |= 1 << index
    return mask


def _copies_mask(state: State, seat: int, plain: dict[int, int], marked: dict[int, int]) -> int:
    """Favor and Garbage Collection with the expansion: an unmarked copy of each kind
    held, and a marked copy of each kind with one (docs/rules/README.md: the two are different
    cards)."""
    hand, marks = state.hands[seat], state.marked[seat]
    mask = 0
    for card, index in plain.items():
        count = hand[card]
        if count:
            if count > marks[card]:
                mask |= 1 << index
            if marks[card]:
                mask |= 1 << marked[card]
    return mask


class Legality:
    """The legal actions of one game setup's action table."""

    def __init__(self, actions: Actions) -> None:
        self.actions = actions
        self.num_actions = actions.num_actions
        self._play_masks: dict[tuple[Any, ...], int] = {}
        self._draw_bit = 1 << actions.draw_index
        self._pass_bit = 1 << actions.pass_index
        self._nope_bits = 1 << actions.nope_index | self._pass_bit
        if actions.streaking:
            self._blind_play_bits = self._draw_bit | actions.blind_play_bit
            self._blind_nope_bits = 1 << actions.blind_nope_index | self._pass_bit
        # The phases other than PLAY and NOPE_WINDOW, the common ones.
        self._other_phases: dict[int, Callable[[State], int]] = {
            INSERT: self._insert_mask, GIVE: self._give_mask, CHOOSE_FIVE: self._five_mask,
            NAME_CARD: self._name_mask, TAKE: self._take_mask, ALTER: self._alter_mask,
            GARBAGE: self._garbage_mask, TARGET: self._target_mask,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the setup it belongs to (one shared legality per setup, no caches).
        return legality_named, (self.actions.streaking,)

    def legal_mask(self, state: State) -> int:
        """Legal actions of the seat to act as a bit mask over action indices."""
        phase = state.phase
        seat = state.to_act
        if phase == NOPE_WINDOW:
            if state.blind[seat]:
                return self._blind_nope_bits if state.sizes[seat] else self._pass_bit
            return self._nope_bits if state.hands[seat][NOPE] else self._pass_bit
        if phase == PLAY:
            if state.blind[seat]:
                return self._blind_play_bits if state.sizes[seat] else self._draw_bit
            return self._play_mask(state)
        other = self._other_phases.get(phase)
        return other(state) if other is not None else 0

    def legal_indices(self, state: State) -> list[int]:
        """Legal action indices of the seat to act, ascending."""
        mask = self.legal_mask(state)
        return [i for i in range(self.num_actions) if mask >> i & 1]

    # ------------------------------------------------------------ PLAY

    def _play_mask(self, state: State) -> int:
        """The PLAY phase's mask: a function of ``combos``, the hand and the seats that
        may be chosen (``empty_hand_target`` decides those), so it is cached on them."""
        config = state.config
        targets = target_offsets(state, config.empty_hand_target == "forbidden")
        anyone = target_offsets(state, False)
        key = (config.combos, targets, anyone, *state.hands[state.turn_holder])
        mask = self._play_masks.get(key)
        if mask is None:
            if len(self._play_masks) >= _PLAY_CACHE:
                self._play_masks.clear()
            hand = state.hands[state.turn_holder]
            mask = self._play_masks[key] = (self._singles_mask(hand, targets, anyone)
                                            | self._combos_mask(config, hand, targets, anyone))
        return mask

    def _singles_mask(self, hand: list[int], targets: int, anyone: int) -> int:
        """Drawing and the single cards held (Favor and Mark at ``targets``, Curse at
        ``anyone``)."""
        acts = self.actions
        mask = self._draw_bit
        for card, bit in acts.single_bit.items():
            if hand[card]:
                mask |= bit
        for card, shift in acts.target_shift.items():
            if hand[card]:
                mask |= (anyone if card == CURSE else targets) << shift
        return mask

    def _combos_mask(self, config: Config, hand: list[int], targets: int, anyone: int) -> int:
        """Pairs at ``targets``; with combos, three of a kind at ``anyone`` and five
        different."""
        acts = self.actions
        mask = 0
        for card in pair_kinds(config):
            if hand[card] >= 2:
                mask |= targets << acts.pair_shift[card]
        if config.combos:
            distinct = 0
            for card in acts.choose_index:
                count = hand[card]
                if count:
                    distinct += 1
                    if count >= 3:
                        mask |= anyone << acts.three_shift[card]
            if distinct >= 5:
                mask |= acts.five_bit
        return mask

    # ------------------------------------------------------- other phases

    def _insert_mask(self, state: State) -> int:
        return ((1 << (len(state.deck) + 1)) - 1) << self.actions.insert_base

    def _give_mask(self, state: State) -> int:
        acts = self.actions
        if acts.streaking:
            return _copies_mask(state, state.to_act, acts.give_index, acts.give_marked_index)
        return _kinds_mask(state.hands[state.to_act], acts.give_index)

    def _five_mask(self, state: State) -> int:
        mask = 0
        for card in five_choices(state):
            mask |= 1 << self.actions.choose_index[card]
        return mask

    def _name_mask(self, state: State) -> int:
        return self.actions.name_mask

    def _take_mask(self, state: State) -> int:
        return _kinds_mask(state.discard, self.actions.take_index)

    def _alter_mask(self, state: State) -> int:
        mask = 0
        for card in state.alter_left:
            mask |= 1 << self.actions.alter_index[card]
        return mask

    def _garbage_mask(self, state: State) -> int:
        acts = self.actions
        return _copies_mask(state, state.to_act, acts.garbage_index, acts.garbage_marked_index)

    def _target_mask(self, state: State) -> int:
        return valid_offsets(state, state.pending_card) << self.actions.target_base


BASE_LEGALITY: Final = Legality(BASE_ACTIONS)
STREAKING_LEGALITY: Final = Legality(STREAKING_ACTIONS)


def legality_named(streaking: bool) -> Legality:
    """The legality of the base game, or of the Streaking Kittens expansion."""
    return STREAKING_LEGALITY if streaking else BASE_LEGALITY


def legal_action_mask(state: State) -> int:
    """Legal actions of the seat to act as a bit mask (the state's setup)."""
    legality = STREAKING_LEGALITY if state.kinds > NUM_KINDS else BASE_LEGALITY
    return legality.legal_mask(state)


def legal_action_indices(state: State) -> list[int]:
    """Legal action indices of the seat to act, ascending (the state's setup)."""
    mask = legal_action_mask(state)
    return [action for action in range(mask.bit_length()) if mask >> action & 1]


def legal_moves(state: State) -> list[Move]:
    """The legal moves of the seat to act, in action-table order: the moves of the
    legal mask's set bits."""
    acts = actions_of(state)
    return [acts.action_to_move(state, action) for action in legal_action_indices(state)]


def apply(state: State, move: Move, rng: Chance) -> None:
    """Apply a move of the seat to act.

    Raises:
        IllegalMoveError: if the move is not legal now; the state is unchanged.
    """
    if move not in legal_moves(state):
        raise IllegalMoveError(
            f"{move!r} is not legal for seat {state.to_act} in phase "
            f"{PHASE_NAMES[state.phase]!r}"
        )
    apply_action(state, actions_of(state).move_to_action(state, move), rng)
