"""PPO's action-masking RLModule on RLlib's current API (needs the ``rllib`` extra).

The same masking as RLlib's example ``ActionMaskingTorchRLModule``
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm``), which the training
used before; that example still subclasses the deprecated alias ``PPOTorchRLModule``,
and importing it logs a deprecation warning that "will raise an error in the future".
:class:`ActionMaskingModule` subclasses ``DefaultPPOTorchRLModule`` and takes the
keyword constructor (``observation_space=..., model_config=...``), so it keeps
working when the alias goes.

Observations are dicts of :data:`~agents.rllib.OBSERVATIONS` (the flat vector the
networks see) and :data:`~agents.rllib.ACTION_MASK` (1.0 = legal); the logits of
illegal actions are pushed to the smallest float, so they are never sampled.

Ray 2.60's own ``RLModule.__init__`` still builds a deprecated ``RLModuleConfig``
for every module, whatever the caller passes, and logs that ``RLModule(config=...)``
is deprecated. Nothing here calls it that way, so :func:`quiet_internal_deprecation`
drops exactly that one log line (and nothing else) from Ray's deprecation logger.
"""

from __future__ import annotations

import logging
from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from agents.rllib import ACTION_MASK, OBSERVATIONS

__all__ = ["ActionMaskingModule", "quiet_internal_deprecation"]

#: Ray's logger of deprecations, and the one message of it that Ray's own code causes.
DEPRECATION_LOGGER = "ray._common.deprecation"
INTERNAL_MESSAGE = "`RLModule(config=[RLModuleConfig object])` has been deprecated"


class _DropInternalDeprecation(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return INTERNAL_MESSAGE not in record.getMessage()


def quiet_internal_deprecation() -> None:
    """Drop Ray's log line about ``RLModule(config=...)``, which its own
    ``RLModule.__init__`` causes for every module (idempotent)."""
    logger = logging.getLogger(DEPRECATION_LOGGER)
    if not any(isinstance(f, _DropInternalDeprecation) for f in logger.filters):
        logger.addFilter(_DropInternalDeprecation())


quiet_internal_deprecation()


class ActionMaskingModule(DefaultPPOTorchRLModule):  # type: ignore[misc]
    """PPO's default torch module over the observation vector, with masked logits."""

    def __init__(self, *, observation_space: gym.Space[Any] | None = None,
                 action_space: gym.Space[Any] | None = None, **kwargs: Any) -> None:
        if not (isinstance(observation_space, gym.spaces.Dict)
                and {OBSERVATIONS, ACTION_MASK} <= set(observation_space.spaces)):
            raise ValueError(f"ActionMaskingModule needs a Dict observation space with the "
                             f"keys {OBSERVATIONS!r} and {ACTION_MASK!r}, got "
                             f"{observation_space}")
        # The networks are built for the observation vector alone; the module keeps
        # the whole space, mask included, as its observation space after setup().
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBSERVATIONS],
                         action_space=action_space, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        outputs = super()._forward_train(batch, **kwargs)
        return self._masked(outputs, batch[ACTION_MASK])

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], dict):
            mask, batch = self._split(batch)
            # _forward_train of the same batch reads the mask from here.
            batch[ACTION_MASK] = mask
        return super().compute_values(batch, embeddings)

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """The mask, and the batch with the observation vector as its observations."""
        observations = batch[Columns.OBS]
        if not isinstance(observations, dict) or ACTION_MASK not in observations:
            raise ValueError(f"ActionMaskingModule needs observations with the keys "
                             f"{OBSERVATIONS!r} and {ACTION_MASK!r}")
        mask = observations.pop(ACTION_MASK)
        batch[Columns.OBS] = observations.pop(OBSERVATIONS)
        return mask, batch

    @staticmethod
    def _masked(outputs: dict[str, Any], mask: Any) -> dict[str, Any]:
        outputs[Columns.ACTION_DIST_INPUTS] = (
            outputs[Columns.ACTION_DIST_INPUTS] + torch.clamp(torch.log(mask), min=FLOAT_MIN))
        return outputs
