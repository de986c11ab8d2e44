"""Pixel geometry of a hex grid: centres, corners, and pixel -> hex.

Centres are an affine function of axial coordinates (see ``coords``), so one
2x2 matrix and an origin describe any grid a scan can show: hex width and
height set separately, rotated, even sheared. ``Layout`` keeps the printed
parameters (``dx``, ``dy``, ``rotation``) for people and the matrix for maths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.errors import GridError
from pipeline.hexgrid.coords import SCALE, Hex, Orientation, scaled_corners

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Layout"]

Matrix = tuple[float, float, float, float]

@dataclass(frozen=True)
class Layout:
    """Where the grid sits on an image.

    Parameters
    ----------
    dx
        Column pitch in pixels: distance between the centres of neighbouring
        columns (flat-top), or hex width flat side to flat side (pointy-top).
        VASSAL's ``dx``.
    dy
        Row pitch in pixels: hex height flat side to flat side (flat-top), or
        distance between neighbouring rows' centres (pointy-top). VASSAL's ``dy``.
    x0, y0
        Pixel centre of the top-left hex (lattice column 0, row 0).
    rotation
        Degrees the grid is turned, clockwise on the image (y points down).
    affine
        Optional full 2x2 matrix ``(a, b, c, d)`` mapping pitch units to pixels
        (``x = a*u + b*v``, ``y = c*u + d*v``), for fitted grids with shear;
        when given it wins over ``dx``, ``dy`` and ``rotation``.

    Examples
    --------
    >>> Layout(dx=48.0, dy=55.0, x0=40.0, y0=40.0).matrix
    (48.0, 0.0, 0.0, 55.0)
    """

    dx: float
    dy: float
    x0: float = 0.0
    y0: float = 0.0
    rotation: float = 0.0
    affine: Matrix | None = None

    def __post_init__(self) -> None:
        values = (self.dx, self.dy, self.x0, self.y0, self.rotation, *(self.affine or ()))
        if not all(math.isfinite(v) for v in values):
            raise GridError("grid layout values must be finite numbers")
        if self.dx <= 0 or self.dy <= 0:
            raise GridError(f"hex pitch must be positive (dx={self.dx}, dy={self.dy})")
        a, b, c, d = self.matrix
        if abs(a * d - b * c) < 1e-9:
            raise GridError("grid layout matrix is singular")

    @property
    def matrix(self) -> Matrix:
        """The 2x2 matrix from pitch units to pixels."""
        if self.affine is not None:
            return self.affine
        t = math.radians(self.rotation)
        cos, sin = math.cos(t), math.sin(t)
        # "+ 0.0" keeps an unrotated matrix free of -0.0 in saved files.
        return (self.dx * cos, -self.dy * sin + 0.0, self.dx * sin, self.dy * cos)

    # -- axial <-> pitch units -----------------------------------------------------

    @staticmethod
    def _units(q: float, r: float, orientation: Orientation) -> tuple[float, float]:
        if orientation is Orientation.FLAT:
            return q, r + q / 2
        return q + r / 2, r

    def to_pixel(self, u: float, v: float) -> tuple[float, float]:
        """Pixel position of a point given in pitch units."""
        a, b, c, d = self.matrix
        return self.x0 + a * u + b * v, self.y0 + c * u + d * v

    def center(self, h: Hex, orientation: Orientation) -> tuple[float, float]:
        """Pixel centre of a hex."""
        return self.to_pixel(*self._units(h.q, h.r, orientation))

    def corners(self, h: Hex, orientation: Orientation) -> list[tuple[float, float]]:
        """The six pixel corners of a hex, clockwise on screen."""
        su, sv = SCALE[orientation]
        return [self.to_pixel(cu / su, cv / sv) for cu, cv in scaled_corners(h, orientation)]

    def fractional_axial(
        self, x: NDArray[np.float64], y: NDArray[np.float64], orientation: Orientation
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Fractional axial coordinates of pixel positions (arrays)."""
        a, b, c, d = self.matrix
        det = a * d - b * c
        px, py = x - self.x0, y - self.y0
        u = (d * px - b * py) / det
        v = (-c * px + a * py) / det
        if orientation is Orientation.FLAT:
            return u, v - u / 2
        return u - v / 2, v

    def hex_at(
        self, x: NDArray[np.float64], y: NDArray[np.float64], orientation: Orientation
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Axial ``(q, r)`` of the hexes holding pixel positions (arrays).

        Exact: cube rounding finds the hexagon that contains the point, which
        is the same hexagon :meth:`corners` draws (both are the affine image
        of the regular tiling).
        """
        import numpy as np  # only for pixel arrays: a rules question never loads it

        q, r = self.fractional_axial(x, y, orientation)
        s = -q - r
        rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
        dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
        fix_q = (dq > dr) & (dq > ds)
        fix_r = ~fix_q & (dr > ds)
        rq = np.where(fix_q, -rr - rs, rq)
        rr = np.where(fix_r, -rq - rs, rr)
        return rq.astype(np.int64), rr.astype(np.int64)
