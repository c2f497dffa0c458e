"""Search resamples credit the other seats with the knowledge of the draw pile that the
public record gives them, never with what the true state says they know.

A seat that put a kitten back knows one depth; which depth is its secret
(docs/rules/README.md). Once a kitten is drawn that may or may not be that one, whether
the seat still knows a depth depends on the depth it chose; so the other seats' samples
must not read it from the true state (``known_deck``), or they differ between states
their seat cannot tell apart.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest

from ek_env import rules
from ek_env.encoding.encoding import encode
from ek_env.engine import record as rec
from ek_env.engine.invariants import check_invariants
from ek_env.engine.state import (
    GAME_OVER,
    INSERT,
    PLAY,
    UNKNOWN,
    Config,
    Draw,
    Insert,
    PlayCard,
    State,
)
from ek_env.info import public_depths
from ek_env.info.view import PlayerView
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FUTURE,
    KITTEN,
    MELON,
    NOPE,
    POTATO,
    RAINBOW,
    SKIP,
    TACO,
    make,
    pass_window,
)
from tests.ek_env.test_resample_information import same_state

SAMPLES = 200
STREAKING: dict[str, Any] = {"expansions": ("streaking",)}


def view(state: State, seat: int) -> bytes:
    return encode(PlayerView(state, seat)).tobytes()


def differing_samples(a: State, b: State, seat: int, samples: int = SAMPLES) -> int:
    """How many of ``samples`` pairs of resamples for ``seat``, from equal generators,
    differ between ``a`` and ``b`` (states ``seat`` cannot tell apart)."""
    assert view(a, seat) == view(b, seat), "the seat can tell the two states apart"
    differ = 0
    for seed in range(samples):
        sample_a = rules.resample_hidden(a, seat, np.random.default_rng(seed))
        sample_b = rules.resample_hidden(b, seat, np.random.default_rng(seed))
        check_invariants(sample_a)
        assert view(sample_a, seat) == view(a, seat)
        differ += not same_state(sample_a, sample_b)
    return differ


def _kitten_on_kitten(depth: int, seat_one_defuses: bool = True) -> State:
    """Seat 0 draws a kitten with another just under it and puts it back at ``depth``
    0 or 1: the same draw pile either way. Seat 1 then draws the top kitten."""
    one = [DEFUSE, ATTACK] if seat_one_defuses else [ATTACK, TACO]
    state, rng = make([[DEFUSE, SKIP], one, [NOPE, BEARD]],
                      [KITTEN, KITTEN, TACO, MELON, BEARD, POTATO], first=0)
    rules.apply(state, Draw(), rng)
    rules.apply(state, Insert(depth), rng)
    assert state.phase == PLAY and state.to_act == 1
    rules.apply(state, Draw(), rng)
    check_invariants(state)
    return state


def test_the_issues_case_a_kitten_drawn_right_after_it_was_put_back() -> None:
    # Depth 0: seat 1 drew seat 0's kitten, so seat 0 knows nothing now; depth 1: seat
    # 1 drew the other one, so seat 0 knows the top card. Seats 1 and 2 cannot tell.
    top, under = _kitten_on_kitten(0), _kitten_on_kitten(1)
    assert top.deck == under.deck and top.known_deck[0] != under.known_deck[0]
    assert top.phase == INSERT and top.to_act == 1
    for seat in (1, 2):
        assert differing_samples(top, under, seat) == 0, f"seat {seat}"


def test_the_next_seat_after_an_explosion_cannot_tell_either() -> None:
    # Seat 1 has no Defuse and is out; seat 2 plays on, with seat 0's knowledge as it was.
    top, under = _kitten_on_kitten(0, False), _kitten_on_kitten(1, False)
    assert not top.alive[1] and top.to_act == 2 and top.phase == PLAY
    assert differing_samples(top, under, 2) == 0


def _kitten_later(depth: int) -> State:
    """Seat 0 puts a kitten back at ``depth`` 1 or 2 above a Taco Cat, under another
    kitten: the same draw pile either way. Seat 1 draws the Taco Cat, seat 2 a kitten,
    which was seat 0's only if ``depth`` is 1."""
    state, rng = make([[DEFUSE, SKIP], [ATTACK, MELON], [DEFUSE, NOPE]],
                      [KITTEN, TACO, KITTEN, MELON, BEARD, POTATO, RAINBOW], first=0)
    rules.apply(state, Draw(), rng)
    rules.apply(state, Insert(depth), rng)
    rules.apply(state, Draw(), rng)
    rules.apply(state, Draw(), rng)
    assert state.phase == INSERT and state.to_act == 2
    check_invariants(state)
    return state


def test_a_kitten_drawn_cards_after_it_was_put_back() -> None:
    shallow, deep = _kitten_later(1), _kitten_later(2)
    assert shallow.deck == deep.deck and shallow.known_deck[0] != deep.known_deck[0]
    for seat in (1, 2):
        assert differing_samples(shallow, deep, seat) == 0, f"seat {seat}"


def _put_back_then_seen(depth: int) -> State:
    """Seat 0 puts a kitten back at ``depth`` 4 or 5, next to the other kitten: the same
    draw pile either way. Seats 1 and 2 draw; seat 0 sees the top three, the other
    kitten last: it knows three depths, or four if its own kitten is under them."""
    state, rng = make([[DEFUSE, FUTURE], [ATTACK, MELON], [NOPE, BEARD]],
                      [KITTEN, TACO, MELON, BEARD, POTATO, KITTEN, RAINBOW, TACO], first=0)
    rules.apply(state, Draw(), rng)
    rules.apply(state, Insert(depth), rng)
    rules.apply(state, Draw(), rng)
    rules.apply(state, Draw(), rng)
    rules.apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    check_invariants(state)
    return state


def test_a_see_the_future_over_a_put_back_kitten_leaves_the_count_secret() -> None:
    three, four = _put_back_then_seen(4), _put_back_then_seen(5)
    assert three.deck == four.deck and three.known_deck[0] != four.known_deck[0]
    for seat in (1, 2):
        assert differing_samples(three, four, seat) == 0, f"seat {seat}"


def test_what_the_record_shows_is_still_credited() -> None:
    # Seat 0 saw the top three, then seats 0 and 1 drew one each: in seat 2's samples
    # seat 0 knows the top card, with the sample's card there, and nothing else.
    state, rng = make([[FUTURE, SKIP], [ATTACK], [NOPE]],
                      [TACO, MELON, KITTEN, BEARD, KITTEN], first=0)
    rules.apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    rules.apply(state, Draw(), rng)
    rules.apply(state, Draw(), rng)
    assert state.to_act == 2 and state.known_deck[0] == [KITTEN]
    for seed in range(8):
        sample = rules.resample_hidden(state, 2, np.random.default_rng(seed))
        check_invariants(sample)
        assert sample.known_deck[0] == sample.deck[::-1][:1]
        assert all(card == UNKNOWN for card in sample.known_deck[1])


# ------------------------------------------- the replay follows the engine exactly


class _TrueDepths:
    """A stand-in generator that gives the depths the seats really chose, in order:
    with it the replay of the record must find what the state keeps."""

    def __init__(self, depths: list[int]) -> None:
        self.depths = depths

    def integers(self, high: int) -> int:
        depth = self.depths.pop(0)
        assert 0 <= depth < high, f"depth {depth} outside 0..{high - 1}"
        return depth


def _true_flags(known: list[int]) -> list[bool]:
    flags = [card != UNKNOWN for card in known]
    while flags and not flags[-1]:
        flags.pop()
    return flags


@pytest.mark.parametrize("options", [{}, STREAKING], ids=["base", "streaking"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_replay_of_the_record_finds_the_depths_the_state_keeps(
        players: int, options: dict[str, Any]) -> None:
    """Given the depths the seats really chose, the replay of the public record finds
    the known depths of every seat at every step of random games (draws, shuffles,
    See and Alter the Future, swaps, Catomic Bombs, Garbage Collection): what it adds
    to the record is the put-back depths alone."""
    compared = 0
    for game in range(6):
        rng = np.random.default_rng(500 * players + game)
        state = rules.new_game(Config(num_players=players, **options), rng, None)
        for _ in range(600):
            if state.phase == GAME_OVER:
                break
            start = public_depths._window(state)[0]
            for seat in range(players):
                chosen = [event.secret for event in state.log[start:]
                          if event.what == rec.INSERT and event.actor != seat]
                fake = cast(np.random.Generator, _TrueDepths(chosen))
                depths = public_depths.known_depths(state, seat, fake)
                for other in range(players):
                    if other != seat:
                        assert depths[other] == _true_flags(state.known_deck[other]), (
                            f"game {game}: seat {other}'s known depths, replayed for {seat}")
                        compared += bool(depths[other])
            legal = rules.legal_moves(state)
            rules.apply(state, legal[int(rng.integers(len(legal)))], rng)
    assert compared

