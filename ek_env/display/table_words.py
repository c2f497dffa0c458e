"""Exploding Kittens in words for the table view (:mod:`ek_env.display.table`): the card faces,
the pending play and each legal action, spoken to the seat that reads them.

Seats are named as :func:`cardgym.table.seat_name` names them: "you" for the reader,
``player_N`` for the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from cardgym.table import CardFace, seat_name
from ek_env.engine.actions import actions_of
from ek_env.engine.cards import CARD_NAMES, Card
from ek_env.engine.legality import legal_action_mask
from ek_env.engine.moves import (
    Alter,
    BlindNope,
    BlindPlay,
    ChooseFive,
    ChooseTarget,
    Draw,
    Garbage,
    Give,
    Insert,
    NameCard,
    Nope,
    Pass,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
    Take,
)
from ek_env.engine.state import FIVE, NO_CARD, NOBODY, PAIR, SINGLE, TARGET, THREE, State

Viewer = int | str | None

#: Each kind's name as printed on the card.
DISPLAY_NAMES: Final[tuple[str, ...]] = (
    "Exploding Kitten", "Defuse", "Attack", "Skip", "Favor", "Shuffle", "See the Future",
    "Nope", "Taco Cat", "Hairy Potato Cat", "Cattermelon", "Rainbow-Ralphing Cat",
    "Beard Cat", "Streaking Kitten", "Catomic Bomb", "Super Skip", "See the Future 5x",
    "Alter the Future 5x", "Swap Top and Bottom", "Garbage Collection", "Mark",
    "Curse of the Cat Butt",
)
#: Each kind's colour: the kitten red, the Defuse green, the rest apart from them and
#: from one another.
COLORS: Final[tuple[str, ...]] = (
    "#d9534f", "#5cb85c", "#f0883e", "#5b9bd5", "#f2a7c3", "#9b8fd6", "#c678dd",
    "#8c9aa8", "#f5d061", "#c8a27c", "#7fd1b9", "#7ecbf2", "#a47551", "#ff8c69",
    "#4a4e69", "#2e86c1", "#8e44ad", "#e0a3f0", "#48c9b0", "#8d9440", "#d4ac0d",
    "#76448a",
)
#: Every kind of card, the expansion's included, in :class:`~ek_env.engine.cards.Card` order.
FACES: Final[tuple[CardFace, ...]] = tuple(
    CardFace(CARD_NAMES[card], DISPLAY_NAMES[card], None, COLORS[card]) for card in Card)


def who(seat: int, viewer: Viewer) -> str:
    """``seat`` as ``viewer`` reads it ("you", ``player_N``)."""
    return seat_name(seat, viewer)


def whose(seat: int, viewer: Viewer) -> str:
    """``seat``'s, as ``viewer`` reads it ("your", ``player_N's``)."""
    return "your" if seat == viewer else f"player_{seat}'s"


def verb(seat: int, viewer: Viewer, base: str) -> str:
    """``seat`` and a verb in the present tense agreeing with it ("you play",
    "player_1 plays")."""
    if seat == viewer:
        return f"you {base}"
    return f"player_{seat} {base}es" if base.endswith(("s", "sh", "ch")) else \
        f"player_{seat} {base}s"


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, with an ``s`` unless it is one."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def pending_text(kind: int, card: int, target: int, named: int, five: tuple[int, ...],
                 nopes: int, answering: int, holder: int, phase: int, viewer: Viewer) -> str:
    """The announced play (public) in words: what, against whom, the Nopes so far."""
    name = DISPLAY_NAMES
    if kind == SINGLE and phase == TARGET:
        return f"{whose(holder, viewer)} turned-up {name[card]} awaits its target"
    if kind == SINGLE:
        what = name[card] + (f" at {who(target, viewer)}" if target != NOBODY else "")
    elif kind == PAIR:
        what = f"a pair of {name[card]} against {who(target, viewer)} (a random card)"
    elif kind == THREE:
        asked = f"asking for {name[named]}" if named != NO_CARD else "naming a card next"
        what = f"three {name[card]} against {who(target, viewer)}, {asked}"
    else:
        assert kind == FIVE
        chosen = ", ".join(name[c] for c in five) or "none yet"
        what = f"five different cards ({chosen}), to take a card from the discard pile"
    text = f"{verb(holder, viewer, 'play')} {what}"
    if nopes:
        fate = "is stopped" if nopes % 2 else "goes ahead"
        text += (f"; {plural(nopes, 'Nope')} so far, the last by {who(answering, viewer)}: "
                 f"the play {fate} unless Noped again")
    return text


def action_label(state: State, action: int) -> str:
    """A legal action of the seat to act in words, spoken to that seat ("play Favor at
    player_2", "give Taco Cat to player_1").

    Raises:
        ValueError: ``action`` is not an action index, or not legal now.
    """
    acts = actions_of(state)
    if isinstance(action, bool) or not isinstance(action, int) \
            or not 0 <= action < acts.num_actions:
        raise ValueError(f"action {action!r} is not an action index 0..{acts.num_actions - 1}")
    if not legal_action_mask(state) >> action & 1:
        raise ValueError(f"action {action} ({acts.action_table.names[action]}) is not legal "
                         f"now for player_{state.to_act}")
    move = acts.action_to_move(state, action)
    return _LABELS[type(move)](state, move, state.to_act)


def _answered(state: State, me: int) -> str:
    return f"{whose(state.window_last, me)} {'Nope' if state.nopes else 'play'}"


def _copy(move: Give | Garbage) -> str:
    return f"a marked {DISPLAY_NAMES[move.card]}" if move.marked else DISPLAY_NAMES[move.card]


def _play_label(state: State, move: PlayCard, me: int) -> str:
    target = "" if move.target is None else f" at {who(move.target, me)}"
    return f"play {DISPLAY_NAMES[move.card]}{target}"


def _insert_label(state: State, move: Insert, me: int) -> str:
    kitten = "a kitten" if state.held_kitten > 1 else "the kitten"
    depth = move.depth
    if depth == 0:
        return f"put {kitten} back on top"
    where = f"with {plural(depth, 'card')} above it"
    if depth == len(state.deck):
        where = f"at the bottom ({where})"
    return f"put {kitten} back {where}"


def _ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


_NAME = DISPLAY_NAMES
#: Each kind of move in words: (state, move, the seat to act) -> label.
_LABELS: Final[dict[type, Callable[[State, Any, int], str]]] = {
    Draw: lambda state, move, me: "draw a card",
    PlayCard: _play_label,
    PlayPair: lambda state, move, me: (f"play a pair of {_NAME[move.card]} against "
                                       f"{who(move.target, me)} (take a random card)"),
    PlayThree: lambda state, move, me: (f"play three {_NAME[move.card]} against "
                                        f"{who(move.target, me)} (name the card to ask for "
                                        "next)"),
    PlayFive: lambda state, move, me: "play five different cards (choose them next)",
    ChooseFive: lambda state, move, me: f"add {_NAME[move.card]} to your five different cards",
    NameCard: lambda state, move, me: f"ask {who(state.pending_target, me)} for "
                                      f"{_NAME[move.card]}",
    Nope: lambda state, move, me: f"Nope {_answered(state, me)}",
    Pass: lambda state, move, me: "pass (no Nope)",
    Give: lambda state, move, me: f"give {_copy(move)} to {who(state.turn_holder, me)}",
    Insert: _insert_label,
    Take: lambda state, move, me: f"take {_NAME[move.card]} from the discard pile",
    BlindPlay: lambda state, move, me: "turn up a random card of your hand and play it",
    BlindNope: lambda state, move, me: (f"try a random card of your hand as a Nope on "
                                        f"{_answered(state, me)}"),
    ChooseTarget: lambda state, move, me: (f"aim your turned-up {_NAME[state.pending_card]} "
                                           f"at {who(move.target, me)}"),
    Alter: lambda state, move, me: (f"put {_NAME[move.card]} "
                                    f"{_ordinal(len(state.alter_placed) + 1)} from the top"),
    Garbage: lambda state, move, me: f"put {_copy(move)} into the draw pile",
}


__all__ = ["COLORS", "DISPLAY_NAMES", "FACES", "action_label", "pending_text", "plural",
           "verb", "who", "whose"]
