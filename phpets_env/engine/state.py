"""Power Hungry Pets: rule options, game state and moves.

The state holds physical card ids 0..20 (see ``cards.CARD_VALUES``) so that what a
seat knows can be kept as the set of card ids whose location it knows: a card
moved by a public, deterministic act (a draw from the top, a swap of hands)
stays known; a shuffle or a secret placement makes it stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from cardgym.config import check_choice, check_num_players
from cardgym.record import NONE, Event
from cardgym.state import SlotState, each_seat, slot
from phpets_env.engine.cards import MAX_PLAYERS, MIN_PLAYERS, TOTAL_TOKENS, tokens_to_win
from phpets_env.engine.events import PublicPart


class Phase(IntEnum):
    """What the seat to act decides."""

    PLAY = 0  # play one of the two hand cards
    GRAVE_DIGGER = 1  # keep the hand card or swap it with the set-aside card
    MOUSE_TRAPPER = 2  # put the looked-at top card back at a depth of choice
    MATCH_OVER = 3


# The phases by their plain names, as the engine compares them.
PLAY: Final = Phase.PLAY
GRAVE_DIGGER: Final = Phase.GRAVE_DIGGER
MOUSE_TRAPPER: Final = Phase.MOUSE_TRAPPER
MATCH_OVER: Final = Phase.MATCH_OVER
PHASE_NAMES: Final[tuple[str, ...]] = tuple(phase.name.lower() for phase in Phase)

ROBOVAC_OPTIONS: Final = ("dethrone", "duel_only")
FINAL_TIE_OPTIONS: Final = ("shared", "nobody")
START_PLAYER_OPTIONS: Final = ("winner", "rotate", "random")
REWARD_OPTIONS: Final = ("match", "round")

#: No card in a place that holds one card (the set-aside card once taken, say).
NO_CARD: Final = NONE


@dataclass(frozen=True)
class Config:
    """Rule options of docs/rules/power_hungry_pets.md; defaults as the printed rules give them.

    Attributes:
        num_players: 2 to 6.
        robovac: ``"dethrone"`` (King Cat cannot win a showdown Royal Robovac reaches)
            or ``"duel_only"`` (Robovac beats King Cat only when they are the last two).
        final_tie: ``"shared"`` (every player still tied after the row comparison takes
            a token) or ``"nobody"``.
        start_player: who starts rounds after the first: ``"winner"``, ``"rotate"``
            (clockwise from the previous start player) or ``"random"``.
        reward: ``"match"`` (+1 to each match winner, -1 to the others, at match end)
            or ``"round"`` (+1 to each round winner, -1 to the others, at each round end).
    """

    num_players: int = 2
    robovac: str = "dethrone"
    final_tie: str = "shared"
    start_player: str = "winner"
    reward: str = "match"

    def __post_init__(self) -> None:
        check_num_players(self, "Power Hungry Pets", MIN_PLAYERS, MAX_PLAYERS)
        check_choice("robovac", self.robovac, ROBOVAC_OPTIONS)
        check_choice("final_tie", self.final_tie, FINAL_TIE_OPTIONS)
        check_choice("start_player", self.start_player, START_PLAYER_OPTIONS)
        check_choice("reward", self.reward, REWARD_OPTIONS)

    @property
    def tokens_to_win(self) -> int:
        """Tokens that win the match (3 with 2-3 players, 2 with 4-6)."""
        return tokens_to_win(self.num_players)


class State(SlotState):
    """Everything about a match in progress, including what each seat knows.

    Decks are lists of card ids with the top card last. ``known[s]`` is a bit mask
    over card ids: bit ``c`` set means seat ``s`` knows where card ``c`` is, in a hidden
    place (a hand, the pile, the set-aside or held-out card: cards face up, in rows or
    set aside, are public and carry no bit);
    ``trapped[s]`` marks the part of it that rests on a Mouse Trapper depth only
    ``s`` saw (what :func:`~phpets_env.info.resample.resample_hidden` must sample, not copy).
    ``ruled_out[s]`` is a bit mask over *values* that the table knows seat ``s`` does
    not hold (a missed Crystal Bowl, a Battle Bunny result, Not A Pet! without a
    swap); it is cleared when ``s`` gets a new card. ``log`` is the public record
    (:mod:`phpets_env.display.record`), kept for the whole match. ``to_act`` is the seat that
    decides now (the last to decide once the match is over), ``phase`` what it decides.
    Code that edits a state by hand after it was encoded must call :meth:`touch`
    afterwards (the encoder caches the public facts per state, see ``memo``).
    """

    config: Config = slot("config")
    num_players: int = slot("int", init=lambda config: config.num_players)
    deck: list[int] = slot("cards", mutable=True, hidden=True, json="deck", init=[])
    aside: int = slot("card", hidden=True, json="set_aside", init=NO_CARD)
    face_up: list[int] = slot("cards", mutable=True, json="face_up", init=[])
    hands: list[list[int]] = slot("cards", per_seat=True, mutable=True, hidden=True,
                                  json="hands", init=each_seat([]))
    rows: list[list[int]] = slot("cards", per_seat=True, mutable=True, json="rows",
                                 init=each_seat([]))
    in_round: list[bool] = slot("flag", per_seat=True, json="eliminated",
                                init=each_seat(True))
    protected: list[bool] = slot("flag", per_seat=True, json="protected",
                                 init=each_seat(False))
    tokens: list[int] = slot("int", per_seat=True, json="tokens", init=each_seat(0))
    token_supply: int = slot("int", init=TOTAL_TOKENS)
    to_act: int = slot("seat", json="to_act", init=0)
    phase: int = slot("phase", json="phase", init=PLAY)
    pending: int = slot("card", hidden=True, json="pending", init=NO_CARD)
    known: list[int] = slot("bits", per_seat=True, hidden=True, json="known",
                            init=each_seat(0))
    trapped: list[int] = slot("bits", per_seat=True, hidden=True, json="known",
                              init=each_seat(0))
    ruled_out: list[int] = slot("bits", per_seat=True, json="ruled_out", init=each_seat(0))
    log: list[Event] = slot("log", mutable=True, hidden=True, json="log", init=[])
    deck_watchers: int = slot("bits", init=0, doc="seats that may know a position in the "
                              "pile (Mouse Trapper) since the last shuffle")
    round_start: int = slot("seat", json="first_player", init=0)
    round_number: int = slot("int", json="round", init=0)
    round_winners: tuple[int, ...] = slot("seats", json="round_winners", init=())
    match_winners: tuple[int, ...] = slot("seats", json="match_winners", init=())
    #: The public parts of ``log``'s events but the turn-start draws, and how many
    #: events of ``log`` they cover, filled in lazily by the view (a cache).
    public_log: list[PublicPart] | None = slot("log", cache="optional")
    public_seen: int | None = slot("int", cache="share")
    #: (length of ``log``, data): the encoder's layout of the public facts, shared by
    #: every seat's observation of this state (a cache). Valid while the log has that
    #: length and nothing else changed: every move (``apply_action``) drops it, and
    #: code that edits a state by hand calls :meth:`touch`.
    memo: tuple[int, object] | None = slot("cache", cache="drop")

    def touch(self) -> None:
        """Mark the state as changed by hand (drops the encoder's cache)."""
        self.memo = None


@dataclass(frozen=True, slots=True)
class Play:
    """Play a hand card of value ``card``.

    ``target`` is a seat (None for cards without one, or when no player can be
    chosen); ``guess`` is the value Crystal Bowl names.
    """

    card: int
    target: int | None = None
    guess: int | None = None


@dataclass(frozen=True, slots=True)
class GraveSwap:
    """Grave Digger: ``swap=True`` exchanges the hand card with the set-aside card."""

    swap: bool


@dataclass(frozen=True, slots=True)
class PlaceCard:
    """Mouse Trapper: put the looked-at card back at ``depth`` (0 = top)."""

    depth: int


Move = Play | GraveSwap | PlaceCard
