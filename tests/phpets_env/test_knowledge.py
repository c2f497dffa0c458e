"""What each seat knows (docs/rules/README.md applied to §2), read from the observation.

Every test plays a stacked round 1 through the env by action name and reads the
observation fields ``known_hands``, ``known_aside``, ``known_deck`` and
``pending_card`` by name. ``known_hand(game, observer, other)`` lists the values
``observer``'s observation shows in ``other``'s hand.
"""

from __future__ import annotations

import numpy as np

from tests.phpets_env.helpers import (
    BOWL,
    BUNNY,
    DIGGER,
    HERMIT,
    JUGGLER,
    KING,
    NOT_A_PET,
    SHIELD,
    SNAKE,
    TRAPPER,
    fields,
    hand,
    known_hand,
    make_env,
    one_hot_value,
    step_name,
)

# -------------------------------------------------------------- Battle Bunny


def test_battle_bunny_equal_cards_both_players_know_each_others_card() -> None:
    game = make_env(3, {"hands": [SHIELD, SHIELD, BOWL], "deck_top": [BUNNY, TRAPPER],
                        "first_player": 0})
    step_name(game, "play:battle_bunny:+1")
    assert game.game_state.in_round == [True, True, True]
    assert known_hand(game, 0, 1) == [SHIELD]  # not seat 1's fresh draw
    assert known_hand(game, 1, 0) == [SHIELD]
    # The comparison was secret: seat 2 learns neither card.
    assert known_hand(game, 2, 0) == [] and known_hand(game, 2, 1) == []


def test_battle_bunny_loser_saw_the_winners_card_others_did_not() -> None:
    game = make_env(3, {"hands": [SNAKE, SHIELD, BOWL], "deck_top": [BUNNY], "first_player": 0})
    step_name(game, "play:battle_bunny:+1")
    assert game.game_state.in_round == [True, False, True]
    assert known_hand(game, 1, 0) == [SNAKE]
    assert known_hand(game, 2, 0) == []
    # The lower card is revealed to all: it lies in seat 1's row.
    assert fields(game, 2)["rows"][2][SHIELD] == 1  # seat 1 is +2 from seat 2


# --------------------------------------------------------------- Hermit Swap


def test_hermit_swap_both_players_know_both_hands() -> None:
    game = make_env(3, {"hands": [HERMIT, BUNNY, BOWL], "deck_top": [SNAKE, TRAPPER],
                        "first_player": 0})
    step_name(game, "play:hermit_swap:+1")
    assert hand(game.game_state, 0) == [BUNNY]
    assert known_hand(game, 0, 1) == [SNAKE]  # seat 0 gave it; seat 1's draw stays unknown
    assert known_hand(game, 1, 0) == [BUNNY]  # seat 1 gave it
    assert known_hand(game, 2, 0) == [] and known_hand(game, 2, 1) == []


def test_a_third_player_follows_a_known_card_through_a_swap() -> None:
    # Seat 2 learns seat 0's Shield in an equal Battle Bunny; seat 0 then swaps hands
    # with seat 1 in public, so seat 2 knows the Shield is now seat 1's.
    game = make_env(3, {"hands": [SHIELD, BOWL, SHIELD], "deck_top": [BUNNY, HERMIT, TRAPPER],
                        "first_player": 2})
    step_name(game, "play:battle_bunny:+1")  # seat 2 on seat 0
    assert known_hand(game, 2, 0) == [SHIELD]
    step_name(game, "play:hermit_swap:+1")  # seat 0 on seat 1
    assert hand(game.game_state, 1) == [TRAPPER, SHIELD]  # after seat 1's draw
    assert known_hand(game, 2, 1) == [SHIELD]
    assert known_hand(game, 2, 0) == []


# ---------------------------------------------------------------- Not A Pet!


def test_not_a_pet_everyone_knows_the_actor_now_holds_king_cat() -> None:
    game = make_env(4, {"hands": [NOT_A_PET, BOWL, KING, BUNNY], "deck_top": [TRAPPER, SHIELD],
                        "first_player": 0})
    step_name(game, "play:not_a_pet")
    assert hand(game.game_state, 0) == [KING]
    for observer in (1, 2, 3):
        assert known_hand(game, observer, 0) == [KING]
    # What the King Cat holder received is known to the two of them only.
    assert known_hand(game, 0, 2) == [TRAPPER]
    assert known_hand(game, 1, 2) == [] and known_hand(game, 3, 2) == []


# -------------------------------------------------------------- Grave Digger


def test_grave_digger_player_knows_the_set_aside_card() -> None:
    game = make_env(3, {"hands": [DIGGER, BUNNY, BOWL], "set_aside": NOT_A_PET,
                        "deck_top": [TRAPPER], "first_player": 0})
    step_name(game, "play:grave_digger")
    assert one_hot_value(fields(game, 0)["phase"]) == 1  # grave_digger: keep or swap
    assert one_hot_value(fields(game, 0)["known_aside"]) == NOT_A_PET
    for seat in (1, 2):
        assert one_hot_value(fields(game, seat)["known_aside"]) is None
    step_name(game, "grave_digger:keep")
    assert one_hot_value(fields(game, 0)["known_aside"]) == NOT_A_PET


def test_grave_digger_after_a_swap_the_set_aside_card_is_your_old_card() -> None:
    game = make_env(3, {"hands": [DIGGER, BUNNY, BOWL], "set_aside": NOT_A_PET,
                        "deck_top": [TRAPPER], "first_player": 0})
    step_name(game, "play:grave_digger")
    step_name(game, "grave_digger:swap")
    mine = fields(game, 0)
    assert one_hot_value(mine["known_aside"]) == TRAPPER
    assert mine["my_hand"][NOT_A_PET] == 1
    assert mine["aside_present"][0] == 1
    for seat in (1, 2):
        assert one_hot_value(fields(game, seat)["known_aside"]) is None


# ------------------------------------------------------------- Mouse Trapper


def test_mouse_trapper_player_sees_the_card_and_knows_its_depth() -> None:
    game = make_env(3, {"hands": [TRAPPER, BUNNY, BOWL],
                        "deck_top": [SHIELD, SNAKE, DIGGER, JUGGLER], "first_player": 0})
    step_name(game, "play:mouse_trapper")
    assert one_hot_value(fields(game, 0)["pending_card"]) == SNAKE
    assert one_hot_value(fields(game, 1)["pending_card"]) is None
    step_name(game, "mouse_trapper:depth=2")
    # Pile was Snake, Grave Digger, Jittery Juggler, ...; Snake went below two cards:
    # Grave Digger, Jittery Juggler, Snake. Seat 1 drew Grave Digger: Snake is at depth 1.
    known = fields(game, 0)["known_deck"]
    assert one_hot_value(known[1]) == SNAKE
    assert known.sum() == 1
    assert one_hot_value(fields(game, 0)["pending_card"]) is None
    for seat in (1, 2):
        assert fields(game, seat)["known_deck"].sum() == 0


def test_mouse_trapper_player_knows_the_hand_of_whoever_draws_the_card() -> None:
    game = make_env(3, {"hands": [TRAPPER, BUNNY, BOWL], "deck_top": [SHIELD, SNAKE],
                        "first_player": 0})
    step_name(game, "play:mouse_trapper")
    step_name(game, "mouse_trapper:depth=0")
    assert hand(game.game_state, 1) == [BUNNY, SNAKE]
    assert known_hand(game, 0, 1) == [SNAKE]
    assert fields(game, 0)["known_deck"].sum() == 0
    assert known_hand(game, 2, 1) == []


def test_another_mouse_trapper_makes_deck_knowledge_stale() -> None:
    game = make_env(3, {"hands": [TRAPPER, TRAPPER, BOWL],
                        "deck_top": [SHIELD, SNAKE, DIGGER, JUGGLER], "first_player": 0})
    step_name(game, "play:mouse_trapper")
    step_name(game, "mouse_trapper:depth=2")  # pile: Jittery Juggler, Snake, ... after a draw
    assert one_hot_value(fields(game, 0)["known_deck"][1]) == SNAKE
    # Seat 1 takes Jittery Juggler off the top and puts it back where seat 0 cannot see.
    step_name(game, "play:mouse_trapper")
    assert fields(game, 0)["known_deck"].sum() == 0
    step_name(game, "mouse_trapper:depth=0")
    assert fields(game, 0)["known_deck"].sum() == 0  # even though Snake is at depth 1 again
    # Seat 2 drew Jittery Juggler: seat 1 knows that, seat 0 does not.
    assert known_hand(game, 1, 2) == [JUGGLER]
    assert known_hand(game, 0, 2) == []


# ----------------------------------------------------------- Jittery Juggler


def test_jittery_juggler_makes_known_hands_stale() -> None:
    game = make_env(3, {"hands": [SHIELD, SHIELD, JUGGLER], "deck_top": [BUNNY, TRAPPER, BOWL],
                        "first_player": 0})
    step_name(game, "play:battle_bunny:+1")  # equal: seats 0 and 1 know each other's Shield
    step_name(game, "play:mouse_trapper")  # seat 1 plays its other card
    step_name(game, "mouse_trapper:depth=0")
    assert known_hand(game, 0, 1) == [SHIELD]
    step_name(game, "play:jittery_juggler")  # seat 2: everyone's card goes back, reshuffled
    assert known_hand(game, 0, 1) == []
    assert known_hand(game, 1, 0) == []


def test_jittery_juggler_leaves_a_protected_players_card_known() -> None:
    game = make_env(3, {"hands": [HERMIT, BOWL, JUGGLER], "deck_top": [SNAKE, SHIELD, TRAPPER],
                        "first_player": 0})
    step_name(game, "play:hermit_swap:+1")  # seat 0 now holds Bowl, seat 1 Snake
    step_name(game, "play:shell_shield")  # seat 1 is protected
    step_name(game, "play:jittery_juggler")  # seat 2
    assert hand(game.game_state, 1) == [SNAKE]
    assert known_hand(game, 0, 1) == [SNAKE]
    assert known_hand(game, 1, 0) == []  # seat 0's Bowl went back into the pile


# ------------------------------------------------ which copy was played?


def test_known_card_is_lost_when_its_holder_plays_the_same_value() -> None:
    # Seat 0 learns seat 1's Crystal Bowl in an equal Battle Bunny; seat 1 draws a
    # second Crystal Bowl and plays one. Seat 0 cannot tell which copy was played.
    game = make_env(3, {"hands": [BOWL, BOWL, SNAKE], "deck_top": [BUNNY, BOWL],
                        "first_player": 0})
    step_name(game, "play:battle_bunny:+1")
    assert known_hand(game, 0, 1) == [BOWL]
    step_name(game, "play:crystal_bowl:+1:king_cat")  # a wrong guess at seat 2
    assert hand(game.game_state, 1) == [BOWL]
    assert known_hand(game, 0, 1) == []


def test_known_card_stays_known_when_its_holder_plays_another_value() -> None:
    game = make_env(3, {"hands": [BOWL, BOWL, SNAKE], "deck_top": [BUNNY, TRAPPER, SHIELD],
                        "first_player": 0})
    step_name(game, "play:battle_bunny:+1")
    step_name(game, "play:mouse_trapper")
    step_name(game, "mouse_trapper:depth=0")
    assert known_hand(game, 0, 1) == [BOWL]


def test_known_drawn_card_is_lost_when_its_holder_plays_the_same_value() -> None:
    # Seat 0 puts a Crystal Bowl on top with Mouse Trapper; seat 1, already holding
    # a Crystal Bowl, draws it and plays a Crystal Bowl.
    game = make_env(3, {"hands": [TRAPPER, BOWL, SNAKE], "deck_top": [SHIELD, BOWL],
                        "first_player": 0})
    step_name(game, "play:mouse_trapper")
    step_name(game, "mouse_trapper:depth=0")
    assert known_hand(game, 0, 1) == [BOWL]
    step_name(game, "play:crystal_bowl:+1:king_cat")
    assert hand(game.game_state, 1) == [BOWL]
    assert known_hand(game, 0, 1) == []


def test_a_seat_never_sees_unknown_cards_of_others() -> None:
    # At the start nobody knows anything about the other hands or the piles.
    game = make_env(4, {"hands": [KING, BOWL, SNAKE, BUNNY], "first_player": 0})
    for seat in range(4):
        obs = fields(game, seat)
        assert obs["known_hands"].sum() == 0
        assert obs["known_deck"].sum() == 0
        assert obs["known_aside"].sum() == 0
        assert np.count_nonzero(obs["my_hand"]) >= 1
