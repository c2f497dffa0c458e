"""Checks of an env's arguments and of ``reset``'s options, shared by the AEC and the
parallel base classes (:mod:`cardgym.aec`, :mod:`cardgym.parallel`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from cardgym.chance import Chance
from cardgym.errors import OptionError, ScenarioError, shorten
from cardgym.game import Game
from cardgym.scenario import check_depth

StateT = TypeVar("StateT")

#: The key PettingZoo's ``api_test`` and ``parallel_api_test`` probe ``reset`` with
#: (``options={"options": 1}``): accepted silently, like every PettingZoo env does.
_PROBE_KEY = "options"


def check_env_arguments(render_modes: Sequence[str], num_players: int,
                        render_mode: str | None, render_seat: int | str | None,
                        illegal_action: str, to_act: str = "the agent to act") -> None:
    """Raise :class:`OptionError` naming a bad env argument and what is allowed (the AEC
    and the parallel base classes alike; ``to_act`` says whose view ``None`` shows)."""
    if render_mode is not None and render_mode not in render_modes:
        raise OptionError(f"render_mode={render_mode!r} is not supported; "
                          f"allowed: None, {', '.join(map(repr, render_modes))}")
    if illegal_action not in ("raise", "lose"):
        raise OptionError(
            f"illegal_action={illegal_action!r} is not allowed; allowed: 'raise', 'lose'"
        )
    if not (render_seat is None or render_seat == "full" or (
        isinstance(render_seat, int) and not isinstance(render_seat, bool)
        and 0 <= render_seat < num_players
    )):
        raise OptionError(f"render_seat={render_seat!r} is not allowed; allowed: None "
                          f"({to_act}), 'full', or a seat 0..{num_players - 1}")


def check_picture_support(game: Game, render_mode: str | None) -> None:
    """Raise :class:`OptionError` for ``render_mode="rgb_array"`` on a game without a
    table view (the picture is drawn from it)."""
    if render_mode == "rgb_array" and game.table is None:
        raise OptionError(f"render_mode='rgb_array' draws the table view, and {game.title} "
                          "has none (Game.table); allowed: None, 'ansi', 'human'")


def start_game(game: Game, new: Callable[[], StateT], rng: Chance,
               from_scenario: bool) -> StateT:
    """``new()``, the new game state; from a scenario, one that is not over yet. A
    scenario that fails leaves the generator as it was (and the env, which has not
    changed yet)."""
    if not from_scenario:
        return new()
    saved = rng.bit_generator.state
    try:
        state = new()
        if game.is_over(state):
            raise ScenarioError("the scenario is a finished game: nothing is left to play "
                                "(set up a position before the end)")
    except Exception:
        rng.bit_generator.state = saved
        raise
    return state


def scenario_of(options: object, env_name: str) -> dict[str, Any] | None:
    """The scenario in ``reset``'s ``options``, checked before anything changes (the
    AEC env's and a parallel env's ``reset`` alike).

    ``None`` and ``{}`` mean no scenario. Keys other than ``"scenario"`` are ignored
    with a one-line warning naming them and the fix, except PettingZoo's own probe.

    Raises:
        OptionError: ``options`` is neither ``None`` nor a dict.
        ScenarioError: the scenario is nested too deeply
            (:func:`cardgym.scenario.check_depth`; the games' readers check the rest).
    """
    if options is None:
        return None
    if not isinstance(options, dict):
        raise OptionError(
            f"reset(options=...) takes a dict or None, got {type(options).__name__} "
            f"{shorten(options)}; the only key is 'scenario': "
            "reset(options={'scenario': {...}})"
        )
    unknown = [key for key in options if key != "scenario"
               and not (key == _PROBE_KEY and not isinstance(options[key], dict))]
    if unknown:
        game = env_name.rsplit("_v", 1)[0]
        warnings.warn(
            f"reset options {sorted(map(shorten, unknown))} are not used by {env_name}: the "
            "only key is 'scenario', a position to start from (reset(options={'scenario': "
            f"{{...}}}}); see cardgym docs {game})",
            stacklevel=3,
        )
    scenario = options.get("scenario")
    if scenario is not None:
        check_depth(scenario)
    return scenario


def _summarise(names: list[str], limit: int = 12) -> str:
    if not names:
        return "none (the game is over)"
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", ... ({len(names)} in all)"
