"""Power Hungry Pets' shared layout of the public facts (``State.memo``) is never read
stale: an edit by hand set on the env again shows, and a clone, a pickle, ``touch()``,
a move or a longer record drop it (the common checks: tests/cardgym/test_encoding_cache.py)."""

from __future__ import annotations

from phpets_env.engine.state import State
from tests.cardgym.encoding_checks import check_edit_by_hand_is_not_stale, check_layout_dropped
from tests.cardgym.kits import PHPETS


def _shield_everyone_else(state: State) -> None:
    state.protected[:] = [not flag for flag in state.protected]


def test_a_state_edited_by_hand_and_set_again_is_not_read_from_a_stale_layout() -> None:
    check_edit_by_hand_is_not_stale(PHPETS, _shield_everyone_else)


def test_a_move_touch_a_clone_and_a_pickle_drop_the_layout() -> None:
    check_layout_dropped(PHPETS)
