"""Karel Kakelaar's layout of the public facts (``State.memo``, per version) is not read
stale after a state edited by hand is set on the env again (the common checks:
tests/cardgym/test_encoding_cache.py)."""

from __future__ import annotations

from kakelaar_env.engine.state import State
from tests.cardgym.encoding_checks import check_edit_by_hand_is_not_stale
from tests.cardgym.kits import KAKELAAR


def _next_round(state: State) -> None:
    state.round = state.round % 9 + 1  # no touch(): setting the state drops the layout


def test_a_state_edited_by_hand_and_set_again_is_not_read_from_a_stale_layout() -> None:
    check_edit_by_hand_is_not_stale(KAKELAAR, _next_round)
