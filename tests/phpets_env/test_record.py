"""The public record (docs/rules/README.md: every announced choice and public result is seen).

Each test plays a stacked round 1 through the engine or the env and reads the events
the engine logged (``state.log``) and the ``recent_moves`` observation field. The
first two tests are issue 16's finding: a Crystal Bowl's target and named value, and
whether Grave Digger swapped, never reached another seat's observation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardgym.record import NONE, TABLE, Event
from phpets_env import rules
from phpets_env.display.record import (
    ACTOR_LOST,
    DRAW,
    ELIMINATED,
    EVENT_NAMES,
    FROM_ASIDE,
    GRAVE_CHOICE,
    HIT,
    KEPT,
    MATCH_WON,
    MISS,
    NEW_ROUND,
    NO_EFFECT,
    NUM_EVENT_KINDS,
    NUM_RECENT_KINDS,
    NUM_RESULTS,
    PLACE,
    PLAY,
    REVEAL,
    ROUND_WON,
    SWAPPED,
    TARGET_LOST,
    TIE,
    TURN_DRAW,
    describe_event,
)
from phpets_env.encoding.encoding import EVENT_WIDTH, OBSERVATION_SPEC, RECENT_EVENTS
from phpets_env.engine.invariants import check_invariants
from phpets_env.engine.state import GraveSwap, PlaceCard, Play
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
    make_env,
    make_state,
    new,
    showdown_state,
    step_name,
)

# ------------------------------------------------------------ issue 16, finding 2


def _observations_after(num_players: int, scenario: dict[str, Any], actions: list[str]) -> list[
        list[bytes]]:
    """Every seat's observation after each of ``actions`` from the same position."""
    seen = []
    for name in actions:
        game = make_env(num_players, scenario)
        for step in name.split(" "):
            step_name(game, step)
        seen.append([game.observe(f"player_{s}")["observation"].tobytes()
                     for s in range(num_players)])
    return seen


def test_crystal_bowl_target_and_named_value_reach_every_other_seat() -> None:
    # Seat 0 misses with each of three guesses: at seat 1 naming Hermit Swap, at seat 1
    # naming Snake Sorcerer, at seat 2 naming Hermit Swap. The piles and hands end the
    # same; every other seat must still tell the three plays apart.
    scenario = {"hands": [BOWL, SHIELD, TRAPPER, ROBOVAC], "deck_top": [BUNNY, JUGGLER],
                "first_player": 0}
    plays = ["play:crystal_bowl:+1:hermit_swap", "play:crystal_bowl:+1:snake_sorcerer",
             "play:crystal_bowl:+2:hermit_swap"]
    seen = _observations_after(4, scenario, plays)
    for seat in (1, 2, 3):
        assert len({obs[seat] for obs in seen}) == 3, f"seat {seat} cannot tell them apart"


def test_grave_digger_swap_or_keep_reaches_every_other_seat() -> None:
    scenario = {"hands": [DIGGER, SHIELD, TRAPPER], "set_aside": NOT_A_PET,
                "deck_top": [BUNNY, JUGGLER], "first_player": 0}
    seen = _observations_after(3, scenario, ["play:grave_digger grave_digger:keep",
                                             "play:grave_digger grave_digger:swap"])
    for seat in (1, 2):
        assert seen[0][seat] != seen[1][seat], f"seat {seat} cannot tell swap from keep"


# ------------------------------------------------------------------ the events


def _since(state: Any, start: int) -> list[Event]:
    return state.log[start:]


@pytest.mark.parametrize(
    ("hands", "deck_top", "move", "expected"),
    [
        # Crystal Bowl: target, named value, hit or miss; a hit eliminates.
        ([BOWL, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(BOWL, 1, HERMIT),
         [Event(0, PLAY + BOWL, 1, HERMIT, MISS)]),
        ([BOWL, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(BOWL, 1, SHIELD),
         [Event(0, PLAY + BOWL, 1, SHIELD, HIT), Event(TABLE, ELIMINATED, 1, SHIELD)]),
        # Battle Bunny: who lost (the loser's card is put face up), or a tie.
        ([SNAKE, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(BUNNY, 1),
         [Event(0, PLAY + BUNNY, 1, NONE, TARGET_LOST), Event(TABLE, ELIMINATED, 1, SHIELD)]),
        ([BOWL, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(BUNNY, 1),
         [Event(0, PLAY + BUNNY, 1, NONE, ACTOR_LOST), Event(TABLE, ELIMINATED, 0, BOWL)]),
        ([SHIELD, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(BUNNY, 1),
         [Event(0, PLAY + BUNNY, 1, NONE, TIE)]),
        # Hermit Swap and Not A Pet!: swapped or not (Not A Pet! names the King Cat's holder).
        ([HERMIT, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(HERMIT, 2),
         [Event(0, PLAY + HERMIT, 2, NONE, SWAPPED)]),
        ([NOT_A_PET, SHIELD, KING], [BUNNY, JUGGLER], Play(NOT_A_PET),
         [Event(0, PLAY + NOT_A_PET, 2, NONE, SWAPPED)]),
        ([NOT_A_PET, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(NOT_A_PET),
         [Event(0, PLAY + NOT_A_PET, NONE, NONE, NO_EFFECT)]),
        # Snake Sorcerer: the target and the card it showed; it draws (secretly).
        ([SNAKE, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(SNAKE, 2),
         [Event(0, PLAY + SNAKE, 2, TRAPPER), Event(TABLE, DRAW, 2, NONE, NONE, JUGGLER, 0b100)]),
        ([SNAKE, SHIELD, KING], [BUNNY, JUGGLER], Play(SNAKE, 2),
         [Event(0, PLAY + SNAKE, 2, KING), Event(TABLE, ELIMINATED, 2)]),
        # King Cat played: its player is out, the other card face up.
        ([KING, SHIELD, TRAPPER], [BUNNY, JUGGLER], Play(KING),
         [Event(0, PLAY + KING), Event(TABLE, ELIMINATED, 0, BUNNY)]),
        ([SHIELD, SHIELD, TRAPPER], [ROBOVAC, JUGGLER], Play(ROBOVAC),
         [Event(0, PLAY + ROBOVAC)]),
    ],
)
def test_a_play_is_recorded_with_its_target_named_value_and_result(
    hands: list[int], deck_top: list[int], move: Play, expected: list[Event]
) -> None:
    state, rng = new(3, {"hands": hands, "deck_top": deck_top, "first_player": 0})
    start = len(state.log)
    rules.apply(state, move, rng)
    assert _since(state, start)[: len(expected)] == expected


def test_a_card_played_without_effect_is_recorded_so() -> None:
    # Both others are protected: the Crystal Bowl has nobody to choose.
    state = make_state([[BOWL, BUNNY], [SHIELD], [TRAPPER]], deck=[JUGGLER, HERMIT],
                       protected=[1, 2])
    rules.apply(state, Play(BOWL), np.random.default_rng(0))
    assert state.log[0] == Event(0, PLAY + BOWL, NONE, NONE, NO_EFFECT)


def test_jittery_juggler_is_followed_by_a_draw_of_each_affected_seat() -> None:
    state = make_state([[JUGGLER, BUNNY], [SHIELD], [TRAPPER], [BOWL]],
                       deck=[HERMIT, SNAKE, ROBOVAC], protected=[2])
    rules.apply(state, Play(JUGGLER), np.random.default_rng(0))
    assert state.log[0] == Event(0, PLAY + JUGGLER)
    draws = [e for e in state.log[1:4] if e.what == DRAW]
    assert [e.target for e in draws] == [0, 1, 3]  # clockwise, the protected seat left alone
    for event in draws:
        assert event.seen_by == 1 << event.target


def test_the_turn_starts_with_a_draw_seen_by_the_drawer_only() -> None:
    state, rng = new(3, {"hands": [SHIELD, BUNNY, BOWL], "deck_top": [ROBOVAC, HERMIT],
                         "first_player": 0})
    assert state.log == [Event(TABLE, NEW_ROUND, 0),
                         Event(TABLE, TURN_DRAW, 0, NONE, NONE, ROBOVAC, 1)]
    rules.apply(state, Play(SHIELD), rng)
    assert state.log[-1] == Event(TABLE, TURN_DRAW, 1, NONE, NONE, HERMIT, 0b10)
    assert state.log[-1].as_seen_by(2) == Event(TABLE, TURN_DRAW, 1)


def test_grave_digger_keep_or_swap_is_public_the_cards_are_not() -> None:
    for swap, result, now_aside in ((False, KEPT, NOT_A_PET), (True, SWAPPED, BUNNY)):
        state, rng = new(3, {"hands": [BUNNY, SHIELD, TRAPPER], "set_aside": NOT_A_PET,
                             "deck_top": [DIGGER, JUGGLER], "first_player": 0})
        start = len(state.log)
        rules.apply(state, Play(DIGGER), rng)
        rules.apply(state, GraveSwap(swap), rng)
        look, choice = state.log[start : start + 2]
        assert look == Event(0, PLAY + DIGGER, NONE, NONE, NONE, NOT_A_PET, 1)
        assert choice == Event(0, GRAVE_CHOICE, NONE, NONE, result, now_aside, 1)
        assert choice.as_seen_by(1) == Event(0, GRAVE_CHOICE, NONE, NONE, result)


def test_a_grave_digger_without_a_set_aside_card_has_no_effect() -> None:
    state = make_state([[DIGGER, BUNNY], [SHIELD]], deck=[JUGGLER])
    state.aside = -1
    rules.apply(state, Play(DIGGER), np.random.default_rng(0))
    assert state.log[0] == Event(0, PLAY + DIGGER, NONE, NONE, NO_EFFECT)


def test_the_mouse_trapper_depth_is_seen_by_its_player_only() -> None:
    state, rng = new(3, {"hands": [TRAPPER, SHIELD, BOWL], "deck_top": [BUNNY, HERMIT, SNAKE],
                         "first_player": 0})
    start = len(state.log)
    rules.apply(state, Play(TRAPPER), rng)
    rules.apply(state, PlaceCard(1), rng)
    look, place = state.log[start : start + 2]
    assert look == Event(0, PLAY + TRAPPER, NONE, NONE, NONE, HERMIT, 1)
    assert place == Event(0, PLACE, NONE, NONE, NONE, 1, 1)
    for seat in (1, 2):
        assert place.as_seen_by(seat) == Event(0, PLACE)
        assert look.as_seen_by(seat) == Event(0, PLAY + TRAPPER)


def test_snake_sorcerer_on_an_empty_pile_draws_the_set_aside_card_in_public() -> None:
    state = make_state([[SNAKE, BUNNY], [SHIELD], [TRAPPER]], aside=HERMIT)
    rules.apply(state, Play(SNAKE, 1), np.random.default_rng(0))
    assert state.log[:2] == [Event(0, PLAY + SNAKE, 1, SHIELD),
                             Event(TABLE, DRAW, 1, NONE, FROM_ASIDE, HERMIT, 0b10)]


def test_the_showdown_reveals_every_card_and_names_the_winner() -> None:
    state, rng = showdown_state([SNAKE, BUNNY, None], [[TRAPPER], [], [BOWL]])
    rules.apply(state, Play(TRAPPER), rng)
    round_end = state.log[: state.log.index(Event(TABLE, NEW_ROUND, 0))]
    assert round_end == [Event(0, PLAY + TRAPPER, NONE, NONE, NO_EFFECT),
                         Event(TABLE, REVEAL, 0, SNAKE), Event(TABLE, REVEAL, 1, BUNNY),
                         Event(TABLE, ROUND_WON, 0)]


def test_the_match_winner_is_recorded() -> None:
    state, rng = showdown_state([SNAKE, BUNNY], [[TRAPPER], []], tokens=[2, 0])
    rules.apply(state, Play(TRAPPER), rng)
    assert state.log[-2:] == [Event(TABLE, ROUND_WON, 0), Event(TABLE, MATCH_WON, 0)]


# ------------------------------------------------------------- the observation


def _event_slots(game: Any, seat: int) -> np.ndarray:
    return OBSERVATION_SPEC.unpack(game.observe(f"player_{seat}")["observation"])["recent_moves"]


def _decode(slot: np.ndarray) -> tuple[int | None, ...]:
    """(actor, what, target, card, result) of one encoded event, relative seats."""
    bounds = np.cumsum([0, 6, NUM_RECENT_KINDS, 6, 11, NUM_RESULTS])
    assert bounds[-1] == EVENT_WIDTH
    parts = []
    for low, high in zip(bounds[:-1], bounds[1:], strict=True):
        hot = np.flatnonzero(slot[low:high])
        assert hot.size <= 1
        parts.append(int(hot[0]) if hot.size else None)
    return tuple(parts)


def test_recent_moves_shows_the_newest_events_relative_to_the_observer() -> None:
    game = make_env(4, {"hands": [BOWL, SHIELD, TRAPPER, ROBOVAC], "deck_top": [BUNNY, JUGGLER],
                        "first_player": 0})
    step_name(game, "play:crystal_bowl:+2:hermit_swap")  # seat 0 misses at seat 2
    # Newest first: the play, then the new round (the draws that started seat 0's and
    # seat 1's turns are left out).
    for seat in range(4):
        slots = _event_slots(game, seat)
        assert _decode(slots[0]) == ((0 - seat) % 4, PLAY + BOWL, (2 - seat) % 4, HERMIT, MISS)
        assert _decode(slots[1]) == (None, NEW_ROUND, (0 - seat) % 4, None, None)
        assert not slots[2:].any()


def _listed(log: list[Event]) -> list[Event]:
    """The events ``recent_moves`` may show, newest first: all but the turn-start draws."""
    return [event for event in log[::-1] if event.what != TURN_DRAW]


def test_recent_moves_keeps_the_last_events_only() -> None:
    game = make_env(4, {"hands": [SHIELD, BOWL, ROBOVAC, KING], "first_player": 0}, seed=3)
    rng = np.random.default_rng(0)
    while len(_listed(game.game_state.log)) <= RECENT_EVENTS + 2:
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))
    listed = _listed(game.game_state.log)
    slots = _event_slots(game, 0)
    assert len(listed) > RECENT_EVENTS and slots.any(axis=1).all()
    assert [_decode(slot)[1] for slot in slots] == [e.what for e in listed[:RECENT_EVENTS]]


def test_the_turn_start_draw_is_logged_but_not_in_recent_moves_unlike_a_snake_draw() -> None:
    game = make_env(3, {"hands": [SNAKE, SHIELD, TRAPPER], "deck_top": [BUNNY, JUGGLER, HERMIT],
                        "first_player": 0})
    # recent_moves has a column for every event code but TURN_DRAW, the last.
    assert TURN_DRAW == NUM_RECENT_KINDS == NUM_EVENT_KINDS - 1
    step_name(game, "play:snake_sorcerer:+2")  # seat 2 shows its Mouse Trapper, draws anew
    # Seat 0's turn began with a draw, seat 2 drew after the Snake Sorcerer, seat 1's
    # turn began with a draw: all three are in the record, for narration and resampling.
    assert game.game_state.log == [
        Event(TABLE, NEW_ROUND, 0),
        Event(TABLE, TURN_DRAW, 0, NONE, NONE, BUNNY, 0b001),
        Event(0, PLAY + SNAKE, 2, TRAPPER),
        Event(TABLE, DRAW, 2, NONE, NONE, JUGGLER, 0b100),
        Event(TABLE, TURN_DRAW, 1, NONE, NONE, HERMIT, 0b010),
    ]
    assert "player_1 drew a card" in game.narrate(0, 0)
    assert "player_2 drew a card" in game.narrate(0, 0)
    # recent_moves shows the Snake Sorcerer's draw (it says who drew) and not the
    # turn-start draws, for every seat.
    for seat in range(3):
        slots = _event_slots(game, seat)
        assert [_decode(slot) for slot in slots[:3]] == [
            (None, DRAW, (2 - seat) % 3, None, None),
            ((0 - seat) % 3, PLAY + SNAKE, (2 - seat) % 3, TRAPPER, None),
            (None, NEW_ROUND, (0 - seat) % 3, None, None),
        ]
        assert not slots[3:].any()


def test_the_invariants_check_that_the_turn_in_progress_began_with_its_draw() -> None:
    state, rng = new(3, {"hands": [SHIELD, BUNNY, BOWL], "first_player": 0})
    rules.apply(state, Play(SHIELD), rng)
    check_invariants(state)
    state.log[-1] = Event(TABLE, TURN_DRAW, 2, NONE, NONE, BOWL, 0b100)
    with pytest.raises(AssertionError, match="began with seat 2's draw"):
        check_invariants(state)
    del state.log[-1]  # no turn-start draw since the new round
    state.log.append(Event(TABLE, NEW_ROUND, 1))
    with pytest.raises(AssertionError, match="without a turn-start draw"):
        check_invariants(state)


# ---------------------------------------------------------------- in words


def test_describe_event_names_you_and_hides_what_you_did_not_see() -> None:
    bowl = Event(2, PLAY + BOWL, 0, HERMIT, MISS)
    assert describe_event(bowl, 0, 3) == (
        "player_2 played Crystal Bowl (1) at you naming Hermit Swap (8): missed")
    for what in (TURN_DRAW, DRAW):
        draw = Event(TABLE, what, 1, NONE, NONE, KING, 0b10)
        assert describe_event(draw, 1, 3) == "you drew a card: King Cat (10)"
        assert describe_event(draw.as_seen_by(0), 0, 3) == "player_1 drew a card"
    aside = Event(TABLE, DRAW, 1, NONE, FROM_ASIDE, KING, 0b10)
    assert describe_event(aside.as_seen_by(0), 0, 3) == "player_1 drew the set-aside card"
    place = Event(1, PLACE, NONE, NONE, NONE, 3, 0b10)
    assert describe_event(place.as_seen_by(2), 2, 3) == "player_1 put the card back into the pile"
    assert describe_event(place, TABLE, 3) == (
        "player_1 put the card back into the pile with 3 cards above it")


def test_every_event_kind_has_words() -> None:
    for what in range(len(EVENT_NAMES)):
        text = describe_event(Event(0, what, 1, 2, NONE), 0, 3)
        assert text and not text.startswith("event ")


def test_the_env_narrates_the_record_as_a_seat_saw_it() -> None:
    game = make_env(3, {"hands": [BOWL, SHIELD, TRAPPER], "deck_top": [BUNNY, JUGGLER],
                        "first_player": 0})
    step_name(game, "play:crystal_bowl:+1:hermit_swap")
    lines = game.narrate(2, 0)
    assert "player_0 played Crystal Bowl (1) at player_1 naming Hermit Swap (8): missed" in lines
    assert "player_1 drew a card" in lines
    assert "you drew a card: Jittery Juggler (7)" in game.narrate(1, 0)
