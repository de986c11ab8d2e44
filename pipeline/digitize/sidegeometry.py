"""Where to read around hexsides: every hexside's corners and centres in scan pixels.

Two frames serve every reading:

* the **hexside frame**, from one corner (``t = 0``) to the other (``t = 1``),
  with offsets ``s`` across it in hex widths, positive towards hex b: what runs
  along a hexside (a river, a bar) lies near ``s = 0``;
* the **path frame**, from hex a's centre (``u = 0``) to hex b's (``u = 1``),
  with offsets ``v`` beside the path in hex widths: what crosses a hexside (a
  road) runs near ``v = 0`` and crosses it at ``u = 0.5``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import GridFit, among, hex_units
from pipeline.hexgrid import Hex, Hexside, Orientation
from pipeline.hexgrid.coords import SCALE, direction_vectors, scaled_corners

__all__ = ["SideGeometry", "side_geometry"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


@dataclass(frozen=True)
class SideGeometry:
    """Pixel geometry of hexsides.

    Attributes
    ----------
    sides
        The hexsides, sorted as :meth:`HexGrid.hexsides` sorts them.
    ends
        ``(n, 2, 2)``: corner to corner.
    centres
        ``(n, 2, 2)``: the centre of hex a, then of b.
    inner
        ``(n, 2)``: whether a and b are on the map.
    direction
        ``(n,)``: the direction from a to b (0-5, the grid's own order).
    width
        Hex width in pixels (across the flats).
    """

    sides: list[Hexside]
    ends: F64
    centres: F64
    inner: NDArray[np.bool_]
    direction: I64
    width: float

    def subset(self, rows: I64) -> SideGeometry:
        """The same geometry for the hexsides ``rows`` only."""
        return SideGeometry([self.sides[int(i)] for i in rows], self.ends[rows],
                            self.centres[rows], self.inner[rows], self.direction[rows],
                            self.width)

    def on_side(self, t: F64, s: F64) -> F32:
        """Points ``(n, len(t), len(s), 2)`` in the hexside frame (``s`` in hex widths)."""
        a, b = self.ends[:, 0], self.ends[:, 1]
        normal = _towards(_unit_normal(b - a), self.centres[:, 1] - self.centres[:, 0])
        return _frame(a, b - a, normal, t, np.asarray(s) * self.width)

    def on_path(self, u: F64, v: F64) -> F32:
        """Points ``(n, len(u), len(v), 2)`` in the path frame (``v`` in hex widths)."""
        ca, cb = self.centres[:, 0], self.centres[:, 1]
        return _frame(ca, cb - ca, _unit_normal(cb - ca), u, np.asarray(v) * self.width)


def side_geometry(fit: GridFit) -> SideGeometry:
    """Every hexside touching the fitted grid's hexes, in scan pixels.

    >>> from pipeline.digitize.gridfit import fit_centres
    >>> from pipeline.hexgrid import HexGrid
    >>> grid = HexGrid(Orientation.FLAT, cols=3, rows=1)
    >>> uv = hex_units(grid.hexes(), grid.orientation)
    >>> fit = fit_centres(grid, {grid.id(h): (50 + 30 * u, 50 + 30 * v)
    ...                          for h, (u, v) in zip(grid.hexes(), uv)})
    >>> geo = side_geometry(fit)
    >>> len(geo.sides), int(geo.inner.all(axis=1).sum())
    (16, 2)
    """
    grid = fit.grid
    orientation = grid.orientation
    ends, d, on_map = _hexsides(grid.hexes(), orientation)
    sides = [Hexside(Hex(a, b), Hex(c, e)) for a, b, c, e in ends.tolist()]
    su, sv = SCALE[orientation]
    # Side i of a hex joins its corners i-1 and i and faces direction i.
    offsets = np.array(scaled_corners(Hex(0, 0), orientation), float) / (su, sv)
    ua, ub = hex_units(ends[:, :2], orientation), hex_units(ends[:, 2:], orientation)
    units = np.stack([ua + offsets[d - 1], ua + offsets[d]], axis=1)
    pixel_ends = fit.to_pixel(units.reshape(-1, 2)).reshape(-1, 2, 2)
    centres = np.stack([fit.to_pixel(ua), fit.to_pixel(ub)], axis=1)
    return SideGeometry(sides, pixel_ends, centres, on_map, d, fit.hex_width)


def _hexsides(hexes: list[Hex], orientation: Orientation
              ) -> tuple[I64, I64, NDArray[np.bool_]]:
    """Every hexside touching ``hexes``, sorted as :meth:`HexGrid.hexsides` sorts them.

    Returns each side's hexes ``(n, 4)`` as ``a.q, a.r, b.q, b.r`` (``a < b``),
    the direction from a to b, and whether a and b are among ``hexes``, ``(n, 2)``.
    Worked out for all hexsides at once, where a loop over 17,000 of them would
    cost more than reading their pixels.
    """
    qr = np.array(hexes, np.int64).reshape(-1, 2)
    steps = np.array(direction_vectors(orientation), np.int64)
    nb = qr[:, None, :] + steps[None, :, :]
    here = np.broadcast_to(qr[:, None, :], nb.shape)
    # Hexes order by (q, r): the lesser one is a hexside's a.
    first = (here[..., 0] < nb[..., 0]) | (
        (here[..., 0] == nb[..., 0]) & (here[..., 1] < nb[..., 1]))
    a = np.where(first[..., None], here, nb).reshape(-1, 2)
    b = np.where(first[..., None], nb, here).reshape(-1, 2)
    ends = np.unique(np.concatenate([a, b], axis=1), axis=0)
    delta = ends[:, 2:] - ends[:, :2]
    d = np.argmax((delta[:, None, :] == steps[None, :, :]).all(axis=2), axis=1)
    on_map = np.stack([among(ends[:, :2], qr), among(ends[:, 2:], qr)], axis=1)
    return ends, d, on_map


def _frame(origin: F64, along: F64, normal: F64, t: F64, offsets: F64) -> F32:
    """``origin + along * t + normal * offset`` for every ``t`` and offset, in single precision.

    Pixel positions need no more, and a big scan's points are millions.
    """
    base = (origin[:, None, :] + along[:, None, :] * np.asarray(t)[None, :, None]).astype(
        np.float32)
    step = (normal[:, None, :] * np.asarray(offsets)[None, :, None]).astype(np.float32)
    out: F32 = base[:, :, None, :] + step[:, None, :, :]
    return out


def _unit_normal(v: F64) -> F64:
    n = np.stack([-v[:, 1], v[:, 0]], axis=-1)
    out: F64 = n / np.linalg.norm(n, axis=1)[:, None]
    return out


def _towards(normal: F64, direction: F64) -> F64:
    """Flip normals to point along ``direction`` (from hex a towards hex b)."""
    sign = np.sign((normal * direction).sum(axis=1))
    out: F64 = normal * np.where(sign == 0, 1.0, sign)[:, None]
    return out
