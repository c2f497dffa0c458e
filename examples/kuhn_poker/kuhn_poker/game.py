"""Kuhn poker as cardgym sees it: the game's contract object, registered through the
``cardgym.games`` entry point in this package's ``pyproject.toml``."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.game import Game, Layout
from kuhn_poker import rules
from kuhn_poker.encoding import ACTION_TABLE, OBSERVATION_SPEC, Move, encode
from kuhn_poker.heuristic import KuhnHeuristic
from kuhn_poker.render import render
from kuhn_poker.table import TABLE


def _apply(state: rules.State, action: int, rng: np.random.Generator) -> None:
    # Action i is move i; nothing after the deal is random.
    rules.apply_move(state, action)


#: One layout for every option.
LAYOUT = Layout(ACTION_TABLE, OBSERVATION_SPEC, rules.legal_mask, _apply, encode)


def legal_moves(state: rules.State) -> list[Move]:
    """The readable form of the mask: the moves of the seat to act."""
    mask = rules.legal_mask(state)
    return [ACTION_TABLE.move(i) for i in range(len(ACTION_TABLE)) if mask >> i & 1]


def move_to_action(state: rules.State, move: Move) -> int:
    """The action index of a move."""
    return ACTION_TABLE.index_of_move(move)


def _layout(config: Any) -> Layout:
    return LAYOUT


GAME = Game(
    name="kuhn_poker",
    title="Kuhn poker",
    version=1,
    player_counts=(2,),
    env_entry_point="kuhn_poker.env:env",
    batched="kuhn_poker.batched:Engine",
    config=rules.Config,
    option_values={"ante": rules.ANTES},
    new_game=rules.new_game,
    to_act=rules.to_act,
    is_over=rules.is_over,
    returns=rules.returns,
    winners=rules.winners,
    layout=_layout,
    player_view=rules.PlayerView.of,
    resample_hidden=rules.resample_hidden,
    invariants=rules.check_invariants,
    render=render,
    describe_event=rules.describe_event,
    table=TABLE,
    legal_moves=legal_moves,
    move_to_action=move_to_action,
    choice_visibility=rules.choice_visibility,
    position=rules.position,
    scenario_keys=rules.SCENARIO_KEYS,
    private_key=lambda state, seat: state.cards[seat],
    reward_bounds=lambda config: (-config.ante - 1.0, config.ante + 1.0),
    heuristic=KuhnHeuristic,
    test_option_sets=({}, {"ante": 2}),
    max_steps=10,
)
