"""The shared state base: equality and pickling by field, caches left out; fields
declared once (slot) make the slots, the copies and a new state."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from cardgym.state import SlotState, each_seat, slot


class Example(SlotState):
    __slots__ = ("cards", "turn", "memo")
    TRANSIENT = ("memo",)

    def __init__(self, cards: list[int], turn: int, memo: object = None) -> None:
        self.cards, self.turn, self.memo = cards, turn, memo


def test_equal_by_fields_and_caches_do_not_count() -> None:
    assert Example([1, 2], 0, memo="cached") == Example([1, 2], 0)
    assert Example([1, 2], 0) != Example([2, 1], 0)
    assert Example([1, 2], 0) != Example([1, 2], 1)
    assert Example.fields() == ("cards", "turn")


def test_pickles_without_its_caches() -> None:
    copy = pickle.loads(pickle.dumps(Example([3], 2, memo=object())))
    assert copy == Example([3], 2) and copy.memo is None


def test_states_of_other_types_are_not_equal() -> None:
    class Other(Example):
        __slots__ = ()

    assert Example([1], 0) != Other([1], 0)


# ------------------------------------------------------- declared fields (slot)

@dataclasses.dataclass(frozen=True)
class Rules:
    num_players: int = 3


class Declared(SlotState):
    config: Rules = slot("config")
    round: int = slot("int", json="round", init=1)
    deck: list[int] = slot("cards", mutable=True, hidden=True, json="deck", init=[])
    hands: list[list[int]] = slot("cards", per_seat=True, mutable=True, hidden=True,
                                  init=each_seat([]))
    scores: list[int] = slot("int", per_seat=True, init=each_seat(lambda config: 0))
    memo: object = slot("cache", cache="drop")


def test_declarations_make_the_slots_the_copies_and_a_new_state() -> None:
    assert Declared.__slots__ == ("config", "round", "deck", "hands", "scores", "memo")
    assert dict(Declared.COPY) == {"deck": "copy", "hands": "nested", "scores": "copy"}
    assert Declared.TRANSIENT == ("memo",)
    assert Declared.fields() == ("config", "round", "deck", "hands", "scores")
    state = Declared(Rules())
    assert (state.round, state.deck, state.hands, state.scores) == (1, [], [[], [], []], [0, 0, 0])
    assert state.hands[0] is not state.hands[1]
    other = Declared(Rules())
    assert other.deck is not state.deck  # a mutable init is copied for each state


def test_a_clone_of_a_declared_state_copies_what_is_mutable() -> None:
    state = Declared(Rules())
    state.hands[1].append(7)
    state.memo = "cached"
    twin = state.clone()
    assert twin == state and twin.memo is None
    twin.hands[1].append(8)
    twin.scores[0] = 5
    assert state.hands[1] == [7] and state.scores[0] == 0


def test_fields_are_declared_one_way() -> None:
    with pytest.raises(TypeError, match="declare them one way"):
        class Both(SlotState):  # noqa: F841
            __slots__ = ("round",)
            turn: int = slot("int")
    with pytest.raises(TypeError, match="cache must be one of"):
        slot("cache", cache="keep")
