"""The Python path works without numba (the ``vector`` extra): envs fall back to the
Python engine on the same stream, deal the same games (the stored digests), and ask
for the extra only where the compiled rules are asked for by name.

Each test runs in a fresh interpreter in which ``import numba`` fails, as it does
where the extra is not installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: Makes ``import numba`` fail in the interpreter it starts, then runs the rest.
HIDE = "import sys; sys.modules['numba'] = None; "

#: The tests the Python path must pass without numba: the behaviour digests of the
#: games that have compiled rules, in their newest version (observations, rewards,
#: renders, narration, table views, positions, resamples of seeded games: the
#: compiled rules' digests too); records, positions and the bad-input checks of the
#: envs. (The other games and versions never use numba.)
SUITES = [["tests/test_behaviour_digest.py", "-k",
           "power_hungry_pets-v2 or karel_kakelaar-v2 or kuhn_poker-v2"],
          ["tests/cardgym/test_records.py", "tests/cardgym/test_bad_input.py",
           "tests/test_docs_positions.py"]]


def _run(code: str, timeout: float = 1200) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", HIDE + code], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


def test_envs_play_on_the_python_engine_and_compiled_asks_for_the_extra() -> None:
    done = _run("""
import cardgym
from cardgym.errors import OptionError
from cardgym.registration import find_game
game = find_game("power_hungry_pets")
env = game.make_env(num_players=3)
assert env.engine == "python", env.engine
env.reset(seed=4)
assert type(env.np_random).__name__ == "GameRandom"
try:
    game.make_env(num_players=3, engine="compiled")
except OptionError as error:
    print("refused:", error)
""")
    assert done.returncode == 0, done.stderr
    assert "refused: engine='compiled' is not available" in done.stdout
    assert 'pip install "cardgym[vector]"' in done.stdout


@pytest.mark.parametrize("suite", SUITES, ids=["digests", "records-and-positions"])
def test_the_python_path_passes_its_tests_without_numba(suite: list[str]) -> None:
    done = _run("import pytest; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', "
                f"'-x', *{suite!r}]))")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
