"""Negative knowledge from public events: the ``ruled_out`` field (docs/rules/README.md).

What the table sees implies what a seat does *not* hold: a missed Crystal Bowl, the
result of a Battle Bunny, a Not A Pet! without a swap. Every seat's observation holds
it (relative to the observer) until the seat in question gets a new card.
"""

from __future__ import annotations

import numpy as np

from phpets_env import rules
from phpets_env.engine import flow
from phpets_env.engine.cards import NUM_VALUES
from phpets_env.engine.state import Play
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    HERMIT,
    JUGGLER,
    KING,
    NOT_A_PET,
    ROBOVAC,
    SHIELD,
    SNAKE,
    TRAPPER,
    fields,
    make_env,
    make_state,
    step_name,
)


def ruled_out(game: object, observer: int, other: int) -> list[int]:
    """Values ``observer``'s observation says ``other`` does not hold."""
    rel = (other - observer) % game.num_players  # type: ignore[attr-defined]
    row = fields(game, observer)["ruled_out"][rel - 1]  # type: ignore[arg-type]
    return [v for v in range(NUM_VALUES) if row[v]]


def test_a_missed_crystal_bowl_tells_every_seat_the_target_lacks_that_value() -> None:
    game = make_env(4, {"hands": [BOWL, SHIELD, TRAPPER, ROBOVAC],
                        "deck_top": [BUNNY, JUGGLER, SNAKE], "first_player": 0})
    step_name(game, "play:crystal_bowl:+2:hermit_swap")  # seat 0 misses at seat 2
    for observer in (0, 1, 3):
        assert ruled_out(game, observer, 2) == [HERMIT]
        assert ruled_out(game, observer, 1) == []  # seat 1 has drawn: nothing known


def test_ruled_out_goes_stale_when_the_seat_draws() -> None:
    game = make_env(3, {"hands": [BOWL, SHIELD, TRAPPER], "deck_top": [BUNNY, JUGGLER, SNAKE],
                        "first_player": 0})
    step_name(game, "play:crystal_bowl:+1:hermit_swap")
    # Seat 1 drew at the start of its turn: the drawn card could be a Hermit Swap.
    assert ruled_out(game, 0, 1) == []
    game = make_env(3, {"hands": [BOWL, SHIELD, TRAPPER], "deck_top": [BUNNY, JUGGLER, SNAKE],
                        "first_player": 0})
    step_name(game, "play:crystal_bowl:+2:hermit_swap")
    assert ruled_out(game, 0, 2) == [HERMIT]
    step_name(game, "play:shell_shield")  # seat 1; then seat 2 draws
    assert ruled_out(game, 0, 2) == [] and ruled_out(game, 1, 2) == []


def test_ruled_out_moves_with_the_hand_in_a_hermit_swap() -> None:
    state = make_state([[BOWL, BUNNY], [HERMIT], [TRAPPER], [ROBOVAC]],
                       deck=[SNAKE, JUGGLER, SHIELD, DIGGER])
    rng = np.random.default_rng(0)
    rules.apply(state, Play(BOWL, 2, KING), rng)  # miss: seat 2 has no King Cat
    assert state.ruled_out[2] == 1 << KING
    rules.apply(state, Play(HERMIT, 2), rng)  # seat 1, having drawn, swaps with seat 2
    # Seat 1 drew before swapping, so the hand it gave carries nothing; seat 1 now holds
    # seat 2's old hand, of which King Cat was ruled out.
    assert state.ruled_out[1] == 1 << KING and state.ruled_out[2] == 0


def test_the_winner_of_a_battle_bunny_holds_more_than_the_revealed_card() -> None:
    game = make_env(3, {"hands": [SNAKE, SHIELD, TRAPPER], "deck_top": [BUNNY, JUGGLER],
                        "first_player": 0})
    step_name(game, "play:battle_bunny:+1")  # seat 1 loses with its Shell Shield (4)
    assert ruled_out(game, 2, 0) == [0, 1, 2, 3, 4]


def test_a_battle_bunny_tie_rules_out_values_without_two_copies_left() -> None:
    game = make_env(3, {"hands": [SHIELD, SHIELD, TRAPPER], "deck_top": [BUNNY, JUGGLER],
                        "first_player": 0})
    step_name(game, "play:battle_bunny:+1")
    # Equal cards: no single-copy value (0, 6, 7, 8, 9, 10), and not Battle Bunny, of
    # which one copy is face up in seat 0's row, two left: still possible.
    single = [ROBOVAC, DIGGER, JUGGLER, HERMIT, NOT_A_PET, KING]
    assert ruled_out(game, 2, 0) == single
    assert ruled_out(game, 2, 1) == []  # seat 1 has drawn since


def test_not_a_pet_without_a_swap_rules_out_king_cat_for_the_unprotected() -> None:
    state = make_state([[NOT_A_PET, BUNNY], [SHIELD], [TRAPPER], [ROBOVAC]],
                       deck=[SNAKE, JUGGLER, BOWL], protected=[3])
    rules.apply(state, Play(NOT_A_PET), np.random.default_rng(0))
    # Seat 1 drew since; seat 2 is unprotected; seat 3 was protected: it may hold King Cat.
    assert state.ruled_out == [0, 0, 1 << KING, 0]


def test_ruled_out_is_what_every_seat_sees_and_is_cleared_each_round() -> None:
    game = make_env(3, {"hands": [BOWL, SHIELD, TRAPPER], "deck_top": [BUNNY],
                        "first_player": 0})
    step_name(game, "play:crystal_bowl:+2:royal_robovac")
    assert ruled_out(game, 0, 2) == ruled_out(game, 1, 2) == [ROBOVAC]
    state = game.game_state
    flow.start_round(state, 0, np.random.default_rng(0))
    assert state.ruled_out == [0, 0, 0]
