"""Issue 16, finding 2: the public record (docs/rules/README.md: every announced choice, every
card played face up, every reveal; secrets seen only by their parties).

The engine appends one event per happening to ``state.log``; the observation shows
the newest ``RECENT_MOVES`` of them (public parts only) in ``recent_moves`` and the
negative knowledge they imply in ``ruled_out``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardgym import testing
from cardgym.record import NONE, Event
from ek_env import env as make_env
from ek_env.encoding.encoding import BASE, RECENT_MOVES, STREAKING, layout
from ek_env.engine import record as R
from ek_env.engine.state import (
    Alter,
    BlindPlay,
    ChooseFive,
    Draw,
    Garbage,
    Give,
    Insert,
    NameCard,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
    State,
    Take,
)
from ek_env.info.view import PlayerView
from tests.cardgym.kits import EK, EK_STREAKING
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
    SHUFFLE,
    SKIP,
    TACO,
    apply,
    apply_all,
    make,
    pass_window,
    run_window,
)
from tests.ek_env.streaking_helpers import ALTER_CARD, BOMB, GC, MARK, play_and_pass, smake

DECK3 = [SKIP, BEARD, KITTEN, KITTEN]  # top first; 3 players


def since(state: State, start: int) -> list[Event]:
    return state.log[start:]


def recent(state: State, seat: int) -> np.ndarray:
    """The ``recent_moves`` rows of ``seat``'s observation."""
    lay = layout(state.config)
    fields = lay.observation_spec.unpack(lay.encode(PlayerView(state, seat)))
    return fields["recent_moves"]


def row_of(state: State, seat: int, event: Event) -> np.ndarray:
    """The row ``recent_moves`` should hold for ``event``, seen from ``seat``."""
    lay = layout(state.config)
    codes = len(R.EVENT_NAMES) if state.config.streaking else R.BASE_EVENTS
    n = state.num_players
    row = np.zeros(lay.observation_spec["recent_moves"].shape[1], dtype=np.float32)
    row[event.what] = 1
    row[codes + (event.actor - seat) % n] = 1
    if event.target >= 0:
        row[codes + 9 + (event.target - seat) % n] = 1
    if event.card >= 0:
        row[codes + 18 + event.card] = 1
    if event.result >= 0:
        row[codes + 18 + state.kinds + event.result] = 1
    return row


# ----------------------------------------------------------- base game


def test_a_favor_records_the_play_the_window_and_a_gift_seen_by_two() -> None:
    state, rng = make([[FAVOR, TACO], [SKIP, NOPE], [MELON]], DECK3, first=0)
    apply(state, PlayCard(FAVOR, 1), rng)
    pass_window(state, rng)
    apply(state, Give(SKIP), rng)
    gift = Event(1, R.GIVE, 0, NONE, R.DONE, SKIP, 0b011)
    assert since(state, 0) == [Event(0, R.PLAY, 1, FAVOR),
                               Event(0, R.WINDOW, 1, FAVOR, R.ALLOWED), gift]
    assert gift.as_seen_by(0).secret == SKIP and gift.as_seen_by(1).secret == SKIP
    assert gift.as_seen_by(2).secret == NONE
    # seat 2's observation: the gift newest first, with no card; then the window, the play
    rows = recent(state, 2)
    assert np.array_equal(rows[0], row_of(state, 2, gift))
    assert not rows[0][R.BASE_EVENTS + 18 : R.BASE_EVENTS + 18 + state.kinds].any()
    assert np.array_equal(rows[2], row_of(state, 2, Event(0, R.PLAY, 1, FAVOR)))
    assert not rows[3:].any()


def test_a_nope_names_whom_it_answers_and_the_window_says_the_play_was_stopped() -> None:
    state, rng = make([[SKIP, TACO], [NOPE], [NOPE]], DECK3, first=0)
    apply(state, PlayCard(SKIP), rng)
    run_window(state, rng, [1, 2])  # seat 1 Nopes the Skip, seat 2 Nopes the Nope
    assert since(state, 0) == [Event(0, R.PLAY, NONE, SKIP), Event(1, R.NOPE, 0, NOPE, 1),
                               Event(2, R.NOPE, 1, NOPE, 2),
                               Event(0, R.WINDOW, NONE, SKIP, R.ALLOWED)]
    assert R.describe_event(state.log[2], 1, 3) == "player_2 noped your nope"
    assert R.describe_event(state.log[3], 0, 3) == "your skip goes ahead"
    state, rng = make([[SKIP, TACO], [NOPE], [MELON]], DECK3, first=0)
    apply(state, PlayCard(SKIP), rng)
    run_window(state, rng, [1])
    assert state.log[-1] == Event(0, R.WINDOW, NONE, SKIP, R.STOPPED)


def test_a_pair_records_its_target_and_a_steal_seen_by_two_or_an_empty_hand() -> None:
    state, rng = make([[TACO, TACO, SKIP], [ATTACK], [MELON]], DECK3, first=0)
    apply(state, PlayPair(TACO, 1), rng)
    pass_window(state, rng)
    assert since(state, 0) == [Event(0, R.PAIR, 1, TACO), Event(0, R.WINDOW, 1, TACO, R.ALLOWED),
                               Event(0, R.STEAL, 1, NONE, R.DONE, ATTACK, 0b011)]
    state, rng = make([[TACO, TACO, SKIP], [], [MELON]], DECK3, first=0)
    apply(state, PlayPair(TACO, 1), rng)
    pass_window(state, rng)
    assert state.log[-1] == Event(0, R.STEAL, 1, NONE, R.NOTHING)


def test_three_of_a_kind_records_the_named_card_and_whether_it_hit() -> None:
    state, rng = make([[MELON] * 3 + [SKIP], [ATTACK, TACO], [BEARD]], DECK3, first=0)
    apply(state, PlayThree(MELON, 1), rng)
    apply(state, NameCard(ATTACK), rng)
    pass_window(state, rng)
    assert since(state, 0) == [
        Event(0, R.THREE, 1, MELON), Event(0, R.NAME, 1, ATTACK),
        Event(0, R.WINDOW, 1, MELON, R.ALLOWED), Event(0, R.ASK, 1, ATTACK, R.HIT)]
    state, rng = make([[MELON] * 3 + [SKIP], [ATTACK, TACO], [BEARD]], DECK3, first=0)
    apply(state, PlayThree(MELON, 1), rng)
    apply(state, NameCard(SKIP), rng)
    pass_window(state, rng)
    assert state.log[-1] == Event(0, R.ASK, 1, SKIP, R.MISS)


def test_five_different_records_each_kind_and_the_card_taken() -> None:
    state, rng = make([[ATTACK, SKIP, TACO, POTATO, RAINBOW], [NOPE], [MELON]], DECK3, first=0,
                      discard=[DEFUSE])
    apply(state, PlayFive(), rng)
    apply_all(state, [ChooseFive(c) for c in (ATTACK, SKIP, TACO, POTATO, RAINBOW)], rng)
    pass_window(state, rng)
    apply(state, Take(DEFUSE), rng)
    assert since(state, 0) == (
        [Event(0, R.FIVE, card=c) for c in (ATTACK, SKIP, TACO, POTATO, RAINBOW)]
        + [Event(0, R.WINDOW, NONE, NONE, R.ALLOWED), Event(0, R.TAKE, card=DEFUSE, result=R.DONE)])


def test_a_draw_is_secret_to_the_drawer_unless_it_is_a_kitten_and_the_depth_is_secret() -> None:
    state, rng = make([[TACO], [DEFUSE], [MELON]], [SKIP, KITTEN, BEARD, KITTEN], first=0)
    apply(state, Draw(), rng)
    assert state.log[-1] == Event(0, R.DRAW, secret=SKIP, seen_by=0b001)
    apply(state, Draw(), rng)  # seat 1 draws the kitten, defuses, puts it back
    apply(state, Insert(2), rng)
    assert since(state, 1) == [Event(1, R.DRAW, card=KITTEN), Event(1, R.DEFUSE, card=DEFUSE),
                               Event(1, R.INSERT, secret=2, seen_by=0b010)]
    assert state.log[-1].as_seen_by(0).secret == NONE
    apply(state, Draw(), rng)  # seat 2 draws Beard Cat
    apply(state, Draw(), rng)  # seat 0 draws the kitten at depth 2 with no Defuse: out
    assert since(state, 5) == [Event(0, R.DRAW, card=KITTEN), Event(0, R.OUT)]


def test_see_the_future_shows_how_many_cards_to_all_and_which_to_the_player() -> None:
    state, rng = make([[FUTURE], [NOPE], [MELON]], DECK3, first=0)
    play_and_pass(state, rng, PlayCard(FUTURE))
    saw = state.log[-1]
    assert saw == Event(0, R.SAW, result=3, secret=R.pack([SKIP, BEARD, KITTEN]), seen_by=1)
    assert R.unpack(saw.secret) == [SKIP, BEARD, KITTEN]
    assert saw.as_seen_by(1).secret == NONE


# ---------------------------------------------------------- ruled_out


def _ruled_out(state: State, seat: int) -> np.ndarray:
    lay = layout(state.config)
    return lay.observation_spec.unpack(lay.encode(PlayerView(state, seat)))["ruled_out"]


def test_a_missed_three_of_a_kind_rules_the_kind_out_until_the_target_gains_a_card() -> None:
    hands = [[MELON] * 3 + [SKIP], [ATTACK, BEARD, BEARD, BEARD], [TACO, SHUFFLE]]
    state, rng = make(hands, [SKIP, FAVOR, KITTEN, KITTEN], first=0)
    apply(state, PlayThree(MELON, 1), rng)
    apply(state, NameCard(NOPE), rng)
    pass_window(state, rng)
    for seat in range(3):  # public: every seat sees seat 1 has no Nope
        relative = (1 - seat) % 3
        assert _ruled_out(state, seat)[relative].tolist() == [
            int(card == NOPE) for card in range(state.kinds)]
    apply(state, Draw(), rng)  # seat 0 ends the turn; seat 1 plays on
    apply(state, PlayThree(BEARD, 2), rng)  # three Beard Cats at seat 2, asking for Taco Cat
    apply(state, NameCard(TACO), rng)
    pass_window(state, rng)
    assert state.log[-1] == Event(1, R.ASK, 2, TACO, R.HIT)
    # seat 1 gained a Taco Cat in plain sight: it still holds no Nope
    assert _ruled_out(state, 0)[1][NOPE] == 1 and _ruled_out(state, 0)[1].sum() == 1
    apply(state, Draw(), rng)  # seat 1 draws a card nobody else sees: stale
    assert not _ruled_out(state, 0).any() and not _ruled_out(state, 2).any()


def test_a_card_received_on_a_favor_makes_the_negative_knowledge_stale() -> None:
    state, rng = make([[MELON] * 3 + [TACO], [FAVOR], [ATTACK]], DECK3, first=0)
    apply(state, PlayThree(MELON, 1), rng)
    apply(state, NameCard(SKIP), rng)
    pass_window(state, rng)
    apply(state, Draw(), rng)
    assert _ruled_out(state, 2)[2][SKIP] == 1  # seat 1, seen from seat 2
    play_and_pass(state, rng, PlayCard(FAVOR, 2))  # seat 1 asks seat 2 for a card
    assert _ruled_out(state, 0)[1][SKIP] == 1  # the Favor's card is still to come
    apply(state, Give(ATTACK), rng)
    assert not _ruled_out(state, 0).any()


# ----------------------------------------------------------- expansion


def test_mark_shows_the_card_to_all_and_a_marked_gift_is_public() -> None:
    state, rng = smake([[MARK, FAVOR], [SKIP], [NOPE]], [KITTEN, MELON, KITTEN], first=0)
    play_and_pass(state, rng, PlayCard(MARK, 1))
    assert since(state, 0) == [Event(0, R.PLAY, 1, MARK), Event(0, R.WINDOW, 1, MARK, R.ALLOWED),
                               Event(0, R.MARK, 1, SKIP, R.DONE)]
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    apply(state, Give(SKIP, marked=True), rng)
    assert state.log[-1] == Event(1, R.GIVE, 0, SKIP, R.MARKED_COPY)


def test_garbage_put_ins_are_secret_to_their_owner_unless_marked() -> None:
    state, rng = smake([[GC, TACO], [SKIP, SKIP], [MELON]], [KITTEN, KITTEN, KITTEN], first=0,
                       marked=[[], [SKIP], []])
    play_and_pass(state, rng, PlayCard(GC))
    start = len(state.log)
    apply_all(state, [Garbage(TACO), Garbage(SKIP, marked=True), Garbage(MELON)], rng)
    assert since(state, start) == [
        Event(0, R.GARBAGE, result=R.DONE, secret=TACO, seen_by=0b001),
        Event(1, R.GARBAGE, card=SKIP, result=R.MARKED_COPY),
        Event(2, R.GARBAGE, result=R.DONE, secret=MELON, seen_by=0b100)]


def test_catomic_bomb_alter_the_future_and_a_blind_play_are_recorded() -> None:
    state, rng = smake([[BOMB, ALTER_CARD], [NOPE], [MELON]], [TACO, KITTEN, SKIP, KITTEN],
                       first=0)
    play_and_pass(state, rng, PlayCard(BOMB))
    assert state.log[-1] == Event(0, R.BOMB, result=2)
    state, rng = smake([[ALTER_CARD], [NOPE], [MELON]], [TACO, KITTEN, SKIP], first=0)
    play_and_pass(state, rng, PlayCard(ALTER_CARD))
    apply_all(state, [Alter(SKIP), Alter(KITTEN)], rng)
    assert state.log[-1] == Event(0, R.ALTERED, result=3, secret=R.pack([SKIP, KITTEN, TACO]),
                                  seen_by=0b001)
    state, rng = smake([[SKIP], [NOPE], [MELON]], [TACO, KITTEN, KITTEN], first=0, blind=[0])
    apply(state, BlindPlay(), rng)
    assert state.log[-1] == Event(0, R.BLIND_PLAY, card=SKIP, result=R.PLAYED)


# --------------------------------------------------------- observation


@pytest.mark.parametrize("options", [{}, {"expansions": ("streaking",)}])
def test_with_nine_players_every_seat_sees_the_newest_event_first(options: dict) -> None:
    game = make_env(num_players=9, **options)
    game.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    for agent in game.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        state = game.game_state
        if not state.log:
            continue
        steps += 1
        for seat in range(9):
            rows = recent(state, seat)
            assert np.array_equal(rows[0], row_of(state, seat, state.log[-1])), agent
            assert int(rows.any(axis=1).sum()) == min(len(state.log), RECENT_MOVES)
    assert steps > 100


def test_the_layouts_grew_by_the_record_and_the_marked_copies() -> None:
    assert RECENT_MOVES == 8
    assert BASE.observation_spec["recent_moves"].shape == (8, R.BASE_EVENTS + 18 + 13 + 10)
    width = len(R.EVENT_NAMES) + 18 + 22 + 10
    assert STREAKING.observation_spec["recent_moves"].shape == (8, width)
    assert BASE.observation_spec["ruled_out"].shape == (9, 13)
    assert BASE.num_actions == 319 and STREAKING.num_actions == 605 + 44
    assert (BASE.obs_size, STREAKING.obs_size) == (1289 + 117 + 8 * 58, 3521 + 198 + 8 * 76)


# ------------------------------------------------------------- in words


def test_events_in_words_as_each_seat_saw_them() -> None:
    gift = Event(1, R.GIVE, 0, NONE, R.DONE, SKIP, 0b011)
    assert R.describe_event(gift.as_seen_by(0), 0, 3) == "player_1 gave skip to you"
    assert R.describe_event(gift.as_seen_by(2), 2, 3) == "player_1 gave a card to player_0"
    miss = Event(2, R.ASK, 1, NOPE, R.MISS)
    assert R.describe_event(miss, 1, 3) == "you had no nope"
    assert R.describe_event(Event(0, R.PLAY, 2, FAVOR), 1, 3) == "player_0 played favor at player_2"
    insert = Event(1, R.INSERT, secret=4, seen_by=0b010)
    assert R.describe_event(insert.as_seen_by(1), 1, 3) == "you put the kitten back at depth 4"
    assert R.describe_event(insert.as_seen_by(0), 0, 3) == "player_1 put the kitten back"
    for what in range(len(R.EVENT_NAMES)):  # every code has words
        assert R.describe_event(Event(0, what, 1, SKIP, 1), 2, 3)


# ------------------------------------------------- who sees each choice


def test_choice_visibility_follows_the_rules() -> None:
    state, rng = make([[TACO], [DEFUSE], [MELON]], [KITTEN, BEARD, KITTEN], first=1)
    apply(state, Draw(), rng)  # seat 1 defuses; the depth is its secret
    lay = layout(state.config)
    depths = {R.choice_visibility(state, lay.move_to_action(state, Insert(d))) for d in range(3)}
    assert depths == {("insert", 0b010)}
    state, rng = smake([[FAVOR], [SKIP, SKIP, TACO], [NOPE]], [KITTEN, MELON, KITTEN], first=0,
                       marked=[[], [SKIP], []])
    play_and_pass(state, rng, PlayCard(FAVOR, 1))
    lay = layout(state.config)
    seen = {move: R.choice_visibility(state, lay.move_to_action(state, move))
            for move in (Give(SKIP), Give(TACO), Give(SKIP, marked=True))}
    assert seen[Give(SKIP)] == seen[Give(TACO)] == ("give", 0b011)
    assert seen[Give(SKIP, marked=True)] == (("give", SKIP, True), 0b011)
    # a play is announced: its public part is the action itself
    state, rng = make([[SKIP, TACO], [NOPE], [MELON]], DECK3, first=0)
    assert R.choice_visibility(state, 0)[0] != R.choice_visibility(state, 1)[0]


# ---------------------------------------------------------- the kit


@pytest.mark.parametrize("kit", [EK, EK_STREAKING], ids=lambda kit: kit.name)
@pytest.mark.parametrize("num_players", [2, 3, 5, 9])
def test_the_kits_choice_checks_pass(kit: testing.GameKit, num_players: int) -> None:
    """Private choices stay private and public ones are seen (cardgym.testing), over
    every option set. The resample part waits for ek_env.info.hidden (issue 16, finding 3)."""
    kit = dataclasses.replace(kit, choice_visibility=R.choice_visibility)
    for options in kit.option_sets:
        report = testing.check_choices(kit, num_players, games=2, options=options,
                                       resample=False)
        assert report.private_pairs > 0 and report.public_pairs > 0
