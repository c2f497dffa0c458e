"""The same games on every path, at full size: the Python engine against the compiled
rules in the env, and the env against the batched engine's row, for every game with
compiled rules, every player count and every option set it is tested with.

Usage::

    python -m benchmarks.engine_parity                 # 200 seeded games per setting
    python -m benchmarks.engine_parity --games 20 --only karel_kakelaar

Each setting plays ``--games`` seeded games with :func:`cardgym.testing.stream.check_engines`
(two envs side by side, one per engine: observations, masks, rewards, the agent to act
and the generator every step; positions, renders, narration, table views and the
public record every ``--shown-every`` steps) and the same seeds with
:func:`cardgym.testing.stream.check_same_games` (the env and a one-row batched engine
from the same seed: positions, observations and rewards every step). The test suite
runs both at a reduced size (``tests/cardgym/test_compiled.py``,
``tests/cardgym/test_chance.py``). Exits 1 at the first difference, naming it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from cardgym.arguments import game_count, positive_int
from cardgym.registration import games
from cardgym.testing.stream import check_engines, check_same_games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine_parity",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=game_count, default=200,
                        help="seeded games per setting and check (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default: 0)")
    parser.add_argument("--shown-every", type=positive_int, default=5,
                        help="steps between comparisons of what the table shows "
                             "(default: %(default)s)")
    parser.add_argument("--only", default=None, help="only the game of this name")
    args = parser.parse_args(argv)
    chosen = [game for game in games() if game.batched is not None and game.seats_out is None
              and (args.only is None or game.name == args.only)]
    if not chosen:
        parser.error(f"no game with compiled rules is named {args.only!r}")
    total = 0
    for game in chosen:
        for players in game.player_counts:
            for options in game.test_option_sets:
                started = time.perf_counter()
                try:
                    engines = check_engines(game, players, options, games=args.games,
                                            seed=args.seed, shown_every=args.shown_every)
                    rows = check_same_games(game, players, options, games=args.games,
                                            seed=args.seed)
                except AssertionError as error:
                    print(f"DIFFERENT: {error}", file=sys.stderr)
                    return 1
                total += engines + rows
                print(f"{game.name} {players}p {dict(options)}: {args.games} games, "
                      f"{engines:,} decisions (engines), {rows:,} (env and row), "
                      f"{time.perf_counter() - started:.0f} s", flush=True)
    print(f"all the same: {total:,} decisions compared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
