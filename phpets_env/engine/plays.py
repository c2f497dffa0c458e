"""A Power Hungry Pets play resolved: the card into the row, its effect, the event
the table sees, and the follow-up decisions of Grave Digger and Mouse Trapper.

These functions apply a choice of the seat to act without checking it
(:mod:`phpets_env.engine.legality` says what is legal) and hand the turn on
(:func:`phpets_env.engine.flow.end_turn`) unless the card opened a follow-up phase.
"""

from __future__ import annotations

from collections.abc import Callable

from cardgym.chance import Chance
from cardgym.record import NONE, TABLE, Event
from phpets_env.engine import effects
from phpets_env.engine.cards import CARD_VALUES, NO_TARGET, TARGET_KIND, Card
from phpets_env.engine.events import GRAVE_CHOICE, KEPT, NO_EFFECT, PLACE, SWAPPED, make_event
from phpets_env.engine.events import PLAY as PLAYED
from phpets_env.engine.flow import end_turn
from phpets_env.engine.state import PLAY, State


def play(
    state: State, card: int, target: int | None, guess: int | None, rng: Chance
) -> None:
    """Play a card of value ``card`` from the hand of the seat to act (unchecked)."""
    actor = state.to_act
    hand = state.hands[actor]
    played = hand[0] if CARD_VALUES[hand[0]] == card else hand[1]
    hand.remove(played)
    _forget_ambiguous_play(state, actor, played)
    state.rows[actor].append(played)
    effects.forget(state, 1 << played)  # face up: public now
    log = state.log
    index = len(log)
    log.append(_PLACEHOLDER)  # the play comes before what follows from it
    if target is not None or TARGET_KIND[card] == NO_TARGET:
        log[index] = _RESOLVE[card](state, actor, target, guess, rng)  # type: ignore[arg-type]
    else:
        log[index] = make_event(actor, PLAYED + card, NONE, NONE, NO_EFFECT)
    if state.phase == PLAY:
        end_turn(state, rng)


def resolve_grave_digger(state: State, swap: bool, rng: Chance) -> None:
    """Finish a Grave Digger play: keep or swap with the set-aside card (unchecked)."""
    actor = state.to_act
    if swap:
        effects.grave_swap(state, actor)
    state.log.append(make_event(actor, GRAVE_CHOICE, NONE, NONE, SWAPPED if swap else KEPT,
                                CARD_VALUES[state.aside], 1 << actor))
    state.phase = PLAY
    end_turn(state, rng)


def resolve_mouse_trapper(state: State, depth: int, rng: Chance) -> None:
    """Finish a Mouse Trapper play: put the card back at ``depth`` (unchecked)."""
    effects.place_card(state, depth)
    state.log.append(make_event(state.to_act, PLACE, NONE, NONE, NONE, depth, 1 << state.to_act))
    state.phase = PLAY
    end_turn(state, rng)


def _forget_ambiguous_play(state: State, actor: int, played: int) -> None:
    """An observer who knew a card of the same value in the actor's hand cannot tell
    which copy was played, so the copy left in hand becomes unknown to them."""
    value = CARD_VALUES[played]
    bit = 1 << played
    known = state.known
    for kept in state.hands[actor]:
        if CARD_VALUES[kept] == value:
            kept_bit = 1 << kept
            for observer in range(state.num_players):
                if observer != actor and known[observer] & kept_bit and not known[observer] & bit:
                    known[observer] &= ~kept_bit
                    state.trapped[observer] &= ~kept_bit


#: Stands in the log for a play being resolved (the events it causes come after it).
_PLACEHOLDER: Event = make_event(TABLE, NONE)

# The effect of each card, by value: (state, actor, target, guess, rng) -> the event
# of the play. ``target`` is a seat for the cards that name one (never None here),
# ``guess`` the value Crystal Bowl names.
_Resolve = Callable[[State, int, int, int, Chance], Event]


def _royal_robovac(state: State, actor: int, target: int, guess: int,
                   rng: Chance) -> Event:
    return make_event(actor, PLAYED + Card.ROYAL_ROBOVAC)


def _crystal_bowl(state: State, actor: int, target: int, guess: int,
                  rng: Chance) -> Event:
    result = effects.crystal_bowl(state, target, guess)
    return make_event(actor, PLAYED + Card.CRYSTAL_BOWL, target, guess, result)


def _mouse_trapper(state: State, actor: int, target: int, guess: int,
                   rng: Chance) -> Event:
    return _looked_at(actor, Card.MOUSE_TRAPPER, effects.mouse_trapper(state, actor))


def _battle_bunny(state: State, actor: int, target: int, guess: int,
                  rng: Chance) -> Event:
    result = effects.battle_bunny(state, actor, target)
    return make_event(actor, PLAYED + Card.BATTLE_BUNNY, target, NONE, result)


def _shell_shield(state: State, actor: int, target: int, guess: int,
                  rng: Chance) -> Event:
    state.protected[actor] = True
    return make_event(actor, PLAYED + Card.SHELL_SHIELD)


def _snake_sorcerer(state: State, actor: int, target: int, guess: int,
                    rng: Chance) -> Event:
    shown = effects.snake_sorcerer(state, target)
    return make_event(actor, PLAYED + Card.SNAKE_SORCERER, target, shown)


def _grave_digger(state: State, actor: int, target: int, guess: int,
                  rng: Chance) -> Event:
    return _looked_at(actor, Card.GRAVE_DIGGER, effects.grave_digger(state, actor))


def _jittery_juggler(state: State, actor: int, target: int, guess: int,
                     rng: Chance) -> Event:
    effects.jittery_juggler(state, actor, rng)
    return make_event(actor, PLAYED + Card.JITTERY_JUGGLER)


def _hermit_swap(state: State, actor: int, target: int, guess: int,
                 rng: Chance) -> Event:
    effects.swap_hands(state, actor, target)
    return make_event(actor, PLAYED + Card.HERMIT_SWAP, target, NONE, SWAPPED)


def _not_a_pet(state: State, actor: int, target: int, guess: int,
               rng: Chance) -> Event:
    holder = effects.not_a_pet(state, actor)
    if holder == NONE:
        return make_event(actor, PLAYED + Card.NOT_A_PET, NONE, NONE, NO_EFFECT)
    return make_event(actor, PLAYED + Card.NOT_A_PET, holder, NONE, SWAPPED)


def _king_cat(state: State, actor: int, target: int, guess: int,
              rng: Chance) -> Event:
    effects.eliminate(state, actor)
    return make_event(actor, PLAYED + Card.KING_CAT)


def _looked_at(actor: int, card: int, seen: int) -> Event:
    """The event of a card that shows its player a card (Grave Digger, Mouse
    Trapper): the value seen is the player's secret; none seen, no effect."""
    if seen == NONE:
        return make_event(actor, PLAYED + card, NONE, NONE, NO_EFFECT)
    return make_event(actor, PLAYED + card, NONE, NONE, NONE, seen, 1 << actor)


_EFFECTS: dict[Card, _Resolve] = {
    Card.ROYAL_ROBOVAC: _royal_robovac,
    Card.CRYSTAL_BOWL: _crystal_bowl,
    Card.MOUSE_TRAPPER: _mouse_trapper,
    Card.BATTLE_BUNNY: _battle_bunny,
    Card.SHELL_SHIELD: _shell_shield,
    Card.SNAKE_SORCERER: _snake_sorcerer,
    Card.GRAVE_DIGGER: _grave_digger,
    Card.JITTERY_JUGGLER: _jittery_juggler,
    Card.HERMIT_SWAP: _hermit_swap,
    Card.NOT_A_PET: _not_a_pet,
    Card.KING_CAT: _king_cat,
}
#: The effect of each card by value (a tuple: indexed on every play).
_RESOLVE: tuple[_Resolve, ...] = tuple(_EFFECTS[card] for card in Card)
