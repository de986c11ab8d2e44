"""One face of a counter as a list of marks: laid out once, drawn by two back-ends.

:func:`pipeline.counters.render.unit_art` and ``marker_art`` lay a face out
as a :class:`Face`: its size, its colour, and marks in drawing order, every
coordinate in pixels of the face image (bleed included, y down). The raster
back-end (:mod:`pipeline.counters.raster`) paints it as the PNG faces; the
vector back-end (:mod:`pipeline.counters.vector`) draws the same marks as PDF
paths and text on a counter sheet. So the picture and the print cannot drift
apart: there is one layout, not two copies of it.

Marks are frozen dataclasses of plain values (they are sent to worker
processes and used as cache keys):

* :class:`Block`, a filled rectangle of whole pixels;
* :class:`Area`, a filled polygon (the no-ZOC hexagon);
* :class:`Words`, a line of text in a shipped font at a baseline;
* :class:`TypeBox`, the unit-type box: frame, fill and symbol (a built-in
  one from :mod:`pipeline.counters.symbols`, or an :class:`Artwork` the style
  names);
* :class:`SizeMark` and :class:`Icon`, the size mark above the box and a
  marker's picture;
* :class:`Artwork`, an SVG document or a picture file fitted into a rectangle
  (a style's symbol, a unit's own image, a filled counter template).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # typeset makes Words, so it imports this module
    from pipeline.counters.typeset import FontName

__all__ = [
    "RGB",
    "Area",
    "Artwork",
    "Block",
    "Face",
    "Icon",
    "Mark",
    "Rect",
    "SizeMark",
    "TypeBox",
    "Words",
]

RGB = tuple[int, int, int]
Rect = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` in whole pixels; right and bottom are exclusive."""


@dataclass(frozen=True)
class Block:
    """A filled rectangle covering the pixels ``left..right-1`` x ``top..bottom-1``."""

    rect: Rect
    colour: RGB


@dataclass(frozen=True)
class Area:
    """A filled polygon; points in pixels (Pillow's convention: a point is a pixel)."""

    points: tuple[tuple[float, float], ...]
    colour: RGB


@dataclass(frozen=True)
class Words:
    """A line of text: its left end at ``x`` and its baseline at ``y``, ``px`` the em size."""

    text: str
    font: FontName
    px: int
    x: int
    y: int
    colour: RGB


@dataclass(frozen=True)
class Artwork:
    """A picture fitted into ``rect``, keeping its proportions, centred.

    ``kind`` says what ``data`` is: ``"svg"``, the SVG document's bytes (fonts
    already mapped to the shipped ones, see :mod:`pipeline.counters.svg`);
    ``"bitmap"``, the path of a PNG or JPEG file. ``base`` is the folder an
    SVG's relative links are read from. ``stretch`` fills ``rect`` exactly
    (a counter template, whose page is the counter).
    """

    rect: Rect
    kind: Literal["svg", "bitmap"]
    data: bytes | str
    base: str = ""
    stretch: bool = False


@dataclass(frozen=True)
class TypeBox:
    """The unit-type box: an ``ink`` frame ``frame`` pixels wide, ``fill`` inside, a symbol.

    ``symbol`` is a key of :data:`pipeline.counters.symbols.SYMBOLS` or an
    :class:`Artwork` (its ``rect`` is the area it covers: inside the frame, or
    the whole box when the artwork draws its own frame, ``framed`` False).
    """

    rect: Rect
    symbol: str | Artwork
    frame: int
    fill: RGB
    ink: RGB
    framed: bool = True


@dataclass(frozen=True)
class SizeMark:
    """A unit-size mark (:data:`pipeline.counters.symbols.SIZE_MARKS`) in a strip."""

    rect: Rect
    size: str
    stroke: int
    ink: RGB


@dataclass(frozen=True)
class Icon:
    """A marker icon (:data:`pipeline.counters.symbols.ICONS`) in a square at ``rect``."""

    rect: Rect
    icon: str
    stroke: int
    ink: RGB


Mark = Block | Area | Words | Artwork | TypeBox | SizeMark | Icon


@dataclass(frozen=True)
class Face:
    """One face: ``size`` pixels square (bleed included), ``background``, then ``marks``.

    Examples
    --------
    >>> face = Face(10, (255, 255, 255), (Block((0, 0, 5, 10), (0, 0, 0)),))
    >>> face.marks[0].rect
    (0, 0, 5, 10)
    """

    size: int
    background: RGB
    marks: tuple[Mark, ...]
