"""The raster back-end: a :class:`pipeline.counters.art.Face` painted by Pillow.

Text is drawn by FreeType at the final resolution; the unit-type box, size
marks and icons come from :mod:`pipeline.counters.symbols` (drawn supersampled
once per kind and size, then pasted); SVG artwork is rasterised by resvg
(:func:`pipeline.counters.svg.rasterise`) and picture files are read and
resampled once per size.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from PIL import Image, ImageDraw

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
from pipeline.counters.svg import rasterise, svg_size
from pipeline.counters.symbols import icon_image, size_mark_image, symbol_image
from pipeline.counters.typeset import font
from pipeline.errors import ImageError

__all__ = ["artwork_image", "fit", "paint", "picture_size"]


def paint(face: Face) -> Image.Image:
    """The face as an RGB image ``face.size`` pixels square.

    Examples
    --------
    >>> from pipeline.counters.art import Block
    >>> image = paint(Face(4, (255, 255, 255), (Block((0, 0, 2, 4), (0, 0, 0)),)))
    >>> image.getpixel((1, 0)), image.getpixel((2, 0))
    ((0, 0, 0), (255, 255, 255))
    """
    image = Image.new("RGB", (face.size, face.size), face.background)
    draw = ImageDraw.Draw(image)
    for mark in face.marks:
        _paint(image, draw, mark)
    return image


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
        assert isinstance(art.data, bytes)
        return svg_size(art.data)
    return _picture(str(art.data), *_stamp(str(art.data))).size


def artwork_image(art: Artwork) -> tuple[Image.Image, Rect]:
    """The artwork drawn at its place: an RGBA image and the rectangle it covers."""
    where = art.rect if art.stretch else fit(art.rect, picture_size(art))
    width, height = where[2] - where[0], where[3] - where[1]
    if art.kind == "svg":
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
