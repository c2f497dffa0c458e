"""Rule invariants of a Karel Kakelaar state, for fuzzing and debugging."""

from __future__ import annotations

from cardgym.record import TABLE
from kakelaar_env.engine.cards import (
    CHICKEN_TYPES,
    HEN,
    MAX_COPIES,
    MAX_HAND,
    NUM_BIDDABLE,
    NUM_COLOURS,
    NUM_HENS,
    NUM_TYPES,
    ROUNDS,
    count_types,
    row_size,
)
from kakelaar_env.engine.digest import round_digest
from kakelaar_env.engine.events import BID_FACE_DOWN, HEN_FACE_DOWN, PICK_FACE_DOWN
from kakelaar_env.engine.state import (
    BID,
    GAME_OVER,
    HEN_STAGE,
    NONE,
    TAKE_FIRST,
    TAKE_SECOND,
    State,
)

_FACE_DOWN = (BID_FACE_DOWN, HEN_FACE_DOWN, PICK_FACE_DOWN)


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` naming the first broken invariant.

    - every worm and mother hen is in exactly one place (draw pile, removed, row,
      hands, discard piles, won by the robot, or played as a hen);
    - each seat owns each chicken value at most once (hand and discard pile); the
      robot's chickens are in its deck or its discard, three of each value;
    - the draw pile, the row and the robot deck have the sizes the round implies;
    - only the seats asked in a stage have committed, one choice each so far;
    - hands hold at most 14 cards, at most 9 of one worm value, never a hen in a pile;
    - the record: a face-down event is the actor's own, its secret seen by the actor
      alone; every other event is public and comes from the table; the round digest
      the observation shows is what the log's events since the last reveal say.
    """
    _check_cards(state)
    _check_record(state)
    _check_sizes(state)
    if state.phase == GAME_OVER:
        assert state.round == ROUNDS and state.winners, "the game ended without winners"
        assert not state.asked, "seats asked after the game"
        return
    _check_stage(state)


def _check_cards(state: State) -> None:
    """Every worm and hen in one place; chickens owned once; the robot's chickens."""
    config = state.config
    totals = list(config.worm_counts) + [0] * (NUM_TYPES - len(config.worm_counts))
    totals[HEN] = NUM_HENS
    counts = count_types(state.deck + state.removed + state.row + state.robot_won)
    for seat in range(state.num_players):
        _check_seat_cards(state, seat, counts)
    counts[HEN] += state.hens_out
    unseen = count_types(state.deck + state.removed)
    assert unseen == state.unseen, f"unseen counts {state.unseen}, expected {unseen}"
    for card in range(NUM_TYPES):
        if card not in CHICKEN_TYPES:
            assert counts[card] == totals[card], (
                f"type {card}: {counts[card]} cards in play, expected {totals[card]}"
            )
    robot = count_types(state.robot_deck + state.robot_discard)
    expected_robot = NUM_COLOURS - state.num_players if config.robot else 0
    assert all(robot[c] == expected_robot for c in CHICKEN_TYPES), f"robot chickens {robot}"


def _check_seat_cards(state: State, seat: int, counts: list[int]) -> None:
    """Bounds of ``seat``'s hand and discard pile; adds its worms and hens to ``counts``."""
    hand, pile = state.hands[seat], state.discards[seat]
    assert min(hand) >= 0 and min(pile) >= 0, f"seat {seat}: negative count {hand} {pile}"
    assert len(pile) == NUM_BIDDABLE, f"seat {seat}: a discard pile of {len(pile)} types"
    assert sum(hand) <= MAX_HAND, f"seat {seat} holds {sum(hand)} cards"
    for card in range(NUM_TYPES):
        if card in CHICKEN_TYPES:
            assert hand[card] + pile[card] <= 1, f"seat {seat} owns chicken {card} twice"
        else:
            counts[card] += hand[card] + (pile[card] if card < NUM_BIDDABLE else 0)
            assert hand[card] <= MAX_COPIES, f"seat {seat} holds {hand[card]} of type {card}"


def _check_sizes(state: State) -> None:
    """The draw pile, the row and the robot deck have the sizes the round implies."""
    phase = state.phase
    size = row_size(state.num_players)
    assert len(state.deck) == (ROUNDS - state.round) * size, "draw pile size"
    assert len(state.row) == (size if phase == BID else 0), "row size"
    if state.config.robot:
        revealed = state.round - (1 if phase == BID else 0)
        assert len(state.robot_deck) == 15 - revealed, "robot deck size"


def _check_stage(state: State) -> None:
    """Only the seats asked in the stage have committed, one choice each so far; the
    asked seats have the decision the stage is about."""
    phase = state.phase
    asked, cursor = state.asked, state.cursor
    assert asked and 0 <= cursor < len(asked) and state.current == asked[cursor], "stage order"
    done = set(asked[:cursor])
    for seat in range(state.num_players):
        assert (state.bids[seat] != NONE) == (phase == BID and seat in done), f"bid of {seat}"
        assert (state.hen_choices[seat] != NONE) == (phase == HEN_STAGE and seat in done), (
            f"hen choice of {seat}"
        )
        _check_picks(state, seat, done)
    if phase == BID:
        for seat in asked:
            assert any(state.hands[seat][:NUM_BIDDABLE]), f"seat {seat} asked without a card to bid"
    if phase == HEN_STAGE:
        for seat in asked:
            assert state.hands[seat][HEN] > 0, f"seat {seat} asked without a hen"


def _check_picks(state: State, seat: int, done: set[int]) -> None:
    """``seat``'s picks match the take-back stage (``done``: the seats that committed)."""
    phase = state.phase
    picks = len(state.picks[seat])
    if phase == TAKE_FIRST:
        assert picks == (1 if seat in done else 0), f"picks of {seat}"
    elif phase == TAKE_SECOND:
        assert picks == ((2 if seat in done else 1) if seat in state.asked else 0), (
            f"picks of {seat}")
    else:
        assert picks == 0, f"picks of {seat} outside the take stages"
    if phase in (TAKE_FIRST, TAKE_SECOND) and seat in state.asked:
        assert state.hen_played[seat] and sum(state.discards[seat]) > 2, f"taker {seat}"


def _check_record(state: State) -> None:
    n = state.num_players
    log = state.log
    assert 0 <= state.record_start <= len(log), f"record_start {state.record_start}"
    for index, event in enumerate(log):
        if event.what in _FACE_DOWN:
            # A search sample's log has the secrets its seat did not see blanked.
            assert 0 <= event.actor < n, f"event {index}: {event}"
            assert (event.seen_by, event.secret != NONE) in ((1 << event.actor, True), (0, False)), (
                f"event {index}: a face-down choice seen by others: {event}")
        else:
            assert event.actor == TABLE and event.secret == NONE, f"event {index}: {event}"
    assert state.round_digest == round_digest(log[state.record_start:], n), (
        "the round digest does not match the log"
    )
