"""Hidden information of a Karel Kakelaar state, dealt anew for the leak test and the
search (a function of one seat's information and the generator alone)."""

from __future__ import annotations

import numpy as np

from cardgym.record import blank_unseen
from kakelaar_env.cards import NUM_BIDDABLE
from kakelaar_env.record import blank_secret
from kakelaar_env.rules import must_play_hen
from kakelaar_env.state import NONE, State


def resample(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state``.

    Hidden from ``seat``: the order of the draw pile and which cards were removed
    unseen (dealt anew together), the order of the robot deck, and the choices the
    other seats have committed in the current stage but not yet revealed (chosen
    anew among their legal moves), and the secrets of the other seats' face-down
    events in the record (blanked in the sample's log). Everything else is public:
    every card enters and leaves a hand face up, so the hands are known to all, and
    no seat knows anything private but its own choices (no other seat's knowledge to
    re-derive). The sample depends on ``seat``'s information and ``rng`` alone.
    """
    clone = state.clone()
    clone.log = blank_unseen(state.log, seat, blank_secret)
    # Pools are sorted before they are dealt: the sample depends on what ``seat``
    # knows and on the generator alone, not on the real order of the hidden cards.
    unseen = sorted(clone.deck + clone.removed)
    unseen = [unseen[i] for i in rng.permutation(len(unseen))]
    clone.deck, clone.removed = unseen[: len(clone.deck)], unseen[len(clone.deck):]
    robot = sorted(clone.robot_deck)
    clone.robot_deck = [robot[i] for i in rng.permutation(len(robot))]
    for other in range(clone.num_players):
        if other == seat:
            continue
        if clone.bids[other] != NONE:
            hand = clone.hands[other]
            options = [t for t in range(NUM_BIDDABLE) if hand[t]]
            clone.bids[other] = options[int(rng.integers(len(options)))]
        if clone.hen_choices[other] != NONE:
            forced = must_play_hen(clone, other)
            clone.hen_choices[other] = 1 if forced else int(rng.integers(2))
        if clone.picks[other]:
            left = clone.discards[other][:]
            picks = []
            for _ in clone.picks[other]:
                options = [t for t in range(NUM_BIDDABLE) if left[t]]
                card = options[int(rng.integers(len(options)))]
                left[card] -= 1
                picks.append(card)
            clone.picks[other] = picks
    return clone
