"""The optional parts of the game contract (cardgym.game.CAPABILITIES): lacking() names
those a game leaves out, and what it says each gives is really lost without it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from agents.specs import make_policy
from cardgym.game import CAPABILITIES, Game, capabilities, lacking
from cardgym.position_schema import position_schema
from cardgym.registration import games
from cardgym.vector import make as make_vector

GAMES = games()
#: A registered game with every optional part (its copies lose one part each below).
COMPLETE = next(game for game in GAMES if not lacking(game))


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_lacking_names_exactly_the_optional_parts_a_game_leaves_out(game: Game) -> None:
    missing = [part for part in (c.part for c in CAPABILITIES) if not getattr(game, part)]
    assert [line.split(":")[0] for line in lacking(game)] == missing
    assert capabilities(game) == {c.part: c.part not in missing for c in CAPABILITIES}


def _first_act(policy: Any, game: Game) -> None:
    """One decision of ``policy`` at a new two-player table (where a search reads)."""
    env = game.make_env(num_players=2)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    policy.act(observation["observation"], observation["action_mask"],
               np.random.default_rng(0))


#: Per optional part: what the game loses without it, tried on a copy without it.
LOSSES: dict[str, Callable[[Game], Any]] = {
    "position_format": lambda game: position_schema(game, game.make_config(2)),
    "hidden_choices": lambda game: _first_act(
        make_policy("ismcts:iterations=4,reading=heuristic", game, 2), game),
    "parallel_entry_point": lambda game: game.make_parallel_env(num_players=2),
    "batched": lambda game: make_vector(game, 2, 2),
    "heuristic": lambda game: make_policy("heuristic", game, 2),
}


@pytest.mark.parametrize("part", [c.part for c in CAPABILITIES])
def test_without_an_optional_part_what_it_gives_is_refused_with_a_clear_error(part: str) -> None:
    without = dataclasses.replace(COMPLETE, **{part: None})
    assert lacking(without) == [line for line in lacking(without) if line.startswith(part)]
    with pytest.raises(ValueError, match=COMPLETE.title.split()[0]):
        LOSSES[part](without)


def test_every_optional_part_has_its_loss_tried() -> None:
    assert sorted(LOSSES) == sorted(c.part for c in CAPABILITIES)
