"""Text on counters: the fonts shipped with the package, fitting and centring.

Counters must look the same on every machine, so text never comes from
system fonts: the DejaVu fonts in ``fonts/`` (Bitstream Vera licence, see
``fonts/LICENSE-DejaVu.txt``), bold and regular, normal and condensed, are
loaded by path, and embedded in every PDF. FreeType draws them with
anti-aliasing at the final resolution, so text stays crisp at any size.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from PIL import ImageDraw, ImageFont

from pipeline.counters.art import Block, Words

__all__ = [
    "FAMILIES",
    "FONTS",
    "FONT_DIR",
    "FontName",
    "Typesetter",
    "cap_height",
    "centred_words",
    "draw_centred",
    "draw_line_of_cells",
    "fit_font",
    "font",
    "line_of_cells",
]

FONT_DIR = Path(__file__).with_name("fonts")
FontName = Literal["bold", "condensed", "regular", "text"]
FONTS: dict[str, str] = {
    "bold": "DejaVuSans-Bold.ttf",  # values: wide, heavy digits read best at a glance
    "condensed": "DejaVuSansCondensed-Bold.ttf",  # ids and labels: more letters per inch
    "regular": "DejaVuSans.ttf",  # running text where width does not matter
    "text": "DejaVuSansCondensed.ttf",  # running text of the aids: notes, table bodies
}
FAMILIES: dict[str, tuple[str, str]] = {
    "bold": ("DejaVu Sans", "bold"),
    "condensed": ("DejaVu Sans Condensed", "bold"),
    "regular": ("DejaVu Sans", "normal"),
    "text": ("DejaVu Sans Condensed", "normal"),
}
"""Each shipped font's family name and weight, as an SVG or a PDF names them."""

Colour = tuple[int, int, int] | tuple[int, int, int, int]
Box = tuple[int, int, int, int]


@functools.lru_cache(maxsize=512)
def font(name: FontName, px: int) -> ImageFont.FreeTypeFont:
    """A shipped font at ``px`` pixels (em size), cached.

    >>> font("bold", 20).size
    20
    """
    return ImageFont.truetype(str(FONT_DIR / FONTS[name]), max(1, px))


@functools.lru_cache(maxsize=512)
def cap_height(name: FontName, px: int) -> int:
    """Height of a capital letter (and of the digits) above the baseline, in pixels."""
    return -int(font(name, px).getbbox("H0", anchor="ls")[1])


@functools.lru_cache(maxsize=4096)
def fit_font(text: str, name: FontName, px: int, max_width: float) -> ImageFont.FreeTypeFont:
    """The largest size up to ``px`` at which ``text`` is at most ``max_width`` wide.

    >>> fit_font("914", "condensed", 40, 30).getlength("914") <= 30
    True
    """
    size = px
    while size > 4 and font(name, size).getlength(text) > max_width:
        # Shrink in proportion first (few iterations), then by one pixel to the exact fit.
        width = font(name, size).getlength(text)
        size = min(size - 1, max(4, int(size * max_width / width)))
    return font(name, size)


def centred_words(text: str, face: ImageFont.FreeTypeFont, name: FontName,
                  centre: tuple[float, float], colour: tuple[int, int, int]) -> Words:
    """``text`` with its advance width and cap height centred on ``centre``.

    Centring on the cap height (not on the ink) keeps digits, '?' and '(5)' on
    one baseline, the way a printed counter reads.

    >>> centred_words("5", font("bold", 20), "bold", (50, 50), (0, 0, 0)).y  # cap height 15
    58
    """
    cap = cap_height(name, face.size)
    return Words(text, name, int(face.size), round(centre[0] - face.getlength(text) / 2),
                 round(centre[1] + cap / 2), colour)


def draw_centred(
    draw: ImageDraw.ImageDraw,
    text: str,
    face: ImageFont.FreeTypeFont,
    centre: tuple[float, float],
    fill: Colour,
) -> None:
    """Draw ``text`` with its advance width and cap height centred on ``centre``."""
    cap = -face.getbbox("H0", anchor="ls")[1]
    x = round(centre[0] - face.getlength(text) / 2)
    y = round(centre[1] + cap / 2)
    draw.text((x, y), text, font=face, fill=fill, anchor="ls")


def line_of_cells(
    cells: Sequence[str],
    face: ImageFont.FreeTypeFont,
    name: FontName,
    rect: Box,
    fill: tuple[int, int, int],
    *,
    separator: str = "-",
    boxed: int | None = None,
    box_fill: tuple[int, int, int] = (200, 16, 46),
    box_text: tuple[int, int, int] = (255, 255, 255),
) -> list[Block | Words]:
    """``cells`` joined by ``separator``, centred in ``rect``, one cell maybe boxed.

    Parameters
    ----------
    cells
        The printed values, e.g. ``["5", "4", "4"]``.
    face, name
        The font (see :func:`fit_font`) and which shipped font it is.
    rect
        ``(left, top, right, bottom)`` in pixels; the line is centred in it.
    fill
        Text colour.
    separator
        Between cells.
    boxed
        Index of a cell drawn in a filled box (a mobile unit's movement, 000 §2.3).
    box_fill, box_text
        The box and its text colour.

    Examples
    --------
    >>> marks = line_of_cells(["5", "4", "4"], font("bold", 20), "bold", (0, 0, 100, 30),
    ...                       (0, 0, 0), boxed=2)
    >>> [type(m).__name__ for m in marks], marks[0].text
    (['Words', 'Block', 'Words'], '5-4-')
    """
    # Runs of unboxed cells are one string: FreeType then places every glyph
    # exactly as it would the same text drawn alone.
    pieces: list[tuple[str, bool]] = []
    for i, cell in enumerate(cells):
        if i:
            pieces.append((separator, False))
        pieces.append((cell, i == boxed))
    runs: list[tuple[str, bool]] = []
    for piece, is_boxed in pieces:
        if runs and not is_boxed and not runs[-1][1]:
            runs[-1] = (runs[-1][0] + piece, False)
        else:
            runs.append((piece, is_boxed))
    cap = cap_height(name, face.size)
    pad = max(1, round(cap * 0.18))
    # A boxed cell takes its padding on both sides, so the box never touches a separator.
    widths = [face.getlength(text) + (2 * pad if is_boxed else 0) for text, is_boxed in runs]
    left, top, right, bottom = rect
    x = (left + right) / 2 - sum(widths) / 2
    baseline = round((top + bottom) / 2 + cap / 2)
    marks: list[Block | Words] = []
    for (text, is_boxed), width in zip(runs, widths, strict=True):
        colour = fill
        at = round(x)
        if is_boxed:
            marks.append(Block((at, baseline - cap - pad, round(x + width), baseline + pad),
                               box_fill))
            colour = box_text
            at += pad
        marks.append(Words(text, name, int(face.size), at, baseline, colour))
        x += width
    return marks


def draw_line_of_cells(
    draw: ImageDraw.ImageDraw,
    cells: Sequence[str],
    face: ImageFont.FreeTypeFont,
    rect: Box,
    fill: tuple[int, int, int],
    *,
    name: FontName = "bold",
    separator: str = "-",
    boxed: int | None = None,
    box_fill: tuple[int, int, int] = (200, 16, 46),
    box_text: tuple[int, int, int] = (255, 255, 255),
) -> None:
    """Draw :func:`line_of_cells` with Pillow (``name``: which shipped font ``face`` is)."""
    for mark in line_of_cells(cells, face, name, rect, fill, separator=separator, boxed=boxed,
                              box_fill=box_fill, box_text=box_text):
        if isinstance(mark, Block):
            left, top, right, bottom = mark.rect
            draw.rectangle((left, top, right - 1, bottom - 1), fill=mark.colour)
        else:
            draw.text((mark.x, mark.y), mark.text, font=face, fill=mark.colour, anchor="ls")


class Typesetter:
    """Places lines as :func:`centred_words` and :func:`line_of_cells` do, each distinct
    line once.

    Laying out a face measured every line again, and each measure shapes the text with
    HarfBuzz (a third of laying out a face); a manifest repeats its values and formations,
    and a unit's back places its front's ids where the front does. The marks are frozen,
    so one placed line serves every face it is on. ``face`` is the shipped font ``name``
    at its size, as :func:`fit_font` gives it.

    Parameters
    ----------
    capacity
        Lines kept; past that the store starts again.

    Examples
    --------
    >>> setter = Typesetter()
    >>> a = setter.centred_words("914", font("bold", 20), "bold", (50, 50), (0, 0, 0))
    >>> a is setter.centred_words("914", font("bold", 20), "bold", (50, 50), (0, 0, 0))
    True
    """

    def __init__(self, capacity: int = 4096) -> None:
        self._capacity = capacity
        self._words: dict[tuple[object, ...], Words] = {}
        self._cells: dict[tuple[object, ...], tuple[Block | Words, ...]] = {}

    def centred_words(self, text: str, face: ImageFont.FreeTypeFont, name: FontName,
                      centre: tuple[float, float], colour: tuple[int, int, int]) -> Words:
        """:func:`centred_words`, placed once."""
        key = (text, name, face.size, centre, colour)
        found = self._words.get(key)
        if found is None:
            if len(self._words) >= self._capacity:
                self._words.clear()
            found = self._words[key] = centred_words(text, face, name, centre, colour)
        return found

    def line_of_cells(
        self,
        cells: Sequence[str],
        face: ImageFont.FreeTypeFont,
        name: FontName,
        rect: Box,
        fill: tuple[int, int, int],
        *,
        boxed: int | None = None,
        box_fill: tuple[int, int, int] = (200, 16, 46),
        box_text: tuple[int, int, int] = (255, 255, 255),
    ) -> list[Block | Words]:
        """:func:`line_of_cells` (``-`` between cells), placed once."""
        key = (tuple(cells), name, face.size, rect, fill, boxed, box_fill, box_text)
        found = self._cells.get(key)
        if found is None:
            if len(self._cells) >= self._capacity:
                self._cells.clear()
            found = self._cells[key] = tuple(line_of_cells(
                cells, face, name, rect, fill, boxed=boxed, box_fill=box_fill,
                box_text=box_text))
        return list(found)
