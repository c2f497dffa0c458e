"""Pictures of a table: a table view (:mod:`cardgym.table`) drawn as an image.

``table_image(env.table_view(agent), game.table)`` gives the table as that seat knows
it as an RGB array of shape (height, width, 3), for ``render_mode="rgb_array"``,
videos and files. It reads only the table view's format, so it draws every game.

The work is split in two:

* :func:`layout` turns a view into a :class:`Scene`: boxes, texts and cards with their
  places (:class:`Box`, :class:`Text`, :class:`CardShape`), pure geometry in plain
  dataclasses. The viewer sits at the bottom, the other seats clockwise around the
  table, the piles in the middle, the side panel on the right. It imports no drawing
  library, so it is tested without one (everything inside the canvas, no two seats
  overlapping, every card where it belongs) and any other painter (a browser canvas,
  SVG) can reuse it.
* :func:`draw` paints a scene with Pillow into an image, card faces included (no
  artwork: the card kind's colour from ``TableSpec.cards``, its value and name), in
  the same pixels for the same scene; :func:`table_image` does both steps and returns
  the numpy array.

The layout lives in :mod:`.layout` (the canvas, the felt, the piles), :mod:`.seats`
(where the seats sit, what a seat's box shows), :mod:`.cards` (rows of cards: fanned,
stacked or cut with "+N"), :mod:`.panel` (the side panel) and :mod:`.scene` (the
primitives, and the font's advance widths, to wrap text without loading the font).

Why Pillow: it draws headless (no display, no window, no video driver), installs as a
small wheel on every platform, and its images turn straight into numpy arrays for
``rgb_array`` and into PNG files. pygame, PettingZoo's usual choice for rendering, needs
SDL and a display driver for much the same drawing. Pillow is imported only inside
:mod:`cardgym.picture.draw`, when a picture is asked for, so importing the library (or
this package) never imports it.
"""

from __future__ import annotations

from cardgym.picture.draw import draw, table_image
from cardgym.picture.layout import SIZE, layout
from cardgym.picture.scene import Box, CardShape, Primitive, Rect, Scene, Text

__all__ = ["SIZE", "Box", "CardShape", "Primitive", "Rect", "Scene", "Text", "draw", "layout",
           "table_image"]
