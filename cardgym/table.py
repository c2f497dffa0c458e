"""The table view: a table exactly as one seat knows it, in JSON types.

A game's picture, its browser table and anyone who wants to show a game read this,
never the state. ``env.table_view(agent)`` gives the view of a seat,
``env.table_view(None)`` the spectator's (public information only) and
``env.table_view("full")`` everything (for finished games and one's own replays).

The game builds its part from the same per-seat view its observation encoder reads
(:attr:`cardgym.game.Game.player_view`), so that a seat's table view cannot hold more
than what that seat may know; the conformance kit checks it both ways, as it checks
the observation (:mod:`cardgym.testing`). The env adds what it keeps itself: the agent
names, who is to act, the legal moves of the viewer, the record in words, the result.

The format (``FORMAT`` 1; ``docs/table-view.md``, and a JSON Schema per game from
:func:`cardgym.table_schema.schema`)::

    {
      "format": 1, "game": "power_hungry_pets", "title": "Power Hungry Pets",
      "viewer": "player_0" | "spectator" | "full",
      "seat": 0 | null,                 # the viewer's seat
      "num_players": 2,
      "phase": "play",                  # one of the game's phase names
      "status": "Round 2",              # the game's heading, in words
      "to_act": "player_1" | null,      # null once the game is over
      "over": false,
      "seats": [{
          "agent": "player_0", "seat": 0, "label": "player_0 (you)",
          "you": true, "to_act": false,
          "status": "in the round",     # in words, the game's own
          "score": {"label": "tokens", "value": 1} | null,
          "hand": {"count": 2, "cards": [CARD | null, ...]},   # null: face down
          "areas": [PILE, ...],         # public cards in front of the seat
          "marks": ["protected"]        # short tags in words
      }, ...],                          # seat 0 first
      "piles": [PILE, ...],             # the piles in the middle of the table
      "notes": ["..."],                 # further facts the viewer knows, in words
      "legal_moves": [{"action": 12, "name": "play:grave_digger",
                       "label": "play Grave Digger"}],   # the viewer's, when to act
      "events": [{"index": 40, "text": "player_1 played ..."}],  # newest last
      "event_count": 41,
      "result": null | {"winners": ["player_0"], "returns": [1.0, -1.0]}
    }

    CARD = {"id": "grave_digger", "name": "Grave Digger", "value": 6 | null}
    PILE = {"name": "draw", "label": "draw pile", "count": 9, "cards": [CARD | null, ...]}

A hand's or a pile's ``cards`` list has exactly ``count`` entries (a pile's top card
first); a card the viewer does not know is ``null`` and is drawn face down. Every
string a person reads (labels, status, notes, events) speaks of the viewer as "you".

A game provides its part through :class:`TableSpec` (``Game.table``): ``view(state,
viewer)`` with ``viewer`` a seat, :data:`SPECTATOR` or :data:`FULL`, returning the keys
``phase``, ``status``, ``seats`` (per seat ``status``, ``score``, ``hand``, ``areas``,
``marks``), ``piles`` and ``notes``; the helpers below build its pieces.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["FORMAT", "FULL", "SPECTATOR", "CardFace", "TableSpec", "card", "compose",
           "game_part_keys", "hand", "pile", "seat_name", "seat_part", "state_view", "table_of",
           "viewer_name"]

#: The format version; it moves on with any change of the keys above.
FORMAT: Final = 1
#: The viewer of the whole table, hidden cards included.
FULL: Final = "full"
#: The viewer of public information only (``env.table_view(None)``).
SPECTATOR: Final = None

#: How many of the newest events a view carries.
EVENTS_SHOWN: Final = 20

Viewer = int | str | None
JSON = dict[str, Any]


@dataclass(frozen=True)
class CardFace:
    """One kind of card as the table shows it.

    Attributes:
        id: snake-case id, as in action names and positions (``grave_digger``).
        name: the name in words (``Grave Digger``).
        value: the number printed on the card, or ``None`` when it has none.
        color: the card's colour in pictures, ``#rrggbb``.
    """

    id: str
    name: str
    value: int | None = None
    color: str = "#d8d0c0"

    def json(self) -> JSON:
        """The card as the table view writes it."""
        return {"id": self.id, "name": self.name, "value": self.value}


@dataclass(frozen=True)
class TableSpec:
    """What a game tells about its table (``Game.table``).

    Attributes:
        view: ``(state, viewer)`` -> the game's part of the table view (see the
            module), for a seat, :data:`SPECTATOR` or :data:`FULL`. A seat's part is
            built from ``Game.player_view(state, seat)`` alone; the spectator's from
            public facts alone.
        cards: every kind of card, in the game's order.
        phases: every phase name ``view`` writes.
        piles: every pile and area name ``view`` writes.
        action_label: ``(state, action)`` -> a legal action of the seat to act in
            words, speaking to that seat ("play Grave Digger at player_2"); by default
            the action table's description.
        score_label: what a seat's score counts (``tokens``, ``worms``), or ``None``
            when seats have no score.
    """

    view: Callable[[Any, Viewer], JSON]
    cards: tuple[CardFace, ...]
    phases: tuple[str, ...]
    piles: tuple[str, ...]
    action_label: Callable[[Any, int], str] | None = None
    score_label: str | None = None

    def face(self, card_id: str) -> CardFace:
        """The card kind of an id; ``KeyError`` naming the ids for an unknown one."""
        for face in self.cards:
            if face.id == card_id:
                return face
        raise KeyError(f"no card {card_id!r}; cards: {', '.join(f.id for f in self.cards)}")


# -------------------------------------------------------------- the pieces


def card(face: CardFace | None) -> JSON | None:
    """A card as the table view writes it; ``None`` (face down) for an unknown one."""
    return None if face is None else face.json()


def hand(cards: Iterable[CardFace | None], count: int | None = None) -> JSON:
    """A hand: the known cards, then ``count`` less those face down (``count``
    defaults to the cards given)."""
    shown = [card(face) for face in cards]
    total = len(shown) if count is None else count
    if total < len(shown):
        raise ValueError(f"a hand of {total} cards cannot show {len(shown)}")
    return {"count": total, "cards": shown + [None] * (total - len(shown))}


def pile(name: str, label: str, cards: Iterable[CardFace | None] = (),
         count: int | None = None) -> JSON:
    """A pile (top card first): the cards given, then face-down cards up to ``count``."""
    entry = hand(cards, count)
    return {"name": name, "label": label, **entry}


def seat_part(status: str, hand_part: JSON, score: int | None = None,
              score_label: str | None = None, areas: Sequence[JSON] = (),
              marks: Sequence[str] = ()) -> JSON:
    """The game's part of one seat."""
    return {"status": status,
            "score": None if score_label is None else {"label": score_label, "value": score},
            "hand": hand_part, "areas": list(areas), "marks": list(marks)}


def viewer_name(viewer: Viewer) -> str:
    """``player_N``, ``spectator`` or ``full``."""
    if viewer is None:
        return "spectator"
    if viewer == FULL:
        return FULL
    return f"player_{viewer}"


def seat_name(seat: int, viewer: Viewer) -> str:
    """A seat in words as ``viewer`` reads it: "you" for the viewer's own seat."""
    return "you" if seat == viewer else f"player_{seat}"


def game_part_keys() -> tuple[str, ...]:
    """The keys a game's ``TableSpec.view`` returns."""
    return ("phase", "status", "seats", "piles", "notes")


def check_game_part(part: Mapping[str, Any], num_players: int) -> None:
    """Raise ``ValueError`` naming what is wrong with a game's part of a view (the keys,
    one seat entry per seat); the schema checks the rest."""
    keys = set(game_part_keys())
    if set(part) != keys:
        raise ValueError(f"a game's table view has the keys {sorted(keys)}, got {sorted(part)}")
    if len(part["seats"]) != num_players:
        raise ValueError(f"a game's table view has one entry per seat ({num_players}), "
                         f"got {len(part['seats'])}")


# ------------------------------------------------------ the env's part


def table_of(game: Any) -> TableSpec:
    """The game's :class:`TableSpec`; ``ValueError`` for a game without one."""
    spec = game.table
    if not isinstance(spec, TableSpec):
        raise ValueError(f"{game.title} has no table view (Game.table): no table view or "
                         "picture can be made of it")
    return spec


@functools.lru_cache(maxsize=1 << 16)
def _told(describe: Callable[[Any, int, int], str], event: Any, reader: int,
          num_players: int) -> str:
    """``event`` in words as ``reader`` saw it (:data:`~cardgym.record.TABLE`: all of
    it). Events are frozen values and a game's ``describe_event`` a function of its
    arguments alone, so the words are kept: a view tells the same events again and
    again."""
    from cardgym.record import TABLE

    return describe(event if reader == TABLE else event.as_seen_by(reader), reader,
                    num_players)


def compose(game: Any, state: Any, viewer: Viewer, *, num_players: int, action_table: Any,
            to_act: int | None, legal: Sequence[int]) -> JSON:
    """A whole table view: the game's part (``game.table.view``) and what the env
    keeps, for ``viewer`` (a seat, :data:`SPECTATOR` or :data:`FULL`).

    Args:
        game: the :class:`~cardgym.game.Game`.
        state: the game state.
        viewer: whose view.
        num_players: seats at the table.
        action_table: the env's :class:`~cardgym.actions.ActionTable`.
        to_act: the seat to act, ``None`` once the game is over.
        legal: the legal actions the view lists (the viewer's, when to act; those of
            the seat to act for the full view; none for the spectator).
    """
    from cardgym.record import TABLE  # the record stays below the table view

    spec = table_of(game)
    part = spec.view(state, viewer)
    check_game_part(part, num_players)
    seat = viewer if isinstance(viewer, int) else None
    seats = []
    for index, entry in enumerate(part["seats"]):
        agent = f"player_{index}"
        seats.append({"agent": agent, "seat": index,
                      "label": agent + (" (you)" if index == seat else ""),
                      "you": index == seat, "to_act": index == to_act, **entry})
    log = game.log(state)
    start = max(len(log) - EVENTS_SHOWN, 0)
    # A spectator reads the record as a seat that is party to no secret would.
    reader = TABLE if viewer == FULL else num_players if seat is None else seat
    texts = [_told(game.describe_event, event, reader, num_players) for event in log[start:]]
    label_of = spec.action_label
    moves = [{"action": int(action), "name": action_table.names[action],
              "label": (label_of(state, action) if label_of is not None
                        else action_table.descriptions[action] or action_table.names[action])}
             for action in legal]
    over = bool(game.is_over(state))
    result = None
    if over:
        result = {"winners": [f"player_{s}" for s in sorted(game.winners(state))],
                  "returns": [float(r) for r in game.returns(state)]}
    return {
        "format": FORMAT, "game": game.name, "title": game.title,
        "viewer": viewer_name(viewer), "seat": seat, "num_players": num_players,
        "phase": part["phase"], "status": part["status"],
        "to_act": None if to_act is None or over else f"player_{to_act}", "over": over,
        "seats": seats, "piles": part["piles"], "notes": part["notes"],
        "legal_moves": moves,
        "events": [{"index": start + i, "text": text} for i, text in enumerate(texts)],
        "event_count": len(log), "result": result,
    }


def state_view(game: Any, config: Any, state: Any, viewer: Viewer) -> JSON:
    """The table view of a bare state, outside an env (a replay's positions): the seat
    to act is the game's, and its legal moves come from the game's layout."""
    layout = game.layout(config)
    over = bool(game.is_over(state))
    to_act = None if over else game.to_act(state)
    legal: list[int] = []
    if to_act is not None and (viewer == FULL or viewer == to_act):
        mask = layout.legal_mask(state)
        legal = [i for i in range(layout.num_actions) if mask >> i & 1]
    return compose(game, state, viewer, num_players=config.num_players,
                   action_table=layout.action_table, to_act=to_act, legal=legal)
