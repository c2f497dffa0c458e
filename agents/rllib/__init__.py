"""Training cardgym games on Ray RLlib (needs the ``rllib`` extra).

RLlib's new API stack (RLModule, Learner, EnvRunner) trains every cardgym AEC
game through three small pieces:

- :mod:`agents.rllib.env`: :class:`~agents.rllib.env.CardGameMultiAgentEnv`, the AEC
  game as an RLlib ``MultiAgentEnv`` for turn-based play: each step returns the
  observation of the one seat to act, under the keys that RLlib's action-masking
  module reads (:data:`OBSERVATIONS` and :data:`ACTION_MASK`). Every action is checked
  against the mask before it reaches the game; an illegal one raises.
- :mod:`agents.rllib.train`: PPO with :class:`~agents.rllib.module.ActionMaskingModule`
  (RLlib's action-masking example module on its current API), one module ``shared`` playing every seat by default,
  or with ``self_play`` one learning seat per game against frozen snapshots of it.
  Ray starts locally, or joins the cluster that ``RAY_ADDRESS`` names.
- :mod:`agents.rllib.policy`: :class:`~agents.rllib.policy.RllibPolicy`, a saved
  checkpoint as an :class:`~agents.policy.Policy` (agent spec ``rllib+pickle:PATH``).

``cardgym train GAME --backend rllib`` drives it from the command line
(:mod:`agents.rllib.commands`). This package imports nothing from Ray itself; its
submodules do, so import them only once the extra is known to be there
(:func:`require_rllib`).
"""

from __future__ import annotations

__all__ = ["ACTION_MASK", "CARD", "INSTALL_HINT", "OBSERVATIONS", "SHARED_MODULE", "require_rllib"]

#: Key of the observation vector in the adapter's observations (RLlib's masking module reads it).
OBSERVATIONS = "observations"
#: Key of the action mask (float32, 1.0 = legal) in the adapter's observations.
ACTION_MASK = "action_mask"
#: The module id of the trained policy.
SHARED_MODULE = "shared"
#: The model card of a run, beside its ``checkpoint/`` folder.
CARD = "model.json"

INSTALL_HINT = ('the rllib extra is not installed: run pip install -e ".[rllib]" with PyTorch '
                'already installed (make install does both)')


def require_rllib() -> None:
    """Raise ``ImportError`` with :data:`INSTALL_HINT` unless Ray RLlib and PyTorch import."""
    try:
        import ray.rllib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        raise ImportError(f"{INSTALL_HINT} ({error})") from None
