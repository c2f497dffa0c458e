"""Exploding Kittens action tables: one per game setup, and the move each action
stands for.

Actions name seats as offsets clockwise from the turn holder (``+1`` is the next
seat), so one network can play every seat. Each phase has its own slice of the
table. There are two tables: the base game's (:data:`BASE_ACTIONS`, 319 actions)
and the Streaking Kittens expansion's (:data:`STREAKING_ACTIONS`), a superset built
by the same code over 22 card kinds and a deeper draw pile; the base game's actions
come first in the same order either way.

Each row's move is ``(kind, card, seat offset or 0, depth or 0)``, with ``kind`` one
of the codes below; :class:`Actions` also turns actions into the readable moves of
:mod:`ek_env.engine.moves` and back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from cardgym.actions import ActionTable
from cardgym.errors import IllegalMoveError
from ek_env.engine.cards import (
    CARD_NAMES,
    CURSE,
    FAVOR,
    KITTEN,
    MARK,
    MAX_DECK,
    MAX_DECK_STREAKING,
    MAX_PLAYERS,
    NOPE,
    NUM_KINDS,
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
from ek_env.engine.state import Config, State, combo_kinds, single_plays, takeable

# Kinds of action (the first field of a row's move).
DRAW: Final = 0
PLAY_SINGLE: Final = 1
PLAY_PAIR: Final = 2
PLAY_THREE: Final = 3
PLAY_FIVE: Final = 4
CHOOSE: Final = 5
NAME: Final = 6
NOPE_ACTION: Final = 7
PASS_ACTION: Final = 8
GIVE_ACTION: Final = 9
INSERT_ACTION: Final = 10
TAKE_ACTION: Final = 11
BLIND_PLAY: Final = 12
BLIND_NOPE: Final = 13
TARGET_ACTION: Final = 14
ALTER_ACTION: Final = 15
GARBAGE_ACTION: Final = 16
GIVE_MARKED: Final = 17  # Favor: give a marked copy (Streaking Kittens)
GARBAGE_MARKED: Final = 18  # Garbage Collection: put in a marked copy

_OFFSETS = range(1, MAX_PLAYERS)

Spec = tuple[int, int, int, int]
_Row = tuple[str, Spec, str]


def _build_actions(config: Config) -> list[_Row]:
    """The action rows of a setup; the base game's come first in the same order
    either way, each group extended by the expansion's kinds."""
    kinds = config.num_kinds
    streaking = config.streaking
    max_deck = MAX_DECK_STREAKING if streaking else MAX_DECK
    rows: list[_Row] = [("draw", (DRAW, -1, 0, 0), "end the turn by drawing the top card")]
    for card in single_plays(config):
        name = CARD_NAMES[card]
        if card in (FAVOR, MARK, CURSE):
            rows += [(f"play:{name}:+{k}", (PLAY_SINGLE, card, k, 0),
                      f"play {name} on seat +{k} clockwise") for k in _OFFSETS]
        else:
            rows.append((f"play:{name}", (PLAY_SINGLE, card, 0, 0), f"play {name}"))
    combos = combo_kinds(config)
    for kind, label in ((PLAY_PAIR, "pair"), (PLAY_THREE, "three")):
        for card in combos:
            name = CARD_NAMES[card]
            rows += [(f"{label}:{name}:+{k}", (kind, card, k, 0),
                      f"play {label} of {name} against seat +{k} clockwise") for k in _OFFSETS]
    rows.append(("five", (PLAY_FIVE, -1, 0, 0), "start five different (choose the kinds next)"))
    rows += [(f"five:{CARD_NAMES[card]}", (CHOOSE, card, 0, 0),
              f"add {CARD_NAMES[card]} to five different") for card in combos]
    rows += [(f"name:{CARD_NAMES[card]}", (NAME, card, 0, 0),
              f"three of a kind: ask for {CARD_NAMES[card]}") for card in range(kinds)]
    rows.append(("nope", (NOPE_ACTION, NOPE, 0, 0), "Nope the pending play or Nope"))
    rows.append(("pass", (PASS_ACTION, -1, 0, 0), "let the pending play or Nope stand"))
    givable = range(kinds) if streaking else takeable(config)
    rows += [(f"give:{CARD_NAMES[card]}", (GIVE_ACTION, card, 0, 0),
              f"Favor: give {CARD_NAMES[card]}" + (" (an unmarked copy)" if streaking else ""))
             for card in givable]
    if streaking:
        rows += [(f"give:{CARD_NAMES[card]}:marked", (GIVE_MARKED, card, 0, 0),
                  f"Favor: give a marked copy of {CARD_NAMES[card]}") for card in givable]
    rows += [(f"insert:depth={d}", (INSERT_ACTION, KITTEN, 0, d),
              f"put the kitten back with {d} cards above it") for d in range(max_deck)]
    rows += [(f"take:{CARD_NAMES[card]}", (TAKE_ACTION, card, 0, 0),
              f"five different: take {CARD_NAMES[card]} from the discard pile")
             for card in takeable(config)]
    if streaking:
        rows += _streaking_actions(kinds)
    return rows


def _streaking_actions(kinds: int) -> list[_Row]:
    """The rows only the expansion has, after every base row."""
    rows: list[_Row] = [
        ("blind:play", (BLIND_PLAY, -1, 0, 0), "blind: play a random card of my hand"),
        ("blind:nope", (BLIND_NOPE, -1, 0, 0), "blind: try to Nope with a random card of my hand"),
    ]
    rows += [(f"target:+{k}", (TARGET_ACTION, -1, k, 0),
              f"aim my turned-up card at seat +{k} clockwise") for k in _OFFSETS]
    rows += [(f"alter:{CARD_NAMES[card]}", (ALTER_ACTION, card, 0, 0),
              f"Alter the Future: put {CARD_NAMES[card]} next, top first")
             for card in range(kinds)]
    rows += [(f"garbage:{CARD_NAMES[card]}", (GARBAGE_ACTION, card, 0, 0),
              f"Garbage Collection: put an unmarked {CARD_NAMES[card]} into the draw pile")
             for card in range(kinds)]
    rows += [(f"garbage:{CARD_NAMES[card]}:marked", (GARBAGE_MARKED, card, 0, 0),
              f"Garbage Collection: put a marked {CARD_NAMES[card]} into the draw pile")
             for card in range(kinds)]
    return rows


# ------------------------------------------------------- readable moves

#: The move of an action that names no seat: (card, depth) -> move, by kind.
_PLAIN_MOVES: dict[int, Callable[[int, int], Move]] = {
    DRAW: lambda card, depth: Draw(),
    PLAY_SINGLE: lambda card, depth: PlayCard(card),
    PLAY_FIVE: lambda card, depth: PlayFive(),
    CHOOSE: lambda card, depth: ChooseFive(card),
    NAME: lambda card, depth: NameCard(card),
    NOPE_ACTION: lambda card, depth: Nope(),
    PASS_ACTION: lambda card, depth: Pass(),
    GIVE_ACTION: lambda card, depth: Give(card),
    INSERT_ACTION: lambda card, depth: Insert(depth),
    TAKE_ACTION: lambda card, depth: Take(card),
    BLIND_PLAY: lambda card, depth: BlindPlay(),
    BLIND_NOPE: lambda card, depth: BlindNope(),
    ALTER_ACTION: lambda card, depth: Alter(card),
    GARBAGE_ACTION: lambda card, depth: Garbage(card),
    GIVE_MARKED: lambda card, depth: Give(card, True),
    GARBAGE_MARKED: lambda card, depth: Garbage(card, True),
}
#: The move of an action aimed at a seat: (card, seat) -> move, by kind.
_AIMED_MOVES: dict[int, Callable[[int, int], Move]] = {
    PLAY_SINGLE: lambda card, target: PlayCard(card, target),
    PLAY_PAIR: lambda card, target: PlayPair(card, target),
    PLAY_THREE: lambda card, target: PlayThree(card, target),
    TARGET_ACTION: lambda card, target: ChooseTarget(target),
}
#: The kind of action of each move aimed at a seat.
_AIMED_KINDS: dict[type, int] = {
    PlayCard: PLAY_SINGLE, PlayPair: PLAY_PAIR, PlayThree: PLAY_THREE, ChooseTarget: TARGET_ACTION,
}


class Actions:
    """The action table of one game setup (base, or with the Streaking Kittens
    expansion), where each kind of action sits in it, and the readable move of each
    action.

    The index attributes serve the legal masks (:mod:`ek_env.engine.legality`): single bits
    (``*_bit``), action indices by card (``*_index``), and the first index of a run
    (``*_base``) or that index less one (``*_shift``: seat offsets 1..8 sit in
    consecutive actions, so a bit mask over offsets, bit ``k`` for offset ``k``,
    shifted left by it gives their actions).
    """

    def __init__(self, config: Config) -> None:
        self.streaking = config.streaking
        self.kinds = config.num_kinds
        self.max_deck = MAX_DECK_STREAKING if self.streaking else MAX_DECK
        self.action_table: ActionTable[Spec] = ActionTable(_build_actions(config))
        self.specs = self.action_table.moves
        self.num_actions = len(self.action_table)
        self._index_plays(config)
        self._index_answers(config)
        if self.streaking:
            self._index_streaking()
        self._moves = [
            None if offset else _PLAIN_MOVES[kind](card, depth)
            for kind, card, offset, depth in self.specs
        ]
        self._action_of_move = {move: i for i, move in enumerate(self._moves) if move is not None}

    def _index_plays(self, config: Config) -> None:
        """The turn holder's actions in phase PLAY and five different's kinds."""
        index = self.action_table.index
        names = CARD_NAMES
        singles = single_plays(config)
        self.draw_index = index("draw")
        self.single_bit = {card: 1 << index(f"play:{names[card]}")
                           for card in singles if card not in (FAVOR, MARK, CURSE)}
        self.target_shift = {card: index(f"play:{names[card]}:+1") - 1
                             for card in singles if card in (FAVOR, MARK, CURSE)}
        combos = combo_kinds(config)
        self.pair_shift = {card: index(f"pair:{names[card]}:+1") - 1 for card in combos}
        self.three_shift = {card: index(f"three:{names[card]}:+1") - 1 for card in combos}
        self.five_bit = 1 << index("five")
        self.choose_index = {card: index(f"five:{names[card]}") for card in combos}

    def _index_answers(self, config: Config) -> None:
        """The actions of the other base phases: naming, Nope windows, Favor, Defuse
        and five different's take."""
        index = self.action_table.index
        names = CARD_NAMES
        self.name_base = index(f"name:{names[0]}")
        self.name_mask = ((1 << self.kinds) - 1) << self.name_base
        self.nope_index = index("nope")
        self.pass_index = index("pass")
        self.give_index = {card: index(f"give:{names[card]}")
                           for card in (range(self.kinds) if self.streaking else takeable(config))}
        self.insert_base = index("insert:depth=0")
        self.take_index = {card: index(f"take:{names[card]}") for card in takeable(config)}

    def _index_streaking(self) -> None:
        """The expansion's actions: blind play, targets, Alter the Future, Garbage
        Collection, and marked copies."""
        index = self.action_table.index
        names = CARD_NAMES
        kinds = range(self.kinds)
        self.blind_play_bit = 1 << index("blind:play")
        self.blind_nope_index = index("blind:nope")
        self.target_base = index("target:+1") - 1
        self.alter_index = {card: index(f"alter:{names[card]}") for card in kinds}
        self.garbage_index = {card: index(f"garbage:{names[card]}") for card in kinds}
        self.give_marked_index = {card: index(f"give:{names[card]}:marked") for card in kinds}
        self.garbage_marked_index = {card: index(f"garbage:{names[card]}:marked")
                                     for card in kinds}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the setup it belongs to (one shared table per setup).
        return actions_named, (self.streaking,)

    def action_to_move(self, state: State, action: int) -> Move:
        """The move an action index stands for, for the seat to act."""
        move = self._moves[action]
        if move is not None:
            return move
        kind, card, offset, _ = self.specs[action]
        return _AIMED_MOVES[kind](card, (state.turn_holder + offset) % state.num_players)

    def move_to_action(self, state: State, move: Move) -> int:
        """The action index of a move of the seat to act.

        Raises:
            IllegalMoveError: no action stands for ``move`` (e.g. a Favor without a
                target).
        """
        index = self._action_of_move.get(move)
        if index is not None:
            return index
        kind = _AIMED_KINDS.get(type(move))
        target = getattr(move, "target", None)
        if kind is None or target is None:
            raise IllegalMoveError(f"move {move!r} has no action index")
        offset = (target - state.turn_holder) % state.num_players
        return self.action_table.index_of_move((kind, getattr(move, "card", -1), offset, 0))


BASE_ACTIONS: Final = Actions(Config())
STREAKING_ACTIONS: Final = Actions(Config(expansions=("streaking",)))


def actions_named(streaking: bool) -> Actions:
    """The action table of the base game, or of the Streaking Kittens expansion."""
    return STREAKING_ACTIONS if streaking else BASE_ACTIONS


def actions_for(config: Config) -> Actions:
    """The action table of a game setup."""
    return STREAKING_ACTIONS if config.streaking else BASE_ACTIONS


def actions_of(state: State) -> Actions:
    """The action table of the game ``state`` belongs to."""
    return STREAKING_ACTIONS if state.kinds > NUM_KINDS else BASE_ACTIONS
