"""Exploding Kittens moves: the readable form of each decision (docs/rules/exploding_kittens.md).

Each move is a frozen dataclass naming what the seat to act chooses; targets are
seats (not offsets). The action table (:mod:`ek_env.engine.actions`) gives each legal move
an action index, and the engine applies moves through it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Draw:
    """End the turn by drawing the top card."""


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play one action card; ``target`` is the chosen seat for Favor."""

    card: int
    target: int | None = None


@dataclass(frozen=True, slots=True)
class PlayPair:
    """Two of a kind (a cat pair): take a random card from ``target``."""

    card: int
    target: int


@dataclass(frozen=True, slots=True)
class PlayThree:
    """Three of a kind against ``target``; the card to ask for is named next."""

    card: int
    target: int


@dataclass(frozen=True, slots=True)
class PlayFive:
    """Start five different; the five kinds are chosen next, one at a time."""


@dataclass(frozen=True, slots=True)
class ChooseFive:
    """Add one kind to the five different being assembled (ascending order)."""

    card: int


@dataclass(frozen=True, slots=True)
class NameCard:
    """Three of a kind: name the card asked for."""

    card: int


@dataclass(frozen=True, slots=True)
class Nope:
    """Nope the pending play (or the last Nope)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the pending play (or the last Nope) stand."""


@dataclass(frozen=True, slots=True)
class Give:
    """Favor: give a card of this kind to the player who asked; with the Streaking
    Kittens expansion, ``marked`` chooses a marked (public) copy rather than an
    unmarked one (where both are held they are different choices, docs/rules/README.md)."""

    card: int
    marked: bool = False


@dataclass(frozen=True, slots=True)
class Insert:
    """Defuse: put the kitten back with ``depth`` cards above it (0 = top)."""

    depth: int


@dataclass(frozen=True, slots=True)
class Take:
    """Five different: take a card of this kind from the discard pile."""

    card: int


@dataclass(frozen=True, slots=True)
class BlindPlay:
    """Streaking Kittens: a blind turn holder plays a random card of their hand."""


@dataclass(frozen=True, slots=True)
class BlindNope:
    """Streaking Kittens: a blind seat asked in a Nope window tries a random card."""


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    """Streaking Kittens: the target of a blind player's turned-up Favor, Mark or Curse."""

    target: int


@dataclass(frozen=True, slots=True)
class Alter:
    """Alter the Future 5x: put a card of this kind at the next depth, top first."""

    card: int


@dataclass(frozen=True, slots=True)
class Garbage:
    """Garbage Collection: put a card of this kind from hand into the draw pile;
    ``marked`` chooses a marked copy (see :class:`Give`)."""

    card: int
    marked: bool = False


Move = (Draw | PlayCard | PlayPair | PlayThree | PlayFive | ChooseFive | NameCard | Nope | Pass
        | Give | Insert | Take | BlindPlay | BlindNope | ChooseTarget | Alter | Garbage)
