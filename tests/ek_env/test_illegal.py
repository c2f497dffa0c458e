"""Illegal moves raise IllegalMoveError and change nothing; random legal play keeps
every rule invariant and ends with one winner."""

from __future__ import annotations

import numpy as np
import pytest

from cardgym.errors import IllegalMoveError
from ek_env import rules
from ek_env.engine.invariants import check_invariants
from ek_env.engine.state import (
    GAME_OVER,
    ChooseFive,
    Config,
    Draw,
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
    State,
    Take,
)
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
    KITTEN,
    NOPE,
    SKIP,
    TACO,
    apply,
    assert_illegal,
    make,
)


def every_move(state: State) -> list[Move]:
    """A superset of the moves any seat could try now."""
    n = state.num_players
    seats: list[int | None] = [None, *range(n), n]
    result: list[Move] = [Draw(), PlayFive(), Nope(), Pass()]
    for card in range(13):
        result += [PlayCard(card, seat) for seat in seats]
        result += [PlayPair(card, seat) for seat in range(n + 1)]
        result += [PlayThree(card, seat) for seat in range(n + 1)]
        result += [ChooseFive(card), NameCard(card), Give(card), Take(card)]
    result += [Insert(depth) for depth in range(-1, len(state.deck) + 2)]
    return result


# A hand-picked illegal move in every phase.
def test_illegal_moves_in_each_phase_change_nothing() -> None:
    hand0 = [FAVOR, TACO, TACO, TACO, ATTACK, SKIP, NOPE, BEARD]
    state, rng = make([hand0, [DEFUSE, NOPE], [SKIP]], [KITTEN, KITTEN], first=0)
    # PLAY
    for move in [Pass(), Nope(), Give(TACO), Insert(0), Take(TACO), NameCard(TACO),
                 ChooseFive(ATTACK), PlayCard(TACO), PlayCard(FAVOR, 0), PlayPair(BEARD, 1),
                 PlayThree(TACO, 0), PlayThree(TACO, 3), PlayCard(SKIP, 1)]:
        assert_illegal(state, move, rng)
    # NAME_CARD
    apply(state, PlayThree(TACO, 1), rng)
    for move in [Draw(), Pass(), NameCard(13), NameCard(-1), PlayCard(SKIP)]:
        assert_illegal(state, move, rng)
    apply(state, NameCard(NOPE), rng)
    # NOPE_WINDOW, seat 1 then seat 2 (no Nope)
    for move in [Draw(), PlayCard(SKIP), Give(DEFUSE)]:
        assert_illegal(state, move, rng)
    apply(state, Pass(), rng)
    assert state.to_act == 2
    assert_illegal(state, Nope(), rng)
    apply(state, Pass(), rng)
    apply(state, Pass(), rng)
    assert state.hands[0][NOPE] == 2  # named and handed over
    # GIVE
    apply(state, PlayCard(FAVOR, 1), rng)
    apply(state, Pass(), rng)
    apply(state, Pass(), rng)
    apply(state, Pass(), rng)
    assert state.to_act == 1
    for move in [Give(NOPE), Give(KITTEN), Draw(), Pass()]:
        assert_illegal(state, move, rng)
    apply(state, Give(DEFUSE), rng)
    # INSERT
    apply(state, Draw(), rng)
    assert state.held_kitten
    for move in [Insert(len(state.deck) + 1), Draw(), Pass(), PlayCard(SKIP)]:
        assert_illegal(state, move, rng)


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"combos": False}), (4, {"empty_hand_target": "forbidden"}),
     (5, {"attack_stacking": "stack", "hand_size": 4}),
     (7, {"eliminated_cards": "out_of_play", "deck_defuses": "2024"})],
)
def test_random_play_keeps_invariants_and_rejects_every_illegal_move(players: int,
                                                                      options: dict) -> None:
    for game in range(3):
        rng = np.random.default_rng(1000 * players + game)
        state = rules.new_game(Config(num_players=players, **options), rng, None)
        for step in range(2000):
            check_invariants(state)
            if state.phase == GAME_OVER:
                break
            legal = rules.legal_moves(state)
            assert legal, "a seat to act without a legal move"
            if step % 7 == 0:
                before = state.clone()
                for move in every_move(state):
                    if move not in legal:
                        with pytest.raises(IllegalMoveError):
                            rules.apply(state, move, rng)
                assert state == before
            # Prefer plays over drawing so that cards and windows get exercised.
            plays = [m for m in legal if not isinstance(m, Draw)]
            pool = plays if plays and rng.random() < 0.8 else legal
            rules.apply(state, pool[int(rng.integers(len(pool)))], rng)
        assert state.phase == GAME_OVER
        result = rules.returns(state)
        assert result.count(1.0) == 1 and result.count(-1.0) == players - 1
        assert sorted(state.eliminated + [state.winner]) == list(range(players))
