"""Exploding Kittens (with the Streaking Kittens expansion as an option) as the
library sees it: the game's :class:`~cardgym.game.Game`.

Registered through the ``cardgym.games`` entry point ``exploding_kittens``.
"""

from __future__ import annotations

from cardgym.game import Game, Layout, Variant
from ek_env import rules
from ek_env.display.render import render_full, render_view
from ek_env.display.table import TABLE
from ek_env.encoding.encoding import BASE, STREAKING, move_to_action
from ek_env.encoding.encoding import Layout as EkLayout
from ek_env.engine.cards import DECK_DEFUSE_RULES, EXPANSIONS, HAND_SIZES
from ek_env.engine.invariants import check_invariants
from ek_env.engine.record import choice_visibility, describe_event
from ek_env.engine.state import (
    ALTER,
    ATTACK_STACKING_OPTIONS,
    ELIMINATED_CARDS_OPTIONS,
    EMPTY_HAND_TARGET_OPTIONS,
    GARBAGE,
    INSERT,
    NOBODY,
    Config,
    State,
)
from ek_env.heuristic import EkHeuristic
from ek_env.info.view import PlayerView
from ek_env.positions.position import position, position_format
from ek_env.positions.scenario import KEYS


def _contract_layout(layout: EkLayout) -> Layout:
    return Layout(layout.action_table, layout.observation_spec, layout.legal_mask,
                  layout.apply, layout.encode)


#: The base game's layout and the expansion's.
BASE_LAYOUT = _contract_layout(BASE)
STREAKING_LAYOUT = _contract_layout(STREAKING)


def _layout(config: Config) -> Layout:
    return STREAKING_LAYOUT if config.streaking else BASE_LAYOUT


def _render(state: State, seat: int | None) -> str:
    return render_full(state) if seat is None else render_view(PlayerView(state, seat))


def _winners(state: State) -> frozenset[int]:
    return frozenset() if state.winner == NOBODY else frozenset({state.winner})


def _hidden_move(state: State, action: int) -> bool:
    # Where a kitten goes back, Alter the Future's order and Garbage Collection's card
    # are private (a Favor's card is seen by the receiver: not hidden from all).
    return state.phase in (INSERT, ALTER, GARBAGE)


def _private_key(state: State, seat: int) -> bytes:
    return bytes(state.hands[seat])


def _seats_out(state: State) -> list[int]:
    # Exploded players are out for good (they leave env.agents from a position too).
    return state.eliminated[:]


GAME = Game(
    # identity
    name="exploding_kittens",
    title="Exploding Kittens",
    version=2,
    legacy_versions=(1,),
    player_counts=tuple(range(2, 10)),
    env_entry_point="ek_env.env:env",
    rules_page="docs/rules/exploding_kittens.md",
    # options
    config=Config,
    option_values={
        "hand_size": HAND_SIZES,
        "deck_defuses": DECK_DEFUSE_RULES,
        "attack_stacking": ATTACK_STACKING_OPTIONS,
        "combos": (True, False),
        "empty_hand_target": EMPTY_HAND_TARGET_OPTIONS,
        "eliminated_cards": ELIMINATED_CARDS_OPTIONS,
        "expansions": f"() or a tuple of expansion names from {EXPANSIONS}",
        "fast": (False, True),
    },
    # rules
    new_game=rules.new_game,
    layout=_layout,
    to_act=rules.to_act,
    is_over=rules.is_over,
    returns=rules.returns,
    winners=_winners,
    step_rewards=rules.STEP_REWARDS,
    seats_out=_seats_out,
    max_steps=50_000,
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
    # presentation
    render=_render,
    describe_event=describe_event,
    table=TABLE,
    # agents
    heuristic=EkHeuristic,
    baseline_players=(2, 4),
    # testing
    invariants=check_invariants,
    legal_moves=rules.legal_moves,
    move_to_action=move_to_action,
    test_option_sets=(
        {},
        {"hand_size": 4, "deck_defuses": "2024", "attack_stacking": "stack",
         "empty_hand_target": "forbidden", "eliminated_cards": "out_of_play"},
        {"combos": False, "attack_stacking": "stack"},
    ),
    test_variants={
        "streaking": Variant(
            preset={"expansions": ("streaking",)},
            option_sets=(
                {},
                {"fast": True, "hand_size": 4, "attack_stacking": "stack",
                 "empty_hand_target": "forbidden", "eliminated_cards": "out_of_play"},
                {"combos": False, "fast": True},
            ),
        ),
    },
    # Games at small tables are short: they get a larger share of the fuzzing.
    test_weights={2: 4.0, 3: 4.0, 4: 4.0, 5: 4.0},
)
