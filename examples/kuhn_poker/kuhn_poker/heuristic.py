"""A hand-written Kuhn poker policy: bet or call with the King; check or fold with
the Jack; with the Queen check, and call a bet one time in three."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kuhn_poker.encoding import OBSERVATION_SPEC
from kuhn_poker.rules import BET, CALL, CHECK, FOLD, Config


class KuhnHeuristic:
    """Plays from the observation alone; the generator decides the Queen's calls."""

    name = "heuristic"

    def __init__(self, config: Config) -> None:
        self.num_players = config.num_players

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        card = int(np.argmax(OBSERVATION_SPEC.unpack(observation)["my_card"]))
        facing_bet = bool(action_mask[CALL])
        if card == 2:
            return CALL if facing_bet else BET
        if facing_bet:
            return CALL if card == 1 and rng.random() < 1 / 3 else FOLD
        return CHECK
