"""The choice checks of the conformance kit (issue 16) on Karel Kakelaar, and the
search's resamples: a face-down choice (a bid, a mother hen or not, a card to take
back) is invisible to every other seat until its stage's last commit turns them all
up; that last commit's alternatives are public; a resample for a seat depends on that
seat's information alone."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardgym import testing
from cardgym.record import NONE
from kakelaar_env import rules
from kakelaar_env.display.record import choice_visibility
from kakelaar_env.engine.state import State
from kakelaar_env.info.hidden import resample
from tests.cardgym.kits import KAKELAAR
from tests.kakelaar_env.helpers import make_env, run_stage

KIT = dataclasses.replace(KAKELAAR, choice_visibility=choice_visibility)
CONFIGS = [(n, options) for n in KIT.player_counts for options in KIT.option_sets]
IDS = [f"{n}p-{'-'.join(map(str, o.values())) or 'default'}" for n, o in CONFIGS]


@pytest.mark.parametrize(("num_players", "options"), CONFIGS, ids=IDS)
def test_the_kit_choice_checks_pass(num_players: int, options: dict) -> None:
    report = testing.check_choices(KIT, num_players, games=8, options=options,
                                   probe_budget=60, seed=num_players)
    assert report.private_pairs > 0 and report.resamples > 0 and report.public_pairs > 0


def test_only_the_last_commit_of_a_stage_is_public() -> None:
    game = make_env(3, {"tractor": 0})
    state = game.game_state
    index = game.action_index
    first = {choice_visibility(state, index(f"bid:chicken_{v}")) for v in range(3, 8)}
    assert len(first) == 1 and next(iter(first))[1] == 0b001  # one face-down label, seat 0
    game.step(index("bid:chicken_3"))
    game.step(index("bid:chicken_3"))
    last = [choice_visibility(game.game_state, index(f"bid:chicken_{v}")) for v in range(3, 8)]
    assert len({label for label, _ in last}) == 5 and {seen for _, seen in last} == {0b100}


def test_the_first_pick_of_a_take_back_stays_face_down_even_when_last() -> None:
    """The two cards a hen player takes back are revealed together, after the last
    second pick; the last first pick reveals nothing."""
    game = make_env(3, {"tractor": 0, "deck_top": ["w2", "w3", "w4"],
                        "hands": [["c7", "hen"], ["c6"], ["c5"]],
                        "discards": [["w5", "w1", "c3"], [], []]})
    run_stage(game, {0: "c7", 1: "c6", 2: "c5"})
    run_stage(game, {0: "hen:play"})
    index = game.action_index
    labels = {choice_visibility(game.game_state, index(f"take:{card}"))[0]
              for card in ("worm_5", "worm_1", "chicken_3")}
    assert len(labels) == 1
    game.step(index("take:worm_5"))
    labels = {choice_visibility(game.game_state, index(f"take:{card}"))[0]
              for card in ("worm_1", "chicken_3", "chicken_7")}
    assert len(labels) == 3


def _pending(bid: str) -> State:
    game = make_env(4, {"tractor": 0}, seed=2)
    game.step(game.action_index("bid:chicken_5"))
    game.step(game.action_index(f"bid:{bid}"))  # seat 1's secret
    return game.game_state


def test_resamples_do_not_depend_on_another_seats_face_down_choice() -> None:
    """Two states that differ only in seat 1's pending bid: seats 2 and 3 get equal
    resamples from equal generators, and no sample's log holds a secret its seat
    did not see."""
    a, b = _pending("chicken_3"), _pending("chicken_7")
    assert a != b and a.log[:-1] == b.log[:-1]
    for seat in (2, 3):
        sample_a = rules.resample_hidden(a, seat, np.random.default_rng(seat))
        sample_b = rules.resample_hidden(b, seat, np.random.default_rng(seat))
        assert sample_a == sample_b
        assert all(event.secret == NONE for event in sample_a.log)
    own = rules.resample_hidden(a, 1, np.random.default_rng(0))
    assert own.bids[1] == a.bids[1] and own.log[-1].secret == a.log[-1].secret
    assert own.log[-2].secret == NONE  # seat 0's bid, which seat 1 did not see


def test_the_resample_check_catches_a_sample_that_keeps_the_secrets() -> None:
    """Shown able to fail: a resample that copies the true log (with every secret)."""
    def keeps_log(state: State, seat: int, rng: np.random.Generator) -> State:
        sample = resample(state, seat, rng)
        sample.log = state.log[:]
        return sample

    kit = dataclasses.replace(KIT, resample_hidden=keeps_log)
    with pytest.raises(AssertionError, match="depends on the secret choice"):
        testing.check_private_choices(kit, 3, games=2)


def test_the_public_check_fails_where_the_table_cannot_tell_choices_apart() -> None:
    """Shown able to fail: labels calling every bid public (as if the table saw the
    first bids) are caught, since the other seats' observations do not change."""
    def all_public(state: State, action: int) -> tuple:
        return ("shown", action), 1 << state.current

    kit = dataclasses.replace(KIT, choice_visibility=all_public)
    with pytest.raises(AssertionError, match="cannot tell the public choices"):
        testing.check_public_choices(kit, 3, games=1)
