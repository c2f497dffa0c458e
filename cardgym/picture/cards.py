"""Rows of cards: a hand, an area or a pile laid out in the room it gets.

Cards keep the shape of a playing card (5 by 7). A row overlaps its cards when they
do not fit side by side (each keeps at least its left strip, where the value is
printed), collapses a run of face-down cards into a stack with its count, and as a
last resort shows the first cards and "+N" for the rest. Lists whose first card is
the top one (areas, piles) are shown with the top card rightmost, drawn last.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardgym.picture.scene import (
    Box,
    CardShape,
    Primitive,
    Rect,
    Text,
    fit_text,
    line_height,
    text_width,
)

#: Card width over card height.
ASPECT: Final = 5 / 7
#: The least part of an overlapped card left in view, as a share of its width.
STRIP: Final = 0.3
#: How far below their least width the strips may squeeze before cards are left out.
_SQUEEZE: Final = 0.92
#: A run of more face-down cards than this collapses into a stack.
STACK_OVER: Final = 3
#: The width of a stack, in card widths (the card and its edges).
STACK_WIDTH: Final = 1.2
#: Colours of the table furniture the rows draw.
SLOT: Final = "#4d6b5e"
EDGE: Final = "#e9e4d8"
EDGE_LINE: Final = "#7d7566"
BADGE: Final = "#101418"
BADGE_TEXT: Final = "#ffffff"
CAPTION: Final = "#c9d3cc"

Card = Mapping[str, Any] | None


@dataclass(frozen=True)
class Group:
    """Cards shown together under a caption.

    Attributes:
        caption: the words above the cards (``hand (3)``).
        cards: the cards, face down as ``None``.
        top_first: the list starts with the top card (areas, piles): the row shows
            it rightmost.
        tag: the tag of the group's card shapes.
        highlight: ids of the cards to draw highlighted.
        scale: the cards' height as a share of the row's card height.
    """

    caption: str
    cards: Sequence[Card]
    top_first: bool = False
    tag: str = ""
    highlight: frozenset[str] = frozenset()
    scale: float = 1.0


def items(cards: Sequence[Card]) -> list[Card | int]:
    """What a row shows: each face-up card, each short run of backs as backs, and a
    long run of backs as one stack (its count)."""
    shown: list[Card | int] = []
    run = 0

    def close() -> None:
        if run > STACK_OVER:
            shown.append(run)
        else:
            shown.extend([None] * run)

    for card in cards:
        if card is None:
            run += 1
            continue
        close()
        run = 0
        shown.append(card)
    close()
    return shown


def _units(shown: Sequence[Card | int]) -> tuple[float, float]:
    """A row's natural and least width, in card widths (gaps of 8% between cards)."""
    if not shown:
        return 1.0, 1.0
    wide = [STACK_WIDTH if isinstance(item, int) else 1.0 for item in shown]
    natural = sum(wide) + 0.08 * (len(shown) - 1)
    least = wide[-1] + STRIP * (len(shown) - 1) + sum(w - 1 for w in wide[:-1])
    return natural, least


def group_width(group: Group, card_h: float) -> tuple[float, float]:
    """The natural and the least width of ``group`` at the card height ``card_h``."""
    width = card_h * group.scale * ASPECT
    natural, least = _units(items(group.cards))
    return natural * width, least * width


def caption_size(card_h: float, base: int) -> int:
    """The caption's font size for cards ``card_h`` high, at most ``base``."""
    return max(8, min(base, round(card_h * 0.2)))


def best_card_height(groups: Sequence[Group], room: Rect, caption: int, gap: int,
                     max_card_h: float) -> tuple[float, list[list[Group]]]:
    """The largest card height (and the rows) at which ``groups`` fit in ``room``,
    trying one to three rows."""
    best: tuple[float, list[list[Group]]] = (0.0, [list(groups)])
    cap_h = line_height(caption) + 2
    for count in range(1, min(3, len(groups)) + 1):
        per_row = math.ceil(len(groups) / count)
        rows = [list(groups[i:i + per_row]) for i in range(0, len(groups), per_row)]
        row_h = (room.h - gap * (len(rows) - 1)) / len(rows)
        card_h = min(max_card_h, row_h - cap_h)
        floor = card_h * 0.45  # smaller cards than this: the rows show "+N" instead
        for row in rows:  # the least widths grow with the card height
            least = sum(group_width(g, 1.0)[1] for g in row)
            card_h = min(card_h, (room.w - gap * (len(row) - 1)) / least)
        card_h = max(card_h, floor)
        if card_h > best[0] + 0.5:
            best = (card_h, rows)
    return best


def place_groups(groups: Sequence[Group], room: Rect, caption: int, gap: int,
                 max_card_h: float) -> list[Primitive]:
    """``groups`` laid out in ``room``: rows of captioned card rows, left aligned, the
    cards as large as fit (at most ``max_card_h`` high), the spare height shared
    above and below."""
    if not groups or room.w <= 0 or room.h <= 0:
        return []
    card_h, rows = best_card_height(groups, room, caption, gap, max_card_h)
    card_h = max(card_h, 6.0)
    size = caption_size(card_h, caption)
    cap_h = line_height(size) + 2
    row_h = card_h + cap_h
    out: list[Primitive] = []
    top = room.y + max(room.h - row_h * len(rows) - gap * (len(rows) - 1), 0) * 0.4
    for row in rows:
        needs = [group_width(g, card_h) for g in row]
        needs = [(max(natural, text_width(g.caption, size) + gap), least)
                 for g, (natural, least) in zip(row, needs, strict=True)]
        widths = _share(needs, room.w - gap * (len(row) - 1))
        left = float(room.x)
        for group, width in zip(row, widths, strict=True):
            out.append(Text(round(left), round(top), _caption(group.caption, size, width), size,
                            CAPTION, "la", max_width=max(round(width), 1), tag=group.tag))
            height = card_h * group.scale
            cards_at = Rect.of(left, top + cap_h + card_h - height, width, height)
            out += card_row(group, cards_at)
            left += width + gap
        top += row_h + gap
    return out


def _caption(caption: str, size: int, width: float) -> str:
    """The caption, or without its count in brackets when it does not fit, or cut."""
    if text_width(caption, size) > width and caption.endswith(")"):
        caption = caption[:caption.rfind(" (")] if " (" in caption else caption
    return fit_text(caption, size, width)


def _share(needs: Sequence[tuple[float, float]], room: float) -> list[float]:
    """Widths for rows of natural and least widths ``needs`` in ``room``."""
    natural = sum(n for n, _ in needs)
    least = sum(m for _, m in needs)
    if natural <= room:
        return [n for n, _ in needs]
    if least < room:
        share = (room - least) / (natural - least)
        return [m + (n - m) * share for n, m in needs]
    return [room * m / least for _, m in needs]


def card_row(group: Group, room: Rect) -> list[Primitive]:
    """The cards of ``group`` in ``room`` (its height is the card height), overlapped
    when needed; "+N" for the cards that do not fit even so."""
    card_w = max(room.h * ASPECT, 4.0)
    shown = items(group.cards)
    if not shown:
        return [Box(Rect.of(room.x, room.y, card_w, room.h), None, SLOT,
                    round(card_w * 0.08), 1, tag=group.tag + ":empty")]
    font = max(8, round(room.h * 0.22))
    more_w = 0.0
    hidden = 0
    if _units(shown)[1] * card_w * _SQUEEZE > room.w + 0.5:
        more_w = min(font * 2.4, room.w / 3)
        keep = len(shown)
        while keep > 1 and _units(shown[:keep])[1] * card_w * _SQUEEZE > room.w - more_w + 0.5:
            keep -= 1
        hidden = sum(item if isinstance(item, int) else 1 for item in shown[keep:])
        shown = shown[:keep]
    order = list(reversed(shown)) if group.top_first else shown
    wide = [STACK_WIDTH if isinstance(item, int) else 1.0 for item in order]
    room_w = room.w - more_w
    gap = card_w * 0.08
    natural = _units(order)[0] * card_w
    if natural <= room_w or len(order) == 1:
        steps = [w * card_w + gap for w in wide]
    else:
        fixed = card_w * wide[-1] + sum(w - 1 for w in wide[:-1]) * card_w
        overlap = min((room_w - fixed) / (len(order) - 1), card_w + gap)
        steps = [(w - 1) * card_w + overlap for w in wide]
    left = float(room.x) + (more_w if group.top_first else 0.0)
    out: list[Primitive] = []
    for item, width, step in zip(order, wide, steps, strict=True):
        at = Rect.of(left, room.y, card_w * width, room.h)
        if isinstance(item, int):
            out += stack(at, None, item, group.tag)
        else:
            lit = item is not None and str(item.get("id")) in group.highlight
            out.append(CardShape(at, item, lit, group.tag))
        left += step
    if hidden:
        x = room.x if group.top_first else room.x + min(natural, room_w)
        out.append(Text(round(x + more_w / 2), round(room.cy), f"+{hidden}", font, CAPTION,
                        "mm", max_width=max(round(more_w), 1), tag=group.tag + ":more"))
    return out


def stack(room: Rect, top: Card, count: int, tag: str, badge: bool = True) -> list[Primitive]:
    """A pile of ``count`` cards in ``room`` (the top card and the edges of those below
    peeking out right and below), with a badge for the count when it is over one and
    ``badge`` is set."""
    depth = min(max(count - 1, 0), 3)
    shift_x = room.w * 0.05 if depth else 0.0
    shift_y = room.h * 0.025 if depth else 0.0
    card = (room.w - depth * shift_x, room.h - depth * shift_y)
    radius = round(card[0] * 0.08)
    out: list[Primitive] = []
    for layer in range(depth, 0, -1):
        out.append(Box(Rect.of(room.x + layer * shift_x, room.y + layer * shift_y, *card),
                       EDGE, EDGE_LINE, radius, 1, tag=tag + ":edge"))
    out.append(CardShape(Rect.of(room.x, room.y, *card), top, False, tag))
    if count > 1 and badge:
        font = max(6, round(room.h * 0.16))
        label = str(count)
        badge_w = max(font * 0.6 * len(label) + font * 0.8, font * 1.6)
        chip = Rect.of(max(room.right - badge_w - 1, room.x), room.bottom - font * 1.45 - 1,
                       badge_w, font * 1.45)
        out.append(Box(chip, BADGE, "#ffffff", round(chip.h / 2), 1, tag=tag + ":count"))
        out.append(Text(round(chip.cx), round(chip.cy), label, font, BADGE_TEXT, "mm",
                        max_width=chip.w, bold=True, tag=tag + ":count"))
    return out

