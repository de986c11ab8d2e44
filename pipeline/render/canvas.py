"""A supersampled Pillow canvas that also paints Shapely geometry through masks.

Every drawing module of the renderer draws on one :class:`Canvas`: positions are
given in output pixels (pixel centres at integers, as in OpenCV) and drawn at
``supersample`` times the size, then averaged down by :meth:`Canvas.finish`.
Regions that are not single polygons (a rounded wood with a hole, the part of a
terrain left visible by later layers) are painted through a mask rasterised
from the geometry, so what is drawn is exactly the geometry the truth is
computed from.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import cv2
import numpy as np
import shapely
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from shapely.geometry.base import BaseGeometry

__all__ = ["Canvas", "polygons_of"]

RGB = tuple[int, int, int]
Point = tuple[float, float]


class Canvas:
    """Pillow drawing in supersampled coordinates; positions are given in output pixels.

    Parameters
    ----------
    width, height
        Output size in pixels.
    supersample
        Drawing scale (1 draws directly).
    paper
        Background colour.
    unit
        The size that widths given as fractions (:meth:`px`) are fractions of
        (the hex size across the flats).

    Examples
    --------
    >>> from shapely.geometry import box
    >>> c = Canvas(20, 10, 2, (255, 255, 255), unit=10.0)
    >>> c.fill_geometry(box(-0.5, -0.5, 9.5, 9.5), (0, 0, 0))
    >>> img = c.finish()
    >>> img.shape, int(img[5, 4, 0]), int(img[5, 15, 0])
    ((10, 20, 3), 0, 255)
    """

    def __init__(self, width: int, height: int, supersample: int, paper: RGB, unit: float
                 ) -> None:
        self.k = supersample
        self.size = (width, height)
        self.unit = unit
        self.image = Image.new("RGB", (width * self.k, height * self.k), paper)
        self.draw = ImageDraw.Draw(self.image)

    def ss(self, p: Point) -> Point:
        """An output-pixel position in supersampled pixels."""
        # Output pixel x covers [x - 0.5, x + 0.5], so x sits at sub-pixel
        # k * (x + 0.5) - 0.5. Pillow truncates coordinates to whole pixels; adding
        # 0.5 turns that into rounding, which is unbiased.
        return self.k * (p[0] + 0.5), self.k * (p[1] + 0.5)

    def px(self, fraction: float) -> int:
        """A width given as a fraction of the unit, in supersampled pixels (>= 1)."""
        return max(1, round(fraction * self.unit * self.k))

    def line(self, points: Sequence[Point], colour: RGB, width: int) -> None:
        """A polyline; ``width`` in supersampled pixels."""
        self.draw.line([self.ss(p) for p in points], fill=colour, width=width, joint="curve")

    def polygon(self, points: Sequence[Point], colour: RGB) -> None:
        """A filled polygon given by its corners in output pixels."""
        self.draw.polygon([self.ss(p) for p in points], fill=colour)

    def disc(self, centre: Point, radius: float, colour: RGB) -> None:
        """A filled disc; ``radius`` in output pixels."""
        x, y = self.ss(centre)
        r = radius * self.k
        self.draw.ellipse([(x - r, y - r), (x + r, y + r)], fill=colour)

    def mask(self, geometry: BaseGeometry) -> tuple[Image.Image, tuple[int, int]] | None:
        """A supersampled ``L`` mask of a (multi)polygon and where its top-left goes.

        ``None`` when the geometry is empty or lies off the canvas.
        """
        if geometry.is_empty:
            return None
        minx, miny, maxx, maxy = geometry.bounds
        x0 = max(0, math.floor(self.k * (minx + 0.5)) - 1)
        y0 = max(0, math.floor(self.k * (miny + 0.5)) - 1)
        x1 = min(self.image.width, math.ceil(self.k * (maxx + 0.5)) + 2)
        y1 = min(self.image.height, math.ceil(self.k * (maxy + 0.5)) + 2)
        if x1 <= x0 or y1 <= y0:
            return None
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        draw = ImageDraw.Draw(mask)
        for poly in polygons_of(geometry):
            draw.polygon(self._ring(poly.exterior.coords, x0, y0), fill=255)
            for hole in poly.interiors:
                draw.polygon(self._ring(hole.coords, x0, y0), fill=0)
        return mask, (x0, y0)

    def fill_geometry(self, geometry: BaseGeometry, colour: RGB) -> None:
        """Paint a (multi)polygon, holes left unpainted."""
        placed = self.mask(geometry)
        if placed is not None:
            mask, (x0, y0) = placed
            self.image.paste(colour, (x0, y0, x0 + mask.width, y0 + mask.height), mask)

    def layer(self, geometry: BaseGeometry) -> tuple[Image.Image, ImageDraw.ImageDraw,
                                                     tuple[int, int]] | None:
        """A blank layer over a geometry's box, to draw on and :meth:`paste` back."""
        placed = self.mask(geometry)
        if placed is None:
            return None
        mask, (x0, y0) = placed
        crop = self.image.crop((x0, y0, x0 + mask.width, y0 + mask.height))
        return crop, ImageDraw.Draw(crop), (x0, y0)

    def paste(self, layer: Image.Image, geometry: BaseGeometry, at: tuple[int, int]) -> None:
        """Put a layer back, only inside ``geometry`` (its drawing outside is dropped)."""
        placed = self.mask(geometry)
        if placed is None:
            return
        mask, (x0, y0) = placed
        if (x0, y0) != at or mask.size != layer.size:  # pragma: no cover - same geometry
            raise ValueError("layer and geometry do not match")
        self.image.paste(layer, (x0, y0), mask)

    def _ring(self, coords: Sequence[tuple[float, float]] | shapely.coords.CoordinateSequence,
              x0: int, y0: int) -> list[Point]:
        out = []
        for x, y in coords:
            sx, sy = self.ss((x, y))
            out.append((sx - x0, sy - y0))
        return out

    def pixels(self) -> NDArray[np.uint8]:
        """The supersampled picture as an array (a copy)."""
        return np.asarray(self.image, dtype=np.uint8).copy()

    def replace(self, pixels: NDArray[np.uint8]) -> None:
        """Swap in a processed supersampled picture (same size)."""
        if pixels.shape[:2] != (self.image.height, self.image.width):
            raise ValueError("the new picture must keep the canvas size")
        self.image = Image.fromarray(pixels, "RGB")
        self.draw = ImageDraw.Draw(self.image)

    def finish(self) -> NDArray[np.uint8]:
        """The picture at output size (each pixel the mean of its supersampled block)."""
        pixels = np.asarray(self.image, dtype=np.uint8)
        if self.k == 1:
            return pixels.copy()
        # INTER_AREA with an integer factor is the exact mean of each k x k block.
        small = cv2.resize(pixels, self.size, interpolation=cv2.INTER_AREA)
        return np.ascontiguousarray(small, dtype=np.uint8)


def polygons_of(geometry: BaseGeometry) -> Iterator[shapely.Polygon]:
    """The polygons of a geometry (a polygon, a multipolygon or a collection).

    >>> from shapely.geometry import box
    >>> len(list(polygons_of(box(0, 0, 1, 1).union(box(3, 0, 4, 1)))))
    2
    """
    if isinstance(geometry, shapely.Polygon):
        if not geometry.is_empty:
            yield geometry
        return
    for part in getattr(geometry, "geoms", ()):
        yield from polygons_of(part)
