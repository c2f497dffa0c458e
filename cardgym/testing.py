"""Conformance kit: the checks every cardgym environment must pass.

A :class:`GameKit` holds what the checks need of a game (how to build the env, and
the engine functions the checks compare against); :func:`kits_of` builds the kits of
a game from its contract (:class:`~cardgym.game.Game`). The functions here take a
kit and raise ``AssertionError`` with a readable message on the first failure. The
test suite runs every check over every registered game.

Checks: PettingZoo's ``api_test`` and ``render_test``; seeding over many episodes
(:func:`check_seeding`); masks equal the engine's legal moves
(:func:`check_masks`); observations inside their space (:func:`check_spaces`);
pickling mid-game (:func:`check_pickle`); the leak test (:func:`check_no_leaks`),
which varies hidden *cards*; the two choice checks, which vary a player's *choice*
(:func:`check_private_choices`: a secret choice leaves the seats not party to it
unable to tell the alternatives apart, and their resamples for search unchanged;
:func:`check_public_choices`: every seat tells public alternatives apart); and
random-play fuzzing with the game's invariants (:func:`fuzz`).
"""

from __future__ import annotations

import copy
import functools
import pickle
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils.env_checker import data_equivalence
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


def check_api(kit: GameKit, num_players: int, num_cycles: int = 300) -> None:
    """PettingZoo's ``api_test``."""
    from pettingzoo.test import api_test

    api_test(kit.make_env(num_players=num_players), num_cycles=num_cycles)


def check_render(kit: GameKit, num_players: int) -> None:
    """PettingZoo's ``render_test``, and every seat's view plus the full view render."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode="ansi": kit.make_env(num_players=num_players,
                                                         render_mode=render_mode))
    env = kit.make_env(num_players=num_players, render_mode="ansi")
    env.reset(seed=3)
    for seat in range(num_players):
        text = env.render_text(seat)
        assert isinstance(text, str) and text, "render_text(seat) returned no text"
    assert env.render_text("full")


def check_seeding(kit: GameKit, num_players: int, episodes: int = 20,
                  options: dict[str, Any] | None = None) -> None:
    """Same seed, same game, over ``episodes`` consecutive episodes.

    PettingZoo's ``seed_test`` compares one episode per call (always seed 42). Here
    two envs play ``episodes`` episodes side by side: the first reset seeded, the
    later ones unseeded (Gymnasium semantics: the generator continues), with the
    agents' choices drawn from identically seeded generators. Observations, masks,
    rewards, terminations and infos must match at every step. A third env with
    another seed must play a different sequence of games.
    """
    from pettingzoo.test import seed_test

    options = options or {}
    seed_test(lambda: kit.make_env(num_players=num_players, **options), num_cycles=200)

    def trace(seed: int) -> list[Any]:
        env = kit.make_env(num_players=num_players, **options)
        rng = np.random.default_rng(1234)
        out: list[Any] = []
        for episode in range(episodes):
            env.reset(seed=seed if episode == 0 else None)
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, info = env.last()
                out.append((agent, obs, reward, terminated, truncated, info))
                env.step(None if terminated or truncated
                         else random_action(obs["action_mask"], rng))
        return out

    first, second = trace(7), trace(7)
    assert len(first) == len(second), "same seed, different episode lengths"
    for step, (a, b) in enumerate(zip(first, second, strict=True)):
        assert data_equivalence(a, b), f"same seed, different data at step {step}: {a} != {b}"
    other = trace(8)
    assert not (len(other) == len(first) and all(
        data_equivalence(a, b) for a, b in zip(first, other, strict=True)
    )), "seeds 7 and 8 gave identical games"


def check_masks(kit: GameKit, num_players: int, games: int = 50,
                options: dict[str, Any] | None = None, seed: int = 0) -> None:
    """At every step the mask is exactly the engine's legal moves, all other agents'
    masks are zero, and every observation lies inside its space."""
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)

    def compare(env: CardGameEnv[Any]) -> None:
        state = env.game_state
        expected = sorted(kit.move_to_action(state, m) for m in kit.legal_moves(state))
        for agent in env.agents:
            obs = env.observe(agent)
            space = env.observation_space(agent)
            assert space.contains(obs), f"{agent}: observation outside its space"
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            if agent == env.agent_selection:
                assert legal == expected, (
                    f"{agent}: mask {legal} differs from the legal moves {expected}"
                )
            else:
                assert not legal, f"{agent} is not to act but its mask is {legal}"

    for game in range(games):
        play_episode(env, rng, seed=seed + game, each_step=compare, max_steps=kit.max_steps)


def check_spaces(kit: GameKit, num_players: int) -> None:
    """Spaces are cached objects of the documented types and dtypes."""
    env = kit.make_env(num_players=num_players)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        obs_space = env.observation_space(agent)
        assert isinstance(obs_space, spaces.Dict)
        assert obs_space["observation"].dtype == np.float32
        assert obs_space["action_mask"].dtype == np.int8
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["observation"].dtype == np.float32 and obs["observation"].ndim == 1
    assert obs["action_mask"].dtype == np.int8


def check_pickle(kit: GameKit, num_players: int, seed: int = 5) -> None:
    """An env pickled mid-game continues exactly like the original."""
    env = kit.make_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(3):
        obs, _, terminated, _, _ = env.last()
        if terminated:
            break
        env.step(random_action(obs["action_mask"], rng))
    copy = pickle.loads(pickle.dumps(env))
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    for a, b in zip(env.agent_iter(), copy.agent_iter(), strict=True):
        obs_a, *rest_a = env.last()
        obs_b, *rest_b = copy.last()
        assert a == b and data_equivalence(obs_a, obs_b) and data_equivalence(rest_a, rest_b)
        done = rest_a[1] or rest_a[2]
        env.step(None if done else random_action(obs_a["action_mask"], rng_a))
        copy.step(None if done else random_action(obs_b["action_mask"], rng_b))


_IMMUTABLE = (int, float, str, bytes, bool, type(None), frozenset, range)


def shared_mutables(original: Any, clone: Any) -> list[str]:
    """Paths of mutable objects (lists, dicts, sets, bytearrays, arrays, objects with
    fields) that ``clone`` shares with ``original``; tuples and frozen dataclasses are
    followed, other immutables skipped."""
    found: list[str] = []
    seen: set[int] = set()

    def children(value: Any) -> list[tuple[str, Any]]:
        if isinstance(value, dict):
            return [(f"[{key!r}]", item) for key, item in value.items()]
        if isinstance(value, (list, tuple)):
            return [(f"[{i}]", item) for i, item in enumerate(value)]
        if isinstance(value, (set, bytearray, np.ndarray)):
            return []
        slots = getattr(type(value), "__slots__", ())
        fields = [name for name in slots if hasattr(value, name)]
        fields += list(getattr(value, "__dict__", {}))
        return [(f".{name}", getattr(value, name)) for name in fields]

    def frozen(value: Any) -> bool:
        params = getattr(type(value), "__dataclass_params__", None)
        return isinstance(value, (tuple, *_IMMUTABLE)) or bool(params and params.frozen)

    def walk(a: Any, b: Any, path: str) -> None:
        if isinstance(a, _IMMUTABLE) or id(a) in seen:
            return
        seen.add(id(a))
        if a is b and not frozen(a):
            found.append(path)
            return
        if type(a) is not type(b):
            return
        pairs_b = dict(children(b))
        for key, item in children(a):
            if key in pairs_b:
                walk(item, pairs_b[key], path + key)

    walk(original, clone, "state")
    return found


def check_clones(kit: GameKit, num_players: int, games: int = 5, seed: int = 11) -> int:
    """``state.clone()`` at every step of random games: equal to the original, sharing
    no mutable object with it, and playing the clone on leaves the original as it was.
    Returns the number of states cloned."""
    env = kit.make_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    cloned = 0
    for episode in range(games):
        env.reset(seed=seed + episode)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            state: Any = env.game_state
            before = copy.deepcopy(state)
            twin = state.clone()
            assert twin == state, f"{kit.name}: a clone differs from its original"
            shared = shared_mutables(state, twin)
            assert not shared, f"{kit.name}: the clone shares mutable {', '.join(shared[:5])}"
            if kit.game is not None and not kit.game.is_over(twin):
                layout = kit.game.layout(env.config)
                legal = [i for i in range(layout.num_actions) if layout.legal_mask(twin) >> i & 1]
                layout.apply(twin, legal[0], np.random.default_rng(0))
                assert state == before, f"{kit.name}: playing on a clone changed the original"
            cloned += 1
            done = terminated or truncated
            env.step(None if done else random_action(obs["action_mask"], rng))
    return cloned


def check_no_leaks(kit: GameKit, num_players: int, games: int = 30, resamples: int = 3,
                   options: dict[str, Any] | None = None, seed: int = 0,
                   probe_budget: int | None = None, min_games: int = 2) -> int:
    """The leak test (docs/rules/README.md).

    At every step, for every seat: replace the state with ``resample_hidden``
    (everything the seat cannot know dealt anew, consistent with what it knows)
    and require the seat's observation, its mask and whether it is to act to be
    unchanged. Also require that resampling actually changes hidden information
    somewhere, so that the test can fail. Returns the number of comparisons made.

    With ``probe_budget``, no new game starts once that many comparisons are made
    and ``min_games`` games are played (large tables have long games and many seats).
    """
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)
    sample_rng = np.random.default_rng(seed + 1)
    compared = 0
    changed = 0

    def probe(env: CardGameEnv[Any]) -> None:
        nonlocal compared, changed
        original = env.game_state
        for seat, agent in enumerate(env.possible_agents):
            before = env.observe(agent)
            acting = env.agent_selection
            for _ in range(resamples):
                other = kit.resample_hidden(original, seat, sample_rng)
                if other != original:
                    changed += 1
                env._replace_state(other)
                try:
                    after = env.observe(agent)
                    assert (env.agent_selection == agent) == (acting == agent), (
                        f"{agent}: whether it is to act depends on hidden information"
                    )
                    assert data_equivalence(before["action_mask"], after["action_mask"]), (
                        f"{agent}: the action mask depends on hidden information"
                    )
                    diff = np.flatnonzero(before["observation"] != after["observation"])
                    assert diff.size == 0, (
                        f"{agent}: observation entries {diff.tolist()} depend on hidden information"
                    )
                finally:
                    env._replace_state(original)
                compared += 1

    for game in range(games):
        if probe_budget is not None and game >= min_games and compared >= probe_budget:
            break
        play_episode(env, rng, seed=seed + game, each_step=probe, max_steps=kit.max_steps)
    assert changed > 0, "resample_hidden never changed anything: the leak test cannot fail"
    return compared


# ------------------------------------------------------------------ choices

#: The env's bookkeeping that one step changes; saved and restored around each trial.
_BOOKKEEPING = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations",
                "infos", "agent_selection", "_rewards_dirty")


@dataclass(frozen=True)
class SeatOutcome:
    """What one seat receives after a step: its observation and mask, whether it is
    still an agent, finished, its reward so far, and who acts next."""

    present: bool
    finished: bool
    reward: float
    to_act: str
    observation: bytes
    mask: bytes

    def differences(self, other: SeatOutcome, spec: Any) -> list[str]:
        """Readable list of what differs from ``other`` (observation fields by name)."""
        out = [name for name in ("present", "finished", "reward", "to_act")
               if getattr(self, name) != getattr(other, name)]
        if self.mask != other.mask:
            out.append("action mask")
        if self.observation != other.observation:
            mine = np.frombuffer(self.observation, dtype=np.float32)
            theirs = np.frombuffer(other.observation, dtype=np.float32)
            changed = np.flatnonzero(mine != theirs)
            fields = sorted({name for name in spec.offsets
                             for i in changed.tolist() if i in range(
                                 spec.offsets[name], spec.offsets[name] + spec[name].size)})
            out.append(f"observation fields {fields}")
        return out


@dataclass
class ChoiceReport:
    """What the choice checks compared (so that a test can require they ran)."""

    decisions: int = 0
    private_pairs: int = 0
    public_pairs: int = 0
    resamples: int = 0


def _try_each(env: CardGameEnv[Any], actions: Sequence[int]) -> dict[int, tuple[Any, list[SeatOutcome]]]:
    """Apply each action to a clone of the env's state with the same generator state;
    return the state after it and every seat's outcome. The env is left as it was."""
    state = env.game_state
    rng = env.np_random
    saved_rng = rng.bit_generator.state
    saved = {name: copy.deepcopy(getattr(env, name)) for name in _BOOKKEEPING}
    results: dict[int, tuple[Any, list[SeatOutcome]]] = {}
    try:
        for action in actions:
            env._replace_state(state.clone())  # type: ignore[union-attr]
            rng.bit_generator.state = saved_rng
            env.step(action)
            outcomes = []
            for agent in env.possible_agents:
                obs = env.observe(agent)
                outcomes.append(SeatOutcome(
                    present=agent in env.agents,
                    finished=bool(env.terminations.get(agent, True)),
                    reward=float(env._cumulative_rewards.get(agent, 0.0)),
                    to_act=env.agent_selection,
                    observation=obs["observation"].tobytes(),
                    mask=obs["action_mask"].tobytes(),
                ))
            results[action] = (env.game_state, outcomes)
            for name, value in saved.items():
                setattr(env, name, copy.deepcopy(value))
    finally:
        env.game_state = state
        env._mask_cache = None
        rng.bit_generator.state = saved_rng
        for name, value in saved.items():
            setattr(env, name, value)
    return results


def _differing(a: Any, b: Any) -> list[str]:
    """Names of the state fields that differ (states built on ``SlotState``)."""
    fields = getattr(a, "fields", None)
    if fields is None:
        return ["the states"]
    return [name for name in fields() if getattr(a, name) != getattr(b, name)]


def check_choices(kit: GameKit, num_players: int, games: int = 10,
                  options: dict[str, Any] | None = None, seed: int = 0,
                  private: bool = True, public: bool = True, resample: bool = True,
                  probe_budget: int | None = None, min_games: int = 2) -> ChoiceReport:
    """The choice checks (:func:`check_decision`) at every decision of random games.

    With ``probe_budget``, no new game starts once that many decisions are probed and
    ``min_games`` games are played. Returns what was compared.
    """
    if kit.choice_visibility is None:
        raise AssertionError(f"{kit.name}: the kit has no choice_visibility; the choice "
                             "checks need it (see GameKit)")
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)
    report = ChoiceReport()
    where = [""]

    def probe(env: CardGameEnv[Any]) -> None:
        check_decision(kit, env, private=private, public=public, resample=resample,
                       report=report, where=where[0])

    for game in range(games):
        if probe_budget is not None and game >= min_games and report.decisions >= probe_budget:
            break
        where[0] = f"{kit.name} {num_players}p, game {game}"
        play_episode(env, rng, seed=seed + game, each_step=probe, max_steps=kit.max_steps)
    return report


def check_decision(kit: GameKit, env: CardGameEnv[Any], private: bool = True,
                   public: bool = True, resample: bool = True,
                   report: ChoiceReport | None = None, where: str = "") -> ChoiceReport:
    """The choice checks (docs/rules/README.md, both ways) at the env's current decision.

    Every legal alternative is applied to a clone of the state with the same
    generator state, and the alternatives are grouped by what the table sees of them
    (``kit.choice_visibility``):

    - ``private``: alternatives with the same public part must leave every seat not
      party to the secret with the same observation, mask, reward, finish and next
      agent to act;
    - ``resample``: and ``kit.resample_hidden`` for such a seat, from equal
      generators, must give equal states: a search agent's samples depend on the
      seat's information alone, not on another seat's secret choice;
    - ``public``: alternatives with different public parts must give every seat
      still in the game different outcomes.

    The env is left as it was. Raises ``AssertionError`` naming the alternatives, the
    seat and what differs (or does not); returns what was compared, added to
    ``report`` if one is given.
    """
    if kit.choice_visibility is None:
        raise AssertionError(f"{kit.name}: the kit has no choice_visibility; the choice "
                             "checks need it (see GameKit)")
    report = report if report is not None else ChoiceReport()
    legal = env.legal_actions()
    if len(legal) < 2:
        return report
    spec = env.observation_spec
    num_players = env.num_players
    state = env.game_state
    name = env.action_name
    groups: dict[Hashable, list[int]] = {}
    parties: dict[int, int] = {}
    for action in legal:
        label, seen_by = kit.choice_visibility(state, action)
        groups.setdefault(label, []).append(action)
        parties[action] = seen_by
    results = _try_each(env, legal)
    report.decisions += 1
    where = f"{where or kit.name}, {env.agent_selection} to act"
    if private or resample:
        for label, members in groups.items():
            for seat in range(num_players):
                # The alternatives this seat is not party to (a secret may have more
                # parties for some alternatives, e.g. who draws a card put on top).
                outside = [a for a in members if not parties[a] >> seat & 1]
                if len(outside) < 2:
                    continue
                first = outside[0]
                for other in outside[1:]:
                    if private:
                        a, b = results[first][1][seat], results[other][1][seat]
                        report.private_pairs += 1
                        assert a == b, (
                            f"{where}: the secret choice between {name(first)!r} and "
                            f"{name(other)!r} (public part {label!r}) is seen by seat "
                            f"{seat}, not party to it: {a.differences(b, spec)} differ")
                    if resample and results[first][1][seat].present:
                        sample_a = kit.resample_hidden(results[first][0], seat,
                                                       np.random.default_rng(seat))
                        sample_b = kit.resample_hidden(results[other][0], seat,
                                                       np.random.default_rng(seat))
                        report.resamples += 1
                        assert sample_a == sample_b, (
                            f"{where}: resample_hidden for seat {seat} depends on the "
                            f"secret choice between {name(first)!r} and {name(other)!r}, "
                            f"which that seat did not see: {_differing(sample_a, sample_b)} "
                            f"differ")
    if public and len(groups) > 1:
        present = [seat for seat, agent in enumerate(env.possible_agents)
                   if agent in env.agents and not env.terminations[agent]]
        representatives = [members[0] for members in groups.values()]
        for seat in present:
            first_with: dict[SeatOutcome, int] = {}
            for action in representatives:
                outcome = results[action][1][seat]
                earlier = first_with.setdefault(outcome, action)
                assert earlier == action, (
                    f"{where}: seat {seat} cannot tell the public choices "
                    f"{name(earlier)!r} and {name(action)!r} apart: its observation, "
                    f"mask, reward and turn order are identical")
            report.public_pairs += len(representatives) - 1
    return report


def check_private_choices(kit: GameKit, num_players: int, **kwargs: Any) -> ChoiceReport:
    """Private choice stays private (see :func:`check_choices`); the search's resamples
    included. Raises ``AssertionError`` if no secret choice was met, so that it can fail."""
    report = check_choices(kit, num_players, public=False, **kwargs)
    assert report.private_pairs > 0, (
        f"{kit.name} {num_players}p: no secret choice between two alternatives was met; "
        "the check could not fail")
    return report


def check_public_choices(kit: GameKit, num_players: int, **kwargs: Any) -> ChoiceReport:
    """Public choice is seen (see :func:`check_choices`)."""
    report = check_choices(kit, num_players, private=False, resample=False, **kwargs)
    assert report.public_pairs > 0, (
        f"{kit.name} {num_players}p: no decision between public alternatives was met")
    return report


def fuzz(kit: GameKit, num_players: int, games: int, options: dict[str, Any] | None = None,
         seed: int = 0) -> dict[str, float]:
    """Random play of ``games`` games checking the invariants before every step and at
    the end; every game must end within ``kit.max_steps``. Returns simple statistics."""
    env = kit.make_env(num_players=num_players, **(options or {}))
    rng = np.random.default_rng(seed)
    total_steps = 0

    def check(env: CardGameEnv[Any]) -> None:
        kit.invariants(env.game_state)

    for game in range(games):
        total_steps += play_episode(env, rng, seed=seed + game if game == 0 else None,
                                    each_step=check, max_steps=kit.max_steps)
        kit.invariants(env.game_state)
        assert not env.agents, "agents left after the game ended"
    return {"games": games, "steps": total_steps, "mean_steps": total_steps / max(games, 1)}


__all__ = [
    "ChoiceReport",
    "GameKit",
    "SeatOutcome",
    "check_api",
    "check_choices",
    "check_decision",
    "check_masks",
    "check_no_leaks",
    "check_pickle",
    "check_private_choices",
    "check_public_choices",
    "check_render",
    "check_seeding",
    "check_spaces",
    "fuzz",
    "play_episode",
    "random_action",
]
