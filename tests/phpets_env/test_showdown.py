"""The showdown when the draw pile is empty (docs/rules/power_hungry_pets.md "Round end", "Decisions").

Each case is the last turn of a round: seat 0 plays a Mouse Trapper on the empty
pile (no effect), the next player cannot draw, and the players still in compare
the cards they hold. Rows are given as they are at the showdown.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from phpets_env import rules
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
    hand,
    make_state,
    showdown_state,
)

Case = tuple[str, list[int | None], list[list[int]], dict[str, Any], tuple[int, ...]]

CASES: list[Case] = [
    # (id, card held by each seat (None: out), rows at the showdown, options, winners)
    ("highest card wins", [SNAKE, HERMIT, BUNNY], [[TRAPPER], [], []], {}, (1,)),
    ("king cat competes", [KING, NOT_A_PET], [[TRAPPER], []], {}, (0,)),
    ("players out do not compete", [BUNNY, None, BOWL], [[TRAPPER], [KING], []], {}, (0,)),
    # robovac="dethrone" (default): King Cat cannot win a showdown Robovac reaches.
    ("dethrone: rest decide", [KING, ROBOVAC, SNAKE], [[TRAPPER], [], []], {}, (2,)),
    ("dethrone: robovac lowest of the rest", [ROBOVAC, KING, BOWL], [[TRAPPER], [], []], {},
     (2,)),
    ("dethrone: only the two", [KING, ROBOVAC], [[TRAPPER], []], {}, (1,)),
    ("dethrone: only the two left of three", [ROBOVAC, KING, None], [[TRAPPER], [], [BOWL]], {},
     (0,)),
    ("robovac alone loses", [ROBOVAC, BOWL], [[TRAPPER], []], {}, (1,)),
    # robovac="duel_only": Robovac beats King Cat only when exactly those two are left.
    ("duel_only: only the two", [KING, ROBOVAC], [[TRAPPER], []], {"robovac": "duel_only"}, (1,)),
    ("duel_only: two of four left", [ROBOVAC, None, KING, None],
     [[TRAPPER], [BOWL], [], [BOWL]], {"robovac": "duel_only"}, (0,)),
    ("duel_only: others present", [KING, ROBOVAC, SNAKE], [[TRAPPER], [], []],
     {"robovac": "duel_only"}, (0,)),
    # Ties: the highest single card in the row wins ...
    ("tie: highest card in row", [SNAKE, SNAKE], [[BUNNY, TRAPPER], [SHIELD]], {}, (1,)),
    ("tie: highest card in row, 3p", [BOWL, SNAKE, SNAKE], [[TRAPPER], [DIGGER], [JUGGLER]], {},
     (2,)),
    # ... then rows as lists sorted from highest down: [4, 2, 1] beats [4, 2].
    ("tie: longer row", [SNAKE, SNAKE], [[SHIELD, BOWL, TRAPPER], [TRAPPER, SHIELD]], {}, (0,)),
    ("tie: second card", [BOWL, SNAKE, SNAKE], [[TRAPPER], [SHIELD, BUNNY], [TRAPPER, SHIELD,
     TRAPPER]], {}, (1,)),
    ("tie: empty row loses", [BOWL, SNAKE, SNAKE], [[TRAPPER], [], [BOWL]], {}, (2,)),
    # ... still equal: all take a token (final_tie="shared", default) or nobody does.
    ("tie: shared", [BOWL, SNAKE, SNAKE], [[TRAPPER], [SHIELD, BUNNY], [BUNNY, SHIELD]], {},
     (1, 2)),
    ("no tie below the highest card", [SNAKE, SNAKE, KING], [[TRAPPER], [TRAPPER], []], {},
     (2,)),
    ("tie: nobody", [BOWL, SNAKE, SNAKE], [[TRAPPER], [SHIELD, BUNNY], [BUNNY, SHIELD]],
     {"final_tie": "nobody"}, ()),
    ("tie: shared with the actor", [SNAKE, SNAKE], [[TRAPPER], [TRAPPER]], {}, (0, 1)),
    ("tie: nobody with the actor", [SNAKE, SNAKE], [[TRAPPER], [TRAPPER]],
     {"final_tie": "nobody"}, ()),
    # Tie among the rest after a dethroned King Cat.
    ("dethrone: tie among the rest", [SNAKE, KING, ROBOVAC, SNAKE],
     [[TRAPPER], [], [], [HERMIT]], {}, (3,)),
]


@pytest.mark.parametrize(
    ("held", "rows", "options", "winners"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_showdown(
    held: list[int | None], rows: list[list[int]], options: dict[str, Any],
    winners: tuple[int, ...],
) -> None:
    state, rng = showdown_state(held, rows, **options)
    rules.apply(state, Play(TRAPPER), rng)
    assert state.round_winners == winners
    assert state.tokens == [int(seat in winners) for seat in range(len(held))]
    assert state.round_number == 2  # a new round was dealt


def test_showdown_comes_when_the_player_to_move_cannot_draw() -> None:
    # Seat 1 draws the last card and still plays its turn; only then seat 0, facing
    # an empty pile, cannot draw and the round ends.
    state = make_state([[BOWL, SHIELD], [BUNNY]], deck=[SNAKE])
    rng = np.random.default_rng(0)
    rules.apply(state, Play(SHIELD), rng)
    assert state.to_act == 1 and hand(state, 1) == [BUNNY, SNAKE] and state.deck == []
    assert state.round_number == 1
    rules.apply(state, Play(BUNNY, None), rng)  # seat 0 is protected: no effect
    # Showdown: seat 0 holds Crystal Bowl (1), seat 1 Snake Sorcerer (5).
    assert state.round_winners == (1,)
    assert state.round_number == 2
