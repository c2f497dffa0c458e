"""Text rendering of an Exploding Kittens table, from one seat's view or in full."""

from __future__ import annotations

from ek_env.engine.cards import CARD_NAMES
from ek_env.engine.state import FIVE, PAIR, PHASE_NAMES, SINGLE, THREE, State
from ek_env.info.view import PlayerView


def _counts(counts: list[int]) -> str:
    parts = [CARD_NAMES[card] + (f" x{count}" if count > 1 else "")
             for card, count in enumerate(counts) if count]
    return ", ".join(parts) if parts else "-"


def _pending(view: PlayerView) -> str | None:
    kind, card, target, named, five, nopes, opener = view.pending
    if not kind:
        return None
    holder = f"player_{view.turn_holder}"
    if kind == SINGLE:
        what = CARD_NAMES[card] + (f" on player_{target}" if target >= 0 else "")
    elif kind == PAIR:
        what = f"a pair of {CARD_NAMES[card]} against player_{target}"
    elif kind == THREE:
        asked = CARD_NAMES[named] if named >= 0 else "(naming a card)"
        what = f"three {CARD_NAMES[card]} against player_{target}, asking for {asked}"
    else:
        assert kind == FIVE
        what = "five different: " + (", ".join(CARD_NAMES[c] for c in five) or "(choosing)")
    text = f"Pending: {holder} plays {what}; nopes {nopes}"
    if opener >= 0:
        text += f" (answering player_{opener})"
    return text


def _lines(view: PlayerView) -> list[str]:
    owed = view.owed_turns
    lines = [
        f"Turn of player_{view.turn_holder} (owes {owed} turn{'s' if owed != 1 else ''}"
        + (", attacked" if view.attacked else "") + f"); to act: player_{view.to_act} "
        f"({PHASE_NAMES[view.phase]})",
        f"Deck: {view.deck_size} cards, {view.kittens_in_deck} exploding kitten(s)",
        f"Discard: {_counts(view.discard)}",
    ]
    if any(view.out_of_play):
        lines.append(f"Out of play: {_counts(view.out_of_play)}")
    pending = _pending(view)
    if pending:
        lines.append(pending)
    if view.winner >= 0:
        lines.append(f"Winner: player_{view.winner}")
    return lines


def render_view(view: PlayerView) -> str:
    """The table as ``view``'s seat sees it: its hand, public facts, what it knows."""
    seat = view.seat
    lines = [f"Exploding Kittens, seen by player_{seat}"] + _lines(view)
    sizes, alive = view.hand_sizes(), view.alive
    for other in range(view.num_players):
        if other == seat:
            status = f"{sizes[other]} cards: {_counts(view.my_hand)}"
        elif not alive[other]:
            status = "exploded"
        else:
            known = view.known_hand(other)
            status = f"{sizes[other]} cards" + (f", known: {_counts(known)}" if any(known) else "")
        lines.append(f"  player_{other}{' (me)' if other == seat else ''}: {status}")
    known_deck = view.known_deck()
    if known_deck:
        lines.append("Known deck (depth: card): "
                     + ", ".join(f"{depth}: {CARD_NAMES[card]}" for depth, card in known_deck))
    return "\n".join(lines)


def render_full(state: State) -> str:
    """Everything, hidden cards included (for debugging and spectators)."""
    view = PlayerView(state, state.to_act)
    lines = ["Exploding Kittens, full view"] + _lines(view)
    for seat in range(state.num_players):
        status = _counts(state.hands[seat]) if state.alive[seat] else "exploded"
        lines.append(f"  player_{seat}: {status}")
    lines.append("Deck, top first: " + (", ".join(CARD_NAMES[c] for c in reversed(state.deck)) or "-"))
    return "\n".join(lines)
