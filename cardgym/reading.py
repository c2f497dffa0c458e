"""The reading API of a cardgym env: what a seat, a spectator or the full view reads
of the game beside PettingZoo's bookkeeping (:mod:`cardgym.aec`): the text of the
table, its picture, the table view, the record and its narration, action names.

:class:`TableReading` is a base of :class:`~cardgym.aec.CardGameEnv`; its methods
read the env's game through the same hooks as the rest of the env (``_game_render``,
``_game_log``, ``_game_describe``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.errors import ViewerError
from cardgym.record import TABLE, Event, events_as_seen_by
from cardgym.table import compose, table_of

if TYPE_CHECKING:
    from cardgym.actions import ActionTable
    from cardgym.game import Game

#: The size of a picture of the table, width x height.
PICTURE_SIZE: Final = (1280, 800)

#: Events the full view of ``render_text`` ends with.
FULL_VIEW_EVENTS = 12


class TableReading:
    """What can be read of the game at the table (see the module)."""

    if TYPE_CHECKING:  # set by CardGameEnv
        game: ClassVar[Game]
        _is_over_of: Callable[[Any], bool]
        game_state: Any
        num_players: int
        possible_agents: list[str]
        agents: list[str]
        terminations: dict[str, bool]
        truncations: dict[str, bool]
        agent_selection: str
        agent_name_mapping: dict[str, int]
        action_table: ActionTable[Any]
        _num_actions: int

        def _require_reset(self, what: str) -> None: ...
        def _game_to_act(self) -> int: ...
        def _game_legal_mask(self) -> int: ...
        def _game_render(self, seat: int | None) -> str: ...
        def _game_log(self) -> Sequence[Event]: ...
        def _game_describe(self, event: Event, seat: int) -> str: ...

    # ------------------------------------------------------------ text and pictures

    def render_image(self, seat: int | str | None = None,
                     size: tuple[int, int] = PICTURE_SIZE) -> NDArray[np.uint8]:
        """A picture of the table, drawn from the table view (:mod:`cardgym.picture`):
        ``seat`` (int) for one seat's view, ``"full"`` for everything, ``None`` for the
        view of the agent to act; an ``(height, width, 3)`` ``uint8`` array of ``size``
        (width, height).

        Raises:
            ViewerError: ``seat`` is none of these.
        """
        self._require_reset("render_image()")
        from cardgym.picture import table_image  # Pillow only once a picture is asked for

        viewer = self._render_viewer(seat)
        return table_image(self._table_view(viewer), table_of(self.game), size)

    def _render_viewer(self, seat: int | str | None) -> int | str:
        if seat is None:
            return self.agent_name_mapping[self.agent_selection]
        if seat == "full":
            return seat
        viewer = table_viewer(seat, self.possible_agents)
        assert viewer is not None
        return viewer

    def render_text(self, seat: int | str | None = None) -> str:
        """Text of the table: ``seat`` (int) for one seat's view, ``"full"`` for everything,
        ``None`` for the view of the agent to act.

        A seat's view ends with what happened since that seat's last move, as it saw
        it; the full view ends with the last :data:`FULL_VIEW_EVENTS` events, secrets
        included.
        """
        self._require_reset("render_text()")
        if seat == "full":
            text = self._game_render(None)
            lines = self.narrate("full", max(self.event_count - FULL_VIEW_EVENTS, 0))
            heading = "Last events:"
        else:
            if seat is None:
                seat = self.agent_name_mapping[self.agent_selection]
            seat = self._check_seat(seat)
            text = self._game_render(seat)
            lines = self.narrate(seat, self.since_last_move(seat))
            heading = "Since your last move:"
        if not lines:
            return text
        return "\n".join([text, heading, *(f"  {line}" for line in lines)])

    # ----------------------------------------------------------- the table view

    def table_view(self, agent: str | int | None) -> dict[str, Any]:
        """The table as ``agent`` knows it, in JSON types (:mod:`cardgym.table`).

        Args:
            agent: an agent name (``"player_0"``) or seat number for that seat's view;
                ``None`` for the spectator's (public information only); ``"full"``
                for everything, hidden cards included (finished games, replays).

        Raises:
            ViewerError: ``agent`` is none of these, or a seat that has left a game
                that goes on (ask for the spectator's view); nothing changes.
            OrderError: before ``reset()``.
        """
        self._require_reset("table_view()")
        viewer = table_viewer(agent, self.possible_agents)
        if isinstance(viewer, int) and self.possible_agents[viewer] not in self.agents \
                and not self._table_over():
            raise ViewerError(f"{self.possible_agents[viewer]} has left the game, which goes "
                              "on without it: ask for the spectator's view (None) or the full "
                              "view ('full')")
        return self._table_view(viewer)

    def _table_over(self) -> bool:
        return (not self.agents or bool(self._is_over_of(self.game_state))
                or all(self.terminations[a] or self.truncations[a] for a in self.agents))

    def _table_view(self, viewer: int | str | None) -> dict[str, Any]:
        over = self._table_over()
        to_act = None if over else self._game_to_act()
        legal: list[int] = []
        if not over and (viewer == "full" or viewer == to_act):
            mask = self._game_legal_mask()
            legal = [i for i in range(self._num_actions) if mask >> i & 1]
        return compose(self.game, self.game_state, viewer, num_players=self.num_players,
                       action_table=self.action_table, to_act=to_act, legal=legal)

    # --------------------------------------------------------- the record

    @property
    def event_count(self) -> int:
        """Events in the game's record so far (an index for :meth:`narrate`)."""
        self._require_reset("event_count")
        return len(self._game_log())

    def events(self, seat: int, start: int = 0) -> list[Event]:
        """The record from index ``start`` on, as ``seat`` saw it: secrets it did not
        see are blanked (:meth:`cardgym.record.Event.as_seen_by`)."""
        self._require_reset("events()")
        return events_as_seen_by(self._game_log(), seat, start)

    def narrate(self, seat: int | str, start: int = 0) -> list[str]:
        """The record from index ``start`` on, one line per event, as ``seat`` saw it
        (``"full"``: everything, secrets included)."""
        self._require_reset("narrate()")
        log = self._game_log()[start:]
        if seat == "full":
            return [self._game_describe(event, TABLE) for event in log]
        seat = self._check_seat(seat)
        return [self._game_describe(event.as_seen_by(seat), seat) for event in log]

    def since_last_move(self, seat: int) -> int:
        """Index of the first event after ``seat``'s own last event (0 if it has none)."""
        log = self._game_log()
        for index in range(len(log) - 1, -1, -1):
            if log[index].actor == seat:
                return index + 1
        return 0

    def _check_seat(self, seat: object) -> int:
        if (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                or not 0 <= seat < self.num_players):
            raise ValueError(f"seat {seat!r} is not at this table; seats are "
                             f"0..{self.num_players - 1}, or 'full' for the whole table")
        return int(seat)

    # --------------------------------------------------------------- names

    def action_name(self, action: int) -> str:
        """Readable name of an action index."""
        return self.action_table.name(action)

    def action_index(self, name: str) -> int:
        """Action index of a readable name."""
        return self.action_table.index(name)


def table_viewer(agent: object, agents: Sequence[str]) -> int | str | None:
    """The viewer ``agent`` names: a seat, ``"full"`` or ``None`` (the spectator).

    Raises:
        ViewerError: naming what is allowed.
    """
    if agent is None or agent == "full":
        return agent  # type: ignore[return-value]
    if isinstance(agent, str) and agent in agents:
        return agents.index(agent)
    if isinstance(agent, (int, np.integer)) and not isinstance(agent, (bool, np.bool_)) \
            and 0 <= agent < len(agents):
        return int(agent)
    raise ViewerError(f"no table view for {agent!r}: ask for an agent ({', '.join(agents)}) "
                      f"or its seat 0..{len(agents) - 1}, None for the spectator, or 'full'")
