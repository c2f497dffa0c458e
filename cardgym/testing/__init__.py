"""Conformance kit: the checks every cardgym environment must pass.

A :class:`GameKit` holds what the checks need of a game (how to build the env, and
the engine functions the checks compare against); :func:`kits_of` builds the kits of
a game from its contract (:class:`~cardgym.game.Game`). The functions here take a
kit and raise ``AssertionError`` with a readable message on the first failure. The
test suite runs every check over every registered game.

Checks: PettingZoo's ``api_test`` and ``render_test``; seeding over many episodes
(:func:`check_seeding`); masks equal the engine's legal moves
(:func:`check_masks`); observations inside their space (:func:`check_spaces`);
pickling mid-game (:func:`check_pickle`); clones that share nothing mutable
(:func:`check_clones`); the leak test (:func:`check_no_leaks`),
which varies hidden *cards*; the two choice checks, which vary a player's *choice*
(:func:`check_private_choices`: a secret choice leaves the seats not party to it
unable to tell the alternatives apart, and their resamples for search unchanged;
:func:`check_public_choices`: every seat tells public alternatives apart);
positions written mid-game and read back to the same state and the same play
(:func:`check_positions`); a batched engine against the AEC env, step by step
(:func:`check_batched`), and the leak and choice checks over its encoder
(:func:`batched_kit`); and random-play fuzzing with the game's invariants
(:func:`fuzz`).
"""

from cardgym.testing.batched import batched_kit, check_batched
from cardgym.testing.checks import (
    check_api,
    check_clones,
    check_declared_state,
    check_masks,
    check_pickle,
    check_render,
    check_seeding,
    check_spaces,
    fuzz,
    shared_mutables,
)
from cardgym.testing.choices import (
    ChoiceReport,
    SeatOutcome,
    check_choices,
    check_decision,
    check_private_choices,
    check_public_choices,
)
from cardgym.testing.kit import (
    GameKit,
    kits_of,
    legal_names,
    observation_fields,
    play_episode,
    random_action,
    scenario_env,
    step_names,
)
from cardgym.testing.leaks import check_no_leaks
from cardgym.testing.positions import check_positions

__all__ = [
    "check_positions",
    "ChoiceReport",
    "GameKit",
    "SeatOutcome",
    "batched_kit",
    "check_batched",
    "check_api",
    "check_choices",
    "check_clones",
    "check_declared_state",
    "check_decision",
    "check_masks",
    "check_no_leaks",
    "check_pickle",
    "check_private_choices",
    "check_public_choices",
    "check_render",
    "check_seeding",
    "check_spaces",
    "fuzz",
    "kits_of",
    "legal_names",
    "observation_fields",
    "play_episode",
    "random_action",
    "scenario_env",
    "shared_mutables",
    "step_names",
]
