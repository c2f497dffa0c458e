"""An evaluation's result as Markdown (what ``cardgym eval`` prints)."""

from __future__ import annotations

from agents.evaluate.results import EvalResult
from agents.outcomes import has_rounds
from cardgym.registration import short_name

__all__ = ["format_eval"]


def format_eval(result: EvalResult) -> str:
    """The result as Markdown: a heading line, one row per agent, win share per seat."""
    name = short_name(result.game.env_id)
    n = result.num_players
    options = ", ".join(f"{k}={v!r}" for k, v in result.options.items())
    rounds = has_rounds(result.game)
    best_of = result.match_length > 1
    wins_word = "match wins" if rounds or best_of else "wins"
    lines = [
        f"{name}, {n} players, {result.games} "
        + (f"best-of-{result.match_length} matches" if best_of else "games")
        + f", seed {result.seed}"
        + (f", options {options}" if options else "")
        + f": {result.steps_per_game:.1f} steps per " + ("match" if best_of else "game")
        + (f", {result.rounds / result.games:.1f} rounds per match" if rounds else "")
        + ".",
        f"Agents rotate seats game by game. Win rate = {wins_word} per seat-game (shared wins "
        f"count for each winner); an even share is {1 / n:.3f}.",
        "",
    ]
    header = ["agent", "spec", "seats", "seat-games", wins_word, "win rate", "95% CI",
              "moves/game"]
    if rounds:
        header += ["rounds won", "round win rate"]
    elif best_of:
        header += ["games won", "game win rate"]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for number, agent in enumerate(result.agents, start=1):
        low, high = agent.interval
        row = [str(number), agent.spec, str(agent.seats), str(agent.seat_games), str(agent.wins),
               f"{agent.win_rate:.3f}", f"{low:.3f}-{high:.3f}", f"{agent.moves_per_game:.1f}"]
        if rounds or best_of:
            row += [str(agent.round_wins), f"{agent.round_win_rate:.3f}"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "| seat | " + " | ".join(str(s) for s in range(n)) + " |",
              "|" + "---|" * (n + 1),
              "| win share | " + " | ".join(f"{share:.3f}" for share in result.seat_shares)
              + " |"]
    return "\n".join(lines)
