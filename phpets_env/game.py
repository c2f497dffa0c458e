"""Power Hungry Pets as the library sees it: the game's :class:`~cardgym.game.Game`.

Registered through the ``cardgym.games`` entry point ``power_hungry_pets``.
"""

from __future__ import annotations

from typing import Any

from cardgym.game import Game, Layout, Rounds
from phpets_env import rules
from phpets_env.display.record import choice_visibility, describe_event
from phpets_env.display.render import render_full, render_view
from phpets_env.display.table import TABLE
from phpets_env.encoding.encoding import (
    ACTION_TABLE,
    OBSERVATION_SPEC,
    apply_action,
    encode,
    legal_action_mask,
    move_to_action,
)
from phpets_env.engine.cards import CARD_VALUES
from phpets_env.engine.invariants import check_invariants
from phpets_env.engine.state import (
    FINAL_TIE_OPTIONS,
    MOUSE_TRAPPER,
    REWARD_OPTIONS,
    ROBOVAC_OPTIONS,
    START_PLAYER_OPTIONS,
    Config,
    State,
)
from phpets_env.heuristic import PhpetsHeuristic
from phpets_env.info.view import PlayerView
from phpets_env.positions.position import canonical, position, position_format
from phpets_env.positions.scenario import KEYS

#: One layout for every table size and option.
LAYOUT = Layout(ACTION_TABLE, OBSERVATION_SPEC, legal_action_mask, apply_action, encode)


def _render(state: State, seat: int | None) -> str:
    return render_full(state) if seat is None else render_view(PlayerView(state, seat))


def _private_key(state: State, seat: int) -> tuple[int, ...]:
    return tuple(sorted(CARD_VALUES[card] for card in state.hands[seat]))


def _tokens_to_win(config: Config) -> int | None:
    # A match value exists only when the rewards come at the end of the match.
    return config.tokens_to_win if config.reward == "match" else None


def _hidden_move(state: State, action: int) -> bool:
    # Where Mouse Trapper puts the card back is private.
    return state.phase == MOUSE_TRAPPER


def _layout(config: Any) -> Layout:
    return LAYOUT


GAME = Game(
    # identity
    name="power_hungry_pets",
    title="Power Hungry Pets",
    version=2,
    legacy_versions=(1,),
    player_counts=(2, 3, 4, 5, 6),
    env_entry_point="phpets_env.env:env",
    rules_page="docs/rules/power_hungry_pets.md",
    # options
    config=Config,
    option_values={
        "robovac": ROBOVAC_OPTIONS,
        "final_tie": FINAL_TIE_OPTIONS,
        "start_player": START_PLAYER_OPTIONS,
        "reward": REWARD_OPTIONS,
    },
    # rules
    new_game=rules.new_game,
    layout=_layout,
    to_act=rules.to_act,
    is_over=rules.is_over,
    returns=rules.returns,
    winners=lambda state: frozenset(state.match_winners),
    step_rewards=rules.STEP_REWARDS,
    rounds=Rounds(
        round_of=lambda state: state.round_number,
        round_winners=lambda state: state.round_winners,
        tokens=lambda state: tuple(state.tokens),
        tokens_to_win=_tokens_to_win,
    ),
    max_steps=20_000,
    # information
    player_view=PlayerView,
    resample_hidden=rules.resample_hidden,
    choice_visibility=choice_visibility,
    hidden_move=_hidden_move,
    private_key=_private_key,
    # positions
    position=position,
    scenario_keys=KEYS,
    position_format=position_format,
    canonical_state=canonical,
    # presentation
    render=_render,
    describe_event=describe_event,
    table=TABLE,
    # agents
    heuristic=PhpetsHeuristic,
    batched="phpets_env.batched:Engine",
    baseline_players=(2, 4),
    # testing
    invariants=check_invariants,
    legal_moves=rules.legal_moves,
    move_to_action=move_to_action,
    test_option_sets=(
        {},
        {"robovac": "duel_only", "final_tie": "nobody", "start_player": "rotate"},
        {"start_player": "random", "reward": "round"},
    ),
)
