"""Exploding Kittens: rule options, phases and the game state (docs/rules/exploding_kittens.md).

Hands, the discard pile, cards out of play and cards left in the box are counts per
card kind; the draw pile is a list of kinds with the top card last. What each seat
knows is kept beside the cards: the kinds at depths of the draw pile it has seen or
placed (``known_deck``), and lower bounds on the cards in every other hand
(``known_hands``). The moves are :mod:`ek_env.engine.moves`' (named here too).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

import numpy as np

from cardgym.config import check_choice, check_num_players
from cardgym.errors import OptionError
from cardgym.record import NONE, Event
from cardgym.state import SlotState, each_seat, slot
from ek_env.engine.cards import (
    CATS,
    COMBO_KINDS,
    COMBO_KINDS_STREAKING,
    DECK_DEFUSE_RULES,
    EXPANSIONS,
    HAND_SIZES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_KINDS,
    NUM_KINDS_STREAKING,
    SINGLE_PLAYS,
    STREAKING_PLAYS,
    TAKEABLE,
    TAKEABLE_STREAKING,
)
from ek_env.engine.moves import (
    Alter,
    BlindNope,
    BlindPlay,
    ChooseFive,
    ChooseTarget,
    Draw,
    Garbage,
    Give,
    Insert,
    Move,
    NameCard,
    Nope,
    Pass,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
    Take,
)


class Phase(IntEnum):
    """What the seat to act decides."""

    PLAY = 0  # the turn holder plays a card or combo, or draws to end the turn
    CHOOSE_FIVE = 1  # five different: pick the next kind (ascending) to play
    NAME_CARD = 2  # three of a kind: name the card to ask for
    NOPE_WINDOW = 3  # the seat asked may Nope the pending play or pass
    GIVE = 4  # Favor: the target chooses a card to give
    INSERT = 5  # Defuse: put the kitten back at a chosen depth
    TAKE = 6  # five different: take a card from the discard pile
    GAME_OVER = 7
    # Streaking Kittens phases
    ALTER = 8  # Alter the Future 5x: place the next card, top first
    GARBAGE = 9  # Garbage Collection: put one card from hand into the draw pile
    TARGET = 10  # a blind player's turned-up Favor, Mark or Curse: choose the target


PLAY: Final = Phase.PLAY
CHOOSE_FIVE: Final = Phase.CHOOSE_FIVE
NAME_CARD: Final = Phase.NAME_CARD
NOPE_WINDOW: Final = Phase.NOPE_WINDOW
GIVE: Final = Phase.GIVE
INSERT: Final = Phase.INSERT
TAKE: Final = Phase.TAKE
GAME_OVER: Final = Phase.GAME_OVER
ALTER: Final = Phase.ALTER
GARBAGE: Final = Phase.GARBAGE
TARGET: Final = Phase.TARGET
PHASE_NAMES: Final = tuple(phase.name.lower() for phase in Phase)
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

#: No seat (a pending play without a target, no winner).
NOBODY: Final = NONE
#: No card (a pending play without a card, no card named yet).
NO_CARD: Final = NONE
#: A depth of the draw pile whose card a seat does not know.
UNKNOWN: Final = NONE

ATTACK_STACKING_OPTIONS: Final = ("reset", "stack")
EMPTY_HAND_TARGET_OPTIONS: Final = ("allowed", "forbidden")
ELIMINATED_CARDS_OPTIONS: Final = ("discard", "out_of_play")


@dataclass(frozen=True)
class Config:
    """Rule options of docs/rules/exploding_kittens.md; defaults as the printed rules give them.

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
            (docs/rules/exploding_kittens.md, Streaking Kittens); a list is taken as a tuple.
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
        check_num_players(self, "Exploding Kittens", MIN_PLAYERS, MAX_PLAYERS)
        self._check_hand_size()
        check_choice("deck_defuses", self.deck_defuses, DECK_DEFUSE_RULES)
        check_choice("attack_stacking", self.attack_stacking, ATTACK_STACKING_OPTIONS)
        check_choice("combos", self.combos, (True, False))
        check_choice("empty_hand_target", self.empty_hand_target, EMPTY_HAND_TARGET_OPTIONS)
        check_choice("eliminated_cards", self.eliminated_cards, ELIMINATED_CARDS_OPTIONS)
        self._check_expansions()
        check_choice("fast", self.fast, (False, True))
        if self.fast and not self.streaking:
            raise OptionError("fast=True applies to the Streaking Kittens expansion; "
                              "pass expansions=('streaking',) with it")

    def _check_hand_size(self) -> None:
        if isinstance(self.hand_size, np.integer):  # numpy integers are welcome too
            object.__setattr__(self, "hand_size", int(self.hand_size))
        if not isinstance(self.hand_size, int) or isinstance(self.hand_size, bool):
            # 7.0 == 7, so the choice check alone would let a float through to the deal.
            raise OptionError(
                f"hand_size={self.hand_size!r} is not an integer; allowed: "
                f"{', '.join(map(repr, HAND_SIZES))}"
            )
        check_choice("hand_size", self.hand_size, HAND_SIZES)

    def _check_expansions(self) -> None:
        expansions = self.expansions
        if isinstance(expansions, str):  # one name, e.g. from ``--option expansions=streaking``
            expansions = (expansions,)
        if isinstance(expansions, list):
            expansions = tuple(expansions)
        if expansions is not self.expansions:
            object.__setattr__(self, "expansions", expansions)
        if (not isinstance(expansions, tuple) or len(set(expansions)) != len(expansions)
                or any(name not in EXPANSIONS for name in expansions)):
            raise OptionError(
                f"expansions={self.expansions!r} is not valid; give a tuple of distinct names "
                f"from: {', '.join(map(repr, EXPANSIONS))} (or () for the base game)"
            )

    @property
    def streaking(self) -> bool:
        """Whether the Streaking Kittens expansion is in play."""
        return "streaking" in self.expansions

    @property
    def num_kinds(self) -> int:
        """Card kinds in play: the length of every count-per-kind list."""
        return NUM_KINDS_STREAKING if "streaking" in self.expansions else NUM_KINDS


# ----------------------------------------------- what the options allow


def combo_kinds(config: Config) -> tuple[int, ...]:
    """Kinds that may join a combo (never a kitten, a Defuse or a Streaking Kitten)."""
    return COMBO_KINDS_STREAKING if config.streaking else COMBO_KINDS


def takeable(config: Config) -> tuple[int, ...]:
    """Kinds five different may take from the discard pile."""
    return TAKEABLE_STREAKING if config.streaking else TAKEABLE


def pair_kinds(config: Config) -> tuple[int, ...]:
    """Kinds that may form a pair (or three of a kind): cats only without combos."""
    return combo_kinds(config) if config.combos else CATS


def single_plays(config: Config) -> tuple[int, ...]:
    """Action cards played alone by choice."""
    return SINGLE_PLAYS + STREAKING_PLAYS if config.streaking else SINGLE_PLAYS


def _kind_counts(config: Config) -> list[int]:
    """A count of zero for each card kind in play."""
    return [0] * config.num_kinds


class State(SlotState):
    """Everything about a game in progress, including what each seat knows.

    Attributes (the less obvious ones):
        turn_holder: the seat whose turn it is.
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
            the codes of :mod:`ek_env.engine.record` (secrets marked with who saw them).
        ruled_out: flat ``[seat][kind]`` flags, public: the table knows ``seat`` holds
            no card of ``kind`` (a three of a kind asked for it and missed); cleared
            for the seat when its hand gains a card that could be of that kind.

    Code that edits a state by hand after it was encoded must call :meth:`touch`
    afterwards (the encoder caches the public facts per state, see ``memo`` and
    ``record_memo``).
    """

    config: Config = slot("config")
    num_players: int = slot("int", init=lambda config: config.num_players)
    deck: list[int] = slot("cards", mutable=True, hidden=True, json="deck", init=[])
    hands: list[list[int]] = slot("counts", per_seat=True, mutable=True, hidden=True,
                                  json="hands", init=each_seat(_kind_counts))
    discard: list[int] = slot("counts", mutable=True, json="discard", init=_kind_counts)
    out_of_play: list[int] = slot("counts", mutable=True, json="out_of_play", init=_kind_counts)
    box: list[int] = slot("counts", mutable=True, hidden=True, init=_kind_counts,
                          doc="cards of each kind left in the box at setup (with the fast "
                              "option, some unseen)")
    alive: list[bool] = slot("flag", per_seat=True, json="eliminated", init=each_seat(True))
    turn_holder: int = slot("seat", json="turn_holder", init=0)
    owed: int = slot("int", json="owed_turns", init=1)
    attacked: bool = slot("flag", json="attacked", init=False)
    phase: int = slot("phase", json="phase", init=PLAY)
    to_act: int = slot("seat", json="to_act", init=0)
    pending_kind: int = slot("play", json="pending.kind", init=NO_PLAY)
    pending_card: int = slot("card", json="pending.card", init=NO_CARD)
    pending_target: int = slot("seat", json="pending.target", init=NOBODY)
    pending_named: int = slot("card", json="pending.named", init=NO_CARD)
    pending_five: list[int] = slot("cards", mutable=True, json="pending.five", init=[])
    nopes: int = slot("int", json="pending.nopes", init=0)
    window_last: int = slot("seat", json="pending.window_last", init=NOBODY)
    held_kitten: int = slot("int", json="kittens_to_insert", init=0)
    known_deck: list[list[int]] = slot("cards", per_seat=True, mutable=True, hidden=True,
                                       json="known", init=each_seat([]))
    known_hands: bytearray = slot(
        "counts", mutable=True, hidden=True, json="known",
        init=lambda config: bytearray(config.num_players ** 2 * config.num_kinds))
    eliminated: list[int] = slot("seats", mutable=True, json="eliminated", init=[])
    winner: int = slot("seat", json="winner", init=NOBODY)
    turns_played: int = slot("int", json="turns_played", init=0)
    kinds: int = slot("int", init=lambda config: config.num_kinds)
    blind: list[bool] = slot("flag", per_seat=True, json="blind", init=each_seat(False))
    marked: list[bytearray] = slot("counts", per_seat=True, mutable=True, json="marked",
                                   init=each_seat(lambda config: bytearray(config.num_kinds)))
    explode_queue: list[int] = slot("seats", mutable=True, json="explode_queue", init=[])
    resume: int = slot("int", json="resume.after", init=RESUME_PLAY)
    resume_seat: int = slot("seat", json="resume.seat", init=NOBODY)
    alter_left: list[int] = slot("cards", mutable=True, hidden=True, json="alter.left", init=[])
    alter_placed: list[int] = slot("cards", mutable=True, hidden=True, json="alter.placed", init=[])
    garbage_queue: list[int] = slot("seats", mutable=True, json="garbage.queue", init=[])
    garbage_in: list[int] = slot("cards", mutable=True, hidden=True, json="garbage.in", init=[])
    garbage_from: list[int] = slot("seats", mutable=True, json="garbage.from", init=[])
    garbage_lost: list[int] = slot("seats", mutable=True, json="garbage.lost", init=[])
    marks_total: int = slot("int", init=0)
    sizes: list[int] = slot("int", per_seat=True, init=each_seat(0))
    log: list[Event] = slot("log", mutable=True, hidden=True, json="log", init=[])
    ruled_out: bytearray = slot(
        "flags", mutable=True, json="ruled_out",
        init=lambda config: bytearray(config.num_players * config.num_kinds))
    #: (length of ``log``, data): the encoder's layout of the public facts, shared by
    #: every seat's observation of this state (a cache). Valid while the log has that
    #: length and nothing else changed: every move (``Dispatch.apply``) drops it, and
    #: code that edits a state by hand calls :meth:`touch`.
    memo: tuple[int, object] | None = slot("cache", cache="drop")
    #: (length of ``log``, data): the encoder's layout of the newest events of the
    #: record (a cache), kept across moves, which only append to the log; code that
    #: edits the log by hand calls :meth:`touch`.
    record_memo: tuple[int, object] | None = slot("cache", cache="drop")

    def touch(self) -> None:
        """Mark the state as changed by hand (drops the encoder's caches)."""
        self.memo = self.record_memo = None

    def hand_size(self, seat: int) -> int:
        return self.sizes[seat]

    def count_sizes(self) -> None:
        """Recount ``sizes`` from ``hands`` (after dealing or rebuilding hands)."""
        self.sizes = [sum(hand) for hand in self.hands]


__all__ = [
    "ALTER", "ATTACK_STACKING_OPTIONS", "BASE_PHASES", "CHOOSE_FIVE", "ELIMINATED_CARDS_OPTIONS",
    "EMPTY_HAND_TARGET_OPTIONS", "FIVE", "GAME_OVER", "GARBAGE", "GIVE", "INSERT", "NAME_CARD",
    "NOBODY", "NOPE_WINDOW", "NO_CARD", "NO_PLAY", "PAIR", "PHASE_NAMES", "PLAY",
    "PLAY_KIND_NAMES", "RESUME_DRAW", "RESUME_PLAY", "RESUME_WINDOW", "SINGLE", "TAKE", "TARGET",
    "THREE", "UNKNOWN", "Alter", "BlindNope", "BlindPlay", "ChooseFive", "ChooseTarget", "Config",
    "Draw", "Garbage", "Give", "Insert", "Move", "NameCard", "Nope", "Pass", "Phase", "PlayCard",
    "PlayFive", "PlayPair", "PlayThree", "State", "Take", "combo_kinds", "pair_kinds",
    "single_plays", "takeable",
]
