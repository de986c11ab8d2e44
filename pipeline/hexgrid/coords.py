"""Axial hex coordinates: neighbours, distance, straight lines.

Inside bocage a hex is an axial coordinate ``Hex(q, r)`` on an infinite
lattice; printed ids and pixels are converted at the edges (``numbering`` and
``layout``). In axial coordinates the hex centre is an affine function of
``(q, r)``, which is what lets a fitted, rotated, stretched grid stay exact.

Flat-top grids: ``q`` is the column, centre ``(x, y) = (q, r + q/2)`` in
column-pitch / row-pitch units. Pointy-top grids: ``r`` is the row, centre
``(x, y) = (q + r/2, r)``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

__all__ = [
    "AXIAL_DIRECTIONS",
    "SCALE",
    "Hex",
    "Orientation",
    "Point",
    "axial_to_offset",
    "direction_names",
    "direction_vectors",
    "distance",
    "line",
    "offset_to_axial",
    "ring",
    "scaled_center",
    "scaled_center_qr",
    "scaled_corners",
]


class Orientation(StrEnum):
    """Which way the hexes point: flat tops (columns are straight) or pointy tops."""

    FLAT = "flat"
    POINTY = "pointy"


class Hex(NamedTuple):
    """A hex on the axial lattice. Ordering is by ``(q, r)``, so it is stable."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (``q + r + s == 0``)."""
        return -self.q - self.r


#: The six axial steps, clockwise from north (flat) / north-east (pointy).
#: Both orientations use the same six vectors; only the starting name differs.
AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0),
)
_FLAT_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
_POINTY_NAMES = ("NE", "E", "SE", "SW", "W", "NW")
# Pointy order starts at NE, which is the flat order's second vector.
_POINTY_VECTORS = AXIAL_DIRECTIONS[1:] + AXIAL_DIRECTIONS[:1]


def direction_names(orientation: Orientation) -> tuple[str, ...]:
    """The six direction names in the fixed clockwise order used everywhere."""
    return _FLAT_NAMES if orientation is Orientation.FLAT else _POINTY_NAMES


def direction_vectors(orientation: Orientation) -> tuple[tuple[int, int], ...]:
    """The axial step of each direction, in the order of :func:`direction_names`."""
    return AXIAL_DIRECTIONS if orientation is Orientation.FLAT else _POINTY_VECTORS

Point = tuple[int, int]

# Corners are computed from integers so that neighbouring hexes share them
# bit for bit (2/3 computed two ways differs in the last place, and GEOS then
# sees slivers): pitch units are scaled by 6 and 2 (flat) or 2 and 6 (pointy).
# Corner offsets run clockwise on screen; side i joins corner[i-1] and corner[i]
# and faces direction i of the orientation's direction order.
_FLAT = ((2, -1), (4, 0), (2, 1), (-2, 1), (-4, 0), (-2, -1))
_POINTY = ((1, -2), (1, 2), (0, 4), (-1, 2), (-1, -2), (0, -4))


SCALE: dict[Orientation, tuple[int, int]] = {
    Orientation.FLAT: (6, 2),
    Orientation.POINTY: (2, 6),
}


def scaled_center(h: Hex, orientation: Orientation) -> Point:
    """Hex centre in integer units: pitch units times ``SCALE[orientation]``."""
    return scaled_center_qr(h.q, h.r, orientation)


def scaled_center_qr[N: (int, Any)](q: N, r: N, orientation: Orientation) -> tuple[N, N]:
    """:func:`scaled_center` of axial ``q``, ``r`` given as ints or NumPy arrays."""
    if orientation is Orientation.FLAT:
        return 6 * q, 2 * r + q
    return 2 * q + r, 6 * r


def scaled_corners(h: Hex, orientation: Orientation) -> list[Point]:
    """Hex corners in the same integer units; neighbours share them exactly."""
    cx, cy = scaled_center(h, orientation)
    offsets = _FLAT if orientation is Orientation.FLAT else _POINTY
    return [(cx + dx, cy + dy) for dx, dy in offsets]



def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps between two hexes.

    >>> distance(Hex(0, 0), Hex(2, -1))
    2
    """
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` steps, clockwise (``[center]`` for radius 0)."""
    if radius == 0:
        return [center]
    dq, dr = AXIAL_DIRECTIONS[4]
    h = Hex(center.q + dq * radius, center.r + dr * radius)
    out = []
    for vq, vr in AXIAL_DIRECTIONS:
        for _ in range(radius):
            out.append(h)
            h = Hex(h.q + vq, h.r + vr)
    return out


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """A shortest grid path that follows the straight line between two centres.

    One hex per step (``distance + 1`` hexes), ties broken the same way every
    time. For line of sight, which needs every hex and hexside the drawn line
    touches, use :func:`pipeline.hexgrid.sight_line`.

    >>> line(Hex(0, 0), Hex(3, 0))
    [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=0), Hex(q=3, r=0)]
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    # A tiny fixed nudge sends points that fall on a hexside to the same side
    # every time.
    eps = 1e-6
    return [
        _cube_round(a.q + (b.q - a.q) * i / n + eps, a.r + (b.r - a.r) * i / n + 2 * eps)
        for i in range(n + 1)
    ]


def offset_to_axial(col: int, row: int, orientation: Orientation, shifted: int) -> Hex:
    """Lattice column/row (0-based) to axial.

    ``shifted`` (0 or 1) is the parity of the lattice columns (flat) or rows
    (pointy) that sit half a hex further along the other axis (down or right).
    """
    if orientation is Orientation.FLAT:
        return Hex(col, row - _half(col, shifted))
    return Hex(col - _half(row, shifted), row)


def axial_to_offset(h: Hex, orientation: Orientation, shifted: int) -> tuple[int, int]:
    """Axial to lattice ``(column, row)``; inverse of :func:`offset_to_axial`."""
    if orientation is Orientation.FLAT:
        return h.q, h.r + _half(h.q, shifted)
    return h.q + _half(h.r, shifted), h.r


def _half(k: int, shifted: int) -> int:
    # Lines with the shifted parity sit half a step further; the other lines
    # half a step back, so the axial offset is floor or ceil of k/2.
    # shifted == 1 (odd lines shifted): floor(k/2); shifted == 0: ceil(k/2).
    return k // 2 if shifted else -((-k) // 2)

