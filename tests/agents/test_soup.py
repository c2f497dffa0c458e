"""``cardgym soup``: the weighted mean of policy files, and what it refuses.

The ingredients are small networks built here with random weights, written as policy
files the way ``cardgym train`` writes them; never the shipped baselines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("safetensors")

from agents.model_card import ModelError, game_spaces  # noqa: E402
from agents.policy_file import _build, load_network, save_policy_file  # noqa: E402
from agents.soup import average_policies, soup_weights  # noqa: E402
from agents.specs import make_policy  # noqa: E402
from cardgym.files import OutputError, file_digests  # noqa: E402
from cardgym.registration import find_game  # noqa: E402
from cardgym_cli import main  # noqa: E402

GAME = find_game("power_hungry_pets")


def ingredient(folder: Path, seed: int, net_arch: list[int] | None = None,
               game: Any = GAME, players: int = 2, timesteps: int = 1000) -> Path:
    """A run folder holding a policy file of random weights drawn from ``seed``."""
    import torch

    section = {"net_arch": net_arch or [16, 8], "activation": "Tanh"}
    network = _build(section, *game_spaces(game, players))
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for tensor in network.state_dict().values():
            tensor.copy_(torch.randn(tensor.shape, generator=generator))
    folder.mkdir(parents=True)
    save_policy_file(network, folder / "model.zip",
                     {"game": game.env_id, "players": players, "options": {},
                      "algorithm": "MaskablePPO (sb3-contrib)", "timesteps": timesteps})
    return folder


def tensors(folder: Path) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return load_file(str(folder / "model.safetensors"))


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    return ingredient(tmp_path / "a", 1), ingredient(tmp_path / "b", 2, timesteps=2000)


def test_the_soup_holds_the_mean_of_every_tensor_and_its_card_names_the_ingredients(
        pair: tuple[Path, Path], tmp_path: Path) -> None:
    written = average_policies(pair, tmp_path / "soup")
    assert written == tmp_path / "soup" / "model.safetensors"
    first, second, soup = tensors(pair[0]), tensors(pair[1]), tensors(tmp_path / "soup")
    assert set(soup) == set(first)
    for name in first:
        assert soup[name].dtype == first[name].dtype
        np.testing.assert_allclose(soup[name], (first[name] + second[name]) / 2, rtol=1e-6)
    card = json.loads((tmp_path / "soup" / "model.json").read_text(encoding="utf-8"))
    assert (card["game"], card["players"], card["options"]) == (GAME.env_id, 2, {})
    parts = card["soup"]["ingredients"]
    digests = file_digests(folder / "model.safetensors" for folder in pair)
    assert [(p["path"], p["sha256"], p["weight"], p["timesteps"]) for p in parts] == [
        (str(pair[0] / "model.safetensors"), digests[str(pair[0] / "model.safetensors")], 0.5,
         1000),
        (str(pair[1] / "model.safetensors"), digests[str(pair[1] / "model.safetensors")], 0.5,
         2000)]


def test_weights_mix_the_ingredients_in_proportion(pair: tuple[Path, Path],
                                                   tmp_path: Path) -> None:
    average_policies(pair, tmp_path / "soup", weights=[3, 1])
    first, second, soup = tensors(pair[0]), tensors(pair[1]), tensors(tmp_path / "soup")
    for name in first:
        np.testing.assert_allclose(soup[name], 0.75 * first[name] + 0.25 * second[name],
                                   rtol=1e-5, atol=1e-6)


def test_a_soup_of_one_network_with_itself_plays_exactly_like_it(tmp_path: Path) -> None:
    import torch

    folder = ingredient(tmp_path / "a", 5)
    average_policies([folder, folder / "model.safetensors"], tmp_path / "soup")
    spaces = game_spaces(GAME, 2)
    probe = torch.as_tensor(np.random.default_rng(0).random((32, *spaces[0].shape),
                                                            dtype=np.float32))
    original, soup = (load_network(path / "model.safetensors") for path in
                      (folder, tmp_path / "soup"))
    with torch.no_grad():
        assert torch.equal(original.get_distribution(probe).distribution.probs,
                           soup.get_distribution(probe).distribution.probs)


def test_the_soup_plays_as_a_model_spec(pair: tuple[Path, Path], tmp_path: Path) -> None:
    average_policies(pair, tmp_path / "soup")
    policy = make_policy(f"model:{tmp_path / 'soup'}", GAME, 2)
    env = GAME.make_env(num_players=2)
    env.reset(seed=3)
    seen = env.observe(env.agent_selection)
    action = policy.act(seen["observation"], seen["action_mask"], np.random.default_rng(0))
    assert seen["action_mask"][action] == 1


@pytest.mark.parametrize(("weights", "count", "message"), [
    (None, 1, "at least two"),
    ([1.0], 2, "one weight per policy file: 2 files, 1 weights"),
    ([1.0, -1.0], 2, "positive finite"),
    ([1.0, float("nan")], 2, "positive finite"),
    ([0.0, 1.0], 2, "positive finite"),
])
def test_bad_weights_are_refused(weights: list[float] | None, count: int,
                                 message: str) -> None:
    with pytest.raises(ModelError, match=message):
        soup_weights(weights, count)


def test_weights_are_normalised() -> None:
    assert soup_weights([2, 6], 2) == [0.25, 0.75]
    assert soup_weights(None, 4) == [0.25] * 4


@pytest.mark.parametrize(("other", "message"), [
    ({"net_arch": [16, 16]}, r"net_arch \[16, 16\] \(the first has \[16, 8\]\)"),
    ({"players": 3}, r"players 3 \(the first has 2\)"),
    ({"game": find_game("karel_kakelaar")},
     r"game 'cardgym/karel_kakelaar-v2' \(the first has 'cardgym/power_hungry_pets-v2'\)"),
])
def test_ingredients_of_different_networks_or_tables_are_refused_and_nothing_is_written(
        tmp_path: Path, other: dict[str, Any], message: str) -> None:
    first = ingredient(tmp_path / "a", 1)
    second = ingredient(tmp_path / "b", 2, **other)
    with pytest.raises(ModelError, match=message):
        average_policies([first, second], tmp_path / "soup")
    assert not (tmp_path / "soup").exists()


def test_a_missing_policy_file_is_refused(tmp_path: Path) -> None:
    first = ingredient(tmp_path / "a", 1)
    (tmp_path / "zip-only").mkdir()
    (tmp_path / "zip-only" / "model.zip").write_bytes(b"PK")
    with pytest.raises(ModelError, match="has no policy file .*convert-model"):
        average_policies([first, tmp_path / "zip-only"], tmp_path / "soup")
    assert not (tmp_path / "soup").exists()


def test_an_output_folder_with_files_is_kept_unless_overwrite(pair: tuple[Path, Path],
                                                              tmp_path: Path) -> None:
    average_policies(pair, tmp_path / "soup")
    before = tensors(tmp_path / "soup")
    with pytest.raises(OutputError, match="not empty; pass --overwrite"):
        average_policies(pair, tmp_path / "soup", weights=[1, 3])
    assert all(np.array_equal(before[k], v) for k, v in tensors(tmp_path / "soup").items())
    average_policies(pair, tmp_path / "soup", weights=[1, 3], overwrite=True)
    assert not all(np.array_equal(before[k], v)
                   for k, v in tensors(tmp_path / "soup").items())


def test_the_command_writes_the_soup_and_says_so(pair: tuple[Path, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "soup"
    assert main(["soup", str(out), str(pair[0]), str(pair[1]), "--weights", "1", "1"]) == 0
    assert f"wrote {out / 'model.safetensors'}" in capsys.readouterr().out
    assert (out / "model.json").is_file()


@pytest.mark.parametrize(("extra", "message"), [
    (["--weights", "1"], "one weight per policy file"),
    (["--weights", "1", "-2"], "-2"),
])
def test_the_command_refuses_bad_input_with_status_2_and_writes_nothing(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        extra: list[str], message: str) -> None:
    out = tmp_path / "soup"
    assert main(["soup", str(out), str(pair[0]), str(pair[1]), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_the_command_refuses_a_file_as_the_output(pair: tuple[Path, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "taken.txt"
    target.write_text("kept", encoding="utf-8")
    assert main(["soup", str(target), str(pair[0]), str(pair[1])]) == 2
    assert "is a file; give a folder" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "kept"


def test_a_folder_another_process_is_writing_into_is_refused_and_left_alone(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agents.runs import RunInUseError, hold_run_folder

    out = tmp_path / "soup"
    with hold_run_folder(out):  # the lock another writer holds while it writes
        with pytest.raises(RunInUseError, match="being written by another process"):
            average_policies(pair, out, overwrite=True)
        assert main(["soup", str(out), str(pair[0]), str(pair[1]), "--overwrite"]) == 2
        assert "being written by another process" in capsys.readouterr().err
    assert [path.name for path in out.iterdir()] == [".lock"]


def test_files_that_appear_while_the_ingredients_are_read_are_kept(
        pair: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.soup

    out = tmp_path / "soup"
    read = agents.soup._ingredient

    def read_while_another_writes(source: str | Path) -> Any:
        out.mkdir(exist_ok=True)
        (out / "model.json").write_text("theirs", encoding="utf-8")
        return read(source)

    monkeypatch.setattr(agents.soup, "_ingredient", read_while_another_writes)
    with pytest.raises(OutputError, match=r"not empty \(model.json\)"):
        average_policies(pair, out)
    assert (out / "model.json").read_text(encoding="utf-8") == "theirs"
    assert not (out / "model.safetensors").exists()
