"""The Karel Kakelaar action table: one ``Discrete`` space for the AEC and parallel envs.

Each action stands for a ``(kind, card)`` spec (:data:`ACTION_SPECS`, the form the
engine dispatches on) and, but ``pass``, for one engine move (:data:`MOVES`, the
readable form).
"""

from __future__ import annotations

from typing import Final

from cardgym.actions import ActionTable
from cardgym.record import NONE
from kakelaar_env.engine.cards import NUM_BIDDABLE, TYPE_NAMES
from kakelaar_env.engine.state import Bid, HenChoice, Move, State, TakeBack

# ACTION_SPECS[i] = (kind, card type or NONE).
BID_CARD: Final = 0
HEN_NONE: Final = 1
HEN_PLAY: Final = 2
TAKE_CARD: Final = 3
PASS: Final = 4


def _build_actions() -> list[tuple[str, tuple[int, int], str]]:
    rows: list[tuple[str, tuple[int, int], str]] = []
    for card in range(NUM_BIDDABLE):
        rows.append((f"bid:{TYPE_NAMES[card]}", (BID_CARD, card),
                     f"bid {TYPE_NAMES[card]} face down"))
    rows.append(("hen:none", (HEN_NONE, NONE), "play no mother hen this round"))
    rows.append(("hen:play", (HEN_PLAY, NONE),
                 "play a mother hen: it leaves the game and I take two cards of my discard pile "
                 "back (all of them if it holds two or fewer)"))
    for card in range(NUM_BIDDABLE):
        rows.append((f"take:{TYPE_NAMES[card]}", (TAKE_CARD, card),
                     f"take {TYPE_NAMES[card]} back from my discard pile"))
    rows.append(("pass", (PASS, NONE),
                 "parallel env only: nothing to decide in this step (no card to bid, or no "
                 "card to choose to take back)"))
    return rows


ACTION_TABLE: Final = ActionTable(_build_actions())
ACTION_SPECS: Final[tuple[tuple[int, int], ...]] = ACTION_TABLE.moves
NUM_ACTIONS: Final = len(ACTION_TABLE)
BID_BASE: Final = 0
HEN_NONE_INDEX: Final = ACTION_TABLE.index("hen:none")
HEN_PLAY_INDEX: Final = ACTION_TABLE.index("hen:play")
TAKE_BASE: Final = ACTION_TABLE.index("take:worm_1")
PASS_INDEX: Final = ACTION_TABLE.index("pass")


def _move(kind: int, card: int) -> Move | None:
    if kind == BID_CARD:
        return Bid(card)
    if kind == HEN_NONE or kind == HEN_PLAY:
        return HenChoice(kind == HEN_PLAY)
    if kind == TAKE_CARD:
        return TakeBack(card)
    return None


#: The engine move of each action (``None`` for ``pass``).
MOVES: Final[tuple[Move | None, ...]] = tuple(_move(kind, card) for kind, card in ACTION_SPECS)


def action_to_move(state: State, action: int) -> Move | None:
    """The engine move an action stands for (``None`` for ``pass``)."""
    return MOVES[action]


def move_to_action(state: State, move: Move) -> int:
    """The action index of an engine move of the seat to act."""
    if isinstance(move, Bid):
        return BID_BASE + move.card
    if isinstance(move, HenChoice):
        return HEN_PLAY_INDEX if move.play else HEN_NONE_INDEX
    return TAKE_BASE + move.card
