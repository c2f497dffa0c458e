"""The primitives of a table picture and the text measures the layout needs.

A :class:`Scene` is pure geometry: boxes, texts and cards with their places and
colours, in drawing order. The layout builds it without Pillow; :mod:`.draw` paints
it. Texts are measured here with the advance widths of the font the drawing uses
(Pillow's bundled Aileron Regular, unkerned), so that the layout wraps and cuts text
where the drawing will need it, without loading the font.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final, TypeVar

__all__ = ["Box", "CardShape", "Primitive", "Rect", "Scene", "Text", "fit_text",
           "line_height", "text_width", "wrap_text"]


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in pixels: left ``x``, top ``y``, width, height."""

    x: int
    y: int
    w: int
    h: int

    @classmethod
    def of(cls, x: float, y: float, w: float, h: float) -> Rect:
        """A rectangle rounded to whole pixels (never negative in size)."""
        left, top = round(x), round(y)
        return cls(left, top, max(round(x + w) - left, 0), max(round(y + h) - top, 0))

    @property
    def right(self) -> int:
        """The first column past the rectangle."""
        return self.x + self.w

    @property
    def bottom(self) -> int:
        """The first row past the rectangle."""
        return self.y + self.h

    @property
    def cx(self) -> float:
        """The centre's column."""
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        """The centre's row."""
        return self.y + self.h / 2

    def inset(self, dx: float, dy: float | None = None) -> Rect:
        """The rectangle shrunk by ``dx`` left and right and ``dy`` (default ``dx``)
        top and bottom; a negative inset grows it."""
        dy = dx if dy is None else dy
        return Rect.of(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def intersects(self, other: Rect, gap: int = 0) -> bool:
        """Whether the two overlap, or come closer than ``gap`` pixels."""
        return (self.x < other.right + gap and other.x < self.right + gap
                and self.y < other.bottom + gap and other.y < self.bottom + gap)

    def contains(self, other: Rect) -> bool:
        """Whether ``other`` lies wholly inside."""
        return (self.x <= other.x and self.y <= other.y and other.right <= self.right
                and other.bottom <= self.bottom)


@dataclass(frozen=True)
class Box:
    """A filled and/or outlined rectangle with rounded corners.

    Attributes:
        rect: where.
        fill: ``#rrggbb`` or ``None`` for an outline only.
        outline: ``#rrggbb`` or ``None``.
        radius: corner radius in pixels.
        width: outline width in pixels.
        tag: what it shows, for tests and readers (``seat:2``, ``seat:2:to_act``).
    """

    rect: Rect
    fill: str | None
    outline: str | None = None
    radius: int = 0
    width: int = 1
    tag: str = ""

    @property
    def bounds(self) -> Rect:
        """The pixels it may paint."""
        return self.rect


@dataclass(frozen=True)
class Text:
    """One line of text.

    Attributes:
        x: the anchor's column.
        y: the anchor's row.
        text: what it says (one line).
        size: font size in pixels.
        colour: ``#rrggbb``.
        anchor: Pillow's two-letter anchor: ``l``/``m``/``r`` then ``a`` (top),
            ``m`` (middle) or ``d`` (bottom).
        max_width: the drawing shrinks or cuts the text to this width.
        bold: drawn heavier.
        tag: what it shows, for tests and readers.
    """

    x: int
    y: int
    text: str
    size: int
    colour: str
    anchor: str = "la"
    max_width: int | None = None
    bold: bool = False
    tag: str = ""

    @property
    def bounds(self) -> Rect:
        """The pixels it may paint (its measured width, capped by ``max_width``)."""
        width = text_width(self.text, self.size) + (2 if self.bold else 0)
        if self.max_width is not None:
            width = min(width, self.max_width)
        height = line_height(self.size)
        left = {"l": self.x, "m": self.x - width / 2, "r": self.x - width}[self.anchor[0]]
        top = {"a": self.y, "m": self.y - height / 2, "d": self.y - height}[self.anchor[1]]
        return Rect.of(math.floor(left), math.floor(top), math.ceil(width), height)


@dataclass(frozen=True)
class CardShape:
    """A card, face up (``face`` is the view's card dict) or face down (``None``).

    Attributes:
        rect: where.
        face: ``{"id", "name", "value"}`` as in the table view, or ``None`` for a back.
        highlighted: drawn with a bright rim (a card the viewer may play).
        tag: where it lies (``seat:0:hand``, ``seat:1:area:row``, ``pile:draw``).
    """

    rect: Rect
    face: Mapping[str, Any] | None
    highlighted: bool = False
    tag: str = ""

    @property
    def bounds(self) -> Rect:
        """The pixels it may paint."""
        return self.rect


Primitive = Box | Text | CardShape
_P = TypeVar("_P", Box, Text, CardShape)


@dataclass
class Scene:
    """A laid-out table: primitives in drawing order and the named regions.

    Attributes:
        width: canvas width in pixels.
        height: canvas height in pixels.
        primitives: what to draw, back to front.
        regions: named places: ``table``, ``panel``, ``centre``, ``seat:N`` (by seat).
        background: the canvas colour.
    """

    width: int
    height: int
    primitives: list[Primitive] = field(default_factory=list)
    regions: dict[str, Rect] = field(default_factory=dict)
    background: str = "#15191e"

    def of_type(self, kind: type[_P], tag: str = "") -> Iterator[_P]:
        """The primitives of one kind whose tag starts with ``tag``."""
        return (p for p in self.primitives if isinstance(p, kind) and p.tag.startswith(tag))

    @property
    def cards(self) -> list[CardShape]:
        """Every card shape."""
        return list(self.of_type(CardShape))

    @property
    def texts(self) -> list[str]:
        """Every text, in drawing order."""
        return [p.text for p in self.of_type(Text)]


# -------------------------------------------------------------- text measures

#: Advance widths of Aileron Regular, per mille of the font size, for " " to "~".
_ADVANCES: Final = (
    216, 242, 339, 580, 580, 740, 654, 176, 315, 315, 560, 580, 220, 274, 220, 303, 580,
    580, 580, 580, 580, 580, 580, 580, 580, 580, 220, 220, 580, 580, 580, 499, 852, 639,
    627, 699, 709, 587, 567, 710, 730, 264, 544, 609, 575, 866, 718, 737, 598, 733, 619,
    585, 612, 682, 622, 952, 625, 581, 591, 307, 303, 295, 580, 500, 300, 531, 611, 529,
    615, 549, 290, 615, 593, 238, 233, 522, 247, 855, 593, 586, 611, 615, 330, 459, 313,
    592, 514, 785, 482, 513, 462, 303, 250, 303, 580)
_OTHER_ADVANCE: Final = 620  # the ellipsis, and a safe width for anything else
ELLIPSIS: Final = "\u2026"


@lru_cache(maxsize=64)
def _glyphs(size: int) -> dict[str, int]:
    """The advance of each character at ``size``, in whole pixels (rounded up)."""
    return {chr(32 + code): math.ceil(advance * size / 1000)
            for code, advance in enumerate(_ADVANCES)}


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> int:
    """The width of ``text`` in pixels at ``size`` (each glyph rounded up, as hinted)."""
    glyphs = _glyphs(size)
    other = math.ceil(_OTHER_ADVANCE * size / 1000)
    return sum(glyphs.get(char, other) for char in text)


def line_height(size: int) -> int:
    """The height of a line of text at ``size`` (ascender to descender)."""
    return math.ceil(size * 1.2)


def fit_text(text: str, size: int, width: float) -> str:
    """``text``, cut with an ellipsis if it is wider than ``width``."""
    if text_width(text, size) <= width:
        return text
    room = width - text_width(ELLIPSIS, size)
    end = len(text)
    while end > 0 and text_width(text[:end], size) > room:
        end -= 1
    return text[:end].rstrip() + ELLIPSIS if end else ""


def wrap_text(text: str, size: int, width: float, max_lines: int | None = None,
              indent: str = "") -> list[str]:
    """``text`` broken into lines no wider than ``width`` at ``size``, at spaces (inside
    a word too long for a line); the last kept line is cut with an ellipsis when
    ``max_lines`` runs out. Lines after the first start with ``indent``."""
    space = text_width(" ", size)
    lines: list[str] = []
    line, line_w = "", 0
    for word in text.split():
        word_w = text_width(word, size)
        if line and line_w + space + word_w <= width:
            line, line_w = f"{line} {word}", line_w + space + word_w
            continue
        if line:
            lines.append(line)
        line = indent if lines else ""
        line_w = text_width(line, size)
        if line_w + word_w <= width:
            line, line_w = line + word, line_w + word_w
            continue
        start = len(line)
        for char in word:  # a word too long for a line, broken where it must be
            char_w = text_width(char, size)
            if line_w + char_w > width and len(line) > start:
                lines.append(line)
                line, line_w = indent, text_width(indent, size)
                start = len(line)
            line, line_w = line + char, line_w + char_w
    if line.strip():
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        kept = lines[:max_lines]
        kept[-1] = fit_text(kept[-1] + ELLIPSIS, size, width) if max_lines else ""
        return kept if max_lines else []
    return lines
