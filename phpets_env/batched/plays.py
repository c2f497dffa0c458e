"""A decision applied on one row of the batched engine, as :mod:`phpets_env.engine.plays`
resolves it: a card played (into its player's row, its effect, the event the table
sees), or the follow-up of Grave Digger or Mouse Trapper. Ending the turn is the
caller's (:mod:`~phpets_env.batched.turns`), when the phase is back to playing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.vector._numba import njit
from phpets_env.batched.effects import (
    eliminate,
    forget,
    grave_swap,
    place_card,
    play_battle_bunny,
    play_crystal_bowl,
    play_grave_digger,
    play_jittery_juggler,
    play_mouse_trapper,
    play_not_a_pet,
    play_snake_sorcerer,
    swap_hands,
)
from phpets_env.batched.layout import (
    ACTION_CARD,
    ACTION_EXTRA,
    ACTION_KIND,
    ACTION_OFFSET,
    ASIDE,
    EV_GRAVE,
    EV_PLACE,
    EV_PLAY,
    HAND_LEN,
    HANDS,
    KING,
    KNOWN,
    NO,
    OPT_PLAYERS,
    PHASE,
    PLACE,
    PLAY_PHASE,
    PROTECTED,
    R_KEPT,
    R_NO_EFFECT,
    R_SWAPPED,
    ROW_LEN,
    ROWS,
    SWAP,
    TARGET_KINDS,
    TO_ACT,
    TRAPPED,
    UNSEEN,
    VALUES,
)
from phpets_env.batched.record import log_event, write_event
from phpets_env.engine.cards import NO_TARGET, NUM_CARDS, Card

__all__ = ["follow_up", "play"]

_BOWL, _TRAPPER, _BUNNY = int(Card.CRYSTAL_BOWL), int(Card.MOUSE_TRAPPER), int(Card.BATTLE_BUNNY)
_SHIELD, _SNAKE, _DIGGER = int(Card.SHELL_SHIELD), int(Card.SNAKE_SORCERER), int(Card.GRAVE_DIGGER)
_JUGGLER, _HERMIT, _NOT_A_PET = (int(Card.JITTERY_JUGGLER), int(Card.HERMIT_SWAP),
                                 int(Card.NOT_A_PET))


@njit
def play(s: Any, w: Any, opts: Any, action: Any, rng: Any, chance: Any, row: Any) -> Any:
    """Play the card of a play action from the hand of the seat to act: into the
    row, its effect, its event logged before those its effect logs."""
    n = opts[OPT_PLAYERS]
    actor = np.int64(s[TO_ACT])
    card = ACTION_CARD[action]
    offset = ACTION_OFFSET[action]
    target = NO if offset < 0 else (actor + offset) % n
    _put_down(s, w, n, actor, card)
    index = log_event(s, w, NO, NO, NO, NO, NO, NO, UNSEEN)  # filled in below
    who, shown, result, secret, seen_by = NO, NO, NO, NO, UNSEEN
    if target == NO and TARGET_KINDS[card] != NO_TARGET:
        result = R_NO_EFFECT  # nobody to choose
    elif card == _BOWL:
        who, shown, result, secret, seen_by = play_crystal_bowl(s, w, n, target,
                                                                ACTION_EXTRA[action])
    elif card == _TRAPPER:
        who, shown, result, secret, seen_by = play_mouse_trapper(s, w, n, actor)
    elif card == _BUNNY:
        who, shown, result, secret, seen_by = play_battle_bunny(s, w, n, actor, target)
    elif card == _SHIELD:
        s[PROTECTED + actor] = 1
    elif card == _SNAKE:
        who, shown, result, secret, seen_by = play_snake_sorcerer(s, w, n, target)
    elif card == _DIGGER:
        who, shown, result, secret, seen_by = play_grave_digger(s, w, actor)
    elif card == _JUGGLER:
        chance[row] += 1
        play_jittery_juggler(s, w, n, actor, rng, row)
    elif card == _HERMIT:
        swap_hands(s, w, actor, target)
        who, result = target, R_SWAPPED
    elif card == _NOT_A_PET:
        who, result = play_not_a_pet(s, w, n, actor)
    elif card == KING:
        eliminate(s, w, n, actor)
    write_event(s, index, actor, EV_PLAY + card, who, shown, result, secret, seen_by)


@njit
def _put_down(s: Any, w: Any, n: Any, actor: Any, card: Any) -> Any:
    """Move the actor's card of value ``card`` (the first in hand of that value) to
    the end of its row: public now. Who knew a kept copy of the same value but not
    the played one cannot tell which copy was played, and forgets the kept one."""
    hand = HANDS + 2 * actor
    first = VALUES[s[hand]] == card
    played = np.int64(s[hand] if first else s[hand + 1])
    kept = np.int64(s[hand + 1] if first else s[hand])
    s[hand] = kept
    s[HAND_LEN + actor] = 1
    if VALUES[kept] == card:
        kept_bit = np.int64(1) << kept
        for observer in range(n):
            known = w[KNOWN + observer]
            if observer != actor and known & kept_bit and not known >> played & 1:
                w[KNOWN + observer] &= ~kept_bit
                w[TRAPPED + observer] &= ~kept_bit
    size = s[ROW_LEN + actor]
    s[ROWS + NUM_CARDS * actor + size] = played
    s[ROW_LEN + actor] = size + 1
    forget(w, n, np.int64(1) << played)


@njit
def follow_up(s: Any, w: Any, action: Any) -> Any:
    """Grave Digger's keep or swap, or Mouse Trapper's placement, by the seat to act."""
    actor = np.int64(s[TO_ACT])
    if ACTION_KIND[action] == PLACE:
        depth = ACTION_EXTRA[action]
        place_card(s, w, actor, depth)
        log_event(s, w, actor, EV_PLACE, NO, NO, NO, depth, np.int64(1) << actor)
    else:
        swap = ACTION_KIND[action] == SWAP
        if swap:
            grave_swap(s, w, actor)
        log_event(s, w, actor, EV_GRAVE, NO, NO, R_SWAPPED if swap else R_KEPT,
                  VALUES[s[ASIDE]], np.int64(1) << actor)
    s[PHASE] = PLAY_PHASE
