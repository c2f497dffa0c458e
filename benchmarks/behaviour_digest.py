"""Digests of every game's behaviour in every setting, written or compared.

Usage::

    python -m benchmarks.behaviour_digest --check      # against tests/data/behaviour_digests.json
    python -m benchmarks.behaviour_digest --write      # after a change meant to change behaviour
    python -m benchmarks.behaviour_digest --games 20 --stride 1 --output before.json
    python -m benchmarks.behaviour_digest --games 20 --stride 1 --check --file before.json

Every kit (each registered game and its test variants), env version, player count
and option set is played as :mod:`cardgym.testing.digest` says, and so is each
game's batched engine (beside the newest version). A legacy version
(``Game.legacy_versions``) keeps its digests: they show that its seeded games did not
change. The default sizes are the test suite's (``tests/test_behaviour_digest.py``
compares against the stored file); larger ones (more games, ``--stride 1``) make a
finer comparison before and after a change of how a game is written, compared with
``--check --file``. The file records the sizes it was made with; ``--check`` uses
them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgym.arguments import game_count, positive_int
from cardgym.files import atomic_write
from cardgym.registration import games
from cardgym.testing import kits_of
from cardgym.testing.digest import batched_digest, behaviour_digest, settings_of

#: The stored digests the test suite compares against.
STORED = Path(__file__).resolve().parent.parent / "tests" / "data" / "behaviour_digests.json"

#: The sizes of the stored file: games per setting, the stride of the costly parts,
#: and the batched engines' rows and steps.
DEFAULT_SIZES = {"games": 1, "stride": 4, "rows": 8, "steps": 120}


def setting_key(kit_name: str, version: int, players: int, options: dict[str, Any]) -> str:
    """The key of a setting in the file, e.g.
    ``power_hungry_pets-v2 4p {"reward":"round"}``."""
    return (f"{kit_name}-v{version} {players}p "
            f"{json.dumps(options, sort_keys=True, separators=(',', ':'))}")


def all_settings() -> list[tuple[str, Any, int, int, dict[str, Any]]]:
    """Every (key, kit, version, players, options)."""
    kits = [kit for game in games() for kit in kits_of(game)]
    return [(setting_key(kit.name, version, players, options), kit, version, players, options)
            for kit, players, options in settings_of(kits)
            for version in (kit.game.versions if kit.game is not None else ())]


def engines_of(kit: Any, version: int) -> tuple[str, ...]:
    """The env engines a setting is played under: the Python engine, and the
    compiled rules too where the game has them (in its newest version), which must
    give the same digest."""
    game = kit.game
    if game.batched is not None and version == game.version and game.seats_out is None:
        return ("python", "compiled")
    return ("python",)


def digest_of(kit: Any, version: int, players: int, options: dict[str, Any],
              sizes: dict[str, int], engine: str = "python",
              batched: bool = True) -> dict[str, str]:
    """The digest of one setting at ``sizes`` under ``engine``: the env's parts, and
    the batched engine's (``batched:``-prefixed) when the game has one, this is its
    own kit, ``version`` is the newest, ``engine`` the Python one (the batched
    engine's digest does not depend on the env's engine) and ``batched`` is true
    (false where numba is not installed)."""
    digest = behaviour_digest(kit, players, options, games=sizes["games"],
                              stride=sizes["stride"], version=version, engine=engine)
    if kit.game.batched is not None and kit.name == kit.game.name \
            and version == kit.game.version and engine == "python" and batched:
        rows = batched_digest(kit, players, options, rows=sizes["rows"], steps=sizes["steps"])
        digest.update({f"batched:{part}": value for part, value in rows.items()})
    return digest


def compute(sizes: dict[str, int], only: str | None = None,
            progress: bool = False) -> dict[str, dict[str, str]]:
    """The digests of every setting (or of those whose key starts with ``only``)."""
    digests = {}
    for key, kit, version, players, options in all_settings():
        if only is not None and not key.startswith(only):
            continue
        digests[key] = digest_of(kit, version, players, options, sizes)
        if progress:
            print(key, file=sys.stderr, flush=True)
    return digests


def read(path: Path) -> tuple[dict[str, int], dict[str, dict[str, str]]]:
    """The sizes and digests of a file written by :func:`main`."""
    data = json.loads(path.read_text())
    return data["sizes"], data["digests"]


def differences(expected: dict[str, dict[str, str]],
                found: dict[str, dict[str, str]]) -> list[str]:
    """Lines naming each setting and part that differ, or that one side lacks."""
    lines = []
    for key in sorted(set(expected) | set(found)):
        if key not in found:
            lines.append(f"{key}: not computed")
        elif key not in expected:
            lines.append(f"{key}: no stored digest")
        else:
            parts = sorted(part for part in set(expected[key]) | set(found[key])
                           if expected[key].get(part) != found[key].get(part))
            if parts:
                lines.append(f"{key}: {', '.join(parts)} differ")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.behaviour_digest",
                                     description=(__doc__ or "").split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true",
                        help="compare with --file (default: the stored digests)")
    action.add_argument("--write", action="store_true", help="rewrite the stored digests")
    action.add_argument("--output", type=Path, help="write the digests to this file")
    parser.add_argument("--file", type=Path, default=STORED,
                        help="the file --check compares with (default: %(default)s)")
    parser.add_argument("--games", type=game_count, default=None,
                        help=f"games per setting (default: {DEFAULT_SIZES['games']}, or the "
                             "file's with --check)")
    parser.add_argument("--stride", type=positive_int, default=None,
                        help="steps between renders, positions and resamples "
                             f"(default: {DEFAULT_SIZES['stride']})")
    parser.add_argument("--only", default=None,
                        help="only the settings whose key starts with this (e.g. a game name)")
    args = parser.parse_args(argv)
    sizes = dict(DEFAULT_SIZES)
    expected: dict[str, dict[str, str]] = {}
    if args.check:
        if not args.file.is_file():
            parser.error(f"--file {args.file} is not a file of digests")
        sizes, expected = read(args.file)
    if args.games is not None:
        sizes["games"] = args.games
    if args.stride is not None:
        sizes["stride"] = args.stride
    found = compute(sizes, args.only, progress=True)
    if args.check:
        if args.only is not None:
            expected = {key: value for key, value in expected.items()
                        if key.startswith(args.only)}
        lines = differences(expected, found)
        for line in lines:
            print(line)
        print(f"{len(found)} settings, {len(lines)} differing", file=sys.stderr)
        return 1 if lines else 0
    text = json.dumps({"sizes": sizes, "digests": found}, indent=1, sort_keys=True) + "\n"
    atomic_write(STORED if args.write else args.output, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
