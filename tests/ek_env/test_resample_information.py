"""Search resamples depend on the resampling seat's information only (issue 16, finding 3).

``resample_hidden(state, seat, rng)`` deals anew every card ``seat`` cannot see; the
other seats' private knowledge (a depth where they put a kitten back, a card they gave
or were given) must be sampled with it, never copied from the true state (docs/rules/README.md:
where a player puts a card back, and a card given, are known to them only). So two
states that ``seat`` cannot tell apart give equal resamples from equal generators.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ek_env import rules
from ek_env.encoding.encoding import encode
from ek_env.engine.invariants import check_invariants
from ek_env.engine.state import (
    ALTER,
    GAME_OVER,
    GARBAGE,
    GIVE,
    INSERT,
    UNKNOWN,
    Config,
    Draw,
    Give,
    Insert,
    NameCard,
    PlayCard,
    PlayThree,
    State,
)
from ek_env.info.view import PlayerView
from tests.ek_env.helpers import (
    ATTACK,
    BEARD,
    DEFUSE,
    FAVOR,
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

STREAKING: dict[str, Any] = {"expansions": ("streaking",)}
#: The phases whose choice is secret from the seats not party to it (docs/rules/README.md, §4).
SECRET_PHASES: dict[int, str] = {INSERT: "insert", GIVE: "give", GARBAGE: "garbage",
                                 ALTER: "alter"}


def same_state(a: State, b: State) -> bool:
    """State equality over every slot but the public record (whose secrets the
    resample blanks on its own terms)."""
    return all(getattr(a, name) == getattr(b, name) for name in a.fields() if name != "log")


def view(state: State, seat: int) -> bytes:
    return encode(PlayerView(state, seat)).tobytes()


def check_sample(state: State, seat: int, rng: np.random.Generator) -> State:
    """A resample for ``seat``, checked: the rules hold in it and ``seat`` sees it as
    it sees ``state``."""
    sample = rules.resample_hidden(state, seat, rng)
    check_invariants(sample)
    assert view(sample, seat) == view(state, seat)
    return sample


def assert_equal_resamples(a: State, b: State, seat: int, seeds: range = range(6)) -> None:
    assert view(a, seat) == view(b, seat), "the seat can tell the two states apart"
    for seed in seeds:
        ra = check_sample(a, seat, np.random.default_rng(seed))
        rb = check_sample(b, seat, np.random.default_rng(seed))
        assert same_state(ra, rb), f"seat {seat}'s resamples differ (seed {seed})"


# ------------------------------------------------- the reproductions of the issue


def _defused(depth: int) -> State:
    """Seat 0 draws a kitten, defuses it and puts it back ``depth`` cards from the top."""
    state, rng = make([[DEFUSE, SKIP], [ATTACK, TACO], [NOPE, BEARD]],
                      [KITTEN, TACO, MELON, BEARD, POTATO, KITTEN, RAINBOW], first=0)
    rules.apply(state, Draw(), rng)
    assert state.phase == INSERT and state.to_act == 0
    rules.apply(state, Insert(depth), rng)
    check_invariants(state)
    return state


def test_a_defused_kittens_depth_does_not_reach_another_seats_resample() -> None:
    # The reproduction: depth 0 in one game, depth 3 in the other; seats 1
    # and 2 see the same, so their samples must be the same.
    shallow, deep = _defused(0), _defused(3)
    assert shallow.deck != deep.deck
    for seat in (1, 2):
        assert_equal_resamples(shallow, deep, seat)


def test_the_seat_that_put_the_kitten_back_still_knows_one_depth_in_the_sample() -> None:
    # That seat 0 knows one depth is public; which depth is not: in the sample it knows
    # one depth, true of the sample (check_invariants), wherever it really is.
    for depth in (0, 3, 6):
        state = _defused(depth)
        for seed in range(4):
            sample = check_sample(state, 1, np.random.default_rng(seed))
            assert sum(card != UNKNOWN for card in sample.known_deck[0]) == 1


def _favored(card: int, players: int) -> State:
    """Seat 0 plays Favor at seat 1, who gives ``card``."""
    hands = [[FAVOR, TACO], [ATTACK, SKIP, MELON], [NOPE, BEARD], [RAINBOW, POTATO]][:players]
    deck = [TACO, MELON, BEARD, POTATO, RAINBOW, TACO][: 6 - players + 1] + [KITTEN] * (players - 1)
    state, rng = make(hands, deck, first=0)
    rules.apply(state, PlayCard(FAVOR, 1), rng)
    pass_window(state, rng)
    assert state.phase == GIVE and state.to_act == 1
    rules.apply(state, Give(card), rng)
    check_invariants(state)
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_a_card_given_between_two_other_seats_does_not_reach_a_third_seats_resample(
        players: int) -> None:
    attack, skip = _favored(ATTACK, players), _favored(SKIP, players)
    assert attack.hands != skip.hands
    for seat in range(2, players):
        assert_equal_resamples(attack, skip, seat)


def test_another_seats_see_the_future_is_kept_with_the_sample_cards() -> None:
    # Seat 0 saw the top three: public depths, private cards. In seat 1's sample seat 0
    # knows the top three of the sample's draw pile, whatever they are.
    state, rng = make([[FUTURE, SKIP], [ATTACK], [NOPE]],
                      [TACO, KITTEN, MELON, BEARD, KITTEN], first=0)
    rules.apply(state, PlayCard(FUTURE), rng)
    pass_window(state, rng)
    assert state.known_deck[0] == [TACO, KITTEN, MELON]
    decks = set()
    for seed in range(8):
        sample = check_sample(state, 1, np.random.default_rng(seed))
        assert sample.known_deck[0] == sample.deck[::-1][:3]
        decks.add(tuple(sample.deck))
    assert len(decks) > 1


def test_what_another_seat_learned_of_my_hand_stays_in_my_sample() -> None:
    # Seat 2 Favors seat 0, who gives it a Skip: both know where that Skip is, so in
    # seat 2's samples seat 0 still knows seat 2 holds it.
    state, rng = make([[SKIP, TACO], [ATTACK, MELON], [FAVOR, BEARD]],
                      [TACO, MELON, KITTEN, BEARD, KITTEN], first=2)
    rules.apply(state, PlayCard(FAVOR, 0), rng)
    pass_window(state, rng)
    rules.apply(state, Give(SKIP), rng)
    row = (0 * 3 + 2) * state.kinds
    assert state.known_hands[row + SKIP] == 1
    for seed in range(4):
        sample = check_sample(state, 2, np.random.default_rng(seed))
        assert sample.known_hands[row + SKIP] == 1


def test_other_seats_are_credited_with_what_i_know_of_a_third_hand() -> None:
    # Seat 1 gave seat 0 an Attack: a secret of theirs. In seat 2's samples neither
    # knows more of the other's hand than seat 2 knows of it.
    state = _favored(ATTACK, 3)
    kinds = state.kinds
    assert state.known_hands[(1 * 3 + 0) * kinds + ATTACK] == 1
    for seed in range(4):
        sample = check_sample(state, 2, np.random.default_rng(seed))
        for observer, holder in ((0, 1), (1, 0)):
            mine = sample.known_hands[(2 * 3 + holder) * kinds : (2 * 3 + holder + 1) * kinds]
            theirs = sample.known_hands[(observer * 3 + holder) * kinds
                                        : (observer * 3 + holder + 1) * kinds]
            assert theirs == mine


def test_a_kind_ruled_out_by_a_missed_three_of_a_kind_is_never_dealt_to_that_hand() -> None:
    # Seat 0 asks seat 1 for a Skip with three Taco Cats and misses: the table knows
    # seat 1 holds no Skip, so no sample may deal it one, though Skips are hidden.
    state, rng = make([[TACO, TACO, TACO, SKIP], [ATTACK, MELON, BEARD], [NOPE, SKIP]],
                      [SKIP, MELON, KITTEN, SKIP, BEARD, KITTEN, POTATO], first=0)
    rules.apply(state, PlayThree(TACO, 1), rng)
    rules.apply(state, NameCard(SKIP), rng)
    pass_window(state, rng)
    assert state.ruled_out[1 * state.kinds + SKIP]
    hands = set()
    for seed in range(40):
        sample = check_sample(state, 2, np.random.default_rng(seed))
        assert sample.hands[1][SKIP] == 0
        hands.add(tuple(sample.hands[1]))
    assert len(hands) > 1


# ---------------------------------------------- every secret choice of random play


def _alternatives(state: State, rng: np.random.Generator) -> list[State]:
    """The state after each legal move, all from the same generator state."""
    saved = rng.bit_generator.state
    out = []
    for move in rules.legal_moves(state):
        after = state.clone()
        rng.bit_generator.state = saved
        rules.apply(after, move, rng)
        out.append(after)
    rng.bit_generator.state = saved
    return out


def _parties(state: State) -> set[int]:
    """Seats that see the secret choice about to be made."""
    if state.phase == GIVE:
        return {state.to_act, state.turn_holder}
    return {state.to_act}


@pytest.mark.parametrize("options", [{}, STREAKING], ids=["base", "streaking"])
@pytest.mark.parametrize("players", [3, 5])
def test_secret_choices_of_random_play_leave_other_seats_resamples_unchanged(
        players: int, options: dict[str, Any]) -> None:
    """At every insert depth, Favor card, Garbage Collection card and Alter the Future
    order of random games, the states after any two alternatives that a seat not party
    to the choice cannot tell apart give that seat equal resamples (and every sample
    keeps the rules)."""
    compared: dict[str, int] = dict.fromkeys(SECRET_PHASES.values(), 0)
    for game in range(12 if options else 8):
        rng = np.random.default_rng(1000 * players + game)
        state = rules.new_game(Config(num_players=players, **options), rng, None)
        for _ in range(1500):
            if state.phase == GAME_OVER:
                break
            legal = rules.legal_moves(state)
            if state.phase in SECRET_PHASES and len(legal) > 1:
                parties = _parties(state)
                afters = _alternatives(state, rng)
                for seat in range(players):
                    if seat in parties or not state.alive[seat]:
                        continue
                    # One representative per observation the seat may receive.
                    first: dict[bytes, tuple[State, State]] = {}
                    for after in afters:
                        seen = view(after, seat)
                        sample = check_sample(after, seat, np.random.default_rng(seat))
                        if seen not in first:
                            first[seen] = (after, sample)
                            continue
                        other, reference = first[seen]
                        compared[SECRET_PHASES[state.phase]] += 1
                        assert same_state(sample, reference), (
                            f"game {game}: seat {seat}'s resample depends on the secret "
                            f"{SECRET_PHASES[state.phase]} choice of seat {state.to_act}")
            rules.apply(state, legal[int(rng.integers(len(legal)))], rng)
    assert compared["insert"] and compared["give"], compared
    if options:
        assert compared["garbage"] and compared["alter"], compared
