"""Text rendering of a Power Hungry Pets table."""

from __future__ import annotations

from phpets_env.cards import CARD_VALUES, DISPLAY_NAMES, Card
from phpets_env.state import PHASE_NAMES, State
from phpets_env.view import PlayerView


def card_text(value: int) -> str:
    return f"{value} {DISPLAY_NAMES[Card(value)]}"


def _cards(values: list[int]) -> str:
    return ", ".join(card_text(v) for v in values) if values else "-"


def render_view(view: PlayerView) -> str:
    """The table as ``view``'s seat sees it."""
    n = view.num_players
    lines = [
        f"Power Hungry Pets - round {view.round_number}, seen by player_{view.seat}",
        f"draw pile: {view.deck_size} cards"
        + ("" if view.aside_present else " (set-aside card taken)"),
    ]
    face_up = view.face_up()
    if face_up:
        lines.append(f"set aside face up: {_cards(face_up)}")
    aside = view.known_aside()
    lines.append(f"set aside face down: {card_text(aside) if aside is not None else '?'}")
    known_deck = view.known_deck()
    if known_deck:
        lines.append("known in the pile: " + ", ".join(
            f"depth {depth}: {card_text(v)}" for depth, v in known_deck))
    in_round, protected, tokens = view.in_round_flags, view.protected_flags, view.token_counts
    rows = view.rows()
    sizes = view.hand_sizes()
    for seat in range(n):
        marks = []
        if seat == view.current and view.phase != 3:
            marks.append("to act")
        if not in_round[seat]:
            marks.append("out")
        if protected[seat]:
            marks.append("protected")
        if seat == view.seat:
            hand = _cards(view.my_hand())
        else:
            known = view.known_hand(seat)
            hand = ", ".join([card_text(v) for v in known] + ["?"] * (sizes[seat] - len(known)))
            hand = hand or "-"
            ruled_out = view.ruled_out_masks[seat]
            if ruled_out and len(known) < sizes[seat]:
                hand += "; not " + ", ".join(
                    str(v) for v in range(len(Card)) if ruled_out >> v & 1)
        lines.append(
            f"player_{seat}{' (me)' if seat == view.seat else ''}: tokens {tokens[seat]}, "
            f"hand [{hand}], row [{_cards(rows[seat])}]" + (f"  ({', '.join(marks)})" if marks else "")
        )
    pending = view.pending_card()
    if pending is not None:
        lines.append(f"putting back: {card_text(pending)}")
    lines.append(f"phase: {PHASE_NAMES[view.phase]}")
    if view.match_winners:
        lines.append("match won by " + ", ".join(f"player_{s}" for s in view.match_winners))
    return "\n".join(lines)


def render_full(state: State) -> str:
    """The whole table, hidden cards included."""
    values = CARD_VALUES
    lines = [
        f"Power Hungry Pets - round {state.round_number}, full view",
        "draw pile (top first): " + _cards([values[c] for c in reversed(state.deck)]),
        "set aside face down: " + (card_text(values[state.aside]) if state.aside >= 0 else "-"),
    ]
    if state.face_up:
        lines.append("set aside face up: " + _cards([values[c] for c in state.face_up]))
    for seat in range(state.num_players):
        marks = []
        if seat == state.current and state.phase != 3:
            marks.append("to act")
        if not state.in_round[seat]:
            marks.append("out")
        if state.protected[seat]:
            marks.append("protected")
        lines.append(
            f"player_{seat}: tokens {state.tokens[seat]}, "
            f"hand [{_cards([values[c] for c in state.hands[seat]])}], "
            f"row [{_cards([values[c] for c in state.rows[seat]])}]"
            + (f"  ({', '.join(marks)})" if marks else "")
        )
    if state.pending >= 0:
        lines.append(f"putting back: {card_text(values[state.pending])}")
    lines.append(f"phase: {PHASE_NAMES[state.phase]}")
    if state.match_winners:
        lines.append("match won by " + ", ".join(f"player_{s}" for s in state.match_winners))
    return "\n".join(lines)
