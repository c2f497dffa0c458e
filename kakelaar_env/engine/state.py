"""Karel Kakelaar: rule options, game state and moves.

A round runs through *stages*. In each stage every seat with a decision commits
one choice, in a fixed public order (the tractor holder first, then clockwise);
a committed choice stays hidden from the other seats until the last one is in,
then one resolution reveals them together. The stages: ``BID`` (one hand card
each), ``HEN`` (play a mother hen or not), ``TAKE_FIRST`` and ``TAKE_SECOND``
(the two cards a hen player takes back from their discard pile, when the pile
holds more than two; with two or fewer they take all without choosing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

import numpy as np

from cardgym.config import check_choice, check_num_players
from cardgym.errors import OptionError
from cardgym.record import NONE, Event
from cardgym.state import SlotState, each_seat, slot
from kakelaar_env.engine.cards import (
    DEFAULT_WORM_COUNTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_WORM_VALUES,
    NUM_WORMS,
)
from kakelaar_env.engine.digest import DIGEST_WIDTH


class Phase(IntEnum):
    """The stages of a round, and the end of the game."""

    BID = 0
    HEN = 1
    TAKE_FIRST = 2
    TAKE_SECOND = 3
    GAME_OVER = 4


BID: Final = Phase.BID
HEN_STAGE: Final = Phase.HEN
TAKE_FIRST: Final = Phase.TAKE_FIRST
TAKE_SECOND: Final = Phase.TAKE_SECOND
GAME_OVER: Final = Phase.GAME_OVER
PHASE_NAMES: Final = tuple(phase.name.lower() for phase in Phase)

REWARD_OPTIONS: Final = ("win_loss", "score_difference")
FINAL_TIE_OPTIONS: Final = ("shared", "draw")

__all__ = [
    "BID", "FINAL_TIE_OPTIONS", "GAME_OVER", "HEN_STAGE", "NONE", "PHASE_NAMES",
    "REWARD_OPTIONS", "TAKE_FIRST", "TAKE_SECOND", "Bid", "Config", "HenChoice", "Move",
    "Phase", "State", "TakeBack",
]


def _check_worm_counts(value: object) -> tuple[int, ...]:
    allowed = (
        f"allowed: {NUM_WORM_VALUES} non-negative integers (worms of value 1..8) summing to "
        f"{NUM_WORMS}, e.g. {DEFAULT_WORM_COUNTS}"
    )
    if isinstance(value, np.ndarray) and value.ndim == 1:  # numpy integers are welcome too
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise OptionError(f"worm_counts={value!r} is not a sequence; {allowed}")
    if len(value) != NUM_WORM_VALUES:
        raise OptionError(f"worm_counts={value!r} has {len(value)} entries; {allowed}")
    counts = []
    for count in value:
        if isinstance(count, bool) or not isinstance(count, int) and not hasattr(count, "__index__"):
            raise OptionError(f"worm_counts={value!r} holds {count!r}, not an integer; {allowed}")
        if int(count) < 0:
            raise OptionError(f"worm_counts={value!r} holds a negative count; {allowed}")
        counts.append(int(count))
    if sum(counts) != NUM_WORMS:
        raise OptionError(f"worm_counts={value!r} sums to {sum(counts)}; {allowed}")
    return tuple(counts)


@dataclass(frozen=True)
class Config:
    """Rule options (docs/rules/karel_kakelaar.md).

    Attributes:
        num_players: 2 to 5 (with 2, a robot chicken bids as a third participant).
        worm_counts: worms of value 1..8, eight non-negative numbers summing to 36.
        reward: ``"win_loss"`` (+1 to each winner, -1 to every other player) or
            ``"score_difference"`` (own worm total minus the mean of the others').
        final_tie: players still tied on worms and hand size: ``"shared"`` (all win)
            or ``"draw"`` (they get 0, the others -1).
    """

    num_players: int = 2
    worm_counts: tuple[int, ...] = DEFAULT_WORM_COUNTS
    reward: str = "win_loss"
    final_tie: str = "shared"

    def __post_init__(self) -> None:
        check_num_players(self, "Karel Kakelaar", MIN_PLAYERS, MAX_PLAYERS)
        object.__setattr__(self, "worm_counts", _check_worm_counts(self.worm_counts))
        check_choice("reward", self.reward, REWARD_OPTIONS)
        check_choice("final_tie", self.final_tie, FINAL_TIE_OPTIONS)

    @property
    def robot(self) -> bool:
        """Whether a robot chicken plays (two players)."""
        return self.num_players == 2


def participants(config: Config) -> int:
    """The seats, and the robot chicken with two players."""
    return config.num_players + (1 if config.robot else 0)


class State(SlotState):
    """Everything about a game in progress.

    Participants are the seats ``0..n-1`` and, with two players, the robot chicken
    as participant ``2`` (:attr:`robot`). ``circle`` lists the participants
    clockwise; the tractor holder is ``circle[tractor]``. Hands and discard piles
    are count vectors over card types (discard piles over the 13 biddable types: a
    mother hen never goes there); piles of cards are lists with the top last.
    Committed choices (``bids``, ``hen_choices``, ``picks``) are hidden from the
    other seats until their stage resolves. ``version`` changes whenever a public fact
    does (a row turned, a stage opened or resolved); code that edits a state by hand
    must call :meth:`touch` afterwards.

    ``asked`` lists the seats with a decision in the current stage, in commit order,
    and ``cursor`` points at the next to commit: ``current`` is ``asked[cursor]``
    (kept after the game as the last seat that acted). :attr:`to_act` reads it.

    ``log`` is the public record (:mod:`kakelaar_env.display.record`), oldest event first;
    ``record_start`` is the index in it of the newest bid reveal (0 before the first),
    and ``round_digest`` what the events from there on show, participant by
    participant (:func:`kakelaar_env.engine.digest.round_digest`), kept as they are appended
    so that the encoder need not read the log on every step.
    """

    config: Config = slot("config")
    num_players: int = slot("int", init=lambda config: config.num_players)
    round: int = slot("int", json="round", init=1)
    phase: Phase = slot("phase", json="phase", init=BID)
    current: int = slot("seat", json="to_act", init=0)
    asked: list[int] = slot("seats", mutable=True, init=[],
                            doc="the seats asked in the current stage, in commit order")
    cursor: int = slot("int", init=0, doc="the index in asked of the next to commit")
    deck: list[int] = slot("cards", mutable=True, hidden=True, json="deck", init=[])
    removed: list[int] = slot("cards", mutable=True, hidden=True, json="removed", init=[])
    unseen: list[int] = slot("counts", mutable=True, init=[],
                             doc="each type's count in the draw pile and the removed cards")
    row: list[int] = slot("cards", mutable=True, json="row", init=[])
    # Count vectors as bytearrays (counts stay far below 256): cheap to copy and to
    # lay out in an observation.
    hands: list[bytearray] = slot("counts", per_seat=True, mutable=True, json="hands", init=[])
    discards: list[bytearray] = slot("counts", per_seat=True, mutable=True, json="discards",
                                     init=[])
    circle: tuple[int, ...] = slot(
        "seats", json="circle",
        init=lambda config: tuple(range(participants(config))))
    tractor: int = slot("int", json="tractor", init=0)
    robot_deck: list[int] = slot("cards", mutable=True, hidden=True, json="robot_deck",
                                 init=[])
    robot_discard: list[int] = slot("cards", mutable=True, json="robot_discard", init=[])
    robot_won: list[int] = slot("cards", mutable=True, json="robot_won", init=[])
    hens_out: int = slot("int", json="hens_out", init=0)
    bids: list[int] = slot("card", per_seat=True, hidden=True, json="bids",
                           init=each_seat(NONE))
    hen_choices: list[int] = slot("flag", per_seat=True, hidden=True, json="hen_choices",
                                  init=each_seat(NONE))
    hen_played: list[bool] = slot("flag", per_seat=True, json="hen_played",
                                  init=each_seat(False))
    picks: list[list[int]] = slot("cards", per_seat=True, mutable=True, hidden=True,
                                  json="picks", init=each_seat([]))
    # Bid of each participant (the robot last) in the last resolved round; NONE: no bid.
    last_bids: list[int] = slot(
        "card", per_seat=True, json="last_bids",
        init=lambda config: [NONE] * participants(config))
    winners: tuple[int, ...] = slot("seats", json="winners", init=())
    version: int = slot("int", init=0)
    log: list[Event] = slot("log", mutable=True, hidden=True, json="log", init=[])
    record_start: int = slot("int", init=0)
    round_digest: bytes = slot(
        "bytes", init=lambda config: bytes((config.num_players + 1) * DIGEST_WIDTH))
    # (version, data): a cache of public facts for the encoder, valid while the
    # version is unchanged. Engine functions bump the version on every public change.
    memo: tuple[int, object] | None = slot("cache", cache="drop")

    @property
    def to_act(self) -> int:
        """The seat that decides now (the last seat that acted once the game is over)."""
        return self.current

    @property
    def robot(self) -> int:
        """The robot's participant number (two players); -1 without a robot."""
        return 2 if self.num_players == 2 else -1

    @property
    def tractor_holder(self) -> int:
        """The participant holding the tractor."""
        return self.circle[self.tractor]

    def touch(self) -> None:
        """Mark public facts as changed (drops the encoder's cache)."""
        self.version += 1
        self.memo = None


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid a hand card of type ``card`` (a worm or a chicken; never a mother hen)."""

    card: int


@dataclass(frozen=True, slots=True)
class HenChoice:
    """Play a mother hen (``play=True``) or not, in the mother-hen step."""

    play: bool


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Take a card of type ``card`` back from the own discard pile (after a mother hen)."""

    card: int


Move = Bid | HenChoice | TakeBack
