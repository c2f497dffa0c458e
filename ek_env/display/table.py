"""The Exploding Kittens table view (:mod:`cardgym.table`): the table as a seat, a
spectator or the full view knows it, base game and Streaking Kittens alike.

A seat's view reads :class:`~ek_env.info.view.PlayerView` only, as the encoder does: its
own hand (while blind, only what it knows of it), what it knows of the other hands
and of the draw pile, its Alter the Future cards. The spectator's view reads only
the public facts of a PlayerView: hand sizes, the discard pile, the draw pile's size
and public kitten count, blindness, marked cards, the pending play, owed turns. The
full view reads the state: every hand and the draw pile in order.

The engine keeps the discard pile (and the cards out of play) as counts per kind,
so these piles are shown in card order; no card is on top of another.
"""

from __future__ import annotations

from typing import Any, Final

from cardgym.record import NONE
from cardgym.table import FULL, CardFace, TableSpec, hand, pile, seat_part
from ek_env.display.table_words import FACES, action_label, pending_text, plural, verb, who, whose
from ek_env.engine import record as rec
from ek_env.engine.cards import KITTEN
from ek_env.engine.state import ALTER, GAME_OVER, GARBAGE, INSERT, NOBODY, PHASE_NAMES, State
from ek_env.info.view import PlayerView

JSON = dict[str, Any]
Viewer = int | str | None

#: Every pile and area name a view writes.
PILES: Final = ("draw", "discard", "out_of_play", "put_back", "garbage", "alter_placed",
                "alter_left", "box", "marked")

#: What the seat to act decides, by phase (``{to_act}``: that seat in words).
_PHASE_TEXT: Final = {
    "play": "playing cards or drawing",
    "choose_five": "choosing five different cards",
    "name_card": "naming the card to ask for",
    "nope_window": "Nope window, {to_act} to answer",
    "give": "Favor, {to_act} to give a card",
    "insert": "{to_act} to put the defused kitten back",
    "take": "five different, taking a card from the discard pile",
    "alter": "Alter the Future 5x, putting the top cards back in a new order",
    "garbage": "Garbage Collection, {to_act} to put a card in",
    "target": "choosing the target of the turned-up card",
}


def _faces(counts: list[int] | bytearray) -> list[CardFace | None]:
    """A hand or pile given as counts per kind, one face per card, in card order."""
    return [FACES[kind] for kind, count in enumerate(counts) for _ in range(count)]


def _check_viewer(state: State, viewer: object) -> None:
    if viewer is None or viewer == FULL:
        return
    if isinstance(viewer, bool) or not isinstance(viewer, int) \
            or not 0 <= viewer < state.num_players:
        raise ValueError(f"no table view for {viewer!r}: give a seat 0..{state.num_players - 1}, "
                         f"None for the spectator or {FULL!r} for the full view")


# ------------------------------------------------------------ public facts


def _status(view: PlayerView, viewer: Viewer) -> str:
    """The heading: whose turn, the owed turns, what is being decided."""
    if view.phase == GAME_OVER:
        if view.winner != NOBODY:
            return f"Game over: {who(view.winner, viewer)} won"
        return "Game over: the draw pile ran out, a draw among the players still in"
    holder = view.turn_holder
    head = "Your turn" if holder == viewer else f"player_{holder}'s turn"
    extras = [f"{plural(view.owed_turns, 'turn')} owed"] if view.owed_turns > 1 else []
    if view.attacked:
        extras.append("attacked")
    if extras:
        head += f" ({', '.join(extras)})"
    text = _PHASE_TEXT[PHASE_NAMES[view.phase]].format(to_act=who(view.to_act, viewer))
    return f"{head}: {text}"


def _seat_status(view: PlayerView, seat: int) -> str:
    if seat in view.eliminated:
        return "exploded"
    if view.phase == GAME_OVER:
        if view.winner == seat:
            return "won"
        return "shares the draw" if view.winner == NOBODY else "alive"
    return "alive"


def _marks(view: PlayerView, seat: int) -> list[str]:
    """Short public tags of a seat."""
    marks = []
    if view.phase != GAME_OVER:
        if seat == view.turn_holder:
            marks.append("turn holder")
            if view.owed_turns > 1:
                marks.append(f"owes {view.owed_turns} turns")
            if view.attacked:
                marks.append("attacked")
        kind, _, target = view.pending[:3]
        if kind and target == seat:
            marks.append("targeted")
        if view.phase == INSERT and view.to_act == seat:
            marks.append("putting a kitten back")
    if view.is_blind(seat):
        marks.append("blind")
    if seat in view.exploding():
        marks.append("held kitten goes off")
    if seat in view.garbage_waiting():
        marks.append("to put a card in")
    return marks


def _areas(view: PlayerView, seat: int) -> list[JSON]:
    """A seat's marked cards (public; they are in its hand too)."""
    marked = view.marked(seat)
    if not any(marked):
        return []
    return [pile("marked", "marked cards (in the hand, shown to all)", _faces(marked))]


def _public_piles(view: PlayerView) -> list[JSON]:
    """The piles everyone sees alike (the draw pile is the viewer's own)."""
    piles = [pile("discard", "discard pile", _faces(view.discard))]
    if any(view.out_of_play):
        piles.append(pile("out_of_play", "out of play", _faces(view.out_of_play)))
    if view.kittens_to_insert:
        piles.append(pile("put_back", "defused, to be put back",
                          [FACES[KITTEN]] * view.kittens_to_insert))
    return piles


def _garbage_put_in(view: PlayerView) -> list[CardFace | None]:
    """Garbage Collection under way: the cards put in so far, in order, face down but
    for marked copies (public). The record tells them: the put-ins since the play's
    Nope window closed."""
    cards: list[CardFace | None] = []
    for _, what, _, card, _ in view.recent_public(view.num_players):
        if what != rec.GARBAGE:
            break
        cards.append(None if card == NONE else FACES[card])
    return cards[::-1]


def _ruled_out_notes(view: PlayerView, viewer: Viewer) -> list[str]:
    """What the table knows a seat does not hold (three of a kind missed)."""
    flags = view.ruled_out()
    if flags is None:
        return []
    n, kinds = view.num_players, len(view.discard)
    notes = []
    for offset in range(n):
        seat = (view.seat + offset) % n
        cards = [FACES[k].name for k in range(kinds) if flags[offset * kinds + k]]
        if cards and seat != viewer:
            notes.append(f"{who(seat, viewer)} holds no {', '.join(cards)}")
    return notes


def _notes(view: PlayerView, viewer: Viewer) -> list[str]:
    """Public facts in words (and, for a blind seat, what it cannot see)."""
    notes = []
    kittens = view.kittens_in_deck
    where = "in the draw pile or held in hands" if view.config.streaking else "in the draw pile"
    if view.phase != GAME_OVER:
        notes.append(f"{plural(kittens, 'Exploding Kitten')} {where}")
    if isinstance(viewer, int) and view.is_blind(viewer):
        notes.append("you are blind: you see only your marked cards and those you saw arrive")
    kind, card, target, named, five, nopes, answering = view.pending
    if kind:
        notes.append(pending_text(kind, card, target, named, five, nopes, answering,
                                  view.turn_holder, view.phase, viewer))
    if view.phase == ALTER:
        notes.append(f"{verb(view.turn_holder, viewer, 'reorder')} the top cards of the draw "
                     "pile (Alter the Future 5x)")
    waiting = view.garbage_waiting()
    if waiting:
        notes.append("Garbage Collection: still to put a card in: "
                     + ", ".join(who(s, viewer) for s in waiting))
    for seat in view.exploding():
        notes.append(f"{whose(seat, viewer)} held Exploding Kitten goes off next")
    return notes + _ruled_out_notes(view, viewer)


def _public(view: PlayerView, viewer: Viewer) -> tuple[list[tuple[str, list[str], list[JSON]]],
                                                       list[JSON], list[str]]:
    """Per seat (status, marks, areas), the public piles and the notes."""
    seats = [(_seat_status(view, s), _marks(view, s), _areas(view, s))
             for s in range(view.num_players)]
    piles = _public_piles(view)
    if view.phase == GARBAGE:
        piles.append(pile("garbage", "put in for Garbage Collection", _garbage_put_in(view)))
    return seats, piles, _notes(view, viewer)


# ------------------------------------------------------------------ views


def table_view(state: State, viewer: Viewer) -> JSON:
    """The game's part of the table view of ``viewer``: a seat, ``None`` for the
    spectator, ``"full"`` for everything.

    Raises:
        ValueError: ``viewer`` is none of these.
    """
    _check_viewer(state, viewer)
    if viewer == FULL:
        return _full(state)
    seat = viewer if isinstance(viewer, int) else None
    # The spectator reads the public facts of a seat's view, never its own knowledge.
    view = PlayerView(state, 0 if seat is None else seat)
    publics, piles, notes = _public(view, seat)
    sizes = view.hand_sizes()
    seats = []
    for other, (status, marks, areas) in enumerate(publics):
        if other == seat:
            cards = hand(_faces(view.my_hand), sizes[other])
        elif seat is None:
            cards = hand(_faces(view.marked(other)), sizes[other])
        else:
            known = [max(a, b) for a, b in zip(view.known_hand(other), view.marked(other),
                                                strict=True)]
            cards = hand(_faces(known), sizes[other])
        seats.append(seat_part(status, cards, areas=areas, marks=marks))
    deck: list[CardFace | None] = [None] * view.deck_size
    if seat is not None:
        for depth, card in view.known_deck():
            if depth < len(deck):
                deck[depth] = FACES[card]
    piles.insert(0, pile("draw", "draw pile", deck))
    if seat is not None:
        left, placed = view.my_alter()
        if left or placed:
            piles += _alter_piles(placed, left)
    return {"phase": PHASE_NAMES[view.phase], "status": _status(view, seat),
            "seats": seats, "piles": piles, "notes": notes}


def _alter_piles(placed: list[int], left: list[int]) -> list[JSON]:
    return [pile("alter_placed", "Alter the Future: placed, top first",
                 [FACES[c] for c in placed]),
            pile("alter_left", "Alter the Future: still to place", [FACES[c] for c in left])]


def _full(state: State) -> JSON:
    """Everything: every hand, the draw pile top first, the cards off the table."""
    view = PlayerView(state, state.to_act)  # its public facts only
    publics, piles, notes = _public(view, FULL)
    seats = [seat_part(status, hand(_faces(state.hands[s])), areas=areas, marks=marks)
             for s, (status, marks, areas) in enumerate(publics)]
    piles.insert(0, pile("draw", "draw pile", [FACES[c] for c in reversed(state.deck)]))
    for index, entry in enumerate(piles):
        if entry["name"] == "garbage":
            piles[index] = pile("garbage", "put in for Garbage Collection",
                                [FACES[c] for c in state.garbage_in])
    if state.alter_left or state.alter_placed:
        piles += _alter_piles(state.alter_placed, state.alter_left)
    if any(state.box):
        piles.append(pile("box", "left in the box", _faces(state.box)))
    return {"phase": PHASE_NAMES[state.phase], "status": _status(view, FULL),
            "seats": seats, "piles": piles, "notes": notes}


TABLE: Final = TableSpec(view=table_view, cards=FACES, phases=PHASE_NAMES, piles=PILES,
                         action_label=action_label)

__all__ = ["PILES", "TABLE", "action_label", "table_view"]
