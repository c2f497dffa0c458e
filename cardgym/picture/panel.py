"""The side panel: the title, the status, the notes, the viewer's moves and the last
events of a table view, wrapped and cut to the room there is.

The events keep their newest lines (at the bottom); the notes and the moves keep their
first ones and say how many more there are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardgym.picture.scene import (
    ELLIPSIS,
    Box,
    Primitive,
    Rect,
    Text,
    fit_text,
    line_height,
    wrap_text,
)

FILL: Final = "#101316"
RULE: Final = "#2c343c"
TITLE: Final = "#ffffff"
TEXT: Final = "#e6eaee"
MUTED: Final = "#8e9ba6"
OLD: Final = "#b3bdc6"
HEADING: Final = "#f5c542"
GOOD: Final = "#5fd08f"
BULLET: Final = "#5d95c4"
#: The shares of the room the notes, moves and events get before the rest is shared.
_SHARES: Final = (0.22, 0.36, 0.42)


@dataclass(frozen=True)
class _Item:
    """One entry of a list: its wrapped lines and its colour."""

    lines: list[str]
    colour: str


def _viewer_line(view: Mapping[str, Any]) -> str:
    viewer = str(view.get("viewer"))
    who = {"spectator": "spectator's view", "full": "full view (all cards)"}.get(
        viewer, f"view of {viewer}")
    return f"{who} \u00b7 {view.get('num_players', len(view['seats']))} players"


def _moves_heading(view: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The moves' heading and, when there are none, why."""
    to_act = view.get("to_act")
    if view.get("viewer") == "full":
        heading = f"moves of {to_act}" if to_act else "moves"
    else:
        heading = "your moves"
    if view.get("viewer") == "spectator":
        heading = "moves"
    if view.get("legal_moves"):
        return heading, []
    if view.get("over"):
        return heading, ["none: the game is over"]
    if view.get("viewer") == "spectator":
        return heading, [f"{to_act} to act" if to_act else "none"]
    return heading, [f"waiting for {to_act}" if to_act else "none"]


def _items(texts: Sequence[str], size: int, width: float, colour: str) -> list[_Item]:
    return [_Item(wrap_text(text, size, width, max_lines=4, indent=""), colour)
            for text in texts]


def _height(items: Sequence[_Item], lh: int, gap: int) -> int:
    return sum(len(item.lines) * lh + gap for item in items)


def _share(needs: Sequence[int], shares: Sequence[float], room: int) -> list[int]:
    """Heights for sections needing ``needs`` in ``room``: each its share first, then
    the rest to those still short, the last sections first."""
    given = [min(need, int(room * share)) for need, share in zip(needs, shares, strict=True)]
    left = room - sum(given)
    for index in reversed(range(len(needs))):
        extra = min(needs[index] - given[index], max(left, 0))
        given[index] += extra
        left -= extra
    return given


def panel_primitives(view: Mapping[str, Any], rect: Rect, font: int) -> list[Primitive]:
    """The side panel of ``view`` in ``rect``, its body text at ``font``."""
    out: list[Primitive] = [Box(rect, FILL, None, 0, 1, tag="panel")]
    pad = max(6, round(font * 1.0))
    inner = rect.inset(pad)
    width = inner.w
    y = inner.y
    title = max(font + 2, round(font * 1.65))
    for line in wrap_text(str(view.get("title", "")), title, width, max_lines=2):
        out.append(Text(inner.x, y, line, title, TITLE, max_width=width, bold=True,
                        tag="panel:title"))
        y += line_height(title)
    small = max(8, round(font * 0.86))
    out.append(Text(inner.x, y + 2, _viewer_line(view), small, MUTED, max_width=width,
                    tag="panel:viewer"))
    y += line_height(small) + pad // 2
    for line in wrap_text(str(view.get("status", "")), font, width, max_lines=3):
        out.append(Text(inner.x, y, line, font, TEXT, max_width=width, tag="panel:status"))
        y += line_height(font)
    y += 2
    out += _state_line(view, inner.x, y, small, width)
    y += line_height(small) + pad // 2
    lh = line_height(small)
    gap = max(2, small // 3)
    head = max(8, round(small * 0.92))
    head_h = line_height(head) + gap + pad // 2 + 1
    moves_heading, waiting = _moves_heading(view)
    bullet_w = round(small * 0.9)
    notes = _items([str(n) for n in view.get("notes", ())], small, width - bullet_w, TEXT)
    moves = _items([str(m["label"]) for m in view.get("legal_moves", ())] or waiting, small,
                   width - bullet_w, TEXT if view.get("legal_moves") else MUTED)
    events = list(view.get("events", ()))
    event_items = _items([str(e["text"]) for e in events], small, width - bullet_w, OLD)
    if event_items:
        event_items[-1] = _Item(event_items[-1].lines, TEXT)
    sections = [("notes", notes, False, _SHARES[0]), (moves_heading, moves, False, _SHARES[1]),
                ("last events", event_items, True, _SHARES[2])]
    shown = [section for section in sections if section[1]]
    while shown:
        needs = [head_h + _height(items, lh, gap) for _, items, _, _ in shown]
        height = _share(needs, [share for *_, share in shown], inner.bottom - y)[0]
        name, items, newest, _ = shown.pop(0)
        drawn, used = _section(name, items, newest, Rect.of(inner.x, y, width, height), small,
                               head, gap, bullet_w)
        out += drawn
        y += used
    return out


def _state_line(view: Mapping[str, Any], x: int, y: int, size: int,
                width: int) -> list[Primitive]:
    """Who is to act, or the result; and the phase."""
    result = view.get("result")
    if view.get("over") and result is not None:
        winners = ", ".join(result.get("winners", ())) or "nobody"
        text, colour = f"game over \u00b7 won by {winners}", GOOD
    elif view.get("to_act"):
        text, colour = f"to act: {view['to_act']} \u00b7 phase: {view.get('phase')}", HEADING
    else:
        text, colour = f"phase: {view.get('phase')}", MUTED
    return [Text(x, y, text, size, colour, max_width=width, tag="panel:state")]


def _section(name: str, items: Sequence[_Item], newest_last: bool, rect: Rect, size: int,
             head: int, gap: int, bullet_w: int) -> tuple[list[Primitive], int]:
    """A headed list in ``rect``: as many whole lines as fit, the first ones (or the
    newest, last ones, when ``newest_last``), and "+N more" for the items left out;
    the primitives and the height they take."""
    lh = line_height(size)
    head_h = line_height(head) + gap
    rule_gap = max(3, size // 2)
    if rect.h < head_h + rule_gap + lh:
        return [], 0
    out: list[Primitive] = [
        Box(Rect.of(rect.x, rect.y, rect.w, 1), RULE, None, 0, 1, tag="panel:rule"),
        Text(rect.x, rect.y + rule_gap, name.upper(), head, HEADING, max_width=rect.w,
             bold=True, tag=f"panel:{name}")]
    room = rect.h - head_h - rule_gap
    order = list(reversed(items)) if newest_last else list(items)
    kept: list[_Item] = []
    used = 0
    for index, item in enumerate(order):
        more = index + 1 < len(order) and not newest_last
        need = len(item.lines) * lh + gap + (lh if more else 0)
        if used + need > room:
            lines = (room - used - (0 if newest_last else lh)) // lh
            if lines >= 1 and (newest_last or index == 0):
                cut = item.lines[:lines]
                cut[-1] = fit_text(cut[-1] + ELLIPSIS, size, rect.w - bullet_w)
                kept.append(_Item(cut, item.colour))
            break
        kept.append(item)
        used += len(item.lines) * lh + gap
    left_out = len(items) - len(kept)
    if newest_last:
        kept.reverse()
    y = rect.y + rule_gap + head_h
    tag = f"panel:{name}:item"
    for item in kept:
        dot = max(3, size // 3)
        out.append(Box(Rect.of(rect.x + 1, y + lh / 2 - dot / 2, dot, dot), item.colour
                       if item.colour != OLD else BULLET, None, dot // 2, 1, tag="panel:bullet"))
        for line in item.lines:
            out.append(Text(rect.x + bullet_w, y, line, size, item.colour,
                            max_width=rect.w - bullet_w, tag=tag))
            y += lh
        y += gap
    if left_out and not newest_last and y + lh <= rect.bottom:
        out.append(Text(rect.x + bullet_w, y, f"+{left_out} more", size, MUTED,
                        max_width=rect.w - bullet_w, tag=f"panel:{name}:more"))
        y += lh + gap
    return out, y - rect.y + rule_gap
