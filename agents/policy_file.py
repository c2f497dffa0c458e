"""The cardgym policy file: a trained network as tensors and JSON, loaded without unpickling.

An SB3 model (``model.zip``) holds pickled Python objects, and ``MaskablePPO.load``
unpickles them: a crafted zip runs whatever code it carries the moment it is loaded.
So ``cardgym train`` also writes the policy network in a form that holds only data:

- ``model.safetensors``: the ``state_dict`` of the policy network (sb3-contrib's
  ``MaskableActorCriticPolicy``: policy and value layers) in the safetensors format,
  which is a JSON header and raw tensor bytes;
- the model card ``model.json`` beside it (the same card as ``model.zip``'s), whose
  ``policy`` section says how to rebuild the network: the format, the hidden layers
  (``net_arch``), the activation (one of :data:`ACTIVATIONS`), the observation
  shape and the number of actions.

Loading rebuilds the network from the card and the game's observation and action
spaces, checks every tensor's name and shape against it, and copies the tensors in
with ``load_state_dict``; nothing in either file is ever executed. The card must
name the game being played. :func:`convert_model` writes the policy file of an SB3
zip; it unpickles the zip, so it asks for ``trust_pickle=True``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.model_card import (
    ModelError,
    card_path,
    game_spaces,
    load_target,
    players_problem,
    read_card,
    write_card,
)
from cardgym.documents import parse_json
from cardgym.errors import DocumentError, shorten
from cardgym.files import atomic_save
from cardgym.registration import BoundGame, Game, find_game

__all__ = [
    "ACTIVATIONS",
    "FORMAT",
    "MAX_HEADER_BYTES",
    "MAX_PARAMETERS",
    "PickleRefusedError",
    "check_network_size",
    "convert_model",
    "describe_network",
    "expected_shapes",
    "load_network",
    "network_size",
    "read_header",
    "resolve_model_path",
    "save_policy_file",
    "unpickle_model",
    "weights_path",
]

#: The ``format`` of a card's ``policy`` section (and of the safetensors metadata).
FORMAT = "cardgym-policy/1"
WEIGHTS_SUFFIX = ".safetensors"
#: The activations a card may name, by the name of their ``torch.nn`` class.
ACTIVATIONS = ("Tanh", "ReLU", "ELU", "LeakyReLU", "GELU", "SiLU", "Sigmoid")

#: The largest network a policy file may hold (200 MB of float32), and so the largest
#: a run trains (:func:`check_network_size`).
MAX_PARAMETERS = 50_000_000

#: The longest safetensors header read (the format's own limit is 100 MB).
MAX_HEADER_BYTES = 1 << 20

#: Files this process has unpickled after an opt-in, each announced once.
_ANNOUNCED: set[str] = set()


class PickleRefusedError(ModelError):
    """A model that only loads by unpickling, asked for without the opt-in."""

    def __init__(self, path: Path, what: str = "an SB3 zip") -> None:
        weights = weights_path(path) if path.suffix == ".zip" else None
        beside = f"; there is no cardgym policy file {weights} beside it" if weights else ""
        convert = (f". To convert it once into the safe format, if you trust it: cardgym "
                   f"convert-model {path} --trust-pickle" if weights else "")
        super().__init__(
            f"{path} is {what}, which loads only by unpickling{beside}. Unpickling runs any "
            f"code the file carries, with your permissions: load it only if you trust whoever "
            f"made it. To load it anyway, pass --trust-pickle (or write the agent spec with "
            f"+pickle, e.g. model+pickle:PATH; in Python, trust_pickle=True){convert}"
        )


def announce_unpickling(path: Path, what: str) -> None:
    """Say on stderr, once per file and process, that a trusted file is being unpickled."""
    key = str(path)
    if key not in _ANNOUNCED:
        _ANNOUNCED.add(key)
        print(f"cardgym: unpickling {path} ({what}) as trusted; unpickling runs any code "
              "the file carries", file=sys.stderr, flush=True)


def weights_path(model_path: str | Path) -> Path:
    """The policy file beside a model: ``x.zip`` -> ``x.safetensors``."""
    return Path(model_path).with_suffix(WEIGHTS_SUFFIX)


def resolve_model_path(path: str | Path) -> tuple[Path, Path | None]:
    """The policy file and the SB3 zip a model path names: ``(weights, archive)``.

    A run folder names its ``model.safetensors`` and ``model.zip``; ``x.zip`` names
    itself and ``x.safetensors`` beside it; ``x.safetensors`` names only itself.
    Neither needs to exist.

    Raises:
        ModelError: the path is none of these.
    """
    path = Path(path)
    if path.is_dir():
        return path / f"model{WEIGHTS_SUFFIX}", path / "model.zip"
    if path.suffix == WEIGHTS_SUFFIX:
        return path, None
    if path.suffix == ".zip":
        return weights_path(path), path
    raise ModelError(f"model path {str(path)!r}: give a {WEIGHTS_SUFFIX} policy file, a .zip "
                     "saved by cardgym train (its policy file beside it is used), or a run folder")


# -------------------------------------------------------------------- writing


def describe_network(network: Any) -> dict[str, Any]:
    """The card's ``policy`` section for a MaskablePPO policy network.

    Raises:
        ModelError: the network is not the default MLP policy, which is all the
            format rebuilds.
    """
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import FlattenExtractor

    activation = getattr(network, "activation_fn", None)
    if (type(network) is not MaskableActorCriticPolicy
            or network.features_extractor_class is not FlattenExtractor
            or not network.share_features_extractor
            or getattr(activation, "__name__", None) not in ACTIVATIONS):
        raise ModelError(f"only MaskablePPO's default MLP policy (flattened observations, one "
                         f"of the activations {', '.join(ACTIVATIONS)}) has a policy file; "
                         f"this is {type(network).__name__} with "
                         f"{network.features_extractor_class.__name__} and {activation}")
    observation_space: Any = network.observation_space
    action_space: Any = network.action_space
    return {
        "format": FORMAT,
        "network": "sb3_contrib MaskableActorCriticPolicy",
        "net_arch": network.net_arch,
        "activation": activation.__name__,  # type: ignore[union-attr]
        "observation_shape": list(observation_space.shape),
        "actions": int(action_space.n),
    }


def save_policy_file(network: Any, model_path: str | Path, card: Mapping[str, Any]) -> Path:
    """Write the policy file beside ``model_path`` and the card with its ``policy`` section.

    Returns:
        The path of the ``.safetensors`` file.
    """
    from safetensors.torch import save_file

    section = describe_network(network)
    target = weights_path(model_path)
    tensors = {name: tensor.detach().cpu().contiguous()
               for name, tensor in network.state_dict().items()}
    atomic_save(lambda where: save_file(tensors, str(where), metadata={"format": FORMAT}),
                target)
    # The card last: a policy file with its card is whole.
    write_card(model_path, {**card, "policy": {**section, "weights": target.name}})
    return target


# -------------------------------------------------------------------- loading


def _section(card: Mapping[str, Any], weights: Path) -> dict[str, Any]:
    """The card's ``policy`` section, checked field by field."""
    section = card.get("policy")
    where = f"the card {card_path(weights)}"
    if not isinstance(section, dict) or section.get("format") != FORMAT:
        raise ModelError(f"{where} has no policy section of format {FORMAT!r}; write it with "
                         f"cardgym train or cardgym convert-model")
    arch = section.get("net_arch")
    layers = list(arch.values()) if isinstance(arch, dict) else [arch]
    if (isinstance(arch, dict) and set(arch) != {"pi", "vf"}) or not all(
            isinstance(layer, list) and all(type(units) is int and units > 0 for units in layer)
            for layer in layers):
        raise ModelError(f"{where}: net_arch must be a list of positive layer sizes or "
                         f"{{'pi': [...], 'vf': [...]}}, got {arch!r}")
    if section.get("activation") not in ACTIVATIONS:
        raise ModelError(f"{where}: activation must be one of {', '.join(ACTIVATIONS)}, "
                         f"got {section.get('activation')!r}")
    return section


def expected_shapes(section: Mapping[str, Any], observations: int,
                    actions: int) -> dict[str, tuple[int, ...]]:
    """The name and shape of every tensor of the network a card's ``policy`` section
    describes (SB3's ``MaskableActorCriticPolicy``: separate policy and value layers,
    an activation between them, a linear head on each)."""
    arch = section["net_arch"]
    layers = arch if isinstance(arch, dict) else {"pi": arch, "vf": arch}
    shapes: dict[str, tuple[int, ...]] = {}
    last = {}
    for key, net in (("pi", "policy_net"), ("vf", "value_net")):
        inputs = observations
        for index, units in enumerate(layers[key]):
            shapes[f"mlp_extractor.{net}.{2 * index}.weight"] = (units, inputs)
            shapes[f"mlp_extractor.{net}.{2 * index}.bias"] = (units,)
            inputs = units
        last[key] = inputs
    shapes["action_net.weight"] = (actions, last["pi"])
    shapes["action_net.bias"] = (actions,)
    shapes["value_net.weight"] = (1, last["vf"])
    shapes["value_net.bias"] = (1,)
    return shapes


def network_size(net_arch: Sequence[int] | Mapping[str, Sequence[int]], observations: int,
                 actions: int) -> int:
    """The parameters of the network with hidden layers ``net_arch`` for ``observations``
    inputs and ``actions`` actions (:func:`expected_shapes`), counted without building it,
    in Python integers (no size overflows the count)."""
    arch = ({key: list(layers) for key, layers in net_arch.items()}
            if isinstance(net_arch, Mapping) else list(net_arch))
    shapes = expected_shapes({"net_arch": arch}, observations, actions)
    return sum(math.prod(shape) for shape in shapes.values())


def check_network_size(net_arch: Sequence[int], observations: int, actions: int,
                       what: str) -> None:
    """Refuse hidden layers ``net_arch`` whose network would hold more than
    :data:`MAX_PARAMETERS` parameters, the most a policy file loads, before anything is
    built: a run trains no network that its own policy file could not hold.

    Args:
        what: the game the network plays, for the message (``"GAME at 2
            players"``).

    Raises:
        ValueError: starting ``net_arch``, naming the size asked for and the limit.
    """
    parameters = network_size(net_arch, observations, actions)
    if parameters > MAX_PARAMETERS:
        raise ValueError(
            f"net_arch {' '.join(map(str, net_arch))} makes a network of {parameters:,} "
            f"parameters for {what} ({observations} observation values, {actions} actions); "
            f"at most {MAX_PARAMETERS:,}, the most a policy file loads: use smaller layers")


def read_header(weights: Path) -> dict[str, tuple[int, ...]]:
    """The name and shape of every tensor in a safetensors file, read from its header
    alone (nothing is allocated for the tensors).

    Raises:
        ModelError: the file is too short, its header is longer than
            :data:`MAX_HEADER_BYTES` or than the file, not a JSON object, or describes
            tensors whose data does not lie in the file.
    """
    try:
        size = weights.stat().st_size
        with weights.open("rb") as handle:
            prefix = handle.read(8)
            length = int.from_bytes(prefix, "little") if len(prefix) == 8 else -1
            if not 0 < length <= min(MAX_HEADER_BYTES, size - 8):
                raise ModelError(f"cannot read {weights} as safetensors: its header length "
                                 f"{length} is not within the file ({size} bytes) and "
                                 f"{MAX_HEADER_BYTES} bytes")
            text = handle.read(length).decode("utf-8")
        header = parse_json(text, f"the header of {weights}", kind="object")
    except (OSError, UnicodeDecodeError, DocumentError) as error:
        raise ModelError(f"cannot read {weights} as safetensors: {error}") from None
    if not isinstance(header, dict):
        raise ModelError(f"cannot read {weights} as safetensors: its header is not a JSON "
                         "object")
    shapes = {}
    data = size - 8 - length
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        shape = entry.get("shape") if isinstance(entry, dict) else None
        offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
        if (not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape)
                or not isinstance(offsets, list) or len(offsets) != 2
                or not all(type(n) is int and 0 <= n <= data for n in offsets)):
            raise ModelError(f"cannot read {weights} as safetensors: the entry of "
                             f"{shorten(name)} is not a shape and data offsets within the "
                             f"file: {shorten(entry)}")
        shapes[str(name)] = tuple(shape)
    return shapes


def _check_sizes(section: Mapping[str, Any], weights: Path, observations: int,
                 actions: int) -> None:
    """Refuse a card whose network is larger than :data:`MAX_PARAMETERS`, or whose
    tensors are not the ones the file's header lists, before anything is built."""
    expected = expected_shapes(section, observations, actions)
    parameters = sum(math.prod(shape) for shape in expected.values())
    if parameters > MAX_PARAMETERS:
        raise ModelError(f"the card {card_path(weights)} describes a network of "
                         f"{parameters} parameters; at most {MAX_PARAMETERS} are loaded")
    found = read_header(weights)
    problems = [f"missing {name}" for name in expected if name not in found]
    problems += [f"unexpected {shorten(name)}" for name in found if name not in expected]
    problems += [f"{name} is {found[name]}, the network needs {shape}"
                 for name, shape in expected.items() if name in found and found[name] != shape]
    if problems:
        raise ModelError(f"{weights} does not fit the network its card describes: "
                         + "; ".join(problems[:6]) + ("; ..." if len(problems) > 6 else ""))


def _build(section: Mapping[str, Any], observation_space: Any, action_space: Any) -> Any:
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    # The layers' initial weights are about to be replaced: drawing them must not move
    # PyTorch's generator, or a training run would depend on how often its opponents'
    # checkpoints are loaded.
    with torch.random.fork_rng(devices=[]):
        return MaskableActorCriticPolicy(
            observation_space, action_space, lr_schedule=lambda _: 0.0,
            net_arch=section["net_arch"], activation_fn=getattr(torch.nn, section["activation"]),
            ortho_init=False,
        )


def _fill(network: Any, tensors: Mapping[str, Any], weights: Path) -> Any:
    """Copy ``tensors`` into ``network`` after checking every name and shape."""
    import torch

    expected = {name: tuple(tensor.shape) for name, tensor in network.state_dict().items()}
    found = {name: tuple(tensor.shape) for name, tensor in tensors.items()}
    problems = [f"missing {name}" for name in expected if name not in found]
    problems += [f"unexpected {name}" for name in found if name not in expected]
    problems += [f"{name} is {found[name]}, the network needs {shape}"
                 for name, shape in expected.items() if name in found and found[name] != shape]
    if problems:
        raise ModelError(f"{weights} does not fit the network its card describes: "
                         + "; ".join(problems[:6]) + ("; ..." if len(problems) > 6 else ""))
    bad = [name for name, tensor in tensors.items()
           if not (tensor.is_floating_point() and bool(torch.isfinite(tensor).all()))]
    if bad:
        raise ModelError(f"{weights}: tensors that are not finite floats: {', '.join(bad)}")
    network.load_state_dict(tensors, strict=True)
    network.set_training_mode(False)
    return network


def _read_tensors(weights: Path) -> dict[str, Any]:
    from safetensors.torch import load_file

    try:
        return load_file(str(weights), device="cpu")
    except Exception as error:  # a truncated or foreign file: say which
        raise ModelError(f"cannot read {weights} as safetensors: {error}") from error


def load_network(weights: str | Path, game: Game | BoundGame | None = None,
                 num_players: int | None = None,
                 options: Mapping[str, Any] | None = None) -> Any:
    """The policy network stored in a policy file, rebuilt for ``game``'s spaces.

    Args:
        weights: the ``.safetensors`` file; its card ``.json`` must be beside it.
        game: the game to play, or a bound game (its table size and options, with
            ``num_players`` and ``options`` left out); default the one the card names.
        num_players: seats at the table; it must be the card's ``players`` (the
            spaces do not depend on it, but the model learned one table size).
        options: rule options of the game.

    Raises:
        ModelError: a missing file or card, a card for another game or another
            player count, or tensors that do not fit the network the card and the game
            describe.
    """
    weights = Path(weights)
    bound, entry, num_players = load_target(game, num_players)
    if not weights.is_file():
        raise ModelError(f"model file {str(weights)!r} does not exist")
    card = read_card(weights)
    if card is None:
        raise ModelError(f"{weights} has no model card {card_path(weights)} beside it; the "
                         "card says which game and which network the weights are for")
    if entry is None:
        try:
            entry = find_game(str(card.get("game")))
        except ValueError as error:
            raise ModelError(f"{weights}: {error}") from None
    elif card.get("game") not in entry.env_ids:
        raise ModelError(f"{weights} was trained on {card.get('game')}, not {entry.env_id}")
    problem = players_problem(card, weights, num_players)
    if problem:
        raise ModelError(problem)
    section = _section(card, weights)
    observation_space, action_space = (game_spaces(bound) if bound is not None else
                                       game_spaces(entry, num_players, options))
    recorded = (tuple(section.get("observation_shape") or ()), section.get("actions"))
    if recorded != (observation_space.shape, action_space.n):
        raise ModelError(f"{weights} expects observations {recorded[0]} and {recorded[1]} "
                         f"actions; {entry.env_id} has {observation_space.shape} and "
                         f"{action_space.n}")
    _check_sizes(section, weights, int(np.prod(observation_space.shape)), int(action_space.n))
    tensors = _read_tensors(weights)
    return _fill(_build(section, observation_space, action_space), tensors, weights)


# ------------------------------------------------------------- the pickle side


def unpickle_model(archive: Path) -> Any:
    """``MaskablePPO.load`` an SB3 zip; only ever called after the user opted in."""
    import torch
    from sb3_contrib import MaskablePPO

    announce_unpickling(archive, "an SB3 zip, with MaskablePPO.load")
    torch.set_num_threads(1)
    try:
        return MaskablePPO.load(archive, device="cpu")
    except Exception as error:  # a corrupt or foreign zip: say which file
        raise ModelError(f"cannot load {archive} as a MaskablePPO model: {error}") from error


def convert_model(archive: str | Path, trust_pickle: bool = False, game: str | None = None,
                  num_players: int | None = None, overwrite: bool = False) -> Path:
    """Write the policy file of an SB3 zip beside it (``x.zip`` -> ``x.safetensors``).

    The card ``x.json`` keeps everything it had (its game too) and gains the
    ``policy`` section; without a card, ``game`` and ``num_players`` make one. The
    written file is checked to give the zip's action probabilities exactly.

    Raises:
        PickleRefusedError: without ``trust_pickle``: the zip must be unpickled.
        ModelError: a missing zip, no card and no ``game``, a policy file already
            there (unless ``overwrite``), or a network the format cannot hold.
    """
    import torch

    archive = Path(archive)
    if archive.is_dir():
        archive = archive / "model.zip"
    if archive.suffix != ".zip" or not archive.is_file():
        raise ModelError(f"{str(archive)!r} is not an SB3 .zip file (or a run folder with one)")
    target = weights_path(archive)
    if target.exists() and not overwrite:
        raise ModelError(f"{target} already exists; pass --overwrite to replace it")
    card = read_card(archive)
    if card is None:
        if game is None or num_players is None:
            raise ModelError(f"{archive} has no card {card_path(archive)}: give the game and "
                             "the player count it was trained for (--game, --players)")
        card = {"game": find_game(game).env_id, "players": num_players, "options": {},
                "algorithm": "MaskablePPO (sb3-contrib)"}
    if not trust_pickle:
        raise PickleRefusedError(archive)
    model = unpickle_model(archive)
    section = describe_network(model.policy)
    rebuilt = _fill(_build(section, model.observation_space, model.action_space),
                    {name: tensor.detach().cpu() for name, tensor in
                     model.policy.state_dict().items()}, archive)
    rng = np.random.default_rng(0)
    probe = torch.as_tensor(rng.random((64, *model.observation_space.shape), dtype=np.float32))
    model.policy.set_training_mode(False)
    with torch.no_grad():
        same = torch.equal(model.policy.get_distribution(probe).distribution.probs,
                           rebuilt.get_distribution(probe).distribution.probs)
    if not same:
        raise ModelError(f"the network rebuilt from {archive} does not reproduce it; nothing "
                         "written")
    card = {**card, "converted_from": archive.name}
    return save_policy_file(model.policy, archive, card)
