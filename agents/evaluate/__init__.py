"""Seeded evaluation of agents against each other: win rates with 95% intervals.

::

    result = evaluate("exploding_kittens", 4, ["heuristic", "random"], games=400, seed=0)
    print(format_eval(result))

- :mod:`~agents.evaluate.seating`: who sits where in each game, and its seeds;
- :mod:`~agents.evaluate.games`: the game loop, a batch of games (or best-of-N
  matches) in one process;
- :mod:`~agents.evaluate.pool`: the process pool the batches run on;
- :mod:`~agents.evaluate.results`: the records of the games, and what each agent
  achieved over them;
- :mod:`~agents.evaluate.report`: a result as Markdown;
- :mod:`~agents.evaluate.journal`: the finished games of a run kept on disk, so that a
  stopped run goes on where it stopped;
- :mod:`~agents.evaluate.run`: :func:`evaluate` and :func:`evaluate_many`, which put
  them together.
"""

from agents.evaluate.report import format_eval
from agents.evaluate.results import AgentResult, EvalResult, GameOutcome
from agents.evaluate.run import (
    EvalRequest,
    discard_journals,
    evaluate,
    evaluate_many,
)
from agents.evaluate.seating import (
    ENV_KEY,
    AgentSpec,
    agent_count_rule,
    agent_label,
    game_seed,
    match_game_seed,
    seat_rng,
    seating,
)

__all__ = ["ENV_KEY", "AgentResult", "AgentSpec", "EvalRequest", "EvalResult", "GameOutcome",
           "agent_count_rule", "agent_label", "discard_journals", "evaluate", "evaluate_many",
           "format_eval", "game_seed", "match_game_seed", "seat_rng", "seating"]
