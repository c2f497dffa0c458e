"""Ray RLlib training (the ``rllib`` extra): the multi-agent adapter, short training
runs of every game on a local Ray with two env runners, their checkpoints playing
through ``cardgym eval``, and the command line's errors (also without the extra).

Training runs are tiny (two iterations of 200 steps, a 32-unit network) and share
one local Ray instance (2 CPUs); each game trains once per test process.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest

from agents.rllib.env import CardGameMultiAgentEnv
from agents.single_agent import make_game_env
from cardgym.errors import IllegalMoveError
from cardgym.registration import ENTRY_POINT_GROUP, find_game
from cardgym_cli import main

#: (game, players, extra train arguments): one run per game; Power Hungry Pets
#: trains against frozen snapshots, the others with one shared module for all seats.
RUNS = {
    "power_hungry_pets": (2, ["--self-play", "--snapshots", "2", "--snapshot-every", "1"]),
    "exploding_kittens": (3, []),
    "karel_kakelaar": (3, []),
}
TINY = ["--iterations", "2", "--env-runners", "2", "--train-batch-size", "200",
        "--minibatch-size", "50", "--n-epochs", "1", "--net-arch", "32", "--eval-games", "2",
        "--eval-opponents", "random", "--no-progress"]


# ----------------------------------------------------------------- the adapter


def _play_random(env: CardGameMultiAgentEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    """One game through the adapter with random legal actions: the actions taken and
    each seat's summed reward."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    actions: list[int] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    done = False
    while not done:
        assert len(observations) == 1, "exactly the seat to act gets an observation"
        (agent, observation), = observations.items()
        assert env.observation_spaces[agent].contains(observation)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
        for name, reward in rewards.items():
            totals[name] += reward
        done = terminateds["__all__"]
        assert not truncateds["__all__"]
    assert observations == {}
    return actions, totals


def _aec_returns(game: str, players: int, seed: int, actions: list[int]) -> dict[str, float]:
    """Each seat's return when ``actions`` are replayed in the plain AEC env, read the
    PettingZoo way (``last()`` before every step)."""
    env = make_game_env(find_game(game), players)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    moves = iter(actions)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else next(moves))
    assert next(moves, None) is None, "the replay used every action"
    return totals


@pytest.mark.parametrize(("game", "players"), [("power_hungry_pets", 4),
                                               ("exploding_kittens", 3),
                                               ("karel_kakelaar", 2)])
def test_the_adapter_gives_every_seat_the_returns_the_aec_game_gives(game: str,
                                                                     players: int) -> None:
    env = CardGameMultiAgentEnv({"game": game, "num_players": players})
    steps = 0
    for seed in range(8):
        actions, totals = _play_random(env, seed)
        steps += len(actions)
        assert totals == _aec_returns(game, players, seed, actions)
        assert any(value > 0 for value in totals.values()), "somebody won"
    assert env.legal_actions_taken == steps and env.illegal_actions == 0


def test_the_adapter_refuses_and_counts_illegal_actions_and_changes_nothing() -> None:
    env = CardGameMultiAgentEnv({"game": "exploding_kittens", "num_players": 3})
    observations, _ = env.reset(seed=3)
    (agent, observation), = observations.items()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match=f"action {illegal} is not legal"):
        env.step({agent: illegal})
    other = next(name for name in env.possible_agents if name != agent)
    with pytest.raises(IllegalMoveError, match=f"expected an action for {agent}"):
        env.step({other: 0})
    with pytest.raises(IllegalMoveError, match="is not legal"):
        env.step({agent: 1.5})
    assert env.illegal_actions == 3 and env.legal_actions_taken == 0
    unchanged = env._observe(agent)
    assert all(np.array_equal(unchanged[key], observation[key]) for key in observation)


@pytest.mark.parametrize(("config", "message"), [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({}, "env_config needs 'game'"),
    ({"game": "power_hungry_pets", "seats": 2}, "unknown env_config key(s) ['seats']"),
    ({"game": "power_hungry_pets", "num_players": 9}, "takes 2..6 players, not 9"),
    ({"game": "exploding_kittens", "options": {"robovac": 1}}, "unknown option 'robovac'"),
    ({"bound": "power_hungry_pets"}, "env_config 'bound' takes a bound game"),
])
def test_a_bad_env_config_names_what_is_wrong(config: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        CardGameMultiAgentEnv(config)


def test_self_play_gives_one_seat_per_episode_to_the_learner_and_spreads_it() -> None:
    from types import SimpleNamespace

    from agents.rllib.train import SelfPlayMapping

    mapping = SelfPlayMapping(num_players=4, snapshots=3)
    learner_seats = []
    for number in range(200):
        episode = SimpleNamespace(id_=f"{number:032x}")
        modules = [mapping(f"player_{seat}", episode) for seat in range(4)]
        assert modules.count("shared") == 1
        assert set(modules) - {"shared"} <= {"snapshot_0", "snapshot_1", "snapshot_2"}
        assert modules == [mapping(f"player_{seat}", episode) for seat in range(4)]
        learner_seats.append(modules.index("shared"))
    assert sorted(set(learner_seats)) == [0, 1, 2, 3]


# ------------------------------------------------------------- training runs


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray instance for the module (RAY_ADDRESS, if set, is not joined)."""
    import ray

    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("RAY_ADDRESS", raising=False)
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            yield
        finally:
            ray.shutdown()


@pytest.fixture(scope="module")
def trained(local_ray: None, tmp_path_factory: pytest.TempPathFactory
            ) -> Callable[[str], Path]:
    """Train each game of :data:`RUNS` once (on first request); returns the run folder."""
    runs: dict[str, Path] = {}

    def run(game: str) -> Path:
        if game not in runs:
            players, extra = RUNS[game]
            output = tmp_path_factory.mktemp(f"rllib-{game}")
            status = main(["train", game, "--backend", "rllib", "--players", str(players),
                           "--output", str(output), *TINY, *extra])
            assert status == 0, f"training {game} failed"
            runs[game] = output / f"{game}-{players}p-seed0-rllib"
        return runs[game]

    return run


@pytest.mark.slow
@pytest.mark.parametrize("game", list(RUNS))
def test_a_short_training_run_takes_only_legal_actions(
    game: str, trained: Callable[[str], Path]
) -> None:
    run = trained(game)
    card = json.loads((run / "model.json").read_text())
    with (run / "progress.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(row["iteration"]) for row in rows] == [1, 2]
    assert card["game"] == find_game(game).env_id and card["players"] == RUNS[game][0]
    assert card["timesteps"] >= 2 * 200 and card["iterations"] == 2
    assert card["settings"]["env_runners"] == 2
    # Every environment step RLlib sampled is an action the adapter checked against
    # the mask and let through; a refused one would have stopped the run.
    assert card["legal_actions"] == card["timesteps"]
    assert card["illegal_actions"] == 0
    assert (run / "checkpoint" / "rllib_checkpoint.json").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("game", list(RUNS))
def test_the_checkpoint_plays_full_games_through_cardgym_eval(
    game: str, trained: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    run = trained(game)
    players = RUNS[game][0]
    capsys.readouterr()
    assert main(["eval", game, "--players", str(players), "--agents", f"rllib:{run}",
                 "random", "--games", str(players), "--workers", "1", "--trust-pickle"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| 1 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1] == f"rllib+pickle:{run}"
    assert cells[3] == str(players), "one seat-game per game played to the end"
    assert float(cells[7]) > 0, "the trained module made moves"


def test_a_checkpoint_given_by_a_relative_path_plays_through_cardgym_eval(
    trained: Callable[[str], Path], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = trained("karel_kakelaar")
    monkeypatch.chdir(run.parent)
    capsys.readouterr()
    assert main(["eval", "karel_kakelaar", "--players", "3", "--agents", f"rllib:{run.name}",
                 "random", "--games", "3", "--workers", "1", "--trust-pickle"]) == 0
    assert f"rllib+pickle:{run.name}" in capsys.readouterr().out


@pytest.mark.slow
def test_self_play_keeps_frozen_snapshots_of_the_shared_module(
    trained: Callable[[str], Path]
) -> None:
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule

    from agents.rllib.policy import MODULES_DIR

    run = trained("power_hungry_pets")
    modules = run / "checkpoint" / MODULES_DIR
    weights = {name: RLModule.from_checkpoint(str(modules / name)).state_dict()
               for name in ("shared", "snapshot_0", "snapshot_1")}

    def same(a: str, b: str) -> bool:
        return all(torch.equal(weights[a][key], weights[b][key]) for key in weights[a])

    card = json.loads((run / "model.json").read_text())
    assert card["snapshot_refreshes"] == 2
    # Snapshot 1 was taken after the last iteration, snapshot 0 one update earlier.
    assert same("shared", "snapshot_1")
    assert not same("shared", "snapshot_0")


@pytest.mark.slow
def test_a_checkpoint_is_refused_for_another_game(
    trained: Callable[[str], Path], tmp_path: Path
) -> None:
    import shutil

    from agents.rllib.policy import MODULES_DIR, CheckpointError, RllibPolicy

    run = trained("power_hungry_pets")
    kittens = find_game("exploding_kittens")
    with pytest.raises(CheckpointError, match="trained on cardgym/power_hungry_pets-v2"):
        RllibPolicy.load(run, game=kittens, num_players=2, trust_pickle=True)
    bare = tmp_path / "shared"
    shutil.copytree(run / "checkpoint" / MODULES_DIR / "shared", bare)
    with pytest.raises(CheckpointError, match=r"expects observations \(\d+,\) and \d+ actions"):
        RllibPolicy.load(bare, game=kittens, num_players=2, trust_pickle=True)
    with pytest.raises(CheckpointError, match="loads only by unpickling"):
        RllibPolicy.load(bare, game=find_game("power_hungry_pets"), num_players=2)
    assert RllibPolicy.load(bare, game=find_game("power_hungry_pets"), num_players=2,
                            trust_pickle=True)


@pytest.mark.slow
def test_the_throughput_benchmark_prints_a_row_per_sampler(
    local_ray: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from benchmarks import rllib_throughput

    assert rllib_throughput.main(["--games", "karel_kakelaar", "--env-runners", "1",
                                  "--steps", "60", "--rounds", "1", "--net-arch", "16",
                                  "--output", str(tmp_path)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("| karel_kakelaar")]
    assert [row.split(" | ")[2] for row in rows] == ["adapter", "1 env runner(s)"]
    with (tmp_path / "rllib_throughput.csv").open() as handle:
        table = list(csv.DictReader(handle))
    assert len(table) == 2 and all(float(row["median_steps_per_second"]) > 0 for row in table)


@pytest.mark.parametrize(("args", "message"), [
    (["--env-runners", "0"], "--env-runners: counts must be positive"),
    (["--games", "chess"], "unknown game 'chess'"),
    (["--games", "karel_kakelaar", "--players", "6"], "karel_kakelaar takes 2..5 players, not 6"),
])
def test_bad_benchmark_arguments_exit_2(args: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import rllib_throughput

    with pytest.raises(SystemExit) as stop:
        rllib_throughput.parse(args)
    assert stop.value.code == 2 and message in capsys.readouterr().err


# ------------------------------------------------------------- command line


@pytest.mark.parametrize(("args", "message"), [
    (["--backend", "rllib", "--timesteps", "1000"], "--timesteps: only with --backend sb3"),
    (["--backend", "rllib", "--opponents", "random"], "--opponents: only with --backend sb3"),
    (["--iterations", "3"], "--iterations: only with --backend rllib"),
    (["--self-play"], "--self-play: only with --backend rllib"),
    (["--backend", "rllib", "--train-batch-size", "100", "--minibatch-size", "200"],
     "--minibatch-size (200) must not exceed --train-batch-size (100)"),
    (["--backend", "rllib", "--players", "7"], "takes 2..6 players, not 7"),
    (["--backend", "rllib", "--eval-opponents", "wizard"], "unknown agent 'wizard'"),
    (["--backend", "torch"], "invalid choice: 'torch'"),
    (["--backend", "rllib", "--env-runners", "-1"], "--env-runners: must be an integer >= 0"),
    (["--backend", "rllib", "--net-arch", "1000000000"],
     "--net-arch 1000000000 makes a network of 2,018,000,000,096 parameters for "
     "power_hungry_pets at 2 players (960 observation values, 95 actions); at most "
     "50,000,000"),
])
def test_bad_rllib_train_arguments_exit_2_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["train", "power_hungry_pets", *args, "--output", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir()), "a refused run must not write anything"


def test_num_cpus_is_refused_when_joining_a_cluster(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")
    assert main(["train", "power_hungry_pets", "--backend", "rllib", "--num-cpus", "2",
                 "--output", str(tmp_path)]) == 2
    assert "with RAY_ADDRESS set the cluster's own resources apply" in capsys.readouterr().err


@pytest.mark.parametrize(("spec", "message"), [
    ("rllib:", "rllib needs a path"),
    ("rllib:no/such/run", "RLlib checkpoint 'no/such/run' does not exist"),
])
def test_bad_rllib_agent_specs_exit_2(spec: str, message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "power_hungry_pets", "--agents", spec, "random"]) == 2
    assert message in capsys.readouterr().err


def test_a_folder_without_a_module_is_refused(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "power_hungry_pets", "--agents", f"rllib:{tmp_path}", "random"]) == 2
    assert "holds no RLlib module 'shared'" in capsys.readouterr().err


def _fake_checkpoint(root: Path) -> Path:
    module = root / "checkpoint" / "learner_group" / "learner" / "rl_module" / "shared"
    module.mkdir(parents=True)
    (module / "class_and_ctor_args.pkl").write_bytes(b"")
    (module / "module_state.pkl").write_bytes(b"")
    return root


def test_without_the_extra_rllib_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    output = tmp_path / "runs"
    assert main(["train", "power_hungry_pets", "--backend", "rllib",
                 "--output", str(output)]) == 2
    err = capsys.readouterr().err
    assert "--backend rllib: the rllib extra is not installed" in err
    assert 'pip install -e ".[rllib]"' in err
    assert not output.exists()
    run = _fake_checkpoint(tmp_path / "run")
    assert main(["eval", "power_hungry_pets", "--agents", f"rllib:{run}", "random"]) == 2
    assert "the rllib extra is not installed" in capsys.readouterr().err
    # Everything else still works.
    assert main(["eval", "power_hungry_pets", "--agents", "heuristic", "random", "--games", "2",
                 "--workers", "1"]) == 0


def test_the_command_line_and_the_agents_do_not_import_ray() -> None:
    code = ("import sys\n"
            "import cardgym_cli.train, agents.rllib, agents.rllib.commands, agents.rllib.policy\n"
            "import agents.rllib.train, agents.specs, cardgym_cli\n"
            "cardgym_cli.build_parser()\n"
            "assert 'ray' not in sys.modules, sorted(m for m in sys.modules if 'ray' in m)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert result.returncode == 0, result.stderr


def test_every_game_of_cardgym_is_covered() -> None:
    # Games of other installed distributions register too; cardgym's own all train here.
    own = [point.name for point in entry_points(group=ENTRY_POINT_GROUP)
           if point.dist is not None and point.dist.name == "cardgym"]
    assert own and sorted(RUNS) == sorted(own)


def test_an_env_on_a_bound_game_plays_as_the_env_on_its_options_and_checks_nothing_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A training run binds its game once; the env runners' envs trust the bound game
    # (no Config built again) and play the games the checked form plays.
    import pickle

    from cardgym.registration import find_game
    from ek_env.engine.state import Config

    bound = find_game("exploding_kittens").bind(3, {"attack_stacking": "stack"})
    travelled = pickle.loads(pickle.dumps(bound))
    configs: list[Config] = []
    check = Config.__post_init__
    monkeypatch.setattr(Config, "__post_init__", lambda self: (configs.append(self), check(self)))
    env = CardGameMultiAgentEnv({"bound": travelled})
    assert configs == [] and env.bound == bound and env.num_players == 3
    checked = CardGameMultiAgentEnv({"game": "exploding_kittens", "num_players": 3,
                                     "options": {"attack_stacking": "stack"}})
    assert len(configs) == 1
    for seed in range(3):
        assert _play_random(env, seed) == _play_random(checked, seed)
    with pytest.raises(ValueError, match="env_config 'bound' takes a bound game"):
        CardGameMultiAgentEnv({"bound": bound, "num_players": 3})
