"""Exploding Kittens: rule options, game state and moves (RULES.md §3).

Hands, the discard pile, cards out of play and cards left in the box are counts per
card kind; the draw pile is a list of kinds with the top card last. What each seat
knows is kept beside the cards: the kinds at depths of the draw pile it has seen or
placed (``known_deck``), and lower bounds on the cards in every other hand
(``known_hands``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from cardgym.errors import OptionError
from cardgym.record import Event
from cardgym.state import SlotState
from ek_env.cards import (
    DECK_DEFUSE_RULES,
    EXPANSIONS,
    HAND_SIZES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_KINDS,
    NUM_KINDS_STREAKING,
)

# Phases: what the seat to act decides.
PLAY: Final = 0  # the turn holder plays a card or combo, or draws to end the turn
CHOOSE_FIVE: Final = 1  # five different: pick the next kind (ascending) to play
NAME_CARD: Final = 2  # three of a kind: name the card to ask for
NOPE_WINDOW: Final = 3  # the seat asked may Nope the pending play or pass
GIVE: Final = 4  # Favor: the target chooses a card to give
INSERT: Final = 5  # Defuse: put the kitten back at a chosen depth
TAKE: Final = 6  # five different: take a card from the discard pile
GAME_OVER: Final = 7
# Streaking Kittens phases
ALTER: Final = 8  # Alter the Future 5x: place the next card, top first
GARBAGE: Final = 9  # Garbage Collection: put one card from hand into the draw pile
TARGET: Final = 10  # a blind player's turned-up Favor, Mark or Curse: choose the target
PHASE_NAMES: Final = (
    "play", "choose_five", "name_card", "nope_window", "give", "insert", "take", "game_over",
    "alter", "garbage", "target",
)
#: Phases of the base game (the base observation's one-hot).
BASE_PHASES: Final = 8

# What continues once every pending explosion is settled.
RESUME_PLAY: Final = 0  # the turn holder plays on
RESUME_DRAW: Final = 1  # the exploding seat's own draw settles one owed turn
RESUME_WINDOW: Final = 2  # the Nope window goes on after the seat that tried to Nope

# Kinds of pending (announced, not yet resolved) plays.
NO_PLAY: Final = 0
SINGLE: Final = 1  # one action card
PAIR: Final = 2  # two of a kind (cat pair): steal at random
THREE: Final = 3  # three of a kind: ask for a named card
FIVE: Final = 4  # five different: take from the discard pile
PLAY_KIND_NAMES: Final = ("none", "single", "pair", "three", "five")

NOBODY: Final = -1
UNKNOWN: Final = -1  # a depth of the draw pile whose card a seat does not know

ATTACK_STACKING_OPTIONS: Final = ("reset", "stack")
EMPTY_HAND_TARGET_OPTIONS: Final = ("allowed", "forbidden")
ELIMINATED_CARDS_OPTIONS: Final = ("discard", "out_of_play")


def _check_choice(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
        raise OptionError(
            f"{name}={value!r} is not a valid option; allowed: {', '.join(map(repr, allowed))}"
        )


@dataclass(frozen=True)
class Config:
    """Rule options of RULES.md §3 (defaults follow the seed text).

    Attributes:
        num_players: 2 to 9 (two base decks from 6 players on).
        hand_size: cards dealt to each player besides the Defuse: 7, or 4 (2015 edition).
        deck_defuses: leftover Defuses in the draw pile: ``"seed"`` (all, 2 with two
            players) or ``"2024"`` (at most 2); with two decks all go in.
        attack_stacking: an attacked player's Attack: ``"reset"`` (the next player owes
            2) or ``"stack"`` (the next player owes the attacker's owed turns plus 2).
        combos: special combos (two and three of a kind of any name, five different);
            off keeps only cat pairs.
        empty_hand_target: ``"allowed"`` (Favor and pairs may target an empty hand, to
            no effect) or ``"forbidden"``.
        eliminated_cards: ``"discard"`` (an exploded player's hand and kitten go to the
            discard pile) or ``"out_of_play"`` (shown, then set aside).
        expansions: ``()`` or ``("streaking",)``: the Streaking Kittens expansion
            (RULES.md §4); a list is taken as a tuple.
        fast: with the expansion, remove a third of the undealt cards unseen before
            the kittens and leftover Defuses go in.
    """

    num_players: int = 2
    hand_size: int = 7
    deck_defuses: str = "seed"
    attack_stacking: str = "reset"
    combos: bool = True
    empty_hand_target: str = "allowed"
    eliminated_cards: str = "discard"
    expansions: tuple[str, ...] = ()
    fast: bool = False

    def __post_init__(self) -> None:
        for name in ("num_players", "hand_size"):  # numpy integers are welcome too
            value = getattr(self, name)
            if isinstance(value, np.integer):
                object.__setattr__(self, name, int(value))
        if (
            not isinstance(self.num_players, int)
            or isinstance(self.num_players, bool)
            or not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS
        ):
            raise OptionError(
                f"num_players={self.num_players!r} is not allowed; "
                f"Exploding Kittens takes {MIN_PLAYERS} to {MAX_PLAYERS} players"
            )
        if not isinstance(self.hand_size, int) or isinstance(self.hand_size, bool):
            # 7.0 == 7, so the choice check alone would let a float through to the deal.
            raise OptionError(
                f"hand_size={self.hand_size!r} is not an integer; allowed: "
                f"{', '.join(map(repr, HAND_SIZES))}"
            )
        _check_choice("hand_size", self.hand_size, HAND_SIZES)
        _check_choice("deck_defuses", self.deck_defuses, DECK_DEFUSE_RULES)
        _check_choice("attack_stacking", self.attack_stacking, ATTACK_STACKING_OPTIONS)
        _check_choice("combos", self.combos, (True, False))
        _check_choice("empty_hand_target", self.empty_hand_target, EMPTY_HAND_TARGET_OPTIONS)
        _check_choice("eliminated_cards", self.eliminated_cards, ELIMINATED_CARDS_OPTIONS)
        expansions = self.expansions
        if isinstance(expansions, str):  # one name, e.g. from ``--option expansions=streaking``
            expansions = (expansions,)
            object.__setattr__(self, "expansions", expansions)
        if isinstance(expansions, list):
            expansions = tuple(expansions)
            object.__setattr__(self, "expansions", expansions)
        if (not isinstance(expansions, tuple) or len(set(expansions)) != len(expansions)
                or any(name not in EXPANSIONS for name in expansions)):
            raise OptionError(
                f"expansions={self.expansions!r} is not valid; give a tuple of distinct names "
                f"from: {', '.join(map(repr, EXPANSIONS))} (or () for the base game)"
            )
        _check_choice("fast", self.fast, (False, True))
        if self.fast and not self.streaking:
            raise OptionError("fast=True applies to the Streaking Kittens expansion; "
                              "pass expansions=('streaking',) with it")

    @property
    def streaking(self) -> bool:
        """Whether the Streaking Kittens expansion is in play."""
        return "streaking" in self.expansions

    @property
    def num_kinds(self) -> int:
        """Card kinds in play: the length of every count-per-kind list."""
        return NUM_KINDS_STREAKING if "streaking" in self.expansions else NUM_KINDS


class State(SlotState):
    """Everything about a game in progress, including what each seat knows.

    Attributes (the less obvious ones):
        owed: turns the turn holder still owes, the current one included.
        attacked: whether the turn holder's turns come from an Attack (stacking).
        to_act: the seat deciding now (the turn holder, a seat in a Nope window, the
            target of a Favor).
        pending_*: the announced play awaiting its Nope window and resolution.
        window_last: the seat whose play or Nope opened the running Nope window; it
            is asked last.
        held_kitten: defused kittens waiting to be put back by the seat to act (phase
            INSERT): 1 in the base game, more after a blind player's explosion.
        kinds: card kinds in play (``config.num_kinds``).
        blind, marked: Streaking Kittens: blind seats; per seat the counts of its
            marked (public) cards, a bytearray per seat; marks_total: all marked
            cards (a quick test).
        explode_queue: seats whose kitten explodes next (Garbage Collection can
            explode several); resume, resume_seat: what goes on once they are settled.
        alter_left, alter_placed: Alter the Future 5x: cards still to place, and the
            cards placed so far (top first); they are off the draw pile meanwhile.
        garbage_queue, garbage_in, garbage_from, garbage_lost: Garbage Collection:
            seats still to put a card in, the cards put in and who put them, and the
            seats whose Streaking Kitten went in while they held a kitten.
        known_deck: per seat, the kind at each depth (0 = top) it knows, else UNKNOWN.
        known_hands: flat ``[observer * n + other][kind]`` lower bounds, as one
            ``bytearray`` of ``n * n * kinds`` counts (copied into observations as is).
        sizes: the number of cards in each hand (kept with ``hands``, for speed).
        eliminated: seats in the order they exploded.
        log: the public record, one :class:`~cardgym.record.Event` per happening, in
            the codes of :mod:`ek_env.record` (secrets marked with who saw them).
        ruled_out: flat ``[seat][kind]`` flags, public: the table knows ``seat`` holds
            no card of ``kind`` (a three of a kind asked for it and missed); cleared
            for the seat when its hand gains a card that could be of that kind.
    """

    __slots__ = (
        "config", "num_players", "deck", "hands", "discard", "out_of_play", "box", "alive",
        "current", "owed", "attacked", "phase", "to_act", "pending_kind", "pending_card",
        "pending_target", "pending_named", "pending_five", "nopes", "window_last",
        "held_kitten", "known_deck", "known_hands", "eliminated", "winner", "turns_played",
        "kinds", "blind", "marked", "explode_queue", "resume", "resume_seat", "alter_left",
        "alter_placed", "garbage_queue", "garbage_in", "garbage_from", "garbage_lost",
        "marks_total", "sizes", "log", "ruled_out",
    )

    def __init__(self, config: Config) -> None:
        n = config.num_players
        k = config.num_kinds
        self.config = config
        self.num_players = n
        self.kinds = k
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[0] * k for _ in range(n)]
        self.sizes: list[int] = [0] * n
        self.discard: list[int] = [0] * k
        self.out_of_play: list[int] = [0] * k
        self.box: list[int] = [0] * k
        self.alive: list[bool] = [True] * n
        self.current: int = 0
        self.owed: int = 1
        self.attacked: bool = False
        self.phase: int = PLAY
        self.to_act: int = 0
        self.pending_kind: int = NO_PLAY
        self.pending_card: int = NOBODY
        self.pending_target: int = NOBODY
        self.pending_named: int = NOBODY
        self.pending_five: list[int] = []
        self.nopes: int = 0
        self.window_last: int = NOBODY
        self.held_kitten: int = 0
        self.known_deck: list[list[int]] = [[] for _ in range(n)]
        self.known_hands = bytearray(n * n * k)
        self.eliminated: list[int] = []
        self.winner: int = NOBODY
        self.turns_played: int = 0
        self.blind: list[bool] = [False] * n
        self.marked: list[bytearray] = [bytearray(k) for _ in range(n)]
        self.marks_total: int = 0
        self.explode_queue: list[int] = []
        self.resume: int = RESUME_PLAY
        self.resume_seat: int = NOBODY
        self.alter_left: list[int] = []
        self.alter_placed: list[int] = []
        self.garbage_queue: list[int] = []
        self.garbage_in: list[int] = []
        self.garbage_from: list[int] = []
        self.garbage_lost: list[int] = []
        self.log: list[Event] = []
        self.ruled_out = bytearray(n * k)

    def clone(self) -> State:
        """An independent copy (the config is shared: it is immutable)."""
        other = State.__new__(State)
        other.config = self.config
        other.num_players = self.num_players
        other.deck = self.deck[:]
        other.hands = [hand[:] for hand in self.hands]
        other.sizes = self.sizes[:]
        other.discard = self.discard[:]
        other.out_of_play = self.out_of_play[:]
        other.box = self.box[:]
        other.alive = self.alive[:]
        other.current = self.current
        other.owed = self.owed
        other.attacked = self.attacked
        other.phase = self.phase
        other.to_act = self.to_act
        other.pending_kind = self.pending_kind
        other.pending_card = self.pending_card
        other.pending_target = self.pending_target
        other.pending_named = self.pending_named
        other.pending_five = self.pending_five[:]
        other.nopes = self.nopes
        other.window_last = self.window_last
        other.held_kitten = self.held_kitten
        other.known_deck = [known[:] for known in self.known_deck]
        other.known_hands = self.known_hands[:]
        other.eliminated = self.eliminated[:]
        other.winner = self.winner
        other.turns_played = self.turns_played
        other.kinds = self.kinds
        other.blind = self.blind[:]
        other.marked = [marks[:] for marks in self.marked]
        other.marks_total = self.marks_total
        other.explode_queue = self.explode_queue[:]
        other.resume = self.resume
        other.resume_seat = self.resume_seat
        other.alter_left = self.alter_left[:]
        other.alter_placed = self.alter_placed[:]
        other.garbage_queue = self.garbage_queue[:]
        other.garbage_in = self.garbage_in[:]
        other.garbage_from = self.garbage_from[:]
        other.garbage_lost = self.garbage_lost[:]
        other.log = self.log[:]
        other.ruled_out = self.ruled_out[:]
        return other

    def hand_size(self, seat: int) -> int:
        return self.sizes[seat]

    def count_sizes(self) -> None:
        """Recount ``sizes`` from ``hands`` (after dealing or rebuilding hands)."""
        self.sizes = [sum(hand) for hand in self.hands]


# ------------------------------------------------------------------- moves


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
    unmarked one (where both are held they are different choices, RULES.md §1)."""

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
