"""The size a scan is read at: half its own when its hexes are big, and the way back.

No stage of a reading needs a hex more than a few dozen pixels across: the terrain
learner resamples every hex to 32 x 32 (:mod:`pipeline.digitize.patches`), and the grid,
the hexside lines and the symbols are read right on the foreign bench's hexes of 23 to
52 px from centre to corner. A big map scanned at 300 dpi has hexes of 80 to 110 px,
and a JPEG decodes at half its size in about a third of the time its whole takes (the
decoder skips the finest frequencies). So a big JPEG is read at half its size first
(:func:`first_reduction`); when its hexes come out under :data:`MIN_RADIUS` there
(:func:`big_enough`), it is read again whole. What a reading returns is in the scan's
own pixels: :class:`Rescale` takes what the builder gives (anchors, a layout, key
boxes) to the pixels read, and what was found back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import GridFit, Projection, layout_from_projection, with_layout
from pipeline.digitize.lens import Bend, Lens
from pipeline.digitize.light import Light
from pipeline.hexgrid import HexGrid
from pipeline.imagefile import probe_image, reduced_size

__all__ = ["GUESS_FROM", "MIN_RADIUS", "Rescale", "big_enough", "first_reduction", "read_size"]

F64 = NDArray[np.float64]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

MIN_RADIUS = 40.0
"""Pixels from a hex's centre to a corner, at the least, on the image a reading works on:
above the foreign bench's middle hex (38-40 px), with room to spare over its smallest (23)."""
GUESS_FROM = 16_000_000
"""Pixels a JPEG must have to be read at half its size first: a smaller one decodes whole
in a fraction of a second, too little to be worth a guess that may have to be read again."""


@dataclass(frozen=True)
class Rescale:
    """The pixels a reading works on and the scan's own: ``scan = reduce * work + shift``.

    ``shift`` is ``(reduce - 1) / 2``: a pixel of the reduced image covers ``reduce``
    of the scan's, its centre in the middle of theirs (OpenCV's pixel centres, as a
    JPEG decoder and :func:`cv2.resize` with area averaging reduce).

    Examples
    --------
    >>> half = Rescale(2)
    >>> half.to_scan(np.array([[0.0, 10.0]])).tolist()
    [[0.5, 20.5]]
    >>> half.point_in((20.5, 0.5))
    (10.0, 0.0)
    >>> half.box_in((100, 40, 60, 50))
    (50.0, 20.0, 30.0, 25.0)
    """

    reduce: int = 1

    @property
    def shift(self) -> float:
        """Where a reduced pixel's centre lies in the scan, less ``reduce`` times its index."""
        return (self.reduce - 1) / 2

    def to_scan(self, xy: F64) -> F64:
        """Positions ``(n, 2)`` on the reduced image, in the scan's pixels."""
        out: F64 = np.asarray(xy, np.float64) * self.reduce + self.shift
        return out

    def point_in(self, point: Point) -> Point:
        """A position on the scan, on the reduced image."""
        return ((point[0] - self.shift) / self.reduce, (point[1] - self.shift) / self.reduce)

    def anchors_in(self, anchors: Mapping[str, Point] | None) -> Mapping[str, Point] | None:
        """Anchors (hex id -> scan pixels) on the reduced image."""
        if anchors is None or self.reduce == 1:
            return anchors
        return {k: self.point_in(p) for k, p in anchors.items()}

    def grid_in(self, grid: HexGrid | None) -> HexGrid | None:
        """A grid whose layout is in the scan's pixels, with it on the reduced image."""
        if grid is None or grid.layout is None or self.reduce == 1:
            return grid
        k, lay = self.reduce, grid.layout
        x0, y0 = self.point_in((lay.x0, lay.y0))
        affine = None if lay.affine is None else tuple(v / k for v in lay.affine)
        return with_layout(grid, replace(lay, dx=lay.dx / k, dy=lay.dy / k, x0=x0, y0=y0,
                                         affine=affine))  # type: ignore[arg-type]

    def box_in(self, box: Box) -> Box:
        """A box ``(x, y, w, h)`` on the scan (edges, not centres), on the reduced image."""
        k = self.reduce
        return (box[0] / k, box[1] / k, box[2] / k, box[3] / k)

    def fit_out(self, fit: GridFit) -> GridFit:
        """A grid located on the reduced image, located on the scan.

        The homography is followed by the same scaling, a lens is the same lens about
        the same point of the sheet, a bend moves as many times further.
        """
        if self.reduce == 1:
            return fit
        k, c = float(self.reduce), self.shift
        to_scan = np.array([[k, 0.0, c], [0.0, k, c], [0.0, 0.0, 1.0]])
        homography = to_scan @ fit.homography
        lens = None if fit.lens is None else Lens(
            (k * fit.lens.centre[0] + c, k * fit.lens.centre[1] + c), k * fit.lens.norm,
            fit.lens.k1, fit.lens.k2)
        bend = None if fit.bend is None else Bend(fit.bend.origin, fit.bend.spacing,
                                                 fit.bend.coefficients * k)
        grid = with_layout(fit.grid, layout_from_projection(
            fit.grid, Projection(homography, lens, bend)))
        return GridFit(grid, homography, fit.residual * k, fit.support, fit.method, lens, bend)

    def light_out(self, light: Light) -> Light:
        """A gain field over the reduced image, over the scan (the same field, stretched)."""
        if self.reduce == 1:
            return light
        return Light(light.coeffs, light.width * self.reduce, light.height * self.reduce)


def first_reduction(path: str | Path) -> int:
    """How much smaller to read a scan file first: 2 for a JPEG of :data:`GUESS_FROM`
    pixels or more, else 1 (only a JPEG decodes faster smaller).

    Raises :class:`~pipeline.errors.ImageError` for a file that is not an image or is
    over the pixel limit, as reading it would.
    """
    info = probe_image(path)
    return 2 if info.format == "JPEG" and info.width * info.height >= GUESS_FROM else 1


def big_enough(fit: GridFit) -> bool:
    """Whether a grid's hexes are at least :data:`MIN_RADIUS` from centre to corner.

    >>> from pipeline.hexgrid import Layout, Numbering, Orientation
    >>> grid = HexGrid(Orientation.FLAT, Numbering(), cols=2, rows=2,
    ...                layout=Layout(dx=60.0, dy=70.0))
    >>> big_enough(GridFit(grid, np.eye(3), 0.0, 4, "layout"))
    True
    """
    return fit.hex_width / math.sqrt(3.0) >= MIN_RADIUS


def read_size(path: str | Path, pixels: NDArray[np.uint8], reduce: int) -> tuple[int, int]:
    """The width and height of a scan file that read as ``pixels`` at ``1/reduce`` of its size
    (turned as the reader turned it by its EXIF tag)."""
    info = probe_image(path)
    width, height = info.width, info.height
    if reduced_size(width, height, reduce) != (pixels.shape[1], pixels.shape[0]):
        width, height = height, width
    return width, height
