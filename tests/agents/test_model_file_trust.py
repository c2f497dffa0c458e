"""A policy file and its card are checked before anything is built from them: a card
that is not a JSON object of the right fields, a network larger than the loader's
bound, or a file whose header lists other tensors than the card's network, is a
:class:`ModelError` and allocates nothing."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path
from typing import Any

import pytest

from agents.model_card import ModelError, read_card
from agents.policy_file import MAX_PARAMETERS, load_network, read_header

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "karel_kakelaar-2p"


@pytest.fixture
def policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of a shipped policy file and card, and a loader that fails the test if
    it builds a network from a file that is refused."""
    for name in ("model.safetensors", "model.json"):
        shutil.copy(SHIPPED / name, tmp_path / name)
    return tmp_path / "model.safetensors"


def edit_card(weights: Path, **policy: Any) -> None:
    card = json.loads(weights.with_suffix(".json").read_text())
    card["policy"].update(policy)
    weights.with_suffix(".json").write_text(json.dumps(card))


def no_building(monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.policy_file as policy_file

    def refuse(*_: Any) -> None:
        raise AssertionError("the network was built before the file was checked")

    monkeypatch.setattr(policy_file, "_build", refuse)


def test_the_shipped_file_loads_and_its_header_lists_the_cards_network(policy: Path) -> None:
    header = read_header(policy)
    assert header["mlp_extractor.policy_net.0.weight"] == (256, 528)
    assert load_network(policy) is not None


def test_a_card_asking_for_a_huge_network_is_refused_before_it_is_built(
        policy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit_card(policy, net_arch=[200_000, 200_000])
    no_building(monkeypatch)
    with pytest.raises(ModelError, match=f"parameters; at most {MAX_PARAMETERS} are loaded"):
        load_network(policy)


def test_a_card_whose_network_is_not_the_files_is_refused_before_it_is_built(
        policy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit_card(policy, net_arch=[512, 512])
    no_building(monkeypatch)
    with pytest.raises(ModelError, match=r"mlp_extractor.policy_net.0.weight is \(256, 528\), "
                                         r"the network needs \(512, 528\)"):
        load_network(policy)


@pytest.mark.parametrize(("header", "message"), [
    (struct.pack("<Q", 2**62), "header length 4611686018427387904 is not within the file"),
    (struct.pack("<Q", 5) + b"[1,2]", "its header is not a JSON object"),
    (struct.pack("<Q", 4) + b"{]]]", "not a JSON object"),
    (struct.pack("<Q", 62) + b'{"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}',
     "the entry of 'a' is not a shape and data offsets within the file"),
])
def test_a_damaged_header_is_a_model_error(policy: Path, monkeypatch: pytest.MonkeyPatch,
                                           header: bytes, message: str) -> None:
    policy.write_bytes(header)
    no_building(monkeypatch)
    with pytest.raises(ModelError, match=message):
        load_network(policy)


@pytest.mark.parametrize(("text", "message"), [
    ("this is not JSON", "not a JSON object"),
    ("[1, 2, 3]", "must be a JSON object, got list"),
    ('{"game": "karel_kakelaar", "players": NaN}', "NaN"),
    ('{"game": "karel_kakelaar", "players": 2.5}', "players must be an integer, got 2.5"),
    ('{"game": "karel_kakelaar", "players": true}', "players must be an integer, got True"),
    ('{"game": 7}', "game must be a string, got 7"),
    ('{"options": [1]}', r"options must be a JSON object, got \[1\]"),
    ('{"a": ' * 5000 + "1" + "}" * 5000, "nested"),
])
def test_a_card_that_is_not_a_json_object_of_the_right_fields_is_a_model_error(
        policy: Path, text: str, message: str) -> None:
    policy.with_suffix(".json").write_text(text)
    with pytest.raises(ModelError, match=message) as refused:
        read_card(policy)
    assert len(str(refused.value)) < 400, "the value is shortened"
    with pytest.raises(ModelError):
        load_network(policy)
