"""A model plays only at the table size it was trained for (issue 17, section 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("safetensors")

from agents.policy_file import save_policy_file  # noqa: E402
from agents.sb3 import ModelError, ModelPolicy  # noqa: E402
from agents.single_agent import SingleAgentEnv  # noqa: E402
from agents.specs import make_policy  # noqa: E402
from cardgym.registration import find_game  # noqa: E402
from cardgym_cli import main  # noqa: E402

GAME = find_game("power_hungry_pets")


@pytest.fixture(scope="module")
def two_player_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder of an (untrained) 2-player model: model.zip, .safetensors, .json."""
    from sb3_contrib import MaskablePPO

    folder = tmp_path_factory.mktemp("run")
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(GAME.env_id, 2), seed=0, device="cpu",
                        policy_kwargs={"net_arch": [8]})
    model.save(folder / "model.zip")
    save_policy_file(model.policy, folder / "model.zip",
                     {"game": GAME.env_id, "players": 2, "options": {}})
    return folder


def test_a_two_player_model_loads_at_a_two_player_table(two_player_run: Path) -> None:
    assert isinstance(ModelPolicy.load(two_player_run, game=GAME, num_players=2), ModelPolicy)
    assert isinstance(make_policy(f"model:{two_player_run}", GAME, 2), ModelPolicy)


@pytest.mark.parametrize("count", [3, 4])
def test_a_two_player_model_at_another_table_is_a_model_error(two_player_run: Path,
                                                              count: int) -> None:
    message = rf"trained for 2 players, not {count}.*--players {count}"
    with pytest.raises(ModelError, match=message):
        ModelPolicy.load(two_player_run, game=GAME, num_players=count)
    with pytest.raises(ModelError, match=message):
        make_policy(f"model:{two_player_run / 'model.safetensors'}", GAME, count)


def test_the_pickle_path_checks_the_table_before_unpickling(two_player_run: Path,
                                                            tmp_path: Path) -> None:
    (tmp_path / "model.zip").write_bytes((two_player_run / "model.zip").read_bytes())
    (tmp_path / "model.json").write_text((two_player_run / "model.json").read_text())
    with pytest.raises(ModelError, match="trained for 2 players, not 3"):
        ModelPolicy.load(tmp_path / "model.zip", game=GAME, num_players=3, trust_pickle=True)


def test_eval_refuses_a_two_player_model_at_a_three_player_table(
    two_player_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["eval", "power_hungry_pets", "--players", "3", "--games", "2",
                   "--agents", f"model:{two_player_run}", "random"])
    assert status == 2
    assert "trained for 2 players, not 3" in capsys.readouterr().err
