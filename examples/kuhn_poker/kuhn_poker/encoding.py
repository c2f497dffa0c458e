"""The action table, the observation spec and the encoder of Kuhn poker."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from cardgym.actions import ActionTable
from cardgym.observation import Field, ObservationSpec
from kuhn_poker.rules import (
    BET,
    CALL,
    CARD_NAMES,
    CHECK,
    FOLD,
    MOVE_NAMES,
    NONE,
    NUM_CARDS,
    PlayerView,
)


@dataclass(frozen=True)
class Move:
    """A move: ``CHECK``, ``BET``, ``CALL`` or ``FOLD`` (``kuhn_poker.rules``)."""

    kind: int


ACTION_TABLE: Final = ActionTable([
    ("check", Move(CHECK), "put nothing in (no bet to face)"),
    ("bet", Move(BET), "bet one chip (no bet to face)"),
    ("call", Move(CALL), "match the bet: showdown"),
    ("fold", Move(FOLD), "give up the pot to the bettor"),
])

MAX_MOVES: Final = 3
OBSERVATION_SPEC: Final = ObservationSpec([
    Field("my_card", (NUM_CARDS,), 0.0, 1.0, f"my card, one-hot over {', '.join(CARD_NAMES)}"),
    Field("moves", (MAX_MOVES, len(MOVE_NAMES)), 0.0, 1.0,
          f"the moves so far in order, seat 0 first: one-hot over {', '.join(MOVE_NAMES)} "
          "(zeros: not yet)"),
    Field("shown", (NUM_CARDS,), 0.0, 1.0, "the other seat's card once shown at a showdown"),
    Field("to_act", (1,), 0.0, 1.0, "1 when it is my move"),
])


def encode(view: PlayerView) -> NDArray[np.float32]:
    """The observation vector of ``view``'s seat."""
    out = np.zeros(OBSERVATION_SPEC.size, dtype=np.float32)
    fields = OBSERVATION_SPEC.unpack(out)
    fields["my_card"][view.card] = 1.0
    for step, move in enumerate(view.moves):
        fields["moves"][step, move] = 1.0
    if view.shown != NONE:
        fields["shown"][view.shown] = 1.0
    fields["to_act"][0] = float(view.to_act)
    return out
