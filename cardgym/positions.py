"""Positions: any point of any game as JSON, and an env set up from one.

A *position* is a scenario (the mapping ``reset(options={"scenario": ...})`` takes)
that names everything: every card where it lies, the seat to act and what it
decides, what each seat knows, the public record so far. ``env.position()`` writes
the current state as one; resetting an env of the same game and options to it gives
the same state again, and play goes on from it exactly as from the original (with
the generator in the same state). The keys of each game are in docs/positions.md.

A position *file* adds what the scenario needs to be read: the game, its env
version, the player count and every rule option::

    from cardgym import positions
    document = positions.document(env)              # JSON types
    positions.save(env, "middle.json")
    env = positions.load("middle.json")             # a new env, reset to it
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgym.documents import env_version, header, read_document, read_header, write_document
from cardgym.errors import DocumentError, ScenarioError
from cardgym.game import Game

__all__ = ["FORMAT", "FORMAT_VERSION", "document", "document_of", "load", "save"]

FORMAT = "cardgym-position"
FORMAT_VERSION = 1


def document(env: Any) -> dict[str, Any]:
    """The position file of ``env``'s current state: header and ``"scenario"``."""
    base = env.unwrapped
    if base.game_state is None:
        raise ScenarioError("position() called before reset(); there is no position yet")
    return document_of(base.game, base.config, base.game_state, base.version)


def document_of(game: Game, config: Any, state: Any,
                env_version: int | None = None) -> dict[str, Any]:
    """The position file of a state of ``game`` played under ``config`` in
    ``env_version`` (the newest by default): its ``env_id`` names the version, and so
    the stream an env set up from it goes on drawing from."""
    return {**header(FORMAT, FORMAT_VERSION, game, config, env_version),
            "scenario": game.position(state)}


def save(env: Any, path: str | Path) -> Path:
    """Write ``env``'s position file; the path written."""
    return write_document(document(env), path)


def load(source: str | Path | dict[str, Any], seed: int | None = None,
         **env_kwargs: Any) -> Any:
    """A new env of the position's game and options, reset to the position.

    Args:
        source: a position file's path, or its document.
        seed: seeds the env's generator (the position itself draws nothing from it).
        env_kwargs: further env arguments (``render_mode``, ``illegal_action``).

    Raises:
        DocumentError: the file is missing, malformed, or made for another env
            version; ScenarioError and OptionError name what is wrong inside.
    """
    data = read_document(source, "position")
    bound, _ = read_header(data, FORMAT, FORMAT_VERSION)
    if "scenario" not in data:
        raise DocumentError("a position file needs 'scenario', the position itself")
    env = bound.make_env(version=env_version(data, bound.game), **env_kwargs)
    env.reset(seed=seed, options={"scenario": data["scenario"]})
    return env
