"""The shared state base: equality and pickling by field, caches left out."""

from __future__ import annotations

import pickle

from cardgym.state import SlotState


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
