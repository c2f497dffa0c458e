"""Exploding Kittens layouts: the action table, observation spec, legality, dispatch
and encoder of each game setup, in one place.

There are two layouts: the base game's (:data:`BASE`, 319 actions) and the
Streaking Kittens expansion's (:data:`STREAKING`), a superset built by the same
code over 22 card kinds and a deeper draw pile. :func:`layout` picks one for a
config; the module-level names are the base layout's. Each part is its own
module: :mod:`ek_env.engine.actions` (the table and its moves), :mod:`ek_env.engine.legality` (the
one legality), :mod:`ek_env.engine.dispatch` (the one dispatch), :mod:`ek_env.encoding.observation`
(the fields) and :mod:`ek_env.encoding.encoder` (the vector).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.chance import Chance
from ek_env.encoding.encoder import Encoder, encoder_named
from ek_env.encoding.observation import OWED_CAP, RECENT_MOVES
from ek_env.engine.actions import Actions, actions_named
from ek_env.engine.cards import NUM_KINDS, NUM_KINDS_STREAKING
from ek_env.engine.dispatch import apply_action, dispatch_named
from ek_env.engine.legality import Legality, legal_action_indices, legal_action_mask, legality_named
from ek_env.engine.moves import Move
from ek_env.engine.state import Config, State
from ek_env.info.view import PlayerView


class Layout:
    """The action table, observation spec, masks, dispatch and encoder of one game
    setup (base or with the Streaking Kittens expansion).

    The action table and its main index attributes (``draw_index``, ``pair_shift``,
    ``insert_base`` and the like) are the setup's :class:`~ek_env.engine.actions.Actions`';
    the methods are the bound ones of the setup's legality, dispatch and encoder.
    """

    legal_mask: Callable[[State], int]
    legal_indices: Callable[[State], list[int]]
    apply: Callable[[State, int, Chance], None]
    encode: Callable[[PlayerView], NDArray[np.float32]]
    action_to_move: Callable[[State, int], Move]
    move_to_action: Callable[[State, Move], int]

    def __init__(self, config: Config) -> None:
        streaking = config.streaking
        self.streaking = streaking
        self.kinds = config.num_kinds
        self.actions: Actions = actions_named(streaking)
        self.legality: Legality = legality_named(streaking)
        self.encoder: Encoder = encoder_named(streaking)
        self.observation_spec = self.encoder.observation_spec
        self.obs_size = self.encoder.obs_size
        self._share_table(self.actions)
        # The shared parts' methods, bound once: the env's per-step calls go straight
        # to them.
        self.legal_mask = self.legality.legal_mask
        self.legal_indices = self.legality.legal_indices
        self.apply = dispatch_named(streaking).apply
        self.encode = self.encoder.encode
        self.action_to_move = self.actions.action_to_move
        self.move_to_action = self.actions.move_to_action

    def _share_table(self, acts: Actions) -> None:
        """The action table and the index attributes read from a layout (the docs
        tables, the heuristic, tests)."""
        self.action_table = acts.action_table
        self.specs = acts.specs
        self.num_actions = acts.num_actions
        self.max_deck = acts.max_deck
        self.draw_index = acts.draw_index
        self.nope_index = acts.nope_index
        self.pass_index = acts.pass_index
        self.target_shift = acts.target_shift
        self.pair_shift = acts.pair_shift
        self.three_shift = acts.three_shift
        self.name_base = acts.name_base
        self.insert_base = acts.insert_base
        self.take_index = acts.take_index
        if acts.streaking:
            self.target_base = acts.target_base

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the setup it belongs to (one shared layout per setup).
        return _layout_named, (self.streaking,)


BASE: Final = Layout(Config())
STREAKING: Final = Layout(Config(expansions=("streaking",)))


def _layout_named(streaking: bool) -> Layout:
    return STREAKING if streaking else BASE


def layout(config: Config) -> Layout:
    """The layout of a game setup."""
    return STREAKING if config.streaking else BASE


def _of(state: State) -> Layout:
    return STREAKING if state.kinds > NUM_KINDS else BASE


# The base layout under its historical module-level names, and helpers that pick the
# state's layout.
ACTION_TABLE: Final = BASE.action_table
ACTION_SPECS: Final = BASE.specs
NUM_ACTIONS: Final = BASE.num_actions
OBSERVATION_SPEC: Final = BASE.observation_spec
OBS_SIZE: Final = BASE.obs_size
DRAW_INDEX: Final = BASE.draw_index
NOPE_INDEX: Final = BASE.nope_index
PASS_INDEX: Final = BASE.pass_index
assert NUM_KINDS_STREAKING == STREAKING.kinds


def action_to_move(state: State, action: int) -> Move:
    """The move an action index stands for, for the seat to act (the state's layout)."""
    return _of(state).action_to_move(state, action)


def move_to_action(state: State, move: Move) -> int:
    """The action index of a move of the seat to act (the state's layout)."""
    return _of(state).move_to_action(state, move)


def encode(view: PlayerView) -> NDArray[np.float32]:
    """The observation vector of ``view``'s seat (the state's layout)."""
    return layout(view.config).encode(view)


__all__ = [
    "ACTION_SPECS", "ACTION_TABLE", "BASE", "DRAW_INDEX", "NOPE_INDEX", "NUM_ACTIONS",
    "OBSERVATION_SPEC", "OBS_SIZE", "OWED_CAP", "PASS_INDEX", "RECENT_MOVES", "STREAKING",
    "Layout", "action_to_move", "apply_action", "encode", "layout", "legal_action_indices",
    "legal_action_mask", "move_to_action",
]
