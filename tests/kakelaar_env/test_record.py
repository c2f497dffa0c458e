"""The public record (issue 16): what happens at the table reaches every seat's
observation (``recent_moves``), the log holds it as each seat saw it, and the
narration tells it.

The findings: before the record, a seat's observation at its next decision could
not tell *who took which row card*, *which cards a mother hen brought back*, or
that a mother hen was played at all (``hen_played`` is cleared at the round's end,
before any seat observes it unless a take-back stage follows): two games whose
public events differ led to identical observations for every seat. Each test below
plays two such games and shows that the observations now differ in ``recent_moves``
and in nothing else.
"""

from __future__ import annotations

import numpy as np

from cardgym.record import NONE, TABLE
from kakelaar_env import env as make_plain_env
from kakelaar_env.display.record import (
    BID,
    BID_FACE_DOWN,
    DIGEST_FORCED,
    DIGEST_HEN,
    DIGEST_NO_BID,
    DIGEST_POSITION,
    DIGEST_TAKEN,
    DIGEST_TOOK,
    HEN,
    HEN_FACE_DOWN,
    HEN_FORCED,
    HEN_PLAYED,
    PICK_FACE_DOWN,
    ROUND,
    SCORE,
    TAKE,
    TOOK,
    WINNER,
    describe_event,
    round_digest,
)
from kakelaar_env.encoding.encoding import OBSERVATION_SPEC
from kakelaar_env.engine.cards import parse_card
from kakelaar_env.engine.state import BID as BID_STAGE
from kakelaar_env.engine.state import GAME_OVER
from tests.kakelaar_env.helpers import CHICKENS, fields, make_env, run_stage

ROW_SLOT_HEN = 8  # worm_1..worm_8 are slots 0..7 of the row-card one-hot, the hen 8


def differing_fields(a: dict, b: dict) -> list[str]:
    return [name for name in a if not np.array_equal(a[name], b[name])]


def took(record: np.ndarray) -> tuple[int, int]:
    """(row position 1..5, row slot) one participant's record row says it took."""
    position = int(np.argmax(record[DIGEST_POSITION:DIGEST_POSITION + 5])) + 1
    slot = int(np.argmax(record[DIGEST_TOOK:DIGEST_TOOK + 9]))
    assert record[DIGEST_POSITION:DIGEST_POSITION + 5].sum() == 1
    assert record[DIGEST_TOOK:DIGEST_TOOK + 9].sum() == 1
    return position, slot


# --------------------------------------------------------------- findings


def test_who_took_which_row_card_reaches_every_seat() -> None:
    """Seat 0 holds worm_5 and takes worm_1 from position 1, or holds worm_1 and takes
    worm_5: the same hands, piles and unseen cards afterwards, so without the record
    no seat could tell which card the row gave seat 0."""
    games = []
    for held, row in (("w5", ["w1", "w2", "w3"]), ("w1", ["w5", "w2", "w3"])):
        game = make_env(3, {"tractor": 0, "deck_top": row,
                            "hands": [CHICKENS + [held], CHICKENS, CHICKENS]}, seed=3)
        run_stage(game, {0: "c7", 1: "c6", 2: "c5"})  # seat 0 first, 1 second, 2 third
        assert game.game_state.phase == BID_STAGE and game.game_state.round == 2
        games.append(game)
    a, b = games
    for seat in range(3):
        seen_a, seen_b = fields(a, seat), fields(b, seat)
        assert differing_fields(seen_a, seen_b) == ["recent_moves"], seat
        row_of_seat_0 = (0 - seat) % 3  # seat-relative
        assert took(seen_a["recent_moves"][row_of_seat_0]) == (1, parse_card("w1"))
        assert took(seen_b["recent_moves"][row_of_seat_0]) == (1, parse_card("w5"))
        assert took(seen_a["recent_moves"][(1 - seat) % 3]) == (2, parse_card("w2"))
        assert took(seen_a["recent_moves"][(2 - seat) % 3]) == (3, parse_card("w3"))


def test_which_cards_a_mother_hen_brought_back_reach_every_seat() -> None:
    """Seat 0 plays a hen and takes worm_5 and worm_1 back, or (holding worm_1 and
    with chicken_4 in its pile instead) worm_5 and chicken_4: the hands and piles
    end the same, so without the record no seat could tell what came back."""
    games = []
    for hand, pile, picks in (
        (["c7", "hen", "c4"], ["w5", "w1", "c3"], ("w5", "w1")),
        (["c7", "hen", "w1"], ["w5", "c4", "c3"], ("w5", "c4")),
    ):
        game = make_env(3, {"tractor": 0, "deck_top": ["w2", "w3", "w4"],
                            "hands": [hand, CHICKENS, CHICKENS],
                            "discards": [pile, [], []]}, seed=5)
        run_stage(game, {0: "c7", 1: "c6", 2: "c5"})
        run_stage(game, {0: "hen:play"})
        run_stage(game, {0: picks[0]})
        run_stage(game, {0: picks[1]})
        assert game.game_state.round == 2 and game.game_state.phase == BID_STAGE
        games.append(game)
    a, b = games
    for seat in range(3):
        seen_a, seen_b = fields(a, seat), fields(b, seat)
        assert differing_fields(seen_a, seen_b) == ["recent_moves"], seat
        mine_a = seen_a["recent_moves"][(0 - seat) % 3]
        mine_b = seen_b["recent_moves"][(0 - seat) % 3]
        taken = DIGEST_TAKEN
        assert mine_a[DIGEST_HEN] == 1 and mine_a[DIGEST_FORCED] == 0
        assert mine_a[taken + parse_card("w5")] == mine_a[taken + parse_card("w1")] == 1
        assert mine_b[taken + parse_card("w5")] == mine_b[taken + parse_card("c4")] == 1
        assert mine_a[taken:].sum() == mine_b[taken:].sum() == 2


def test_a_mother_hen_played_without_a_take_back_stage_reaches_every_seat() -> None:
    """Seat 1 wins the hen at position 1 and plays it at once, taking back its only
    discard (its bid). No take-back stage follows, so ``hen_played`` is cleared
    before any seat observes it: only the record tells the table."""
    game = make_env(3, {"tractor": 0, "deck_top": ["hen", "w2", "w3"]}, seed=1)
    run_stage(game, {0: "c3", 1: "c7", 2: "c5"})  # seat 1 takes the hen
    assert game.game_state.current == 1
    run_stage(game, {1: "hen:play"})
    state = game.game_state
    assert state.round == 2 and state.phase == BID_STAGE
    for seat in range(3):
        seen = fields(game, seat)
        assert not seen["hen_played"].any()  # the old field: already cleared
        row = seen["recent_moves"][(1 - seat) % 3]
        assert took(row) == (1, ROW_SLOT_HEN)
        assert row[DIGEST_HEN] == 1 and row[DIGEST_FORCED] == 0
        assert row[DIGEST_TAKEN + parse_card("c7")] == 1  # the whole pile came back
        for other in (0, 2):
            assert seen["recent_moves"][(other - seat) % 3][DIGEST_HEN] == 0


def test_the_robot_row_card_reaches_both_seats() -> None:
    """The card the robot wins leaves the game: no other field shows it."""
    game = make_env(2, {"tractor": 0, "deck_top": ["w8", "w1", "w4"], "robot_deck": ["c7"]})
    run_stage(game, {0: "c3", 1: "c5"})  # robot 7 > 5 > 3
    for seat in range(2):
        seen = fields(game, seat)
        assert took(seen["recent_moves"][5]) == (1, parse_card("w8"))
        assert took(seen["recent_moves"][(1 - seat) % 2]) == (2, parse_card("w1"))
        assert took(seen["recent_moves"][(0 - seat) % 2]) == (3, parse_card("w4"))
        assert not seen["recent_moves"][2:5].any()


def test_a_seat_with_no_card_to_bid_and_a_forced_hen_are_recorded() -> None:
    """Seat 1 holds only hens: it bids nothing, ranks last and takes the last card
    (a hen), then must play a hen (only hens in hand): public, and recorded."""
    game = make_env(3, {"tractor": 0, "deck_top": ["w8", "w1", "hen"],
                        "hands": [CHICKENS, ["hen", "hen"], CHICKENS]})
    run_stage(game, {0: "c3", 2: "c4"})
    assert game.game_state.asked == [1]
    run_stage(game, {1: "hen:play"})  # the only legal move
    for seat in range(3):
        record = fields(game, seat)["recent_moves"]
        row = record[(1 - seat) % 3]
        assert took(row) == (3, ROW_SLOT_HEN)
        assert row[DIGEST_NO_BID] == 1 and row[DIGEST_HEN] == 1 and row[DIGEST_FORCED] == 1
        assert record[(0 - seat) % 3][DIGEST_NO_BID] == 0
    bids = [e for e in game.game_state.log if e.what == BID]
    assert [(e.target, e.card) for e in bids] == [  # rank order
        (2, parse_card("c4")), (0, parse_card("c3")), (1, NONE)]
    hens = [e for e in game.game_state.log if e.what == HEN]
    assert [(e.target, e.result) for e in hens] == [(1, HEN_FORCED)]


def test_the_record_is_empty_before_the_first_reveal_and_shows_the_current_round_after() -> None:
    game = make_env(3, {"tractor": 0, "deck_top": ["w8", "w1", "w4", "w2", "w3", "w5"]})
    assert not fields(game, 0)["recent_moves"].any()
    run_stage(game, {0: "c7", 1: "c6", 2: "c5"})
    assert took(fields(game, 2)["recent_moves"][1]) == (1, parse_card("w8"))  # seat 0 from 2
    game.step(game.action_index("bid:chicken_3"))  # round 2: seat 1 holds the tractor
    assert took(fields(game, 2)["recent_moves"][1]) == (1, parse_card("w8"))  # still round 1
    run_stage(game, {2: "c7", 0: "c6"})
    assert took(fields(game, 2)["recent_moves"][0]) == (1, parse_card("w2"))  # round 2 now


# ------------------------------------------------------------------ the log


def test_the_log_of_a_round_as_each_seat_saw_it() -> None:
    game = make_env(3, {"tractor": 0, "deck_top": ["w8", "w1", "w4"]})
    run_stage(game, {0: "c7", 1: "c3", 2: "c5"})
    log = game.game_state.log
    assert [(e.what, e.actor, e.target) for e in log] == [
        (ROUND, TABLE, 0),
        (BID_FACE_DOWN, 0, NONE), (BID_FACE_DOWN, 1, NONE), (BID_FACE_DOWN, 2, NONE),
        (BID, TABLE, 0), (TOOK, TABLE, 0), (BID, TABLE, 2), (TOOK, TABLE, 2),
        (BID, TABLE, 1), (TOOK, TABLE, 1),  # rank order: seat 0 bid 7, seat 2 5, seat 1 3
        (ROUND, TABLE, 1),
    ]
    commits = log[1:4]
    assert [e.secret for e in commits] == [parse_card(c) for c in ("c7", "c3", "c5")]
    assert [e.seen_by for e in commits] == [1, 2, 4]
    # Each seat sees its own bid and no other before the reveal.
    for seat in range(3):
        seen = game.events(seat)[1:4]
        assert [e.secret for e in seen] == [
            commits[k].secret if k == seat else NONE for k in range(3)]
    reveal = log[4:10]
    assert [e.card for e in reveal[0::2]] == [parse_card(c) for c in ("c7", "c5", "c3")]
    assert [(e.target, e.result, e.card) for e in reveal[1::2]] == [
        (0, 1, parse_card("w8")), (2, 2, parse_card("w1")), (1, 3, parse_card("w4"))]
    assert game.game_state.round_digest == round_digest(log[game.game_state.record_start:], 3)


def test_the_log_of_hens_and_take_backs_and_the_end() -> None:
    game = make_env(2, {"round": 9, "tractor": 2, "circle": [0, 1, 2],
                        "deck": ["w8", "w1", "w4"],
                        "hands": [["c7", "hen"], ["c3", "hen"]],
                        "discards": [["w5", "w6", "c3"], ["w2"]], "robot_deck": ["c5"]})
    run_stage(game, {0: "c7", 1: "c3"})
    run_stage(game, {0: "hen:play", 1: "hen:play"})
    run_stage(game, {0: "w6"})
    run_stage(game, {0: "w5"})
    state = game.game_state
    assert state.phase == GAME_OVER
    tail = [(e.what, e.actor, e.target, e.card, e.result) for e in state.log
            if e.what not in (ROUND, BID_FACE_DOWN, BID, TOOK)]
    w2, w5, w6, c3 = (parse_card(c) for c in ("w2", "w5", "w6", "c3"))
    assert tail == [
        (HEN_FACE_DOWN, 0, NONE, NONE, NONE), (HEN_FACE_DOWN, 1, NONE, NONE, NONE),
        (HEN, TABLE, 0, NONE, HEN_PLAYED), (HEN, TABLE, 1, NONE, HEN_PLAYED),
        (TAKE, TABLE, 1, w2, 0), (TAKE, TABLE, 1, c3, 0),  # two cards: the whole pile
        (PICK_FACE_DOWN, 0, NONE, NONE, 1), (PICK_FACE_DOWN, 0, NONE, NONE, 2),
        (TAKE, TABLE, 0, w6, 1), (TAKE, TABLE, 0, w5, 1),
        (SCORE, TABLE, 0, NONE, 8 + 6 + 5), (SCORE, TABLE, 1, NONE, 4 + 2),
        (WINNER, TABLE, 0, NONE, NONE),
    ]
    record = fields(game, 1)["recent_moves"]
    assert record[1][DIGEST_TAKEN + w5] == record[1][DIGEST_TAKEN + w6] == 1  # seat 0 from 1
    assert record[0][DIGEST_TAKEN + w2] == record[0][DIGEST_TAKEN + c3] == 1


def test_events_are_described_as_each_seat_saw_them() -> None:
    game = make_env(2, {"tractor": 0, "deck_top": ["w8", "w1", "w4"], "robot_deck": ["c7"]})
    game.step(game.action_index("bid:chicken_3"))
    commit = game.game_state.log[1]
    assert describe_event(commit.as_seen_by(0), 0, 2) == "you bid chicken_3 face down"
    assert describe_event(commit.as_seen_by(1), 1, 2) == "player_0 bid a card face down"
    assert describe_event(commit, TABLE, 2) == "player_0 bid chicken_3 face down"
    game.step(game.action_index("bid:chicken_5"))
    lines = game.narrate(1, 2)
    assert lines == [
        "you bid chicken_5 face down",
        "the robot bid chicken_7 (revealed)",
        "the robot took position 1: worm_8 (out of the game)",
        "you bid chicken_5 (revealed)",
        "you took position 2: worm_1",
        "player_0 bid chicken_3 (revealed)",
        "player_0 took position 3: worm_4",
        "round 2 begins; you hold the tractor",
    ]


def test_the_render_narrates_what_happened_since_the_seats_last_move() -> None:
    game = make_plain_env(num_players=3, render_mode="ansi")
    game.reset(seed=0, options={"scenario": {"tractor": 0, "deck_top": ["w8", "w1", "w4"]}})
    run_stage(game, {0: "c7", 1: "c3", 2: "c5"})
    text = game.render_text(1)
    assert "Since your last move:" in text
    assert "player_0 took position 1: worm_8" in text
    assert "player_2 took position 2: worm_1" in text
    assert "you took position 3: worm_4" in text


def test_the_observation_never_reads_a_secret() -> None:
    """``recent_moves`` is the same for every seat up to the rotation (it holds public
    events only), whatever the seats committed face down."""
    game = make_env(4, {"tractor": 0}, seed=9)
    rng = np.random.default_rng(0)
    while game.agents and not any(game.terminations.values()):
        records = [fields(game, seat)["recent_moves"] for seat in range(4)]
        for seat in range(4):
            rotated = np.concatenate([np.roll(records[seat][:4], seat, axis=0), records[seat][4:]])
            assert np.array_equal(rotated, records[0])
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))
    assert OBSERVATION_SPEC["recent_moves"].shape == (6, 30)
