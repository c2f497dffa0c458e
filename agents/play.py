"""Play a game in the terminal against bots.

::

    from agents.play import play
    play("karel_kakelaar", 3, seat=0, opponent_specs=["random"], seed=7)

At your turn you see the table from your seat only (the game's render of your seat:
exactly what your observation is built from; other seats' hidden cards show as
``?`` or a count), what happened since you last saw the table, and your legal
actions as ``index: label`` lines, each move in words spoken to you ("play Grave
Digger at player_2": the table view's labels, :meth:`cardgym.aec.CardGameEnv.table_view`,
where the game has them, else the action table's descriptions). Answer with an index,
an action name or label (any case), or a prefix of the name that fits one legal
action only. ``help`` lists the choices again with their names; ``quit`` or the end
of input stops the game.

What happened is told as you saw it (the game's public record, :mod:`cardgym.record`):
who played what, at whom, naming what, with what result, and the secrets you were
party to (the card you drew, the card a Snake Sorcerer made someone show you); other
seats' secrets (a bid face down, where a kitten goes back in the deck) show only as
the fact that they chose. Right after your move you read what it did (every event up
to the next player's decision: the card you drew, that you exploded); before your
next move, what happened since; once the game is over, the rest.

A prompt with a single legal move (an Exploding Kittens Nope window with no Nope in
hand) is answered for you, unless ``ask_always``: what happened since is told, then
one line saying which move was played for you, then what it did.

Seeding follows :mod:`agents.evaluate.seating`: ``play(..., seed=S)`` deals the same cards
and gives the bots the same generators as game 0 of an evaluation seeded with ``S``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from agents.evaluate.seating import game_seed, seat_rng
from agents.options import as_bound
from agents.outcomes import winners
from agents.policy import Policy, decide
from agents.specs import policy_of
from cardgym.records import Recorder
from cardgym.registration import BoundGame, Game, short_name

__all__ = ["QUIT_WORDS", "choose_action", "legal_lines", "move_labels", "opponent_count_rule",
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


def move_labels(env: Any, legal: Sequence[int]) -> dict[int, str]:
    """Each legal action of the seat to act, in words spoken to that seat.

    The labels of the table view (``env.table_view(seat)["legal_moves"]``) where the
    game has a table view, else (or where a label is empty) the action table's
    description, else the action's name.
    """
    table = env.action_table
    labels = {action: table.descriptions[action] or table.names[action] for action in legal}
    if getattr(env.game, "table", None) is not None:
        seat = env.agent_name_mapping[env.agent_selection]
        for move in env.table_view(seat)["legal_moves"]:
            if move["action"] in labels and move["label"]:
                labels[move["action"]] = move["label"]
    return labels


def legal_lines(env: Any, legal: Sequence[int], labels: Mapping[int, str] | None = None,
                names: bool = False) -> list[str]:
    """One ``index: label`` line per legal action (:func:`move_labels`), each move
    once; with ``names``, the action's name follows in brackets (``help``)."""
    labels = move_labels(env, legal) if labels is None else labels
    width = len(str(max(legal, default=0)))
    lines = []
    for action in legal:
        line = f"  {action:>{width}}: {labels[action]}"
        if names:
            line += f"  [{env.action_table.names[action]}]"
        lines.append(line)
    return lines


def choose_action(env: Any, answer: str, legal: Sequence[int],
                  labels: Mapping[int, str] | None = None) -> tuple[int | None, str]:
    """The action an answer names, or ``(None, why not)``.

    An answer is an action index, an action name (any case), the start of the name
    of exactly one legal action, or (given ``labels``) the whole label of exactly
    one legal action (any case).
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
    worded = [a for a in legal if labels is not None and labels[a].lower() == lowered]
    if len(worded) == 1:
        return worded[0], ""
    starts = [a for a in legal if names[a].lower().startswith(lowered)]
    if len(starts) == 1:
        return starts[0], ""
    if starts:
        return None, (f"{text!r} fits several legal actions: "
                      f"{', '.join(f'{a} ({names[a]})' for a in starts)}; give the whole name")
    return None, f"unknown action {text!r}; {choices}"


def _say(output: TextIO, text: str = "") -> None:
    output.write(text + "\n")


def _tell(output: TextIO, heading: str | None, lines: Sequence[str]) -> None:
    """Narration lines, indented, under ``heading`` (nothing at all when there are none)."""
    if not lines:
        return
    if heading is not None:
        _say(output, heading)
    for line in lines:
        _say(output, f"  {line}")


def _ask(env: Any, legal: Sequence[int], labels: Mapping[int, str], input_stream: TextIO,
         output: TextIO) -> int | None:
    """Your answer to the prompt, asked again until it names a legal action; ``None``
    (said so) when you quit or the input ends."""
    while True:
        output.write("> ")
        output.flush()
        answer = input_stream.readline()
        if not answer:
            _say(output)
            _say(output, "End of input: the game stops here, unfinished.")
            return None
        text = answer.strip()
        if text.lower() in QUIT_WORDS:
            _say(output, "You quit: the game stops here, unfinished.")
            return None
        if text.lower() in HELP_WORDS:
            _say(output, "Answer with a number, a name in brackets or the start of one:")
            for line in legal_lines(env, legal, labels, names=True):
                _say(output, line)
            continue
        chosen, problem = choose_action(env, text, legal, labels)
        if chosen is not None:
            return chosen
        _say(output, problem)


def play(game: Game | BoundGame | str, num_players: int, seat: int,
         opponent_specs: Sequence[str | Policy],
         seed: int, options: Mapping[str, Any] | None = None, input_stream: TextIO | None = None,
         output: TextIO | None = None, scenario: Mapping[str, Any] | None = None,
         record: str | Path | None = None, ask_always: bool = False,
         built: Mapping[str, Policy] | None = None) -> int:
    """Play one game in the terminal: you at ``seat``, bots at the other seats.

    Args:
        game: a registered game, or its id or short name; or a bound game
            (:meth:`cardgym.game.Game.bind`: give its ``num_players`` and no ``options``).
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
        ask_always: ask even when you have a single legal move (by default it is
            played for you, with one line saying so).
        built: policies already built for some of the specs (the command line's,
            made when it checked them), used instead of building them again.

    Returns:
        0 when the game was played to its end, 1 when it stopped early (``quit`` or
        the end of input).

    Raises:
        ValueError: a bad seat, opponent count, option (``OptionsError``) or agent
            spec (``AgentSpecError``).
    """
    input_stream = sys.stdin if input_stream is None else input_stream
    output = sys.stdout if output is None else output
    bound = as_bound(game, num_players, options)
    bot_specs = opponent_seats(num_players, seat, opponent_specs)
    bots: dict[int, Policy] = {
        s: policy_of(spec, bound, built) if isinstance(spec, str) else spec
        for s, spec in bot_specs.items()
    }
    env = bound.make_env()
    env.reset(seed=game_seed(seed, 0),
              options=None if scenario is None else {"scenario": dict(scenario)})
    rngs = {s: seat_rng(seed, 0, s) for s in bots}
    me = env.possible_agents[seat]

    def label(spec: Any) -> str:
        return spec if isinstance(spec, str) else str(getattr(spec, "name", None) or spec)

    recorder = Recorder(env, game_seed(seed, 0), scenario,
                        [label(bot_specs[s]) if s in bot_specs else "human"
                         for s in range(num_players)])

    entry = bound.game
    _say(output, f"{short_name(entry.env_id)}, {num_players} players, seed {seed}. "
                 f"You are {me} (seat {seat}).")
    _say(output, "Opponents: " + ", ".join(f"{env.possible_agents[s]} {label(spec)}"
                                           for s, spec in bot_specs.items()))
    _say(output, "At your turn answer with an action number or name; "
                 "'help' lists your choices, 'quit' ends the game."
                 + ("" if ask_always else " A single legal move is played for you."))
    # Events told to you so far: the record up to ``shown``. At the start that is
    # everything up to your own last event (none in a new game; a position's record
    # may hold some), as the env's render counts it.
    shown = env.since_last_move(seat)
    moved = False

    def news() -> list[str]:
        """The events since ``shown``, as you saw them; marks them shown."""
        nonlocal shown
        lines = env.narrate(seat, shown)
        shown = env.event_count
        return lines

    def heading() -> str:
        return "Since your last move:" if moved else "So far:"

    returns = dict.fromkeys(env.possible_agents, 0.0)
    seat_of = env.agent_name_mapping
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            if agent == me and any(not (env.terminations[a] or env.truncations[a])
                                   for a in env.agents if a != me):
                _tell(output, heading(), news())
                _say(output, "You are out of the game; the others play on to its end.")
            env.step(None)
            continue
        acting = seat_of[agent]
        if acting != seat:
            action = decide(bots[acting], env, agent, observation, rngs[acting])
            recorder.step(action)
            env.step(action)
            continue
        legal = env.legal_actions()
        labels = move_labels(env, legal)
        if len(legal) == 1 and not ask_always:
            chosen = legal[0]
            _tell(output, heading(), news())
            _say(output, f"Only one move: {labels[chosen]}; played for you.")
        else:
            _say(output)
            _say(output, env.game.render(env.game_state, seat))
            _tell(output, heading(), news())
            _say(output, f"Your move ({me}). Legal actions:")
            for line in legal_lines(env, legal, labels):
                _say(output, line)
            answer = _ask(env, legal, labels, input_stream, output)
            if answer is None:
                return 1
            chosen = answer
            _say(output, f"You chose: {labels[chosen]}.")
        recorder.step(chosen)
        env.step(chosen)
        moved = True
        _tell(output, None, news())
    won = winners(entry, env)
    _say(output)
    _say(output, "Game over.")
    _say(output, env.game.render(env.game_state, seat))
    _tell(output, heading(), news())
    names = ", ".join(env.possible_agents[s] + (" (you)" if s == seat else "")
                      for s in sorted(won))
    _say(output, f"Winners: {names or 'nobody'}.")
    verdict = "You win" if seat in won else "You lose"
    _say(output, f"{verdict}; your reward: {returns[me]:+g}.")
    if record is not None:
        _say(output, f"Record written to {recorder.record().save(record)}.")
    return 0
