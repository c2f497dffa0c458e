"""Mixed tables: the shipped network and the heuristic at one table, in every mix.

Usage::

    python -m benchmarks.mixed_tables --games 1000 --output benchmarks/results

For each game at its larger baseline table size (four players; five in Karel Kakelaar),
every seating of ``k`` networks and ``n - k`` heuristics with ``0 < k < n``, in each
arrangement that seat rotation does not turn into another (:func:`arrangements`: the
networks side by side, or spread out; turn order matters, so a mirror image counts as
its own). Each arrangement is one seeded :func:`agents.evaluate.evaluate` run of
``--games`` games (matches of rounds in Power Hungry Pets), seats rotating game by game,
with a seed of its own. The share of a kind of agent is its seats' wins per seat-game
(shared wins count for each winner), with its 95% Wilson interval; *told apart* when
the two intervals do not overlap. The last row of each table pools every arrangement.

The arena (``benchmarks/results/arena.md``) ranks agents over all its pairings, tables
with random agents included: there each agent also fills the other seats of the tables a
lone random agent or heuristic holds, where a seat wins about an even share of what the
lone agent leaves, which draws the shares of the stronger agents together. Here every
table holds only the two agents compared.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agents.evaluate import EvalRequest, evaluate_many
from agents.outcomes import has_rounds, wilson_interval
from benchmarks.publish import portable_command, publish
from cardgym.arguments import game_count, non_negative_int, positive_int, worker_count
from cardgym.game import Game
from cardgym.registration import find_game, games, short_name

__all__ = ["Share", "arrangements", "main", "mixed_table", "told_apart"]

#: The letter of each kind of agent in an arrangement: the agent compared, the other.
AGENT, OTHER = "A", "B"


def arrangements(players: int) -> list[str]:
    """Every seating of one to ``players - 1`` agents of one kind (``A``) among agents
    of the other (``B``) that no rotation of the seats turns into another, each written
    from its rotation that comes first in the alphabet (the ``A`` seats first): ``AABB``
    and ``ABAB`` for two of four. Fewer agents of the first kind first."""
    if players < 2:
        raise ValueError(f"a mixed table needs at least 2 players, not {players}")
    found: dict[int, set[str]] = {}
    for mask in range(1, 2 ** players - 1):
        seats = "".join(AGENT if mask >> seat & 1 else OTHER for seat in range(players))
        first = min(seats[i:] + seats[:i] for i in range(players))
        found.setdefault(seats.count(AGENT), set()).add(first)
    return [seating for count in sorted(found) for seating in sorted(found[count])]


@dataclass(frozen=True)
class Share:
    """Wins of one kind of agent over its seat-games at one arrangement (or pooled)."""

    wins: int
    seat_games: int

    @property
    def rate(self) -> float:
        return self.wins / self.seat_games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seat_games)

    def __add__(self, other: Share) -> Share:
        return Share(self.wins + other.wins, self.seat_games + other.seat_games)

    def text(self) -> str:
        low, high = self.interval
        return f"{self.rate:.3f} ({low:.3f}-{high:.3f})"


def told_apart(first: Share, second: Share) -> bool:
    """Whether the two shares' 95% intervals do not overlap."""
    return first.interval[1] < second.interval[0] or second.interval[1] < first.interval[0]


def mixed_table(game: str | Game, players: int, agent: str, other: str, games_: int, seed: int,
                workers: int) -> list[tuple[str, Share, Share]]:
    """Every arrangement of ``agent`` and ``other`` at a table of ``game``, and each
    kind's share there: ``(arrangement, agent's share, other's share)``, arrangement
    ``k`` played on seed ``seed + k``, all in one pool of ``workers`` processes."""
    entry = find_game(game)
    seatings = arrangements(players)
    requests = [EvalRequest(entry, players, [agent if kind == AGENT else other
                                             for kind in seating],
                            games_, seed + index)
                for index, seating in enumerate(seatings)]
    rows = []
    for seating, result in zip(seatings, evaluate_many(requests, workers), strict=True):
        shares = {AGENT: Share(0, 0), OTHER: Share(0, 0)}
        for kind, outcome in zip(seating, result.agents, strict=True):
            shares[kind] += Share(outcome.wins, outcome.seat_games)
        rows.append((seating, shares[AGENT], shares[OTHER]))
    return rows


def _table(entry: Game, players: int, agent: str, other: str,
           rows: list[tuple[str, Share, Share]], games_: int, seed: int) -> list[str]:
    unit = "matches of rounds" if has_rounds(entry) else "games"
    lines = [f"### {short_name(entry.env_id)}, {players} players", "",
             f"{games_} {unit} per arrangement, seeds {seed} to {seed + len(rows) - 1}; "
             f"`{AGENT}` = `{agent}`, `{OTHER}` = `{other}`, seats listed in turn order; an "
             f"even share is {1 / players:.3f}.", "",
             f"| arrangement | `{agent}` share (95% CI) | `{other}` share (95% CI) | told apart |",
             "|---|---|---|---|"]
    pooled = (Share(0, 0), Share(0, 0))
    for seating, mine, theirs in rows:
        lines.append(f"| {' '.join(seating)} | {mine.text()} | {theirs.text()} | "
                     f"{'yes' if told_apart(mine, theirs) else 'no'} |")
        pooled = (pooled[0] + mine, pooled[1] + theirs)
    lines.append(f"| all | {pooled[0].text()} | {pooled[1].text()} | "
                 f"{'yes' if told_apart(*pooled) else 'no'} |")
    return lines + [""]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mixed_tables",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", nargs="+", default=[], metavar="GAME",
                        help="games (default every game with a baseline above two players)")
    parser.add_argument("--players", type=positive_int, default=None,
                        help="table size (default each game's largest baseline table)")
    parser.add_argument("--agent", default="baseline",
                        help="the agent compared (default the shipped baseline)")
    parser.add_argument("--against", default="heuristic",
                        help="the agent it shares the tables with (default the heuristic)")
    parser.add_argument("--games", type=game_count, default=1000,
                        help="games (matches in power_hungry_pets) per arrangement")
    parser.add_argument("--seed", type=non_negative_int, default=777,
                        help="seed of the first arrangement; the next ones count up")
    parser.add_argument("--workers", type=worker_count, default=2)
    parser.add_argument("--output", type=Path, default=None,
                        help="directory to write mixed_tables.md to")
    args = parser.parse_args(argv)
    try:
        chosen = [find_game(name) for name in args.env] or [
            game for game in games() if any(n > 2 for n in game.baseline_players)]
    except ValueError as error:
        parser.error(f"--env: {error}")
    command = portable_command("python -m benchmarks.mixed_tables",
                               list(sys.argv[1:] if argv is None else argv))
    lines = ["## Mixed tables", "",
             f"Generated by `{command}` (benchmarks/mixed_tables.py): two agents at one "
             "table in every mix, seats rotating game by game; each kind's share = its seats' wins per seat-game, with "
             "its 95% Wilson interval; *told apart* when the intervals do not overlap.", ""]
    for entry in chosen:
        players = args.players or max(entry.baseline_players, default=0)
        if not players:
            parser.error(f"--players: {entry.name} ships no baseline to take the table "
                         "size from; name one")
        print(f"mixed_tables: {entry.name} at {players} players ...", file=sys.stderr,
              flush=True)
        try:
            rows = mixed_table(entry, players, args.agent, args.against, args.games,
                               args.seed, args.workers)
        except ValueError as error:
            parser.error(str(error))
        lines += _table(entry, players, args.agent, args.against, rows, args.games,
                        args.seed)
    publish("\n".join(lines), args.output, "mixed_tables.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
