"""A game added at run time (``cardgym.registration.register_game``), not through an
entry point: Kuhn poker under another name, for the tests that such a game works in
worker processes too."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from kuhn_poker.env import raw_env as kuhn_env
from kuhn_poker.game import GAME as KUHN

GAME = dataclasses.replace(KUHN, name="kuhn_at_run_time", title="Kuhn poker (added at run time)",
                           env_entry_point="tests.agents.runtime_game:env", baseline_players=())


class raw_env(kuhn_env):  # noqa: N801 (PettingZoo naming)
    """Kuhn poker's env for :data:`GAME`."""

    game = GAME
    metadata: ClassVar[dict[str, Any]] = {**kuhn_env.metadata, "name": "kuhn_at_run_time_v1"}


def env(**kwargs: Any) -> raw_env:
    """:class:`raw_env`."""
    return raw_env(**kwargs)
