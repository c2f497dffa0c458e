"""Kuhn poker as cardgym sees it: the game's contract object, registered through the
``cardgym.games`` entry point in this package's ``pyproject.toml``."""

from __future__ import annotations

from typing import Any

from cardgym.chance import Chance
from cardgym.game import Game, Layout
from kuhn_poker import rules
from kuhn_poker.encoding import ACTION_TABLE, OBSERVATION_SPEC, encode
from kuhn_poker.heuristic import KuhnHeuristic
from kuhn_poker.render import render
from kuhn_poker.table import TABLE


def _apply(state: rules.State, action: int, rng: Chance) -> None:
    # Action i is move i; nothing after the deal is random.
    rules.apply_move(state, action)


#: One layout for every option.
LAYOUT = Layout(ACTION_TABLE, OBSERVATION_SPEC, rules.legal_mask, _apply, encode)


def _layout(config: Any) -> Layout:
    return LAYOUT


GAME = Game(
    # identity
    name="kuhn_poker",
    title="Kuhn poker",
    version=2,
    legacy_versions=(1,),
    player_counts=(2,),
    env_entry_point="kuhn_poker.env:env",
    # options
    config=rules.Config,
    option_values={"ante": rules.ANTES},
    # rules
    new_game=rules.new_game,
    layout=_layout,
    to_act=rules.to_act,
    is_over=rules.is_over,
    returns=rules.returns,
    winners=rules.winners,
    reward_bounds=lambda config: (-config.ante - 1.0, config.ante + 1.0),
    max_steps=10,
    # information
    player_view=rules.PlayerView.of,
    resample_hidden=rules.resample_hidden,
    choice_visibility=rules.choice_visibility,
    private_key=lambda state, seat: state.cards[seat],
    # positions
    position=rules.position,
    scenario_keys=rules.SCENARIO_KEYS,
    # presentation
    render=render,
    describe_event=rules.describe_event,
    table=TABLE,
    # agents
    heuristic=KuhnHeuristic,
    batched="kuhn_poker.batched:Engine",
    # testing
    invariants=rules.check_invariants,
    test_option_sets=({}, {"ante": 2}),
)
