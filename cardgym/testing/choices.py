"""The choice checks: a secret choice leaves the seats not party to it unable to
tell the alternatives apart (and their resamples unchanged, right after the choice
and at their next decision); every seat tells public alternatives apart."""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardgym.aec import CardGameEnv
from cardgym.record import events_as_seen_by
from cardgym.testing.kit import GameKit, play_episode, random_action

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
    later_resamples: int = 0


#: What one alternative gave: the state after it, every seat's outcome, and the
#: table views (one per seat, then the spectator's; empty for a game without them).
Trial = tuple[Any, list[SeatOutcome], list[Any]]


#: How many steps an alternative is followed, at most, on to the seats' next decisions.
FOLLOW_STEPS = 200


@dataclass(frozen=True)
class Later:
    """What one seat met after an alternative, up to its next decision (its
    information): the public record as it saw it there and its observation and mask
    there (after every step on the way, for a game without a record), the state at
    that decision (None if the game ended first or the steps ran out) and the steps
    played to reach it."""

    seen: tuple[bytes, ...]
    record: tuple[Any, ...]
    state: Any
    steps: int = 0

    @property
    def information(self) -> tuple[tuple[bytes, ...], tuple[Any, ...]]:
        """What the seat saw on the way: two alternatives it cannot tell apart have
        the same."""
        return self.seen, self.record


def _record(state: Any, seat: int, start: int) -> tuple[Any, ...]:
    """The public record of ``state`` from event ``start`` on, as ``seat`` saw it
    (empty for a game without one)."""
    return tuple(events_as_seen_by(getattr(state, "log", ()), seat, start))


@contextmanager
def _kept(env: CardGameEnv[Any]) -> Iterator[Callable[[int], None]]:
    """Yields ``branch(action)``: put the env back to its state, generator and
    bookkeeping of now (on a clone of the state), then apply ``action``. The env is
    left as it was on leaving."""
    state = env.game_state
    rng = env.np_random
    saved_rng = rng.bit_generator.state
    saved = {name: copy.deepcopy(getattr(env, name)) for name in _BOOKKEEPING}

    def branch(action: int) -> None:
        for name, value in saved.items():
            setattr(env, name, copy.deepcopy(value))
        env._replace_state(state.clone())  # type: ignore[union-attr]
        rng.bit_generator.state = saved_rng
        env.step(action)

    try:
        yield branch
    finally:
        env.game_state = state
        env._mask_cache = None
        rng.bit_generator.state = saved_rng
        for name, value in saved.items():
            setattr(env, name, value)


def _try_each(env: CardGameEnv[Any], actions: Sequence[int],
              views: bool = True) -> dict[int, Trial]:
    """Apply each action to a clone of the env's state with the same generator state;
    return the state after it, every seat's outcome and the table views. The env is
    left as it was."""
    views = views and env.game.table is not None
    results: dict[int, Trial] = {}
    with _kept(env) as branch:
        for action in actions:
            branch(action)
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
            seen = ([env._table_view(seat) for seat in range(env.num_players)]
                    + [env._table_view(None)]) if views else []
            results[action] = (env.game_state, outcomes, seen)
    return results


def _follow_each(env: CardGameEnv[Any], seats_of: dict[int, set[int]]) -> dict[int, dict[int, Later]]:
    """Each action of ``seats_of`` applied as in :func:`_try_each`, then play followed
    on until each of its seats is to decide again (:class:`Later`). Every action is
    followed with the same generator states, and the same random choices as far as
    the legal actions allow. The env is left as it was."""
    follows: dict[int, dict[int, Later]] = {}
    # What happened before the choice is the same for every alternative.
    start = len(getattr(env.game_state, "log", ()))
    with _kept(env) as branch:
        for action, seats in seats_of.items():
            branch(action)
            follows[action] = _follow(env, seats, start)
    return follows


def _follow(env: CardGameEnv[Any], seats: set[int], start: int) -> dict[int, Later]:
    """Play on with random legal actions until each of ``seats`` is to decide, after
    one step at least; what each met on the way (:class:`Later`). The public record
    from event ``start`` on tells what a seat saw on the way (every event, the
    secrets it saw among them); without one, its observation after every step does."""
    agents = env.possible_agents
    choose = np.random.default_rng(0)
    every_step = not hasattr(env.game_state, "log")
    seen: dict[int, list[bytes]] = {seat: [] for seat in seats}
    met: dict[int, Later] = {}

    def observed(seat: int) -> bytes:
        obs = env.observe(agents[seat])
        return bytes(obs["observation"].tobytes() + obs["action_mask"].tobytes())

    for step in range(FOLLOW_STEPS + 1):
        if every_step:
            for seat in seen:
                seen[seat].append(observed(seat))
        acting = env.agent_selection
        live = acting in env.agents and not (env.terminations[acting] or env.truncations[acting])
        # A decision right after the choice is the one check_decision compares anyway.
        if step and live and agents.index(acting) in seen:
            seat = agents.index(acting)
            trail = seen.pop(seat)
            if not every_step:
                trail = [observed(seat)]
            state = env.game_state
            assert state is not None
            met[seat] = Later(tuple(trail), _record(state, seat, start), state.clone(), step)
        if not seen or not env.agents:
            break
        if live:
            env.step(random_action(env.observe(acting)["action_mask"], choose))
        else:
            env.step(None)
    for seat, trail in seen.items():
        met[seat] = Later(tuple(trail), (), None)
    return met


def _differing(a: Any, b: Any) -> list[str]:
    """Names of the state fields that differ (states built on ``SlotState``)."""
    fields = getattr(a, "fields", None)
    if fields is None:
        return ["the states"]
    return [name for name in fields() if getattr(a, name) != getattr(b, name)]


def check_choices(kit: GameKit, num_players: int, games: int = 10,
                  options: dict[str, Any] | None = None, seed: int = 0,
                  private: bool = True, public: bool = True, resample: bool = True,
                  probe_budget: int | None = None, min_games: int = 2,
                  view_stride: int = 1, later: bool = True) -> ChoiceReport:
    """The choice checks (:func:`check_decision`) at every decision of random games.

    With ``probe_budget``, no new game starts once that many decisions are probed and
    ``min_games`` games are played. The table views are compared at every
    ``view_stride``-th decision (they cost more than the observations). Returns what
    was compared.
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
                       report=report, where=where[0],
                       views=report.decisions % view_stride == 0, later=later)

    for game in range(games):
        if probe_budget is not None and game >= min_games and report.decisions >= probe_budget:
            break
        where[0] = f"{kit.name} {num_players}p, game {game}"
        play_episode(env, rng, seed=seed + game, each_step=probe, max_steps=kit.max_steps)
    return report


def check_decision(kit: GameKit, env: CardGameEnv[Any], private: bool = True,
                   public: bool = True, resample: bool = True,
                   report: ChoiceReport | None = None, where: str = "",
                   views: bool = True, later: bool = True) -> ChoiceReport:
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
    - ``later`` (with ``resample``): each such alternative is followed on, with the
      same random choices, to the seat's next decision (its decision right after the
      choice is compared above); where the public record as the seat saw it and
      its observation there are the same, its resamples there must be equal
      too, or differ only where no seat's observation shows it (which of two copies
      of a card is where, in a game that tells copies apart). A secret may show only then,
      e.g. a kitten put back at a secret depth, then a kitten drawn that may or may
      not be that one;
    - ``public``: alternatives with different public parts must give every seat
      still in the game different outcomes.

    With ``views``, the same holds for every seat's table view and the spectator's
    (party to no secret, and reached by every public choice).

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
    results = _try_each(env, legal, views)
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
                        _views_equal(results[first][2], results[other][2], seat,
                                     f"{where}: the secret choice between {name(first)!r} "
                                     f"and {name(other)!r}")
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
    if resample and later:
        report.later_resamples += _check_later(kit, env, results, groups, parties, where)
    if private:
        _spectator_sees_no_secret(results, groups, num_players, name, where)
    if public and len(groups) > 1:
        report.public_pairs += _check_public(env, results, groups, where)
    return report


def _outside(members: list[int], parties: dict[int, int], seat: int) -> list[int]:
    """The alternatives among ``members`` that ``seat`` is not party to."""
    return [a for a in members if not parties[a] >> seat & 1]


def _check_later(kit: GameKit, env: CardGameEnv[Any], results: dict[int, Trial],
                 groups: dict[Hashable, list[int]], parties: dict[int, int],
                 where: str) -> int:
    """The ``later`` part of :func:`check_decision`; returns the resamples compared."""
    seats_of: dict[int, set[int]] = {}
    for members in groups.values():
        for seat in range(env.num_players):
            outside = _outside(members, parties, seat)
            if len(outside) >= 2 and results[outside[0]][1][seat].present:
                for action in outside:
                    seats_of.setdefault(action, set()).add(seat)
    if not seats_of:
        return 0
    follows = _follow_each(env, seats_of)
    compared = 0
    for label, members in groups.items():
        for seat in range(env.num_players):
            met = {a: follows[a][seat] for a in _outside(members, parties, seat)
                   if seat in seats_of.get(a, ()) and follows[a][seat].state is not None}
            compared += _compare_later(kit, env, seat, met, f"{where}: resample_hidden "
                                       f"for seat {seat} at its next decision", label)
    return compared


def _compare_later(kit: GameKit, env: CardGameEnv[Any], seat: int, met: dict[int, Later],
                   what: str, label: Hashable) -> int:
    """Assert the alternatives of ``met`` that ``seat`` cannot tell apart at its next
    decision give it resamples no seat tells apart; returns the pairs compared."""
    name = env.action_name
    first: dict[tuple[tuple[bytes, ...], tuple[Any, ...]], tuple[int, Any]] = {}
    compared = 0
    for action, later in met.items():
        if later.information not in first:
            first[later.information] = (action, None)
            continue
        reference, sample_a = first[later.information]
        if sample_a is None:
            sample_a = kit.resample_hidden(met[reference].state, seat,
                                           np.random.default_rng(seat))
            first[later.information] = (reference, sample_a)
        sample_b = kit.resample_hidden(later.state, seat, np.random.default_rng(seat))
        compared += 1
        seen = _seen_differently(env, sample_a, sample_b)
        assert not seen, (
            f"{what}, {later.steps} step(s) on, depends on the secret choice between "
            f"{name(reference)!r} and {name(action)!r} (public part {label!r}), which that "
            f"seat did not see (the record as it saw it and its observation were the "
            f"same): {_differing(sample_a, sample_b)} differ, and so do the observations "
            f"of seats {seen} in the samples")
    return compared


def _seen_differently(env: CardGameEnv[Any], a: Any, b: Any) -> list[int]:
    """The seats whose observation or mask differs between states ``a`` and ``b``
    (none if the states are equal). Two states may differ where no seat sees it, e.g.
    in which of two copies of a card is where; a sample that credits a seat with
    knowledge it has only in one of them does not. The env is left as it was."""
    if a == b:
        return []
    state, selection = env.game_state, env.agent_selection

    def seen(sample: Any) -> list[bytes]:
        env._replace_state(sample)
        out = []
        for agent in env.possible_agents:
            obs = env.observe(agent)
            out.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        return out

    try:
        seen_a, seen_b = seen(a), seen(b)
    finally:
        env.game_state = state
        env._mask_cache = None
        env.agent_selection = selection
    return [seat for seat, (x, y) in enumerate(zip(seen_a, seen_b, strict=True)) if x != y]


def _check_public(env: CardGameEnv[Any], results: dict[int, Trial],
                  groups: dict[Hashable, list[int]], where: str) -> int:
    """Assert every seat still in the game, and the spectator's table view, tell the
    public alternatives apart; return the pairs compared."""
    name = env.action_name
    num_players = env.num_players
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
    if results[representatives[0]][2]:
        for seat in [*present, num_players]:
            _views_differ(results, representatives, seat, name, where)
    return (len(representatives) - 1) * len(present)


def _spectator_sees_no_secret(results: dict[int, Trial], groups: dict[Hashable, list[int]],
                              num_players: int, name: Any, where: str) -> None:
    """Assert the spectator's table view is the same after alternatives that differ
    only in a secret (the spectator is party to none)."""
    for members in groups.values():
        for other in members[1:]:
            _views_equal(results[members[0]][2], results[other][2], num_players,
                         f"{where}: the secret choice between {name(members[0])!r} "
                         f"and {name(other)!r}")


def _whose(seat: int, views: list[Any]) -> str:
    return "the spectator" if seat == len(views) - 1 else f"seat {seat}"


def _views_equal(views_a: list[Any], views_b: list[Any], seat: int, what: str) -> None:
    """Assert ``seat``'s table views (index ``num_players``: the spectator's) after two
    alternatives are identical."""
    if not views_a or views_a[seat] == views_b[seat]:
        return
    keys = [key for key in views_a[seat] if views_a[seat][key] != views_b[seat].get(key)]
    raise AssertionError(f"{what} is seen by {_whose(seat, views_a)}, not party to it: "
                         f"its table view's {keys} differ")


def _views_differ(results: dict[int, Trial], representatives: list[int], seat: int,
                  name: Any, where: str) -> None:
    """Assert ``seat``'s table views after public alternatives all differ."""
    first_with: dict[str, int] = {}
    for action in representatives:
        views = results[action][2]
        key = repr(views[seat])
        earlier = first_with.setdefault(key, action)
        assert earlier == action, (
            f"{where}: {_whose(seat, views)} cannot tell the public choices "
            f"{name(earlier)!r} and {name(action)!r} apart: its table views are identical")


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
