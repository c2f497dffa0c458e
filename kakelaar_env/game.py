"""Karel Kakelaar as the library sees it: the game's :class:`~cardgym.game.Game`.

Registered through the ``cardgym.games`` entry point ``karel_kakelaar``.
"""

from __future__ import annotations

from typing import Any

from cardgym.game import Game, Layout
from kakelaar_env import rules
from kakelaar_env.display.record import choice_visibility, describe_event
from kakelaar_env.display.render import render_full, render_view
from kakelaar_env.display.table import TABLE
from kakelaar_env.encoding.encoding import (
    ACTION_TABLE,
    OBSERVATION_SPEC,
    apply_action,
    encode,
    legal_action_mask,
    move_to_action,
)
from kakelaar_env.engine.cards import DEFAULT_WORM_COUNTS, NUM_WORM_VALUES, NUM_WORMS
from kakelaar_env.engine.invariants import check_invariants
from kakelaar_env.engine.state import FINAL_TIE_OPTIONS, REWARD_OPTIONS, Config, State
from kakelaar_env.heuristic import KakelaarHeuristic
from kakelaar_env.info.choices import hidden_choices
from kakelaar_env.info.view import PlayerView
from kakelaar_env.positions.position import position, position_format
from kakelaar_env.positions.scenario import KEYS

#: One layout for every table size and option.
LAYOUT = Layout(ACTION_TABLE, OBSERVATION_SPEC, legal_action_mask, apply_action, encode)


def _layout(config: Any) -> Layout:
    return LAYOUT


def _render(state: State, seat: int | None) -> str:
    return render_full(state) if seat is None else render_view(PlayerView(state, seat))


def _reward_bounds(config: Config) -> tuple[float, float]:
    # Own worms minus the others' mean: its exact bound (every worm in one hand) is far
    # wider than what games give (under random play 98% of values fall within +-21 at
    # 2 to 5 players), so +-20 worms is the range a search maps onto [0, 1].
    return (-20.0, 20.0) if config.reward == "score_difference" else (-1.0, 1.0)


GAME = Game(
    # identity
    name="karel_kakelaar",
    title="Karel Kakelaar",
    version=2,
    legacy_versions=(1,),
    player_counts=(2, 3, 4, 5),
    env_entry_point="kakelaar_env.env:env",
    parallel_entry_point="kakelaar_env.parallel:parallel_env",
    rules_page="docs/rules/karel_kakelaar.md",
    # options
    config=Config,
    option_values={
        "worm_counts": (f"{NUM_WORM_VALUES} non-negative integers (worms of value 1..8) "
                        f"summing to {NUM_WORMS}; default {DEFAULT_WORM_COUNTS}"),
        "reward": REWARD_OPTIONS,
        "final_tie": FINAL_TIE_OPTIONS,
    },
    # rules
    new_game=rules.new_game,
    layout=_layout,
    to_act=rules.to_act,
    is_over=rules.is_over,
    returns=rules.returns,
    winners=lambda state: frozenset(state.winners),
    reward_bounds=_reward_bounds,
    max_steps=2_000,
    # information
    player_view=PlayerView,
    resample_hidden=rules.resample_hidden,
    choice_visibility=choice_visibility,
    # Bids, mother hens and cards taken back are chosen face down, all at once.
    hidden_move=lambda state, action: True,
    hidden_choices=hidden_choices,
    # positions
    position=position,
    scenario_keys=KEYS,
    position_format=position_format,
    # presentation
    render=_render,
    describe_event=describe_event,
    table=TABLE,
    # agents
    heuristic=KakelaarHeuristic,
    batched="kakelaar_env.batched:Engine",
    baseline_players=(2, 5),
    # testing
    invariants=check_invariants,
    legal_moves=rules.legal_moves,
    move_to_action=move_to_action,
    test_option_sets=(
        {},
        {"worm_counts": (8, 6, 5, 4, 4, 3, 3, 3), "reward": "score_difference"},
        {"worm_counts": (0, 0, 0, 0, 0, 0, 0, 36), "final_tie": "draw"},
    ),
)
