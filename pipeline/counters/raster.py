"""The raster back-end: a :class:`pipeline.counters.art.Face` painted by Pillow.

Text is drawn by FreeType at the final resolution; the unit-type box, size
marks and icons come from :mod:`pipeline.counters.symbols` (drawn supersampled
once per kind and size, then pasted); SVG artwork is rasterised by resvg
(:func:`pipeline.counters.svg.rasterise`) and picture files are read and
resampled once per size.

A :class:`Painter` painting many faces renders each line of text once: the
same values, formations and set-up hexes recur on face after face (and a unit's
back repeats its front's ids), and FreeType's rendering was most of the time
of painting a face.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pipeline.counters.art import (
    Area,
    Artwork,
    Block,
    Face,
    Icon,
    Mark,
    Rect,
    SizeMark,
    TypeBox,
    Words,
)
from pipeline.counters.symbols import icon_image, size_mark_image, symbol_image
from pipeline.counters.typeset import FontName, font
from pipeline.errors import ImageError

__all__ = ["Painter", "artwork_image", "fit", "paint", "picture_size"]

_Mask = tuple[Image.Image | None, int, int]
"""A line of text as FreeType renders it: its coverage (``None``: no ink) and where that
starts from the left end of the baseline."""


class Painter:
    """Paints faces, rendering each distinct line of text once.

    A line of text is FreeType's coverage mask, the one Pillow's ``ImageDraw.text``
    renders, kept with its offset from the baseline, then drawn in the mark's colour by
    the same call ``text`` ends with: the pixels are those of drawing the text each time.

    Parameters
    ----------
    capacity
        Lines kept (a few kilobytes each); past that the store starts again.

    Examples
    --------
    >>> from pipeline.counters.art import Words
    >>> painter = Painter()
    >>> faces = [Face(40, (255, 255, 255), (Words("5-4", "bold", 20, 2, 30, ink),))
    ...          for ink in ((0, 0, 0), (200, 0, 0))]
    >>> [len(painter.paint(f).getcolors(1600)) > 1 for f in faces], painter.lines  # inked
    ([True, True], 1)
    """

    def __init__(self, capacity: int = 4096) -> None:
        self._capacity = capacity
        self._masks: dict[tuple[FontName, int, str], _Mask] = {}

    @property
    def lines(self) -> int:
        """How many lines of text are kept."""
        return len(self._masks)

    def paint(self, face: Face) -> Image.Image:
        """The face as an RGB image ``face.size`` pixels square (see :func:`paint`)."""
        image = Image.new("RGB", (face.size, face.size), face.background)
        draw = ImageDraw.Draw(image)
        for mark in face.marks:
            if isinstance(mark, Words):
                self._words(draw, mark)
            else:
                _paint(image, draw, mark)
        return image

    def _words(self, draw: ImageDraw.ImageDraw, mark: Words) -> None:
        mask, left, top = self._mask(mark.font, mark.px, mark.text)
        if mask is not None:
            draw.bitmap((mark.x + left, mark.y + top), mask, fill=mark.colour)

    def _mask(self, name: FontName, px: int, text: str) -> _Mask:
        key = (name, px, text)
        found = self._masks.get(key)
        if found is None:
            if len(self._masks) >= self._capacity:
                self._masks.clear()
            found = self._masks[key] = _render(font(name, px), text)
        return found


def _render(face: ImageFont.FreeTypeFont, text: str) -> _Mask:
    """``text``'s coverage, rendered as ``ImageDraw.text`` renders it at a whole pixel."""
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor="ls"))
    if right <= left or bottom <= top:
        return None, left, top
    mask = Image.new("L", (right - left, bottom - top))
    # Full ink on nothing leaves the coverage itself in every pixel.
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor="ls")
    return mask, left, top


def paint(face: Face) -> Image.Image:
    """The face as an RGB image ``face.size`` pixels square.

    For many faces, :class:`Painter` renders each line of text once.

    Examples
    --------
    >>> from pipeline.counters.art import Block
    >>> image = paint(Face(4, (255, 255, 255), (Block((0, 0, 2, 4), (0, 0, 0)),)))
    >>> image.getpixel((1, 0)), image.getpixel((2, 0))
    ((0, 0, 0), (255, 255, 255))
    """
    return Painter().paint(face)


def _paint(image: Image.Image, draw: ImageDraw.ImageDraw, mark: Mark) -> None:
    if isinstance(mark, Block):
        left, top, right, bottom = mark.rect
        if right > left and bottom > top:
            draw.rectangle((left, top, right - 1, bottom - 1), fill=mark.colour)
    elif isinstance(mark, Words):
        draw.text((mark.x, mark.y), mark.text, font=font(mark.font, mark.px), fill=mark.colour,
                  anchor="ls")
    elif isinstance(mark, Area):
        draw.polygon(list(mark.points), fill=mark.colour)
    elif isinstance(mark, TypeBox):
        _type_box(image, mark)
    elif isinstance(mark, SizeMark):
        left, top, right, bottom = mark.rect
        strip = size_mark_image(mark.size, right - left, bottom - top, mark.stroke, mark.ink)
        image.paste(strip, (left, top), strip)
    elif isinstance(mark, Icon):
        left, top, right, _ = mark.rect
        picture = icon_image(mark.icon, right - left, mark.stroke, mark.ink)
        image.paste(picture, (left, top), picture)
    else:
        _artwork(image, mark)


def _type_box(image: Image.Image, box: TypeBox) -> None:
    left, top, right, bottom = box.rect
    if isinstance(box.symbol, str):
        image.paste(symbol_image(box.symbol, right - left, bottom - top, box.frame, box.fill,
                                 box.ink), (left, top))
        return
    if box.framed:
        image.paste(box.ink, (left, top, right, bottom))
        f = box.frame
        image.paste(box.fill, (left + f, top + f, right - f, bottom - f))
    _artwork(image, box.symbol)


def fit(rect: Rect, size: tuple[float, float]) -> Rect:
    """The largest rectangle of ``size``'s proportions centred in ``rect`` (whole pixels).

    >>> fit((0, 0, 100, 50), (10, 10))
    (25, 0, 75, 50)
    """
    left, top, right, bottom = rect
    width, height = right - left, bottom - top
    scale = min(width / size[0], height / size[1])
    w, h = max(1, round(size[0] * scale)), max(1, round(size[1] * scale))
    x, y = left + (width - w) // 2, top + (height - h) // 2
    return x, y, x + w, y + h


def picture_size(art: Artwork) -> tuple[float, float]:
    """The artwork's own width and height (SVG units, or a picture's pixels)."""
    if art.kind == "svg":
        # SVG support (lxml, and reportlab through the PDF fonts) loads only for a style
        # that draws SVG: the built-in counters start without it.
        from pipeline.counters.svg import svg_size

        assert isinstance(art.data, bytes)
        return svg_size(art.data)
    return _picture(str(art.data), *_stamp(str(art.data))).size


def artwork_image(art: Artwork) -> tuple[Image.Image, Rect]:
    """The artwork drawn at its place: an RGBA image and the rectangle it covers."""
    where = art.rect if art.stretch else fit(art.rect, picture_size(art))
    width, height = where[2] - where[0], where[3] - where[1]
    if art.kind == "svg":
        from pipeline.counters.svg import rasterise

        assert isinstance(art.data, bytes)
        return rasterise(art.data, width, height, art.base), where
    return _resized(str(art.data), *_stamp(str(art.data)), width, height), where


def _artwork(image: Image.Image, art: Artwork) -> None:
    picture, where = artwork_image(art)
    image.paste(picture, where[:2], picture)


def _stamp(path: str) -> tuple[int, int]:
    """A file's modification time and size: a changed picture is read again."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ImageError(Path(path), f"cannot read picture ({exc.strerror or exc})") from None
    return info.st_mtime_ns, info.st_size


@functools.lru_cache(maxsize=64)
def _picture(path: str, mtime: int, size: int) -> Image.Image:
    # The one image reader: a pixel limit, and one line for a broken or truncated file.
    from pipeline.imagefile import open_image

    return open_image(Path(path)).convert("RGBA")


@functools.lru_cache(maxsize=256)
def _resized(path: str, mtime: int, size: int, width: int, height: int) -> Image.Image:
    picture = _picture(path, mtime, size)
    if picture.size == (width, height):
        return picture
    return picture.resize((width, height), Image.Resampling.LANCZOS)
