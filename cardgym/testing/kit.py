"""A game's conformance kit (:class:`GameKit`, built from its contract by
:func:`kits_of`), and the helpers every check and table-driven test plays with."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym.aec import CardGameEnv
from cardgym.game import Game


@dataclass(frozen=True)
class GameKit:
    """What the conformance checks need to know about one game.

    Attributes:
        name: short game name, for messages.
        make_env: builds the env: ``make_env(num_players=..., **options)``.
        player_counts: the supported player counts.
        legal_moves: engine function, state -> legal moves of the seat to act.
        move_to_action: (state, move) -> action index.
        resample_hidden: (state, seat, rng) -> a state that seat cannot tell apart.
        invariants: state -> None, raising ``AssertionError`` when a rule invariant
            is broken (cards conserved, bounds, ...).
        option_sets: rule-option combinations (keyword dicts) to run the checks on.
        max_steps: a game longer than this many steps counts as not ending.
        choice_visibility: (state, action) -> ``(public, parties)``: what the table
            sees of the seat to act choosing ``action`` now. ``public`` is the part
            every seat sees (any hashable); alternatives with equal ``public`` differ
            only in a secret that the seats in ``parties`` (a bit mask, the actor
            always included) see. Written from the rule text, independently of the
            engine's record, so that the choice checks test the engine against it.
    """

    name: str
    make_env: Callable[..., CardGameEnv[Any]]
    player_counts: Sequence[int]
    legal_moves: Callable[[Any], Sequence[Any]]
    move_to_action: Callable[[Any, Any], int]
    resample_hidden: Callable[[Any, int, np.random.Generator], Any]
    invariants: Callable[[Any], None]
    option_sets: Sequence[dict[str, Any]] = field(default_factory=lambda: [{}])
    max_steps: int = 100_000
    choice_visibility: Callable[[Any, int], tuple[Hashable, int]] | None = None
    weights: Mapping[int, float] = field(default_factory=dict)
    game: Game | None = None

    @classmethod
    def of(cls, game: Game, variant: str | None = None) -> GameKit:
        """The kit of a game's contract, or of one of its ``test_variants`` (a kit
        named ``NAME_VARIANT`` whose envs are built with the variant's preset)."""
        make_env: Callable[..., CardGameEnv[Any]] = game.make_env
        name, option_sets = game.name, game.test_option_sets
        if variant is not None:
            chosen = game.test_variants[variant]
            make_env = functools.partial(game.make_env, **chosen.preset)
            name, option_sets = f"{game.name}_{variant}", chosen.option_sets
        return cls(
            name=name, make_env=make_env, player_counts=game.player_counts,
            legal_moves=game.legal_moves, move_to_action=game.move_to_action,
            resample_hidden=game.resample_hidden, invariants=game.invariants,
            option_sets=[dict(options) for options in option_sets],
            max_steps=game.max_steps, choice_visibility=game.choice_visibility,
            weights=game.test_weights, game=game,
        )


def kits_of(game: Game) -> list[GameKit]:
    """The kits of a game: its own, then one per test variant."""
    return [GameKit.of(game), *(GameKit.of(game, name) for name in game.test_variants)]


# ------------------------------------------------------- table-driven tests


def scenario_env(make_env: Callable[..., CardGameEnv[Any]], num_players: int,
                 scenario: Mapping[str, Any], seed: int = 0, **options: Any) -> CardGameEnv[Any]:
    """An env reset to ``scenario`` (``reset(options={"scenario": ...})``)."""
    env = make_env(num_players=num_players, **options)
    env.reset(seed=seed, options={"scenario": dict(scenario)})
    return env


def step_names(env: CardGameEnv[Any], *names: str) -> None:
    """Step the agent to act with each named action in turn."""
    for name in names:
        env.step(env.action_index(name))


def legal_names(env: CardGameEnv[Any]) -> list[str]:
    """Names of the legal actions of the agent to act, in action order."""
    return [env.action_name(action) for action in env.legal_actions()]


def observation_fields(env: CardGameEnv[Any], seat: int) -> dict[str, NDArray[np.float32]]:
    """The named fields of ``seat``'s observation."""
    return env.observation_spec.unpack(env.observe(env.possible_agents[seat])["observation"])


def random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of a mask."""
    legal = np.flatnonzero(mask)
    assert legal.size, "the agent to act has no legal action"
    return int(legal[rng.integers(legal.size)])


def play_episode(
    env: CardGameEnv[Any],
    rng: np.random.Generator,
    seed: int | None = None,
    each_step: Callable[[CardGameEnv[Any]], None] | None = None,
    max_steps: int = 100_000,
) -> int:
    """Play one episode with random legal actions; returns the number of steps.

    ``each_step(env)`` runs before every action of a live agent.
    """
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if each_step is not None:
            each_step(env)
        env.step(random_action(obs["action_mask"], rng))
        steps += 1
        assert steps <= max_steps, f"episode did not end within {max_steps} steps"
        del agent
    return steps
