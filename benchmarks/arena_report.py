"""The arena's tables: Markdown and CSV files, model cards, and the README's tables.

:mod:`benchmarks.arena` plays, :mod:`benchmarks.arena_results` holds what it found,
and this module writes it out:

- ``arena.md`` (standings and head-to-head tables per setting), ``arena.csv`` (one
  row per setting, agent and opponent), ``arena_ratings.csv`` (one row per setting
  and agent, best first);
- the ``arena`` entry of each shipped baseline's card ``models/GAME-Np/model.json``;
- the README's arena and throughput tables, between their markers, made from
  ``arena_ratings.csv`` and ``throughput.csv``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.baselines import baseline_path
from agents.evaluate import AgentResult
from agents.model_card import read_card, write_card
from benchmarks.arena_results import (
    Rating,
    SettingResult,
    Standing,
    not_separated,
    ordinal_ranks,
    ranked,
)
from benchmarks.publish import read_csv
from cardgym.registration import find_game, short_name

__all__ = [
    "MARKERS",
    "RANKING_NOTE",
    "README",
    "RESULTS",
    "format_markdown",
    "format_setting",
    "pairing_rows",
    "rating_rows",
    "readme_tables",
    "readme_with_tables",
    "separation",
    "update_cards",
    "write_readme",
    "write_results",
]

RESULTS = Path(__file__).resolve().parent / "results"
README = Path(__file__).resolve().parents[1] / "README.md"
#: Markers in README.md between which :func:`write_readme` writes the tables.
MARKERS = {name: (f"<!-- {name} table: begin (make tables) -->", f"<!-- {name} table: end -->")
           for name in ("arena", "throughput", "ladder")}


# -------------------------------------------------------------------- tables


def _rate(result: AgentResult | None) -> str:
    if result is None:
        return "-"
    low, high = result.interval
    return f"{result.win_rate:.3f} ({low:.2f}-{high:.2f})"


#: How the standings are ranked and read, under every standings table.
RANKING_NOTE = ("Ranked by win rate = wins per seat-game over all pairings, with its 95% "
                "Wilson interval; *not separated from* names the agents whose interval "
                "overlaps this one's, which these games do not tell apart. Rating = "
                "OpenSkill Plackett-Luce mu +- sigma, with its own rank by the ordinal "
                "mu - 3 sigma.")


def separation(labels: Sequence[str]) -> str:
    """The *not separated from* cell: the agents, or ``-`` when there are none."""
    return ", ".join(labels) or "-"


def format_setting(setting: SettingResult) -> str:
    """One setting as Markdown: the standings, then the head-to-head table."""
    name = short_name(setting.game.env_id)
    n = setting.num_players
    lines = [
        f"### {name}, {n} players",
        "",
        f"{setting.games} x {setting.unit} per pairing, seed {setting.seed}; an even share is "
        f"{1 / n:.3f}. {RANKING_NOTE}",
    ]
    lines += ["", "| rank | agent | seat-games | wins | win rate | 95% CI | not separated from "
                  "| mu | sigma | ordinal | rank by ordinal |",
              "|---:|---|---:|---:|---:|---|---|---:|---:|---:|---:|"]
    apart = not_separated(setting.standings)
    by_ordinal = ordinal_ranks(setting.standings)
    for rank, standing in enumerate(setting.ranked(), start=1):
        low, high = standing.interval
        lines.append(f"| {rank} | {standing.label} | {standing.seat_games} | {standing.wins} | "
                     f"{standing.win_rate:.3f} | {low:.3f}-{high:.3f} | "
                     f"{separation(apart[standing.label])} | "
                     f"{standing.rating.mu:.2f} | {standing.rating.sigma:.2f} | "
                     f"{standing.rating.ordinal:.2f} | {by_ordinal[standing.label]} |")
    seats = "the other seat" if n == 2 else "every other seat"
    lines += ["", f"Head to head: win rate (95% CI) of the row agent in one seat against the "
                  f"column agent in {seats}.", "",
              "| agent | " + " | ".join(f"vs {label}" for label in setting.labels) + " |",
              "|---|" + "---:|" * len(setting.labels)]
    for i, label in enumerate(setting.labels):
        cells = [_rate(setting.head_to_head(i, j)) if i != j else "-"
                 for j in range(len(setting.labels))]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def format_markdown(settings: Sequence[SettingResult]) -> str:
    """Every setting as Markdown, under one heading line."""
    parts = ["## Arena", "",
             "Seeded round-robin: seats rotate game by game; with two players each pair of "
             "agents meets once, with more each agent holds one seat against every other "
             "agent in all the other seats. Written by benchmarks/arena.py."]
    parts += ["\n" + format_setting(setting) for setting in settings]
    return "\n".join(parts) + "\n"


def pairing_rows(settings: Sequence[SettingResult]) -> list[dict[str, Any]]:
    """One row per setting, agent and opponent (the ``arena.csv`` rows)."""
    rows = []
    for setting in settings:
        for i, label in enumerate(setting.labels):
            for j, opponent in enumerate(setting.labels):
                result = setting.head_to_head(i, j) if i != j else None
                if result is None:
                    continue
                low, high = result.interval
                rows.append({
                    "game": short_name(setting.game.env_id), "players": setting.num_players,
                    "unit": setting.unit, "agent": label, "opponent": opponent,
                    "seat_games": result.seat_games, "wins": result.wins,
                    "win_rate": round(result.win_rate, 6), "ci_low": round(low, 6),
                    "ci_high": round(high, 6), "even_share": round(1 / setting.num_players, 6),
                    "seed": setting.seed,
                })
    return rows


def rating_rows(settings: Sequence[SettingResult]) -> list[dict[str, Any]]:
    """One row per setting and agent, best first by win rate (the ``arena_ratings.csv``
    rows), with the agents each is not separated from and its rank by ordinal."""
    rows = []
    for setting in settings:
        apart = not_separated(setting.standings)
        by_ordinal = ordinal_ranks(setting.standings)
        for rank, standing in enumerate(setting.ranked(), start=1):
            low, high = standing.interval
            rows.append({
                "game": short_name(setting.game.env_id), "players": setting.num_players,
                "unit": setting.unit, "games_per_pairing": setting.games, "rank": rank,
                "agent": standing.label, "seat_games": standing.seat_games,
                "wins": standing.wins, "win_rate": round(standing.win_rate, 6),
                "ci_low": round(low, 6), "ci_high": round(high, 6),
                "not_separated_from": ";".join(apart[standing.label]),
                "mu": round(standing.rating.mu, 4), "sigma": round(standing.rating.sigma, 4),
                "ordinal": round(standing.rating.ordinal, 4),
                "ordinal_rank": by_ordinal[standing.label], "seed": setting.seed,
            })
    return rows


def _csv(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["game"],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def write_results(settings: Sequence[SettingResult], directory: str | Path) -> list[Path]:
    """Write ``arena.md``, ``arena.csv`` and ``arena_ratings.csv``; return their paths."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    files = {"arena.md": format_markdown(settings), "arena.csv": _csv(pairing_rows(settings)),
             "arena_ratings.csv": _csv(rating_rows(settings))}
    paths = []
    for name, text in files.items():
        path = target / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def update_cards(settings: Sequence[SettingResult], command: str = "") -> list[Path]:
    """Write the ``baseline`` agent's arena results into each shipped model's card."""
    written = []
    for setting in settings:
        if "baseline" not in setting.labels:
            continue
        me = setting.labels.index("baseline")
        standing = setting.standings[me]
        path = baseline_path(setting.game, setting.num_players)
        card = read_card(path) or {}
        head_to_head = {}
        for j, opponent in enumerate(setting.labels):
            result = setting.head_to_head(me, j) if j != me else None
            if result is not None:
                low, high = result.interval
                head_to_head[opponent] = {"seat_games": result.seat_games, "wins": result.wins,
                                          "win_rate": round(result.win_rate, 4),
                                          "ci95": [round(low, 4), round(high, 4)]}
        low, high = standing.interval
        card["arena"] = {
            "command": command, "seed": setting.seed, "agents": setting.labels,
            "per_pairing": f"{setting.games} x {setting.unit}",
            "win_rate": round(standing.win_rate, 4), "ci95": [round(low, 4), round(high, 4)],
            "seat_games": standing.seat_games,
            "openskill": {"mu": round(standing.rating.mu, 3),
                          "sigma": round(standing.rating.sigma, 3),
                          "ordinal": round(standing.rating.ordinal, 3)},
            "rank": [s.label for s in setting.ranked()].index("baseline") + 1,
            "rank_by_ordinal": ordinal_ranks(setting.standings)["baseline"],
            "not_separated_from": not_separated(setting.standings)["baseline"],
            "head_to_head": head_to_head,
        }
        written.append(write_card(path, card))
    return written


# -------------------------------------------------------------------- README


def _baseline_players(name: str) -> tuple[int, ...] | None:
    """The baseline table sizes of a registered game; ``None`` for an unknown name."""
    try:
        return find_game(name).baseline_players
    except ValueError:
        return None


def _standing(row: Mapping[str, str]) -> Standing:
    return Standing(row["agent"], int(row["seat_games"]), int(row["wins"]),
                    Rating(float(row["mu"]), float(row["sigma"])))


def _arena_table(rows: Sequence[Mapping[str, str]]) -> str:
    """The README's arena table from ``arena_ratings.csv`` rows: each setting ranked
    again from its wins and ratings (:mod:`benchmarks.arena_results`), so the table
    follows the ranking rule of the code that prints it."""
    lines = ["| game | players | per pairing | rank | agent | win rate (95% CI) | "
             "not separated from | OpenSkill mu +- sigma | ordinal (rank) |",
             "|---|---:|---|---:|---|---|---|---|---:|"]
    settings: dict[tuple[str, str], list[Mapping[str, str]]] = {}
    for row in rows:
        settings.setdefault((row["game"], row["players"]), []).append(row)
    for (game, players), chosen in settings.items():
        standings = [_standing(row) for row in chosen]
        apart = not_separated(standings)
        by_ordinal = ordinal_ranks(standings)
        per_pairing = f"{chosen[0]['games_per_pairing']} x {chosen[0]['unit']}"
        for rank, standing in enumerate(ranked(standings), start=1):
            low, high = standing.interval
            lines.append(
                f"| {game} | {players} | {per_pairing} | {rank} | {standing.label} | "
                f"{standing.win_rate:.3f} ({low:.3f}-{high:.3f}) | "
                f"{separation(apart[standing.label])} | "
                f"{standing.rating.mu:.2f} +- {standing.rating.sigma:.2f} | "
                f"{standing.rating.ordinal:.2f} ({by_ordinal[standing.label]}) |")
    return "\n".join(lines)


def readme_tables(results: str | Path = RESULTS) -> dict[str, str]:
    """The README's tables, by marker name, from ``arena_ratings.csv`` and ``throughput.csv``.

    Missing files give a line saying which command writes them.
    """
    folder = Path(results)
    tables = {}
    ratings = folder / "arena_ratings.csv"
    if ratings.is_file():
        tables["arena"] = _arena_table(read_csv(ratings))
    else:
        tables["arena"] = "No arena results yet: run `make tables`."
    throughput = folder / "throughput.csv"
    if throughput.is_file():
        lines = ["| env | players | steps/s | µs/step | vs leduc env() | steps/episode |",
                 "|---|---:|---:|---:|---:|---:|"]
        for row in read_csv(throughput):
            counts = _baseline_players(row["env"])
            if row["variant"] != "env()" or (counts is not None and
                                             int(row["players"]) not in counts):
                continue
            ratio = row.get("ratio_to_leduc_env") or ""
            lines.append(f"| {row['env']} | {row['players']} | "
                         f"{float(row['steps_per_second']):,.0f} | "
                         f"{float(row['microseconds_per_step']):.1f} | "
                         + (f"{float(ratio):.2f}x" if ratio else "-")
                         + f" | {float(row['steps_per_episode']):.1f} |")
        tables["throughput"] = "\n".join(lines)
    else:
        tables["throughput"] = "No throughput results yet: run `make tables`."
    return tables


def readme_with_tables(text: str, tables: Mapping[str, str]) -> str:
    """``text`` with each table between its markers.

    Raises:
        ValueError: a pair of markers is missing.
    """
    for name, table in tables.items():
        begin, end = MARKERS[name]
        head, found, rest = text.partition(begin)
        _, found_end, tail = rest.partition(end)
        if not found or not found_end:
            raise ValueError(f"README has no {name} table markers: {begin} ... {end}")
        text = f"{head}{begin}\n{table}\n{end}{tail}"
    return text


def write_readme(readme: str | Path = README, results: str | Path = RESULTS) -> Path:
    """Rewrite the README's tables from the result files."""
    path = Path(readme)
    path.write_text(readme_with_tables(path.read_text(encoding="utf-8"),
                                       readme_tables(results)), encoding="utf-8")
    return path
