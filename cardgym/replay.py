"""Step through a game record in the terminal (``cardgym replay FILE``).

The viewer shows the table after a chosen number of moves, from one seat's view
(what that seat's observation is built from: other hands hidden) or the full
table, with what happened in the last move as that seat saw it. Interactive
commands, one per line:

==============  ==================================================
``n`` / Enter   next move
``p``           previous move
``N`` (number)  go to the position after N moves (0: the start)
``end``         the last position
``seat K``      view from seat K; ``table`` for the full table
``position``    print the current position as JSON (a position file)
``q``           quit (as does the end of input)
==============  ==================================================
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from cardgym.errors import shorten
from cardgym.positions import document_of
from cardgym.record import TABLE
from cardgym.records import Replay

__all__ = ["COMMANDS", "frame", "position_document", "run"]

COMMANDS = "n(ext), p(rev), a move number, end, seat K, table, position, q(uit)"


def frame(replay: Replay, step: int, seat: int | None) -> str:
    """The table after ``step`` moves, from ``seat``'s view (``None``: the full table),
    headed by the move that led there and followed by its events as the viewer saw them."""
    record, game = replay.record, replay.game
    total = len(replay)
    view = "the full table" if seat is None else f"seat {seat}'s view"
    if step == 0:
        head = f"start ({total} moves), {view}"
    else:
        mover, name = record.moves[step - 1]
        head = f"move {step}/{total}: seat {mover} chose {name}, {view}"
    lines = [head, game.render(replay.states[step], seat)]
    if step > 0:
        events = game.log(replay.states[step])[replay.events[step - 1]:replay.events[step]]
        viewer = TABLE if seat is None else seat
        told = [game.describe_event(event if seat is None else event.as_seen_by(seat),
                                    viewer, record.num_players) for event in events]
        if told:
            lines += ["What happened:", *(f"  {line}" for line in told)]
    if step == total:
        lines.append(f"Game over: winners {list(record.winners)}, returns "
                     f"{[round(r, 3) for r in record.returns]}")
    return "\n".join(lines)


def position_document(replay: Replay, step: int) -> dict[str, Any]:
    """The position file of the game after ``step`` moves."""
    return document_of(replay.game, replay.config, replay.states[step])


def run(replay: Replay, input_stream: TextIO, output: TextIO, seat: int | None = None,
        step: int = 0) -> int:
    """The interactive viewer: show ``step``, then follow commands until ``q`` or the
    end of input. Returns the exit status (0)."""
    total = len(replay)
    print(frame(replay, step, seat), file=output)
    while True:
        print(f"[{step}/{total}] {COMMANDS} > ", end="", file=output, flush=True)
        line = input_stream.readline()
        if not line:
            print(file=output)
            return 0
        command = line.strip().lower()
        if command in ("q", "quit", "exit"):
            return 0
        moved = _command(replay, command, step, seat)
        if isinstance(moved, str):
            print(moved, file=output)
            continue
        step, seat, show_position = moved
        print(file=output)
        if show_position:
            print(json.dumps(position_document(replay, step), indent=1), file=output)
        else:
            print(frame(replay, step, seat), file=output)


def _command(replay: Replay, command: str, step: int,
             seat: int | None) -> tuple[int, int | None, bool] | str:
    """What a command does: the new step, seat and whether to print the position; or
    a message saying why the command does nothing."""
    total, players = len(replay), replay.record.num_players
    words = command.split()
    if command in ("", "n", "next"):
        return (step + 1, seat, False) if step < total else "the game is over (p goes back)"
    if command in ("p", "prev", "b", "back"):
        return (step - 1, seat, False) if step > 0 else "this is the start (n goes on)"
    if command == "end":
        return total, seat, False
    if command in ("table", "full"):
        return step, None, False
    if command == "position":
        if replay.game.is_over(replay.states[step]):
            return "the game is over here; a position is taken before the end"
        return step, seat, True
    if command.isdigit():
        if int(command) > total:
            return f"the record has {total} moves; give 0..{total}"
        return int(command), seat, False
    if len(words) == 2 and words[0] == "seat" and words[1].isdigit():
        if int(words[1]) >= players:
            return f"seats are 0..{players - 1}"
        return step, int(words[1]), False
    return f"unknown command {shorten(command)}; commands: {COMMANDS}"
