"""Play a game in the terminal against bots.

::

    from agents.play import play
    play("karel_kakelaar", 3, seat=0, opponent_specs=["random"], seed=7)

At your turn you see the table from your seat only (``env.render_text(seat)``:
exactly what your observation is built from; other seats' hidden cards show as
``?`` or a count) and your legal actions as ``index: name  (description)`` lines.
Answer with an index or an action name (or a prefix that fits one legal action
only). ``help`` lists the choices again; ``quit`` or the end of input stops the game.
Below the table, the view tells what happened since your last move, as you saw it
(the game's public record, :mod:`cardgym.record`): who played what, at whom, naming
what, with what result, and the secrets you were party to (the card you were given);
other seats' secrets (a bid face down, where a kitten goes back in the deck) show
only as the fact that they chose.

Seeding follows :mod:`agents.evaluate.seating`: ``play(..., seed=S)`` deals the same cards
and gives the bots the same generators as game 0 of an evaluation seeded with ``S``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from agents.evaluate.seating import game_seed, seat_rng
from agents.options import check_options, make_env
from agents.outcomes import winners
from agents.policy import Policy, decide
from agents.specs import make_policy
from cardgym.records import Recorder
from cardgym.registration import Game, find_game, short_name

__all__ = ["QUIT_WORDS", "choose_action", "legal_lines", "opponent_count_rule",
           "opponent_seats", "play"]

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "?", "h"})


def opponent_seats(num_players: int, seat: int, opponent_specs: Sequence[Any]) -> dict[int, Any]:
    """The spec at each bot seat: one spec for every opponent, or one per opponent seat
    in seat order (the human's seat skipped)."""
    if not 0 <= seat < num_players:
        raise ValueError(f"seat {seat} is out of range; seats are 0..{num_players - 1}")
    others = [s for s in range(num_players) if s != seat]
    specs = list(opponent_specs)
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise ValueError(f"{opponent_count_rule(num_players)}, not {len(opponent_specs)}")
    return dict(zip(others, specs, strict=True))


def opponent_count_rule(num_players: int) -> str:
    """How many opponent specs a game at ``num_players`` seats takes, as a phrase."""
    if num_players == 2:
        return "give 1 opponent"
    return (f"give 1 opponent (for every other seat) or {num_players - 1} (one per other "
            f"seat, in seat order)")


def legal_lines(env: Any, legal: Sequence[int]) -> list[str]:
    """One ``index: name  (description)`` line per legal action."""
    table = env.action_table
    width = len(str(max(legal, default=0)))
    lines = []
    for action in legal:
        name = table.names[action]
        description = table.descriptions[action]
        lines.append(f"  {action:>{width}}: {name}" + (f"  ({description})" if description else ""))
    return lines


def choose_action(env: Any, answer: str, legal: Sequence[int]) -> tuple[int | None, str]:
    """The action an answer names, or ``(None, why not)``.

    An answer is an action index, an action name (any case), or the start of the
    name of exactly one legal action.
    """
    text = answer.strip()
    names = env.action_table.names
    choices = f"legal: {', '.join(f'{a} ({names[a]})' for a in legal)}"
    if not text:
        return None, f"type an action index or name; {choices}"
    try:
        number = int(text)
    except ValueError:
        number = None
    if number is not None:
        if number in legal:
            return number, ""
        if 0 <= number < len(names):
            return None, f"action {number} ({names[number]}) is not legal now; {choices}"
        return None, f"no action has number {number}; {choices}"
    lowered = text.lower()
    exact = [a for a in range(len(names)) if names[a].lower() == lowered]
    if exact:
        if exact[0] in legal:
            return exact[0], ""
        return None, f"{names[exact[0]]} is not legal now; {choices}"
    starts = [a for a in legal if names[a].lower().startswith(lowered)]
    if len(starts) == 1:
        return starts[0], ""
    if starts:
        return None, (f"{text!r} fits several legal actions: "
                      f"{', '.join(f'{a} ({names[a]})' for a in starts)}; give the whole name")
    return None, f"unknown action {text!r}; {choices}"


def _say(output: TextIO, text: str = "") -> None:
    output.write(text + "\n")


def play(game: Game | str, num_players: int, seat: int, opponent_specs: Sequence[str | Policy],
         seed: int, options: Mapping[str, Any] | None = None, input_stream: TextIO | None = None,
         output: TextIO | None = None, scenario: Mapping[str, Any] | None = None,
         record: str | Path | None = None) -> int:
    """Play one game in the terminal: you at ``seat``, bots at the other seats.

    Args:
        game: a registered game, or its id or short name.
        num_players: seats at the table.
        seat: your seat.
        opponent_specs: one agent spec (or policy object) for every opponent, or one
            per opponent seat in seat order.
        seed: deals and bots' choices (non-negative).
        options: rule options of the game.
        input_stream: where your answers come from (default ``sys.stdin``).
        output: where the table and prompts go (default ``sys.stdout``).
        scenario: a position to start from (a scenario, or ``env.position()``).
        record: a file to write the game's record to (:mod:`cardgym.records`) once
            the game is over.

    Returns:
        0 when the game was played to its end, 1 when it stopped early (``quit`` or
        the end of input).

    Raises:
        ValueError: a bad seat, opponent count, option (``OptionsError``) or agent
            spec (``AgentSpecError``).
    """
    input_stream = sys.stdin if input_stream is None else input_stream
    output = sys.stdout if output is None else output
    entry = game if isinstance(game, Game) else find_game(game)
    rule_options = check_options(entry, num_players, options)
    bot_specs = opponent_seats(num_players, seat, opponent_specs)
    bots: dict[int, Policy] = {
        s: spec if not isinstance(spec, str) else make_policy(spec, entry, num_players,
                                                                rule_options)
        for s, spec in bot_specs.items()
    }
    env = make_env(entry, num_players, rule_options)
    env.reset(seed=game_seed(seed, 0),
              options=None if scenario is None else {"scenario": dict(scenario)})
    rngs = {s: seat_rng(seed, 0, s) for s in bots}
    me = env.possible_agents[seat]

    def label(spec: Any) -> str:
        return spec if isinstance(spec, str) else str(getattr(spec, "name", None) or spec)

    recorder = Recorder(env, game_seed(seed, 0), scenario,
                        [label(bot_specs[s]) if s in bot_specs else "human"
                         for s in range(num_players)])

    _say(output, f"{short_name(entry.env_id)}, {num_players} players, seed {seed}. "
                 f"You are {me} (seat {seat}).")
    _say(output, "Opponents: " + ", ".join(f"{env.possible_agents[s]} {label(spec)}"
                                           for s, spec in bot_specs.items()))
    _say(output, "At your turn answer with an action number or name; "
                 "'help' lists your choices, 'quit' ends the game.")
    returns = dict.fromkeys(env.possible_agents, 0.0)
    seat_of = env.agent_name_mapping
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        acting = seat_of[agent]
        if acting != seat:
            action = decide(bots[acting], env, agent, observation, rngs[acting])
            recorder.step(action)
            env.step(action)
            continue
        legal = env.legal_actions()
        _say(output)
        _say(output, env.render_text(seat))
        _say(output, f"Your move ({me}). Legal actions:")
        for line in legal_lines(env, legal):
            _say(output, line)
        chosen: int | None = None
        while chosen is None:
            output.write("> ")
            output.flush()
            answer = input_stream.readline()
            if not answer:
                _say(output)
                _say(output, "End of input: the game stops here, unfinished.")
                return 1
            text = answer.strip()
            if text.lower() in QUIT_WORDS:
                _say(output, "You quit: the game stops here, unfinished.")
                return 1
            if text.lower() in HELP_WORDS:
                for line in legal_lines(env, legal):
                    _say(output, line)
                continue
            chosen, problem = choose_action(env, text, legal)
            if chosen is None:
                _say(output, problem)
        _say(output, f"You play {env.action_name(chosen)}.")
        recorder.step(chosen)
        env.step(chosen)
    won = winners(entry, env)
    _say(output)
    _say(output, "Game over.")
    _say(output, env.render_text(seat))
    names = ", ".join(env.possible_agents[s] + (" (you)" if s == seat else "")
                      for s in sorted(won))
    _say(output, f"Winners: {names or 'nobody'}.")
    verdict = "You win" if seat in won else "You lose"
    _say(output, f"{verdict}; your reward: {returns[me]:+g}.")
    if record is not None:
        _say(output, f"Record written to {recorder.record().save(record)}.")
    return 0
