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
from typing import NamedTuple

__all__ = [
    "AXIAL_DIRECTIONS",
    "Hex",
    "Orientation",
    "axial_to_offset",
    "direction_names",
    "direction_vectors",
    "distance",
    "line",
    "line_with_ties",
    "offset_to_axial",
    "ring",
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


# The six axial steps, clockwise from north (flat) / north-east (pointy).
# Both orientations use the same six vectors; only the starting name differs.
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


def line_with_ties(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The hexes a straight line from centre to centre passes, step by step.

    Each step is one hex, or two hexes when the line runs exactly along the
    hexside between them (line-of-sight rules decide what such a tie means).
    The line is taken on the regular lattice the printed map shows.
    """
    n = distance(a, b)
    if n == 0:
        return [(a,)]
    eps = 1e-6
    steps: list[tuple[Hex, ...]] = []
    for i in range(n + 1):
        t = i / n
        q = a.q + (b.q - a.q) * t
        r = a.r + (b.r - a.r) * t
        # Nudge both ways: equal results mean the point is inside one hex.
        h1 = _cube_round(q + eps, r + eps * 2)
        h2 = _cube_round(q - eps, r - eps * 2)
        steps.append((h1,) if h1 == h2 else tuple(sorted((h1, h2))))
    return steps


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on a straight line between two centres, one per step.

    Ties (the line runs along a hexside) are broken the same way every time.

    >>> line(Hex(0, 0), Hex(3, 0))
    [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=0), Hex(q=3, r=0)]
    """
    return [step[0] for step in line_with_ties(a, b)]


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

