"""Hidden information of a Karel Kakelaar state, dealt anew for the leak test and the
search (a function of one seat's information and the generator alone)."""

from __future__ import annotations

import numpy as np

from cardgym.actions import actions_of
from cardgym.record import blank_unseen
from kakelaar_env.engine.actions import ACTION_SPECS
from kakelaar_env.engine.events import blank_secret
from kakelaar_env.engine.legality import stage_choices
from kakelaar_env.engine.state import NONE, State
from kakelaar_env.engine.turns import must_play_hen


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
    _deal_unseen(clone, rng)
    for other in range(clone.num_players):
        if other != seat:
            _choose_again(clone, other, rng)
    return clone


def _deal_unseen(state: State, rng: np.random.Generator) -> None:
    """Deal the draw pile with the cards removed unseen, and the robot deck, anew."""
    # Pools are sorted before they are dealt: the sample depends on what the seat
    # knows and on the generator alone, not on the real order of the hidden cards.
    unseen = sorted(state.deck + state.removed)
    unseen = [unseen[i] for i in rng.permutation(len(unseen))]
    state.deck, state.removed = unseen[: len(state.deck)], unseen[len(state.deck):]
    robot = sorted(state.robot_deck)
    state.robot_deck = [robot[i] for i in rng.permutation(len(robot))]


def _choose_again(state: State, seat: int, rng: np.random.Generator) -> None:
    """Choose ``seat``'s committed, unrevealed choices anew among the legal ones."""
    if state.bids[seat] != NONE:
        state.bids[seat] = _any_card(state, seat, rng)
    if state.hen_choices[seat] != NONE:
        state.hen_choices[seat] = 1 if must_play_hen(state, seat) else int(rng.integers(2))
    if state.picks[seat]:
        picks = state.picks[seat]
        state.picks[seat] = []
        for _ in picks:
            state.picks[seat].append(_any_card(state, seat, rng))


def _any_card(state: State, seat: int, rng: np.random.Generator) -> int:
    """A card the stage lets ``seat`` choose (a bid, or one to take back with the
    picks so far set aside), drawn uniformly."""
    options = actions_of(stage_choices(state, seat))
    return ACTION_SPECS[options[int(rng.integers(len(options)))]][1]
