"""Model files are data, never code: the policy file, the pickle opt-in, and hostile files.

The models here are built in ``tmp_path`` (a tiny MaskablePPO trained for a few
hundred steps), never the shipped baselines. A booby-trapped ``model.zip`` carries a
pickled object whose ``__reduce__`` writes a marker file: every default way of
loading a model must refuse it and leave no marker; only the opt-in loads it.
"""

from __future__ import annotations

import base64
import json
import pickle
import shutil
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("safetensors")

from agents import policy_file  # noqa: E402
from agents.policy_file import (  # noqa: E402
    FORMAT,
    PickleRefusedError,
    convert_model,
    save_policy_file,
    weights_path,
)
from agents.sb3 import ModelError, ModelPolicy, read_card, write_card  # noqa: E402
from agents.single_agent import SingleAgentEnv  # noqa: E402
from agents.specs import AgentSpecError, make_policy, trust_pickle  # noqa: E402
from cardgym.registration import find_game  # noqa: E402
from cardgym_cli import main  # noqa: E402

GAME = find_game("power_hungry_pets")
KITTENS = find_game("exploding_kittens")


class Trap:
    """Unpickling this writes ``marker``: the payload a hostile model file would carry."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (self.marker, "the model file ran code"))


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A MaskablePPO model of 2-player Power Hungry Pets after 256 learner steps."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.manual_seed(0)
    env = SingleAgentEnv(GAME.env_id, 2, ["random"])
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32, 16]}, device="cpu")
    model.learn(total_timesteps=256)
    return model


def _card() -> dict[str, Any]:
    return {"game": GAME.env_id, "players": 2, "options": {},
            "algorithm": "MaskablePPO (sb3-contrib)"}


@pytest.fixture(scope="module")
def run(trained: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder as cardgym train leaves it: model.zip, model.safetensors, model.json."""
    folder = tmp_path_factory.mktemp("run")
    trained.save(folder / "model.zip")
    save_policy_file(trained.policy, folder / "model.zip", _card())
    return folder


def _pickle_only(run: Path, folder: Path) -> Path:
    """A copy of the run's zip and card without the policy file."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(run / "model.zip", folder / "model.zip")
    shutil.copy(run / "model.json", folder / "model.json")
    return folder / "model.zip"


def _booby_trap(run: Path, folder: Path, marker: Path) -> Path:
    """The run's zip with one more pickled entry in its ``data``, and the copied card."""
    archive = _pickle_only(run, folder)
    with zipfile.ZipFile(run / "model.zip") as source:
        entries = {name: source.read(name) for name in source.namelist()}
    data = json.loads(entries["data"])
    data["trap"] = {":type:": "<class 'Trap'>",
                    ":serialized:": base64.b64encode(pickle.dumps(Trap(marker))).decode()}
    entries["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(archive, "w") as target:
        for name, content in entries.items():
            target.writestr(name, content)
    return archive


def _observations(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks from real play, then random ones with random masks."""
    env = SingleAgentEnv(GAME.env_id, 2, ["random"])
    rng = np.random.default_rng(1)
    observations, masks = [], []
    observation, _ = env.reset(seed=0)
    while len(observations) < count:
        mask = env.action_masks()
        observations.append(observation)
        masks.append(mask)
        observation, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if done:
            observation, _ = env.reset(seed=len(observations))
    shape = env.observation_space.shape
    for _ in range(count):
        mask = rng.random(env.action_space.n) < 0.3
        mask[rng.integers(mask.size)] = True
        observations.append(rng.random(shape, dtype=np.float32) * 2)
        masks.append(mask)
    return np.array(observations, dtype=np.float32), np.array(masks)


# ------------------------------------------------------------ the policy file


@pytest.mark.parametrize("form", ["model:{run}/model.safetensors", "model:{run}/model.zip",
                                  "model:{run}", "{run}/model.zip", "{run}/model.safetensors"])
def test_the_policy_file_plays_exactly_like_the_sb3_model(trained: Any, run: Path,
                                                           form: str) -> None:
    policy = make_policy(form.format(run=run), GAME, 2)
    assert isinstance(policy, ModelPolicy)
    observations, masks = _observations(150)
    expected, _ = trained.predict(observations, action_masks=masks, deterministic=True)
    rng = np.random.default_rng(0)
    actions = [policy.act(obs, mask.astype(np.int8), rng)
               for obs, mask in zip(observations, masks, strict=True)]
    assert actions == expected.tolist()
    assert all(masks[i, action] for i, action in enumerate(actions))


def test_loading_a_policy_file_leaves_pytorchs_generator_where_it_was(run: Path) -> None:
    # A training run loads its checkpoints as opponents: how often must not change
    # what it draws next.
    import torch

    torch.manual_seed(11)
    expected = torch.rand(4)
    torch.manual_seed(11)
    for _ in range(3):
        make_policy(f"model:{run}/model.safetensors", GAME, 2)
    assert torch.equal(torch.rand(4), expected)


def test_the_policy_file_holds_tensors_and_json_and_loads_without_unpickling(
        trained: Any, run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    raw = (run / "model.safetensors").read_bytes()
    header = json.loads(raw[8:8 + int.from_bytes(raw[:8], "little")])
    assert header.pop("__metadata__") == {"format": FORMAT}
    assert set(header) == set(trained.policy.state_dict())
    assert {entry["dtype"] for entry in header.values()} == {"F32"}
    card = read_card(run / "model.safetensors")
    assert card is not None and card["policy"] == {
        "format": FORMAT, "network": "sb3_contrib MaskableActorCriticPolicy",
        "net_arch": [32, 16], "activation": "Tanh", "weights": "model.safetensors",
        "observation_shape": list(trained.observation_space.shape),
        "actions": int(trained.action_space.n)}

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the policy file must load without unpickling")

    for target, name in [(pickle, "load"), (pickle, "loads"), (pickle, "Unpickler"),
                         (torch, "load"), (MaskablePPO, "load")]:
        monkeypatch.setattr(target, name, forbidden)
    policy = ModelPolicy.load(run / "model.zip", game=GAME, num_players=2)
    for name, tensor in trained.policy.state_dict().items():
        assert torch.equal(policy.network.state_dict()[name], tensor), name


# ------------------------------------------------------- the booby-trapped zip


def test_every_default_path_refuses_a_booby_trapped_zip(
        run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "marker"
    evil = _booby_trap(run, tmp_path / "evil", marker)
    models = tmp_path / "models"
    _booby_trap(run, models / "power_hungry_pets-2p", marker)
    monkeypatch.setenv("CARDGYM_MODELS", str(models))

    for spec in (f"model:{evil}", f"model:{evil.parent}", str(evil)):
        with pytest.raises(AgentSpecError, match="loads only by unpickling.*--trust-pickle"):
            make_policy(spec, GAME, 2)
    with pytest.raises(AgentSpecError, match="only .*model.zip, which loads only by unpickling"):
        make_policy("baseline", GAME, 2)
    with pytest.raises(PickleRefusedError, match="cardgym convert-model"):
        ModelPolicy.load(evil, game=GAME, num_players=2)
    with pytest.raises(AgentSpecError, match="loads only by unpickling"):
        SingleAgentEnv(GAME.env_id, 2, [f"model:{evil}"])
    with pytest.raises(PickleRefusedError):
        convert_model(evil)

    output = tmp_path / "runs"
    for argv in (
        ["eval", "power_hungry_pets", "--agents", f"model:{evil}", "random", "--games", "1",
         "--workers", "1"],
        ["eval", "power_hungry_pets", "--agents", str(evil), "random", "--games", "1"],
        ["arena", "--env", "power_hungry_pets", "--players", "2", "--agents", "random",
         f"model:{evil}", "--games", "1", "--workers", "1"],
        ["play", "power_hungry_pets", "--opponents", f"model:{evil}", "--seed", "0"],
        ["train", "power_hungry_pets", "--opponents", f"model:{evil}", "--timesteps", "64",
         "--output", str(output)],
        # --trust-pickle never reaches the baseline, wherever CARDGYM_MODELS points.
        ["eval", "power_hungry_pets", "--agents", "baseline", "random", "--trust-pickle"],
        ["convert-model", str(evil)],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "loads only by unpickling" in err and "runs any code" in err, argv
        assert "--trust-pickle" in err or "convert-model" in err, argv
    assert not marker.exists(), "a default path ran the file's code"
    assert not output.exists() and not weights_path(evil).exists()


def test_only_the_opt_in_loads_a_zip_and_says_so(
        trained: Any, run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(policy_file, "_ANNOUNCED", set())
    marker = tmp_path / "marker"
    evil = _booby_trap(run, tmp_path / "evil", marker)
    policy = make_policy(f"model+pickle:{evil}", GAME, 2)
    assert marker.read_text() == "the model file ran code"
    assert f"cardgym: unpickling {evil}" in capsys.readouterr().err
    observations, masks = _observations(20)
    expected, _ = trained.predict(observations, action_masks=masks, deterministic=True)
    rng = np.random.default_rng(0)
    assert [policy.act(o, m.astype(np.int8), rng) for o, m in zip(observations, masks,
                                                                  strict=True)] == expected.tolist()

    marker.unlink()
    monkeypatch.setattr(policy_file, "_ANNOUNCED", set())
    assert main(["eval", "power_hungry_pets", "--agents", str(evil), "random", "--games", "1",
                 "--workers", "1", "--trust-pickle"]) == 0
    captured = capsys.readouterr()
    assert marker.is_file() and "cardgym: unpickling" in captured.err
    assert f"model+pickle:{evil}" in captured.out, "the table names the opt-in"


def test_a_policy_file_beside_the_zip_is_loaded_instead_of_the_zip(
        trained: Any, run: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    evil = _booby_trap(run, tmp_path / "evil", marker)
    shutil.copy(run / "model.safetensors", weights_path(evil))
    make_policy(f"model:{evil}", GAME, 2)
    make_policy(f"model+pickle:{evil}", GAME, 2)
    assert not marker.exists()


def test_training_opponents_play_from_the_policy_file(run: Path) -> None:
    env = SingleAgentEnv(GAME.env_id, 2, [f"model:{run}/model.zip"], learner_seat=0)
    opponent = env.pool._fixed[f"model:{run}/model.zip"]
    assert isinstance(opponent, ModelPolicy)
    _, info = env.reset(seed=0)
    assert info["opponents"] == {"player_1": f"model:{run}/model.zip"}
    done, steps = False, 0
    while not done:
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        steps += 1
    assert steps > 0 and env.last_actor in (0, 1)


def test_trust_pickle_marks_only_the_specs_that_unpickle() -> None:
    assert [trust_pickle(spec) for spec in (
        "model:a/model.zip", "rllib:runs/x", "b/model.zip", "c.safetensors", "baseline",
        "random", "model+pickle:d.zip", "ismcts:iterations=5")] == [
        "model+pickle:a/model.zip", "rllib+pickle:runs/x", "model+pickle:b/model.zip",
        "model+pickle:c.safetensors", "baseline", "random", "model+pickle:d.zip",
        "ismcts:iterations=5"]


def test_an_rllib_checkpoint_needs_the_opt_in(tmp_path: Path) -> None:
    pytest.importorskip("ray.rllib")
    from agents.rllib.policy import CheckpointError

    marker = tmp_path / "marker"
    module = tmp_path / "run" / "checkpoint" / "learner_group" / "learner" / "rl_module" / "shared"
    module.mkdir(parents=True)
    (module / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(Trap(marker)))
    (module / "module_state.pkl").write_bytes(pickle.dumps(Trap(marker)))
    with pytest.raises(CheckpointError, match="loads only by unpickling.*rllib\\+pickle:PATH"):
        make_policy(f"rllib:{tmp_path / 'run'}", GAME, 2)
    assert not marker.exists()
    with pytest.raises(CheckpointError):  # what it unpickled is no module
        make_policy(f"rllib+pickle:{tmp_path / 'run'}", GAME, 2)
    assert marker.is_file(), "the opt-in is what unpickles the checkpoint"


# --------------------------------------------------------------- the converter


def test_convert_model_writes_a_policy_file_that_plays_like_the_zip(
        trained: Any, run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = _pickle_only(run, tmp_path / "old")
    card = read_card(archive)
    assert card is not None
    write_card(archive, {**card, "game": "cardgym/power_hungry_pets-v0"})  # an older layout
    assert main(["convert-model", str(archive)]) == 2
    assert "--trust-pickle" in capsys.readouterr().err and not weights_path(archive).exists()
    assert main(["convert-model", str(archive.parent), "--trust-pickle"]) == 0
    assert f"wrote {weights_path(archive)}" in capsys.readouterr().out
    converted = read_card(archive)
    assert converted is not None and converted["game"] == "cardgym/power_hungry_pets-v0"
    assert converted["policy"]["format"] == FORMAT and converted["converted_from"] == "model.zip"
    assert weights_path(archive).read_bytes() == (run / "model.safetensors").read_bytes()
    assert main(["convert-model", str(archive), "--trust-pickle"]) == 2
    assert "already exists; pass --overwrite" in capsys.readouterr().err

    bare = tmp_path / "bare" / "model.zip"
    bare.parent.mkdir()
    shutil.copy(archive, bare)
    with pytest.raises(ModelError, match=r"has no card .* \(--game, --players\)"):
        convert_model(bare, trust_pickle=True)
    convert_model(bare, trust_pickle=True, game="power_hungry_pets", num_players=2)
    policy = make_policy(f"model:{bare}", GAME, 2)
    observations, masks = _observations(50)
    expected, _ = trained.predict(observations, action_masks=masks, deterministic=True)
    rng = np.random.default_rng(0)
    assert [policy.act(o, m.astype(np.int8), rng) for o, m in zip(observations, masks,
                                                                  strict=True)] == expected.tolist()


# ------------------------------------------------- damaged or mismatched files


def _tensors(run: Path) -> dict[str, Any]:
    from safetensors.torch import load_file

    return load_file(str(run / "model.safetensors"))


def _save(tensors: dict[str, Any], folder: Path) -> None:
    from safetensors.torch import save_file

    save_file(tensors, str(folder / "model.safetensors"))


def _wrong_shape(run: Path, folder: Path) -> None:
    import torch

    tensors = _tensors(run)
    tensors["action_net.weight"] = torch.zeros(3, 16)
    _save(tensors, folder)


def _missing_tensor(run: Path, folder: Path) -> None:
    tensors = _tensors(run)
    del tensors["action_net.bias"]
    _save(tensors, folder)


def _not_finite(run: Path, folder: Path) -> None:
    tensors = _tensors(run)
    tensors["value_net.bias"][0] = float("nan")
    _save(tensors, folder)


def _truncated(run: Path, folder: Path) -> None:
    (folder / "model.safetensors").write_bytes((run / "model.safetensors").read_bytes()[:200])


def _edit_card(**changes: Any) -> Any:
    def edit(run: Path, folder: Path) -> None:
        card = json.loads((folder / "model.json").read_text())
        for key, value in changes.items():
            section, _, field = key.partition("__")
            if field:
                card[section][field] = value
            elif value is None:
                del card[section]
            else:
                card[section] = value
        (folder / "model.json").write_text(json.dumps(card))
    return edit


def _no_card(run: Path, folder: Path) -> None:
    (folder / "model.json").unlink()


@pytest.mark.parametrize(("damage", "message"), [
    (_wrong_shape, r"does not fit the network its card describes: action_net.weight is "
                   r"\(3, 16\), the network needs \(\d+, 16\)"),
    (_missing_tensor, "does not fit the network its card describes: missing action_net.bias"),
    (_not_finite, "tensors that are not finite floats: value_net.bias"),
    (_truncated, "cannot read .* as safetensors"),
    (_edit_card(game=KITTENS.env_id), f"was trained on {KITTENS.env_id}, not {GAME.env_id}"),
    (_edit_card(policy__net_arch=[64, 64]), "does not fit the network its card describes"),
    (_edit_card(policy__activation="os.system"), "activation must be one of Tanh, ReLU"),
    (_edit_card(policy__net_arch="big"), "net_arch must be a list of positive layer sizes"),
    (_edit_card(policy__observation_shape=[7]), r"expects observations \(7,\) and \d+ actions"),
    (_edit_card(policy=None), "has no policy section of format 'cardgym-policy/1'"),
    (_no_card, "has no model card .*model.json beside it"),
], ids=["wrong-shape", "missing-tensor", "not-finite", "truncated", "wrong-game",
        "card-net-arch", "card-activation", "card-net-arch-type", "card-observations",
        "card-no-policy", "no-card"])
def test_a_damaged_or_mismatched_policy_file_is_a_clear_error(
        run: Path, tmp_path: Path, damage: Any, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("model.safetensors", "model.json"):
        shutil.copy(run / name, tmp_path / name)
    damage(run, tmp_path)
    with pytest.raises(ModelError, match=message):
        ModelPolicy.load(tmp_path / "model.safetensors", game=GAME, num_players=2)
    assert main(["eval", "power_hungry_pets", "--agents", f"model:{tmp_path}", "random"]) == 2
    assert "error: agent 'model:" in capsys.readouterr().err
