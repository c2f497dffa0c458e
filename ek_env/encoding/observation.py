"""The Exploding Kittens observation: its fields for each game setup (docs/rules/README.md).

Observations are seat-relative: index 0 of every per-seat field is the observer,
then the other seats clockwise. The base game's fields come first in the same order
either way; the Streaking Kittens expansion widens the per-kind fields to 22 kinds
and adds its own fields at the end.
"""

from __future__ import annotations

from typing import Final

from cardgym.observation import Field, ObservationSpec
from ek_env.engine import record as rec
from ek_env.engine.cards import (
    CARD_NAMES,
    KITTEN,
    MAX_CARDS,
    MAX_CARDS_STREAKING,
    MAX_COPIES,
    MAX_COPIES_STREAKING,
    MAX_DECK,
    MAX_DECK_STREAKING,
    MAX_PLAYERS,
    NOPE,
)
from ek_env.engine.state import BASE_PHASES, PHASE_NAMES, PLAY_KIND_NAMES, Config

#: Owed turns above this are shown as this (only long Attack stacks reach it).
OWED_CAP: Final = 64
#: Events of the public record in the observation (``recent_moves``), newest first.
RECENT_MOVES: Final = 8


def event_codes(config: Config) -> int:
    """Event codes of the setup (the one-hot of a ``recent_moves`` row)."""
    return len(rec.EVENT_NAMES) if config.streaking else rec.BASE_EVENTS


def event_width(config: Config) -> int:
    """One row of ``recent_moves``: what, actor, target, card, result one-hots."""
    return event_codes(config) + 2 * MAX_PLAYERS + config.num_kinds + rec.RESULTS


def _event_doc(config: Config) -> str:
    codes = event_codes(config)
    return (f"one-hot event ({', '.join(rec.EVENT_NAMES[:codes])}; {codes}), actor "
            f"({MAX_PLAYERS}, relative), target ({MAX_PLAYERS}, relative), card "
            f"({config.num_kinds}, the public card: played, named, shown, taken), result "
            f"({rec.RESULTS}: 0 nothing/miss/stopped/lost, 1 done/hit/allowed/played, 2 a "
            "marked copy or already marked, 3 exploded; a count for saw, altered, bomb, and "
            "the Nopes so far for nope); see ek_env.engine.record for what each event holds")


def build_spec(config: Config) -> ObservationSpec:
    """The observation fields of a game setup."""
    streaking = config.streaking
    kinds = config.num_kinds
    max_deck = MAX_DECK_STREAKING if streaking else MAX_DECK
    copies = MAX_COPIES_STREAKING if streaking else MAX_COPIES
    most = max(copies)
    phases = PHASE_NAMES if streaking else PHASE_NAMES[:BASE_PHASES]
    kinds_doc = "kind order: " + ", ".join(CARD_NAMES[:kinds])
    fields = [
        Field("my_hand", (kinds,), 0, most,
              f"count of each kind in my hand ({kinds_doc})"
              + ("; while I am blind, only the cards I know: marked ones and those I saw "
                 "arrive" if streaking else "")),
        Field("phase", (len(phases),), 0, 1, "one-hot: " + ", ".join(phases)),
        Field("to_act", (MAX_PLAYERS,), 0, 1, "one-hot: the seat deciding now (relative)"),
        Field("turn_holder", (MAX_PLAYERS,), 0, 1, "one-hot: whose turn it is (relative)"),
        Field("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats at this table (relative)"),
        Field("alive", (MAX_PLAYERS,), 0, 1, "1 if the seat has not exploded (relative)"),
        Field("hand_sizes", (MAX_PLAYERS,), 0, MAX_CARDS_STREAKING if streaking else MAX_CARDS,
              "cards in each seat's hand (relative)"),
        Field("owed_turns", (1,), 0, OWED_CAP,
              f"turns the turn holder owes, the current one included (capped at {OWED_CAP})"),
        Field("attacked", (1,), 0, 1, "1 if the turn holder's turns come from an Attack"),
        Field("deck_size", (1,), 0, max_deck, "cards in the draw pile"),
        Field("kittens_in_deck", (1,), 0, copies[KITTEN],
              "Exploding Kittens in the draw pile or held in hands (a Streaking Kitten "
              "keeps one secretly, so the two are not told apart)" if streaking else
              "Exploding Kittens in the draw pile"),
        Field("discard", (kinds,), 0, most, "count of each kind in the discard pile"),
        Field("out_of_play", (kinds,), 0, most,
              "count of each kind set aside from exploded players (eliminated_cards='out_of_play')"),
        Field("pending_play", (len(PLAY_KIND_NAMES) - 1,), 0, 1,
              "one-hot: the announced play awaiting its Nope window: "
              + ", ".join(PLAY_KIND_NAMES[1:])),
        Field("pending_card", (kinds,), 0, 1,
              "one-hot: the card of the pending single play, pair or three of a kind"),
        Field("pending_five", (kinds,), 0, 1, "kinds chosen so far for five different"),
        Field("pending_target", (MAX_PLAYERS,), 0, 1, "one-hot: the pending play's target (relative)"),
        Field("pending_named", (kinds,), 0, 1, "one-hot: the card named in three of a kind"),
        Field("nopes", (1,), 0, copies[NOPE],
              "Nopes played on the pending play (it happens if even)"),
        Field("window_opener", (MAX_PLAYERS,), 0, 1,
              "one-hot: whose play or Nope the running Nope window answers (relative)"),
        Field("known_deck", (max_deck, kinds), 0, 1,
              "one-hot kind at each depth of the draw pile (0 = top) that I saw (See the Future) "
              "or placed (my Defuse), until a shuffle or another player's insertion makes it stale"),
        Field("known_hands", (MAX_PLAYERS - 1, kinds), 0, most,
              "count of each kind I know to be in each opponent's hand (given, received, stolen, "
              "asked for, taken from the discard pile, or drawn from a top I knew)"),
        Field("ruled_out", (MAX_PLAYERS, kinds), 0, 1,
              "1 if the table knows the seat holds no card of the kind: a three of a kind asked "
              "for it and missed; cleared when the seat's hand gains a card that could be one "
              "(relative)"),
        Field("recent_moves", (RECENT_MOVES, event_width(config)), 0, 1,
              f"the last {RECENT_MOVES} events of the public record, newest first, one row "
              "each (zeros where there is none): " + _event_doc(config)),
    ]
    if streaking:
        fields += _streaking_fields(kinds, copies[KITTEN], most)
    return ObservationSpec(fields)


def _streaking_fields(kinds: int, kittens: int, most: int) -> list[Field]:
    """The expansion's own fields, after every base field."""
    return [
        Field("blind", (MAX_PLAYERS,), 0, 1, "1 if the seat is blind (relative)"),
        Field("marked", (MAX_PLAYERS, kinds), 0, most,
              "count of each kind of marked (public) cards in each seat's hand (relative)"),
        Field("kittens_to_insert", (1,), 0, kittens,
              "defused kittens the seat to act still puts back"),
        Field("exploding", (MAX_PLAYERS,), 0, 1,
              "1 for seats whose held kitten explodes next (their Streaking Kitten went "
              "into the deck with Garbage Collection; relative)"),
        Field("garbage_waiting", (MAX_PLAYERS,), 0, 1,
              "1 for seats still to put a card in for Garbage Collection (relative)"),
        Field("alter_cards", (kinds,), 0, 5,
              "Alter the Future: the cards I still have to place (only mine)"),
        Field("alter_placed", (5, kinds), 0, 1,
              "Alter the Future: one-hot card I put at each depth so far (only mine)"),
    ]


# The fields every setup has, in order, in the three groups the encoder writes (it
# unpacks their offsets).
#: The table's public facts and my hand.
TABLE_FIELDS: Final = (
    "my_hand", "phase", "to_act", "turn_holder", "seat_present", "alive", "hand_sizes",
    "owed_turns", "attacked", "deck_size", "kittens_in_deck", "discard", "out_of_play",
)
#: The pending play.
PENDING_FIELDS: Final = (
    "pending_play", "pending_card", "pending_five", "pending_target", "pending_named",
    "nopes", "window_opener",
)
#: What I know of the draw pile and the other hands.
KNOWLEDGE_FIELDS: Final = ("known_deck", "known_hands")
#: The expansion's fields, in order (the encoder unpacks their offsets).
STREAKING_FIELDS: Final = (
    "blind", "marked", "kittens_to_insert", "exploding", "garbage_waiting", "alter_cards",
    "alter_placed",
)
