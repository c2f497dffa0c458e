"""The Power Hungry Pets table view (:mod:`cardgym.table`): the table as a seat, a
spectator or the full view knows it.

A seat's view reads :class:`~phpets_env.info.view.PlayerView` only, as the encoder does;
the spectator's reads only its public facts; the full view reads the state.
"""

from __future__ import annotations

from typing import Any, Final

from cardgym.table import FULL, CardFace, TableSpec, hand, pile, seat_name, seat_part
from phpets_env.engine.actions import action_to_move
from phpets_env.engine.cards import CARD_NAMES, CARD_VALUES, DISPLAY_NAMES, Card
from phpets_env.engine.state import MATCH_OVER, NO_CARD, PHASE_NAMES, GraveSwap, Play, State
from phpets_env.info.view import PlayerView

#: Card colours by value: cool for the low cards, warm for the high ones.
_COLORS: Final = ("#9fb7c9", "#a9d6e5", "#b8c99f", "#c9e4a9", "#e2e4a9", "#f0d99a",
                  "#f2c08e", "#efa98a", "#e79aa8", "#cfa0d9", "#f4d35e")

FACES: Final = tuple(CardFace(CARD_NAMES[card], DISPLAY_NAMES[card], int(card), _COLORS[card])
                     for card in Card)

_PHASE_TEXT: Final = {"play": "playing a card", "grave_digger": "Grave Digger: keep or swap",
                      "mouse_trapper": "Mouse Trapper: putting the top card back",
                      "match_over": "the match is over"}


def _faces(values: list[int]) -> list[CardFace]:
    return [FACES[value] for value in values]


def _status(phase: int, round_number: int, tokens_to_win: int) -> str:
    name = PHASE_NAMES[phase]
    if phase == MATCH_OVER:
        return f"Round {round_number}: {_PHASE_TEXT[name]}"
    return f"Round {round_number} (first to {tokens_to_win} tokens wins): {_PHASE_TEXT[name]}"


def _seat_status(in_round: bool, over: bool, won: bool) -> str:
    if over:
        return "won the match" if won else "lost the match"
    return "in the round" if in_round else "out of the round"


def _ruled_out_notes(view: PlayerView, viewer: int | None) -> list[str]:
    """What the table knows a seat does not hold (public)."""
    notes = []
    for seat, mask in enumerate(view.ruled_out_masks):
        if mask and seat != viewer:
            values = [FACES[v].name for v in range(len(Card)) if mask >> v & 1]
            notes.append(f"{seat_name(seat, viewer)} holds no {', '.join(values)}")
    return notes


def table_view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The game's part of the table view of ``viewer`` (a seat, ``None`` for the
    spectator, ``"full"``)."""
    if viewer == FULL:
        return _full(state)
    seat = viewer if isinstance(viewer, int) else None
    # The spectator reads the public facts of a seat's view, never its own knowledge.
    view = PlayerView(state, 0 if seat is None else seat)
    n = view.num_players
    over = view.phase == MATCH_OVER
    rows, sizes = view.rows(), view.hand_sizes()
    seats = []
    for other in range(n):
        if other == seat:
            cards = hand(_faces(sorted(view.my_hand())))
        elif seat is None:
            cards = hand((), sizes[other])
        else:
            cards = hand(_faces(sorted(view.known_hand(other))), sizes[other])
        marks = ["protected"] if view.protected_flags[other] else []
        seats.append(seat_part(
            _seat_status(view.in_round_flags[other], over, other in view.match_winners),
            cards, view.token_counts[other], "tokens",
            [pile("row", "played", _faces(rows[other][::-1]))], marks))
    deck: list[CardFace | None] = [None] * view.deck_size
    aside = None
    if seat is not None:
        for depth, value in view.known_deck():
            deck[depth] = FACES[value]
        known = view.known_aside()
        aside = None if known is None else FACES[known]
    piles = [pile("draw", "draw pile", deck),
             pile("aside", "set aside face down", [aside] if view.aside_present else [])]
    if view.face_up():
        piles.append(pile("face_up", "set aside face up", _faces(view.face_up())))
    if view.phase == PHASE_NAMES.index("mouse_trapper"):
        held = view.pending_card() if seat is not None else None
        piles.append(pile("held", "held out by Mouse Trapper",
                          [None if held is None else FACES[held]]))
    return {"phase": PHASE_NAMES[view.phase],
            "status": _status(view.phase, view.round_number, view.config.tokens_to_win),
            "seats": seats, "piles": piles, "notes": _ruled_out_notes(view, seat)}


def _full(state: State) -> dict[str, Any]:
    """Everything, hidden cards included."""
    values = CARD_VALUES
    over = state.phase == MATCH_OVER
    seats = [seat_part(
        _seat_status(state.in_round[seat], over, seat in state.match_winners),
        hand(_faces(sorted(values[c] for c in state.hands[seat]))), state.tokens[seat],
        "tokens", [pile("row", "played", _faces([values[c] for c in state.rows[seat][::-1]]))],
        ["protected"] if state.protected[seat] else [])
        for seat in range(state.num_players)]
    piles = [pile("draw", "draw pile", _faces([values[c] for c in reversed(state.deck)])),
             pile("aside", "set aside face down",
                  [FACES[values[state.aside]]] if state.aside != NO_CARD else [])]
    if state.face_up:
        piles.append(pile("face_up", "set aside face up",
                          _faces([values[c] for c in state.face_up])))
    if state.phase == PHASE_NAMES.index("mouse_trapper"):
        piles.append(pile("held", "held out by Mouse Trapper", [FACES[values[state.pending]]]))
    return {"phase": PHASE_NAMES[state.phase],
            "status": _status(state.phase, state.round_number, state.config.tokens_to_win),
            "seats": seats, "piles": piles,
            "notes": _ruled_out_notes(PlayerView(state, 0), None)}


def action_label(state: State, action: int) -> str:
    """A legal action of the seat to act in words, spoken to that seat."""
    move = action_to_move(state, action)
    me = state.to_act
    if isinstance(move, Play):
        text = f"play {DISPLAY_NAMES[Card(move.card)]}"
        if move.target is not None:
            text += f" at {'yourself' if move.target == me else seat_name(move.target, me)}"
        if move.guess is not None:
            text += f", naming {DISPLAY_NAMES[Card(move.guess)]} ({move.guess})"
        return text
    if isinstance(move, GraveSwap):
        return ("swap your hand card with the set-aside card" if move.swap
                else "keep your hand card")
    return ("put the card back on top" if move.depth == 0
            else f"put the card back with {move.depth} card{'s' * (move.depth > 1)} above it")


TABLE: Final = TableSpec(view=table_view, cards=FACES, phases=PHASE_NAMES,
                         piles=("row", "draw", "aside", "face_up", "held"),
                         action_label=action_label, score_label="tokens")
