"""``resample_hidden`` depends on the resampling seat's information only (issue 16).

Finding 3 of the issue: seat 0 puts the Mouse Trapper card back at depth 0 in one game
and at depth 3 in another; seat 2's observations are identical, yet its resamples
differed, because seat 0's knowledge (which card it knows, where) was copied from the
true state. The depth is now sampled inside the sample. Samples also keep what the
table has ruled out of a hand (``ruled_out``).
"""

from __future__ import annotations

import numpy as np
import pytest

from cardgym.record import NONE
from phpets_env import rules
from phpets_env.encoding.encoding import apply_action, legal_action_indices
from phpets_env.engine.invariants import check_invariants
from phpets_env.engine.state import Config, State
from phpets_env.env import raw_env
from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    HERMIT,
    JUGGLER,
    NOT_A_PET,
    ROBOVAC,
    SHIELD,
    SNAKE,
    TRAPPER,
    make_env,
    step_name,
)

SCENARIO = {"hands": [TRAPPER, SHIELD, BOWL, ROBOVAC],
            "deck_top": [BUNNY, HERMIT, SNAKE, JUGGLER, DIGGER, NOT_A_PET], "first_player": 0}


def _placed(depth: int, then: tuple[str, ...] = ()) -> raw_env:
    """Seat 0 looks at the top card (Hermit Swap) and puts it back at ``depth``."""
    game = make_env(4, SCENARIO)
    step_name(game, "play:mouse_trapper")
    step_name(game, f"mouse_trapper:depth={depth}")
    for name in then:
        step_name(game, name)
    return game


def _observation(game: raw_env, seat: int) -> bytes:
    return game.observe(f"player_{seat}")["observation"].tobytes()


def _samples(state: State, seat: int, count: int = 5) -> list[State]:
    return [rules.resample_hidden(state, seat, np.random.default_rng(k)) for k in range(count)]


@pytest.mark.parametrize("then", [(), ("play:shell_shield",)])
def test_resample_does_not_depend_on_another_seats_mouse_trapper_depth(
        then: tuple[str, ...]) -> None:
    top, deep = _placed(0, then), _placed(3, then)
    # Seat 1 drew the Hermit Swap in one game and not in the other; after its Shell
    # Shield, seat 2 drew in both. The last seat saw nothing of the difference.
    seat = 3
    assert _observation(top, seat) == _observation(deep, seat)
    assert top.game_state != deep.game_state
    assert _samples(top.game_state, seat) == _samples(deep.game_state, seat)
    if not then:  # seat 2 has not drawn yet: it saw nothing either
        assert _samples(top.game_state, 2) == _samples(deep.game_state, 2)


def test_the_sample_blanks_the_secrets_the_seat_did_not_see() -> None:
    state = _placed(3).game_state
    sample = rules.resample_hidden(state, 2, np.random.default_rng(0))
    assert any(e.secret != NONE for e in state.log)
    for event in sample.log:
        assert event.secret == NONE or event.seen_by >> 2 & 1
    assert len(sample.log) == len(state.log)


def test_the_sample_gives_the_placing_seat_knowledge_of_one_card_at_a_sampled_depth() -> None:
    state = _placed(3).game_state
    places = set()
    for k in range(60):
        sample = rules.resample_hidden(state, 2, np.random.default_rng(k))
        tracked = sample.trapped[0]
        assert bin(tracked).count("1") == 1 and sample.known[0] & tracked
        card = tracked.bit_length() - 1
        if card in sample.deck:
            places.add(("deck", len(sample.deck) - 1 - sample.deck.index(card)))
        else:
            assert card in sample.hands[1]  # drawn by seat 1 at the start of its turn
            places.add(("seat 1", 1))
    # Depth 0 (seat 1 drew it) and the depths still in the pile all occur.
    assert ("seat 1", 1) in places
    assert {depth for where, depth in places if where == "deck"} == set(range(len(state.deck)))


def test_the_placing_seat_keeps_its_own_knowledge_in_its_sample() -> None:
    state = _placed(3).game_state
    sample = rules.resample_hidden(state, 0, np.random.default_rng(0))
    assert sample.known[0] == state.known[0] and sample.trapped[0] == state.trapped[0]
    assert sample.deck[-3] == state.deck[-3]  # the card seat 0 put back, 2 below the top now
    assert sample.log == [event.as_seen_by(0) for event in state.log]
    assert sample.log[-2].secret == 3  # its own placement, seen


@pytest.mark.parametrize("num_players", [3, 6])
def test_samples_keep_what_the_table_ruled_out_and_every_invariant(num_players: int) -> None:
    rng, choose = np.random.default_rng(4), np.random.default_rng(5)
    limited = 0
    for _ in range(6):
        state = rules.new_game(Config(num_players=num_players), rng)
        while not rules.is_over(state):
            for seat in range(num_players):
                sample = rules.resample_hidden(state, seat, np.random.default_rng(seat))
                check_invariants(sample)  # no held card has a value the table ruled out
                assert sample.ruled_out == state.ruled_out
                limited += any(state.ruled_out[s] for s in range(num_players) if s != seat)
            legal = legal_action_indices(state)
            apply_action(state, legal[int(choose.integers(len(legal)))], rng)
    assert limited > 0, "no position with a ruled-out value was met: the test cannot fail"


def test_the_sample_follows_the_placed_card_through_both_kinds_of_draw() -> None:
    # Seat 0 looks at the Hermit Swap and puts it back 2 cards down. Seat 1 draws at the
    # start of its turn (a TURN_DRAW) and plays Snake Sorcerer on seat 2, who draws
    # anew (a DRAW), then draws at the start of its own turn: the card put back may be
    # in seat 1's hand (unless seat 1 played it), seat 2's first card (the Snake
    # Sorcerer's draw), seat 2's second card (its turn-start draw) or the pile.
    game = make_env(4, {"hands": [TRAPPER, SNAKE, BOWL, ROBOVAC],
                        "deck_top": [BUNNY, HERMIT, SHIELD, JUGGLER, DIGGER, NOT_A_PET],
                        "first_player": 0})
    for name in ("play:mouse_trapper", "mouse_trapper:depth=2", "play:snake_sorcerer:+1"):
        step_name(game, name)
    state = game.game_state
    assert state.to_act == 2 and state.trapped[0] == 1 << state.hands[2][1]
    places = set()
    for k in range(200):
        sample = rules.resample_hidden(state, 3, np.random.default_rng(k))
        check_invariants(sample)
        tracked = sample.trapped[0]
        if not tracked:  # seat 1 drew it and the coin says it played it
            continue
        card = tracked.bit_length() - 1
        for seat in (1, 2):
            if card in sample.hands[seat]:
                places.add((f"seat {seat}", sample.hands[seat].index(card)))
        if card in sample.deck:
            places.add(("deck", len(sample.deck) - 1 - sample.deck.index(card)))
    assert {("seat 1", 0), ("seat 2", 0), ("seat 2", 1)} <= places
    assert {depth for where, depth in places if where == "deck"} == set(range(len(state.deck)))


def _swapped_after_depth(depth: int) -> raw_env:
    """Seat 3 looks at a Jittery Juggler and puts it back 1 or 2 cards down. Seat 0
    draws the Royal Robovac and plays its Shell Shield; seat 1 draws (the Jittery
    Juggler at depth 1, the Snake Sorcerer at depth 2) and swaps hands with seat 2 by
    Hermit Swap; seat 2 draws the other of the two and plays the Snake Sorcerer at
    seat 1. After depth 1 seat 2 keeps the card seat 1 gave it; after depth 2 it
    played that one."""
    game = make_env(4, {"hands": [SHIELD, HERMIT, BOWL, TRAPPER],
                        "deck_top": [DIGGER, JUGGLER, ROBOVAC, SNAKE, BUNNY, NOT_A_PET],
                        "first_player": 3})
    for name in ("play:mouse_trapper", f"mouse_trapper:depth={depth}", "play:shell_shield",
                 "play:hermit_swap:+1", "play:snake_sorcerer:+3"):
        step_name(game, name)
    return game


def test_another_seats_knowledge_comes_from_the_public_record_not_the_true_state() -> None:
    # Found by the kit's check at the seats' next decisions (check_choices, later=True):
    # what seat 1 knows of seat 2's hand depends on seat 3's secret depth, and seat 0
    # saw neither the depth nor the cards drawn.
    one, two = _swapped_after_depth(1), _swapped_after_depth(2)
    assert one.game_state.hands == two.game_state.hands
    assert one.game_state.known[1] != two.game_state.known[1]
    assert _observation(one, 0) == _observation(two, 0)
    assert _samples(one.game_state, 0, 20) == _samples(two.game_state, 0, 20)
    # Seat 1 saw the card it gave seat 2: in a sample it knows it where the public
    # record lets it still be there (seat 2 played one of its two cards since).
    kept = 0
    for sample in _samples(one.game_state, 0, 40):
        card = sample.hands[2][0]
        kept += bool(sample.known[1] >> card & 1)
        assert not sample.known[1] & ~(1 << card) & ~_hand_bits(sample, 1)
    assert 0 < kept < 40


def _hand_bits(state: State, seat: int) -> int:
    return sum(1 << card for card in state.hands[seat])
