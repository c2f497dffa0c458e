"""A checked Power Hungry Pets scenario, as the reader hands it to the loader: the
cards by value and what each seat knows by place (:mod:`phpets_env.positions.scenario` reads a
scenario into a :class:`Setup`; :mod:`phpets_env.positions.position` puts its cards in place)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardgym.record import Event

Place = tuple[Any, ...]


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows, by place.

    Attributes:
        hands: per seat, the indices of the cards of its hand this seat knows.
        aside, pending: whether it knows the set-aside card, the held-out card.
        deck: the pile depths it knows (0 = top).
        trapped: the places of the above it knows only through its own Mouse Trapper.
        watches_deck: whether it may know a pile depth (``State.deck_watchers``).
    """

    hands: tuple[frozenset[int], ...]
    aside: bool
    pending: bool
    deck: frozenset[int]
    trapped: frozenset[Place]
    watches_deck: bool


@dataclass(frozen=True)
class Setup:
    """A checked scenario, cards by value (``None``: dealt at random).

    Attributes:
        hands, rows, face_up: per seat (face up: the pair), as the keys say.
        aside: the set-aside card; ``aside_taken``: none is set aside.
        deck_top: the named top of the pile, top first (with ``whole_deck``, all of it).
        pending: Mouse Trapper's held-out card, or ``None``.
        first, to_act, phase: the start player, the seat to act and its phase
            (``to_act`` None: the round begins with ``first``'s turn).
        sizes: the number of cards each seat holds.
    """

    hands: list[list[int]] | None
    rows: list[list[int]]
    aside: int | None
    aside_taken: bool
    face_up: list[int] | None
    deck_top: list[int]
    whole_deck: bool
    pending: int | None
    first: int | None
    to_act: int | None
    phase: int
    sizes: list[int]
    in_round: list[bool]
    protected: list[bool]
    tokens: list[int]
    round_number: int
    round_winners: tuple[int, ...]
    match_winners: tuple[int, ...]
    ruled_out: list[int]
    known: list[Knowledge]
    log: list[Event]
