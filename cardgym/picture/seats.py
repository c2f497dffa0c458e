"""The seats around the table: where each sits and what its box shows.

The viewer's seat (seat 0 for the spectator and the full view) sits at the bottom
centre in a wider box; the others follow clockwise around a rounded ellipse (a
superellipse, which lets the seats use the corners of the table). A small search
picks the boxes: for a few shapes of the ring and the boxes, the others' boxes as
large as keep them a gap apart and the middle free for the piles; the best trade of
the others' size (up to a point) against the viewer's wins. It depends only on the
table's size and the number of seats, and is cached.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import product
from typing import Any, Final

from cardgym.picture.cards import Group, place_groups
from cardgym.picture.scene import Box, Primitive, Rect, Text, fit_text, line_height, text_width

#: Slots of the ring the viewer's seat takes (its neighbours keep off its box).
_VIEWER_SLOTS: Final = (1.7, 2.2, 2.8)
#: The ring's exponents: 2 is an ellipse, larger is squarer.
_SQUARENESS: Final = (2.2, 3.0)
#: The other seats' largest box (shares of the table) by the number of seats (the
#: last for more), and the shapes tried for it.
_OTHER: Final = {2: (0.6, 0.29), 3: (0.45, 0.27), 4: (0.34, 0.25)}
_ASPECTS: Final = (0.8, 1.0, 1.3)
#: The viewer's box (shares of the table) and the shrinks of its width tried.
_VIEWER: Final = (0.6, 0.29)
_VIEWER_SHRINK: Final = (1.0, 0.85, 0.7)
#: Past this share of the table, a larger box of another seat counts no more.
_ENOUGH: Final = 0.05
#: What the viewer's box area counts against the others' (in logarithms: shares).
_VIEWER_WEIGHT: Final = 0.5
#: The share of the table the piles keep free in the middle (width, height).
_MIDDLE: Final = (0.22, 0.18)

SEAT_FILL: Final = "#222a31"
SEAT_LINE: Final = "#3b4753"
VIEWER_FILL: Final = "#1f3140"
VIEWER_LINE: Final = "#5d95c4"
TO_ACT: Final = "#f5c542"
TEXT: Final = "#f2f4f6"
MUTED: Final = "#9fb0bd"
CHIP: Final = "#34414d"
MARK: Final = "#5a3f7a"
WINNER: Final = "#2f8f5b"
TO_ACT_TEXT: Final = "#1c1c1c"


def seat_order(num_seats: int, viewer_seat: int | None) -> list[int]:
    """The seats from the bottom of the picture, clockwise."""
    first = viewer_seat or 0
    return [(first + k) % num_seats for k in range(num_seats)]


def _angles(count: int, slots: float) -> list[float]:
    """The ring angles in degrees (90 is the bottom; growing runs clockwise on screen)."""
    if count == 1:
        return [90.0]
    unit = 360.0 / (count - 1 + slots)
    return [90.0] + [90.0 + unit * (slots / 2 + 0.5 + k) for k in range(count - 1)]


def _ring(table: Rect, count: int, other: tuple[float, float], viewer: tuple[float, float],
          shape: tuple[float, float]) -> list[Rect]:
    """Seat boxes of the given sizes, the viewer's first, around the ring; ``shape`` is
    the viewer's slots and the ring's squareness."""
    w, h = other
    rx, ry = (table.w - w) / 2, (table.h - h) / 2
    power = 2 / shape[1]
    rects = [Rect.of(table.cx - viewer[0] / 2, table.bottom - viewer[1], *viewer)]
    for angle in _angles(count, shape[0])[1:]:
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        x = table.cx + rx * math.copysign(abs(c) ** power, c)
        y = table.cy + ry * math.copysign(abs(s) ** power, s)
        rects.append(Rect.of(x - w / 2, y - h / 2, w, h))
    return rects


def _fits(rects: Sequence[Rect], table: Rect, middle: Rect, gap: int) -> bool:
    if not all(table.contains(r) and not r.intersects(middle) for r in rects):
        return False
    return not any(a.intersects(b, gap) for i, a in enumerate(rects) for b in rects[i + 1:])


def _largest(table: Rect, count: int, base: tuple[float, float], viewer: tuple[float, float],
             shape: tuple[float, float], middle: Rect, gap: int) -> list[Rect] | None:
    """The ring with the other seats' boxes as large as fits (``base`` scaled down,
    found by bisection), or ``None``."""
    def ring(factor: float) -> list[Rect] | None:
        rects = _ring(table, count, (base[0] * factor, base[1] * factor), viewer, shape)
        return rects if _fits(rects, table, middle, gap) else None

    found = ring(1.0)
    if found is not None:
        return found
    low, high = 0.1, 1.0
    for _ in range(8):
        factor = (low + high) / 2
        rects = ring(factor)
        if rects is None:
            high = factor
        else:
            found, low = rects, factor
    return found


@lru_cache(maxsize=64)
def seat_boxes(table: Rect, count: int, gap: int) -> tuple[Rect, ...]:
    """The seat boxes from the bottom clockwise (see the module), keeping apart by
    ``gap`` and off the middle."""
    middle = Rect.of(table.cx - table.w * _MIDDLE[0] / 2, table.cy - table.h * _MIDDLE[1] / 2,
                     table.w * _MIDDLE[0], table.h * _MIDDLE[1])
    enough = table.w * table.h * _ENOUGH
    best: list[Rect] | None = None
    best_score = -1.0
    for shrink, slots, power, aspect in product(_VIEWER_SHRINK, _VIEWER_SLOTS, _SQUARENESS,
                                                _ASPECTS):
        if count < 3 and (slots, power) != (_VIEWER_SLOTS[0], _SQUARENESS[0]):
            continue
        if best is not None and best[-1].w * best[-1].h >= enough and shrink < 1.0:
            break  # the others are large enough: the viewer keeps its whole box
        viewer = (table.w * _VIEWER[0] * shrink, table.h * _VIEWER[1])
        share = _OTHER[min(count, max(_OTHER))]
        base = (table.w * share[0] * math.sqrt(aspect), table.h * share[1] / math.sqrt(aspect))
        rects = _largest(table, count, base, viewer, (slots, power), middle, gap)
        if rects is None:
            continue
        other = rects[-1].w * rects[-1].h
        score = math.log(min(other, enough)) + _VIEWER_WEIGHT * math.log(rects[0].w * rects[0].h)
        if score > best_score:
            best, best_score = rects, score
    if best is None:
        best = _ring(table, count, (table.w * 0.12, table.h * 0.1),
                     (table.w * 0.3, table.h * 0.15), (_VIEWER_SLOTS[0], _SQUARENESS[0]))
    return tuple(best)


# -------------------------------------------------------------- a seat's box


def _chip(x: float, y: float, label: str, size: int, fill: str, colour: str, room: float,
          tag: str, right: bool = False) -> tuple[list[Primitive], float]:
    """A rounded label at ``x`` (its left, or its right when ``right``), row ``y``
    (its top); the primitives and the width used (0 when it does not fit)."""
    pad = size * 0.5
    text = fit_text(label, size, room - 2 * pad)
    if not text:
        return [], 0.0
    width = text_width(text, size) + 2 * pad
    left = x - width if right else x
    rect = Rect.of(left, y, width, line_height(size) + 2)
    return [Box(rect, fill, None, rect.h // 2, 1, tag=tag),
            Text(round(rect.cx), round(rect.cy), text, size, colour, "mm",
                 max_width=max(round(width - pad), 1), tag=tag)], width


def _groups(seat: Mapping[str, Any], tag: str, lit: frozenset[str],
            viewer: bool) -> list[Group]:
    hand = seat["hand"]
    caption = f"{'your hand' if seat.get('you') else 'hand'} ({hand['count']})"
    groups = [Group(caption, hand["cards"], False, f"{tag}:hand", lit)]
    for area in seat["areas"]:
        groups.append(Group(f"{area['label']} ({area['count']})", area["cards"], True,
                            f"{tag}:area:{area['name']}", scale=0.78 if viewer else 1.0))
    return groups


def seat_primitives(seat: Mapping[str, Any], rect: Rect, viewer: bool, font: int,
                    lit: frozenset[str] = frozenset(), winner: bool = False) -> list[Primitive]:
    """What the box of ``seat`` (a seat entry of the table view) shows: its label,
    score, status and marks, a "to act" highlight, its hand and its areas.

    Args:
        seat: the seat's entry of the table view.
        rect: its box.
        viewer: the box at the bottom (bigger cards, the viewer's colours).
        font: the font size of its label.
        lit: ids of hand cards to highlight (the viewer's playable cards).
        winner: it won the game.
    """
    tag = f"seat:{seat['seat']}"
    to_act = bool(seat.get("to_act"))
    out: list[Primitive] = []
    line = TO_ACT if to_act else WINNER if winner else VIEWER_LINE if viewer else SEAT_LINE
    radius = max(4, round(min(rect.w, rect.h) * 0.06))
    out.append(Box(rect, VIEWER_FILL if viewer else SEAT_FILL, line, radius,
                   3 if to_act else 2 if viewer or winner else 1, tag=tag))
    if to_act:
        out.append(Box(rect.inset(3), None, "#8a6d1f", max(radius - 3, 2), 1,
                       tag=f"{tag}:to_act"))
    pad = max(4, round(min(rect.w, rect.h) * 0.05))
    inner = rect.inset(pad + 1)
    font = max(8, min(font, round(rect.h * 0.12)))
    small = max(8, round(font * 0.82))
    top = inner.y
    right = float(inner.right)
    score = seat.get("score")
    if score is not None:
        words = f"{score['label']} {score['value']}"
        if text_width(words, small) + small > inner.w * 0.45:
            words = str(score["value"])
        chips, used = _chip(right, top, words, small, CHIP, TEXT, inner.w * 0.45,
                            f"{tag}:score", right=True)
        out += chips
        right -= used + pad
    label_w = right - inner.x
    if to_act:
        act, used = _chip(right, top, "to act", small, TO_ACT, TO_ACT_TEXT, inner.w * 0.3,
                          f"{tag}:to_act", right=True)
        out += act
        label_w -= used + pad
    label = fit_text(str(seat["label"]), font, label_w)
    out.append(Text(inner.x, top, label, font, TO_ACT if to_act else TEXT, "la",
                    max_width=max(round(label_w), 1), bold=True, tag=f"{tag}:label"))
    top += max(line_height(font), line_height(small) + 2) + 2
    x = float(inner.x)
    status_w = min(text_width(str(seat["status"]), small), inner.w * 0.6)
    out.append(Text(inner.x, top, fit_text(str(seat["status"]), small, status_w), small, MUTED,
                    "la", max_width=max(round(status_w), 1), tag=f"{tag}:status"))
    x += status_w + pad
    marks = (["winner"] if winner else []) + [str(m) for m in seat.get("marks", ())]
    for mark in marks:
        chips, used = _chip(x, top - 1, mark, small, WINNER if mark == "winner" else MARK,
                            TEXT, inner.right - x, f"{tag}:mark")
        if not used:
            break
        out += chips
        x += used + pad * 0.6
    top += line_height(small) + pad
    room = Rect.of(inner.x, top, inner.w, inner.bottom - top)
    cap = max(8, round(font * 0.78))
    out += place_groups(_groups(seat, tag, lit, viewer), room, cap, pad, room.h)
    return out
