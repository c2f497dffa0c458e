"""Text rendering of a Karel Kakelaar table."""

from __future__ import annotations

from kakelaar_env.engine.cards import TYPE_NAMES, WORM_VALUE
from kakelaar_env.engine.state import NONE, PHASE_NAMES, State
from kakelaar_env.info.view import PlayerView


def _counts(counts: bytearray | list[int]) -> str:
    parts = [f"{TYPE_NAMES[t]}x{counts[t]}" if counts[t] > 1 else TYPE_NAMES[t]
             for t in range(len(counts)) if counts[t]]
    return ", ".join(parts) if parts else "-"


def _cards(cards: list[int]) -> str:
    return ", ".join(TYPE_NAMES[c] for c in cards) if cards else "-"


def _participant(p: int, n: int) -> str:
    return "robot" if p >= n else f"player_{p}"


def _header(round_number: int, phase: int, holder: int, n: int, who: str) -> list[str]:
    return [
        f"Karel Kakelaar - round {round_number}, stage {PHASE_NAMES[phase]}, seen by {who}",
        f"tractor: {_participant(holder, n)}",
    ]


def render_view(view: PlayerView) -> str:
    """The table as ``view``'s seat sees it."""
    n = view.num_players
    lines = _header(view.round, view.phase, view.tractor_holder, n, f"player_{view.seat}")
    lines.append(f"row (position 1 first): {_cards(view.row)}; draw pile {view.draw_pile_size}")
    if n == 2:
        left = view.robot_remaining()
        lines.append("robot deck left: " + ", ".join(
            f"chicken_{value}x{count}" for value, count in zip(range(3, 8), left, strict=True)
            if count))
    scores = view.scores()
    for seat in range(n):
        marks = []
        if seat == view.current and view.asked:
            marks.append("to act")
        if view.hen_played[seat]:
            marks.append("played a hen")
        last = view.last_bids[seat]
        lines.append(
            f"player_{seat}{' (me)' if seat == view.seat else ''}: worms {scores[seat]}, "
            f"hand [{_counts(view.hands[seat])}], discards [{_counts(view.discards[seat])}], "
            f"last bid {TYPE_NAMES[last] if last != NONE else '-'}"
            + (f"  ({', '.join(marks)})" if marks else "")
        )
    if view.my_bid != NONE:
        lines.append(f"my bid (face down): {TYPE_NAMES[view.my_bid]}")
    if view.my_hen_choice == 1:
        lines.append("I play a mother hen (face down until all have chosen)")
    if view.my_picks:
        lines.append(f"I take back: {_cards(view.my_picks)}")
    if view.winners:
        lines.append("won by " + ", ".join(f"player_{s}" for s in view.winners))
    return "\n".join(lines)


def render_full(state: State) -> str:
    """The whole table, hidden cards and committed choices included."""
    n = state.num_players
    lines = _header(state.round, state.phase, state.circle[state.tractor], n, "nobody (full view)")
    lines.append(f"row (position 1 first): {_cards(state.row)}")
    lines.append(f"draw pile (top first): {_cards(state.deck[::-1])}")
    lines.append(f"removed unseen: {_cards(sorted(state.removed))}")
    if n == 2:
        lines.append(f"robot deck (top first): {_cards(state.robot_deck[::-1])}; "
                     f"won {_cards(state.robot_won)}")
    for seat in range(n):
        hand = state.hands[seat]
        score = sum(c * v for c, v in zip(hand, WORM_VALUE, strict=True))
        pending = []
        if state.bids[seat] != NONE:
            pending.append(f"bids {TYPE_NAMES[state.bids[seat]]}")
        if state.hen_choices[seat] != NONE:
            pending.append("plays a hen" if state.hen_choices[seat] else "plays no hen")
        if state.picks[seat]:
            pending.append(f"takes {_cards(state.picks[seat])}")
        lines.append(
            f"player_{seat}: worms {score}, hand [{_counts(hand)}], "
            f"discards [{_counts(state.discards[seat])}]"
            + (f"  ({'; '.join(pending)})" if pending else "")
        )
    if state.winners:
        lines.append("won by " + ", ".join(f"player_{s}" for s in state.winners))
    return "\n".join(lines)
