"""Policy-guided ISMCTS (``prior=policy``, ``value=policy``) and the prior kept per chooser.

The network is the shipped baseline of each game at two players (models/), read from its
policy file.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.ismcts import IsmctsPolicy, IsmctsSettings, parse_settings
from agents.ismcts.tree import Node, select_puct
from agents.options import make_env
from agents.policy import decide
from cardgym.registration import find_game

pytest.importorskip("torch")

GAMES = ("power_hungry_pets", "exploding_kittens", "karel_kakelaar")


def _opening(policy: IsmctsPolicy, seed: int) -> tuple[Any, int]:
    """A new game played on until its seat to act has a choice."""
    engine = policy.engine
    state = engine.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    while len(engine.legal_actions(state)) < 2:
        engine.apply(state, engine.legal_actions(state)[0], rng)
    return state, engine.to_act(state)


def test_the_settings_name_the_network_and_parse_back() -> None:
    settings = parse_settings("iterations=50,prior=policy,value=policy,w=3")
    assert settings == IsmctsSettings(iterations=50, prior="policy", value="policy", w=3.0)
    assert settings.uses_model and settings.model == "baseline"
    assert settings.label() == ("ismcts:iterations=50,c=0.7,rollout=random,prior=policy,w=3,"
                                "value=policy,model=baseline,horizon=round,tree=multi,"
                                "split=private")
    assert not IsmctsSettings().uses_model
    puct = parse_settings("iterations=50,prior=policy,value=policy,select=puct,c=1.5")
    assert puct == IsmctsSettings(iterations=50, prior="policy", value="policy", select="puct",
                                  c=1.5)
    assert puct.label() == ("ismcts:iterations=50,c=1.5,select=puct,rollout=random,"
                            "prior=policy,value=policy,model=baseline,horizon=round,"
                            "tree=multi,split=private")
    assert parse_settings(puct.label().removeprefix("ismcts:")) == puct


def test_puct_scores_an_untried_action_by_its_probability_and_the_tried_ones_mean() -> None:
    node = Node(0)
    base = 8
    tried = node.children[base + 0] = Node(0)
    tried.visits, tried.total = 10, 5.0
    probs = np.array([0.7, 0.2, 0.02, 0.08])
    # Action 0: 0.5 + 0.7 * sqrt(10) / 11 = 0.70; untried 1: 0.5 + 0.2 * sqrt(10) = 1.13;
    # untried 2: 0.5 + 0.02 * sqrt(10) = 0.56.
    action, child, new = select_puct(node, [0, 1, 2], base, 0, 1.0, probs)
    assert (action, new) == (1, True)
    assert node.children[base + 1] is child and child.seat == 0
    assert tried.avails == 2 and child.avails == 1, "legal children tried before count a use"
    # Once tried, the new child's own mean decides: a poor one gives way to action 0
    # (0.71 against 0.33, and 5 / 11 + 0.02 * sqrt(11) = 0.52 for untried 2).
    child.visits, child.total = 1, 0.0
    action, again, new = select_puct(node, [0, 1, 2], base, 0, 1.0, probs)
    assert (action, again, new) == (0, tried, False)
    # A small exploration constant keeps the search on the best mean.
    assert select_puct(node, [0, 1, 2], base, 0, 0.01, probs)[0] == 0
    # Nothing tried: the likeliest action comes first (the lowest index on ties).
    empty = Node(1)
    assert select_puct(empty, [1, 2, 3], 0, 1, 1.0, probs)[:1] == (1,)
    assert select_puct(empty, [3], 0, 1, 1.0, probs)[:1] == (3,)


def test_puct_follows_the_network_and_may_leave_unlikely_moves_untried() -> None:
    policy = IsmctsPolicy("karel_kakelaar", 2, settings=IsmctsSettings(
        iterations=200, prior="policy", value="policy", select="puct"))
    network = policy._network
    assert network is not None
    engine = policy.engine
    untried = 0
    for seed in range(4):
        state, seat = _opening(policy, seed)
        legal = engine.legal_actions(state)
        probs = network.probabilities(state, seat, engine.legal_mask(state))
        root = policy.search(state, seat, np.random.default_rng(seed))
        visits = {key % engine.num_actions: child.visits for key, child in root.children.items()}
        assert sum(visits.values()) == 200
        assert set(visits) <= set(legal)
        assert next(iter(visits)) == max(legal, key=lambda a: (probs[a], -a)), \
            "the likeliest move is tried first"
        untried += len(set(legal) - set(visits))
    assert untried, "UCB would try every legal move once; PUCT leaves unlikely ones"


def test_the_policy_prior_tries_the_likeliest_move_first_and_favours_it() -> None:
    policy = IsmctsPolicy("power_hungry_pets", 2, settings=IsmctsSettings(
        iterations=100, prior="policy", w=1e9, horizon="game"))
    network = policy._network
    assert network is not None
    engine = policy.engine
    for seed in range(3):
        state, seat = _opening(policy, seed)
        probs = network.probabilities(state, seat, engine.legal_mask(state))
        assert probs.sum() == pytest.approx(1.0)
        legal = engine.legal_actions(state)
        assert all(probs[a] == 0 for a in range(engine.num_actions) if a not in legal)
        root = policy.search(state, seat, np.random.default_rng(seed))
        visits = {key % engine.num_actions: child.visits for key, child in root.children.items()}
        likeliest = max(legal, key=lambda a: (probs[a], -a))
        assert visits[likeliest] == max(visits.values())
        order = [key % engine.num_actions for key in root.children]
        assert order == sorted(legal, key=lambda a: (-probs[a], a)), \
            "untried moves are expanded likeliest first"
        # With an overwhelming weight the bias w * p / (visits + 1) rules the selection:
        # visits grow with the probabilities.
        for a in legal:
            if probs[a] < probs[likeliest] / 4:
                assert visits[a] < visits[likeliest] / 2


def test_the_value_head_replaces_the_playouts() -> None:
    policy = IsmctsPolicy("karel_kakelaar", 2, settings=IsmctsSettings(
        iterations=60, prior="none", value="policy"))

    def no_playouts(*args: Any) -> None:
        raise AssertionError("a playout ran with value=policy")

    policy._playouts.to_end = no_playouts  # type: ignore[method-assign]
    policy._playouts.to_round_end = no_playouts  # type: ignore[method-assign]
    state, seat = _opening(policy, 0)
    root = policy.search(state, seat, np.random.default_rng(0))
    assert sum(child.visits for child in root.children.values()) == 60
    network = policy._network
    assert network is not None
    values = network.values(state)
    low, high = policy.engine.reward_bounds
    assert len(values) == 2 and all(low <= v <= high for v in values)


@pytest.mark.parametrize("select", ["ucb", "puct"])
@pytest.mark.parametrize("game", GAMES)
def test_a_policy_guided_move_depends_only_on_what_the_seat_may_know(game: str,
                                                                    select: str) -> None:
    policy = IsmctsPolicy(game, 2, settings=IsmctsSettings(
        iterations=30, prior="policy", value="policy", select=select))
    engine = policy.engine
    differed = 0
    for position in range(3):
        env = make_env(find_game(game), 2)
        env.reset(seed=40 + position)
        rng = np.random.default_rng(position)
        for _ in range(3 + 5 * position):
            agent = env.agent_selection
            if env.terminations[agent]:
                break
            legal = env.legal_actions()
            env.step(legal[int(rng.integers(len(legal)))])
        agent = env.agent_selection
        if env.terminations[agent] or len(env.legal_actions()) < 2:
            continue
        seat = env.agent_name_mapping[agent]
        state = env.game_state
        other = engine.resample(state, seat, np.random.default_rng(position))
        differed += other != state
        first = policy.search(state, seat, np.random.default_rng(7))
        second = policy.search(other, seat, np.random.default_rng(7))
        assert _stats(first) == _stats(second)
        move = decide(policy, env, agent, env.observe(agent), np.random.default_rng(9))
        assert env.observe(agent)["action_mask"][move] == 1
    assert differed, "no position had hidden information: the test cannot fail"


def _stats(root: Node) -> dict[int, Any]:
    return {key: (child.visits, round(child.total, 6)) for key, child in root.children.items()}


def test_the_heuristic_prior_is_asked_per_chooser_not_per_seat() -> None:
    # With split=private an opponent's choices are kept apart by what it holds; the
    # prior's suggestion must be kept apart the same way, or the first hand dealt to
    # it would decide its suggestion for every other hand.
    policy = IsmctsPolicy("power_hungry_pets", 2, settings=IsmctsSettings(
        iterations=300, horizon="game"))
    engine = policy.engine
    state, seat = _opening(policy, 1)
    roots = policy.search(state, seat, np.random.default_rng(1)) and policy.last_trees
    opponent = 1 - seat
    choosers = 0
    stack = list(roots)
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        if node.hints:
            actors = [key // engine.num_actions % engine.num_players for key in node.hints]
            choosers = max(choosers, actors.count(opponent))
    assert choosers >= 2, "some node holds the opponent's suggestion for two different hands"


def test_the_ismcts_table_has_a_row_per_spec_and_opponent(tmp_path: Any) -> None:
    from benchmarks import ismcts_table

    assert ismcts_table.main(["--env", "kuhn_poker", "--specs", "ismcts:iterations=10",
                              "ismcts:iterations=5,prior=none", "--opponents", "random",
                              "heuristic", "--games", "6", "--workers", "1",
                              "--output", str(tmp_path),
                              "--journal", str(tmp_path / "journal")]) == 0
    assert list((tmp_path / "journal").iterdir()) == []
    table = (tmp_path / "ismcts.md").read_text()
    rows = [line.split(" | ")[1:3] for line in table.splitlines()
            if line.startswith("| kuhn_poker")]
    assert rows == [["`ismcts:iterations=10`", "random"], ["`ismcts:iterations=10`", "heuristic"],
                    ["`ismcts:iterations=5,prior=none`", "random"],
                    ["`ismcts:iterations=5,prior=none`", "heuristic"]]
    assert all(" ms |" in line for line in table.splitlines() if line.startswith("| kuhn"))


# ------------------------------------------------------------ reading the opponents


def _kakelaar_stage_states(count: int) -> list[tuple[Any, int]]:
    """States of two- and three-player games in which the seat to act has another
    seat's commit hidden from it: up to ``count`` per table size and stage, bids
    first."""
    from agents.engines import engine_for

    found: dict[tuple[int, int], list[tuple[Any, int]]] = {}
    for players in (2, 3):
        engine = engine_for("karel_kakelaar", players)
        rng = np.random.default_rng(players)
        for game_seed in range(60):
            state = engine.new_game(np.random.default_rng(game_seed))
            while not engine.is_over(state):
                seat = engine.to_act(state)
                bucket = found.setdefault((players, int(state.phase)), [])
                if len(bucket) < count and engine.hidden_choices(state, seat):  # type: ignore[misc]
                    bucket.append((state.clone(), seat))
                legal = engine.legal_actions(state)
                engine.apply(state, legal[int(rng.integers(len(legal)))], rng)
    return [case for key in sorted(found, key=lambda k: (k[1], k[0])) for case in found[key]]


def test_kakelaar_lists_the_hidden_commits_with_the_states_they_were_made_in() -> None:
    from agents.engines import engine_for
    from kakelaar_env.engine.actions import move_to_action
    from kakelaar_env.info.choices import hidden_choices, undo_commit
    from kakelaar_env.positions.position import position

    cases = _kakelaar_stage_states(20)
    assert len(cases) >= 40
    stages = set()
    for state, seat in cases:
        stages.add(state.phase)
        engine = engine_for("karel_kakelaar", state.num_players)
        # Undo every hidden commit, newest first, then make them again in order: each
        # chooser is to act in the state it chose in, and the end is the same position.
        back = state.clone()
        undone = []
        while (step := undo_commit(back)) is not None:
            chooser, move = step
            undone.append((chooser, move_to_action(back, move), back.clone()))
        assert undone, "the case was chosen for a hidden commit"
        again = back.clone()
        rng = np.random.default_rng(0)
        for chooser, action, before in reversed(undone):
            assert engine.to_act(again) == chooser
            assert position(again) == position(before)
            assert engine.legal_mask(again) >> action & 1
            engine.apply(again, action, rng)
        assert position(again) == position(state)
        # hidden_choices lists the other seats' commits among them, with those states.
        listed = hidden_choices(state, seat)
        expected = [(chooser, action, position(before)) for chooser, action, before in undone
                    if chooser != seat]
        assert [(chooser, action, position(before))
                for chooser, before, action in listed] == expected
    assert len(stages) >= 2, "bids and a later stage both covered"


def test_reading_weighs_a_determinisation_by_the_models_likelihood() -> None:
    policy = IsmctsPolicy("karel_kakelaar", 2, settings=IsmctsSettings(
        iterations=10, reading="heuristic", epsilon=0.1))
    reader = policy._reader
    assert reader is not None
    engine = policy.engine
    reader.start(np.random.default_rng(0))
    weights = set()
    for state, seat in _kakelaar_stage_states(6)[:6]:
        for sample in range(8):
            sim = engine.resample(state, seat, np.random.default_rng(sample))
            (chooser, before, action), = engine.hidden_choices(sim, seat)  # type: ignore[misc]
            mask = engine.legal_mask(before)
            count = bin(mask).count("1")
            picked = policy._heuristic().act(engine.observe(before, chooser),
                                              reader.arrays(mask), np.random.default_rng(0))
            weight = reader.weight(sim, seat)
            if count == 1 or action == picked:
                assert weight == pytest.approx(1.0)
            else:
                assert weight == pytest.approx(0.1 / (count - 1) / 0.9)
            weights.add(round(weight, 6))
    assert len(weights) >= 2, "both likely and unlikely determinisations were seen"


def test_a_reading_search_depends_only_on_what_the_seat_may_know() -> None:
    policy = IsmctsPolicy("karel_kakelaar", 2, settings=IsmctsSettings(
        iterations=40, reading="heuristic"))
    engine = policy.engine
    differed = 0
    for position, (state, seat) in enumerate(_kakelaar_stage_states(4)[:4]):
        other = engine.resample(state, seat, np.random.default_rng(position))
        differed += other != state
        first = policy.search(state, seat, np.random.default_rng(3))
        assert _stats(first) == _stats(policy.search(other, seat, np.random.default_rng(3)))
        assert any(child.visits != int(child.visits) for child in first.children.values()), \
            "weighed iterations add fractions of a visit"
    assert differed


def test_reading_needs_a_game_that_lists_its_hidden_choices() -> None:
    from agents.ismcts import SettingsError

    with pytest.raises(SettingsError, match="Power Hungry Pets does not list the hidden "
                                            "choices .* games that do: karel_kakelaar"):
        IsmctsPolicy("power_hungry_pets", 2, settings=IsmctsSettings(reading="heuristic"))


def test_a_game_without_a_heuristic_names_the_settings_to_change() -> None:
    # The default prior needs the game's heuristic: the error says to pass prior=none,
    # and names every setting that asked for it.
    import dataclasses

    from agents.ismcts import SettingsError
    from cardgym.registration import find_game

    game = dataclasses.replace(find_game("power_hungry_pets"), heuristic=None)
    with pytest.raises(SettingsError, match=r"has no heuristic policy, which prior=heuristic "
                                            r"needs \(prior=heuristic is the default\); pass "
                                            r"prior=none$"):
        IsmctsPolicy(game, 2, settings=IsmctsSettings())
    with pytest.raises(SettingsError, match=r"prior=heuristic and rollout=heuristic needs.*"
                                            r"pass prior=none, rollout=random$"):
        IsmctsPolicy(game, 2, settings=IsmctsSettings(rollout="heuristic"))
    search = IsmctsPolicy(game, 2, settings=IsmctsSettings(prior="none", iterations=5))
    assert search.name.startswith("ismcts")
