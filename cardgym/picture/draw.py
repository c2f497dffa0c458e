"""Painting a scene with Pillow: the only module of the library that uses it, and it
imports Pillow only when a picture is asked for.

Cards are drawn here, without artwork: a rounded card in its kind's colour
(:attr:`cardgym.table.CardFace.color`) with the value big in two corners (or, for a
card without a value, its initials in one) and the name in a band across the middle;
a face-down card is a patterned back. Shapes and small texts are drawn three times
larger and scaled down (smooth edges, evenly spaced letters) with Pillow's bundled
font (Aileron), and every tile and text is cached, so that a frame costs little more
than pasting them. The same scene gives the same pixels."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from cardgym.picture.layout import SIZE, layout
from cardgym.picture.scene import ELLIPSIS, Box, CardShape, Scene, Text
from cardgym.table import CardFace, TableSpec

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from PIL import Image, ImageDraw, ImageFont

__all__ = ["draw", "table_image"]

#: Shapes are drawn this many times larger, then scaled down; small texts too.
_SUPER: Final = 3
_TEXT_SUPER: Final = 3
_DEFAULT_CARD: Final = "#d8d0c0"
_INK: Final = (28, 30, 34)
_BACK: Final = ((44, 72, 122), (21, 38, 70), (64, 98, 156), (214, 224, 242))
_GLOW: Final = (245, 197, 66)
_SHADOW: Final = 70
#: Characters the bundled font lacks, and what stands in for them.
_STAND_INS: Final = {"\u2022": "\u00b7", "\u2013": "-", "\u2014": "-", "\u00d7": "x",
                     "\u2192": "->", "\u2190": "<-", "\u2212": "-"}
_FONT_CHARS: Final = frozenset(chr(c) for c in range(32, 127)) | frozenset(
    "\u00a9\u00ab\u00b0\u00b1\u00b4\u00b7\u00bb\u2018\u2019\u201c\u201d\u2026\u2039\u203a\u2122")


def table_image(view: Mapping[str, Any], spec: TableSpec,
                size: tuple[int, int] = SIZE) -> NDArray[np.uint8]:
    """A table view as a picture: an array of shape (height, width, 3), ``uint8`` RGB.

    Args:
        view: a table view (:mod:`cardgym.table`): ``env.table_view(agent)``.
        spec: the game's :class:`~cardgym.table.TableSpec` (``game.table``), for the
            cards' colours.
        size: the picture's (width, height) in pixels.
    """
    image = draw(layout(view, size), spec.cards)
    return np.array(image, dtype=np.uint8)


def draw(scene: Scene, cards: Sequence[CardFace]) -> Image.Image:
    """Paint ``scene`` (from :func:`~cardgym.picture.layout.layout`) as an RGB image;
    ``cards`` gives each card kind's colour by its id."""
    from PIL import Image, ImageDraw

    colours = {face.id: face.color for face in cards}
    image = Image.new("RGB", (scene.width, scene.height), _rgb(scene.background))
    pen = ImageDraw.Draw(image)
    for item in scene.primitives:
        if isinstance(item, Box):
            _box(image, pen, item)
        elif isinstance(item, Text):
            _text(image, item)
        elif isinstance(item, CardShape):
            _card(image, item, colours)
    return image


# -------------------------------------------------------------- helpers


def _rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` (or ``#rgb``) as numbers."""
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(2 * digit for digit in value)
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _mix(colour: tuple[int, int, int], other: tuple[int, int, int],
         share: float) -> tuple[int, int, int]:
    """``colour`` moved ``share`` of the way to ``other``."""
    r, g, b = (round(a + (o - a) * share) for a, o in zip(colour, other, strict=True))
    return r, g, b


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=max(int(size), 1))


def _clean(text: str) -> str:
    """``text`` in the characters the bundled font has."""
    out = []
    for char in text:
        if char in _FONT_CHARS:
            out.append(char)
        elif char in _STAND_INS:
            out.append(_STAND_INS[char])
        else:
            plain = "".join(c for c in unicodedata.normalize("NFKD", char)
                            if c in _FONT_CHARS)
            out.append(plain or "?")
    return "".join(out)


@lru_cache(maxsize=4096)
def _length(text: str, size: int) -> float:
    return float(_font(size).getlength(text))


def _fit(text: str, size: int, width: float | None) -> tuple[str, int]:
    """``text`` and a font size at which it is at most ``width`` wide: the size shrunk
    by up to a fifth, then the text cut with an ellipsis."""
    if width is None or _length(text, size) <= width:
        return text, size
    least = max(6, int(size * 0.8))
    for smaller in range(size - 1, least - 1, -1):
        if _length(text, smaller) <= width:
            return text, smaller
    end = len(text)
    while end > 0 and _length(text[:end] + ELLIPSIS, least) > width:
        end -= 1
    return (text[:end].rstrip() + ELLIPSIS if end else ""), least


@lru_cache(maxsize=4096)
def _glyphs(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as a mask, and where its corner lies from the anchor.

    Small text is rendered three times larger and scaled down: the hinted glyphs of
    small sizes sit unevenly. (FreeType is slow; a frame's texts mostly repeat.)
    """
    from PIL import Image, ImageDraw

    scale = _TEXT_SUPER if size < 20 else 1
    font = _font(size * scale)
    box = font.getbbox(text, anchor=anchor)
    left, top = math.floor(box[0]) // scale * scale, math.floor(box[1]) // scale * scale
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    width = max(-(-(right - left) // scale), 1)
    height = max(-(-(bottom - top) // scale), 1)
    mask = Image.new("L", (width * scale, height * scale), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    if scale > 1:
        mask = mask.resize((width, height), Image.Resampling.LANCZOS)
    return mask, left // scale, top // scale


def _put(image: Image.Image, x: float, y: float, text: str, size: int,
         colour: tuple[int, int, int], anchor: str = "la", bold: bool = False) -> None:
    """``text`` painted on ``image`` at the anchor ``x``, ``y``."""
    mask, left, top = _glyphs(text, size, anchor)
    fill = (*colour, 255) if image.mode == "RGBA" else colour
    image.paste(fill, (round(x) + left, round(y) + top), mask)
    if bold:  # the bundled font has no bold: a second pass a pixel to the right
        image.paste(fill, (round(x) + left + 1, round(y) + top), mask)


def _text(image: Image.Image, item: Text) -> None:
    text, size = _fit(_clean(item.text), item.size, item.max_width)
    if text:
        _put(image, item.x, item.y, text, size, _rgb(item.colour), item.anchor, item.bold)


def _box(image: Image.Image, pen: ImageDraw.ImageDraw, item: Box) -> None:
    rect = item.rect
    if rect.w <= 0 or rect.h <= 0:
        return
    if item.radius <= 0 or min(rect.w, rect.h) <= 2:
        pen.rectangle((rect.x, rect.y, rect.right - 1, rect.bottom - 1),
                      fill=None if item.fill is None else _rgb(item.fill),
                      outline=None if item.outline is None else _rgb(item.outline),
                      width=item.width if item.outline else 0)
        return
    tile = _rounded(rect.w, rect.h, item.radius, item.fill, item.outline, item.width)
    image.paste(tile, (rect.x, rect.y), tile)


@lru_cache(maxsize=256)
def _rounded(width: int, height: int, radius: int, fill: str | None, outline: str | None,
             line: int) -> Image.Image:
    """A smooth rounded rectangle, RGBA, transparent around it."""
    from PIL import Image, ImageDraw

    scale = _SUPER if width * height < 250_000 else 2
    edge = _rgb(outline or fill or "#000000")
    tile = Image.new("RGBA", (width * scale, height * scale), (*edge, 0))
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, width * scale - 1, height * scale - 1), radius=radius * scale,
        fill=None if fill is None else (*_rgb(fill), 255),
        outline=None if outline is None else (*edge, 255),
        width=line * scale if outline else 0)
    return tile.reduce(scale)


# -------------------------------------------------------------- cards


def _card(image: Image.Image, item: CardShape, colours: Mapping[str, str]) -> None:
    rect = item.rect
    if rect.w < 3 or rect.h < 3:
        return
    shadow = _shadow(rect.w, rect.h)
    offset = max(1, rect.h // 40)
    image.paste((0, 0, 0), (rect.x + offset, rect.y + offset * 2), shadow)
    face = item.face
    if face is None:
        tile = _back(rect.w, rect.h)
    else:
        value = face.get("value")
        tile = _face(str(face.get("name", face.get("id", "?"))),
                     None if value is None else str(value),
                     colours.get(str(face.get("id")), _DEFAULT_CARD), rect.w, rect.h,
                     item.highlighted)
    image.paste(tile, (rect.x, rect.y), tile)


@lru_cache(maxsize=128)
def _shadow(width: int, height: int) -> Image.Image:
    """The card's shadow: its shape in a faint alpha, softened."""
    from PIL import Image, ImageDraw, ImageFilter

    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1),
                                           radius=max(2, width // 12), fill=_SHADOW)
    return mask.filter(ImageFilter.BoxBlur(1))


def _card_base(width: int, height: int, fill: tuple[int, int, int], line: tuple[int, int, int],
               rim: float) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    """A supersampled card blank: the tile, its pen and the scale."""
    from PIL import Image, ImageDraw

    scale = _SUPER
    tile = Image.new("RGBA", (width * scale, height * scale), (*line, 0))
    pen = ImageDraw.Draw(tile)
    radius = max(2, round(width * 0.09)) * scale
    pen.rounded_rectangle((0, 0, width * scale - 1, height * scale - 1), radius=radius,
                          fill=(*fill, 255), outline=(*line, 255),
                          width=max(scale, round(rim * scale)))
    return tile, pen, scale


@lru_cache(maxsize=512)
def _face(name: str, value: str | None, colour: str, width: int, height: int,
          highlighted: bool) -> Image.Image:
    """A face-up card: its colour, a frame, the value in two corners, the name."""
    fill = _rgb(colour)
    dark = _mix(fill, _INK, 0.72)
    rim = max(1.0, width / 45) * (2.6 if highlighted else 1.0)
    tile, pen, scale = _card_base(width, height, fill, _GLOW if highlighted else dark, rim)
    inset = max(2.0, width * 0.07) + (rim if highlighted else 0)
    band_h = height * (0.3 if value is not None else 0.36)
    band_y = height * 0.5 - band_h / 2
    pen.rounded_rectangle(
        (inset * scale, band_y * scale, (width - inset) * scale, (band_y + band_h) * scale),
        radius=round(width * 0.06 * scale), fill=(*_mix(fill, (255, 255, 255), 0.55), 255))
    tile = tile.reduce(scale)
    # The value in two corners; a card without one shows its initials in the first,
    # so that an overlapped card still tells what it is.
    mark = value if value is not None else _initials(_clean(name))
    size = max(7, round(min(height * 0.2, width * 0.34) * (1.0 if value is not None else 0.7)))
    while size > 6 and _length(mark, size) > width * 0.8:
        size -= 1
    pad = max(2, round(width * 0.09)) + (round(rim) if highlighted else 0)
    _put(tile, pad, pad - size * 0.2, mark, size, dark, "la", bold=True)
    if value is not None:  # upside down in the opposite corner, as on playing cards
        corner = _corner(mark, size, dark)
        tile.alpha_composite(corner, (width - pad - corner.width,
                                      height - pad - corner.height + round(size * 0.2)))
    _name(tile, _clean(name), width, inset, band_y, band_h)
    return tile


def _name(tile: Image.Image, name: str, width: int, inset: float, band_y: float,
          band_h: float) -> None:
    """The card's name in its band: one or two lines, the font shrunk to fit."""
    room = width - 2 * inset - 2
    lines: list[str] | None = None
    size = 6
    for size in range(max(6, round(band_h * 0.42)), 5, -1):
        lines = _two_lines(name, size, room)
        if lines is not None and len(lines) * size * 1.1 <= band_h:
            break
    if lines is None:
        lines = [_fit(name, 6, room)[0]]
    step = size * 1.08
    top = band_y + band_h / 2 - step * len(lines) / 2 + step / 2
    for index, line in enumerate(lines):
        _put(tile, width / 2, top + index * step, line, size, _INK, "mm")


def _two_lines(name: str, size: int, room: float) -> list[str] | None:
    """``name`` on one line, or two broken at a space or after a hyphen, within
    ``room``; else ``None``."""
    if _length(name, size) <= room:
        return [name]
    cuts = [m.end() for m in re.finditer(r"\s+|-", name)]
    best: list[str] | None = None
    for cut in cuts:
        lines = [name[:cut].strip(), name[cut:].strip()]
        if not all(lines):
            continue
        widest = max(_length(line, size) for line in lines)
        if widest <= room and (best is None or widest < max(_length(b, size) for b in best)):
            best = lines
    return best


def _initials(name: str) -> str:
    """A short mark for a card without a value: its first two letters, or the initials
    of its words (three at most): "Skip" -> "Sk", "See the Future" -> "StF"."""
    words = [word for word in re.split(r"[\s\-]+", name) if word[:1].isalnum()]
    if not words:
        return name[:2]
    if len(words) == 1:
        return words[0][:2]
    return "".join(word[0] for word in words[:3])


@lru_cache(maxsize=64)
def _corner(value: str, size: int, colour: tuple[int, int, int]) -> Image.Image:
    """The value turned upside down, for the bottom-right corner."""
    from PIL import Image

    mask, left, top = _glyphs(value, size, "la")
    tile = Image.new("RGBA", (mask.width + 2, mask.height + top + 1), (*colour, 0))
    _put(tile, -left, 0, value, size, colour, "la", bold=True)
    return tile.rotate(180)


@lru_cache(maxsize=128)
def _back(width: int, height: int) -> Image.Image:
    """A face-down card: a framed lattice with a diamond in the middle."""
    from PIL import Image, ImageDraw

    fill, line, lattice, light = _BACK
    tile, pen, scale = _card_base(width, height, fill, line, max(1.0, width / 45))
    w, h = width * scale, height * scale
    inset = max(2.0, width * 0.09) * scale
    inner = (round(inset), round(inset), round(w - inset), round(h - inset))
    radius = round(width * 0.05 * scale)
    pattern = Image.new("RGBA", (w, h), (*lattice, 0))
    draw = ImageDraw.Draw(pattern)
    step = max(4 * scale, round(width * 0.16 * scale))
    thick = max(1, round(width * 0.02 * scale))
    for start in range(-h, w + h, step):
        draw.line((start, 0, start + h, h), fill=(*lattice, 255), width=thick)
        draw.line((start + h, 0, start, h), fill=(*lattice, 255), width=thick)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=radius, fill=255)
    tile.paste(pattern, (0, 0), Image.composite(pattern, Image.new("RGBA", (w, h)), mask))
    pen.rounded_rectangle(inner, radius=radius, outline=(*light, 255),
                          width=max(scale, round(width * 0.025 * scale)))
    cx, cy = w / 2, h / 2
    rx, ry = w * 0.2, h * 0.16
    pen.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)],
                fill=(*light, 255))
    rx, ry = rx * 0.55, ry * 0.55
    pen.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)],
                fill=(*fill, 255))
    return tile.reduce(scale)
