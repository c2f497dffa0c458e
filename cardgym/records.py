"""Game records: a whole game as JSON, and its replay.

A record holds what it takes to play a game again: the env id and version, the
player count and every rule option, the seed of the env's generator (and the
scenario it started from, if any), the moves in order as ``[seat, action name]``,
and the result (each seat's final reward and the winners). Who sat where may be
noted too (``players``, the agents' labels). ``cardgym play --record``,
``cardgym eval --record DIR`` and ``cardgym arena --record DIR`` write them;
``cardgym replay FILE`` steps through one (:mod:`cardgym.replay`).

Replaying resets an env from the seed (and scenario) and steps the named actions;
it checks at each move that the seat to act is the recorded one and that the action
exists and is legal, and at the end that the game is over with the recorded result.
The env id names the env version, and so the stream the seed dealt from
(:mod:`cardgym.chance`): a record of a version this library keeps (a legacy one
included) replays in that version; a record made by an env version this library no
longer has is tried in the newest all the same, and when it breaks the error says
which version made it and which one tried.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgym.documents import (
    check_header,
    env_version,
    jsonable,
    options_of,
    read_document,
    write_document,
)
from cardgym.errors import DocumentError, shorten
from cardgym.game import Game

__all__ = ["FORMAT", "FORMAT_VERSION", "GameRecord", "Recorder", "Replay", "replay"]

FORMAT = "cardgym-record"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class GameRecord:
    """One game, as a record file holds it.

    Attributes:
        env_id: the env the game was played in, ``cardgym/NAME-vN``.
        num_players: seats at the table.
        options: every rule option.
        seed: the seed ``reset`` was given.
        moves: ``(seat, action name)`` per move, in order.
        returns: each seat's final reward (the game's returns).
        winners: the seats that won.
        scenario: the scenario the game started from, or ``None`` for a deal.
        players: a label per seat (the agents), or empty.
    """

    env_id: str
    num_players: int
    options: Mapping[str, Any]
    seed: int
    moves: tuple[tuple[int, str], ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    scenario: Mapping[str, Any] | None = None
    players: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """The record file's content, JSON types."""
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "env_id": self.env_id,
                "num_players": self.num_players, "options": jsonable(self.options),
                "seed": self.seed, "scenario": jsonable(self.scenario),
                "players": list(self.players),
                "moves": [[seat, name] for seat, name in self.moves],
                "result": {"returns": list(self.returns), "winners": list(self.winners)}}

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON; the path written."""
        return write_document(self.to_json(), path)

    @classmethod
    def load(cls, source: str | Path | Mapping[str, Any]) -> GameRecord:
        """A record from its file (or its document), every field checked.

        Raises:
            DocumentError: naming the field that is wrong and what is allowed.
        """
        data = read_document(source, "record")
        game, num_players, options = check_header(data, FORMAT, FORMAT_VERSION,
                                                  same_env=False)
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise DocumentError(f"'seed' must be a non-negative integer, got {shorten(seed)}")
        scenario = data.get("scenario")
        if scenario is not None and not isinstance(scenario, Mapping):
            raise DocumentError(f"'scenario' must be a mapping or null, got {shorten(scenario)}")
        result = data.get("result")
        if not isinstance(result, Mapping) or set(result) != {"returns", "winners"}:
            raise DocumentError(f"'result' must be {{'returns': [...], 'winners': [...]}}, "
                                f"got {shorten(result)}")
        players = data.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise DocumentError(f"'players' must be a list of labels, got {shorten(players)}")
        return cls(env_id=str(data["env_id"]), num_players=num_players, options=options,
                   seed=seed, moves=_moves(data.get("moves"), num_players),
                   returns=tuple(_numbers(result["returns"], num_players)),
                   winners=tuple(_seats(result["winners"], num_players)),
                   scenario=scenario, players=tuple(players))


def _moves(value: object, num_players: int) -> tuple[tuple[int, str], ...]:
    if not isinstance(value, list):
        raise DocumentError(f"'moves' must be a list of [seat, action name], got {shorten(value)}")
    moves = []
    for i, move in enumerate(value):
        if (not isinstance(move, list) or len(move) != 2 or isinstance(move[0], bool)
                or not isinstance(move[0], int) or not 0 <= move[0] < num_players
                or not isinstance(move[1], str)):
            raise DocumentError(f"moves[{i}] must be [seat 0..{num_players - 1}, action name], "
                                f"got {shorten(move)}")
        moves.append((move[0], move[1]))
    return tuple(moves)


def _numbers(value: object, num_players: int) -> list[float]:
    if (not isinstance(value, list) or len(value) != num_players
            or any(isinstance(v, bool) or not isinstance(v, (int, float))
                   or not math.isfinite(v) for v in value)):
        raise DocumentError(f"result 'returns' must list {num_players} finite numbers, got "
                            f"{shorten(value)}")
    return [float(v) for v in value]


def _seats(value: object, num_players: int) -> list[int]:
    if (not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int)
                                           or not 0 <= v < num_players for v in value)):
        raise DocumentError(f"result 'winners' must list seats 0..{num_players - 1}, "
                            f"got {shorten(value)}")
    return sorted(value)


class Recorder:
    """Writes down a game as it is played in an env: make one after ``reset``, call
    :meth:`step` with each action before passing it to ``env.step``, and
    :meth:`record` once the game is over.

    Args:
        env: the env (any wrapper around a cardgym env), just reset.
        seed: the seed it was reset with.
        scenario: the scenario it was reset with, if any.
        players: a label per seat.
    """

    def __init__(self, env: Any, seed: int, scenario: Mapping[str, Any] | None = None,
                 players: Sequence[str] = ()) -> None:
        self.env = env.unwrapped
        self.seed = seed
        self.scenario = scenario
        self.players = tuple(players)
        self.moves: list[tuple[int, str]] = []

    def step(self, action: int | None) -> None:
        """Note the action the agent to act is about to take (``None``, a finished
        agent's step, is not a move)."""
        if action is None:
            return
        env = self.env
        seat = env.agent_name_mapping[env.agent_selection]
        self.moves.append((seat, env.action_table.names[int(action)]))

    def record(self) -> GameRecord:
        """The record of the finished game."""
        env = self.env
        game: Game = env.game
        state = env.game_state
        if not game.is_over(state):
            raise DocumentError("the game is not over yet; a record holds a whole game")
        return GameRecord(env_id=game.env_id_of(env.version), num_players=env.num_players,
                          options=options_of(env.config),
                          seed=self.seed, moves=tuple(self.moves),
                          returns=tuple(float(r) for r in game.returns(state)),
                          winners=tuple(sorted(game.winners(state))),
                          scenario=self.scenario, players=self.players)


@dataclass
class Replay:
    """A record played again: the state before the first move and after each move.

    Attributes:
        record: the record.
        game: its game.
        states: ``states[k]`` is the game after ``k`` moves (``len(moves) + 1`` in all).
        events: ``events[k]`` is the length of the public record after ``k`` moves.
        config: the rule options the game ran with.
    """

    record: GameRecord
    game: Game
    states: list[Any]
    events: list[int]
    config: Any

    def __len__(self) -> int:
        return len(self.record.moves)


def replay(record: GameRecord | str | Path | Mapping[str, Any]) -> Replay:
    """Play a record again, checking every move and the result.

    Raises:
        DocumentError: the record is malformed, or it does not replay: a move out of
            turn, an action the game does not have or that is not legal there, a
            result that differs. When the record was made by another env version,
            the message says so.
    """
    if not isinstance(record, GameRecord):
        record = GameRecord.load(record)
    game, _, _ = check_header(record.to_json(), FORMAT, FORMAT_VERSION, same_env=False)
    try:
        return _replay(record, game)
    except DocumentError as error:
        if env_version(record.to_json(), game) is None:
            raise DocumentError(f"the record was made by {record.env_id} and does not replay "
                                f"on this cardgym's {game.env_id}: {error}") from None
        raise


def _replay(record: GameRecord, game: Game) -> Replay:
    try:
        env = game.make_env(num_players=record.num_players,
                            version=env_version(record.to_json(), game), **record.options)
        env.reset(seed=record.seed,
                  options=None if record.scenario is None else {"scenario": dict(record.scenario)})
    except ValueError as error:  # OptionError, ScenarioError
        raise DocumentError(f"the record's options or scenario are refused: {error}") from None
    names = {name: index for index, name in enumerate(env.action_table.names)}
    states, events = [env.game_state.clone()], [len(game.log(env.game_state))]
    for number, (seat, name) in enumerate(record.moves):
        _skip_finished(env)
        if game.is_over(env.game_state):
            raise DocumentError(f"move {number + 1}: the game is already over; the record has "
                                f"{len(record.moves)} moves")
        acting = env.agent_name_mapping[env.agent_selection]
        if acting != seat:
            raise DocumentError(f"move {number + 1}: seat {acting} is to act, the record says "
                                f"seat {seat}")
        if name not in names:
            raise DocumentError(f"move {number + 1}: {shorten(name)} is not an action of "
                                f"{game.env_id}")
        action = names[name]
        if action not in env.legal_actions():
            legal = ", ".join(env.action_table.names[a] for a in env.legal_actions())
            raise DocumentError(f"move {number + 1}: {shorten(name)} is not legal there; legal: {legal}")
        env.step(action)
        states.append(env.game_state.clone())
        events.append(len(game.log(env.game_state)))
    _check_result(record, game, env.game_state)
    return Replay(record, game, states, events, env.config)


def _skip_finished(env: Any) -> None:
    """Step the finished agents out (PettingZoo's ``step(None)``), as play does."""
    while (env.agents and not env.game.is_over(env.game_state)
           and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection])):
        env.step(None)


def _check_result(record: GameRecord, game: Game, state: Any) -> None:
    if not game.is_over(state):
        raise DocumentError(f"after its {len(record.moves)} moves the game is not over; the "
                            "record is cut short")
    returns = tuple(float(r) for r in game.returns(state))
    winners = tuple(sorted(game.winners(state)))
    if winners != record.winners or any(abs(a - b) > 1e-9
                                        for a, b in zip(returns, record.returns, strict=True)):
        raise DocumentError(f"the replay ends with winners {list(winners)} and returns "
                            f"{list(returns)}; the record says {list(record.winners)} and "
                            f"{list(record.returns)}")
