"""A policy network trained towards the search: its action distribution towards the
search's choice (cross-entropy over the legal actions, to the visit shares sharpened by
a temperature: at 0 the most-visited action alone, the move the search played) and its
value head towards the seat's return (squared error), by Adam over shuffled minibatches.

The network is sb3-contrib's ``MaskableActorCriticPolicy`` (what ``cardgym train``
writes and :class:`agents.sb3.ModelPolicy` loads); it is trained in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.expert.samples import Samples

__all__ = ["Epoch", "FitSettings", "fit", "losses", "targets"]


@dataclass(frozen=True)
class FitSettings:
    """How the network learns from one window of samples.

    Attributes:
        epochs: passes over the samples.
        batch_size: samples per gradient step.
        learning_rate: Adam's step size.
        value_weight: the weight of the value loss beside the policy loss.
        temperature: the policy's targets are the visit shares raised to the power
            ``1 / temperature`` and normalised; 0: the most-visited action alone (the
            search's move, ties to the lower index), 1: the shares themselves.
    """

    epochs: int = 4
    batch_size: int = 256
    learning_rate: float = 1e-4
    value_weight: float = 0.5
    temperature: float = 0.0

    def __post_init__(self) -> None:
        for name in ("epochs", "batch_size"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be 1 or more, got {getattr(self, name)}")
        for name in ("learning_rate", "value_weight", "temperature"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name} must be 0 or more, got {getattr(self, name)}")


@dataclass(frozen=True)
class Epoch:
    """Mean losses over one pass: cross-entropy to the visit shares, and the value's
    squared error."""

    policy_loss: float
    value_loss: float


def targets(visits: np.ndarray, temperature: float) -> np.ndarray:
    """The policy's targets from visit shares (rows of ``visits``) at ``temperature``."""
    if temperature == 0:
        out = np.zeros_like(visits)
        out[np.arange(len(visits)), visits.argmax(axis=1)] = 1
        return out
    sharpened = visits.astype(np.float64) ** (1 / temperature)
    return (sharpened / sharpened.sum(axis=1, keepdims=True)).astype(visits.dtype)


def _batch_losses(network: Any, samples: Samples, rows: np.ndarray,
                  temperature: float) -> tuple[Any, Any]:
    import torch

    obs = torch.as_tensor(samples.observations[rows])
    masks = samples.masks[rows].astype(bool)
    target = torch.as_tensor(targets(samples.visits[rows], temperature))
    distribution = network.get_distribution(obs, action_masks=masks)
    logits = distribution.distribution.logits
    log_probs = torch.log_softmax(logits, dim=-1)
    # Outside the mask the target is 0 and the log-probability very negative but finite.
    policy_loss = -(target * torch.where(target > 0, log_probs, torch.zeros_like(log_probs))
                    ).sum(dim=-1).mean()
    values = network.predict_values(obs).reshape(-1)
    value_loss = torch.mean((values - torch.as_tensor(samples.returns[rows])) ** 2)
    return policy_loss, value_loss


def losses(network: Any, samples: Samples, temperature: float = 0.0) -> Epoch:
    """The network's mean losses on ``samples`` (targets at ``temperature``), without
    training."""
    import torch

    if not len(samples):
        raise ValueError("no samples to measure the losses on")
    network.set_training_mode(False)
    with torch.no_grad():
        policy_loss, value_loss = _batch_losses(network, samples, np.arange(len(samples)),
                                                temperature)
    return Epoch(float(policy_loss), float(value_loss))


def fit(network: Any, samples: Samples, settings: FitSettings,
        rng: np.random.Generator) -> list[Epoch]:
    """Train ``network`` on ``samples``; the mean losses of each epoch.

    Raises:
        ValueError: no samples.
    """
    import torch

    if not len(samples):
        raise ValueError("no samples to train on: the search made no decision with a "
                         "choice")
    optimizer = torch.optim.Adam(network.parameters(), lr=settings.learning_rate)
    network.set_training_mode(True)
    epochs = []
    try:
        for _ in range(settings.epochs):
            order = rng.permutation(len(samples))
            totals = [0.0, 0.0]
            for start in range(0, len(order), settings.batch_size):
                rows = order[start:start + settings.batch_size]
                policy_loss, value_loss = _batch_losses(network, samples, rows,
                                                        settings.temperature)
                loss = policy_loss + settings.value_weight * value_loss
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                totals[0] += policy_loss.item() * len(rows)
                totals[1] += value_loss.item() * len(rows)
            epochs.append(Epoch(totals[0] / len(order), totals[1] / len(order)))
    finally:
        network.set_training_mode(False)
    return epochs
