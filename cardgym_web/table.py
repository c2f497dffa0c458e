"""One game at a web table: the env, who sits where, and every check of a move.

A :class:`WebTable` is plain synchronous code, without a web framework: the hub
(:mod:`cardgym_web.hub`) serialises the calls of a table behind a lock and runs a bot's
thinking off the event loop. A browser only ever receives :meth:`WebTable.message`, the
table view of its own seat or the spectator's (:meth:`cardgym.aec.CardGameEnv.table_view`,
which the conformance kit checks for leaks); the state never leaves this object.

Seats are numbered 0..N-1. Each human seat has a secret token, made here with
:mod:`secrets`; its link carries it. ``version`` counts the moves made, so that a move
chosen on an old view is refused as stale instead of landing on a new position.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.evaluate.seating import game_seed, seat_rng
from agents.options import make_env
from agents.policy import Policy, decide
from agents.specs import make_policy
from cardgym.records import GameRecord, Recorder
from cardgym.registration import Game, short_name
from cardgym_web.errors import WebError
from cardgym_web.seats import HUMAN

__all__ = ["SPECTATOR", "WebTable"]

#: The viewer of the spectator's view in messages and keys.
SPECTATOR = "spectator"


class WebTable:
    """A game in progress at a web table.

    Args:
        table_id: the table's name in links.
        game: the registered game.
        num_players: seats.
        options: rule options, already checked.
        seats: one server spec per seat (:func:`cardgym_web.seats.check_seats`):
            ``human`` or an agent.
        seed: the deal's and the bots' seed (as ``cardgym play --seed``).
        scenario: a position to start from, or ``None``.
        policies: agents already built, by seat (else they are made from ``seats``).
    """

    def __init__(self, table_id: str, game: Game, num_players: int, options: Mapping[str, Any],
                 seats: Sequence[str], seed: int, scenario: Mapping[str, Any] | None = None,
                 policies: Mapping[int, Policy] | None = None) -> None:
        self.table_id = table_id
        self.game = game
        self.num_players = num_players
        self.options = dict(options)
        self.seats = list(seats)
        self.seed = seed
        self.created = time.time()
        self.touched = time.monotonic()
        self.tokens = {seat: secrets.token_urlsafe(18)
                       for seat, spec in enumerate(self.seats) if spec == HUMAN}
        built = dict(policies or {})
        self.bots: dict[int, Policy] = {
            seat: built[seat] if seat in built else make_policy(spec, game, num_players,
                                                                self.options)
            for seat, spec in enumerate(self.seats) if spec != HUMAN}
        self.rngs = {seat: seat_rng(seed, 0, seat) for seat in self.bots}
        self.env: Any = make_env(game, num_players, self.options)
        self.env.reset(seed=game_seed(seed, 0),
                       options=None if scenario is None else {"scenario": dict(scenario)})
        self.recorder = Recorder(self.env, game_seed(seed, 0), scenario, self.seats)
        self.version = 0
        self.record_name: str | None = None
        self._views: dict[Any, dict[str, Any]] = {}
        self._skip_finished()

    # ------------------------------------------------------------------ state

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.game.is_over(self.env.game_state))

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        if self.over:
            return None
        return int(self.env.agent_name_mapping[self.env.agent_selection])

    def bot_to_act(self) -> bool:
        """Whether a bot is to act now."""
        seat = self.to_act
        return seat is not None and seat in self.bots

    def summary(self) -> dict[str, Any]:
        """What the lobby lists of the table: nothing secret (no token, no card)."""
        return {"table": self.table_id, "game": self.game.name, "env_id": self.game.env_id,
                "title": self.game.title, "num_players": self.num_players,
                "options": self.options, "seats": self.seats, "version": self.version,
                "over": self.over, "record": self.record_name,
                "link": f"/table/{self.table_id}"}

    def links(self) -> dict[str, str]:
        """The link of each human seat (token in the fragment, which no server log
        sees) and the spectator's."""
        links = {str(seat): f"/table/{self.table_id}#seat={seat}&token={token}"
                 for seat, token in self.tokens.items()}
        links[SPECTATOR] = f"/table/{self.table_id}"
        return links

    # -------------------------------------------------------------- viewers

    def viewer(self, seat: object, token: object) -> int | None:
        """The seat a join message may watch from: ``seat`` with its token, or ``None``
        (the spectator) when ``seat`` is ``None``.

        Raises:
            WebError: a seat that is not a number of this table, a bot's seat, or a
                missing or wrong token.
        """
        if seat is None:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < self.num_players:
            raise WebError("bad_seat", f"seat must be null (to watch) or a seat number "
                                       f"0..{self.num_players - 1}, not {seat!r}")
        expected = self.tokens.get(seat)
        if expected is None:
            raise WebError("bad_seat", f"seat {seat} is played by {self.seats[seat]}, not by a "
                                       "person; watch with seat null")
        if not isinstance(token, str) or not token:
            raise WebError("bad_token", f"seat {seat} needs its token (the one in its link)",
                           status=403)
        if not hmac.compare_digest(token.encode(), expected.encode()):
            raise WebError("bad_token", f"the token is not seat {seat}'s; open the link made "
                                        "for that seat", status=403)
        return seat

    def message(self, viewer: int | None) -> dict[str, Any]:
        """The ``view`` message for ``viewer`` (a seat, ``None`` for the spectator):
        the table view and what the page needs beside it. A seat that has left a game
        that goes on watches the spectator's view."""
        key = SPECTATOR if viewer is None else viewer
        cached = self._views.get(key)
        if cached is not None:
            return cached
        env = self.env
        out = viewer is not None and env.possible_agents[viewer] not in env.agents \
            and not self.over
        view = env.table_view(None if out or viewer is None else viewer)
        message = {"type": "view", "table": self.table_id, "version": self.version,
                   "seat": viewer, "out": out, "view": view,
                   "seats": [{"seat": seat, "agent": env.possible_agents[seat], "player": spec}
                             for seat, spec in enumerate(self.seats)],
                   "record": self.record_name}
        self._views[key] = message
        return message

    # ----------------------------------------------------------------- moves

    def move(self, seat: int, action: object, version: object) -> int:
        """Play ``action`` for the human at ``seat``, chosen on the view of ``version``.

        Returns:
            the action index played.

        Raises:
            WebError: the game is over, ``seat`` is not to act, ``version`` is not the
                table's (a stale view), or ``action`` is not one of its legal moves (an
                index or an action name); nothing changes.
        """
        if self.over:
            raise WebError("game_over", "the game is over; no more moves")
        if isinstance(version, bool) or not isinstance(version, int):
            raise WebError("bad_message", "a move needs 'version': the version of the view it "
                                          "was chosen on (an integer)")
        if version != self.version:
            raise WebError("stale", f"the move was chosen on version {version}, but the table "
                                    f"is at version {self.version}; choose again on the new view")
        if self.to_act != seat:
            acting = self.to_act
            raise WebError("not_your_turn", f"it is not your turn: seat {acting} "
                                            f"({self.env.possible_agents[acting]}) is to act")
        legal = self.env.legal_actions()
        index = self._action_index(action)
        if index not in legal:
            names = ", ".join(self.env.action_table.names[a] for a in legal)
            raise WebError("illegal_move", f"{action!r} is not a legal move now; legal: {names}")
        self._apply(index)
        return index

    def _action_index(self, action: object) -> int:
        table = self.env.action_table
        if isinstance(action, str):
            try:
                return table.names.index(action)
            except ValueError:
                raise WebError("illegal_move", f"{action[:60]!r} is not an action of "
                                               f"{self.game.title}") from None
        if isinstance(action, bool) or not isinstance(action, int) \
                or not 0 <= action < len(table.names):
            raise WebError("bad_message", f"'action' must be an action index 0.."
                                          f"{len(table.names) - 1} or an action name")
        return action

    def bot_action(self) -> int:
        """The action of the bot to act (slow for a search: call it off the event loop;
        it only reads the env)."""
        seat = self.to_act
        assert seat is not None and seat in self.bots, "no bot is to act"
        agent = self.env.agent_selection
        observation = self.env.observe(agent)
        return decide(self.bots[seat], self.env, agent, observation, self.rngs[seat])

    def play_bot(self, action: int) -> None:
        """Play the bot's ``action`` (from :meth:`bot_action` on this version)."""
        seat = self.to_act
        assert seat is not None and seat in self.bots, "no bot is to act"
        self._apply(int(action))

    def _apply(self, action: int) -> None:
        self.recorder.step(action)
        self.env.step(action)
        self._skip_finished()
        self.version += 1
        self._views.clear()
        self.touched = time.monotonic()

    def _skip_finished(self) -> None:
        env = self.env
        while env.agents and not self.over and (
                env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(None)

    # ---------------------------------------------------------------- record

    def record(self) -> GameRecord:
        """The finished game's record (:mod:`cardgym.records`)."""
        return self.recorder.record()

    def save_record(self, folder: Path) -> str:
        """Write the finished game's record into ``folder`` (made if missing) under a
        new name, atomically; returns the name."""
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.created))
        name = f"{stamp}-{short_name(self.game.env_id)}-{self.num_players}p-{self.table_id}.json"
        self.record().save(folder / name)
        self.record_name = name
        self._views.clear()
        return name


def new_seed() -> int:
    """A fresh seed for a table that names none."""
    return int(np.random.SeedSequence().generate_state(1)[0])
