"""The Karel Kakelaar table view (:mod:`cardgym.table`): the table as a seat, a
spectator or the full view knows it.

A seat's view reads :class:`~kakelaar_env.info.view.PlayerView` only, as the encoder does;
the spectator's reads only its public facts (never ``my_bid``, ``my_hen_choice`` or
``my_picks``); the full view reads the state.

What the table shows (docs/rules/karel_kakelaar.md, "What a seat observes"):

- every hand face up to everyone (each card enters and leaves a hand face up); a bid
  stays in its bidder's hand until the reveal, as in the observation;
- every discard pile face up (area ``discard``). The state keeps hands and discard
  piles as counts, so their cards are listed in card order (worms 1..8, chickens
  3..7, the mother hen), not in the order they came;
- the commits of the stage in progress: the commit order is public (the tractor
  holder first, then clockwise: ``PlayerView.asked``), so everyone sees *that* a seat
  committed, and only the seat itself (and the full view) *what*: a face-down card in
  the area ``bid``, face-down cards in the area ``picks`` (cards picked to take back,
  still in the discard pile until the reveal), or a mark for a mother-hen choice;
- the row (position 1 first), the draw pile, the cards removed unseen at setup and,
  with two players, the robot's deck, all face down but the row; the cards nobody
  has seen and the robot's remaining cards as counts in the notes. The full view
  turns the draw pile, the removed cards and the robot's deck up (top card first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardgym.table import FULL, CardFace, TableSpec, hand, pile, seat_name, seat_part
from kakelaar_env.engine.actions import ACTION_SPECS, BID_CARD, HEN_NONE, HEN_PLAY, TAKE_CARD
from kakelaar_env.engine.cards import BID_VALUE, CHICKEN_TYPES, HEN, ROUNDS, TYPE_NAMES, CardType
from kakelaar_env.engine.state import (
    BID,
    GAME_OVER,
    HEN_STAGE,
    NONE,
    PHASE_NAMES,
    TAKE_FIRST,
    TAKE_SECOND,
    State,
)
from kakelaar_env.info.view import PlayerView

#: Card colours: worms from pale pink to deep earth, chickens from straw to orange,
#: the mother hen white.
_COLORS: Final = ("#f6d5d9", "#efbcc3", "#e7a3ad", "#d98b8f", "#c9786e", "#b0654f",
                  "#8f5139", "#6e3d2a", "#fff1a8", "#ffe17a", "#ffcf52", "#f9b233",
                  "#f08a24", "#fafafa")


def _display(card: CardType) -> str:
    if card == HEN:
        return "Mother Hen"
    kind, value = card.name.split("_")
    return f"{kind.capitalize()} {value}"


#: One face per card type, in :class:`~kakelaar_env.engine.cards.CardType` order: the value
#: is the number on the card (a worm's points, a chicken's bid), none for the hen.
FACES: Final = tuple(CardFace(TYPE_NAMES[card], _display(card),
                              None if card == HEN else BID_VALUE[card], _COLORS[card])
                     for card in CardType)

#: Every pile and area name the view writes.
PILES: Final = ("row", "draw", "removed", "robot_deck", "discard", "bid", "picks")

_STAGE_TEXT: Final[dict[int, str]] = {BID: "bids", HEN_STAGE: "mother hens",
                      TAKE_FIRST: "taking cards back (first pick)",
                      TAKE_SECOND: "taking cards back (second pick)"}


@dataclass(frozen=True)
class _Commit:
    """What a viewer knows of one seat's commits in the stage in progress.

    Attributes:
        count: choices committed (a bid, a hen choice, one or two picks).
        cards: the bid or the picks the viewer knows (none for another seat's).
        hen: the hen choice the viewer knows: 1 play, 0 not, ``NONE`` unknown.
    """

    count: int
    cards: tuple[CardFace, ...] = ()
    hen: int = NONE


def _faces(cards: Iterable[int]) -> list[CardFace]:
    return [FACES[card] for card in cards]


def _counted(counts: Sequence[int]) -> list[CardFace]:
    """The cards of a count vector, in card order."""
    return [FACES[card] for card, count in enumerate(counts) for _ in range(count)]


def _in_words(counts: Sequence[int], types: Iterable[int]) -> str:
    parts = [f"{FACES[t].name} x{counts[i]}" for i, t in enumerate(types) if counts[i]]
    return ", ".join(parts) if parts else "none"


def _who(participant: int, viewer: int | str | None, num_players: int) -> str:
    """A participant in words: "you", "the robot" or ``player_N``."""
    if num_players == 2 and participant == 2:
        return "the robot"
    return seat_name(participant, viewer)


def _commit_counts(phase: int, asked: Sequence[int], current: int) -> dict[int, int]:
    """Choices each seat has committed in the stage in progress (public: seats commit
    in the order ``asked``, and ``current`` is the next to commit)."""
    if phase == GAME_OVER or current not in asked:
        return {}
    done = asked.index(current)
    if phase == TAKE_SECOND:
        return {seat: 2 if i < done else 1 for i, seat in enumerate(asked)}
    return {seat: 1 for seat in asked[:done]}


def _commits_seen(view: PlayerView, seat: int | None) -> dict[int, _Commit]:
    """The commits as ``seat`` knows them (``None``: the spectator, who knows none)."""
    commits = {}
    for other, count in _commit_counts(view.phase, view.asked, view.current).items():
        if other != seat:
            commits[other] = _Commit(count)
        elif view.phase == BID:
            commits[other] = _Commit(count, (FACES[view.my_bid],))
        elif view.phase == HEN_STAGE:
            commits[other] = _Commit(count, hen=view.my_hen_choice)
        else:
            commits[other] = _Commit(count, tuple(_faces(view.my_picks)))
    return commits


def _commits_full(state: State) -> dict[int, _Commit]:
    """Every commit of the stage in progress, face up."""
    commits = {}
    for seat in range(state.num_players):
        if state.bids[seat] != NONE:
            commits[seat] = _Commit(1, (FACES[state.bids[seat]],))
        elif state.hen_choices[seat] != NONE:
            commits[seat] = _Commit(1, hen=state.hen_choices[seat])
        elif state.picks[seat]:
            commits[seat] = _Commit(len(state.picks[seat]), tuple(_faces(state.picks[seat])))
    return commits


def _commit_part(phase: int, commit: _Commit, whose: str) -> tuple[list[dict[str, Any]],
                                                                   list[str]]:
    """The areas and marks showing a seat's commit; ``whose`` is "your" for the
    viewer's seat, "its" in the full view and "" for another seat's (which shows no
    card, and says nothing of where the card lies)."""
    if phase == BID:
        label = {"your": "your bid, face down (still in your hand until the reveal)",
                 "its": "bid, face down (still in its hand until the reveal)"
                 }.get(whose, "bid, face down")
        return [pile("bid", label, commit.cards, commit.count)], []
    if phase == HEN_STAGE:
        mark = {1: "chose to play a mother hen (face down)",
                0: "chose to play no mother hen (face down)"}.get(commit.hen, "chose face down")
        return [], [mark]
    label = "picked to take back, face down" + (
        f" (still in {whose} discard pile until the reveal)" if whose else "")
    return [pile("picks", label, commit.cards, commit.count)], []


def _seat_status(view: PlayerView, seat: int, commits: dict[int, _Commit]) -> str:
    """A seat's part in the stage in progress, in words."""
    phase = view.phase
    if phase == GAME_OVER:
        if seat not in view.winners:
            return "lost"
        if len(view.winners) == 1:
            return "won"
        return "drew" if view.config.final_tie == "draw" else "won (shared)"
    count = commits[seat].count if seat in commits else 0
    asked = seat in view.asked
    if phase == BID:
        return "bid in, face down" if count else "to bid" if asked else "no card to bid"
    if phase == HEN_STAGE:
        return "chosen, face down" if count else "deciding" if asked else "no mother hen"
    if asked:
        wanted = 1 if phase == TAKE_FIRST else 2
        return ("picked, face down" if count >= wanted
                else "picking a card to take back")
    return "took the whole discard pile back" if view.hen_played[seat] else "waiting"


def _seats(view: PlayerView, viewer: int | str | None,
           commits: dict[int, _Commit]) -> list[dict[str, Any]]:
    scores = view.scores()
    seats = []
    for seat in range(view.num_players):
        areas = [pile("discard", "discard pile (face up)", _counted(view.discards[seat]))]
        marks = ["tractor"] if view.tractor_holder == seat else []
        if view.hen_played[seat]:
            marks.append("played a mother hen")
        if seat in commits:
            whose = "your" if seat == viewer else "its" if viewer == FULL else ""
            more_areas, more_marks = _commit_part(view.phase, commits[seat], whose)
            areas += more_areas
            marks += more_marks
        seats.append(seat_part(_seat_status(view, seat, commits),
                               hand(_counted(view.hands[seat])), scores[seat], "worms",
                               areas, marks))
    return seats


def _status(view: PlayerView, viewer: int | str | None) -> str:
    n = view.num_players
    if view.phase == GAME_OVER:
        won = ", ".join(_who(seat, viewer, n) for seat in view.winners)
        return f"Game over after round {view.round}: won by {won}"
    holder = _who(view.tractor_holder, viewer, n)
    holds = "hold" if holder == "you" else "holds"
    return (f"Round {view.round} of {ROUNDS}: {_STAGE_TEXT[view.phase]}; "
            f"{holder} {holds} the tractor")


def _notes(view: PlayerView, viewer: int | str | None) -> list[str]:
    """The public facts in words (the viewer's own commits are told by the seats)."""
    n = view.num_players
    removed = sum(view.unseen) - view.draw_pile_size
    where = (f"the draw pile and the {removed} cards removed at setup together" if removed
             else "the draw pile")
    notes = [f"Not seen yet ({where}): {_in_words(view.unseen, range(len(FACES)))}"]
    if n == 2:
        left = view.robot_remaining()
        notes.append(f"The robot's deck: {sum(left)} cards in a hidden order: "
                     f"{_in_words(left, CHICKEN_TYPES)}")
    order = [view.circle[(view.tractor_index + i) % len(view.circle)]
             for i in range(len(view.circle))]
    notes.append("Equal bids rank: " + ", ".join(_who(p, viewer, n) for p in order)
                 + " (the tractor holder first, then clockwise)")
    if any(card != NONE for card in view.last_bids):
        notes.append("Bids last revealed: " + "; ".join(
            f"{_who(p, viewer, n)}: {FACES[card].name if card != NONE else 'nothing'}"
            for p, card in enumerate(view.last_bids)))
    return notes


def _piles(view: PlayerView) -> list[dict[str, Any]]:
    """The middle of the table, face down but the row."""
    piles = [pile("row", "row (position 1 first)", _faces(view.row)),
             pile("draw", "draw pile", (), view.draw_pile_size)]
    removed = sum(view.unseen) - view.draw_pile_size
    if removed:
        piles.append(pile("removed", "removed unseen at setup", (), removed))
    if view.num_players == 2:
        piles.append(pile("robot_deck", "the robot's deck", (), sum(view.robot_remaining())))
    return piles


def _piles_full(state: State) -> list[dict[str, Any]]:
    """The middle of the table, every card face up (top card first)."""
    piles = [pile("row", "row (position 1 first)", _faces(state.row)),
             pile("draw", "draw pile (top card first)", _faces(reversed(state.deck)))]
    if state.removed:
        piles.append(pile("removed", "removed unseen at setup", _faces(state.removed)))
    if state.num_players == 2:
        piles.append(pile("robot_deck", "the robot's deck (top card first)",
                          _faces(reversed(state.robot_deck))))
    return piles


def table_view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The game's part of the table view of ``viewer`` (a seat, ``None`` for the
    spectator, ``"full"``)."""
    seat = viewer if isinstance(viewer, int) else None
    # The spectator reads the public facts of a seat's view, never its own knowledge.
    view = PlayerView(state, 0 if seat is None else seat)
    if viewer == FULL:
        commits, piles = _commits_full(state), _piles_full(state)
    else:
        commits, piles = _commits_seen(view, seat), _piles(view)
    return {"phase": PHASE_NAMES[view.phase], "status": _status(view, viewer),
            "seats": _seats(view, viewer, commits), "piles": piles,
            "notes": _notes(view, viewer)}


def action_label(state: State, action: int) -> str:
    """A legal action of the seat to act in words, spoken to that seat."""
    kind, card = ACTION_SPECS[action]
    if kind == BID_CARD:
        return f"bid {FACES[card].name}"
    if kind == HEN_PLAY:
        return "play a mother hen"
    if kind == HEN_NONE:
        return "play no mother hen"
    if kind == TAKE_CARD:
        return f"take back {FACES[card].name}"
    return "pass"


TABLE: Final = TableSpec(view=table_view, cards=FACES, phases=PHASE_NAMES, piles=PILES,
                         action_label=action_label, score_label="worms")
