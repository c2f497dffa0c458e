"""Kuhn poker, a PettingZoo AEC environment (``cardgym/kuhn_poker-v2``).

The example game of cardgym's guide to adding a game (``docs/adding-a-game.md``).
Two players ante, each gets one of three cards (Jack, Queen, King); seat 0 checks or
bets one chip; after a check seat 1 checks (showdown) or bets; facing a bet a player
folds or calls (showdown). At the showdown the higher card takes the pot.

Usage::

    from kuhn_poker import env
    game = env(render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        action = None if terminated else game.action_space(agent).sample(obs["action_mask"])
        game.step(action)

Arguments of ``env()`` / ``raw_env()``:

| argument | values | default | meaning |
|---|---|---|---|
| `num_players` | 2 | 2 | seats at the table |
| `ante` | `1`, `2` | `1` | chips each player puts in before the deal |
| `render_mode` | `None`, `"ansi"`, `"human"` | `None` | `"ansi"`: `render()` returns the table as text; `"human"`: `reset()` and `step()` print it by themselves (as Gymnasium and PettingZoo envs do), and so does `render()` |
| `render_seat` | seat, `None`, `"full"` | `None` | whose view `render()` shows |
| `illegal_action` | `"raise"`, `"lose"` | `"raise"` | an illegal action raises, or loses the game |
| `version` | `2`, `1` | `2` | the env version: 2 deals from the game's shared stream (`cardgym.chance`, the games the batched engine deals for a seed); 1 (deprecated) from numpy's PCG64 generator, as before |
| `engine` | `"auto"`, `"compiled"`, `"python"` | `"auto"` | the rules the game is played by: the compiled ones (the batched engine's kernels, one row; the `vector` extra) or the Python engine; `auto` takes the compiled rules when numba is installed. Both play the same game, step for step; what the kernels do not keep (the record, positions, table views) comes from the Python engine when asked for |

Rewards: at the end of the hand, the chips won (+) or lost (-): the ante after a
fold, the ante plus one after a called bet, the ante after two checks.

A scenario starts from given cards and, optionally, the moves made so far:
``reset(options={"scenario": {"cards": ["king", "jack"], "moves": ["check"]}})``;
``env.position()`` writes the current hand in that form.

Observation (flat float32; ``observation_spec.unpack`` names the fields):

<!-- observation-table -->
| offsets | field | shape | range | meaning |
|---|---|---|---|---|
| 0..2 | `my_card` | 3 | 0..1 | my card, one-hot over jack, queen, king |
| 3..14 | `moves` | 3x4 | 0..1 | the moves so far in order, seat 0 first: one-hot over check, bet, call, fold (zeros: not yet) |
| 15..17 | `shown` | 3 | 0..1 | the other seat's card once shown at a showdown |
| 18..18 | `to_act` | 1 | 0..1 | 1 when it is my move |
<!-- /observation-table -->

Actions:

<!-- action-table -->
| index | name | meaning |
|---|---|---|
| 0 | `check` | put nothing in (no bet to face) |
| 1 | `bet` | bet one chip (no bet to face) |
| 2 | `call` | match the bet: showdown |
| 3 | `fold` | give up the pot to the bettor |
<!-- /action-table -->

Version history: v1, the first version. v2: the game's chance comes from one
SplitMix64 stream (:mod:`cardgym.chance`), so that a seed deals the same game here
and in row 0 of the batched engine; actions and observations
did not change (policies trained on v1 play v2). v1 stays registered
(`version=1`, or `pettingzoo.make` with `-v1`) and deals from numpy's PCG64
generator as before, with a deprecation warning.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

from cardgym.aec import RENDER_FPS, RENDER_MODES, CardGameEnv
from kuhn_poker.game import GAME
from kuhn_poker.rules import Config, State

ENV_ID = GAME.env_id


class raw_env(CardGameEnv[State]):  # noqa: N801 (PettingZoo naming)
    """Kuhn poker AEC environment; see the module docstring."""

    game = GAME
    metadata: ClassVar[dict[str, Any]] = {
        "name": "kuhn_poker_v2",
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
    }

    def __init__(self, num_players: int = 2, ante: int = 1, render_mode: str | None = None,
                 render_seat: int | str | None = None, illegal_action: str = "raise",
                 version: int | None = None, engine: str = "auto") -> None:
        self.config = Config(num_players, ante)
        super().__init__(num_players, render_mode, render_seat, illegal_action, version, engine)


def env(**kwargs: Any) -> raw_env:
    """Kuhn poker, with the checks of PettingZoo's standard wrappers built in."""
    return raw_env(**kwargs)


if __doc__ and env.__doc__:
    env.__doc__ = f"{__doc__}\n``env(**kwargs)``: {inspect.cleandoc(env.__doc__)}\n"
