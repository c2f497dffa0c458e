"""Generated documentation tables in each env's module docstring.

The action and observation tables between ``<!-- action-table -->`` and
``<!-- observation-table -->`` markers are produced from the action table and the
observation spec. An env module whose layout depends on an option also lists
``EXTRA_LAYOUTS``: ``(tag, action table, observation spec, groups)`` entries whose
tables go between ``<!-- action-table:TAG -->`` and ``<!-- observation-table:TAG -->``
markers. ``python -m cardgym.docs`` rewrites them; a test checks that they are
current.

:func:`doc_page` returns a game's page, which ``cardgym docs GAME`` prints.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

from cardgym.actions import ActionTable
from cardgym.observation import ObservationSpec


def _replace(text: str, marker: str, table: str) -> str:
    pattern = re.compile(rf"(<!-- {marker} -->\n).*?(<!-- /{marker} -->)", re.S)
    if not pattern.search(text):
        raise ValueError(f"no <!-- {marker} --> ... <!-- /{marker} --> markers found")
    return pattern.sub(lambda m: m.group(1) + table + "\n" + m.group(2), text, count=1)


def render_docstring(text: str, actions: ActionTable[object], spec: ObservationSpec,
                     group_by: list[tuple[str, str]] | None = None, tag: str = "") -> str:
    """``text`` with both generated tables (of layout ``tag``, if given) brought up to date."""
    suffix = f":{tag}" if tag else ""
    text = _replace(text, f"observation-table{suffix}", spec.markdown())
    return _replace(text, f"action-table{suffix}", actions.markdown(group_by))


def env_modules() -> list[str]:
    """Modules whose docstring carries generated tables: one ``env`` module per game."""
    from cardgym.registration import games

    return [game.entry_point.split(":")[0] for game in games()]


def expected_source(module_name: str) -> tuple[Path, str, str]:
    """(path, current source, source with the tables regenerated) of an env module."""
    module = importlib.import_module(module_name)
    path = Path(module.__file__)  # type: ignore[arg-type]
    source = path.read_text()
    from cardgym.registration import find_game

    game = find_game(module_name.partition(".")[0])
    layout = game.layout(game.make_config(game.player_counts[0]))
    group_by = getattr(module, "DOC_GROUPS", None)
    updated = render_docstring(source, layout.action_table, layout.observation_spec, group_by)
    for tag, actions, spec, groups in getattr(module, "EXTRA_LAYOUTS", ()):
        updated = render_docstring(updated, actions, spec, groups, tag)
    return path, source, updated


def env_module(game: str) -> ModuleType:
    """The ``env`` module of a game (id or short name), e.g. ``<package>.env``.

    The package's ``env()`` function shadows the module of the same name as an
    attribute (``<package>.env`` is the function), so the module is looked up by
    its full name (``importlib``, i.e. ``sys.modules``), never as an attribute.
    """
    from cardgym.registration import find_game

    return importlib.import_module(find_game(game).entry_point.partition(":")[0])


def doc_page(game: str) -> str:
    """A game's documentation page: the docstring of its ``env`` module.

    Raises:
        ValueError: an unknown game (the message lists the known ones).
    """
    return inspect.cleandoc(env_module(game).__doc__ or "")


def main() -> int:
    for name in env_modules():
        path, source, updated = expected_source(name)
        if updated != source:
            path.write_text(updated)
            print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
