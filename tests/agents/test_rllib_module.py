"""The RLlib training module is on RLlib's current API: building it logs no
deprecation warning, and it masks illegal actions (issue 17, section 4)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from agents.rllib import ACTION_MASK, OBSERVATIONS  # noqa: E402
from agents.rllib.env import CardGameMultiAgentEnv  # noqa: E402
from agents.rllib.train import RllibTrainArgs, build_config  # noqa: E402


def _spaces() -> tuple[object, object]:
    env = CardGameMultiAgentEnv({"game": "power_hungry_pets", "num_players": 2})
    agent = env.possible_agents[0]
    return env.observation_spaces[agent], env.action_spaces[agent]


class Collect(logging.Handler):
    """Collects the records of Ray's loggers (they do not propagate to the root,
    so pytest's caplog never sees them)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def ray_log() -> Collect:
    handler = Collect()
    logger = logging.getLogger("ray")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


def test_the_collector_sees_rays_deprecation_warnings(ray_log: Collect) -> None:
    from ray._common.deprecation import deprecation_warning

    deprecation_warning(old="something_old", new="something_new", error=False)
    assert any("something_old" in message for message in ray_log.messages)


def test_the_training_config_builds_modules_without_deprecation_warnings(
    ray_log: Collect,
) -> None:
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    config = build_config(RllibTrainArgs(game="power_hungry_pets", net_arch=(16,)))
    spec = config.rl_module_spec.rl_module_specs["shared"]
    observation_space, action_space = _spaces()
    module = RLModuleSpec(module_class=spec.module_class, observation_space=observation_space,
                          action_space=action_space, model_config=spec.model_config).build()
    assert type(module).__name__ == "ActionMaskingModule"
    assert type(module).__mro__[1].__name__ == "DefaultPPOTorchRLModule"
    assert [message for message in ray_log.messages if "deprecat" in message.lower()] == []


def test_the_module_never_gives_an_illegal_action_probability() -> None:
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from agents.rllib.module import ActionMaskingModule

    observation_space, action_space = _spaces()
    module = RLModuleSpec(module_class=ActionMaskingModule, observation_space=observation_space,
                          action_space=action_space,
                          model_config={"fcnet_hiddens": [8], "head_fcnet_hiddens": []}).build()
    rng = np.random.default_rng(0)
    mask = np.zeros((4, action_space.n), dtype=np.float32)
    for row in mask:
        row[rng.choice(action_space.n, size=3, replace=False)] = 1.0
    batch = {"obs": {
        OBSERVATIONS: torch.as_tensor(rng.random((4, *observation_space[OBSERVATIONS].shape),
                                                 dtype=np.float32)),
        ACTION_MASK: torch.as_tensor(mask)}}
    with torch.no_grad():
        logits = module.forward_inference(batch)["action_dist_inputs"].numpy()
    probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    assert np.all(probabilities[mask == 0] < 1e-30)
    assert np.allclose(probabilities[mask == 1].reshape(4, 3).sum(axis=1), 1.0)


def test_a_space_without_the_mask_is_refused() -> None:
    from agents.rllib.module import ActionMaskingModule

    observation_space, action_space = _spaces()
    with pytest.raises(ValueError, match="needs a Dict observation space"):
        ActionMaskingModule(observation_space=observation_space[OBSERVATIONS],
                            action_space=action_space)
