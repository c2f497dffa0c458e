"""A table view laid out as a scene: pure geometry, no drawing (and no Pillow).

:func:`layout` reads only the format of :mod:`cardgym.table`, never a game: the table
on the left (the seats around it, the viewer's at the bottom, the piles in the
middle), the side panel on the right (title, status, notes, the viewer's moves, the
last events). Everything lies inside the canvas, for every size from about 640x400
up, and two seats' boxes never overlap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from cardgym.picture.cards import ASPECT, Group, card_row, stack
from cardgym.picture.panel import panel_primitives
from cardgym.picture.scene import (
    Box,
    Primitive,
    Rect,
    Scene,
    Text,
    line_height,
    text_width,
    wrap_text,
)
from cardgym.picture.seats import seat_boxes, seat_order, seat_primitives

__all__ = ["SIZE", "layout"]

#: The default canvas (width, height).
SIZE: Final = (1280, 800)
#: The least canvas the layout keeps readable.
LEAST: Final = (320, 200)
BACKGROUND: Final = "#15191e"
FELT: Final = "#1d5c44"
FELT_RIM: Final = "#123c2c"
FELT_LINE: Final = "#2b7a5b"
PILE_TEXT: Final = "#e3efe8"
PILE_MUTED: Final = "#a9c9b9"
#: A pile spreads its cards when all are face up and there are at most this many.
_SPREAD: Final = 4


def layout(view: Mapping[str, Any], size: tuple[int, int] = SIZE) -> Scene:
    """The scene of a table view on a canvas of ``size`` (width, height).

    Args:
        view: a table view (:mod:`cardgym.table`), of a seat, a spectator or the full
            table, of any game.
        size: the canvas (width, height) in pixels.

    Returns:
        The scene: its primitives in drawing order and the named regions ``table``,
        ``panel``, ``middle`` and ``seat:N`` for each seat.
    """
    width, height = int(size[0]), int(size[1])
    if width < LEAST[0] or height < LEAST[1]:
        raise ValueError(f"a table picture needs at least {LEAST[0]}x{LEAST[1]} pixels, "
                         f"got {width}x{height}")
    seats: Sequence[Mapping[str, Any]] = view["seats"]
    scene = Scene(width, height, background=BACKGROUND)
    panel_w = min(max(round(width * 0.25), 150), 420)
    margin = max(4, round(min(width, height) * 0.012))
    table = Rect.of(margin, margin, width - panel_w - 2 * margin, height - 2 * margin)
    panel = Rect.of(width - panel_w, 0, panel_w, height)
    unit = min(table.w / 940, table.h / 780)
    font = min(max(round(16 * unit), 8), 20)
    gap = max(3, round(10 * unit))
    boxes = seat_boxes(table, len(seats), gap)
    order = seat_order(len(seats), view.get("seat"))
    # The felt runs under the seats' boxes, so that they sit at its edge.
    other = boxes[-1]
    felt = Rect.of(table.x + other.w * 0.25, table.y + other.h * 0.35,
                   table.w - other.w * 0.5, table.h - other.h * 0.35 - boxes[0].h * 0.4)
    radius = round(min(felt.w, felt.h) * 0.3)
    scene.primitives += [Box(felt, FELT_RIM, None, radius, 1, tag="felt"),
                         Box(felt.inset(max(4, round(12 * unit))), FELT, FELT_LINE,
                             max(radius - round(12 * unit), 4), 2, tag="felt")]
    scene.regions.update(table=table, panel=panel)
    lit = _playable(view)
    winners = set((view.get("result") or {}).get("winners", ()))
    for position, index in enumerate(order):
        seat = seats[index]
        scene.regions[f"seat:{index}"] = boxes[position]
        scene.primitives += seat_primitives(
            seat, boxes[position], position == 0, font,
            lit if seat.get("to_act") else frozenset(), seat.get("agent") in winners)
    middle = free_middle(table, boxes, gap)
    scene.regions["middle"] = middle
    scene.primitives += pile_primitives(view.get("piles", ()), middle, font, gap,
                                        table.h * 0.17)
    scene.primitives += panel_primitives(view, panel, max(9, round(font * 0.95)))
    return scene


def _playable(view: Mapping[str, Any]) -> frozenset[str]:
    """Card ids a legal move names (``play:grave_digger``): cards to highlight in the
    hand of the seat to act."""
    names = (str(move.get("name", "")).split(":") for move in view.get("legal_moves", ()))
    return frozenset(parts[1] for parts in names if len(parts) > 1)


@lru_cache(maxsize=64)
def free_middle(table: Rect, boxes: tuple[Rect, ...], gap: int) -> Rect:
    """A large rectangle about the middle of ``table`` that no seat box comes within
    ``gap`` of: grown from the middle a step at a time (to the sides both at once, to
    stay centred), sideways first, upwards and downwards first, or by turns; the
    largest of the three."""

    def free(x0: float, y0: float, x1: float, y1: float) -> bool:
        rect = Rect.of(x0, y0, x1 - x0, y1 - y0)
        return table.contains(rect) and not any(rect.intersects(b, gap) for b in boxes)

    step = max(1.0, min(table.w, table.h) / 200)
    best = Rect.of(table.cx, table.cy, 0, 0)
    for order in ((0,), (1, 2), (0, 1, 2)):
        left = right = table.cx
        top = bottom = table.cy
        growing = [True, True, True]
        while any(growing):
            sides = [side for side in order if growing[side]] or [0, 1, 2]
            for side in sides:
                if not growing[side]:
                    continue
                grown = ((left - step, top, right + step, bottom), (left, top - step, right,
                         bottom), (left, top, right, bottom + step))[side]
                growing[side] = free(*grown)
                if growing[side]:
                    left, top, right, bottom = grown
        rect = Rect.of(left, top, right - left, bottom - top)
        if rect.w * rect.h > best.w * best.h:
            best = rect
    return best


# -------------------------------------------------------------- the piles


def _spread(pile: Mapping[str, Any]) -> bool:
    cards = pile["cards"]
    return 1 < len(cards) <= _SPREAD and all(card is not None for card in cards)


def _units(pile: Mapping[str, Any]) -> float:
    """A pile's width in card widths."""
    if _spread(pile):
        return 1.0 + 0.55 * (len(pile["cards"]) - 1)
    return 1.2 if pile["count"] > 1 else 1.0


def pile_primitives(piles: Sequence[Mapping[str, Any]], room: Rect, font: int, gap: int,
                    max_card_h: float) -> list[Primitive]:
    """The piles in the middle, in rows: each its label above (two lines at most), its
    top card (or its cards, a few face up) and its count below; cards at most
    ``max_card_h`` high. Labels are cut when whole ones would shrink the cards by a
    third; no piles are drawn when there is no room for cards 8 pixels high."""
    if not piles or room.w < 8 or room.h < 8:
        return []
    size = max(8, round(font * 0.85))
    label_h = 2 * line_height(size)
    count_h = line_height(size) + 2
    wants = {id(p): _label_width(str(p["label"]), size) for p in piles}
    label_w = dict(wants)

    def slot(pile: Mapping[str, Any], card_h: float) -> float:
        return max(_units(pile) * card_h * ASPECT, label_w[id(pile)])

    def widest(rows: list[list[Mapping[str, Any]]], card_h: float) -> float:
        return max(sum(slot(p, card_h) for p in row) + 2 * gap * (len(row) - 1)
                   for row in rows)

    def largest() -> tuple[float, list[list[Mapping[str, Any]]]]:
        best: tuple[float, list[list[Mapping[str, Any]]]] = (0.0, [list(piles)])
        for count in range(1, min(3, len(piles)) + 1):
            per_row = -(-len(piles) // count)
            rows = [list(piles[i:i + per_row]) for i in range(0, len(piles), per_row)]
            row_h = (room.h - gap * (len(rows) - 1)) / len(rows)
            low, high = 0.0, min(row_h - label_h - count_h - 2, room.h * 0.55, max_card_h)
            if widest(rows, high) <= room.w - 2:
                low = high
            for _ in range(16):
                if high - low < 0.5:
                    break
                middle = (low + high) / 2
                low, high = (middle, high) if widest(rows, middle) <= room.w - 2 else (low,
                                                                                       middle)
            if low > best[0] + 0.5:
                best = (low, rows)
        return best

    best = largest()
    label_w = dict.fromkeys(wants, 0.0)  # labels cut to their cards' width, if that helps
    cut = largest()
    if cut[0] > best[0] * 1.5:
        best = cut
    else:
        label_w = wants
    card_h, rows = best
    if card_h < 8:
        return []
    row_h = label_h + card_h + count_h
    out: list[Primitive] = []
    y = room.y + (room.h - row_h * len(rows) - gap * (len(rows) - 1)) / 2
    for row in rows:
        slots = [slot(p, card_h) for p in row]
        x = room.x + (room.w - sum(slots) - 2 * gap * (len(row) - 1)) / 2
        for pile, width in zip(row, slots, strict=True):
            out += _pile(pile, Rect.of(x, y, width, row_h), card_h, size)
            x += width + 2 * gap
        y += row_h + gap
    return out


def _label_width(label: str, size: int) -> float:
    """The width a pile's label wants: a short one on one line, a long one on the two
    most even lines."""
    whole = text_width(label, size)
    words = label.split()
    if whole <= size * 8 or len(words) < 2:
        return whole + 2
    return 2 + min(max(text_width(" ".join(words[:cut]), size),
                       text_width(" ".join(words[cut:]), size)) for cut in range(1, len(words)))


def _pile(pile: Mapping[str, Any], slot: Rect, card_h: float, size: int) -> list[Primitive]:
    """One pile in its slot: label, cards, count."""
    tag = f"pile:{pile['name']}"
    out: list[Primitive] = []
    lines = wrap_text(str(pile["label"]), size, slot.w, max_lines=2)
    lh = line_height(size)
    top = slot.y + (2 - len(lines)) * lh
    for line in lines:
        out.append(Text(round(slot.cx), top, line, size, PILE_TEXT, "ma", max_width=slot.w,
                        tag=f"{tag}:label"))
        top += lh
    card_w = card_h * ASPECT
    cards_y = slot.y + 2 * lh
    width = _units(pile) * card_w
    at = Rect.of(slot.cx - width / 2, cards_y, width, card_h)
    count = int(pile["count"])
    if count == 0:
        out.append(Box(Rect.of(slot.cx - card_w / 2, cards_y, card_w, card_h), None, "#4d8a70",
                       round(card_w * 0.08), 1, tag=f"{tag}:empty"))
    elif _spread(pile):
        out += card_row(Group("", pile["cards"], True, tag), at)
    else:
        top_card = pile["cards"][0] if pile["cards"] else None
        out += stack(at, top_card, count, tag, badge=False)
    words = "empty" if count == 0 else f"{count} card{'s' if count != 1 else ''}"
    out.append(Text(round(slot.cx), round(cards_y + card_h + 2), words, size, PILE_MUTED, "ma",
                    max_width=slot.w, tag=f"{tag}:count"))
    return out

