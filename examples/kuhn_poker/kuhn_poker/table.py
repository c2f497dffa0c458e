"""The Kuhn poker table view (:mod:`cardgym.table`): the table as a seat, a spectator
or the full view knows it.

A seat's view reads :class:`~kuhn_poker.rules.PlayerView` (its own card, the moves,
the other card once shown at a showdown) and the rule options, which are public (the
ante); the spectator's reads only the public facts of the seats' views (the moves,
the cards shown); the full view reads the state. Each seat's hand is its one card:
face up to its owner, face down to the others until the showdown shows it (a fold
shows nothing). The third card stays out of play face down (pile ``out``). A seat's
score is the chips it has put in the pot (the ante, and one chip for a bet or a
call).
"""

from __future__ import annotations

from typing import Any, Final

from cardgym.table import FULL, CardFace, TableSpec, hand, pile, seat_name, seat_part
from kuhn_poker.rules import BET, CALL, CARD_NAMES, CHECK, FOLD, NONE, NUM_CARDS, PlayerView, State

#: Jack, Queen, King: face cards carry no number (Jack < Queen < King).
FACES: Final = tuple(CardFace(name, name.capitalize(), None, color)
                     for name, color in zip(CARD_NAMES, ("#9fc5e8", "#d5a6bd", "#f6c26b"),
                                            strict=True))

PHASES: Final = ("betting", "over")
SCORE_LABEL: Final = "chips put in"

_DONE: Final = {CHECK: "checked", BET: "bet 1 chip", CALL: "called", FOLD: "folded"}
_LABELS: Final = {CHECK: "check", BET: "bet 1 chip", CALL: "call", FOLD: "fold"}


def _chips_in(moves: tuple[int, ...], seat: int, ante: int) -> int:
    """Chips ``seat`` has put in: the ante, and one for each bet or call (seat 0
    moves first, then the seats take turns)."""
    return ante + sum(1 for i, move in enumerate(moves) if i % 2 == seat and move in (BET, CALL))


def _result(moves: tuple[int, ...], cards: list[int | None], ante: int) -> tuple[int, int, str]:
    """``(winner, chips won, how)`` of a finished hand: the other seat after a fold,
    else the higher card (both are shown at a showdown)."""
    if moves[-1] == FOLD:
        folder = (len(moves) - 1) % 2
        return 1 - folder, ante, "fold"
    shown = [card if card is not None else -1 for card in cards]
    return int(shown[1] > shown[0]), ante + (1 if moves[-1] == CALL else 0), "showdown"


def _seat_status(moves: tuple[int, ...], seat: int, outcome: tuple[int, int, str] | None) -> str:
    if outcome is not None:
        winner, chips, _ = outcome
        return f"{'won' if seat == winner else 'lost'} {chips} chip{'s' * (chips > 1)}"
    own = [move for i, move in enumerate(moves) if i % 2 == seat]
    return _DONE[own[-1]] if own else "no move yet"


def table_view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The game's part of the table view of ``viewer`` (a seat, ``None`` for the
    spectator, ``"full"``)."""
    ante = state.config.ante  # a rule option: public
    views = [PlayerView.of(state, seat) for seat in (0, 1)]
    moves, over = views[0].moves, views[0].over
    # What the viewer knows of each seat's card (None: face down).
    cards: list[int | None]
    if viewer == FULL:
        cards = [state.cards[0], state.cards[1]]
    else:
        # The cards shown at a showdown (public): seat s's card is what the other
        # seat's view saw shown.
        cards = [None if views[1 - s].shown == NONE else views[1 - s].shown for s in (0, 1)]
        if isinstance(viewer, int):
            cards[viewer] = views[viewer].card
    outcome = _result(moves, cards, ante) if over else None
    seats = []
    for seat in (0, 1):
        card = cards[seat]
        marks = ["folded"] if over and moves[-1] == FOLD and (len(moves) - 1) % 2 == seat else []
        seats.append(seat_part(_seat_status(moves, seat, outcome),
                               hand([] if card is None else [FACES[card]], 1),
                               _chips_in(moves, seat, ante), SCORE_LABEL, (), marks))
    out = [FACES[state.cards[2]]] if viewer == FULL else []
    pot = sum(_chips_in(moves, seat, ante) for seat in (0, 1))
    notes = [f"The pot holds {pot} chips (the ante is {ante} chip{'s' * (ante > 1)} each)",
             "Jack < Queen < King; the third card stays out of play, face down"]
    if isinstance(viewer, int) and cards[1 - viewer] is None:
        others = [FACES[c].name for c in range(NUM_CARDS) if c != cards[viewer]]
        notes.append(f"{seat_name(1 - viewer, viewer)} holds the {others[0]} or the "
                     f"{others[1]}")
    if outcome is None:
        status = f"Betting: {seat_name(0 if views[0].to_act else 1, viewer)} to act"
    else:
        winner, chips, how = outcome
        who = seat_name(winner, viewer)
        verb = "win" if who == "you" else "wins"
        status = (f"Over: {who} {verb} {chips} chip{'s' * (chips > 1)} "
                  + ("at the showdown" if how == "showdown" else "after a fold"))
    return {"phase": "over" if over else "betting", "status": status, "seats": seats,
            "piles": [pile("out", "out of play", out, 1)], "notes": notes}


def action_label(state: State, action: int) -> str:
    """A legal action of the seat to act in words (action ``i`` is move ``i``)."""
    return _LABELS[action]


TABLE: Final = TableSpec(view=table_view, cards=FACES, phases=PHASES, piles=("out",),
                         action_label=action_label, score_label=SCORE_LABEL)
