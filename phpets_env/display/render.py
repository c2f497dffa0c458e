"""Text rendering of a Power Hungry Pets table."""

from __future__ import annotations

from phpets_env.engine.cards import CARD_VALUES, DISPLAY_NAMES, Card
from phpets_env.engine.state import MATCH_OVER, NO_CARD, PHASE_NAMES, State
from phpets_env.info.view import PlayerView


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
    rows = view.rows()
    for seat in range(n):
        marks = _marks(seat == view.to_act and view.phase != MATCH_OVER,
                       view.in_round_flags[seat], view.protected_flags[seat])
        hand = _cards(view.my_hand()) if seat == view.seat else _seen_hand(view, seat)
        lines.append(
            f"player_{seat}{' (me)' if seat == view.seat else ''}: tokens {view.token_counts[seat]}, "
            f"hand [{hand}], row [{_cards(rows[seat])}]" + marks
        )
    pending = view.pending_card()
    if pending is not None:
        lines.append(f"putting back: {card_text(pending)}")
    lines.append(f"phase: {PHASE_NAMES[view.phase]}")
    if view.match_winners:
        lines.append("match won by " + ", ".join(f"player_{s}" for s in view.match_winners))
    return "\n".join(lines)


def _marks(to_act: bool, in_round: bool, protected: bool) -> str:
    """A seat's marks at the end of its line: to act, out, protected."""
    marks = []
    if to_act:
        marks.append("to act")
    if not in_round:
        marks.append("out")
    if protected:
        marks.append("protected")
    return f"  ({', '.join(marks)})" if marks else ""


def _seen_hand(view: PlayerView, seat: int) -> str:
    """Another seat's hand as ``view``'s seat knows it: known cards, ``?`` for the
    others, and the values the table ruled out."""
    known = view.known_hand(seat)
    size = view.hand_sizes()[seat]
    hand = ", ".join([card_text(v) for v in known] + ["?"] * (size - len(known))) or "-"
    ruled_out = view.ruled_out_masks[seat]
    if ruled_out and len(known) < size:
        hand += "; not " + ", ".join(str(v) for v in range(len(Card)) if ruled_out >> v & 1)
    return hand


def render_full(state: State) -> str:
    """The whole table, hidden cards included."""
    values = CARD_VALUES
    lines = [
        f"Power Hungry Pets - round {state.round_number}, full view",
        "draw pile (top first): " + _cards([values[c] for c in reversed(state.deck)]),
        "set aside face down: " + (card_text(values[state.aside]) if state.aside != NO_CARD else "-"),
    ]
    if state.face_up:
        lines.append("set aside face up: " + _cards([values[c] for c in state.face_up]))
    for seat in range(state.num_players):
        marks = _marks(seat == state.to_act and state.phase != MATCH_OVER,
                       state.in_round[seat], state.protected[seat])
        lines.append(
            f"player_{seat}: tokens {state.tokens[seat]}, "
            f"hand [{_cards([values[c] for c in state.hands[seat]])}], "
            f"row [{_cards([values[c] for c in state.rows[seat]])}]" + marks
        )
    if state.pending != NO_CARD:
        lines.append(f"putting back: {card_text(values[state.pending])}")
    lines.append(f"phase: {PHASE_NAMES[state.phase]}")
    if state.match_winners:
        lines.append("match won by " + ", ".join(f"player_{s}" for s in state.match_winners))
    return "\n".join(lines)
