"""Action tables: one flat ``Discrete`` space per game, with stable readable names.

Each game builds one :class:`ActionTable` from an ordered list of ``(name, move)``
pairs. The index of an action never changes within an environment version; the
names parse back to indices, and the table renders as the Markdown table of the
env's documentation page.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Generic, TypeVar

from cardgym.errors import IllegalMoveError

MoveT = TypeVar("MoveT", bound=Hashable)


class ActionTable(Generic[MoveT]):
    """An enumerated table of actions: index <-> readable name <-> engine move.

    Args:
        entries: ``(name, move, description)`` triples in index order. Names and
            moves must both be unique.
    """

    def __init__(self, entries: Iterable[tuple[str, MoveT, str]]) -> None:
        self.names: tuple[str, ...]
        self.moves: tuple[MoveT, ...]
        self.descriptions: tuple[str, ...]
        rows = list(entries)
        self.names = tuple(name for name, _, _ in rows)
        self.moves = tuple(move for _, move, _ in rows)
        self.descriptions = tuple(text for _, _, text in rows)
        self._index_by_name = {name: i for i, name in enumerate(self.names)}
        self._index_by_move = {move: i for i, move in enumerate(self.moves)}
        if len(self._index_by_name) != len(rows):
            raise ValueError("action names must be unique")
        if len(self._index_by_move) != len(rows):
            raise ValueError("action moves must be unique")

    def __len__(self) -> int:
        return len(self.names)

    def name(self, index: int) -> str:
        """The readable name of an action index."""
        self.check_index(index)
        return self.names[index]

    def index(self, name: str) -> int:
        """The index of a readable action name.

        Raises:
            IllegalMoveError: if no action has that name.
        """
        try:
            return self._index_by_name[name.strip()]
        except KeyError:
            close = [n for n in self.names if n.split(":")[0] == name.split(":")[0]][:8]
            hint = f"; names of that kind: {', '.join(close)}" if close else ""
            raise IllegalMoveError(f"unknown action name {name!r}{hint}") from None

    def move(self, index: int) -> MoveT:
        """The engine move of an action index."""
        self.check_index(index)
        return self.moves[index]

    def index_of_move(self, move: MoveT) -> int:
        """The action index of an engine move."""
        try:
            return self._index_by_move[move]
        except KeyError:
            raise IllegalMoveError(f"move {move!r} has no action index") from None

    def indices_of_moves(self, moves: Iterable[MoveT]) -> list[int]:
        """Action indices of several moves, in the order given."""
        table = self._index_by_move
        return [table[m] for m in moves]

    def check_index(self, index: int) -> None:
        """Raise :class:`IllegalMoveError` unless ``index`` is a valid action index."""
        if not 0 <= index < len(self.names):
            raise IllegalMoveError(
                f"action {index} is out of bounds: actions are integers 0..{len(self.names) - 1}"
            )

    def markdown(self, group_by: Sequence[tuple[str, str]] | None = None) -> str:
        """The table as Markdown: index, name, meaning.

        Args:
            group_by: optional ``(prefix, title)`` pairs; consecutive actions whose
                name starts with ``prefix`` are collapsed into one row giving their
                index range. Unmatched actions get a row each.
        """
        lines = ["| index | name | meaning |", "|---|---|---|"]
        i = 0
        while i < len(self.names):
            prefix_title = None
            if group_by:
                for prefix, title in group_by:
                    if self.names[i].startswith(prefix):
                        prefix_title = (prefix, title)
                        break
            if prefix_title is None:
                lines.append(f"| {i} | `{self.names[i]}` | {self.descriptions[i]} |")
                i += 1
                continue
            prefix, title = prefix_title
            j = i
            while j + 1 < len(self.names) and self.names[j + 1].startswith(prefix):
                j += 1
            lines.append(
                f"| {i}..{j} | `{self.names[i]}` .. `{self.names[j]}` | {title} |"
            )
            i = j + 1
        return "\n".join(lines)


def actions_of(mask: int) -> list[int]:
    """The action indices of the set bits of a legal-action mask, lowest first."""
    actions = []
    while mask:
        low = mask & -mask
        actions.append(low.bit_length() - 1)
        mask ^= low
    return actions
