"""Kuhn poker as text."""

from __future__ import annotations

from kuhn_poker.rules import CARD_NAMES, MOVE_NAMES, NONE, PlayerView, State


def render(state: State, seat: int | None) -> str:
    """The table as ``seat`` sees it, or everything for ``seat=None``."""
    moves = " ".join(MOVE_NAMES[move] for move in state.moves) or "none yet"
    if seat is None:
        cards = ", ".join(f"seat {s}: {CARD_NAMES[state.cards[s]]}" for s in (0, 1))
        return f"cards: {cards} (out: {CARD_NAMES[state.cards[2]]})\nmoves: {moves}"
    view = PlayerView.of(state, seat)
    shown = f"\nshown: {CARD_NAMES[view.shown]}" if view.shown != NONE else ""
    return f"my card: {CARD_NAMES[view.card]}\nmoves: {moves}{shown}"
