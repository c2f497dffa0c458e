"""Each card's effect (docs/rules/power_hungry_pets.md, the card table and "Decisions").

Every test deals a stacked round 1 with a scenario: the first player has drawn the
top of the given deck, so seat 0 holds its scenario card plus ``deck_top[0]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardgym.errors import IllegalMoveError
from phpets_env import rules
from phpets_env.engine.state import (
    GRAVE_DIGGER,
    MOUSE_TRAPPER,
    NO_CARD,
    PLAY,
    GraveSwap,
    PlaceCard,
    Play,
    State,
)
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
    apply_all,
    aside_value,
    deck_top_first,
    hand,
    legal_targets,
    make_state,
    new,
    row,
    values,
)

# ------------------------------------------------------------------ King Cat


def test_king_cat_played_voluntarily_eliminates_its_player() -> None:
    # Seat 0 holds King Cat and draws a Mouse Trapper; playing King Cat is legal and
    # puts it face up, so seat 0 is out with both cards in its row; play goes on.
    state, rng = new(3, {"hands": [KING, BUNNY, BOWL], "deck_top": [TRAPPER], "first_player": 0})
    assert Play(KING) in rules.legal_moves(state)
    rules.apply(state, Play(KING), rng)
    assert state.in_round == [False, True, True]
    assert sorted(row(state, 0)) == [TRAPPER, KING]
    assert state.hands[0] == []
    assert state.to_act == 1 and len(state.hands[1]) == 2


# ---------------------------------------------------------------- Not A Pet!

NOT_A_PET_CASES: list[tuple[str, dict[str, Any], list[Play], tuple[list[int], list[int]]]] = [
    # The King Cat holder (seat 2) swaps hands with the actor.
    (
        "holder swaps",
        {"hands": [NOT_A_PET, BUNNY, KING], "deck_top": [TRAPPER], "first_player": 0},
        [Play(NOT_A_PET)],
        ([KING], [TRAPPER]),
    ),
    # Nobody holds King Cat (it is set aside): nothing happens.
    (
        "nobody holds it",
        {"hands": [NOT_A_PET, BUNNY, BOWL], "set_aside": KING, "deck_top": [TRAPPER],
         "first_player": 0},
        [Play(NOT_A_PET)],
        ([TRAPPER], [BOWL]),
    ),
    # The actor drew King Cat itself: nothing happens.
    (
        "actor holds it",
        {"hands": [NOT_A_PET, BUNNY, BOWL], "deck_top": [KING], "first_player": 0},
        [Play(NOT_A_PET)],
        ([KING], [BOWL]),
    ),
    # The holder (seat 2) played Shell Shield on its last turn: nothing happens.
    (
        "holder protected",
        {"hands": [NOT_A_PET, BUNNY, KING], "deck_top": [SHIELD, TRAPPER], "first_player": 2},
        [Play(SHIELD), Play(NOT_A_PET)],
        ([TRAPPER], [KING]),
    ),
]


@pytest.mark.parametrize(
    ("scenario", "moves", "expected"),
    [case[1:] for case in NOT_A_PET_CASES],
    ids=[case[0] for case in NOT_A_PET_CASES],
)
def test_not_a_pet(
    scenario: dict[str, Any], moves: list[Play], expected: tuple[list[int], list[int]]
) -> None:
    state, rng = new(3, scenario)
    apply_all(state, moves, rng)
    assert (hand(state, 0), hand(state, 2)) == expected
    # Seat 1 is never involved; its turn has begun with a draw.
    assert state.to_act == 1 and BUNNY in hand(state, 1)
    assert state.in_round == [True, True, True]


# --------------------------------------------------------------- Hermit Swap


def test_hermit_swap_exchanges_hands_with_the_chosen_player() -> None:
    state, rng = new(3, {"hands": [HERMIT, BUNNY, SNAKE], "deck_top": [TRAPPER, BOWL],
                         "first_player": 0})
    # "another player still in the round": not yourself.
    assert legal_targets(state, HERMIT) == {1, 2}
    rules.apply(state, Play(HERMIT, 2), rng)
    assert hand(state, 0) == [SNAKE]
    assert hand(state, 2) == [TRAPPER]
    assert hand(state, 1) == [BOWL, BUNNY]  # untouched, plus its draw


def test_hermit_swap_cannot_choose_a_player_out_of_the_round() -> None:
    state = make_state([[HERMIT, TRAPPER], [], [SNAKE]], deck=[BOWL])
    assert legal_targets(state, HERMIT) == {2}


# ----------------------------------------------------------- Jittery Juggler


def _juggle(seed: int) -> tuple[State, State]:
    """4 players: seat 1 is out, seat 3 is protected; seat 0 plays Jittery Juggler.

    Returns the state before the play and the state after it.
    """
    state = make_state(
        [[JUGGLER, DIGGER], [], [HERMIT], [SHIELD]],
        rows=[[], [BOWL], [], [SHIELD]],
        deck=[TRAPPER, BUNNY, SNAKE, BOWL, BOWL],
        protected=[3],
    )
    before = state.clone()
    rules.apply(state, Play(JUGGLER), np.random.default_rng(seed))
    return before, state


@pytest.mark.parametrize("seed", range(5))
def test_jittery_juggler_redeals_everyone_in_the_round_but_the_protected(seed: int) -> None:
    before, after = _juggle(seed)
    # The play ended seat 0's turn; seat 2 (next in the round) drew. Undo that draw
    # to look at the state right after the juggle.
    assert after.to_act == 2
    drawn = after.hands[2][-1]
    juggled = [*after.hands[0], *after.hands[2][:-1]]
    deck_after = [*after.deck, drawn]
    # Deck size unchanged: each affected player returned one card and got one.
    assert len(deck_after) == len(before.deck)
    assert len(after.hands[0]) == 1 and len(after.hands[2]) == 2
    # The deck and the affected hands hold the same cards as before, reshuffled.
    assert sorted([*before.deck, before.hands[0][1], *before.hands[2]]) == sorted(
        [*deck_after, *juggled]
    )
    # The protected player keeps the very same card; the player out gets nothing.
    assert after.hands[3] == before.hands[3]
    assert after.hands[1] == []


def test_jittery_juggler_returns_the_actors_own_card_too() -> None:
    # Over several shuffles the actor's and seat 2's old cards sometimes end up in
    # the pile, which can only happen if they were returned.
    returned = {0: 0, 2: 0}
    for seed in range(20):
        before, after = _juggle(seed)
        deck_after = [*after.deck, after.hands[2][-1]]
        returned[0] += before.hands[0][1] in deck_after
        returned[2] += before.hands[2][0] in deck_after
    assert returned[0] > 0 and returned[2] > 0


def test_jittery_juggler_with_an_empty_pile_moves_king_cat_without_harm() -> None:
    # Seat 0 drew the last card: the returned cards are the whole pile, and each
    # player still gets one ("never runs short"). King Cat moves without harm; then
    # seat 1 cannot draw and the showdown ends the match (everyone was one token short).
    for seed in range(4):
        state = make_state([[JUGGLER, KING], [BOWL], [BUNNY]], deck=[], tokens=[2, 2, 2])
        rules.apply(state, Play(JUGGLER), np.random.default_rng(seed))
        assert state.in_round == [True, True, True]
        assert state.deck == []
        assert sorted(hand(state, 0) + hand(state, 1) + hand(state, 2)) == [BOWL, BUNNY, KING]
        king_holder = next(seat for seat in range(3) if hand(state, seat) == [KING])
        assert state.match_winners == (king_holder,)


# -------------------------------------------------------------- Grave Digger


@pytest.mark.parametrize(("swap", "kept", "aside_after"), [(False, TRAPPER, NOT_A_PET),
                                                          (True, NOT_A_PET, TRAPPER)])
def test_grave_digger_keep_or_swap(swap: bool, kept: int, aside_after: int) -> None:
    state, rng = new(3, {"hands": [DIGGER, BUNNY, BOWL], "set_aside": NOT_A_PET,
                         "deck_top": [TRAPPER], "first_player": 0})
    rules.apply(state, Play(DIGGER), rng)
    # The same player now decides: keep or swap.
    assert state.phase == GRAVE_DIGGER and state.to_act == 0
    assert rules.legal_moves(state) == [GraveSwap(False), GraveSwap(True)]
    rules.apply(state, GraveSwap(swap), rng)
    assert hand(state, 0) == [kept]
    assert aside_value(state) == aside_after
    assert state.phase == PLAY and state.to_act == 1


# ------------------------------------------------------------ Snake Sorcerer


def test_snake_sorcerer_on_another_player() -> None:
    state, rng = new(3, {"hands": [SNAKE, BUNNY, BOWL], "deck_top": [TRAPPER, SHIELD, DIGGER],
                         "first_player": 0})
    rules.apply(state, Play(SNAKE, 1), rng)
    # Seat 1 put its Battle Bunny face up without effect and drew Shell Shield;
    # then its own turn began with a draw of Grave Digger.
    assert row(state, 1) == [BUNNY]
    assert hand(state, 1) == [SHIELD, DIGGER]
    assert state.in_round == [True, True, True]
    assert hand(state, 0) == [TRAPPER]


def test_snake_sorcerer_on_yourself() -> None:
    state, rng = new(3, {"hands": [SNAKE, BUNNY, BOWL], "deck_top": [TRAPPER, SHIELD],
                         "first_player": 0})
    assert 0 in legal_targets(state, SNAKE)
    rules.apply(state, Play(SNAKE, 0), rng)
    assert row(state, 0) == [SNAKE, TRAPPER]
    assert hand(state, 0) == [SHIELD]


@pytest.mark.parametrize(("num_players", "target"), [(2, 1), (3, 2), (2, 0)])
def test_snake_sorcerer_with_an_empty_pile_draws_the_set_aside_card(
    num_players: int, target: int
) -> None:
    held = [[SNAKE, TRAPPER], [BUNNY], [BOWL]][:num_players]
    # Every seat is one token short of the match, so the showdown ends the match
    # and the final position stays on the table to be inspected.
    state = make_state(held, deck=[], aside=HERMIT, tokens=[2] * num_players)
    revealed = hand(state, target)[0] if target else TRAPPER
    rules.apply(state, Play(SNAKE, target), np.random.default_rng(0))
    # The target put its card face up and drew the set-aside Hermit Swap; then the
    # next player could not draw: showdown, and Hermit Swap (8) beats every other card.
    assert row(state, target)[-1] == revealed
    assert hand(state, target) == [HERMIT]
    assert aside_value(state) is None
    assert state.round_winners == (target,) and state.match_winners == (target,)


def test_snake_sorcerer_revealing_king_cat_eliminates_without_a_new_card() -> None:
    state, rng = new(3, {"hands": [SNAKE, KING, BOWL], "deck_top": [TRAPPER, SHIELD],
                         "first_player": 0})
    rules.apply(state, Play(SNAKE, 1), rng)
    assert state.in_round == [True, False, True]
    assert row(state, 1) == [KING]
    assert state.hands[1] == []
    # Shell Shield stayed on top: seat 2, next in the round, drew it.
    assert state.to_act == 2
    assert hand(state, 2) == [BOWL, SHIELD]


def test_snake_sorcerer_on_yourself_holding_king_cat_eliminates_you() -> None:
    state, rng = new(3, {"hands": [SNAKE, BUNNY, BOWL], "deck_top": [KING, SHIELD],
                         "first_player": 0})
    rules.apply(state, Play(SNAKE, 0), rng)
    assert state.in_round == [False, True, True]
    assert sorted(row(state, 0)) == [SNAKE, KING]
    assert hand(state, 1) == [BUNNY, SHIELD]


# -------------------------------------------------------------- Shell Shield


def test_shell_shield_protects_until_the_start_of_your_next_turn() -> None:
    state, rng = new(3, {"hands": [SHIELD, BUNNY, BUNNY], "deck_top": [BOWL, BOWL, BOWL, BOWL],
                         "first_player": 0})
    rules.apply(state, Play(SHIELD), rng)
    assert state.protected == [True, False, False]
    # Seat 1 (Battle Bunny, Crystal Bowl) cannot choose seat 0.
    assert legal_targets(state, BUNNY) == {2}
    assert {m.target for m in rules.legal_moves(state) if m.card == BOWL} == {2}
    rules.apply(state, Play(BOWL, 2, KING), rng)  # a wrong guess
    assert state.protected == [True, False, False]
    assert legal_targets(state, BUNNY) == {1}
    rules.apply(state, Play(BOWL, 1, KING), rng)
    # Seat 0's turn has started: the protection is over.
    assert state.to_act == 0
    assert state.protected == [False, False, False]


# Cards a protected player cannot be chosen by (1, 3, 5, 8).
@pytest.mark.parametrize("card", [BOWL, BUNNY, SNAKE, HERMIT])
def test_shell_shield_blocks_targeted_cards(card: int) -> None:
    state = make_state([[card, TRAPPER], [ROBOVAC], [DIGGER]], deck=[BOWL], protected=[1])
    assert 1 not in legal_targets(state, card)
    assert 2 in legal_targets(state, card)
    bad = Play(card, 1, KING if card == BOWL else None)
    with pytest.raises(IllegalMoveError):
        rules.apply(state, bad, np.random.default_rng(0))


def test_shell_shield_does_not_block_the_cards_that_choose_nobody() -> None:
    # Mouse Trapper, Grave Digger and Shell Shield itself act on the actor and the
    # piles only: a protected opponent changes nothing about them.
    state = make_state([[TRAPPER, DIGGER], [SHIELD]], deck=[BOWL, BUNNY], protected=[1],
                       aside=HERMIT)
    assert Play(TRAPPER) in rules.legal_moves(state)
    assert Play(DIGGER) in rules.legal_moves(state)
    rules.apply(state, Play(TRAPPER), np.random.default_rng(0))
    assert state.phase == MOUSE_TRAPPER


# -------------------------------------------------------------- Battle Bunny

BUNNY_CASES = [
    # (seat 0's other card, seat 1's card, who is still in, revealed in row 1 / row 0)
    (SNAKE, TRAPPER, [True, False, True]),  # seat 1 lower: out
    (TRAPPER, SNAKE, [False, True, True]),  # seat 0 lower: out
    (SHIELD, SHIELD, [True, True, True]),  # equal: nothing
    (ROBOVAC, KING, [False, True, True]),  # Robovac has no power here
    (KING, ROBOVAC, [True, False, True]),
]


@pytest.mark.parametrize(("mine", "theirs", "in_round"), BUNNY_CASES)
def test_battle_bunny_lower_card_loses(mine: int, theirs: int, in_round: list[bool]) -> None:
    state, rng = new(3, {"hands": [mine, theirs, BOWL], "deck_top": [BUNNY, DIGGER],
                         "first_player": 0})
    rules.apply(state, Play(BUNNY, 1), rng)
    assert state.in_round == in_round
    if not in_round[1]:
        assert row(state, 1) == [theirs]  # the lower card is revealed
        assert hand(state, 0) == [mine]
    elif not in_round[0]:
        assert row(state, 0) == [BUNNY, mine]
        assert hand(state, 1) == sorted([theirs, DIGGER])  # seat 1 then drew on its turn
    else:
        assert row(state, 1) == [] and hand(state, 0) == [mine]


# ------------------------------------------------------------- Mouse Trapper


@pytest.mark.parametrize(
    ("depth", "pile_after"),
    [
        (0, [SNAKE, DIGGER, JUGGLER]),
        (1, [DIGGER, SNAKE, JUGGLER]),
        (2, [DIGGER, JUGGLER, SNAKE]),
    ],
)
def test_mouse_trapper_puts_the_top_card_back_at_the_chosen_depth(
    depth: int, pile_after: list[int]
) -> None:
    state = make_state([[TRAPPER, SHIELD], [BUNNY]], deck=[SNAKE, DIGGER, JUGGLER])
    rules.apply(state, Play(TRAPPER), np.random.default_rng(0))
    assert state.phase == MOUSE_TRAPPER and state.to_act == 0
    # Depth 0 (top) to 2 (bottom, below the other two cards).
    assert rules.legal_moves(state) == [PlaceCard(0), PlaceCard(1), PlaceCard(2)]
    # The looked-at card is out of the pile while it is placed.
    assert values([state.pending]) == [SNAKE] and deck_top_first(state) == [DIGGER, JUGGLER]
    rules.apply(state, PlaceCard(depth), np.random.default_rng(0))
    # Seat 1's turn began by drawing the new top card.
    assert hand(state, 1) == sorted([BUNNY, pile_after[0]])
    assert deck_top_first(state) == pile_after[1:]
    assert state.pending == NO_CARD


def test_mouse_trapper_in_a_larger_pile_keeps_the_other_cards_in_order() -> None:
    state = make_state([[TRAPPER, SHIELD], [BUNNY]], deck=[SNAKE, DIGGER, JUGGLER, HERMIT, BOWL])
    rng = np.random.default_rng(0)
    apply_all(state, [Play(TRAPPER), PlaceCard(3)], rng)
    # Seat 1 drew Grave Digger; Snake Sorcerer sits under Jittery Juggler and Hermit Swap.
    assert deck_top_first(state) == [JUGGLER, HERMIT, SNAKE, BOWL]


def test_mouse_trapper_with_one_card_left_looks_and_puts_it_back() -> None:
    state = make_state([[TRAPPER, SHIELD], [BUNNY]], deck=[HERMIT])
    rules.apply(state, Play(TRAPPER), np.random.default_rng(0))
    assert state.phase == MOUSE_TRAPPER
    assert rules.legal_moves(state) == [PlaceCard(0)]
    rules.apply(state, PlaceCard(0), np.random.default_rng(0))
    assert hand(state, 1) == [BUNNY, HERMIT]
    assert state.deck == []


def test_mouse_trapper_with_an_empty_pile_has_no_effect() -> None:
    state = make_state([[TRAPPER, HERMIT], [BUNNY]], deck=[])
    rules.apply(state, Play(TRAPPER), np.random.default_rng(0))
    # No placement phase: the turn ended, seat 1 could not draw, showdown: 8 beats 3.
    assert state.pending == NO_CARD
    assert state.round_winners == (0,)
    assert state.tokens == [1, 0]


# -------------------------------------------------------------- Crystal Bowl


@pytest.mark.parametrize(
    ("target_card", "guess", "eliminated"),
    [
        (SNAKE, SNAKE, True),
        (SNAKE, BUNNY, False),
        (ROBOVAC, ROBOVAC, True),  # 0 may be named
        (KING, KING, True),  # 10 may be named
        (ROBOVAC, KING, False),
    ],
)
def test_crystal_bowl_guess(target_card: int, guess: int, eliminated: bool) -> None:
    state, rng = new(3, {"hands": [BOWL, target_card, BUNNY], "deck_top": [TRAPPER],
                         "first_player": 0})
    rules.apply(state, Play(BOWL, 1, guess), rng)
    assert state.in_round == [True, not eliminated, True]
    if eliminated:
        assert row(state, 1) == [target_card]
        assert state.to_act == 2
    else:
        assert row(state, 1) == [] and state.to_act == 1


def test_crystal_bowl_cannot_name_one_but_every_other_value() -> None:
    # Hermit Swap lies face up in seat 2's row: naming it is still allowed.
    state = make_state([[BOWL, TRAPPER], [BOWL], [SHIELD]], rows=[[], [], [HERMIT]],
                       deck=[BUNNY])
    guesses = {m.guess for m in rules.legal_moves(state) if m.card == BOWL and m.target == 1}
    assert guesses == {0, 2, 3, 4, 5, 6, 7, 8, 9, 10}
    before = state.clone()
    with pytest.raises(IllegalMoveError):
        rules.apply(state, Play(BOWL, 1, BOWL), np.random.default_rng(0))
    assert state == before


# ------------------------------------------- no other player can be chosen


@pytest.mark.parametrize("card", [BOWL, BUNNY, HERMIT])
def test_card_needing_another_player_is_played_without_effect_when_all_are_protected(
    card: int,
) -> None:
    # Two players: seat 1 played Shell Shield on its last turn.
    state = make_state([[card, SNAKE], [TRAPPER]], rows=[[], [SHIELD]], deck=[BOWL, BUNNY],
                       protected=[1])
    moves = [m for m in rules.legal_moves(state) if m.card == card]
    assert moves == [Play(card)]
    rules.apply(state, Play(card), np.random.default_rng(0))
    assert state.in_round == [True, True]
    assert values(state.hands[0]) == [SNAKE]
    assert row(state, 0) == [card]
    assert hand(state, 1) == [BOWL, TRAPPER]  # seat 1's own card, plus its draw


def test_all_others_protected_or_out_leaves_snake_sorcerer_only_yourself() -> None:
    state = make_state([[SNAKE, BUNNY], [], [TRAPPER]], deck=[BOWL, BOWL], protected=[2])
    assert legal_targets(state, SNAKE) == {0}
    assert legal_targets(state, BUNNY) == {None}
    rules.apply(state, Play(SNAKE, 0), np.random.default_rng(0))
    assert row(state, 0) == [SNAKE, BUNNY]
    assert hand(state, 0) == [BOWL]


# ---------------------------------------------------------------- elimination


def test_eliminated_players_hand_goes_face_up_into_their_row() -> None:
    state, rng = new(3, {"hands": [BOWL, DIGGER, BUNNY], "deck_top": [TRAPPER, SHIELD],
                         "first_player": 0})
    rules.apply(state, Play(BOWL, 1, DIGGER), rng)
    assert row(state, 1) == [DIGGER]
    assert state.hands[1] == [] and not state.in_round[1]
    # Seat 1 sits out: the turn passes to seat 2.
    assert state.to_act == 2


def test_round_ends_when_one_player_is_left() -> None:
    state, rng = new(3, {"hands": [BOWL, DIGGER, BUNNY], "deck_top": [TRAPPER, BOWL, SNAKE],
                         "first_player": 0})
    rules.apply(state, Play(BOWL, 1, DIGGER), rng)
    assert state.round_number == 1
    # Seat 2 drew Crystal Bowl and names seat 0's Mouse Trapper.
    rules.apply(state, Play(BOWL, 0, TRAPPER), rng)
    assert state.round_winners == (2,)
    assert state.tokens == [0, 0, 1]
    assert state.round_number == 2


def test_two_players_one_elimination_wins_the_round() -> None:
    state, rng = new(2, {"hands": [BOWL, SNAKE], "deck_top": [BUNNY], "first_player": 0})
    rules.apply(state, Play(BOWL, 1, SNAKE), rng)
    assert state.round_winners == (0,)
    assert state.tokens == [1, 0]


def test_after_a_play_the_next_player_draws_and_plays() -> None:
    # Turn: draw the top card, then play one of your two cards.
    state, rng = new(2, {"hands": [SHIELD, SNAKE], "deck_top": [BUNNY, BOWL], "first_player": 0})
    rules.apply(state, Play(SHIELD), rng)
    assert state.phase == PLAY and state.to_act == 1 and hand(state, 1) == [BOWL, SNAKE]
