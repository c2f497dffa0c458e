"""A policy file whose weights are the (weighted) mean of other policy files' weights.

Networks fine-tuned from a common parent tend to stay in one basin of the loss, and
the element-wise mean of their weights (a "model soup", Wortsman et al., 2022) often
plays better than any one of them; averaging networks that were trained apart from
each other does not work. :func:`average_policies` checks that the ingredients are
the same network for the same game (the card's game, players, options and policy
section), averages every tensor, and writes a policy file (``model.safetensors``
and its card ``model.json``) into a folder, which plays as ``model:FOLDER``. The
card names each ingredient by path and content digest, with its weight.

Nothing is unpickled: the ingredients are read as policy files
(:mod:`agents.policy_file`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.model_card import ModelError, read_card
from agents.policy_file import load_network, resolve_model_path, save_policy_file
from agents.runs import LOCK_FILE, RunInUseError, hold_lock
from cardgym.files import OutputError, check_output_folder, file_digests
from cardgym.registration import games

__all__ = ["SAME_NETWORK_KEYS", "average_policies", "soup_weights"]

#: The card fields (and the ``policy`` section's fields) that must agree between
#: ingredients: the same game, table, rules and network shape.
SAME_NETWORK_KEYS = ("game", "players", "options")
_SAME_POLICY_KEYS = ("format", "net_arch", "activation", "observation_shape", "actions")


def soup_weights(weights: Sequence[float] | None, count: int) -> list[float]:
    """The mixing weights, normalised to sum to 1 (equal when ``weights`` is None).

    Raises:
        ModelError: fewer than two ingredients, a count of weights other than the
            ingredients', or a weight that is not a positive finite number.
    """
    if count < 2:
        raise ModelError(f"a soup needs at least two policy files, got {count}")
    if weights is None:
        return [1.0 / count] * count
    if len(weights) != count:
        raise ModelError(f"give one weight per policy file: {count} files, "
                         f"{len(weights)} weights")
    bad = [w for w in weights if not (isinstance(w, (int, float)) and math.isfinite(w) and w > 0)]
    if bad:
        raise ModelError(f"weights must be positive finite numbers, got {bad[0]!r}")
    total = float(sum(weights))
    return [float(w) / total for w in weights]


def _ingredient(source: str | Path) -> tuple[Path, dict[str, Any], Any]:
    """The policy file a source names, its card and its network."""
    weights, _ = resolve_model_path(source)
    if not weights.is_file():
        raise ModelError(f"{str(source)!r} has no policy file {weights}; give a run folder "
                         "or a .safetensors file written by cardgym train (an SB3 zip alone: "
                         "cardgym convert-model first)")
    network = load_network(weights)
    card = read_card(weights)
    assert card is not None  # load_network refused a file without one
    return weights, card, network


def _same(key: str, one: Any, other: Any) -> bool:
    """Whether two cards agree on ``key``: for ``game``, env versions of one game
    count as the same game (they share actions and observations)."""
    if key == "game" and one != other and isinstance(one, str) and isinstance(other, str):
        return any(one in game.env_ids and other in game.env_ids for game in games())
    return bool(one == other)


def _differences(first: dict[str, Any], other: dict[str, Any]) -> list[str]:
    problems = [f"{key} {other.get(key)!r} (the first has {first.get(key)!r})"
                for key in SAME_NETWORK_KEYS if not _same(key, first.get(key), other.get(key))]
    policy, theirs = first.get("policy") or {}, other.get("policy") or {}
    problems += [f"{key} {theirs.get(key)!r} (the first has {policy.get(key)!r})"
                 for key in _SAME_POLICY_KEYS if theirs.get(key) != policy.get(key)]
    return problems


def average_policies(sources: Sequence[str | Path], output: str | Path,
                     weights: Sequence[float] | None = None,
                     overwrite: bool = False) -> Path:
    """Write the weighted mean of the policy files ``sources`` into the folder ``output``.

    Args:
        sources: run folders or ``.safetensors`` policy files, at least two, all of the
            same network for the same game, player count and rule options.
        output: the folder to write ``model.safetensors`` and ``model.json`` into
            (made if missing; it must be empty unless ``overwrite``).
        weights: one positive weight per source (normalised); default equal.
        overwrite: write into a folder that already holds files.

    Returns:
        The path of the written ``model.safetensors``.

    Raises:
        ModelError: bad weights, a missing or damaged policy file, ingredients that
            differ in game, table, options or network. Nothing is written then.
        OutputError: ``output`` is a link or a file, or a folder that holds files
            without ``overwrite`` (checked first, and again once the folder is held);
            or the files could not be written.
        RunInUseError: another process is writing into ``output`` (the folder is
            held, with a lock file ``.lock`` in it, while the soup is written, so two
            soups never mix one's weights with the other's card).
    """
    import torch

    mix = soup_weights(weights, len(sources))
    folder = check_output_folder(output, "the soup's folder", overwrite)
    model_path = folder / "model.zip"  # names model.safetensors and model.json beside it
    ingredients = [_ingredient(source) for source in sources]
    first_path, first_card, network = ingredients[0]
    for path, card, _ in ingredients[1:]:
        problems = _differences(first_card, card)
        if problems:
            raise ModelError(f"{path} is not the same network as {first_path}: "
                             + "; ".join(problems))
    states = [net.state_dict() for _, _, net in ingredients]
    mean = {name: sum(w * state[name].double() for w, state in zip(mix, states, strict=True))
            for name in states[0]}
    with torch.no_grad():
        network.load_state_dict({name: tensor.to(states[0][name].dtype)
                                 for name, tensor in mean.items()}, strict=True)
    digests = file_digests(path for path, _, _ in ingredients)
    card = {
        "algorithm": "mean of the weights of MaskablePPO policies (cardgym soup)",
        **{key: first_card.get(key) for key in SAME_NETWORK_KEYS},
        "soup": {
            "method": "weighted mean of every tensor",
            "ingredients": [
                {"path": str(path), "sha256": digests[str(path)], "weight": w,
                 "timesteps": card.get("timesteps")}
                for (path, card, _), w in zip(ingredients, mix, strict=True)],
        },
    }
    def in_use(holder: str) -> Exception:
        return RunInUseError(f"{folder} is being written by another process ({holder}); "
                             "wait for it to end, or give another folder")

    with hold_lock(folder / LOCK_FILE, in_use, "make the soup's folder"):
        held = sorted(path.name for path in folder.iterdir() if path.name != LOCK_FILE)
        if held and not overwrite:  # written into while the ingredients were read
            raise OutputError(f"the soup's folder: {folder} is not empty ({', '.join(held)}); "
                              "pass --overwrite to write into it, or give a new folder")
        return save_policy_file(network, model_path, card)
