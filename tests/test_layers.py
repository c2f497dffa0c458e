"""The project's modules import one way: no import circle anywhere (not even through an
import inside a function or under ``TYPE_CHECKING``), and each layer imports only the
layers below it: the core ``cardgym`` below the games, the games below ``agents``, then
the browser table ``cardgym_web``, then ``benchmarks``, then the command line
``cardgym_cli``. A game imports no other game.

Inside each of the library's games the same rooms, each importing only the rooms below
it: ``engine`` (the rules), ``info`` (what a seat may know), ``encoding`` (the
observation), ``positions`` (scenarios and positions), ``display`` (render, table view,
narration); above them the modules that gather them (``rules``, ``game``, ``env``, the
heuristic) and the batched engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardgym.registration import games

REPO = Path(__file__).resolve().parents[1]
GAME_PACKAGES = sorted({game.module for game in games()})
#: Layer of each top-level package, lowest first.
LAYERS = {"cardgym": 0, **dict.fromkeys(GAME_PACKAGES, 1), "agents": 2, "cardgym_web": 3,
          "benchmarks": 4, "cardgym_cli": 5}


def _package_dir(package: str) -> Path:
    module = __import__(package)
    return Path(module.__file__).parent  # type: ignore[arg-type]


def _modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    found = {}
    for package in LAYERS:
        root = _package_dir(package)
        for path in root.rglob("*.py"):
            parts = path.relative_to(root.parent).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The project modules ``path`` imports, anywhere in the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found & set(MODULES)


GRAPH = {name: _imports(path) for name, path in MODULES.items()}


def test_the_project_has_modules_in_every_layer() -> None:
    assert {name.partition(".")[0] for name in MODULES} == set(LAYERS)
    assert len(GAME_PACKAGES) >= 3


def test_no_import_circle() -> None:
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, f"import circle: {' -> '.join((*trail, name))}"
        if name in done:
            return
        for other in sorted(GRAPH[name] - {name}):
            # A package's own __init__ re-exporting its modules is not a circle.
            if not name.startswith(other + "."):
                visit(other, (*trail, name))
        done.add(name)

    for name in sorted(GRAPH):
        visit(name, ())


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_each_layer_imports_only_the_layers_below_it(package: str) -> None:
    upward = []
    for name, imported in sorted(GRAPH.items()):
        if name.partition(".")[0] != package:
            continue
        for other in sorted(imported):
            top = other.partition(".")[0]
            if top != package and (LAYERS[top] > LAYERS[package]
                                   or (LAYERS[top] == LAYERS[package] == 1)):
                upward.append(f"{name} -> {other}")
    assert not upward, "imports that run up (or across games):\n" + "\n".join(upward)


#: The rooms of a game package, lowest first; modules outside them (``rules``, ``game``,
#: ``env``, ``heuristic``, ``parallel``) and the batched engine stand above them all.
ROOMS = ("engine", "info", "encoding", "positions", "display")
#: The games written as packages of rooms (the example game in examples/ is one module).
ROOMED_GAMES = ("phpets_env", "ek_env", "kakelaar_env")


def _room(name: str) -> int:
    """The rank of a game module's room (``len(ROOMS)`` above the rooms)."""
    parts = name.split(".")
    return ROOMS.index(parts[1]) if len(parts) > 1 and parts[1] in ROOMS else len(ROOMS)


@pytest.mark.parametrize("package", ROOMED_GAMES)
def test_every_game_has_the_same_rooms(package: str) -> None:
    rooms = {name.split(".")[1] for name in MODULES
             if name.startswith(package + ".") and name.count(".") == 2}
    assert rooms - {"batched"} == set(ROOMS)
    assert package in GAME_PACKAGES


@pytest.mark.parametrize("package", ROOMED_GAMES)
def test_each_room_imports_only_the_rooms_below_it(package: str) -> None:
    upward = [f"{name} -> {other}" for name, imported in sorted(GRAPH.items())
              if name.startswith(package + ".") for other in sorted(imported)
              if other.startswith(package + ".") and _room(other) > _room(name)]
    assert not upward, "imports that run up the rooms:\n" + "\n".join(upward)
